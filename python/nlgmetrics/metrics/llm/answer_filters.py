"""Answer extraction filters, as lm-evaluation-harness 0.4.13 pulls answers out of generations
(``lm_eval/filters/extraction.py``, ``selection.py``, ``transformation.py``), and the
``exact_match`` its generative tasks score them with (``exact_match_hf_evaluate``).

Pure Python (``re``, whose semantics are the reference's) and numpy where lm-eval uses it.
The data is lm-eval's: ``resps`` is one entry per document, each the list of that
document's generations (one per repeat). A filter maps the whole ``resps`` to a new one; a
:class:`Pipeline` (lm-eval's ``FilterEnsemble``, one entry of a task's ``filter_list``)
applies its filters in order. Each filter keeps lm-eval's shapes, so a pipeline gives what
lm-eval logs as ``filtered_resps``: ``take_first`` turns each document's list into its first
element (a string after ``regex``), ``majority_vote`` into a one-element list.

Filters (names and options as in a task's yaml):

- ``regex(regex_pattern, group_select=0, fallback="[invalid]")``: ``findall``; the match
  number ``group_select`` (negative counts from the end); a match of several groups (a tuple)
  gives its first non-empty group, else the fallback; the result is ``strip()``-ed. A
  generation that is not a string is searched as ``""``.
- ``take_first``, ``take_first_k(k)``, ``majority_vote`` (``Counter.most_common``: a tie goes
  to the answer seen first), ``remove_whitespace`` (``strip``), ``lowercase``, ``uppercase``.
- ``multi_choice_regex(regex_pattern, group_select, fallback, ignore_case,
  ignore_punctuation, regexes_to_ignore)``: the pattern first; else the document's
  ``choices`` texts (longest first, after the ignores) give ``(A)``, ``(B)``, ...; else
  ``":"`` then a bare letter gives ``(letter)``. Needs the documents.

Where lm-eval crashes the run (``group_select`` past the matches, ``take_first`` of an empty
list, a non-string given to ``lowercase``), a typed error names the document instead.
``take_first_k`` refuses any document with fewer than ``k`` generations (lm-eval checks the
first document only and truncates the others silently).

Presets (:data:`PRESETS`) are the gsm8k task family's pipelines, keyed ``task/filter``, each
with the ``exact_match`` options of its task's ``metric_list``; :func:`score_preset` runs
one and scores it. lm-eval's ``exact_match`` per document is ``1.0`` or ``0.0`` (numpy
strings: trailing NUL characters are dropped, ``np.char.lower``), aggregated by ``mean``.
"""
from __future__ import annotations

import re
import string
import sys
from collections import Counter
from functools import lru_cache, partial
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError

REFERENCE = "lm-eval-0.4.13"
GSM8K_REGEX = r"#### (\-?[0-9\.\,]+)"
FLEXIBLE_REGEX = r"(-?[$0-9.,]{2,})|(-?[0-9]+)"
GSM8K_EXACT_MATCH = {
    "ignore_case": True,
    "ignore_punctuation": False,
    "regexes_to_ignore": [",", "\\$", "(?s).*#### ", "\\.$"],
}


def _compile(pattern: Any, what: str) -> re.Pattern:
    if not isinstance(pattern, str):
        raise InvalidOptionError(f"{what}: regex_pattern must be a string, got {type(pattern).__name__}")
    try:
        return re.compile(pattern)
    except re.error as e:
        raise InvalidOptionError(f"{what}: regex_pattern {pattern!r} does not compile: {e}") from None


