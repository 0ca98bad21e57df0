r"""IFEval's 25 instruction checkers, as google-research's ``instruction_following_eval``
(vendored in lm-evaluation-harness 0.4.13's ``lm_eval/tasks/ifeval``) decides them.

``build(instruction_id, kwargs, prompt)`` returns one function ``text -> bool``. The
arguments are read as the reference reads them: a falsy value (``None``, ``0``, ``""``,
``[]``) counts as absent (lm-eval drops them before ``build_description``). Where the
reference would then draw the threshold, keyword, letter or language at random (unseeded),
there is no reproducible number, so this is an :class:`~nlgmetrics.errors.InvalidInputError`
naming the argument, with one exception: ``letter_frequency`` with one character outside a-z
(two of IFEval's own prompts ask for ``#`` and ``!``) counts that character, where lm-eval
counts a random letter; so are the reference's own errors (an unknown relation or language, an
argument the checker does not take, a keyword that is not a regular expression).

Keywords, forbidden words, postscript markers and section splitters are regular expressions
there (only ``\\b`` is added around a forbidden word), and stay so here. Language detection is
langdetect's, from a detector factory of our own seeded with :data:`LANGDETECT_SEED` (the
reference uses langdetect's global one, unseeded, so the same answer can score differently
from run to run); a text langdetect finds no features in counts as followed, as there.
Sentences are nltk's English Punkt sentences, ``capital_word_frequency`` counts nltk's
``word_tokenize`` tokens (the model read offline, :mod:`.nltk_word_tokenize`) and
``number_words`` nltk's ``RegexpTokenizer(r"\w+")`` tokens: nltk's own code, as there.
"""
from __future__ import annotations

import collections
import functools
import json
import re
from typing import Any, Callable

from ...errors import InvalidInputError, MissingExtraError

LANGDETECT_SEED = 0
RELATIONS = ("less than", "at least")
# the languages the reference's response_language names (instructions_util.LANGUAGE_CODES)
LANGUAGES = frozenset("en es pt ar hi fr ru de ja it bn uk th ur ta te bg ko pl he fa vi ne sw kn mr gu pa ml fi".split())
_CONSTRAINED = ("My answer is yes.", "My answer is no.", "My answer is maybe.")
_PUNCTUATION = frozenset(".,?!'\"")


# -- resources: langdetect and Punkt, loaded once -------------------------------------------
@functools.lru_cache(maxsize=1)
def _detector_factory() -> Any:
    try:
        from langdetect.detector_factory import PROFILES_DIRECTORY, DetectorFactory
    except ImportError:
        raise MissingExtraError("ifeval's language checks need langdetect: pip install 'nlgmetrics[ifeval]'") from None
    factory = DetectorFactory()  # our own: the user's global langdetect state is left alone
    factory.load_profile(PROFILES_DIRECTORY)
    factory.seed = LANGDETECT_SEED
    return factory


@functools.lru_cache(maxsize=4096)  # seeded, so a function of the text; most of the run time
def detect_language(text: str) -> str | None:
    """langdetect's ``detect(text)`` with the seeded factory; None where it finds no features."""
    from langdetect.lang_detect_exception import LangDetectException

    from ._ifeval_langdetect import detect

    try:
        return detect(_detector_factory(), text)
    except LangDetectException:
        return None


def check_resources() -> None:
    """Load langdetect's profiles and the Punkt model now: a missing extra is a
    MissingExtraError when the metric is built, not in the middle of scoring."""
    from ..nltk_word_tokenize import word_tokenizer

    _detector_factory()
    word_tokenizer()


def _sentences(text: str) -> int:
    from ..nltk_word_tokenize import _sentence_tokenizer

    return len(_sentence_tokenizer().tokenize(text))


@functools.lru_cache(maxsize=1)
def _words() -> Callable[[str], list[str]]:
    from ..nltk_word_tokenize import word_tokenizer

    return word_tokenizer()


