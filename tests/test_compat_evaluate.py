"""``nlgmetrics.compat.evaluate``: the result dicts of evaluate's metric scripts.

evaluate itself is not installed (its scripts come from the Hub at run time), so each
name is checked against what its script computes with the library it wraps: scikit-learn
for accuracy/f1/precision/recall, rouge-score (with numpy's global generator) for rouge,
nltk's ``corpus_gleu`` for google_bleu, bert_score for bertscore, sacrebleu and jiwer for
the others. ``bleu`` (the TensorFlow-NMT script) and ``exact_match`` (numpy string
operations) have no library to call: :func:`nmt_compute_bleu` and
:func:`evaluate_exact_match` below restate their scripts step by step, with sacrebleu's
mteval-v13a tokenizer, which evaluate's ``Tokenizer13a`` copies.
"""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer, scoring

from nlgmetrics import load as load_metric
from nlgmetrics.compat import evaluate
from nlgmetrics.errors import InvalidInputError, InvalidOptionError

labels = st.lists(st.integers(0, 2), min_size=1, max_size=30)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), y_true=labels)
def test_classification_dicts(data, y_true):
    y_pred = data.draw(st.lists(st.integers(0, 2), min_size=len(y_true), max_size=len(y_true)))
    assert evaluate.load("accuracy").compute(predictions=y_pred, references=y_true) == {"accuracy": float(skm.accuracy_score(y_true, y_pred))}
    for name, fn in (("f1", skm.f1_score), ("precision", skm.precision_score), ("recall", skm.recall_score)):
        for average in ("macro", "micro", "weighted", None):
            kw = {} if name == "f1" else {"zero_division": 0}
            got = evaluate.load(name).compute(predictions=y_pred, references=y_true, average=average, **kw)
            want = fn(y_true, y_pred, average=average, **kw)
            if np.size(want) == 1:
                assert got == {name: float(np.ravel(want)[0])}
            else:
                np.testing.assert_array_equal(got[name], want)


def test_binary_defaults_and_accumulation():
    m = evaluate.load("f1")
    m.add_batch(predictions=[0, 1], references=[0, 1])
    m.add(prediction=1, reference=0)
    assert m.compute() == {"f1": float(skm.f1_score([0, 1, 0], [0, 1, 1]))}
    assert evaluate.load("accuracy").compute(predictions=[1, 0], references=[1, 1], normalize=False) == {"accuracy": 1.0}


def test_rouge_as_evaluates_script():
    preds = ["the cat sat on the mat", "a dog barked loudly", "hello there"]
    refs = ["the cat is on the mat", "the dog barked", "general kenobi"]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    scorer = rouge_scorer.RougeScorer(types)
    agg = scoring.BootstrapAggregator()
    for r, p in zip(refs, preds):
        agg.add_scores(scorer.score(r, p))
    np.random.seed(11)
    want = {k: v.mid.fmeasure for k, v in agg.aggregate().items()}
    np.random.seed(11)
    got = evaluate.load("rouge").compute(predictions=preds, references=refs)
    assert repr(got) == repr(want)
    per = evaluate.load("rouge").compute(predictions=preds, references=[[r, "x"] for r in refs], use_aggregator=False, use_stemmer=True)
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=True)
    assert per == {k: [scorer.score_multi([r, "x"], p)[k].fmeasure for r, p in zip(refs, preds)] for k in types}
    tok = evaluate.load("rouge").compute(predictions=preds, references=refs, tokenizer=str.split, use_aggregator=False, rouge_types=["rouge1"])
    assert tok["rouge1"][0] == 2 * (5 / 6) * (5 / 6) / (5 / 6 + 5 / 6)


