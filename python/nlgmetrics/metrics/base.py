"""The shape every metric shares: segment statistics -> total -> score.

A subclass declares its statistics fields and implements three small methods:
``_segment_stats`` (batch extraction, normally one call into the Rust core), ``_score``
(a total to a :class:`Score`) and ``_signature_items``. Everything else (corpus and
sentence scores, pairwise matrices, streaming update/merge/compute, the keyword
``compute(predictions=..., references=...)`` call) is provided here once.

numpy and inspect are imported where first needed: a corpus score of plain lists goes
from the core's summed totals to a :class:`Score` without either.
"""

from __future__ import annotations

import functools
from collections import abc
import sys
import weakref
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)

from .. import script_check
from ..script_check import Segmentation
from .._inputs import SegmentReferences, as_references, as_texts, check_all_text, check_orientation
from .._locking import state_lock
from ..errors import EmptyInputError, IncompatibleStatsError, InputTypeError, InvalidInputError, InvalidOptionError, NlgMetricsError, UnknownOptionError
from ..signature import Signature
from ..stats import Stats

if TYPE_CHECKING:
    from typing import Any, ClassVar, Mapping, Sequence

    from ..stats import SegmentStats
    import inspect

    import numpy as np


def _numpy_scalar_types() -> tuple[type, ...]:
    """numpy's scalar base types if numpy is loaded (no numpy scalar exists otherwise)."""
    np = sys.modules.get("numpy")
    return (np.integer, np.floating) if np is not None else ()


def _is_ndarray(v: Any) -> bool:
    np = sys.modules.get("numpy")
    return np is not None and isinstance(v, np.ndarray)



def segment_error(index: int, error: NlgMetricsError) -> NlgMetricsError:
    """A per-segment failure, as its own class, naming the segment (``segment 7: ...``)."""
    return type(error)(f"segment {index}: {error}")

class _Breakdown(dict):
    """A score's breakdown; a part set after construction also shows in the score's mapping."""

    def __init__(self, owner: "Score", items: dict[str, Any]):
        super().__init__(items)
        self._owner = owner

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        dict.update(self._owner, _flat_parts({key: value}))
        _LIVE[_identity(self._owner)] = self._owner

    def __reduce__(self):
        return (dict, (dict(self),))


def _number(v: Any) -> bool:
    return isinstance(v, (int, float, *_numpy_scalar_types())) and not isinstance(v, bool)


def _numeric_items(v: Any) -> list | None:
    """The numbers of a non-empty (nested) sequence or array in row-major order, or
    ``None`` if it is empty or holds anything else (a ragged nesting included)."""
    if type(v) in (list, tuple) and v and all(_number(x) for x in v):  # flat: no numpy needed
        return list(v)
    if isinstance(v, (list, tuple)) or _is_ndarray(v):
        import numpy as np

        flat = np.ravel(np.asarray(v, dtype=object))
        if len(v) and all(_number(x) for x in flat):
            return list(flat)
    return None


def _flat_parts(breakdown: dict[str, Any]) -> dict[str, float | int]:
    """Every numeric part under one flat name (see :class:`Score`)."""
    out: dict[str, Any] = {}
    numpy_scalars = _numpy_scalar_types()

    def scalar(v: Any) -> Any:
        return v.item() if numpy_scalars and isinstance(v, numpy_scalars) else v

    for k, v in breakdown.items():
        if _number(v):
            out[k] = scalar(v)
        elif hasattr(v, "_asdict"):
            out.update({f"{k}_{f}": scalar(x) for f, x in v._asdict().items() if _number(x)})
        elif isinstance(v, dict):
            for kk, vv in v.items():
                if _number(vv):
                    out[str(kk)] = scalar(vv)
                elif hasattr(vv, "_asdict"):
                    fields = vv._asdict()
                    # a per-type (P, R, F) triple is also the type's own name for its F,
                    # as evaluate's rouge reports it
                    if "fmeasure" in fields:
                        out[str(kk)] = scalar(fields["fmeasure"])
                    out.update({f"{kk}_{f}": scalar(x) for f, x in fields.items() if _number(x)})
        elif (flat := _numeric_items(v)) is not None:
            out.update({f"{k}_{i + 1}": scalar(x) for i, x in enumerate(flat)})
    return out


