"""The COCO pipeline (COCOEvalCap natively) and the ``nlgmetrics coco`` command."""

from __future__ import annotations

import io
import json

import pytest

from nlgmetrics.cli.main import main
from nlgmetrics.tasks.coco import evaluate, load_annotations, load_results, register_scorer
from nlgmetrics.errors import InputTypeError, InvalidInputError

REL = 1e-9


@pytest.fixture(scope="module")
def coco(corpora):
    base = corpora / "captioning_coco"
    expected = {d["system"]: d for d in json.loads((base / "expected_pycocoevalcap.json").read_text())["computed"]}
    return base, load_annotations(base / "references.jsonl"), expected


@pytest.mark.parametrize("system", ["mscoco__magic_result", "mscoco__mscoco_in_domain_clipretrieval", "flickr30k_model_to_mscoco__top_k_result_run_3"])
def test_corpus_formats_match_expected(coco, system):
    """The whole pipeline from the corpus files (all 19 systems: test_bleu_coco/test_cider)."""
    base, ann, expected = coco
    for f in [base / "systems" / f"{system}.tsv"]:
        ev = evaluate(ann, load_results(f))
        e = expected[f.stem]
        assert len(ev.image_ids) == e["n"]
        for k in ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"):
            assert ev.eval[k] == e[k], (f.stem, k)
        assert ev.eval["CIDEr"] == pytest.approx(e["CIDEr"], rel=REL), f.stem
        assert ev.bleu_stats == e["bleu_stats"]
        # METEOR (native METEOR 1.5) and ROUGE-L (coco flavour) complete COCOEvalCap's table.
        assert list(ev.eval) == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"]
        assert ev.eval["METEOR"] == pytest.approx(e["METEOR"], rel=REL), f.stem
        assert ev.eval["ROUGE_L"] == pytest.approx(e["ROUGE_L"], rel=REL), f.stem


@pytest.fixture(scope="module")
def coco_json(tmp_path_factory, coco):
    """A small COCO-format annotation file and results file built from the corpus."""
    base, ann, _ = coco
    rows = [line.rstrip("\n").split("\t", 1) for line in (base / "systems" / "mscoco__magic_result.tsv").open(encoding="utf-8")][:300]
    names = [n for n, _ in rows]
    ids = {n: 1000 + i for i, n in enumerate(ann)}
    images = [{"id": ids[n], "file_name": n} for n in ann if n in set(names) or ids[n] % 7 == 0][:400]
    kept = {im["id"] for im in images}
    annotations = [{"image_id": ids[n], "id": k, "caption": c} for k, (n, c) in enumerate((n, c) for n in ann for c in ann[n]) if ids[n] in kept]
    results = [{"image_id": ids[n], "caption": c} for n, c in rows]
    tmp_path = tmp_path_factory.mktemp("coco")
    a, r = tmp_path / "captions.json", tmp_path / "results.json"
    a.write_text(json.dumps({"images": images, "annotations": annotations}))
    r.write_text(json.dumps(results))
    return a, r, rows, ann


def test_coco_json_matches_pycocoevalcap(coco_json):
    pytest.importorskip("pycocoevalcap")
    import contextlib

    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider

    from nlgmetrics.tasks.coco import ptb_tokenize

    a, r, rows, ann = coco_json
    ev = evaluate(a, r)
    # COCOEvalCap with its tokenizer replaced by ours (identical tokens: test_ptb.py).
    gts = {n: ptb_tokenize(ann[n]) for n, _ in rows}
    res = {n: ptb_tokenize([c]) for n, c in rows}
    flat = ptb_tokenize([c for n, _ in rows for c in ann[n]])
    k = 0
    for n, _ in rows:
        gts[n] = flat[k : k + len(ann[n])]
        k += len(ann[n])
    hyps = ptb_tokenize([c for _, c in rows])
    res = {n: [h] for (n, _), h in zip(rows, hyps)}
    with contextlib.redirect_stdout(io.StringIO()):
        b, b_per = Bleu(4).compute_score(gts, res)
    c, c_per = Cider().compute_score(gts, res)
    assert [ev.eval[f"Bleu_{i}"] for i in range(1, 5)] == b
    assert ev.eval["CIDEr"] == pytest.approx(c, rel=REL)
    per = ev.img_to_eval
    first = next(iter(per.values()))
    assert first["Bleu_4"] == b_per[3][0] and first["CIDEr"] == pytest.approx(c_per[0], rel=REL)
    assert len(per) == 300