def test_sacrebleu_chrf_ter_wer_cer():
    preds = ["The cat sat on the mat.", "It is raining"]
    refs = [["The cat is on the mat.", "A cat sat on a mat."], ["It rains.", "Rain is falling"]]
    streams = [list(x) for x in zip(*refs)]
    got = evaluate.load("sacrebleu").compute(predictions=preds, references=refs)
    want = sacrebleu.corpus_bleu(preds, streams)
    assert got["score"] == want.score and got["counts"] == want.counts and got["bp"] == want.bp
    assert evaluate.load("chrf").compute(predictions=preds, references=refs, word_order=2)["score"] == sacrebleu.corpus_chrf(preds, streams, word_order=2).score
    assert evaluate.load("ter").compute(predictions=preds, references=refs)["score"] == sacrebleu.corpus_ter(preds, streams).score
    import jiwer

    assert evaluate.load("wer").compute(predictions=preds, references=[r[0] for r in refs]) == jiwer.wer([r[0] for r in refs], preds)
    assert evaluate.load("cer").compute(predictions=preds, references=[r[0] for r in refs]) == jiwer.cer([r[0] for r in refs], preds)
    with pytest.raises(ValueError, match="same number of references"):
        evaluate.load("sacrebleu").compute(predictions=preds, references=[refs[0], refs[1][:1]])


def test_names_not_covered_say_so():
    with pytest.raises(InvalidOptionError, match="covered: accuracy"):
        evaluate.load("perplexityx")
    assert repr(evaluate.load("evaluate-metric/rouge")) == 'EvaluationModule(name: "rouge")'


# -- bleu, google_bleu, exact_match ------------------------------------------------------------

import math  # noqa: E402
import re  # noqa: E402
import string  # noqa: E402
from collections import Counter  # noqa: E402

from nltk.translate.gleu_score import corpus_gleu  # noqa: E402
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: E402

from wmt import load_pair  # noqa: E402

_tok13a = Tokenizer13a()


def evaluate_13a(text: str) -> list[str]:
    """evaluate's Tokenizer13a: sacrebleu's 13a, whose output it splits."""
    return _tok13a(text).split()


def _grams(tokens, max_order):
    return Counter(tuple(tokens[i : i + n]) for n in range(1, max_order + 1) for i in range(len(tokens) - n + 1))


def nmt_compute_bleu(references, translations, max_order=4, smooth=False):
    """tensorflow/nmt ``compute_bleu`` as evaluate's ``bleu`` runs it, restated."""
    matches, possible = [0] * max_order, [0] * max_order
    ref_len = hyp_len = 0
    for refs, hyp in zip(references, translations):
        ref_len += min(len(r) for r in refs)
        hyp_len += len(hyp)
        merged = Counter()
        for r in refs:
            merged |= _grams(r, max_order)
        for gram, c in (_grams(hyp, max_order) & merged).items():
            matches[len(gram) - 1] += c
        for order in range(1, max_order + 1):
            if len(hyp) - order + 1 > 0:
                possible[order - 1] += len(hyp) - order + 1
    if smooth:
        precisions = [(m + 1.0) / (p + 1.0) for m, p in zip(matches, possible)]
    else:
        precisions = [float(m) / p if p > 0 else 0.0 for m, p in zip(matches, possible)]
    geo = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions)) if min(precisions) > 0 else 0
    ratio = float(hyp_len) / ref_len
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return {"bleu": geo * bp, "precisions": precisions, "brevity_penalty": bp, "length_ratio": ratio,
            "translation_length": hyp_len, "reference_length": ref_len}


def evaluate_bleu(predictions, references, tokenizer=evaluate_13a, max_order=4, smooth=False):
    if isinstance(references[0], str):
        references = [[r] for r in references]
    return nmt_compute_bleu([[tokenizer(r) for r in rs] for rs in references], [tokenizer(p) for p in predictions], max_order, smooth)


def evaluate_exact_match(predictions, references, regexes_to_ignore=None, ignore_case=False, ignore_punctuation=False, ignore_numbers=False):
    """evaluate's exact_match script, restated with the same numpy calls."""
    if regexes_to_ignore is not None:
        for pattern in regexes_to_ignore:
            predictions = np.array([re.sub(pattern, "", x) for x in predictions])
            references = np.array([re.sub(pattern, "", x) for x in references])
    else:
        predictions, references = np.asarray(predictions), np.asarray(references)
    if ignore_case:
        predictions, references = np.char.lower(predictions), np.char.lower(references)
    if ignore_punctuation:
        table = string.punctuation.maketrans("", "", string.punctuation)
        predictions, references = np.char.translate(predictions, table=table), np.char.translate(references, table=table)
    if ignore_numbers:
        table = string.digits.maketrans("", "", string.digits)
        predictions, references = np.char.translate(predictions, table=table), np.char.translate(references, table=table)
    return {"exact_match": np.mean(predictions == references)}


