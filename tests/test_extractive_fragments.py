"""extractive_fragments against lighteval 0.13's / crfm-helm 0.5.16's own code (goldens made
by scripts/goldens/extractive_fragments_goldens.py): per-pair coverage, density and
compression, and each reference's mean."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from nlgmetrics import ExtractiveFragments, InputTypeError, InvalidInputError, InvalidOptionError, extractive_fragments
from nlgmetrics.registry import load

GOLDENS = Path(__file__).parent / "goldens" / "extractive_fragments"
GEN = json.loads((GOLDENS / "generated.json").read_text(encoding="utf-8"))


def _cases():
    return [c["summary"] for c in GEN["cases"]], [c["article"] for c in GEN["cases"]]


def test_generated_per_pair_equal_to_reference():
    summaries, articles = _cases()
    seg = ExtractiveFragments().stats(summaries, articles)
    assert seg.sums.tolist() == GEN["per_pair"]


@pytest.mark.parametrize("options, key", [({"case": True}, "per_pair_case_sensitive"), ({"remove_braces": False}, "per_pair_braces_kept")])
def test_generated_options_equal_to_reference(options, key):
    summaries, articles = _cases()
    assert ExtractiveFragments(**options).stats(summaries, articles).sums.tolist() == GEN[key]


@pytest.mark.parametrize("flavour", ["lighteval", "helm"])
def test_generated_means_equal_to_reference(flavour):
    summaries, articles = _cases()
    s = ExtractiveFragments(flavour).corpus_score(summaries, articles)
    assert [s.coverage, s.density, s.compression] == GEN[f"{flavour}_mean"]
    assert s.score == s.coverage and s.total == len(summaries)


def test_flavours_differ_only_in_the_mean_reduction():
    summaries, articles = _cases()
    assert GEN["lighteval_mean"] != GEN["helm_mean"]  # the goldens do tell the two apart
    a = ExtractiveFragments("lighteval").stats(summaries, articles)
    b = ExtractiveFragments("helm").stats(summaries, articles)
    assert a.sums.tolist() == b.sums.tolist()


def test_token_lists_equal_to_reference():
    m = ExtractiveFragments(tokenize="tokens")
    seg = m.stats([c["summary"] for c in GEN["token_cases"]], [c["article"] for c in GEN["token_cases"]])
    assert seg.sums.tolist() == GEN["token_per_pair"]
    # whitespace tokens count in |S| and |A| (compression 7/5); joined with spaces they
    # would vanish (compression 5/3)
    assert GEN["token_per_pair"][0] == [1.0, 1.0, 1.4]
    joined = ExtractiveFragments().stats([" ".join(GEN["token_cases"][0]["summary"])], [" ".join(GEN["token_cases"][0]["article"])])
    assert joined.sums[0, 2] == 5 / 3


def test_cnndm_real_outputs_equal_to_reference(corpora):
    real = json.loads((GOLDENS / "cnndm_real.json").read_text(encoding="utf-8"))
    root = corpora / "cnndm_pointer_generator"
    n = real["n_documents"]
    with gzip.open(root / "articles.jsonl.gz", "rt", encoding="utf-8") as f:
        articles = [json.loads(next(f))["article"] for _ in range(n)]
    with open(root / "summaries.jsonl", encoding="utf-8") as f:
        docs = [json.loads(next(f)) for _ in range(n)]
    for system, gold in real["systems"].items():
        summaries = [" ".join(d[system]) for d in docs]
        assert ExtractiveFragments().stats(summaries, articles).sums.tolist() == gold["per_pair"], system
        for flavour in ("lighteval", "helm"):
            s = ExtractiveFragments(flavour).corpus_score(summaries, articles)
            assert [s.coverage, s.density, s.compression] == gold[f"{flavour}_mean"], (system, flavour)


def test_known_values_and_registry():
    s = extractive_fragments(["the cat sat", "dog"], ["The cat sat on the mat .", "a cat"])
    # pair 1: one fragment of 3 (coverage 1, density 9/3, compression 7/3); pair 2: nothing
    assert (s.coverage, s.density, s.compression) == (0.5, 1.5, (7 / 3 + 2.0) / 2)
    assert load("extractive_fragments", flavour="helm").flavour == "helm"
    assert "flavour:helm" in str(ExtractiveFragments("helm").signature())


def test_streaming_merge_equals_batch():
    summaries, articles = _cases()
    m = ExtractiveFragments()
    m.update(summaries[:10], articles[:10])
    m.update(summaries[10:], articles[10:])
    assert m.compute().to_dict() == ExtractiveFragments().corpus_score(summaries, articles).to_dict()


def test_bad_input():
    with pytest.raises(InvalidOptionError):
        ExtractiveFragments("newsroom")
    with pytest.raises(InvalidOptionError, match="tokenize='tokens'"):
        ExtractiveFragments(tokenize="spacy")
    with pytest.raises(InvalidInputError, match="one article"):
        ExtractiveFragments().corpus_score(["a"], [["x", "y"]])
    with pytest.raises(InputTypeError):
        ExtractiveFragments(tokenize="tokens").corpus_score(["a b"], [["a"]])
    with pytest.raises(InvalidInputError):
        ExtractiveFragments(tokenize="tokens").corpus_score([["a"]], [["a"], ["b"]])


def test_cli_flavour_and_options(tmp_path, capsys):
    from nlgmetrics.cli.main import main

    summaries, articles = _cases()
    keep = [i for i, (s, a) in enumerate(zip(summaries, articles)) if "\n" not in s + a and s.strip() and a.strip()]
    (tmp_path / "hyp.txt").write_text("".join(summaries[i] + "\n" for i in keep), encoding="utf-8")
    (tmp_path / "ref.txt").write_text("".join(articles[i] + "\n" for i in keep), encoding="utf-8")
    assert main(["score", "-m", "extractive_fragments", "--fragments-flavour", "helm", "--fragments-keep-braces",
                 "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-f", "json"]) == 0
    out = json.loads(capsys.readouterr().out)[0]
    want = ExtractiveFragments("helm", remove_braces=False).corpus_score([summaries[i].rstrip() for i in keep],
                                                                          [articles[i].rstrip() for i in keep])
    assert (out["coverage"], out["density"], out["compression"]) == (want.coverage, want.density, want.compression)
    assert "flavour:helm" in out["signature"] and "braces:kept" in out["signature"]


def test_multi_ref_first_and_best():
    arts = [["a dog barked", "the cat sat on the mat"]]
    with pytest.raises(InvalidInputError):
        ExtractiveFragments().corpus_score(["the cat sat"], arts)
    first = ExtractiveFragments(multi_ref="first").corpus_score(["the cat sat"], arts)
    best = ExtractiveFragments(multi_ref="best").corpus_score(["the cat sat"], arts)
    assert (first.coverage, best.coverage, best.density, best.compression) == (0.0, 1.0, 3.0, 2.0)
    assert "multiref:best" in str(best.signature)


@pytest.mark.parametrize("metric, options", [
    ("extractive_fragments", {}),
    ("ragas_string", {"flavour": "non_llm_string_similarity"}),
])
def test_cli_several_references_need_edit_multi_ref(tmp_path, capsys, metric, options):
    """Two references a segment: refused with exit 1 by default; ``--edit-multi-ref best`` gives
    the API's ``multi_ref="best"`` number (the release check scores the bundled sample so)."""
    from nlgmetrics.cli.main import main

    hyps = ["the cat sat on the mat", "a dog barked at night"]
    refs = [["the cat sat on a mat today", "cats sit"], ["dogs bark", "a dog barked at the moon at night"]]
    records = "".join(json.dumps({"prediction": h, "references": r}) + "\n" for h, r in zip(hyps, refs))
    (tmp_path / "in.jsonl").write_text(records, encoding="utf-8")
    flags = ["--ragas-flavour", options["flavour"]] if options else []
    argv = ["score", "-m", metric, *flags, "--jsonl", str(tmp_path / "in.jsonl"), "-f", "json"]
    assert main(argv) == 1
    capsys.readouterr()
    assert main([*argv, "--edit-multi-ref", "best"]) == 0
    out = json.loads(capsys.readouterr().out)[0]
    assert out["score"] == load(metric, multi_ref="best", **options).corpus_score(hyps, refs).score
    assert "multiref:best" in out["signature"]