def _identity(parts: Mapping) -> tuple:
    # dict.items: a score's breakdown may name an attribute "items" (Coverage does)
    items = dict.items(parts) if isinstance(parts, dict) else parts.items()
    return tuple((k, id(v)) for k, v in items)


# Live scores by the identity of their parts (see Score.__new__)
_LIVE: "weakref.WeakValueDictionary[tuple, Score]" = weakref.WeakValueDictionary()


class Score(dict):
    """A metric value with its breakdown, statistics and signature.

    A score is also a flat ``dict`` of its numeric parts: ``score``, every scalar of the
    breakdown under its own name, sequences as ``name_1``, ``name_2``, ..., per-type
    tuples as ``type_field`` (and a (P, R, F) triple's F under the type's name). So
    ``dict(score)``, ``score.keys()``, ``score["rouge1"]`` and JSON serialisation work,
    and a Hugging Face Trainer ``compute_metrics`` may return the score itself.

    Libraries that walk collections rebuild a mapping as ``type(m)(items)`` (Trainer's
    ``denumpify_detensorize``, torchmetrics' ``apply_to_collection``): given the very
    items of a live score, that call returns the score itself; given other items, a plain
    ``dict`` of them.
    """

    # a dict subclass is unhashable by default; scores stay hashable by identity
    __hash__ = object.__hash__

    def __new__(cls, *args: Any, **kwargs: Any):
        if len(args) == 1 and not kwargs and isinstance(args[0], abc.Mapping):
            found = _LIVE.get(_identity(args[0]))
            return found if isinstance(found, cls) else dict(args[0])
        return super().__new__(cls)

    def __init__(self, name: str, score: float | None = None, signature: Signature | None = None, stats: Stats | None = None, **breakdown: Any):
        if signature is None and isinstance(name, abc.Mapping):  # the rebuild of __new__: already initialised
            return
        super().__init__()
        self.name = name
        self.score = float(score)
        self.signature = signature
        self.stats = stats
        self.breakdown = _Breakdown(self, breakdown)
        for k, v in breakdown.items():
            setattr(self, k, v)
        dict.update(self, {"score": self.score, **_flat_parts(breakdown)})
        _LIVE[_identity(self)] = self

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __float__(self) -> float:
        return self.score

    def format(self, width: int = 2, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"{self.name} = {self.score:.{width}f}"

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"<{self.format()} | {self.signature}>"

    def __reduce__(self):
        # pickle as an object (its attributes), not as a dict of its parts
        return (_rebuild_score, (type(self), self.__dict__.copy(), dict(self)))

    def to_dict(self) -> dict[str, Any]:
        """Name, score, breakdown (arrays as lists; per-type tuples also flat) and signature."""
        out = {"name": self.name, "score": self.score}
        for k, v in self.breakdown.items():
            if _is_ndarray(v):
                v = v.tolist()
            out[k] = v
        nested = {k: v for k, v in self.breakdown.items() if isinstance(v, dict) or hasattr(v, "_asdict")}
        for k, v in _flat_parts(nested).items():
            out.setdefault(k, v)
        out["signature"] = self.signature.format()
        out["signature_fields"] = self.signature.as_dict()
        return out


_INIT_SIGNATURES: dict[type, inspect.Signature] = {}


def check_options(cls: type, args: tuple, options: dict[str, Any]) -> None:
    """Refuse an unknown, missing or repeated constructor option with an InvalidOptionError
    naming it (Python's own TypeError would not say which options exist), and a non-bool
    value for an option whose default is a bool (``TER(normalized="yes")`` would read as
    true: a typo'd string or a number is refused, not guessed)."""
    _check_bool_options(cls, options)
    if not args and _binds_by_keyword(cls.__init__, options):
        return  # the usual case, decided without inspect
    import inspect  # here, not at the top: it costs a fresh interpreter ~10 ms

    sig = _INIT_SIGNATURES.get(cls)
    if sig is None:
        sig = _INIT_SIGNATURES[cls] = inspect.signature(cls.__init__)
    try:
        sig.bind(None, *args, **options)
    except TypeError as e:
        named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        known = [p.name for p in list(sig.parameters.values())[1:] if p.kind in named]
        raise UnknownOptionError(f"{cls.__name__}: {e}; its options are: {', '.join(known)}") from None


def _bool_defaults(init: Any) -> dict[str, Any]:
    """The parameters of ``init`` (after ``__wrapped__``) whose default is a bool, an int or a float."""
    while hasattr(init, "__wrapped__"):
        init = init.__wrapped__
    code = getattr(init, "__code__", None)
    if code is None:
        return {}
    kinds = (bool, int, float)
    out = {k: v for k, v in (init.__kwdefaults__ or {}).items() if type(v) in kinds}
    defaults = init.__defaults__ or ()
    if defaults:
        names = code.co_varnames[code.co_argcount - len(defaults) : code.co_argcount]
        out.update({k: v for k, v in zip(names, defaults) if type(v) in kinds})
    # an option declared to take more than its default's type (BERTScore's idf: a bool or
    # an idf table) is checked by its metric, not here
    notes = getattr(init, "__annotations__", {}) or {}

    def plain(note: Any) -> bool:
        return all(part.strip() in ("bool", "int", "float", "None") for part in str(note).split("|"))

    return {k: v for k, v in out.items() if k not in notes or plain(notes[k])}


_BOOL_DEFAULTS: dict[type, dict[str, Any]] = {}


def _check_bool_options(cls: type, options: dict[str, Any]) -> None:
    bools = _BOOL_DEFAULTS.get(cls)
    if bools is None:
        bools = _BOOL_DEFAULTS[cls] = _bool_defaults(cls.__init__)
    for key, value in options.items():
        if key not in bools:
            continue
        is_bool = isinstance(value, bool) or type(value).__name__ == "bool_"  # numpy's bool too
        if isinstance(bools[key], bool):
            if not is_bool:
                raise InvalidOptionError(f"{cls.__name__}: {key} must be True or False, got {value!r}")
        elif is_bool:  # a number option: True is no number
            raise InvalidOptionError(f"{cls.__name__}: {key} must be a number, got {value!r}")


def _binds_by_keyword(init: Any, options: dict[str, Any]) -> bool:
    """Whether ``inspect.signature(init).bind(None, **options)`` surely succeeds, read from
    the code object of ``init`` (after its ``__wrapped__`` chain): each option is a
    parameter taken by name (or goes to ``**kwargs``) and every parameter without a default
    is given. ``False`` means "ask inspect", which also words the error."""
    while hasattr(init, "__wrapped__"):
        init = init.__wrapped__
    code = getattr(init, "__code__", None)
    if code is None or hasattr(init, "__signature__") or code.co_argcount < 1 or code.co_posonlyargcount > 1:
        return False
    n_pos, n_kw = code.co_argcount, code.co_kwonlyargcount
    names = code.co_varnames
    by_name = set(names[1 : n_pos + n_kw])  # the first parameter takes the instance
    takes_any = bool(code.co_flags & 0x08)  # CO_VARKEYWORDS: **kwargs
    for key in options:
        if key not in by_name and not (takes_any and key not in names[: n_pos + n_kw]):
            return False
    required = list(names[1 : n_pos - len(init.__defaults__ or ())])
    kw_defaults = init.__kwdefaults__ or {}
    required += [k for k in names[n_pos : n_pos + n_kw] if k not in kw_defaults]
    return all(k in options for k in required)


def _typed_option_errors(init: Any) -> Any:
    """``__init__`` with a TypeError from an option of the wrong type (an unhashable list
    looked up in a table of names, a string compared with a number) raised as an
    InvalidOptionError naming the class."""

    @functools.wraps(init)
    def checked(self: Any, *args: Any, **options: Any) -> None:
        try:
            init(self, *args, **options)
        except TypeError as e:
            if isinstance(e, NlgMetricsError):
                raise
            raise InvalidOptionError(f"{type(self).__name__}: an option has the wrong type ({e})") from None

    checked._typed_options = True  # type: ignore[attr-defined]
    return checked


def _rebuild_score(cls: type, state: dict[str, Any], parts: dict[str, Any]) -> Score:
    obj = dict.__new__(cls)
    dict.update(obj, parts)
    obj.__dict__.update(state)
    obj.breakdown = _Breakdown(obj, state.get("breakdown", {}))
    return obj


def empty_input(name: str, hint: str = "give at least one segment") -> EmptyInputError:
    """The one rule for empty input, the same for every metric, locally and on every
    engine: a corpus-level number (corpus score, streaming compute, bootstrap, paired
    test) of no segments is undefined, so it is an :class:`EmptyInputError`; a
    per-segment call of no segments returns an empty result. The references disagree
    (sacrebleu's ``corpus_bleu([], [[]])`` raises ``IndexError``, pycocoevalcap's CIDEr a
    ``ValueError``, nltk's ``corpus_bleu([], [])`` ``ZeroDivisionError``, rouge-score's
    aggregator returns no score, jiwer's ``wer([], [])`` 0), so no number would be
    the reference's number."""
    return EmptyInputError(f"{name}: nothing to score (no segments); {hint}")


class Metric:
    """Base class. ``n_threads=0`` uses every core; results never depend on it."""

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        init = cls.__dict__.get("__init__")
        if init is not None and not getattr(init, "_typed_options", False):
            cls.__init__ = _typed_option_errors(init)  # type: ignore[method-assign]

    name: ClassVar[str] = ""
    flavour: ClassVar[str] = ""
    count_fields: tuple[str, ...] = ()
    sum_fields: tuple[str, ...] = ()

    def __init__(self, *, n_threads: int = 0):
        from .._resources import n_threads_value

        self.n_threads = n_threads_value(n_threads)
        self._state: Stats | None = None

    # -- to implement -------------------------------------------------------------------
    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        raise NotImplementedError

    def _score(self, stats: Stats) -> Score:
        raise NotImplementedError

    def _signature_items(self) -> dict[str, Any]:
        raise NotImplementedError

    def _abbreviations(self) -> dict[str, str]:
        return {}

    def _segment_stats_lists(self, predictions: list, references: list) -> SegmentStats | None:
        """Optional fast path for plain lists, read by the core without validation here.

        Returns ``None`` whenever the inputs are not simply strings and (lists or tuples
        of) strings, so that the validating path reports the problem.
        """
        return None

    def _total_lists(self, predictions: list, references: list) -> Stats | None:
        """Optional fast path of :meth:`corpus_score` and :meth:`update` for plain lists:
        the corpus total summed in the core (no per-segment matrix, no numpy). ``None``
        as :meth:`_segment_stats_lists`; the total must equal ``stats(...).total()``."""
        return None

    def _segmentation(self) -> Segmentation | None:
        """How the tokenizer treats text, for the warning on unsegmented or deleted
        scripts (:mod:`nlgmetrics.script_check`); ``None``: nothing to check."""
        return None

    def _stats_items(self) -> dict[str, Any]:
        """The options that change the statistics (not only the scoring of them).

        Statistics merge and rescore across configurations that agree on these: BLEU
        statistics extracted once can be scored with every smoothing method.
        """
        return self._signature_items()

    # -- identity -----------------------------------------------------------------------
    @property
    def key(self) -> str:
        """Identifies a configuration; only statistics with equal keys merge."""
        items = {k: v for k, v in self._stats_items().items() if v is not None}
        return f"{self.name}|" + "|".join(f"{k}:{v}" for k, v in items.items())

    def signature(self, stats: Stats | None = None) -> Signature:
        refs = stats.ref_counts if stats is not None else frozenset()
        nrefs: Any = None
        if refs:
            nrefs = next(iter(refs)) if len(refs) == 1 else "var"
        items = {"nrefs": nrefs, **self._signature_items()}
        abbr = {"nrefs": "#", "version": "v", "bs": "bs", "ar": "ar", "seed": "rs", **self._abbreviations()}
        return Signature(items, abbr)

    def zero(self) -> Stats:
        return Stats.zero(self.key, self.count_fields, self.sum_fields)

    # -- batch faces --------------------------------------------------------------------
    def _prepare(self, predictions: Any, references: Any) -> tuple[list[str], list[list[str]]]:
        preds = as_texts(predictions, "predictions")
        refs = as_references(references, len(preds), predictions=preds)
        return preds, refs

    def _plain_lists(self, predictions: Any, references: Any) -> bool:
        """Whether the inputs may take a fast path for plain lists (references in the
        right orientation: refused or warned about here)."""
        if type(predictions) is list and type(references) in (list, SegmentReferences) and len(predictions) == len(references):
            if type(references) is list:
                check_orientation(predictions, references)
            return True
        return False

    def stats(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> SegmentStats:
        """Per-segment statistics (one row per prediction)."""
        script_check.check(self._segmentation(), predictions, references)
        return self._checked_stats(predictions, references, self._plain_lists(predictions, references))

    def _checked_stats(self, predictions: Any, references: Any, plain: bool) -> SegmentStats:
        if plain:
            seg = self._segment_stats_lists(predictions, list(references))
            if seg is not None:
                return seg
        preds, refs = self._prepare(predictions, references)
        try:
            return self._segment_stats(preds, refs)
        except (UnicodeEncodeError, TypeError) as e:
            check_all_text(preds, "predictions")
            for i, r in enumerate(refs):
                check_all_text(r, f"references[{i}]")
            raise InputTypeError(str(e)) from None

    def score_stats(self, stats: Stats | SegmentStats) -> Score:
        """The score of (summed) statistics."""
        if not isinstance(stats, Stats):
            from ..stats import SegmentStats

            if isinstance(stats, SegmentStats):
                stats = stats.total()
        if stats.key != self.key:
            raise IncompatibleStatsError(f"statistics of {stats.key!r} cannot be scored by {self.key!r}")
        if stats.n_segments == 0:
            try:
                self._score(stats)
            except InvalidInputError as e:  # the metric's own words for it ("no questions")
                raise EmptyInputError(str(e)) from None
            raise empty_input(self.name)
        return self._score(stats)

    def corpus_score(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> Score:
        return self.score_stats(self._total(predictions, references))

    def _total(self, predictions: Any, references: Any) -> Stats:
        """``stats(predictions, references).total()``, summed in the core when the metric
        has a :meth:`_total_lists` path and the inputs are plain lists. A subclass that
        overrides :meth:`stats` keeps its own path."""
        if type(self).stats is not Metric.stats or type(self)._total_lists is Metric._total_lists:
            return self.stats(predictions, references).total()
        script_check.check(self._segmentation(), predictions, references)
        plain = self._plain_lists(predictions, references)
        if plain:
            total = self._total_lists(predictions, list(references))
            if total is not None:
                return total
        return self._checked_stats(predictions, references, plain).total()

    def sentence_scores(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> np.ndarray:
        """One score per prediction, as a float64 array."""
        return self._sentence_scores(self.stats(predictions, references))

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        import numpy as np

        scores = np.empty(len(seg), dtype=np.float64)
        for i in range(len(seg)):
            try:
                scores[i] = self._score(seg.row(i)).score
            except NlgMetricsError as e:
                raise segment_error(i, e) from None
        return scores

    def sentence_parts(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> dict[str, np.ndarray]:
        """Every part of every segment's score as named columns (the keys of a
        :class:`Score`, e.g. ``rouge1``, ``rouge1_precision``, ..., ``rougeLsum_fmeasure``).

        ``score`` is :meth:`sentence_scores`. The other parts are those of each segment's
        statistics scored alone; a metric whose sentence score is not that (one fitted on
        the whole corpus, such as CIDEr-D) reports ``score`` only.
        """
        seg = self.stats(predictions, references)
        scores = self._sentence_scores(seg)
        columns: dict[str, list] = {}
        try:
            rows = [self._score(seg.row(i)) for i in range(len(seg))]
        except Exception:  # a segment alone is not scorable by this metric
            rows = None
        if rows is not None and all(r.score == s or (r.score != r.score and s != s) for r, s in zip(rows, scores)):
            for r in rows:
                for k, v in dict.items(r):
                    columns.setdefault(k, []).append(v)
        import numpy as np

        out = {"score": scores}
        out.update({k: np.asarray(v, dtype=np.float64) for k, v in columns.items() if k != "score" and len(v) == len(scores)})
        return out

    def _scores_from_totals(self, counts: np.ndarray, sums: np.ndarray, n_segments: np.ndarray | None = None) -> np.ndarray:
        """Scores of many totals at once (bootstrap resamples, randomization trials).

        Row ``i`` of ``counts`` (uint64, one column per count field) and ``sums`` (float64,
        one column per sum field) is one total, of ``n_segments[i]`` segments. This
        default scores each row with ``_score``; metrics override it with one vectorised
        core call.
        """
        import numpy as np

        out = np.empty(len(counts), dtype=np.float64)
        for i in range(len(counts)):
            total = Stats(
                key=self.key,
                count_fields=tuple(self.count_fields),
                counts=np.asarray(counts[i], dtype=np.uint64),
                sum_fields=tuple(self.sum_fields),
                sum_partials=tuple((float(v),) for v in sums[i]) if len(self.sum_fields) else (),
                n_segments=0 if n_segments is None else int(n_segments[i]),
            )
            out[i] = self._score(total).score
        return out

    def pairwise(self, candidates: Sequence[str], references: Sequence[str]) -> np.ndarray:
        """``M[i, j]`` = the sentence score of ``candidates[i]`` against ``references[j]`` alone."""
        cands = as_texts(candidates, "candidates")
        refs = as_texts(references, "references")
        script_check.check(self._segmentation(), cands, refs)
        from .._resources import check_allocation

        check_allocation(8 * len(cands) * len(refs), f"a {len(cands)} x {len(refs)} pairwise matrix")
        try:
            return self._pairwise(cands, refs)
        except UnicodeEncodeError:
            check_all_text(cands, "candidates")
            check_all_text(refs, "references")
            raise

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        from .._resources import check_allocation

        # Every pair as a segment: two list slots, a one-item list and a statistics row.
        per_pair = 88 + 8 * (len(self.count_fields) + len(self.sum_fields) + 1)
        check_allocation(per_pair * len(cands) * len(refs), f"a {len(cands)} x {len(refs)} pairwise matrix")
        preds = [c for c in cands for _ in refs]
        flat = [[r] for _ in cands for r in refs]
        if not preds:
            import numpy as np

            return np.zeros((len(cands), len(refs)))
        return self._sentence_scores(self._segment_stats(preds, flat)).reshape(len(cands), len(refs))

    # -- streaming faces ----------------------------------------------------------------
    # Thread safety: statistics are extracted outside the object's lock (in parallel) and
    # folded into the state under it; every check runs before the state is touched.
    def _accumulate(self, total: Stats) -> "Metric":
        """Fold a batch total into the running state (the one place state grows)."""
        if total.key != self.key:
            raise IncompatibleStatsError(f"statistics of {total.key!r} cannot be merged into {self.key!r}")
        with state_lock(self):
            self._state = total if self._state is None else self._state + total
        return self

    def update(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> "Metric":
        """Add a batch to the running state (safe to call from several threads)."""
        return self._accumulate(self._total(predictions, references))

    def add_batch(self, *args: Any, **kwargs: Any) -> "Metric":
        """Hugging Face evaluate's name for :meth:`update` (``add_batch(predictions=..., references=...)``).

        Delegates at call time, so a subclass's own ``update`` is the one that runs.
        """
        return self.update(*args, **kwargs)

    def add(self, *, prediction: Any, reference: Any = None) -> "Metric":
        """Add one example, as evaluate's ``add(prediction=..., reference=...)``.

        ``reference`` is a string or the list of references of this one prediction.
        """
        return self.add_batch(predictions=[prediction], references=[reference])

    def merge(self, other: "Metric | Stats") -> "Metric":
        """Fold another metric's state (e.g. from another process) into this one."""
        if isinstance(other, Metric):
            other_state = other.state
        elif isinstance(other, Stats):
            other_state = other
        else:
            raise InputTypeError(f"merge() takes a metric or its Stats, got {type(other).__name__}")
        return self._accumulate(other_state)

    @property
    def state(self) -> Stats:
        with state_lock(self):
            state = self._state
        return state if state is not None else self.zero()

    def reset(self) -> "Metric":
        with state_lock(self):
            self._state = None
        return self

    def _compute_state(self) -> Stats:
        with state_lock(self):
            state = self._state
        if state is None or state.n_segments == 0:
            raise empty_input(self.name, "call update() first")
        return state

    def compute(self, *, predictions: Sequence[str] | None = None, references: Any = None) -> Score:
        """Score the running state; keyword inputs are added first (the evaluate-style call)."""
        if predictions is not None or references is not None:
            if predictions is None or references is None:
                raise InputTypeError("compute() needs both predictions= and references=, or neither")
            self.update(predictions, references)
        return self.score_stats(self._compute_state())

    def __new__(cls, *args: Any, **options: Any):
        # no arguments: unpickling or copying, which restore the state without __init__
        if args or options:
            check_options(cls, args, options)
        return super().__new__(cls)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key})"


class Flavoured:
    """A metric family whose constructor builds the flavour asked for:
    ``BLEU(flavour="nltk")`` returns an ``NltkBLEU``. The family's root class is declared
    as ``class BLEU(Flavoured, Metric, default_flavour="sacrebleu")``; each flavour is a
    subclass that sets ``flavour`` and is registered when its module is imported."""

    flavours: ClassVar[dict[str, type]]
    default_flavour: ClassVar[str]
    _family: ClassVar[type]

    def __init_subclass__(cls, default_flavour: str | None = None, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if default_flavour is not None:
            cls._family, cls.flavours, cls.default_flavour = cls, {}, default_flavour
        elif cls.__dict__.get("flavour"):
            cls._family.flavours[cls.__dict__["flavour"]] = cls

    def __new__(cls, flavour: str | None = None, **options: Any):
        family = cls._family
        if cls is family:
            wanted = family.default_flavour if flavour is None else flavour
            if wanted not in family.flavours:
                family._load_flavours()
            try:
                cls = family.flavours[wanted]
            except (KeyError, TypeError):
                known = ", ".join(family.flavours)
                raise InvalidOptionError(f"unknown {family.name} flavour {wanted!r}; known: {known}") from None
        if flavour is not None:
            options = {"flavour": flavour, **options}
        return super().__new__(cls, **options)

    @classmethod
    def _load_flavours(cls) -> None:
        """Import flavour modules that are not loaded with the family (none by default)."""