@pytest.fixture(scope="module")
def wmt_pairs():
    out = {}
    for name in ("zh-en", "en-zh"):
        p = load_pair(name)
        refs = [list(seg) for seg in zip(*p.refs)]
        out[name] = (refs, sorted(p.systems.items())[:3])
    return out


@pytest.mark.parametrize("pair", ["zh-en", "en-zh"])
def test_bleu_is_evaluates_nmt_bleu_on_wmt22(wmt_pairs, pair):
    refs, systems = wmt_pairs[pair]
    for name, hyps in systems:
        for kw in ({}, {"max_order": 2, "smooth": True}, {"smooth": True}):
            got = evaluate.load("bleu").compute(predictions=hyps, references=refs, **kw)
            assert got == evaluate_bleu(hyps, refs, **kw), (name, kw)
        one = evaluate.load("bleu").compute(predictions=hyps, references=[r[0] for r in refs])
        assert one == evaluate_bleu(hyps, [r[0] for r in refs])


def test_bleu_examples_and_custom_tokenizer():
    preds = ["hello there general kenobi", "foo bar foobar"]
    refs = [["hello there general kenobi", "hello there!"], ["foo bar foobar"]]
    assert evaluate.load("bleu").compute(predictions=preds, references=refs) == {
        "bleu": 1.0, "precisions": [1.0, 1.0, 1.0, 1.0], "brevity_penalty": 1.0, "length_ratio": 7 / 6,
        "translation_length": 7, "reference_length": 6}
    got = evaluate.load("bleu").compute(predictions=preds, references=refs, tokenizer=str.split)
    assert got == evaluate_bleu(preds, refs, tokenizer=str.split) and got["reference_length"] == 5
    with pytest.raises(InvalidOptionError, match="tokens must be"):
        evaluate.load("bleu").compute(predictions=preds, references=refs, tokenizer=lambda s: [s])
    with pytest.raises(InvalidInputError, match="length ratio"):
        evaluate.load("bleu").compute(predictions=["", " "], references=["a", "b"])


text = st.lists(st.sampled_from(list("ab c-.,&;") + ["&amp;", "<skipped>", "-\n", "\n", "\u00a0", "x1", "2.5"]), max_size=12).map("".join)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), n=st.integers(1, 5))
def test_bleu_and_google_bleu_hypothesis(data, n):
    preds = data.draw(st.lists(text, min_size=n, max_size=n))
    refs = data.draw(st.lists(st.lists(text, min_size=1, max_size=3), min_size=n, max_size=n))
    order = data.draw(st.integers(1, 5))
    smooth = data.draw(st.booleans())
    try:
        want = evaluate_bleu(preds, refs, max_order=order, smooth=smooth)
    except ZeroDivisionError:
        with pytest.raises(InvalidInputError):
            evaluate.load("bleu").compute(predictions=preds, references=refs, max_order=order, smooth=smooth)
    else:
        assert evaluate.load("bleu").compute(predictions=preds, references=refs, max_order=order, smooth=smooth) == want
    lo = data.draw(st.integers(1, 3))
    hi = data.draw(st.integers(lo, 5))
    want_gleu = corpus_gleu([[evaluate_13a(r) for r in rs] for rs in refs], [evaluate_13a(p) for p in preds], min_len=lo, max_len=hi)
    got = evaluate.load("google_bleu").compute(predictions=preds, references=refs, min_len=lo, max_len=hi)
    assert got == {"google_bleu": want_gleu}


