"""The fast language detection IFEval uses (:mod:`nlgmetrics.metrics.llm._ifeval_langdetect`)
gives langdetect 1.0.9's own seeded ``Detector.detect()`` verdict, text for text: the
prepared text, the n-grams and the detected language are compared with langdetect's objects
on IFEval's GPT-4 answers (and their loose variants) and on generated texts built to reach
every rule (URLs, e-mails, Vietnamese marks, mostly non-Latin scripts, capital words, runs of
spaces, texts past langdetect's 10,000-character cut, texts without features)."""
from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

pytest.importorskip("langdetect")

from langdetect.lang_detect_exception import LangDetectException  # noqa: E402

from nlgmetrics.metrics.llm import _ifeval_checkers as checkers  # noqa: E402
from nlgmetrics.metrics.llm import _ifeval_langdetect as fast  # noqa: E402
from nlgmetrics.metrics.llm.ifeval import loose_variants  # noqa: E402

GPT4 = Path(__file__).parent / "goldens" / "ifeval" / "gpt4.jsonl.gz"
PIECES = [
    "The quick brown fox jumps over the lazy dog.", "EVERY WORD HERE IS LOUD", "NASA and the UN met",
    "El gato duerme en la casa y el perro come en el jardín.", "Le chat dort sur le canapé.",
    "Der Hund läuft schnell durch den großen Park.", "猫はソファの上で寝ています。", "Кошка спит на диване весь день.",
    "हिन्दी भाषा बहुत सुंदर है।", "مرحبا بكم في بيتنا", "یک دو سه", "한국어 문장입니다", "ㄅㄆㄇ 注音", "中文的句子在这里",
    "Tiếng Việt có dấu", "Tie\u0302\u0301ng Vie\u0323\u0302t", "Ro\u0219ia \u021bara", "see https://example.com/a?b=c&d=1 now",
    "mail me: john.doe@example.org", "1234 5678", "   ", "\n\n", "***", "a", "AB", "ÀÉÎ", "naïve café", "x² ½",
    "🙂 emoji", "\u00a0nbsp\u00a0", "—–…", "ẞ ß", "Ǆ ǅ ǆ", "[\\]^_`", "İstanbul ığdır",
]


def _slow(text: str):
    d = checkers._detector_factory().create()
    d.append(text)
    try:
        return d.detect()
    except LangDetectException as e:
        return ("error", e.code)


def _quick(text: str):
    try:
        return fast.detect(checkers._detector_factory(), text)
    except LangDetectException as e:
        return ("error", e.code)


def _generated(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        pieces = [rng.choice(PIECES) for _ in range(rng.randint(0, 12))]
        text = rng.choice([" ", "  ", "\n", "", "   "]).join(pieces)
        if rng.random() < 0.3:
            text = "".join(c.upper() if rng.random() < 0.5 else c for c in text)
        if rng.random() < 0.05:
            text = text * (10_500 // max(1, len(text)) + 1)  # past the 10,000-character cut
        out.append(text)
    return out


def _gpt4_texts(n: int) -> list[str]:
    texts: list[str] = []
    for line in gzip.open(GPT4, "rt", encoding="utf-8"):
        texts += dict.fromkeys(loose_variants(json.loads(line)["response"]))
    return texts[:n]


@pytest.mark.parametrize("seed", [0, 1])
def test_prepared_text_and_ngrams_equal_langdetect_s(seed):
    factory = checkers._detector_factory()
    for text in _generated(400, seed) + _gpt4_texts(150):
        d = factory.create()
        d.append(text)
        d.cleaning_text()
        assert fast.prepared_text(factory.create(), text) == d.text, text
        assert fast.extract_ngrams(d.text, d.word_lang_prob_map) == d._extract_ngrams(), text


def test_detected_language_equals_langdetect_s_on_generated_texts():
    texts = _generated(300, 2)
    got = [_quick(t) for t in texts]
    assert got == [_slow(t) for t in texts]
    assert len({g for g in got if isinstance(g, str)}) >= 8  # many languages reached, and texts without features
    assert any(isinstance(g, tuple) for g in got)


def test_detected_language_equals_langdetect_s_on_gpt4_answers_and_their_loose_variants():
    texts = _gpt4_texts(250)
    assert [_quick(t) for t in texts] == [_slow(t) for t in texts]


def test_a_repeated_text_gives_the_same_answer_as_the_first_time():
    texts = _generated(40, 3)
    first = [_quick(t) for t in texts]
    assert [_quick(t) for t in texts] == first == [_slow(t) for t in texts]


def test_a_trial_it_cannot_replay_goes_to_langdetect_itself(monkeypatch):
    text = "Le chat dort sur le canapé pendant que nous mangeons."

    def refuse(detector, ngrams):
        raise fast._Fallback

    monkeypatch.setattr(fast, "_trials", refuse)
    assert fast.detect(checkers._detector_factory(), text) == _slow(text) == "fr"


def test_ifeval_counts_equal_those_with_langdetect_s_own_detector_duplicates_and_all(monkeypatch):
    """End to end: IFEval's counts on the GPT-4 documents whose checks call langdetect (each
    answer twice in the batch, so the second is scored from the caches) equal those with
    langdetect's own ``Detector`` doing every detection."""
    from nlgmetrics.metrics.llm.ifeval import IFEval

    calls = ("language:response_language", "change_case:english_capital", "change_case:english_lowercase")
    records = [json.loads(line) for line in gzip.open(GPT4, "rt", encoding="utf-8")]
    chosen = [r for r in records if "error" not in r["reference"] and any(i in calls for i in r["doc"]["instruction_id_list"])]
    docs = [r["doc"] for r in chosen] * 2
    responses = [r["response"] for r in chosen] * 2
    checkers.detect_language.cache_clear()
    fast_counts = IFEval().stats(responses, docs).counts

    def langdetect_itself(text):
        got = _slow(text)
        return None if isinstance(got, tuple) else got

    monkeypatch.setattr(checkers, "detect_language", langdetect_itself)
    assert len(chosen) >= 60
    assert IFEval().stats(responses, docs).counts.tolist() == fast_counts.tolist()
