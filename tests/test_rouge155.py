"""ROUGE, rouge155 flavour: exact parity with the Perl ROUGE-1.5.5 goldens.

tests/goldens/rouge155/*.json were produced by running ROUGE-1.5.5.pl itself
(scripts/goldens/rouge155_goldens.py records the command lines); the SummEval run on
500 CNN/DM documents lives in the shared corpora (rouge155_goldens/ORIGIN.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from differential.rouge155_perl import options_of
from nlgmetrics import ROUGE, _core
from nlgmetrics.errors import InvalidOptionError

GOLDENS = Path(__file__).parent / "goldens" / "rouge155"
RUNS = sorted(p.stem for p in GOLDENS.glob("*.json") if p.stem not in ("inputs", "porter_stems"))


@pytest.fixture(scope="module")
def inputs():
    return json.loads((GOLDENS / "inputs.json").read_text(encoding="utf-8"))


SENTENCE_RUNS = [r for r in RUNS if not r.startswith(("tokens_", "counts_"))]
TOKEN_RUNS = [r for r in RUNS if r.startswith(("tokens_", "counts_"))]


@pytest.mark.parametrize("run", SENTENCE_RUNS)
def test_goldens_per_evaluation_exact(inputs, run):
    g = json.loads((GOLDENS / f"{run}.json").read_text())
    opts, names = options_of(g["options"])
    metric = ROUGE("rouge155", **opts)
    preds = [e["peer"] for e in inputs]
    refs = [e["models"][: g["n_models"]] for e in inputs]
    sums = metric.stats(preds, refs).sums
    for printed, ours in names.items():
        k = metric.rouge_types.index(ours)
        want = np.array(g["scores"][printed])  # R, P, F per evaluation
        got = sums[:, [3 * k + 1, 3 * k, 3 * k + 2]]
        np.testing.assert_array_equal(got, want, err_msg=f"{run} {printed}")
    # The printed averages: the script's bootstrap mean and interval, reproduced exactly
    avg = metric.script_average(preds, refs)
    for printed, ours in names.items():
        for x in "RPF":
            assert avg[ours][x] == tuple(g["averages"][printed][x]), (run, printed, x)
    # ... and the corpus score is the arithmetic mean of the per-evaluation values.
    score = metric.corpus_score(preds, refs)
    k0 = metric.rouge_types[0]
    first = list(names)[list(names.values()).index(k0)]
    np.testing.assert_allclose(score.score, np.mean([r[2] for r in g["scores"][first]]), rtol=1e-12)


@pytest.mark.parametrize("run", TOKEN_RUNS)
def test_goldens_token_counting_unit(inputs, run):
    """``-t 1`` / ``-t 2``: per-evaluation raw counts, the printed bootstrap averages
    (``-t 1``) or corpus counts (``-t 2``), and the pooled corpus score."""
    g = json.loads((GOLDENS / f"{run}.json").read_text())
    opts, names = options_of(g["options"])
    assert opts["counting_unit"] == "token"
    metric = ROUGE("rouge155", **opts)
    preds = [e["peer"] for e in inputs]
    refs = [e["models"][: g["n_models"]] for e in inputs]
    sums = metric.stats(preds, refs).sums
    score = metric.corpus_score(preds, refs)
    for printed, ours in names.items():
        k = metric.rouge_types.index(ours)
        # -d prints (model count, peer count, hit) per evaluation with Perl's %.15g
        want = np.array(g["scores"][printed])
        np.testing.assert_allclose(sums[:, 3 * k : 3 * k + 3], want, rtol=1e-13, err_msg=f"{run} {printed}")
        m, p, h = score.counts[ours]
        if "counts" in g:
            assert [int(m), int(p), int(h)] == g["counts"][printed], (run, printed)
        r, pr = h / m, h / p
        a = metric.alpha
        assert score.types[ours].recall == pytest.approx(r, rel=1e-15)
        assert score.types[ours].precision == pytest.approx(pr, rel=1e-15)
        assert score.types[ours].fmeasure == pytest.approx(r * pr / ((1 - a) * pr + a * r), rel=1e-15)
    if g["averages"]:
        avg = metric.script_average(preds, refs)
        for printed, ours in names.items():
            for x in "RPF":
                assert avg[ours][x] == tuple(g["averages"][printed][x]), (run, printed, x)


def test_models_only_stemming_changes_only_what_the_script_stems():
    base = dict(rouge_types=["rouge1", "rougeL", "rougeW", "rougeSU4"])
    peer, model = "running runners ran", "running runner run"
    plain = ROUGE("rouge155", **base).stats([peer], [[model]]).sums[0]
    models = ROUGE("rouge155", stem_models_only=True, **base).stats([peer], [[model]]).sums[0]
    assert models[0:3].tolist() == plain[0:3].tolist()  # ROUGE-N never stems under -M
    assert models[4] < plain[4]  # the models' "run"/"runner" no longer match the peer's forms


def test_token_unit_statistics_merge_like_counts():
    m = ROUGE("rouge155", rouge_types=["rouge1", "rougeL"], counting_unit="token")
    preds, refs = ["the cat sat", "a dog ran far"], [["the cat sat down"], ["the dog ran"]]
    whole = m.corpus_score(preds, refs)
    parts = m.score_stats(m.stats(preds[:1], refs[:1]).total() + m.stats(preds[1:], refs[1:]).total())
    assert whole.score == parts.score
    assert whole.counts["rouge1"] == (7.0, 7.0, 5.0)
    assert "unit:token" in str(whole.signature) and "-t 1" in m.perl_options()


def test_perl_porter_stemmer_on_all_words():
    stems = json.loads((GOLDENS / "porter_stems.json").read_text())
    words = list(stems)
    assert _core.porter_stem(words, "rouge155") == [stems[w] for w in words]


def test_summeval_sub500_baseline_with_stemming(corpora):
    """SummEval's ROUGE-1.5.5 run: -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m -d on 500 docs.

    Its WordNet exception DB yielded no entries (every document matches Porter-only
    stemming, while 45 of 500 ROUGE-1 values differ with the exception list), hence
    ``wordnet_exceptions=False``."""
    out = (corpora / "cnndm_pointer_generator" / "rouge155_goldens" / "sub500_full_baseline.out").read_text()
    docs = []
    with open(corpora / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i == 500:
                break
            d = json.loads(line)
            docs.append(("\n".join(d["baseline"]), ["\n".join(d["reference"])]))
    want: dict[str, list] = {}
    for m in re.finditer(r"^X (ROUGE-\S+) Eval (\d+)\.X R:(\S+) P:(\S+) F:(\S+)$", out, re.M):
        want.setdefault(m.group(1), [None] * 500)[int(m.group(2)) - 1] = [float(m.group(k)) for k in (3, 4, 5)]
    names = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-3": "rouge3", "ROUGE-4": "rouge4", "ROUGE-L": "rougeL",
             "ROUGE-W-1.2": "rougeW", "ROUGE-S*": "rougeS*", "ROUGE-SU*": "rougeSU*"}
    metric = ROUGE("rouge155", rouge_types=list(names.values()), stemming=True, wordnet_exceptions=False)
    sums = metric.stats([d[0] for d in docs], [d[1] for d in docs]).sums
    full = ROUGE("rouge155", rouge_types=["rouge1"], stemming=True).stats([d[0] for d in docs], [d[1] for d in docs]).sums
    assert (np.abs(full[:, 1] - np.array(want["ROUGE-1"])[:, 0]) > 0).sum() == 45
    for printed, ours in names.items():
        k = metric.rouge_types.index(ours)
        np.testing.assert_array_equal(sums[:, [3 * k + 1, 3 * k, 3 * k + 2]], np.array(want[printed]), err_msg=printed)
    avg = metric.script_average([d[0] for d in docs], [d[1] for d in docs])
    m = re.search(r"^X ROUGE-1 Average_F: (\S+) \(95%-conf\.int\. (\S+) - (\S+)\)$", out, re.M)
    assert avg["rouge1"]["F"] == tuple(float(x) for x in m.groups())


def test_spec_examples():
    e1_peer = "The quick brown dog jumps on the log.\nIt is sunny today."
    e1_model = "The quick brown fox jumps over the lazy dog.\nIt was sunny."
    s = ROUGE("rouge155", rouge_types=["rouge1", "rouge2", "rougeL", "rougeW", "rougeSU4"]).corpus_score([e1_peer], [e1_model])
    assert s.types["rougeW"] == (0.45846, 0.31076, 0.37043)
    assert s.types["rougeSU4"].recall == 0.39286
    # -m: went -> go through the WordNet exceptions (rouge-score's stemmer gives 0.5)
    s = ROUGE("rouge155", rouge_types=["rouge1"], stemming=True).corpus_score(["they go home happy"], ["they went home happily"])
    assert s.types["rouge1"].recall == 0.75
    s = ROUGE("rouge155", rouge_types=["rouge1", "rouge2", "rougeL"], scoring_formula="B").corpus_score(["the dog ran"], [["the cat sat on the mat", "a dog ran"]])
    assert (s.types["rouge1"].fmeasure, s.types["rouge2"].fmeasure) == (0.66667, 0.5)


def test_non_latin_text_scores_zero_as_in_the_script():
    with pytest.warns(UserWarning):
        s = ROUGE("rouge155", rouge_types=["rouge1"]).corpus_score(["我爱北京天安门"], ["我爱北京天安门"])
    assert s.score == 0.0


@pytest.mark.parametrize(
    "opts",
    [
        {"rouge_types": ["rougeX"]},
        {"rouge_types": ["rouge0"]},
        {"rouge_types": []},
        {"scoring_formula": "C"},
        {"alpha": 1.5},
        {"weight": 0},
        {"length_limit": 10, "byte_limit": 10},
        {"length_limit": 0},
        {"counting_unit": "word"},
        {"stemming": True, "stem_models_only": True},
    ],
)
def test_bad_options(opts):
    with pytest.raises(InvalidOptionError):
        ROUGE("rouge155", **opts)


def test_signature_and_perl_options():
    r = ROUGE("rouge155", rouge_types=["rouge1", "rouge2", "rougeL", "rougeW", "rougeSU4"], stemming=True, scoring_formula="B", length_limit=100)
    assert r.perl_options() == "-n 2 -w 1.2 -2 4 -u -m -l 100 -f B -p 0.5"
    sig = r.signature().as_dict()
    assert sig["flavour"] == "rouge155" and sig["formula"] == "B" and sig["limit"] == "100w" and sig["w"] == 1.2


def test_missing_data_package_names_the_extra(monkeypatch):
    from nlgmetrics.errors import MissingExtraError
    from nlgmetrics.metrics import rouge155

    def no_package(name):
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(rouge155.resources, "files", no_package)
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[rouge155\]"):
        rouge155.wordnet_exceptions()