@pytest.mark.parametrize("pair", ["zh-en", "en-zh"])
def test_google_bleu_is_nltk_corpus_gleu_on_wmt22(wmt_pairs, pair):
    refs, systems = wmt_pairs[pair]
    tok_refs = [[evaluate_13a(r) for r in rs] for rs in refs]
    for _, hyps in systems[:2]:
        want = corpus_gleu(tok_refs, [evaluate_13a(h) for h in hyps])
        assert evaluate.load("google_bleu").compute(predictions=hyps, references=refs) == {"google_bleu": want}
    streamed = load_metric("google_bleu")
    hyps = systems[0][1]
    for a in range(0, len(hyps), 700):
        streamed.update(hyps[a : a + 700], refs[a : a + 700])
    assert streamed.compute().score == corpus_gleu(tok_refs, [evaluate_13a(h) for h in hyps])


# Adversarial Unicode for numpy's fixed-width strings: U+0130 (İ, whose lowercase is two
# characters: cut to the array's width), final and medial sigma, titlecase and ligature
# letters, combining marks, NULs (numpy drops trailing ones), ASCII punctuation and digits.
words = st.lists(st.sampled_from(list("aAbB1 .?!-é\x00ßẞİiΣσςǅﬃ\u0307\u0301٣") + ["the ", "YELL", "ΑΣ", "\x00\x00"]),
                 max_size=8).map("".join)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(1, 6))
def test_exact_match_hypothesis(data, n):
    preds = data.draw(st.lists(words, min_size=n, max_size=n))
    refs = data.draw(st.lists(st.one_of(words, st.sampled_from(preds)), min_size=n, max_size=n))
    kw = {
        "regexes_to_ignore": data.draw(st.one_of(st.none(), st.lists(st.sampled_from(["the ", "yell", "YELL", "[0-9]+", "\\s", "\\x00"]), max_size=3))),
        "ignore_case": data.draw(st.booleans()),
        "ignore_punctuation": data.draw(st.booleans()),
        "ignore_numbers": data.draw(st.booleans()),
    }
    got = evaluate.load("exact_match").compute(predictions=preds, references=refs, **kw)
    want = evaluate_exact_match(preds, refs, **kw)
    assert got == want and type(got["exact_match"]) is type(want["exact_match"])
    flavoured = load_metric("exact_match", flavour="evaluate", **kw)
    assert flavoured.corpus_score(preds, refs).score == want["exact_match"]
    # one batch is one evaluate compute: a stream of one batch is the same
    assert flavoured.update(preds, refs).compute().score == want["exact_match"]
    # the plain flavour (each text normalised alone) is evaluate but for the two artefacts
    artefact = (kw["ignore_case"] and any("İ" in t for t in preds + refs)) or (
        kw["regexes_to_ignore"] == [] and not any(kw[k] for k in ("ignore_case", "ignore_punctuation", "ignore_numbers")))
    if not artefact:
        assert load_metric("exact_match", **kw).corpus_score(preds, refs).score == want["exact_match"]


def test_exact_match_equals_evaluates_goldens():
    """600 batches of adversarial Unicode through evaluate 0.4.6's own exact_match script
    (numpy 2.4.6, ``tests/goldens/evaluate/exact_match.json.gz``), every option combination,
    ``regexes_to_ignore`` None, [] or patterns: the same numbers."""
    import gzip
    import json
    from pathlib import Path

    golden = json.loads(gzip.decompress((Path(__file__).parent / "goldens" / "evaluate" / "exact_match.json.gz").read_bytes()))
    assert len(golden["cases"]) == 600
    artefacts = 0
    for case in golden["cases"]:
        got = evaluate.load("exact_match").compute(predictions=case["predictions"], references=case["references"], **case["options"])
        assert got == {"exact_match": case["exact_match"]}, case
        plain = load_metric("exact_match", **case["options"]).corpus_score(case["predictions"], [[r] for r in case["references"]]).score
        artefacts += plain != case["exact_match"]
    assert artefacts >= 10  # 11 of the goldens do exercise what only the evaluate flavour reproduces
    from differential.parity_results import record

    record(metric="exact_match", flavour="evaluate (compat.evaluate 'exact_match')", reference="evaluate 0.4.6 exact_match script (numpy 2.4.6)",
           inputs="600 batches of adversarial Unicode (İ, sigma, ligatures, combining marks, NULs), every option: ==",
           values=len(golden["cases"]), max_diff=0.0)


