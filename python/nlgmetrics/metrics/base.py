"""The shape every metric shares: segment statistics -> total -> score.

A subclass declares its statistics fields and implements three small methods:
``_segment_stats`` (batch extraction, normally one call into the Rust core), ``_score``
(a total to a :class:`Score`) and ``_signature_items``. Everything else (corpus and
sentence scores, pairwise matrices, streaming update/merge/compute, the keyword
``compute(predictions=..., references=...)`` call) is provided here once.
"""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

import numpy as np

from .._inputs import as_references, as_texts, check_all_text
from ..errors import IncompatibleStatsError, InputTypeError, InvalidOptionError
from ..signature import Signature
from ..stats import SegmentStats, Stats


class Score:
    """A metric value with its breakdown, statistics and signature."""

    def __init__(self, name: str, score: float, signature: Signature, stats: Stats | None = None, **breakdown: Any):
        self.name = name
        self.score = float(score)
        self.signature = signature
        self.stats = stats
        self.breakdown = breakdown
        for k, v in breakdown.items():
            setattr(self, k, v)

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

    def to_dict(self) -> dict[str, Any]:
        out = {"name": self.name, "score": self.score}
        for k, v in self.breakdown.items():
            if isinstance(v, np.ndarray):
                v = v.tolist()
            out[k] = v
        out["signature"] = self.signature.format()
        out["signature_fields"] = self.signature.as_dict()
        return out


class Metric:
    """Base class. ``n_threads=0`` uses every core; results never depend on it."""

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
        refs = as_references(references, len(preds))
        return preds, refs

    def stats(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> SegmentStats:
        """Per-segment statistics (one row per prediction)."""
        if type(predictions) is list and type(references) is list and len(predictions) == len(references):
            seg = self._segment_stats_lists(predictions, references)
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
        if isinstance(stats, SegmentStats):
            stats = stats.total()
        if stats.key != self.key:
            raise IncompatibleStatsError(f"statistics of {stats.key!r} cannot be scored by {self.key!r}")
        return self._score(stats)

    def corpus_score(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> Score:
        return self.score_stats(self.stats(predictions, references).total())

    def sentence_scores(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> np.ndarray:
        """One score per prediction, as a float64 array."""
        return self._sentence_scores(self.stats(predictions, references))

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return np.array([self._score(seg.row(i)).score for i in range(len(seg))], dtype=np.float64)

    def _scores_from_totals(self, counts: np.ndarray, sums: np.ndarray, n_segments: np.ndarray | None = None) -> np.ndarray:
        """Scores of many totals at once (bootstrap resamples, randomization trials).

        Row ``i`` of ``counts`` (uint64, one column per count field) and ``sums`` (float64,
        one column per sum field) is one total, of ``n_segments[i]`` segments. This
        default scores each row with ``_score``; metrics override it with one vectorised
        core call.
        """
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
        from .._resources import check_allocation

        check_allocation(8 * len(cands) * len(refs), f"a {len(cands)} x {len(refs)} pairwise matrix")
        return self._pairwise(cands, refs)

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        from .._resources import check_allocation

        # Every pair as a segment: two list slots, a one-item list and a statistics row.
        per_pair = 88 + 8 * (len(self.count_fields) + len(self.sum_fields) + 1)
        check_allocation(per_pair * len(cands) * len(refs), f"a {len(cands)} x {len(refs)} pairwise matrix")
        preds = [c for c in cands for _ in refs]
        flat = [[r] for _ in cands for r in refs]
        if not preds:
            return np.zeros((len(cands), len(refs)))
        return self._sentence_scores(self._segment_stats(preds, flat)).reshape(len(cands), len(refs))

    # -- streaming faces ----------------------------------------------------------------
    def update(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> "Metric":
        """Add a batch to the running state."""
        total = self.stats(predictions, references).total()
        self._state = total if self._state is None else self._state + total
        return self

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
        other_state = other.state if isinstance(other, Metric) else other
        self._state = other_state if self._state is None else self._state + other_state
        return self

    @property
    def state(self) -> Stats:
        return self._state if self._state is not None else self.zero()

    def reset(self) -> "Metric":
        self._state = None
        return self

    def compute(self, *, predictions: Sequence[str] | None = None, references: Any = None) -> Score:
        """Score the running state; keyword inputs are added first (the evaluate-style call)."""
        if predictions is not None or references is not None:
            if predictions is None or references is None:
                raise InputTypeError("compute() needs both predictions= and references=, or neither")
            self.update(predictions, references)
        if self._state is None or self._state.n_segments == 0:
            from ..errors import InvalidInputError

            raise InvalidInputError(f"{self.name}: nothing to score; call update() first")
        return self.score_stats(self._state)

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
        return super().__new__(cls)

    @classmethod
    def _load_flavours(cls) -> None:
        """Import flavour modules that are not loaded with the family (none by default)."""