def test_cli_text_json_tsv(coco_json, capsys):
    a, r, _, _ = coco_json
    assert main(["coco", "--annotations", str(a), "--results", str(r)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in text] == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"]
    assert main(["coco", "-a", str(a), "-R", str(r), "--format", "json", "--per-image"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["n_images"] == 300 and len(doc["img_to_eval"]) == 300
    assert f"{doc['eval']['Bleu_1']:.3f}" == text[0].split(": ")[1]
    assert main(["coco", "-a", str(a), "-R", str(r), "--format", "tsv", "--per-image"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "image_id\tBleu_1\tBleu_2\tBleu_3\tBleu_4\tMETEOR\tROUGE_L\tCIDEr" and len(lines) == 301


def test_cli_errors(tmp_path, coco_json, capsys):
    a, r, _, _ = coco_json
    assert main(["coco", "-a", str(a)]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["coco", "-a", str(a), "-R", str(bad)]) == 1
    assert "invalid JSON" in capsys.readouterr().err
    assert main(["coco", "-a", str(tmp_path / "missing.json"), "-R", str(r)]) == 1
    dup = tmp_path / "dup.json"
    dup.write_text(json.dumps([{"image_id": 1, "caption": "a"}, {"image_id": 1, "caption": "b"}]))
    assert main(["coco", "-a", str(a), "-R", str(dup)]) == 1
    assert "more than one" in capsys.readouterr().err
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{"image_id": -5, "caption": "a"}]))
    assert main(["coco", "-a", str(a), "-R", str(other)]) == 1


def test_ignored_results_warn_and_types(coco_json):
    a, r, rows, _ = coco_json
    results = json.loads(r.read_text()) + [{"image_id": -1, "caption": "x"}]
    with pytest.warns(UserWarning, match="no annotations"):
        ev = evaluate(a, results)
    assert len(ev.image_ids) == 300
    with pytest.raises(InputTypeError):
        load_results([{"image_id": 1, "caption": 5}])
    with pytest.raises(InvalidInputError):
        load_annotations({"images": []})


def test_scorer_hook(coco_json):
    from nlgmetrics.tasks import coco as mod

    a, r, _, _ = coco_json
    saved = dict(mod._EXTRA_SCORERS)
    register_scorer("SPICE", lambda refs, preds: (0.5, [0.5] * len(preds)))
    try:
        ev = evaluate(a, r)
        assert list(ev.eval) == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr", "SPICE"]
        assert ev.eval["SPICE"] == 0.5
    finally:
        mod._EXTRA_SCORERS.clear()
        mod._EXTRA_SCORERS.update(saved)


def test_score_subcommand_cider_and_coco_bleu(tmp_path, capsys, coco):
    base, ann, _ = coco
    rows = [line.rstrip("\n").split("\t", 1) for line in (base / "systems" / "mscoco__magic_result.tsv").open(encoding="utf-8")][:200]
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\n".join(c for _, c in rows) + "\n")
    ref_paths = []
    for k in range(5):
        p = tmp_path / f"ref{k}.txt"
        p.write_text("\n".join(ann[n][k] for n, _ in rows) + "\n")
        ref_paths += ["-r", str(p)]
    assert main(["score", "-i", str(hyp), *ref_paths, "-m", "cider", "bleu", "--bleu-flavour", "coco", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    from nlgmetrics import BLEU, CIDEr

    hyps, refs = [c for _, c in rows], [[ann[n][k] for k in range(5)] for n, _ in rows]
    assert out[0]["score"] == CIDEr().corpus_score(hyps, refs).score
    assert out[1]["score"] == BLEU(flavour="coco").corpus_score(hyps, refs).score
    assert "flavour:cider-d" in out[0]["signature"]
    df = tmp_path / "df.json.gz"
    from nlgmetrics import CiderDF

    CiderDF.fit(list(ann.values())[:1000]).save(df)
    assert main(["score", "-i", str(hyp), *ref_paths, "-m", "cider", "--cider-df", str(df), "-b"]) == 0
    assert float(capsys.readouterr().out) > 0
    assert main(["list"]) == 0
    assert "cider" in capsys.readouterr().out


def test_docstring_examples():
    import doctest

    import nlgmetrics.tasks.rewards
    import nlgmetrics.tasks.coco
    import nlgmetrics.metrics.bleu_coco
    import nlgmetrics.metrics.cider

    for mod in (nlgmetrics.tasks.rewards, nlgmetrics.tasks.coco, nlgmetrics.metrics.bleu_coco, nlgmetrics.metrics.cider):
        result = doctest.testmod(mod)
        assert result.failed == 0 and result.attempted > 0, mod.__name__


def test_tsv_results_find_integer_image_ids(coco_json, tmp_path, capsys):
    # COCO annotation files number their images; a TSV's ids are text: "1042" finds 1042
    a, r, _, _ = coco_json
    results = json.loads(r.read_text())
    tsv = tmp_path / "res.tsv"
    tsv.write_text("".join(f"{x['image_id']}\t{x['caption']}\n" for x in results), encoding="utf-8")
    assert main(["coco", "-a", str(a), "-R", str(r), "--format", "json"]) == 0
    want = json.loads(capsys.readouterr().out)
    assert main(["coco", "-a", str(a), "-R", str(tsv), "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["n_images"] == want["n_images"] == 300 and got["eval"] == want["eval"]
    ev = evaluate(a, tsv)
    assert ev.image_ids == evaluate(a, r).image_ids  # the annotations' integer ids