def test_exact_match_examples():
    refs = ["the cat", "theater", "YELLING", "agent007"]
    preds = ["cat?", "theater", "yelling", "agent"]
    em = evaluate.load("exact_match")
    assert em.compute(references=refs, predictions=preds) == {"exact_match": 0.25}
    assert em.compute(references=refs, predictions=preds, regexes_to_ignore=["the ", "yell", "YELL"], ignore_case=True,
                      ignore_punctuation=True, ignore_numbers=True) == {"exact_match": 1.0}
    with pytest.raises(InvalidOptionError):
        em.compute(references=refs, predictions=preds, regexes_to_ignore="the ")
    # evaluate with regexes_to_ignore=[] (and no ignore_* flag) compares the two Python lists
    # as wholes: 0.0 here, 1.0 for equal lists
    assert evaluate_exact_match(preds, refs, regexes_to_ignore=[]) == {"exact_match": 0.0}
    assert em.compute(references=refs, predictions=preds, regexes_to_ignore=[]) == {"exact_match": 0.0}
    assert em.compute(references=["a", "b\x00"], predictions=["a", "b\x00"], regexes_to_ignore=[]) == {"exact_match": 1.0}
    assert em.compute(references=["a", "b"], predictions=["a", "b\x00"], regexes_to_ignore=[]) == {"exact_match": 0.0}
    assert em.compute(references=["a", "b"], predictions=["a", "b\x00"]) == {"exact_match": 1.0}
    # numpy cuts "İ".lower() (two characters) to the width of a one-character array:
    # evaluate then compares "i" with "i̇"
    assert evaluate_exact_match(["İ", "aa"], ["İ", "a"], ignore_case=True) == {"exact_match": 0.0}
    assert em.compute(predictions=["İ", "aa"], references=["İ", "a"], ignore_case=True) == {"exact_match": 0.0}
    assert em.compute(predictions=["İ", "a"], references=["İ", "a"], ignore_case=True) == {"exact_match": 1.0}
    # the plain flavour (nlgmetrics' default) means what the options say
    plain = load_metric("exact_match", ignore_case=True)
    assert plain.corpus_score(["İ", "aa"], ["İ", "a"]).score == 0.5
    assert load_metric("exact_match", regexes_to_ignore=[]).corpus_score(preds, refs).score == 0.25
    with pytest.raises(InvalidInputError, match="one reference"):
        load_metric("exact_match", flavour="evaluate").corpus_score(["a"], [["a", "b"]])
    with pytest.raises(InvalidOptionError, match="flavour"):
        load_metric("exact_match", flavour="evaluat")


def test_one_registry():
    """compat.evaluate resolves every name through nlgmetrics.load; the native face agrees."""
    from nlgmetrics.integrations import evaluate as native

    preds = ["he read the book because he was interested in world history"]
    refs = [["he was interested in world history because he read the book"]]
    assert native.load("google_bleu").compute(predictions=preds, references=refs)["score"] == \
        evaluate.load("google_bleu").compute(predictions=preds, references=refs)["google_bleu"] == load_metric("google_bleu").corpus_score(preds, refs).score
    assert native.load("exact_match").compute(predictions=["a", "b"], references=["a", "c"])["score"] == 0.5
    assert load_metric("bleu", flavour="nmt").corpus_score(preds, refs).score == evaluate.load("bleu").compute(predictions=preds, references=refs)["bleu"]
    with pytest.raises(InvalidOptionError, match="nmt"):
        native.load("bleu")


# -- bertscore -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_bert_dir(tmp_path_factory):
    pytest.importorskip("torch")
    from neural_models import tiny_bert

    return str(tiny_bert(tmp_path_factory.mktemp("tiny-bert")))