# -- arguments ------------------------------------------------------------------------------
class _Args:
    """One instruction's keyword arguments, falsy values dropped as lm-eval drops them."""

    def __init__(self, instruction_id: str, kwargs: Any, allowed: tuple[str, ...]):
        if kwargs is None:
            kwargs = {}
        if not isinstance(kwargs, dict):
            raise InvalidInputError(f"ifeval: {instruction_id}: kwargs must be an object, got {type(kwargs).__name__}")
        self.id = instruction_id
        self.values = {k: v for k, v in kwargs.items() if _truthy(v)}
        extra = sorted(str(k) for k in self.values if k not in allowed)
        if extra:
            takes = ", ".join(allowed) if allowed else "no arguments"
            raise InvalidInputError(f"ifeval: {instruction_id} takes {takes}, not {', '.join(extra)} (lm-eval raises TypeError)")

    def _random(self, name: str) -> InvalidInputError:
        return InvalidInputError(f"ifeval: {self.id} needs {name}: without it lm-eval draws one at random (unseeded), so no number is reproducible")

    def number(self, name: str, negative_ok: bool = False) -> float:
        v = self.values.get(name)
        if v is None:
            raise self._random(name)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
            raise InvalidInputError(f"ifeval: {self.id}: {name} must be a number, got {v!r}")
        if v < 0 and not negative_ok:
            raise self._random(f"{name} >= 0")
        return v

    def text(self, name: str) -> str:
        v = self.values.get(name)
        if v is None:
            raise self._random(name)
        if not isinstance(v, str):
            raise InvalidInputError(f"ifeval: {self.id}: {name} must be a string, got {type(v).__name__}")
        return v

    def relation(self, name: str) -> bool:
        """True for "less than", False for "at least"."""
        v = self.values.get(name)
        if v is None:
            raise self._random(name)
        if v not in RELATIONS:
            raise InvalidInputError(f"ifeval: {self.id}: {name} must be one of {', '.join(map(repr, RELATIONS))}, got {v!r} (lm-eval raises ValueError)")
        return v == RELATIONS[0]

    def words(self, name: str) -> list[str]:
        v = self.values.get(name)
        if v is None:
            raise self._random(name)
        if isinstance(v, str) or not isinstance(v, (list, tuple)) or not all(isinstance(w, str) for w in v):
            raise InvalidInputError(f"ifeval: {self.id}: {name} must be a list of strings, got {v!r}")
        return sorted(set(v))


def _truthy(v: Any) -> bool:
    try:
        return bool(v)
    except Exception:  # noqa: BLE001 - an object without a truth value (a numpy array) is kept and refused by type
        return True


def _pattern(instruction_id: str, pattern: str, flags: int = 0) -> Callable[[], re.Pattern]:
    """The compiled pattern, compiled on first use: lm-eval compiles it only when it checks a
    response, so a bad pattern with an empty response (never checked) is no error there."""

    @functools.lru_cache(maxsize=1)
    def compiled() -> re.Pattern:
        try:
            return re.compile(pattern, flags)
        except re.error as e:
            raise InvalidInputError(f"ifeval: {instruction_id}: {pattern!r} is not a regular expression ({e}); lm-eval reads it as one and raises") from None
    return compiled


def _compare(less: bool, count: float, threshold: float) -> bool:
    return count < threshold if less else count >= threshold


# -- the checkers: (argument names, builder) --------------------------------------------------
def _keywords_existence(a: _Args, prompt: str):
    patterns = [_pattern(a.id, k, re.IGNORECASE) for k in a.words("keywords")]
    return lambda t: all(p().search(t) for p in patterns)


def _keywords_frequency(a: _Args, prompt: str):
    pattern = _pattern(a.id, a.text("keyword").strip(), re.IGNORECASE)
    n, less = a.number("frequency"), a.relation("relation")
    return lambda t: _compare(less, len(pattern().findall(t)), n)


def _forbidden_words(a: _Args, prompt: str):
    patterns = [_pattern(a.id, r"\b" + w + r"\b", re.IGNORECASE) for w in a.words("forbidden_words")]
    return lambda t: not any(p().search(t) for p in patterns)


def _letter_frequency(a: _Args, prompt: str):
    letter = a.values.get("letter")
    if letter is not None and not isinstance(letter, str):
        raise InvalidInputError(f"ifeval: {a.id}: letter must be a string, got {type(letter).__name__}")
    if letter is not None and len(letter) == 1 and len(letter.lower()) != 1:  # 'İ': lm-eval's ord() raises
        raise InvalidInputError(f"ifeval: {a.id}: letter {letter!r} lowercases to two characters (lm-eval raises TypeError)")
    if letter is None or len(letter) != 1:
        raise a._random("letter (one character)")
    # One character outside a-z ('#' and '!' in IFEval's prompts 1122 and 1129): lm-eval draws
    # a random ASCII letter instead, so its verdict changes from run to run; the character the
    # prompt names is counted here.
    letter = letter.lower()
    n, less = a.number("let_frequency"), a.relation("let_relation")
    return lambda t: _compare(less, collections.Counter(t.lower())[letter], n)