def _as_int(value: Any, name: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidOptionError(f"{what}: {name} must be an integer, got {value!r}")
    return int(value)


class Filter:
    """One step of a pipeline: ``apply(resps, docs)`` gives the new ``resps``."""

    name = ""

    def options(self) -> dict[str, Any]:
        return {}

    def apply(self, resps: list, docs: Sequence[Any] | None) -> list:
        raise NotImplementedError

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        return f"{self.name}({opts})"


def _select(matches: list, group_select: int, fallback: Any, what: str, doc: int) -> Any:
    """lm-eval's choice among ``findall`` results (shared by ``regex`` and ``multi_choice_regex``)."""
    try:
        match = matches[group_select]
    except IndexError:
        raise InvalidInputError(
            f"{what}: document {doc}: group_select {group_select} but only {len(matches)} matches"
            " (lm-eval raises IndexError here)"
        ) from None
    if isinstance(match, tuple):
        non_empty = [m for m in match if m]
        match = non_empty[0] if non_empty else fallback  # lm-eval strips the fallback too, here
    if not isinstance(match, str):
        raise InvalidOptionError(f"{what}: the fallback {fallback!r} is not a string (lm-eval strips it)")
    return match.strip()


class RegexFilter(Filter):
    name = "regex"

    def __init__(self, regex_pattern: str = GSM8K_REGEX, group_select: int = 0, fallback: Any = "[invalid]") -> None:
        self.regex_pattern = regex_pattern
        self.regex = _compile(regex_pattern, self.name)
        self.group_select = _as_int(group_select, "group_select", self.name)
        self.fallback = fallback

    def options(self) -> dict[str, Any]:
        return {"regex_pattern": self.regex_pattern, "group_select": self.group_select, "fallback": self.fallback}

    def extract(self, resp: Any, doc: int = 0) -> Any:
        """One generation's answer."""
        matches = self.regex.findall(resp if isinstance(resp, str) else "")
        if not matches:
            return self.fallback
        return _select(matches, self.group_select, self.fallback, self.name, doc)

    def apply(self, resps: list, docs: Sequence[Any] | None) -> list:
        return [[self.extract(resp, d) for resp in _iterable(inst, self.name, d)] for d, inst in enumerate(resps)]


def _iterable(inst: Any, what: str, doc: int) -> Iterable:
    if isinstance(inst, (list, tuple, str)):
        return inst
    raise InputTypeError(f"{what}: document {doc}: the generations are a {type(inst).__name__}, not a list")


def _strings(inst: Any, what: str, doc: int) -> Iterable[str]:
    for resp in _iterable(inst, what, doc):
        if not isinstance(resp, str):
            raise InputTypeError(f"{what}: document {doc}: a generation is a {type(resp).__name__}, not a string")
        yield resp


class RemoveWhitespaceFilter(Filter):
    name = "remove_whitespace"

    def apply(self, resps: list, docs: Sequence[Any] | None) -> list:
        return [[r.strip() for r in _strings(inst, self.name, d)] for d, inst in enumerate(resps)]


class LowercaseFilter(Filter):
    name = "lowercase"

    def apply(self, resps: list, docs: Sequence[Any] | None) -> list:
        return [[r.lower() for r in _strings(inst, self.name, d)] for d, inst in enumerate(resps)]


class UppercaseFilter(Filter):
    name = "uppercase"

    def apply(self, resps: list, docs: Sequence[Any] | None) -> list:
        return [[r.upper() for r in _strings(inst, self.name, d)] for d, inst in enumerate(resps)]


class TakeFirstFilter(Filter):
    name = "take_first"

    def apply(self, resps: list, docs: Sequence[Any] | None) -> list:
        out = []
        for d, inst in enumerate(resps):
            if len(_iterable(inst, self.name, d)) == 0:  # type: ignore[arg-type]
                raise InvalidInputError(f"{self.name}: document {d} has no generations")
            out.append(inst[0])
        return out


class TakeFirstKFilter(Filter):
    name = "take_first_k"

    def __init__(self, k: int) -> None:
        self.k = _as_int(k, "k", self.name)
        if self.k < 0:
            raise InvalidOptionError(f"{self.name}: k must be >= 0, got {self.k}")

    def options(self) -> dict[str, Any]:
        return {"k": self.k}

    def apply(self, resps: list, docs: Sequence[Any] | None) -> list:
        out = []
        for d, inst in enumerate(resps):
            if len(_iterable(inst, self.name, d)) < self.k:  # type: ignore[arg-type]
                raise InvalidInputError(f"{self.name}: document {d} has {len(inst)} generations, fewer than k={self.k}")
            out.append(inst[: self.k])
        return out


class MajorityVoteFilter(Filter):
    name = "majority_vote"

    def apply(self, resps: list, docs: Sequence[Any] | None) -> list:
        out = []
        for d, inst in enumerate(resps):
            items = list(_iterable(inst, self.name, d))
            if not items:
                raise InvalidInputError(f"{self.name}: document {d} has no generations")
            try:
                out.append([Counter(items).most_common(1)[0][0]])
            except TypeError:
                raise InputTypeError(f"{self.name}: document {d}: the answers must be hashable (strings)") from None
        return out


@lru_cache(maxsize=1)
def _unicode_punctuation() -> dict[int, None]:
    """Every code point of a ``P*`` category, deleted by ``ignore_punctuation`` (lm-eval's table)."""
    import unicodedata

    return dict.fromkeys(i for i in range(sys.maxunicode) if unicodedata.category(chr(i)).startswith("P"))


class MultiChoiceRegexFilter(RegexFilter):
    name = "multi_choice_regex"

    def __init__(
        self,
        regex_pattern: str = GSM8K_REGEX,
        group_select: int = 0,
        fallback: Any = "[invalid]",
        ignore_case: bool = False,
        ignore_punctuation: bool = False,
        regexes_to_ignore: Sequence[str] | None = None,
    ) -> None:
        super().__init__(regex_pattern, group_select, fallback)
        self.ignore_case = bool(ignore_case)
        self.ignore_punctuation = bool(ignore_punctuation)
        if isinstance(regexes_to_ignore, str):
            raise InvalidOptionError(f"{self.name}: regexes_to_ignore must be a list of patterns, not one string")
        self.regexes_to_ignore = None if regexes_to_ignore is None else list(regexes_to_ignore)
        for pattern in self.regexes_to_ignore or ():
            _compile(pattern, f"{self.name} regexes_to_ignore")

    def options(self) -> dict[str, Any]:
        return {
            **super().options(),
            "ignore_case": self.ignore_case,
            "ignore_punctuation": self.ignore_punctuation,
            "regexes_to_ignore": self.regexes_to_ignore,
        }

    def _ignores(self, text: Any) -> Any:
        if not isinstance(text, str) and (self.regexes_to_ignore is not None or self.ignore_case or self.ignore_punctuation):
            raise InputTypeError(f"{self.name}: a generation is a {type(text).__name__}, not a string")
        for pattern in self.regexes_to_ignore or ():
            text = re.sub(pattern, "", text)
        if self.ignore_case:
            text = text.lower()
        if self.ignore_punctuation:
            text = text.translate(_unicode_punctuation())
        return text

    def _find(self, regex: re.Pattern, resp: Any, convert: dict[str, str], doc: int) -> Any:
        """lm-eval's ``find_match``: a falsy result means "try the next way"."""
        matches = regex.findall(resp if isinstance(resp, str) else "")
        if not matches:
            return matches
        match = _select(matches, self.group_select, "", self.name, doc)
        return convert.get(match, match) if match else match

    def apply(self, resps: list, docs: Sequence[Any] | None) -> list:
        if docs is None:
            raise InputTypeError(f"{self.name} needs the documents (each with its 'choices')")
        if len(docs) != len(resps):
            raise LengthMismatchError(f"{self.name}: {len(resps)} documents of generations but {len(docs)} documents")
        out = []
        for d, (inst, doc) in enumerate(zip(resps, docs)):
            choices = doc.get("choices") if isinstance(doc, dict) else None
            if not isinstance(choices, (list, tuple)) or not all(isinstance(c, str) for c in choices):
                raise InputTypeError(f"{self.name}: document {d} needs 'choices', a list of strings")
            texts, to_letter = [], {}
            for i, choice in enumerate(choices):
                text = self._ignores(choice.strip())
                texts.append(re.escape(text))
                to_letter[text] = f"({chr(ord('A') + i)})"
            letters = [chr(ord("A") + i) for i in range(len(choices))]
            by_text = re.compile("|".join(sorted(texts, key=len, reverse=True)))
            by_letter = re.compile(rf":[\s]*({'|'.join(letters)})")
            letter_to_target = {letter: f"({letter})" for letter in letters}
            filtered = []
            for resp in _iterable(inst, self.name, d):
                match = self._find(self.regex, resp, {}, d)
                if not match:
                    match = self._find(by_text, self._ignores(resp), to_letter, d)
                    if not match:
                        match = self._find(by_letter, resp, letter_to_target, d)
                filtered.append(match if match else self.fallback)
            out.append(filtered)
        return out


FILTERS: dict[str, Callable[..., Filter]] = {
    f.name: f
    for f in (
        RegexFilter,
        TakeFirstFilter,
        TakeFirstKFilter,
        RemoveWhitespaceFilter,
        LowercaseFilter,
        UppercaseFilter,
        MajorityVoteFilter,
        MultiChoiceRegexFilter,
    )
}


def make_filter(function: str, **options: Any) -> Filter:
    """A filter by its lm-eval name (``function:`` in a yaml) and options."""
    if function not in FILTERS:
        raise InvalidOptionError(f"unknown filter {function!r}; known: {', '.join(sorted(FILTERS))}")
    try:
        return FILTERS[function](**options)
    except TypeError as e:
        raise InvalidOptionError(f"filter {function!r}: {e}") from None


class Pipeline:
    """A named list of filters applied in order (one entry of lm-eval's ``filter_list``)."""

    def __init__(self, name: str, filters: Sequence[Filter | dict | str]) -> None:
        self.name = name
        self.filters: list[Filter] = []
        for step in filters:
            if isinstance(step, Filter):
                self.filters.append(step)
            elif isinstance(step, str):
                self.filters.append(make_filter(step))
            elif isinstance(step, dict):
                opts = dict(step)
                if "function" not in opts:
                    raise InvalidOptionError(f"pipeline {name!r}: a step needs 'function' (the filter's name)")
                self.filters.append(make_filter(opts.pop("function"), **opts))
            else:
                raise InvalidOptionError(f"pipeline {name!r}: a step is a Filter, a filter name or a dict, not {step!r}")

    @classmethod
    def from_config(cls, entry: dict) -> Pipeline:
        """From a ``filter_list`` entry as a task yaml has it: ``{"name": ..., "filter": [...]}``."""
        if not isinstance(entry, dict) or "filter" not in entry:
            raise InvalidOptionError("a filter_list entry is a dict with 'name' and 'filter'")
        return cls(entry.get("name", "none"), entry["filter"])

    def apply(self, resps: Sequence[Any], docs: Sequence[Any] | None = None) -> list:
        """The filtered responses, one per document (lm-eval's ``filtered_resps[name]``)."""
        if isinstance(resps, (str, bytes)):
            raise InputTypeError(f"pipeline {self.name!r}: give one list of generations per document")
        out = list(resps)
        for f in self.filters:
            out = f.apply(out, docs)
        return out

    def __repr__(self) -> str:
        return f"Pipeline({self.name!r}, {self.filters!r})"


def _gsm8k(regex: str, flexible: bool) -> list[dict]:
    first = {"function": "regex", "regex_pattern": regex}
    if flexible:
        first["group_select"] = -1
    return [first, {"function": "take_first"}]


_COT = "The answer is (\\-?[0-9\\.\\,]+)."
_SC = "The answer is (\\-?[0-9\\.\\,]*[0-9]+)"
# task/filter-name -> (pipeline steps, exact_match options of the task's metric_list)
PRESETS: dict[str, tuple[list[dict], dict]] = {
    "gsm8k/strict-match": (_gsm8k(GSM8K_REGEX, False), GSM8K_EXACT_MATCH),
    "gsm8k/flexible-extract": (_gsm8k(FLEXIBLE_REGEX, True), GSM8K_EXACT_MATCH),
    "gsm8k_cot/strict-match": (_gsm8k(_COT, False), GSM8K_EXACT_MATCH),
    "gsm8k_cot/flexible-extract": (_gsm8k(FLEXIBLE_REGEX, True), GSM8K_EXACT_MATCH),
    "gsm8k_cot_zeroshot/strict-match": (_gsm8k(_COT, False), GSM8K_EXACT_MATCH),
    "gsm8k_cot_zeroshot/flexible-extract": (_gsm8k(FLEXIBLE_REGEX, True), GSM8K_EXACT_MATCH),
    "gsm8k_cot_llama/strict-match": (
        _gsm8k("The final answer is ((-?[$0-9.,]{2,})|(-?[0-9]+))", True),
        GSM8K_EXACT_MATCH,
    ),
    "gsm8k_cot_llama/flexible-extract": (_gsm8k(FLEXIBLE_REGEX, True), GSM8K_EXACT_MATCH),
    "gsm8k_cot_self_consistency/score-first": (_gsm8k(_SC, False), GSM8K_EXACT_MATCH),
    "gsm8k_cot_self_consistency/maj@64": (
        [{"function": "regex", "regex_pattern": _SC}, {"function": "majority_vote"}, {"function": "take_first"}],
        GSM8K_EXACT_MATCH,
    ),
    "gsm8k_cot_self_consistency/maj@8": (
        [
            {"function": "take_first_k", "k": 8},
            {"function": "regex", "regex_pattern": _SC},
            {"function": "majority_vote"},
            {"function": "take_first"},
        ],
        GSM8K_EXACT_MATCH,
    ),
}


def preset(name: str) -> Pipeline:
    """The pipeline of a preset (``"gsm8k/strict-match"``, ...)."""
    if name not in PRESETS:
        raise InvalidOptionError(f"unknown answer-filter preset {name!r}; known: {', '.join(PRESETS)}")
    return Pipeline(name.split("/", 1)[1], PRESETS[name][0])


def exact_match(
    predictions: Sequence[str],
    references: Sequence[str],
    regexes_to_ignore: Sequence[str] | None = None,
    ignore_case: bool = False,
    ignore_punctuation: bool = False,
    ignore_numbers: bool = False,
) -> np.ndarray:
    """lm-eval's ``exact_match`` per pair (1.0 / 0.0), as ``exact_match_hf_evaluate`` compares
    numpy string arrays (each regex removed from both sides in turn, then case, punctuation
    and digits)."""
    predictions, references = list(predictions), list(references)
    if len(predictions) != len(references):
        raise LengthMismatchError(f"exact_match: {len(predictions)} predictions but {len(references)} references")
    for side, values in (("prediction", predictions), ("reference", references)):
        for i, v in enumerate(values):
            if not isinstance(v, str):
                raise InputTypeError(f"exact_match: {side} {i} is a {type(v).__name__}, not a string")
    if isinstance(regexes_to_ignore, str):
        raise InvalidOptionError("exact_match: regexes_to_ignore must be a list of patterns, not one string")
    if not predictions:
        return np.zeros(0)
    preds: Any = predictions
    refs: Any = references
    if regexes_to_ignore is None:
        preds, refs = np.asarray(preds, dtype=str), np.asarray(refs, dtype=str)
    for pattern in regexes_to_ignore or ():
        remove = partial(_compile(pattern, "exact_match regexes_to_ignore").sub, "")  # re.sub(pattern, "", x), compiled once
        # rebuilt from each element as lm-eval does (numpy drops trailing NULs each time)
        preds = np.array(list(map(remove, preds)), dtype=str)
        refs = np.array(list(map(remove, refs)), dtype=str)
    if regexes_to_ignore is not None and not regexes_to_ignore:
        if not (ignore_case or ignore_punctuation or ignore_numbers):
            # lm-eval compares its one-element Python lists here: plain string equality
            return np.array([float(p == r) for p, r in zip(predictions, references)])
        preds, refs = np.asarray(preds, dtype=str), np.asarray(refs, dtype=str)
    if ignore_case:
        preds, refs = np.char.lower(preds), np.char.lower(refs)
    for wanted, chars in ((ignore_punctuation, string.punctuation), (ignore_numbers, string.digits)):
        if wanted:
            table = chars.maketrans("", "", chars)
            preds, refs = np.char.translate(preds, table), np.char.translate(refs, table)
    return (preds == refs).astype(np.float64)


def score_preset(name: str, resps: Sequence[Any], targets: Sequence[str], docs: Sequence[Any] | None = None) -> dict:
    """Run a preset's pipeline and its task's ``exact_match``: ``{"filtered": [...],
    "exact_match": per-document values, "mean": lm-eval's mean}``."""
    pipeline = preset(name)
    filtered = pipeline.apply(resps, docs)
    values = exact_match(filtered, targets, **PRESETS[name][1])
    mean = sum(values.tolist()) / len(values) if len(values) else float("nan")
    return {"filtered": filtered, "exact_match": values, "mean": mean}


def _metric_base() -> type:
    from ._sampling_metrics import _SamplingMetric

    return _SamplingMetric


def _golds(target: Any, doc: int) -> list[str]:
    """A document's golds: a string, a number (lm-eval casts it to the answer's type, ``str``),
    or a list of strings (``multiple_target``)."""
    if isinstance(target, str):
        return [target]
    if isinstance(target, (int, float, np.integer, np.floating)) and not isinstance(target, (bool, np.bool_)):
        return [str(target)]
    if isinstance(target, (list, tuple)) and target and all(isinstance(t, str) for t in target):
        return list(target)
    raise InputTypeError(f"extracted_exact_match: target {doc} is a {type(target).__name__}: give a string, a number or a list of strings")


class ExtractedExactMatch(_metric_base()):  # type: ignore[misc]
    """lm-eval's ``exact_match`` of the answers a preset pipeline extracts
    (``extracted_exact_match``): ``corpus_score(generations, targets)``, one list of
    generations (repeats) per document, or one string, and one target per document (a
    number is compared as ``str``, as lm-eval casts it; a list of golds is correct when any
    matches, lm-eval's ``multiple_target``); the preset (default ``gsm8k/strict-match``)
    names the pipeline and the ``exact_match`` options. The value is lm-eval's ``mean`` of
    the per-document 1.0 / 0.0.

    >>> from nlgmetrics.metrics.llm.answer_filters import ExtractedExactMatch
    >>> ExtractedExactMatch().corpus_score([["#### 1,234."], ["#### 7"]], ["#### 1234", "#### 8"]).score
    0.5
    """

    name = "extracted_exact_match"
    _input_names = ("generations", "targets")
    _inputs_hint = "generations (one list per document) and targets (one string per document)"
    sum_fields = ("exact_match",)
    _headline = "exact_match"

    def __init__(self, preset: str = "gsm8k/strict-match", *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if not isinstance(preset, str) or preset not in PRESETS:
            raise InvalidOptionError(f"extracted_exact_match: unknown preset {preset!r}; known: {', '.join(PRESETS)}")
        self.preset = preset

    def _signature_items(self) -> dict[str, Any]:
        return {"preset": self.preset, "ref": REFERENCE}

    def _abbreviations(self) -> dict[str, str]:
        return {"preset": "preset", "ref": "ref"}

    def _rows(self, first: Any, second: Any) -> np.ndarray:
        from ..._inputs import as_sequence

        generations = as_sequence(first, "generations")
        targets = as_sequence(second, "targets")
        if len(generations) != len(targets):
            raise LengthMismatchError(f"{self.name}: {len(generations)} documents of generations but {len(targets)} targets")
        # one generation per document may come as a plain string (lm-eval: a list of one)
        resps = [[g] if isinstance(g, str) else g for g in generations]
        for d, g in enumerate(resps):
            if not isinstance(g, (list, tuple)):
                raise InputTypeError(f"{self.name}: document {d}: the generations are a {type(g).__name__}, not a list")
        golds = [_golds(t, d) for d, t in enumerate(targets)]
        filtered = preset(self.preset).apply(resps)
        preds = [f for f, g in zip(filtered, golds) for _ in g]
        values = exact_match(preds, [t for g in golds for t in g], **PRESETS[self.preset][1])
        # several golds (lm-eval's multiple_target): correct when any matches
        ends = np.cumsum([len(g) for g in golds])
        return np.array([float(values[e - len(g) : e].any()) for e, g in zip(ends, golds)]).reshape(-1, 1)

    def _parts(self, means: dict[str, float]) -> tuple[float, dict[str, Any]]:
        return means["exact_match"], means
