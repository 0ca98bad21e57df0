"""langdetect 1.0.9's ``Detector.detect()``, the same verdict in a fraction of the time.

IFEval's language checks spend most of their time in langdetect, whose work is a pure-Python
loop: per trial it draws n-grams at random and multiplies 55 language probabilities by the
n-gram's weights one float at a time. Here langdetect's own objects prepare the text (``append``,
``cleaning_text``: URLs, e-mails, Vietnamese marks, non-Latin scripts) and the same
``random.Random`` draws the same n-grams in the same order; only the arithmetic moves to numpy,
where every step is the same IEEE operation on the same operands (``prob * (weight + p)``,
``prob / sum``), and the sum is Python's own ``sum`` over the same list, in the same order. So
the verdict is langdetect's bit for bit (tests compare both on thousands of texts); where a
trial would divide by zero or meet a non-finite number, langdetect itself runs instead.
"""
from __future__ import annotations

import functools
import random
import re
from typing import Any

import numpy as np


class _Fallback(Exception):
    """A case the fast path does not replay: langdetect's own loop decides it."""


class _Normalized(dict):
    """``NGram.normalize`` per code point, for ``str.translate``: filled as characters appear."""

    def __missing__(self, code: int) -> str:
        from langdetect.utils.ngram import NGram

        self[code] = value = NGram.normalize(chr(code))
        return value


_NORMALIZED = _Normalized()
_SPACE_RUNS = re.compile(" {2,}")
_LATIN = re.compile("[A-z]")  # langdetect's ``'A' <= ch <= 'z'``, which takes [ \\ ] ^ _ `
_NON_LATIN = re.compile("[\u0300-\U0010ffff]")  # its block test never excludes a block (it compares a number with a name)


def prepared_text(detector: Any, text: str) -> str:
    """The text ``Detector.append(text)`` then ``cleaning_text()`` leave in ``detector.text``
    (a fresh detector): URLs and e-mails blanked, Vietnamese marks composed, cut at
    ``max_text_length``, runs of spaces made one, Latin letters dropped from a text mostly in
    another script."""
    from langdetect.utils.ngram import NGram

    text = detector.MAIL_RE.sub(" ", detector.URL_RE.sub(" ", text))
    text = _SPACE_RUNS.sub(" ", NGram.normalize_vi(text)[: detector.max_text_length])
    if len(_LATIN.findall(text)) * 2 < len(_NON_LATIN.findall(text)):
        text = _LATIN.sub("", text)
    return text


def _word_ngrams(word: str, known: dict) -> list[str]:
    """``NGram.add_char``'s n-grams over one normalised word (and the space after it, if
    any): the n-gram state starts afresh after every space, so a word's n-grams are its own."""
    result = []
    grams, capital = " ", False
    for ch in word:
        last = grams[-1]
        if last == " ":
            grams, capital = " ", False
            if ch == " ":
                continue
        elif len(grams) >= 3:
            grams = grams[1:]
        grams += ch
        if ch.isupper():
            if last.isupper():
                capital = True
        else:
            capital = False
        if capital:
            continue
        for n in (1, 2, 3):
            if len(grams) < n:
                break
            w = grams[-n:]
            if w and w != " " and w in known:
                result.append(w)
    return result


class _Profile:
    """Per profile table (one per detector factory): the n-grams of each word seen and each
    drawn n-gram's weights as an array, kept across calls (bounded)."""

    LIMIT = 200_000

    def __init__(self, table: dict):
        self.table = table  # held, so its id stays its own
        self.words: dict[str, list[str]] = {}
        self.rows: dict[str, np.ndarray] = {}

    def word(self, w: str) -> list[str]:
        got = self.words.get(w)
        if got is None:
            if len(self.words) >= self.LIMIT:
                self.words.clear()
            got = self.words[w] = _word_ngrams(w, self.table)
        return got

    def row(self, w: str) -> np.ndarray:
        got = self.rows.get(w)
        if got is None:
            if len(self.rows) >= self.LIMIT:
                self.rows.clear()
            got = np.array(self.table[w], dtype=np.float64)
            got.flags.writeable = False  # shared by every detection, in every thread
            self.rows[w] = got
        return got


_PROFILES: dict[int, _Profile] = {}


def _profile(table: dict) -> _Profile:
    got = _PROFILES.get(id(table))
    if got is None or got.table is not table:
        got = _PROFILES[id(table)] = _Profile(table)
    return got


def extract_ngrams(text: str, table: dict) -> list[str]:
    """``Detector._extract_ngrams`` on a cleaned text: the 1-, 2- and 3-grams of the profile
    ``table``, in langdetect's order."""
    profile = _profile(table)
    words = text.translate(_NORMALIZED).split(" ")
    result: list[str] = []
    for w in words[:-1]:
        if w:
            result += profile.word(w + " ")
    if words[-1]:
        result += profile.word(words[-1])
    return result


def _trials(detector: Any, ngrams: list[str]) -> list[float]:
    """``Detector._detect_block``'s trials on the extracted n-grams: the per-language
    probabilities it averages."""
    profile = _profile(detector.word_lang_prob_map)
    rows, row = profile.rows, profile.row
    n_langs, n_ngrams = len(detector.langlist), len(ngrams)
    rnd = random.Random()
    rnd.seed(detector.seed)
    pick = rnd._randbelow  # what ``rnd.choice(ngrams)`` draws, one call fewer
    langprob = np.zeros(n_langs)
    for _ in range(detector.n_trial):
        prob = np.array([1.0 / n_langs] * n_langs)
        alpha = detector.alpha + rnd.gauss(0.0, 1.0) * detector.ALPHA_WIDTH
        weight = alpha / detector.BASE_FREQ
        i = 0
        while True:
            w = ngrams[pick(n_ngrams)]
            prob *= weight + (rows.get(w) if w in rows else row(w))  # langdetect's ``prob[i] *= weight + lang_prob_map[i]``
            if i % 5 == 0:
                values = prob.tolist()
                total = sum(values)  # Python's sum, in langdetect's order
                if not (total > 0.0 and total != float("inf")):  # NaN, 0 or inf: langdetect's own loop decides
                    raise _Fallback
                prob /= total
                # the largest normalised value: division by a positive number is monotone in
                # IEEE arithmetic, so max(p) / total is max(p / total), bit for bit
                if max(values) / total > detector.CONV_THRESHOLD or i >= detector.ITERATION_LIMIT:
                    break
            i += 1
        langprob += prob / detector.n_trial
    return langprob.tolist()


def detect(factory: Any, text: str) -> str:
    """``factory.create()``, ``append(text)``, ``detect()``: langdetect's answer (its
    ``LangDetectException`` where it finds no features)."""
    from langdetect.lang_detect_exception import ErrorCode, LangDetectException

    detector = factory.create()
    if detector.prior_map is not None or detector.verbose:
        detector.append(text)
        return detector.detect()
    ngrams = extract_ngrams(prepared_text(detector, text), detector.word_lang_prob_map)
    if not ngrams:
        raise LangDetectException(ErrorCode.CantDetectError, "No features in text.")
    try:
        langprob = _trials(detector, ngrams)
    except _Fallback:
        fresh = factory.create()
        fresh.append(text)
        return fresh.detect()
    ranked = detector._sort_probability(langprob)
    return ranked[0].lang if ranked else detector.UNKNOWN_LANG