@pytest.mark.parametrize("idf", [False, True])
def test_bertscore_is_evaluates_script(tiny_bert_dir, wmt_pairs, idf):
    """evaluate's bertscore: bert_score.BERTScorer(...).score(...) and get_hash(...)."""
    import bert_score
    import torch

    torch.set_num_threads(1)
    refs, systems = wmt_pairs["zh-en"]
    hyps, refs = systems[0][1][:24], refs[:24]
    hyps[2] = ""
    flat_refs = [r[0] for r in refs]
    for references in (refs, flat_refs):
        nested = [[r] for r in references] if isinstance(references[0], str) else references
        scorer = bert_score.BERTScorer(model_type=tiny_bert_dir, num_layers=2, batch_size=8, nthreads=4, all_layers=False, idf=idf,
                                       idf_sents=[r for rs in nested for r in rs] if idf else None, device="cpu", lang=None,
                                       rescale_with_baseline=False, baseline_path=None, use_fast_tokenizer=False)
        p, r, f = scorer.score(cands=hyps, refs=nested, verbose=False, batch_size=8)
        got = evaluate.load("bertscore").compute(predictions=hyps, references=references, model_type=tiny_bert_dir, num_layers=2,
                                                 idf=idf, batch_size=8, device="cpu")
        assert set(got) == {"precision", "recall", "f1", "hashcode"}
        for key, want in (("precision", p), ("recall", r), ("f1", f)):
            assert isinstance(got[key], list) and len(got[key]) == len(hyps)
            np.testing.assert_allclose(got[key], want.tolist(), rtol=0, atol=1e-6, err_msg=key)
        assert got["hashcode"] == bert_score.utils.get_hash(tiny_bert_dir, 2, idf, False, False, use_fast_tokenizer=False)
    with pytest.raises(ValueError, match="lang"):
        evaluate.load("bertscore").compute(predictions=hyps, references=flat_refs)
    with pytest.raises(InvalidOptionError, match="all_layers"):
        evaluate.load("bertscore").compute(predictions=hyps, references=flat_refs, model_type=tiny_bert_dir, all_layers=True)


def test_module_examples_run():
    import doctest

    from nlgmetrics.metrics import bleu_nmt, gleu
    from nlgmetrics.metrics.qa import exact_match

    for mod in (bleu_nmt, gleu, exact_match):
        result = doctest.testmod(mod)
        assert result.attempted > 0 and result.failed == 0, mod.__name__


# -- nothing the user gave is lost on an error -------------------------------------------
@pytest.mark.parametrize("name,bad", [
    ("sacrebleu", {"lowercse": True}),  # a typo
    ("sacrebleu", {"smooth_method": "nope"}),  # a bad value
    ("chrf", {"char_ordr": 4}),
    ("exact_match", {"ignore_cse": True}),
    ("accuracy", {"normalise": False}),
    ("rouge", {"rouge_type": ["rouge1"]}),
    ("bleu", {"max_ordr": 2}),
])
def test_a_failed_compute_keeps_the_examples(name, bad):
    preds = ["the cat sat on the mat", "a dog ran"] if name != "accuracy" else [1, 0]
    refs = [["the cat is on the mat"], ["a dog ran away"]] if name not in ("accuracy", "exact_match") else ([1, 1] if name == "accuracy" else ["the cat sat on the mat", "a dog"])
    module = evaluate.load(name)
    module.add_batch(predictions=preds, references=refs)
    with pytest.raises(ValueError):
        module.compute(**bad)
    want = evaluate.load(name).compute(predictions=preds, references=refs)
    assert module.compute() == want  # the examples were all still there
    if name == "sacrebleu":
        assert want["sys_len"] == 9 and want["score"] > 0


def test_compute_with_nothing_added_raises_like_evaluate():
    # evaluate 0.4.6: "Evaluation module cache file doesn't exist. Please make sure that you
    # call `add` or `add_batch` at least once before calling `compute`." (a ValueError)
    module = evaluate.load("sacrebleu")
    with pytest.raises(ValueError, match="add"):
        module.compute()
    module.add_batch(predictions=["a b c d"], references=[["a b c d"]])
    assert module.compute()["score"] == sacrebleu.corpus_bleu(["a b c d"], [["a b c d"]]).score
    with pytest.raises(InvalidInputError):  # consumed by the compute that succeeded
        module.compute()
    # an explicit empty batch reaches the script, as in evaluate (numpy's mean of nothing)
    assert np.isnan(evaluate.load("exact_match").compute(predictions=[], references=[])["exact_match"])
