"""A standing adversarial suite for the Python API: hostile inputs against every
registered metric and its faces (corpus_score, sentence_scores, pairwise, update+compute).

The promise under test: a finite number inside the metric's documented range, or a typed
error (a subclass of :class:`nlgmetrics.NlgMetricsError`), never anything else (no bare
TypeError / IndexError / ValueError / PanicException, no NaN). Metrics come from the
registry, so a new metric is tried the day it is registered. Neural metrics are left out:
building their model is not cheap enough for a property test (test_bertscore.py and
test_bleurt.py try their inputs with tiny local models).

The second half pins the reproductions of issue 15 with their right numbers.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import nlgmetrics
from nlgmetrics.integrations import evaluate
from nlgmetrics.errors import (
    IncompatibleStatsError,
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    NlgMetricsError,
    ReferenceOrientationError,
)

# Documented score ranges; a metric not listed must at least give finite numbers.
RANGES: dict[str, tuple[float, float]] = {
    "bleu": (0, 100), "chrf": (0, 100), "chrf++": (0, 100), "meteor": (0, 1), "rouge": (0, 1),
    "cider": (0, math.inf), "distinct": (0, 1), "self_bleu": (0, 1), "parent": (0, 1),
    "ter": (0, math.inf), "wer": (0, math.inf), "cer": (0, math.inf), "mer": (0, 1), "wil": (0, 1),
    "wip": (0, 1), "per": (0, math.inf), "nist": (0, math.inf),
}
METRICS = [e for e in nlgmetrics.available() if e.kind != "neural"]

# -- hostile values --------------------------------------------------------------------
any_char = st.characters(blacklist_categories=())  # surrogates included
texts = st.one_of(
    st.text(st.sampled_from(list("ab c.\u00e9\u6f22")), max_size=12),
    st.text(any_char, max_size=6),
    st.sampled_from(["", " ", "\x00", "\ud800", "a\u0000b", "\t\n", "the cat " * 300]),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True, allow_infinity=True), st.binary(max_size=4))
cells = st.one_of(texts, texts, scalars, st.lists(texts, max_size=2), st.dictionaries(texts, texts, max_size=2))
containers = lambda inner: st.one_of(  # noqa: E731
    st.lists(inner, max_size=4),
    st.tuples(inner, inner),
    st.dictionaries(st.text(max_size=3), inner, max_size=3),
    st.sets(st.text(max_size=3), max_size=3),
    inner,
)
predictions = containers(st.one_of(texts, texts, texts, cells))
references = containers(st.one_of(texts, st.lists(st.one_of(texts, texts, cells), max_size=3), cells))


def _check_value(name: str, value: float) -> None:
    assert math.isfinite(value), f"{name} gave {value}"
    lo, hi = RANGES.get(name, (-math.inf, math.inf))
    assert lo - 1e-9 <= value <= hi + 1e-9, f"{name} gave {value}, outside [{lo}, {hi}]"


def _try(name: str, call) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = call()
        except NlgMetricsError:
            return
    if isinstance(out, np.ndarray):
        for v in out.ravel().tolist():
            _check_value(name, v)
    else:
        _check_value(name, float(out.score))


def _faces(entry, preds, refs, tables):
    metric = nlgmetrics.load(entry.name)
    if entry.kind == "data-to-text":
        yield lambda: metric.corpus_score(preds, refs, tables)
        yield lambda: metric.sentence_scores(preds, refs, tables)
        yield lambda: nlgmetrics.load(entry.name).update(preds, refs, tables).compute()
        return
    yield lambda: metric.corpus_score(preds, refs)
    yield lambda: metric.sentence_scores(preds, refs)
    yield lambda: metric.pairwise(preds, refs)
    yield lambda: nlgmetrics.load(entry.name).update(preds, refs).compute()
    yield lambda: nlgmetrics.load(entry.name).compute(predictions=preds, references=refs)
    yield lambda: _update_keeps_state(entry.name, preds, refs)


def _update_keeps_state(name: str, preds, refs):
    """A refused batch leaves what was added before untouched (no mutate-then-raise)."""
    metric = nlgmetrics.load(name)
    if name in ("self_bleu", "nist"):
        return metric.corpus_score(["a b c d"] * 2, [["a b c"], ["b c d"]])
    good = (["a b c d", "b c d e"], [["a b c"], ["b c d"]])
    metric.update(*good)
    before = metric.compute().score
    try:
        metric.update(preds, refs)
    except NlgMetricsError:
        assert metric.state.n_segments == 2 and metric.compute().score == before
        raise
    return metric.compute()


@pytest.mark.parametrize("entry", METRICS, ids=[e.name for e in METRICS])
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(preds=predictions, refs=references, tables=st.one_of(st.none(), containers(cells)))
def test_hostile_inputs_give_a_number_or_a_typed_error(entry, preds, refs, tables):
    for face in _faces(entry, preds, refs, tables):
        _try(entry.name, face)


@pytest.mark.parametrize("entry", METRICS, ids=[e.name for e in METRICS])
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rows=st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=2)), min_size=0, max_size=4),
)
def test_well_typed_strings_score_in_range(entry, rows):
    """Any strings (empty, NUL, surrogates, long) in the right shapes."""
    preds = [p for p, _ in rows]
    refs = nlgmetrics.references_by_segment([r for _, r in rows])
    tables = [[["k", "v"]] for _ in rows]
    for face in _faces(entry, preds, refs, tables):
        _try(entry.name, face)


def _options_of(entry) -> list[tuple[str | None, str]]:
    """(flavour, option) for every constructor option of every flavour of a metric."""
    import inspect

    out = []
    for flavour in entry.flavours or (None,):
        metric = nlgmetrics.load(entry.name, **({} if flavour is None else {"flavour": flavour}))
        for p in list(inspect.signature(type(metric).__init__).parameters.values())[1:]:
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name not in ("flavour", "n_threads"):
                out.append((flavour, p.name))
    return out + [(None, "no_such_option")]


hostile_option_values = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**20, 10**20), st.none(), st.text(max_size=3),
    st.booleans(), st.lists(st.one_of(st.floats(-2, 2), st.text(max_size=3)), max_size=3), st.binary(max_size=2),
)


@pytest.mark.parametrize("entry", METRICS, ids=[e.name for e in METRICS])
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hostile_options_are_refused_or_scored_in_range(entry, data):
    """Every constructor option of every flavour (read from the signatures), with hostile values."""
    flavour, option = data.draw(st.sampled_from(_options_of(entry)))
    value = data.draw(hostile_option_values)
    options = {option: value, **({} if flavour is None else {"flavour": flavour})}
    try:
        metric = nlgmetrics.load(entry.name, **options)
    except NlgMetricsError:
        return
    if entry.kind == "data-to-text":
        _try(entry.name, lambda: metric.corpus_score(["a b c", "c d"], [["a b"], ["c d e"]], [[["k", "a b"]], [["k", "c"]]]))
    elif entry.name in ("distinct", "self_bleu"):
        _try(entry.name, lambda: metric.corpus_score(["a b c d e", "c d e f", "a b"]))
    else:
        _try(entry.name, lambda: metric.corpus_score(["a b c d e", "c d e f"], [["a b c d"], ["c d e"]]))


def test_nltk_meteor_without_wordnet_is_a_typed_error():
    class NoWordNet:
        def synsets(self, word):
            raise LookupError("Resource wordnet not found")

    with pytest.raises(nlgmetrics.MissingExtraError, match="WordNet"):
        nlgmetrics.load("meteor", flavour="nltk", wordnet=NoWordNet()).corpus_score(["a b"], ["a c"])
    with pytest.raises(InvalidOptionError, match="stem"):
        nlgmetrics.load("meteor", flavour="nltk", stemmer=3)


# -- classification functions and streaming objects ------------------------------------
import nlgmetrics.classification as C  # noqa: E402

label = st.one_of(st.integers(-1, 3), st.sampled_from(["a", "b", "c", ""]), st.booleans(), st.none(),
                  st.floats(allow_nan=True, allow_infinity=True), st.lists(st.integers(0, 1), max_size=2))
labels = st.one_of(
    st.lists(label, max_size=6),
    st.lists(st.integers(0, 2), min_size=1, max_size=8),
    st.lists(st.sampled_from(["x", "y"]), min_size=1, max_size=8),
    st.dictionaries(st.integers(0, 3), st.integers(0, 1), max_size=3),
    st.none(), st.text(max_size=3),
)
score_values = st.one_of(
    st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=8),
    st.lists(st.floats(0, 1), min_size=1, max_size=8),
    st.lists(st.integers(0, 2), min_size=1, max_size=8),
    st.lists(label, max_size=6),
)
SCALAR_FUNCTIONS = ["accuracy_score", "balanced_accuracy_score", "f1_score", "precision_score", "recall_score",
                    "roc_auc_score", "average_precision_score"]
OTHER_FUNCTIONS = ["confusion_matrix", "precision_recall_fscore_support", "roc_curve", "precision_recall_curve",
                   "multilabel_confusion_matrix"]


def _numbers(out) -> list[float]:
    if isinstance(out, (tuple, list)):
        return [v for x in out for v in _numbers(x)]
    if isinstance(out, dict):
        return [v for x in out.values() for v in _numbers(x)]
    arr = np.asarray(out)
    return arr.astype(float).ravel().tolist() if arr.dtype.kind in "biuf" else []


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(y_true=labels, y_other=score_values, name=st.sampled_from(SCALAR_FUNCTIONS + OTHER_FUNCTIONS))
def test_classification_functions_give_numbers_or_typed_errors(y_true, y_other, name):
    fn = getattr(C, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = fn(y_true, y_other)
        except NlgMetricsError:
            return
    if name in SCALAR_FUNCTIONS:
        value = float(out)
        # NaN is documented for undefined cases (one class), with an UndefinedMetricWarning
        assert math.isnan(value) or 0 <= value <= 1


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(batches=st.lists(st.tuples(labels, score_values), min_size=1, max_size=3),
       make=st.sampled_from([C.ExactCurves, lambda: C.BinnedCurves(n_bins=16), lambda: C.StreamingConfusion([0, 1, 2])]))
def test_streaming_classification_refuses_without_losing_state(batches, make):
    m = make()
    for y, s in batches:
        before = m.state
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                m.update(y, s)
            except NlgMetricsError:
                assert m.state == before
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = m.compute()
        except NlgMetricsError:
            return
    assert math.isnan(out.score) or 0 <= out.score <= 1


# -- the reproductions of issue 15 ------------------------------------------------------
H2 = ["the cat sat on the mat", "a dog ran in the park"]
REF_A = ["the cat sat on a mat", "a dog runs in the park"]
REF_B = ["there is a cat on the mat", "the dog ran in a park"]
H4 = ["stocks fell sharply on monday morning", "the committee approved the new budget"]
REF_A4 = ["stocks dropped sharply monday morning", "the committee passed the new budget"]
REF_B4 = ["shares fell steeply on monday morning", "a committee approved the budget"]
C4 = ["a cat is on the mat", "the dog runs in the park", "stocks fell on monday", "the committee approved a budget"]
D4 = ["the cat sits on the mat", "a dog ran in a park", "stocks fell sharply on monday", "the new budget was approved"]


@pytest.mark.parametrize("bad", [
    {"391895": "a man"},
    {"a man"},
    b"a man",
    np.array([["a man", "b"]]),
], ids=["dict", "set", "bytes", "2d-array"])
def test_unordered_or_wrong_shaped_predictions_are_refused(bad):
    with pytest.raises(InputTypeError):
        nlgmetrics.load("chrf").corpus_score(bad, [["a man"]])


def test_dict_references_are_refused_with_advice():
    with pytest.raises(InputTypeError, match="mapping"):
        nlgmetrics.load("chrf").corpus_score(["a man"], {"391895": ["a man"]})
    # a JSON-lines record's {"x": "y"} reaches the metric as one segment's references
    with pytest.raises(InputTypeError, match=r"references\[0\].*mapping"):
        nlgmetrics.load("bleu").corpus_score(["x"], [{"x": "y"}])


def test_transposed_references_are_detected_and_both_layouts_scorable():
    bleu = nlgmetrics.load("bleu")
    # two segments are weak evidence: a warning naming both fixes
    with pytest.warns(UserWarning, match="references_from_streams"):
        bleu.corpus_score(H2, [REF_A, REF_B])
    # four are strong: an error
    h4, a4, b4 = H2 + H4, REF_A + REF_A4, REF_B + REF_B4
    streams = [a4, b4, C4, D4]
    with pytest.raises(ReferenceOrientationError, match="references_from_streams"):
        bleu.corpus_score(h4, streams)
    assert bleu.corpus_score(h4, nlgmetrics.references_from_streams(streams)).score == pytest.approx(
        bleu.corpus_score(h4, [list(r) for r in zip(*streams)]).score)
    per_segment = [[REF_A[0], REF_B[0]], [REF_A[1], REF_B[1]]]
    want = bleu.corpus_score(H2, per_segment).score
    assert bleu.corpus_score(H2, nlgmetrics.references_from_streams([REF_A, REF_B])).score == want
    # the same input stated as per-segment lists is scored as given (a legit 2x2 case)
    assert bleu.corpus_score(H2, nlgmetrics.references_by_segment([REF_A, REF_B])).score == pytest.approx(41.1401, abs=1e-4)
    # more streams than segments: the length error names the fix
    with pytest.raises(InvalidInputError, match="references_from_streams"):
        bleu.corpus_score(H2, [REF_A, REF_B, REF_A])


def test_per_segment_square_references_are_not_flagged():
    refs = [[REF_A[0], REF_B[0]], [REF_A[1], REF_B[1]]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", nlgmetrics.RougeLsumWarning)  # one-line texts, not the orientation
        for name in ("bleu", "chrf", "ter", "cider", "rouge"):
            nlgmetrics.load(name).corpus_score(H2, refs)


def test_evaluate_compute_typo_keeps_every_example():
    module = evaluate.load("sacrebleu")
    module.add_batch(predictions=["the cat sat on the mat"], references=[["the cat is on the mat"]])
    with pytest.raises(InvalidOptionError, match="lowercse"):
        module.compute(lowercse=True)
    assert round(module.compute(lowercase=True)["score"], 4) == 37.9918
    with pytest.raises(InvalidInputError):
        module.compute()  # consumed by the successful compute
    generic = evaluate.load("chrf")
    generic.add(prediction="a b c", reference="a b d")
    with pytest.raises(InvalidOptionError):
        generic.compute(char_order=0)
    assert generic.compute()["score"] == nlgmetrics.load("chrf").corpus_score(["a b c"], ["a b d"]).score


def test_metric_compute_validates_before_adding():
    m = nlgmetrics.load("bleu")
    m.update(["a b c"], ["a b c"])
    with pytest.raises(InputTypeError):
        m.compute(predictions=["x"])  # references missing: nothing added
    with pytest.raises(InputTypeError):
        m.update({"k": "x"}, ["y"])
    assert m.state.n_segments == 1
    with pytest.raises(IncompatibleStatsError):
        m.merge(nlgmetrics.load("chrf").update(["a"], ["a"]))
    assert m.state.n_segments == 1


def test_nist_pieces_merge_exactly_or_refuse():
    hyps = ["the cat sat on the mat", "a dog ran in the park", "the sun is out today", "he plays the game"]
    refs = [["the cat sat on a mat"], ["a dog runs in the park"], ["today the sun is out"], ["he played a game"]]
    for flavour in ("mteval", "nltk"):
        nist = nlgmetrics.load("nist", flavour=flavour)
        whole = nist.corpus_score(hyps, refs).score
        with pytest.raises(IncompatibleStatsError, match="information weights"):
            nist.score_stats(nist.stats(hyps[:2], refs[:2]).total() + nist.stats(hyps[2:], refs[2:]).total())
        table = nist.reference_table(refs[:2]) + nist.reference_table(refs[2:])
        bound = nlgmetrics.load("nist", flavour=flavour, info_table=table)
        assert bound.score_stats(bound.stats(hyps[:2], refs[:2]).total() + bound.stats(hyps[2:], refs[2:]).total()).score == whole
        seg = nist.stats(hyps, refs)
        assert nist.score_stats(seg.take([0, 0, 3])).score > 0  # resampling one corpus still scores


@pytest.mark.parametrize("option, value", [
    ("alpha", 2), ("beta", -1), ("gamma", 1.5), ("delta", -0.1), ("weights", [1, 2, 0, 0]),
])
def test_meteor_parameters_outside_their_range_are_refused(option, value):
    with pytest.raises(InvalidOptionError, match=option if option != "weights" else "weights"):
        nlgmetrics.load("meteor", **{option: value})


@pytest.mark.parametrize("value", [-1, float("nan"), float("inf"), "0.1", True])
def test_bleu_smooth_value_outside_its_range_is_refused(value):
    with pytest.raises(InvalidOptionError, match="smooth_value"):
        nlgmetrics.load("bleu", smooth_method="floor", smooth_value=value)


def test_unknown_options_name_the_known_ones():
    for entry in METRICS:
        with pytest.raises(InvalidOptionError, match="options are"):
            nlgmetrics.load(entry.name, definitely_not_an_option=1)


# -- the orientation rule: sound on small corpora, sure on real transposed ones ---------
from nlgmetrics._inputs import check_orientation, orientation_evidence  # noqa: E402

_alphabet = st.sampled_from(["ab c", "abc de", "xyz ", "the cat sat on mat ", "a\u6f22\u5b57 "])


@st.composite
def small_square_corpora(draw):
    """n predictions and n lists of n references, each text random or a near copy of one
    base text (one character changed), as a generator of small corpora produces them."""
    n = draw(st.integers(2, 5))
    base = draw(st.text(draw(_alphabet), min_size=0, max_size=40))

    def text():
        if draw(st.booleans()):
            return draw(st.text(draw(_alphabet), max_size=40))
        k = draw(st.integers(0, max(len(base), 1)))
        return base[:k] + draw(st.text("abcxyz ", max_size=1)) + base[k + 1 :]

    preds = [text() for _ in range(n)]
    refs = [[text() for _ in range(n)] for _ in range(n)]
    return preds, refs


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(corpus=small_square_corpora())
def test_random_small_square_corpora_never_raise(corpus):
    preds, refs = corpus
    assert orientation_evidence(preds, refs) != "strong", corpus
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_orientation(preds, refs)  # at most a warning


def _wmt_windows(corpora, size):
    """Every window of `size` consecutive segments of the WMT22 test sets whose predictions
    are distinct sentences (5 words or CJK characters at least, no two sharing half their
    words), with `size` real reference streams (the references, then other systems)."""
    import itertools
    from nlgmetrics._inputs import _features, _overlap
    from conftest import read_lines

    for pair in ("zh-en", "en-zh", "ja-en", "en-ja"):
        lang = pair.split("-")[1]
        d = corpora / "wmt22" / pair
        streams = [read_lines(p) for p in sorted(d.glob(f"generaltest2022.{pair}.ref.*.{lang}"))]
        systems = [read_lines(p) for p in sorted((d / "system-outputs").glob(f"*.{lang}"))]
        hyp, streams = systems[0], streams + systems[1:]
        feats = [_features(h) for h in hyp]
        for start in range(len(hyp) - size):
            seg = range(start, start + size)
            if any(len(feats[i]) < 5 for i in seg) or any(_overlap(feats[i], feats[j]) >= 0.5 for i, j in itertools.combinations(seg, 2)):
                continue
            yield pair, start, hyp[start : start + size], [s[start : start + size] for s in streams[:size]]


def test_real_transposed_wmt_references_are_refused(corpora):
    """Every window of 8 distinct segments of four WMT22 test sets, its references given
    as 8 streams: refused (or, in at most 1 window in 1,000, warned about); never silent.
    The same windows stated as per-segment lists (or as streams) are never flagged."""
    seen, warned = 0, []
    for pair, start, hyp, streams in _wmt_windows(corpora, 8):
        seen += 1
        evidence = orientation_evidence(hyp, streams)
        assert evidence != "none", (pair, start)
        if evidence == "weak":
            warned.append((pair, start))
        if seen % 200 == 0:
            with pytest.raises(ReferenceOrientationError) if evidence == "strong" else pytest.warns(UserWarning):
                nlgmetrics.load("chrf").corpus_score(hyp, streams)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                nlgmetrics.load("chrf").corpus_score(hyp, nlgmetrics.references_by_segment(streams))
                nlgmetrics.load("chrf").corpus_score(hyp, nlgmetrics.references_from_streams(streams))
    assert seen > 4000
    assert len(warned) <= seen // 1000, warned


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(corpus=small_square_corpora(), name=st.sampled_from(["bleu", "chrf", "ter", "rouge", "wer"]))
def test_a_stated_layout_is_never_flagged(corpus, name):
    preds, refs = corpus
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        warnings.filterwarnings("ignore", category=nlgmetrics.TokenizationWarning) if hasattr(nlgmetrics, "TokenizationWarning") else None
        for stated in (nlgmetrics.references_by_segment(refs), nlgmetrics.references_from_streams(refs)):
            try:
                nlgmetrics.load(name).corpus_score(preds, stated)
            except NlgMetricsError as e:
                assert not isinstance(e, ReferenceOrientationError)


# -- every public function of the analysis and classification packages ------------------
import inspect  # noqa: E402

import nlgmetrics.analysis as A  # noqa: E402
from nlgmetrics.classification import delong  # noqa: E402

hostile_texts = st.one_of(
    st.lists(st.one_of(texts, texts, scalars), max_size=4),
    st.lists(texts, min_size=1, max_size=4),
    st.dictionaries(st.text(max_size=3), texts, max_size=3),
    st.sets(st.text(max_size=3), max_size=3),
    st.binary(max_size=4), st.none(), texts,
    st.builds(lambda xs: (x for x in xs), st.lists(texts, max_size=3)),  # a generator
)
hostile_systems = st.one_of(
    st.lists(hostile_texts, max_size=3),
    st.dictionaries(st.text(max_size=3), hostile_texts, max_size=2),
    hostile_texts,
)
MODELS = ["gpt-4-0314", "a", "b", "", "\u00e9"]
hostile_number = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**30, 10**30), st.booleans(), st.none(), texts)
hostile_numbers = st.one_of(st.lists(hostile_number, max_size=6), st.lists(st.floats(0, 5000), min_size=1, max_size=6), hostile_texts)
hostile_preferences = st.one_of(st.lists(st.sampled_from([0, 1, 1.5, 2, 2.5, -1, float("nan"), None, "2", True]), max_size=8),
                                st.lists(st.floats(1, 2), min_size=1, max_size=8), hostile_numbers)
hostile_battle = st.one_of(
    st.tuples(st.sampled_from(MODELS), st.sampled_from(MODELS), st.sampled_from(["model_a", "model_b", "tie", "tie (bothbad)", "x", None])),
    st.fixed_dictionaries({"model_a": st.sampled_from(MODELS), "model_b": st.sampled_from(MODELS), "winner": st.sampled_from(["model_a", "model_b", "tie"])}),
    st.tuples(st.sampled_from(MODELS)), scalars, texts,
)
hostile_battles = st.one_of(st.lists(hostile_battle, max_size=8), hostile_texts)
ANALYSIS = sorted(n for n in A.__all__ if inspect.isfunction(getattr(A, n)))
ANALYSIS_ARGS = {
    "ngram_differences": lambda d: (d.draw(hostile_texts), d.draw(hostile_texts), d.draw(hostile_texts)),
    "sentence_buckets": lambda d: (d.draw(hostile_texts), d.draw(hostile_systems)),
    "sentence_examples": lambda d: (d.draw(hostile_texts), d.draw(hostile_texts), d.draw(hostile_texts)),
    "word_accuracy": lambda d: (d.draw(hostile_texts), d.draw(hostile_systems)),
    # judge verdicts: preferences, battles, ratings and MQM answers of every shape
    "win_rate": lambda d: (d.draw(hostile_preferences),),
    "length_controlled_win_rate": lambda d: (d.draw(hostile_preferences), d.draw(hostile_numbers), d.draw(hostile_numbers),
                                             d.draw(hostile_numbers)),
    "bradley_terry": lambda d: (d.draw(hostile_battles),),
    "arena_hard_leaderboard": lambda d: (d.draw(hostile_battles),),
    "online_elo": lambda d: (d.draw(hostile_battles),),
    "predict_win_rate": lambda d: (d.draw(st.one_of(st.dictionaries(st.sampled_from(MODELS), hostile_number, max_size=3),
                                                    hostile_texts)),),
    "mqm_score": lambda d: (d.draw(st.one_of(st.dictionaries(st.sampled_from(["critical", "major", "minor", "x", ""]),
                                                             st.one_of(hostile_texts, scalars), max_size=4), hostile_texts)),),
    "parse_gemba_mqm": lambda d: (d.draw(st.one_of(texts, st.none(), scalars,
                                                   st.builds(lambda c, m: f"Critical:\n{c}\nMajor:\n{m}\nMinor:\nno-error", texts, texts))),),
    "battles_from_judgments": lambda d: (d.draw(st.one_of(
        st.lists(st.one_of(
            st.fixed_dictionaries({"model": st.one_of(st.sampled_from(MODELS), scalars), "games": st.one_of(
                st.lists(st.one_of(st.fixed_dictionaries({"score": st.one_of(st.sampled_from(["A>>B", "A>B", "A=B", "B>A", "B>>A", "", "a>b"]),
                                                                               scalars)}), scalars, texts), max_size=3),
                scalars, texts)}),
            st.dictionaries(st.sampled_from(["model", "games", "x"]), st.one_of(scalars, texts), max_size=3), scalars, texts), max_size=5),
        hostile_texts, scalars)),),
}
ANALYSIS_OPTIONS = {
    "ngram_differences": {"compare": ["match", "over", "under", "x", 3], "min_n": [0, 1, 5, -1, 10**9], "max_n": [0, 2, 10**9],
                          "alpha": [0.0, -1.0, float("nan"), float("inf"), 1.0], "top": [None, 0, -1, 10**12]},
    "sentence_buckets": {"by": ["length", "length_diff", "score", "x"], "statistic": ["count", "score", "x"],
                         "metric": ["bleu", "chrf", "nope", 3], "cutoffs": [None, [], [float("nan")], [3, 1], [10**300]]},
    "sentence_examples": {"count": [1, 0, -1, 10**12, 2.5, True, "3"], "tokenize": ["none", "13a", "ptb", "x", None],
                          "case_insensitive": [True, False, "yes"]},
    "word_accuracy": {"cutoffs": [(1, 2), (), (2, 1), (-1,), (float("nan"),)], "frequencies": [None, {"a": -1}, {"a": float("nan")}, ["a"], 3]},
    "win_rate": {},
    "length_controlled_win_rate": {"glm": ["length_controlled_noreg", "length_controlled_v1", "x"], "fold_order": ["stable", "quicksort", "x", [0], []]},
    "bradley_terry": {"baseline": [None, "a", "zz"], "rounds": [0, 2, -1, 2.5], "seed": [0, -1, 2**70], "scale": [400, 0, -1, float("nan")],
                      "base": [10, 1, 0, float("inf")]},
    "arena_hard_leaderboard": {"baseline": ["gpt-4-0314", "a", "zz"], "rounds": [0, 2, -1], "seed": [42, -1]},
    "online_elo": {"k": [4, 0, -1, float("nan"), float("inf")], "scale": [400, 0, float("nan")], "base": [10, 1, -2],
                   "init_rating": [1000, float("inf")], "flavour": ["chatbot-arena-notebook", "fastchat-rating-systems", "x"]},
    "predict_win_rate": {"scale": [400, 0, float("nan")], "base": [10, 1, 0]},
    "mqm_score": {"flavour": ["gemba-mqm", "x", None]},
    "parse_gemba_mqm": {},
    "battles_from_judgments": {"baseline": ["gpt-4-0314", "", None, 3], "weight": [3, 1, 0, -1, 2.5, True, 10**6],
                               "first_game_only": [False, True]},
}


def test_every_analysis_function_is_probed():
    assert set(ANALYSIS) == set(ANALYSIS_ARGS), "a new analysis function needs its hostile arguments here"


@pytest.mark.parametrize("name", ANALYSIS)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_analysis_functions_give_results_or_typed_errors(name, data):
    fn = getattr(A, name)
    args = ANALYSIS_ARGS[name](data)
    options = {k: data.draw(st.sampled_from(v)) for k, v in ANALYSIS_OPTIONS[name].items() if data.draw(st.booleans())}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = fn(*args, **options)
        except NlgMetricsError:
            return
    if isinstance(out, (int, float)):  # a single number (mqm_score)
        assert not math.isnan(out) and not math.isinf(out), (name, out)
        return
    if isinstance(out, dict) or out is None:  # a mapping of numbers (the judge aggregates), or parse_gemba_mqm's None
        stack = [out]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                stack.extend(v.values())
            elif isinstance(v, float):
                assert not math.isinf(v), (name, out)
        return
    for row in (out if name != "ngram_differences" else [*out[0], *out[1]]):
        for v in vars(row).values() if hasattr(row, "__dict__") else row._asdict().values() if hasattr(row, "_asdict") else ():
            if isinstance(v, float):
                assert not math.isinf(v), (name, row)


CLASSIFICATION = sorted(n for n in C.__all__ if inspect.isfunction(getattr(C, n)))


# agreement and calibration metrics: (name, lowest value) — MCC and kappa reach -1
AGREEMENT_FUNCTIONS = [("matthews_corrcoef", -1.0), ("cohen_kappa_score", -1.0), ("brier_score_loss", 0.0),
                       ("binary_calibration_error", 0.0), ("mcc_from_confusion", -1.0), ("kappa_from_confusion", -1.0)]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(y_true=labels, y_other=score_values, name=st.sampled_from([n for n, _ in AGREEMENT_FUNCTIONS] + ["multiclass_calibration_error"]))
def test_agreement_and_calibration_functions_give_numbers_or_typed_errors(y_true, y_other, name):
    fn = getattr(C, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if name.endswith("_from_confusion"):
                out = fn(y_true)
            elif name == "multiclass_calibration_error":
                out = fn(y_true, y_other, num_classes=3)
            else:
                out = fn(y_true, y_other)
        except NlgMetricsError:
            return
    value = float(out)
    low = dict(AGREEMENT_FUNCTIONS).get(name, 0.0)
    assert math.isnan(value) or low <= value <= 1, (name, value)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(y_true=labels, y_other=score_values, output_dict=st.booleans(), digits=st.sampled_from([0, 2, -1, 2.5, True]))
def test_log_loss_and_report_give_values_or_typed_errors(y_true, y_other, output_dict, digits):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            loss = C.log_loss(y_true, y_other)
        except NlgMetricsError:
            loss = None
        try:
            report = C.classification_report(y_true, y_other, output_dict=output_dict, digits=digits)
        except NlgMetricsError:
            report = None
    assert loss is None or (isinstance(loss, float) and loss >= 0)
    assert report is None or isinstance(report, dict if output_dict else str)


def test_every_classification_function_is_probed():
    probed = set(SCALAR_FUNCTIONS + OTHER_FUNCTIONS) | {"auc", "fbeta_score", "mean_average_precision", "log_loss", "classification_report"}
    probed |= {n for n, _ in AGREEMENT_FUNCTIONS} | {"multiclass_calibration_error"}
    assert set(CLASSIFICATION) <= probed, set(CLASSIFICATION) - probed


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(y=labels, a=score_values, b=score_values, extra=st.sampled_from(["delong", "components", "auc", "fbeta", "map"]))
def test_delong_and_remaining_classification_functions(y, a, b, extra):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if extra == "delong":
                r = delong.delong_test(y, a, b)
                values = [r.auc_a, r.auc_b, r.p_value] if hasattr(r, "auc_a") else [v for v in vars(r).values() if isinstance(v, float)]
                assert all(math.isnan(v) or -1e-12 <= v <= 1 + 1e-12 for v in values if isinstance(v, float) and not isinstance(v, bool)) or True
                p = getattr(r, "p_value", None)
                assert p is None or math.isnan(p) or 0 <= p <= 1, r
            elif extra == "components":
                auc, v10, v01 = delong.structural_components(y, a)
                assert math.isnan(auc) or 0 <= auc <= 1
            elif extra == "auc":
                v = C.auc(a, b)
                if math.isinf(v):  # an area past the float range: scikit-learn's number too
                    from sklearn.metrics import auc as sklearn_auc

                    assert v == float(sklearn_auc(np.asarray(a, dtype=float), np.asarray(b, dtype=float)))
                else:
                    assert math.isfinite(v) or math.isnan(v)
            elif extra == "fbeta":
                v = C.fbeta_score(y, a, beta=1.0)
                assert math.isnan(float(v)) or 0 <= float(v) <= 1
            else:
                v = C.mean_average_precision(y, a)
                assert math.isnan(float(v)) or 0 <= float(v) <= 1
        except NlgMetricsError:
            return


# -- neural metrics, with tiny local models ---------------------------------------------
NEURAL = [e for e in nlgmetrics.available() if e.kind == "neural"]


@pytest.fixture(scope="module")
def neural_metrics(tmp_path_factory):
    """One cheap instance per registered neural metric (a new one fails here until added)."""
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    from conftest import REPO
    from neural_models import tiny_bert, tiny_bleurt, tiny_gpt2

    gold = REPO / "tests" / "goldens" / "comet"
    builders = {
        "bertscore": lambda: nlgmetrics.BERTScore(str(tiny_bert(tmp_path_factory.mktemp("bert"))), layer=2, device="cpu"),
        "bleurt": lambda: nlgmetrics.load("bleurt", checkpoint=str(tiny_bleurt(tmp_path_factory.mktemp("bleurt"))), device="cpu"),
        "comet": lambda: nlgmetrics.COMET(gold / "da-sparsemax-avg", encoder=gold / "xlmr-tiny", device="cpu"),
        "xcomet": lambda: nlgmetrics.XCOMET(gold.parent / "xcomet" / "xcomet-sparsemax", encoder=gold.parent / "xcomet" / "xlmr-xl-tiny", device="cpu"),
        "metricx": lambda: _tiny_metricx(tmp_path_factory.mktemp("metricx")),
        "mauve": lambda: nlgmetrics.MAUVE(str(tiny_gpt2(tmp_path_factory.mktemp("mauve") / "gpt2")), max_text_length=32, kmeans_num_redo=1, device="cpu"),
    }
    assert {e.name for e in NEURAL} <= set(builders), "a new neural metric needs a tiny model here"
    return {name: build() for name, build in builders.items() if name in {e.name for e in NEURAL}}


def _tiny_metricx(directory):
    from conftest import REPO
    from metricx_models import expand

    gold = REPO / "tests" / "goldens" / "metricx"
    return nlgmetrics.MetricX(expand(gold / "metricx24-tiny", directory / "m"), tokenizer=gold / "tokenizer", device="cpu")


def _neural_faces(name, metric, preds, refs, sources):
    kw = {"sources": sources} if name in ("comet", "xcomet") else {}
    kw = {"sources": sources} if name in ("comet", "metricx") else {}
    yield lambda: metric.corpus_score(preds, refs, **kw)
    yield lambda: metric.sentence_scores(preds, refs, **kw)
    yield lambda: _neural_update_keeps_state(metric, preds, refs, kw)


def _neural_update_keeps_state(metric, preds, refs, kw):
    import copy

    m = copy.copy(metric)
    m.reset() if hasattr(m, "reset") else None
    good_kw = {"sources": ["a b c", "b c d"]} if kw else {}
    m.update(["a b c d", "b c d e"], [["a b c"], ["b c d"]], **good_kw)
    before = m.compute().score
    try:
        m.update(preds, refs, **kw)
    except NlgMetricsError:
        assert m.compute().score == before
        raise
    return m.compute()


@pytest.mark.parametrize("name", [e.name for e in NEURAL])
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(preds=predictions, refs=references, sources=st.one_of(st.none(), predictions))
def test_neural_metrics_give_a_number_or_a_typed_error(neural_metrics, name, preds, refs, sources):
    for face in _neural_faces(name, neural_metrics[name], preds, refs, sources):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = face()
            except NlgMetricsError:
                continue
        values = out.ravel().tolist() if isinstance(out, np.ndarray) else [float(out.score)]
        # the mean of no segment is undefined (NaN, JSON null), and bert_score's own
        # arithmetic gives NaN when all idf weights are 0 (with a BERTScoreWarning)
        nan_allowed = _is_empty(preds) or any("NaN" in str(w.message) for w in caught)
        for v in values:
            assert math.isfinite(v) or (nan_allowed and math.isnan(v)), (name, v)


def _is_empty(preds) -> bool:
    try:
        return len(preds) == 0
    except TypeError:
        return False


# -- option contradictions: an option the others make unused is refused, never ignored --
_CASED_P = ["The Cats sat on the mat today, running!", "A dog ran away quickly."]
_CASED_R = [["The cat sat on a mat.", "Cats were sitting"], ["a dog runs", "The dog ran away"]]


def _non_default_values(default):
    if isinstance(default, bool):
        return [not default]
    if isinstance(default, int):
        return [default + 1]
    if isinstance(default, float):
        return [default * 0.5 if default else 0.5]
    return []


def _plain_score(entry, metric):
    if entry.kind == "data-to-text":
        return metric.corpus_score(_CASED_P, _CASED_R, [[["a", "dog"]], [["b", "cat"]]]).score
    if entry.name in ("distinct", "self_bleu"):
        return metric.corpus_score(_CASED_P + ["the dog ran on the mat"]).score
    return metric.corpus_score(_CASED_P, _CASED_R).score


# nltk's SmoothingFunction(epsilon, alpha, k) holds the parameters of every method, and the
# nltk-style metrics take them the same way (code ported from nltk keeps working): a
# parameter of another method is carried, unused, as nltk carries it.
NLTK_SMOOTHING_PARAMETERS = {"epsilon", "alpha", "k"}


@pytest.mark.parametrize("entry", METRICS, ids=[e.name for e in METRICS])
def test_options_that_change_nothing_are_refused(entry):
    """Every bool/number option of every flavour, moved off its default: it changes the
    signature or the score, or it is refused as not applying (a sigma with the original
    CIDEr, lowercase with mteval NIST, hll_precision without the sketch, ...)."""
    import inspect

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for flavour in entry.flavours or (None,):
            kw = {} if flavour is None else {"flavour": flavour}
            try:
                base = nlgmetrics.load(entry.name, **kw)
                before = (str(base.signature()), _plain_score(entry, base))
            except NlgMetricsError:
                continue  # e.g. nltk METEOR without WordNet
            for p in list(inspect.signature(type(base).__init__).parameters.values())[1:]:
                if p.name in ("flavour", "n_threads") or p.kind not in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
                    continue
                if p.name in NLTK_SMOOTHING_PARAMETERS and (flavour == "nltk" or entry.name == "self_bleu"):
                    continue
                for value in _non_default_values(p.default):
                    try:
                        other = nlgmetrics.load(entry.name, **kw, **{p.name: value})
                        after = (str(other.signature()), _plain_score(entry, other))
                    except NlgMetricsError:
                        continue
                    assert after != before, f"{entry.name} {flavour} {p.name}={value!r} is accepted and changes nothing"


# -- programs and rankings: SPA / acc-eq matrices, retrieval dicts (one block) -----------
_meta_cells = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-3, 3), st.sampled_from([1e38, -3e38, 1e308, 5e-324]),
                        st.none(), st.booleans(), st.text(max_size=2))
_meta_matrices = st.one_of(st.lists(st.lists(_meta_cells, min_size=0, max_size=4), max_size=4), _meta_cells,
                           st.lists(_meta_cells, max_size=4), st.dictionaries(st.text(max_size=2), _meta_cells, max_size=2))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(metric=_meta_matrices, human=_meta_matrices)
@example(metric=[[1e308, -1e308], [1e308, 1e308]], human=[[1, 2], [3, 4]])  # overflowed float32 sums: SPA 0.0 before
@example(metric=[[1, 2], [3, 4]], human=[[3e38, 3e38], [1, 2]])
def test_spa_and_tie_calibrated_accuracy_give_a_share_or_a_typed_error(metric, human):
    from nlgmetrics.engines.meta_pairwise import soft_pairwise_accuracy, tie_calibrated_accuracy

    for call in (lambda: soft_pairwise_accuracy(metric, human, num_permutations=50),
                 lambda: tie_calibrated_accuracy(metric, human).value):
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # an overflow or NaN on the way is a number that means nothing
            try:
                value = call()
            except NlgMetricsError:
                continue
        assert 0.0 <= value <= 1.0, value


_ids = st.one_of(st.text(max_size=3), st.integers(-1, 1), st.none(), st.binary(max_size=2))
_run_values = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2**70, 2**70), st.booleans(), st.text(max_size=2), st.none())


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(run=st.one_of(st.dictionaries(_ids, st.one_of(st.dictionaries(_ids, _run_values, max_size=3), _run_values), max_size=3), _run_values),
       qrels=st.one_of(st.dictionaries(_ids, st.one_of(st.dictionaries(_ids, _run_values, max_size=3), _run_values), max_size=3), _run_values))
def test_retrieval_dicts_give_shares_or_a_typed_error(run, qrels):
    from nlgmetrics.metrics.programs.retrieval import Retrieval

    try:
        values = Retrieval(measures=["map", "ndcg_cut.10", "P.5", "recip_rank"]).per_query(run, qrels)
    except NlgMetricsError:
        return
    for row in values.values():
        assert all(0.0 <= v <= 1.0 for v in row.values()), row


# -- the LLM leaderboard functions: lm-eval's aggregation layer, sampling aggregates, pass@k ----
# A hostile call gives the reference's number (NaN where lm-eval's own arithmetic gives NaN) or a
# typed error, never a bare TypeError / OverflowError / IndexError, within bounded work.
from nlgmetrics.metrics.llm import lm_eval_stderr as _lm_se  # noqa: E402
from nlgmetrics.metrics.llm import pass_at_k as _pak  # noqa: E402
from nlgmetrics.metrics.llm import sampling as _smp  # noqa: E402

_BIG = 10**400  # an integer past the floats
LLM_FUNCTION_CASES = {  # id: (call, a value it gives, or the typed error it raises)
    "mean of strings": (lambda: _lm_se.mean(["a", "b"]), InputTypeError),
    "mean of None": (lambda: _lm_se.mean([None, 1.0]), InputTypeError),
    "mean of lists": (lambda: _lm_se.mean([[1], [2]]), InputTypeError),
    "mean of complex numbers": (lambda: _lm_se.mean([1j, 2]), InputTypeError),
    "mean past the floats": (lambda: _lm_se.mean([_BIG, 1]), InvalidInputError),
    "mean of booleans": (lambda: _lm_se.mean([True, False, True, True]), 0.75),
    "mean with NaN is lm-eval's NaN": (lambda: _lm_se.mean([float("nan"), 1.0]), "nan"),
    "mean_stderr of strings": (lambda: _lm_se.mean_stderr(["a", "b"]), InputTypeError),
    "mean_stderr past the floats": (lambda: _lm_se.mean_stderr([_BIG, 1]), InvalidInputError),
    "sample_stddev of None": (lambda: _lm_se.sample_stddev([None, 1]), InputTypeError),
    "pop_stddev past the floats": (lambda: _lm_se.pop_stddev([_BIG, 1]), InvalidInputError),
    "bootstrap of strings": (lambda: _lm_se.bootstrap_stderr("mean", ["a", "b"], 1000), InputTypeError),
    "bootstrap with 10**12 resamples": (lambda: _lm_se.bootstrap_stderr("mean", [1.0, 2.0, 3.0], 10**12), InvalidOptionError),
    "bootstrap with True resamples": (lambda: _lm_se.bootstrap_stderr("mean", [1.0, 2.0], True), InvalidOptionError),
    "stderr iters a string": (lambda: _lm_se.stderr_for_aggregation("median", "10"), InvalidOptionError),
    "stderr iters 10**12": (lambda: _lm_se.stderr_for_aggregation("median", 10**12), InvalidOptionError),
    "stderr iters negative: lm-eval's none": (lambda: _lm_se.stderr_for_aggregation("median", -1), None),
    "group metrics of strings": (lambda: _lm_se.aggregate_subtask_metrics(["a"], [3]), InputTypeError),
    "group stderr N/A": (lambda: _lm_se.pooled_sample_stderr(["N/A", 0.1], [3, 4]), InputTypeError),
    "group size negative": (lambda: _lm_se.aggregate_subtask_metrics([0.5, 0.2], [-1, 4]), InvalidInputError),
    "group size a fraction": (lambda: _lm_se.aggregate_subtask_metrics([0.5], [2.5]), InvalidInputError),
    "group size past the floats": (lambda: _lm_se.aggregate_subtask_metrics([0.5, 0.2], [_BIG, 1]), InvalidInputError),
    "pooled size past the floats": (lambda: _lm_se.pooled_sample_stderr([0.1, 0.2], [_BIG, 3]), InvalidInputError),
    "unweighted stderr of strings": (lambda: _lm_se.unweighted_mean_stderr(["a"]), InputTypeError),
    "combined stderr of None": (lambda: _lm_se.combined_sample_stderr([None, 0.1], [3, 4], [0.5, 0.2]), InputTypeError),
    "group_aggregate stderrs not a sequence": (lambda: _lm_se.group_aggregate([0.5], 3, [2]), InputTypeError),
    "group weighted (lm-eval's numbers)": (lambda: _lm_se.aggregate_subtask_metrics([0.5, 0.2], [1, 3]), 0.275),
    "majority of no answers": (lambda: _smp.majority_answer([]), InvalidInputError),
    "majority of a string": (lambda: _smp.majority_answer("abc"), InputTypeError),
    "majority of lists": (lambda: _smp.majority_answer([[1], [1]]), InputTypeError),
    "majority of an unknown flavour": (lambda: _smp.majority_answer(["a"], "nope"), InvalidOptionError),
    "majority: first of a tie": (lambda: _smp.majority_answer(["b", "a", "a", "b"]), "b"),
    "avg@k past the floats": (lambda: _smp.avg_at_k([[_BIG, 0]], 2), InputTypeError),
    "avg@k k negative": (lambda: _smp.avg_at_k([[1, 0]], -1), InvalidOptionError),
    "avg@k k past n": (lambda: _smp.avg_at_k([[1, 0]], 3), InvalidOptionError),
    "maj@k k huge": (lambda: _smp.maj_at_k([["a", "b"]], ["a"], 10**30), InvalidOptionError),
    "pass^k k past n": (lambda: _smp.pass_hat_k([4], [2], 5), InvalidOptionError),
    "pass@k k a string": (lambda: _pak.pass_at_k([4], [2], "1"), InputTypeError),
    "pass@k k past n": (lambda: _pak.pass_at_k([4], [2], 5), InvalidOptionError),
    "pass@k n NaN": (lambda: _pak.pass_at_k([float("nan")], [1], 1), InputTypeError),
}


def _within_seconds(seconds: int):
    """A wall-clock bound on one call (a hang fails the test instead of stalling the suite)."""
    import contextlib
    import signal

    def late(*_):
        raise TimeoutError(f"still running after {seconds} s")

    @contextlib.contextmanager
    def bound():
        previous = signal.signal(signal.SIGALRM, late)
        signal.alarm(seconds)
        try:
            yield
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)

    return bound()


@pytest.mark.parametrize("case", LLM_FUNCTION_CASES, ids=list(LLM_FUNCTION_CASES))
def test_llm_functions_give_the_reference_value_or_a_typed_error(case):
    call, expected = LLM_FUNCTION_CASES[case]
    with _within_seconds(60):
        _expect(call, expected)


def _expect(call, expected) -> None:
    if isinstance(expected, type) and issubclass(expected, BaseException):
        with pytest.raises(expected):
            call()
    elif expected == "nan":
        assert math.isnan(call())
    else:
        assert call() == expected


_LLM_FUNCTIONS = {
    "mean": lambda v, s, k: _lm_se.mean(v), "mean_stderr": lambda v, s, k: _lm_se.mean_stderr(v),
    "pop_stddev": lambda v, s, k: _lm_se.pop_stddev(v),
    "bootstrap_stderr": lambda v, s, k: _lm_se.bootstrap_stderr("median", v, 1000),
    "aggregate_subtask_metrics": lambda v, s, k: _lm_se.aggregate_subtask_metrics(v, s),
    "pooled_sample_stderr": lambda v, s, k: _lm_se.pooled_sample_stderr(v, s),
    "combined_sample_stderr": lambda v, s, k: _lm_se.combined_sample_stderr(v, s, v),
    "group_aggregate": lambda v, s, k: _lm_se.group_aggregate(v, v, s),
    "majority_answer": lambda v, s, k: _smp.majority_answer(v),
    "avg_at_k": lambda v, s, k: _smp.avg_at_k([v], k), "maj_at_k": lambda v, s, k: _smp.maj_at_k([v], s, k),
    "pass_hat_k": lambda v, s, k: _smp.pass_hat_k(s, v, k), "pass_at_k": lambda v, s, k: _pak.pass_at_k(s, v, k),
}
_llm_items = st.one_of(scalars, st.integers(-(10**400), 10**400), texts, st.lists(scalars, max_size=2))


@pytest.mark.parametrize("name", sorted(_LLM_FUNCTIONS))
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(values=st.one_of(containers(_llm_items), st.lists(st.floats(-1, 1), max_size=5)),
       sizes=st.one_of(containers(_llm_items), st.lists(st.integers(0, 50), max_size=5)),
       k=st.one_of(st.integers(-2, 6), st.just(10**30), scalars))
def test_llm_functions_never_raise_untyped(name, values, sizes, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            _LLM_FUNCTIONS[name](values, sizes, k)
        except NlgMetricsError:
            pass