def _response_language(a: _Args, prompt: str):
    language = a.text("language")
    if language not in LANGUAGES:
        raise InvalidInputError(f"ifeval: {a.id}: language {language!r} is none of IFEval's ({', '.join(sorted(LANGUAGES))}); lm-eval raises KeyError")
    return lambda t: detect_language(t) in (language, None)


def _number_sentences(a: _Args, prompt: str):
    n, less = a.number("num_sentences"), a.relation("relation")
    return lambda t: _compare(less, _sentences(t), n)


def _number_paragraphs(a: _Args, prompt: str):
    n = a.number("num_paragraphs")

    def check(t: str) -> bool:
        paragraphs = re.split(r"\s?\*\*\*\s?", t)
        count = len(paragraphs)
        for i, p in enumerate(paragraphs):
            if not p.strip():
                if i in (0, len(paragraphs) - 1):
                    count -= 1
                else:
                    return False
        return count == n
    return check


@functools.lru_cache(maxsize=1)
def _word_runs() -> Callable[[str], list[str]]:
    r"""nltk's ``RegexpTokenizer(r"\w+")``, as ``count_words`` builds it: nltk (3.10) compiles
    it with the ``regex`` engine, whose ``\w`` takes combining marks ("é" written e + U+0301,
    Devanagari vowel signs) but not "²" or "½", unlike Python's ``re``."""
    from nltk.tokenize import RegexpTokenizer

    return RegexpTokenizer(r"\w+").tokenize


def _number_words(a: _Args, prompt: str):
    n, less = a.number("num_words"), a.relation("relation")
    return lambda t: _compare(less, len(_word_runs()(t)), n)


def _nth_paragraph_first_word(a: _Args, prompt: str):
    n = a.number("num_paragraphs")
    nth = a.values.get("nth_paragraph")
    if nth is not None:
        nth = a.number("nth_paragraph")
    if nth is None or nth <= 0 or nth > n:
        raise a._random("nth_paragraph between 1 and num_paragraphs")
    first = a.text("first_word").lower()

    def check(t: str) -> bool:
        paragraphs = re.split(r"\n\n", t)
        count = sum(1 for p in paragraphs if p.strip())
        if nth > count:
            return False
        paragraph = paragraphs[int(nth) - 1].strip()  # the reference indexes the unfiltered split
        if not paragraph:
            return False
        word = paragraph.split()[0].strip().lstrip("'").lstrip('"')
        got = ""
        for ch in word:
            if ch in _PUNCTUATION:
                break
            got += ch.lower()
        return count == n and got == first
    return check


def _number_placeholders(a: _Args, prompt: str):
    n = a.number("num_placeholders")
    return lambda t: len(re.findall(r"\[.*?\]", t)) >= n


def _postscript(a: _Args, prompt: str):
    marker = a.text("postscript_marker").strip()
    if marker == "P.P.S":
        source = r"\s*p\.\s?p\.\s?s.*$"
    elif marker == "P.S.":
        source = r"\s*p\.\s?s\..*$"
    else:
        source = r"\s*" + marker.lower() + r".*$"
    pattern = _pattern(a.id, source, re.MULTILINE)
    return lambda t: bool(pattern().findall(t.lower()))


def _number_bullet_lists(a: _Args, prompt: str):
    n = a.number("num_bullets")
    star, dash = re.compile(r"^\s*\*[^\*].*$", re.MULTILINE), re.compile(r"^\s*-.*$", re.MULTILINE)
    return lambda t: len(star.findall(t)) + len(dash.findall(t)) == n


def _constrained_response(a: _Args, prompt: str):
    return lambda t: any(option in t.strip() for option in _CONSTRAINED)


def _number_highlighted_sections(a: _Args, prompt: str):
    n = a.number("num_highlights")

    def check(t: str) -> bool:
        count = sum(1 for h in re.findall(r"\*[^\n\*]*\*", t) if h.strip("*").strip())
        count += sum(1 for h in re.findall(r"\*\*[^\n\*]*\*\*", t) if h.removeprefix("**").removesuffix("**").strip())
        return count >= n
    return check


def _multiple_sections(a: _Args, prompt: str):
    pattern = _pattern(a.id, r"\s?" + a.text("section_spliter").strip() + r"\s?\d+\s?")
    n = a.number("num_sections")
    return lambda t: len(pattern().split(t)) - 1 >= n


def _json_format(a: _Args, prompt: str):
    def check(t: str) -> bool:
        t = (t.strip().removeprefix("```json").removeprefix("```Json").removeprefix("```JSON")
             .removeprefix("```").removesuffix("```").strip())
        try:
            json.loads(t)
        except ValueError:
            return False
        except RecursionError:
            raise InvalidInputError("ifeval: detectable_format:json_format: the response's JSON is nested too deeply to parse (lm-eval's json.loads raises RecursionError)") from None
        return True
    return check


