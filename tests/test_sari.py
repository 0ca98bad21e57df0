"""SARI: ``==`` to EASSE's corpus_sari, evaluate's sari and the original SARI.py
(goldens from the programs themselves: scripts/goldens/make_sari_goldens.py), on real
corpora slices and generated adversarial cases; streaming/merging properties; errors."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest

from nlgmetrics import SARI, load
from nlgmetrics._core import __version__ as _v


def nlgmetrics_version():
    return _v
from nlgmetrics.errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError

GOLDENS = json.loads((Path(__file__).parent / "goldens" / "sari" / "goldens.json").read_text(encoding="utf-8"))["cases"]
CASES = {c["name"]: c for c in GOLDENS}
IDS = [c["name"] for c in GOLDENS]


@pytest.mark.parametrize("name", IDS)
def test_easse_corpus_sari_equals_goldens(name):
    c = CASES[name]
    s = SARI("easse").corpus_score(c["predictions"], c["references"], sources=c["sources"])
    g = c["easse"]
    assert s.score == g["corpus"]
    assert (s.add, s.keep, s.delete) == (g["add"], g["keep"], g["del"])


@pytest.mark.parametrize("name", IDS)
def test_easse_sentence_sari_equals_goldens(name):
    c = CASES[name]
    got = SARI("easse").sentence_scores(c["predictions"], c["references"], sources=c["sources"])
    assert got.tolist() == c["easse"]["sentences"]


@pytest.mark.parametrize("option", sorted(CASES["cjk_fullwidth_case"]["easse_options"]))
def test_easse_tokenizer_and_case_options_equal_goldens(option):
    c = CASES["cjk_fullwidth_case"]
    g = c["easse_options"][option]
    m = SARI("easse", tokenize=g["tokenizer"], lowercase=g["lowercase"])
    assert m.corpus_score(c["predictions"], c["references"], sources=c["sources"]).score == g["corpus"]
    assert m.sentence_scores(c["predictions"], c["references"], sources=c["sources"]).tolist() == g["sentences"]


@pytest.mark.parametrize("flavour", ["evaluate", "xu2016"])
@pytest.mark.parametrize("name", IDS)
def test_sentence_mean_flavours_equal_goldens(flavour, name):
    c = CASES[name]
    m = SARI(flavour)
    assert m.corpus_score(c["predictions"], c["references"], sources=c["sources"]).score == c[flavour]["corpus"]
    assert m.sentence_scores(c["predictions"], c["references"], sources=c["sources"]).tolist() == c[flavour]["sentences"]


def test_flavours_differ_by_points_on_the_docstring_example():
    c = CASES["evaluate_docstring"]
    scores = {f: SARI(f).corpus_score(c["predictions"], c["references"], sources=c["sources"]).score for f in ("easse", "evaluate", "xu2016")}
    assert scores["evaluate"] == 26.953601953601954  # evaluate's own docstring value
    assert abs(scores["easse"] - scores["evaluate"]) > 4


@pytest.mark.parametrize("flavour", ["easse", "evaluate", "xu2016"])
def test_streaming_and_merge_equal_one_pass(flavour):
    c = CASES["random_varying_refs"]
    p, r, s = c["predictions"], c["references"], c["sources"]
    one = SARI(flavour).corpus_score(p, r, sources=s)
    a, b = SARI(flavour), SARI(flavour)
    for i in range(0, 60, 7):
        a.update(p[i:min(i + 7, 60)], r[i:min(i + 7, 60)], sources=s[i:min(i + 7, 60)])
    b.add_batch(predictions=p[60:], references=r[60:], sources=s[60:])
    merged = a.merge(b).compute()
    assert merged.score == one.score
    assert merged.signature.format() == one.signature.format()
    rt = pickle.loads(pickle.dumps(SARI(flavour, sources=s)))
    assert rt.corpus_score(p, r).score == one.score


def test_bound_sources_and_threads():
    c = CASES["wmt22_zhen_two_refs"]
    bound = SARI(sources=c["sources"], n_threads=1)
    assert bound.corpus_score(c["predictions"], c["references"]).score == c["easse"]["corpus"]
    assert SARI(n_threads=3).stats(c["predictions"], c["references"], sources=c["sources"]).counts.tolist() == \
        bound.stats(c["predictions"], c["references"]).counts.tolist()


def test_signature_names_flavour():
    c = CASES["xu2016_main"]
    sig = {f: SARI(f).corpus_score(c["predictions"], c["references"], sources=c["sources"]).signature.format(short=True) for f in ("easse", "evaluate", "xu2016")}
    assert sig["easse"] == "#:3|f:easse|tok:13a|c:lc|v:nlgmetrics-" + nlgmetrics_version()
    assert sig["evaluate"] == "#:3|f:evaluate|tok:13a|c:lc|v:nlgmetrics-" + nlgmetrics_version()
    assert sig["xu2016"] == "#:3|f:xu2016|tok:space|c:lc|v:nlgmetrics-" + nlgmetrics_version()
    assert load("sari", flavour="evaluate").flavour == "evaluate"


def test_sentence_parts_and_bootstrap_totals():
    c = CASES["cnndm_lead80_pgcov"]
    m = SARI()
    parts = m.sentence_parts(c["predictions"][:5], c["references"][:5], sources=c["sources"][:5])
    assert parts["score"].tolist() == c["easse"]["sentences"][:5]
    assert np.allclose((parts["add"] + parts["keep"] + parts["del"]) / 3, parts["score"], rtol=0, atol=1e-12)
    seg = m.stats(c["predictions"], c["references"], sources=c["sources"])
    tot = seg.total()
    assert m._scores_from_totals(tot.counts.reshape(1, -1), np.zeros((1, 0)), n_segments=np.array([tot.n_segments]))[0] == c["easse"]["corpus"]


@pytest.mark.parametrize("flavour", ["easse", "evaluate", "xu2016"])
def test_bootstrap_and_paired_test_run_on_bound_sources(flavour):
    from nlgmetrics.engines.significance import bootstrap_ci, paired_test

    c = CASES["wmt22_zhen_two_refs"]
    m = SARI(flavour, sources=c["sources"])
    ci = bootstrap_ci(m, m.stats(c["predictions"], c["references"]), n_resamples=50)
    assert ci.score.score == c[flavour]["corpus"] and ci.lower < ci.score.score < ci.upper
    res = paired_test(m, c["references"], ("base", c["sources"]), [("sys", c["predictions"])], n_samples=50)
    assert res.systems[1].score == c[flavour]["corpus"]


def test_pairwise_with_one_bound_source():
    m = SARI("evaluate", sources="a b c")
    got = m.pairwise(["a b", "a c d"], ["a b", "c"])
    want = [[m.corpus_score([p], [[r]], sources=["a b c"]).score for r in ("a b", "c")] for p in ("a b", "a c d")]
    assert got.tolist() == want
    with pytest.raises(InvalidInputError, match="one source"):
        SARI().pairwise(["a"], ["a"])


def test_errors():
    with pytest.raises(InvalidInputError, match="needs the sources"):
        SARI().corpus_score(["a"], [["a"]])
    with pytest.raises(LengthMismatchError):
        SARI().corpus_score(["a", "b"], [["a"], ["b"]], sources=["a"])
    with pytest.raises(InvalidOptionError, match="flavour"):
        SARI("tensor2tensor")
    with pytest.raises(InvalidOptionError, match="tokenizer"):
        SARI(tokenize="none")
    with pytest.raises(InvalidOptionError, match="fixes its preprocessing"):
        SARI("evaluate", lowercase=False)
    with pytest.raises(InputTypeError):
        SARI().corpus_score(["a"], [["a"]], sources=[3])
    with pytest.raises(InvalidInputError, match="nothing to score"):
        SARI("evaluate").compute()


def _cli(*args: str):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "nlgmetrics", *args], capture_output=True, text=True, timeout=120)


def test_cli_reads_sources(tmp_path):
    c = CASES["random_uniform_refs"]
    (tmp_path / "src").write_text("\n".join(c["sources"]) + "\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("\n".join(c["predictions"]) + "\n", encoding="utf-8")
    refs = []
    for k in range(4):
        (tmp_path / f"ref{k}").write_text("\n".join(r[k] for r in c["references"]) + "\n", encoding="utf-8")
        refs += ["-r", str(tmp_path / f"ref{k}")]
    # lines are read as the CLI reads them: compare with the API on the same files' lines
    from nlgmetrics.io.text import read_lines

    srcs, hyps = read_lines(str(tmp_path / "src")), read_lines(str(tmp_path / "hyp"))
    rs = [list(x) for x in zip(*(read_lines(str(tmp_path / f"ref{k}")) for k in range(4)))]
    for flavour in ("easse", "evaluate"):
        run = _cli("score", "-m", "sari", "--sari-flavour", flavour, "--source", str(tmp_path / "src"), *refs, "-i", str(tmp_path / "hyp"), "-b", "-w", "12")
        assert run.returncode == 0, run.stderr
        assert float(run.stdout) == round(SARI(flavour).corpus_score(hyps, rs, sources=srcs).score, 12)
    missing = _cli("score", "-m", "sari", *refs, "-i", str(tmp_path / "hyp"))
    assert missing.returncode == 2 and "--source" in missing.stderr and "Traceback" not in missing.stderr


from hypothesis import given, settings, strategies as st  # noqa: E402

_text = st.text(st.sampled_from(list("ab c.\u00e9\u6f22\u3000\tA!")), max_size=14)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_text, _text, st.lists(_text, min_size=1, max_size=3)), min_size=1, max_size=6), st.integers(0, 5))
def test_generated_text_scores_in_range_and_split_anywhere(rows, cut):
    srcs = [r[0] for r in rows]
    preds = [r[1] for r in rows]
    refs = [r[2] for r in rows]
    cut = min(cut, len(rows))
    for flavour in ("easse", "evaluate", "xu2016"):
        m = SARI(flavour)
        whole = m.corpus_score(preds, refs, sources=srcs).score
        sent = m.sentence_scores(preds, refs, sources=srcs)
        assert 0.0 <= whole <= 100.0 and ((sent >= 0) & (sent <= 100)).all()
        if flavour != "easse":  # a mean of the sentence scores, in segment order
            total = 0
            for v in m.stats(preds, refs, sources=srcs).sums[:, 3].tolist():
                total += v
            assert whole == 100 * (total / len(sent))
        a = SARI(flavour)
        if cut:
            a.update(preds[:cut], refs[:cut], sources=srcs[:cut])
        if cut < len(rows):
            a.update(preds[cut:], refs[cut:], sources=srcs[cut:])
        assert a.compute().score == whole


def test_evaluate_faces():
    from nlgmetrics.compat import evaluate as compat
    from nlgmetrics.integrations import evaluate as face

    c = CASES["random_varying_refs"]
    m = compat.load("sari")
    assert m.compute(sources=c["sources"], predictions=c["predictions"], references=c["references"]) == {"sari": c["evaluate"]["corpus"]}
    m.add_batch(sources=c["sources"][:50], predictions=c["predictions"][:50], references=c["references"][:50])
    m.add_batch(sources=c["sources"][50:], predictions=c["predictions"][50:], references=c["references"][50:])
    assert m.compute() == {"sari": c["evaluate"]["corpus"]}
    with pytest.raises(InvalidOptionError, match="flavour"):
        face.load("sari")
    got = face.load("sari", flavour="xu2016").compute(sources=c["sources"], predictions=c["predictions"], references=c["references"])
    assert got["score"] == c["xu2016"]["corpus"]


def test_cli_sentence_level_and_refused_streaming(tmp_path):
    c = CASES["repeated_ngrams"]
    for name, lines in (("src", c["sources"]), ("hyp", c["predictions"]), ("ref", [r[0] for r in c["references"]])):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    common = ["-m", "sari", "--source", str(tmp_path / "src"), "-r", str(tmp_path / "ref"), "-i", str(tmp_path / "hyp")]
    run = _cli("score", *common, "-sl", "-w", "12")
    assert run.returncode == 0, run.stderr
    want = SARI().sentence_scores(c["predictions"], [[r[0]] for r in c["references"]], sources=c["sources"])
    assert [float(line.split("=")[1]) for line in run.stdout.split("\n") if line] == [round(v, 12) for v in want]
    (tmp_path / "hyp2").write_text("\n".join(c["sources"]) + "\n", encoding="utf-8")
    compared = _cli("compare", "-pbs", "-m", "sari", "--source", str(tmp_path / "src"), "-r", str(tmp_path / "ref"),
                    "-i", str(tmp_path / "hyp"), str(tmp_path / "hyp2"), "--paired-bs-n", "20")
    assert compared.returncode == 0, compared.stderr
    refused = _cli("score", *common, "--chunk-size", "2")
    assert refused.returncode == 2 and "--chunk-size" in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.parametrize("name", IDS)
def test_easse_legacy_equals_goldens(name):
    c = CASES[name]
    m = SARI("easse", legacy=True)
    s = m.corpus_score(c["predictions"], c["references"], sources=c["sources"])
    g = c["easse_legacy"]
    assert (s.score, s.add, s.keep, s.delete) == (g["corpus"], g["add"], g["keep"], g["del"])
    assert m.sentence_scores(c["predictions"], c["references"], sources=c["sources"]).tolist() == g["sentences"]
    assert "legacy:yes" in s.signature.format()


@pytest.mark.parametrize("flavour", ["easse", "evaluate", "xu2016"])
def test_plain_reference_lists_and_the_general_path_agree(flavour):
    # a list of lists goes to the core in one conversion; anything else (tuples, missing
    # entries, non-strings) takes as_references: same numbers, same typed errors
    srcs = ["About 95 species are currently accepted .", "Ｆｕｌｌ 全角 text", "a a a b"]
    preds = ["About 95 you now get in .", "ｆｕｌｌ text", "a b b"]
    refs = [["About 95 species are currently known .", "95 species are now accepted ."], ["full 全角", "Ｆｕｌｌ"], ["a b", "a a"]]
    m = SARI(flavour, n_threads=1)
    plain = m.sentence_scores(preds, refs, sources=srcs)
    assert np.array_equal(plain, m.sentence_scores(preds, [tuple(r) for r in refs], sources=srcs))
    assert np.array_equal(plain, m.sentence_scores(preds, [r + [None] for r in refs], sources=srcs))
    assert m.corpus_score(preds, refs, sources=srcs).score == m.corpus_score(preds, [tuple(r) for r in refs], sources=srcs).score
    with pytest.raises(InputTypeError, match=r"references\[1\]\[0\]"):
        m.corpus_score(preds, [refs[0], [3], refs[2]], sources=srcs)
    with pytest.raises(InputTypeError, match=r"sources\[2\]"):
        m.corpus_score(preds, refs, sources=srcs[:2] + [None])