def _title(a: _Args, prompt: str):
    return lambda t: any(x.lstrip("<").rstrip(">").strip() for x in re.findall(r"<<[^\n]+>>", t))


def _two_responses(a: _Args, prompt: str):
    def check(t: str) -> bool:
        parts = t.split("******")
        valid = []
        for i, p in enumerate(parts):
            if not p.strip():
                if i not in (0, len(parts) - 1):
                    return False
            else:
                valid.append(p)
        return len(valid) == 2 and valid[0].strip() != valid[1].strip()
    return check


def _repeat_prompt(a: _Args, prompt: str):
    v = a.values.get("prompt_to_repeat")
    if v is None:
        raise InvalidInputError(f"ifeval: {a.id} needs prompt_to_repeat (lm-eval raises ValueError)")
    head = a.text("prompt_to_repeat").strip().lower()
    return lambda t: t.strip().lower().startswith(head)


def _end_checker(a: _Args, prompt: str):
    end = a.text("end_phrase").strip().lower()
    return lambda t: t.strip().strip('"').lower().endswith(end)


def _capital_word_frequency(a: _Args, prompt: str):
    n, less = a.number("capital_frequency", negative_ok=True), a.relation("capital_relation")
    return lambda t: _compare(less, sum(1 for w in _words()(t) if w.isupper()), n)


def _english_capital(a: _Args, prompt: str):
    return lambda t: t.isupper() and detect_language(t) in ("en", None)


def _english_lowercase(a: _Args, prompt: str):
    return lambda t: t.islower() and detect_language(t) in ("en", None)


def _no_comma(a: _Args, prompt: str):
    return lambda t: "," not in t


def _quotation(a: _Args, prompt: str):
    def check(t: str) -> bool:
        t = t.strip()
        return len(t) > 1 and t[0] == '"' and t[-1] == '"'
    return check


CHECKERS: dict[str, tuple[tuple[str, ...], Callable[[_Args, str], Callable[[str], bool]]]] = {
    "keywords:existence": (("keywords",), _keywords_existence),
    "keywords:frequency": (("keyword", "frequency", "relation"), _keywords_frequency),
    "keywords:forbidden_words": (("forbidden_words",), _forbidden_words),
    "keywords:letter_frequency": (("letter", "let_frequency", "let_relation"), _letter_frequency),
    "language:response_language": (("language",), _response_language),
    "length_constraints:number_sentences": (("num_sentences", "relation"), _number_sentences),
    "length_constraints:number_paragraphs": (("num_paragraphs",), _number_paragraphs),
    "length_constraints:number_words": (("num_words", "relation"), _number_words),
    "length_constraints:nth_paragraph_first_word": (("num_paragraphs", "nth_paragraph", "first_word"), _nth_paragraph_first_word),
    "detectable_content:number_placeholders": (("num_placeholders",), _number_placeholders),
    "detectable_content:postscript": (("postscript_marker",), _postscript),
    "detectable_format:number_bullet_lists": (("num_bullets",), _number_bullet_lists),
    "detectable_format:constrained_response": ((), _constrained_response),
    "detectable_format:number_highlighted_sections": (("num_highlights",), _number_highlighted_sections),
    "detectable_format:multiple_sections": (("section_spliter", "num_sections"), _multiple_sections),
    "detectable_format:json_format": ((), _json_format),
    "detectable_format:title": ((), _title),
    "combination:two_responses": ((), _two_responses),
    "combination:repeat_prompt": (("prompt_to_repeat",), _repeat_prompt),
    "startend:end_checker": (("end_phrase",), _end_checker),
    "change_case:capital_word_frequency": (("capital_frequency", "capital_relation"), _capital_word_frequency),
    "change_case:english_capital": ((), _english_capital),
    "change_case:english_lowercase": ((), _english_lowercase),
    "punctuation:no_comma": ((), _no_comma),
    "startend:quotation": ((), _quotation),
}


def build(instruction_id: Any, kwargs: Any, prompt: str = "") -> Callable[[str], bool]:
    """The check of one instruction: ``text -> followed`` (see the module)."""
    entry = CHECKERS.get(instruction_id) if isinstance(instruction_id, str) else None
    if entry is None:
        raise InvalidInputError(f"ifeval: unknown instruction {instruction_id!r}; known: {', '.join(CHECKERS)}")
    allowed, builder = entry
    return builder(_Args(instruction_id, kwargs, allowed), prompt)
