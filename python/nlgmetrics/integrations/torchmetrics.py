"""torchmetrics adapter: any nlgmetrics metric as a ``torchmetrics.Metric`` whose states
all reduce by **sum**, so DDP synchronisation (``all_reduce``) gives exactly the
single-process number (extra ``[torch]``).

>>> from nlgmetrics.integrations.torchmetrics import TorchMetric
>>> bleu = TorchMetric("bleu")
>>> bleu.update(["the cat sat on the mat"], [["the cat is on the mat"]])
>>> round(float(bleu.compute()), 6)
0.379918

Scale: ``compute()`` reports on **torchmetrics' scale**. The metrics torchmetrics also has
and reports as fractions (sacrebleu's BLEU: ``BLEUScore``/``SacreBLEUScore``; chrF and
chrF++: ``CHRFScore``; TER: ``TranslationEditRate``), which nlgmetrics reports in percent
as sacrebleu does, are divided by 100 (``scale="torchmetrics"``, the default); every other
metric is already on the scale of its reference (WER and the jiwer family, ROUGE, the
nltk/coco/nmt BLEU flavours: 0–1). ``scale="native"`` keeps nlgmetrics' own numbers;
``as_score=True`` returns the :class:`~nlgmetrics.Score` itself, on nlgmetrics' scale.

States (one set per metric configuration):

- ``counts``: the integer statistics (int64), summed;
- ``sum_limbs``: each real-valued statistic as an exact fixed-point number, 66 signed
  32-bit limbs of ``2**-1074`` (every finite float64 is an integer multiple of it), in
  int64 so that up to 2**31 additions cannot overflow. Summing limbs is exact, so the
  synchronised total is the exact sum of every process's values and rounds once, to what
  ``math.fsum`` over all segments gives: no float rounding depends on the sharding;
- ``n_segments`` and ``nrefs`` (how many segments had each number of references; the
  signature's ``nrefs``), summed.

Metrics whose statistics need more than sums refuse with a clear error: corpus-wide tables
(CIDEr-D with document frequencies from the evaluated corpus: pass a fitted
``CiderDF``; Distinct-n's n-gram union; NIST without fixed weights: ``NIST().fit(refs)``)
and nltk BLEU smoothing methods that read the last segment (``method5``–``method7``;
``method0``–``method4`` smooth the corpus totals only and stream).
"""

from __future__ import annotations

import copy
from typing import Any, Sequence

import numpy as np

from .._locking import state_lock
from ..errors import InvalidInputError, InvalidOptionError, MissingExtraError

try:
    import torch
    import torchmetrics
except ImportError:
    raise MissingExtraError("nlgmetrics.integrations.torchmetrics needs torch and torchmetrics: pip install 'nlgmetrics[torch]'") from None

from ..metrics.base import Metric, Score, empty_input
from ..registry import load
from ..stats import Stats

LIMB_BITS = 32
# float64 spans 2**-1074 .. 2**1024: 2098 bits, in 32-bit limbs
N_LIMBS = 66
SCALE_BITS = 1074
MAX_REFS = 255


def to_limbs(values: Sequence[float]) -> np.ndarray:
    """The exact sum of ``values`` as signed 32-bit limbs of ``2**-1074`` (int64)."""
    total = 0
    for v in values:
        v = float(v)
        if not np.isfinite(v):
            raise InvalidInputError(f"statistics must be finite to be summed across processes, got {v!r}")
        num, den = v.as_integer_ratio()
        total += num * ((1 << SCALE_BITS) // den)
    sign = -1 if total < 0 else 1
    magnitude = abs(total)
    mask = (1 << LIMB_BITS) - 1
    return np.array([sign * ((magnitude >> (LIMB_BITS * i)) & mask) for i in range(N_LIMBS)], dtype=np.int64)


def from_limbs(limbs: Sequence[int]) -> float:
    """The summed limbs as a float, rounded once (Python's int division rounds correctly)."""
    total = sum(int(x) << (LIMB_BITS * i) for i, x in enumerate(limbs))
    return total / (1 << SCALE_BITS)


class TorchMetric(torchmetrics.Metric):
    """An nlgmetrics metric (a registered name with options, or a metric object) as a
    torchmetrics metric. ``update(predictions, references)``; ``compute()`` returns the
    score as a float64 tensor, or the full :class:`~nlgmetrics.Score` (breakdown and
    signature) with ``as_score=True``. Extra torchmetrics keyword arguments
    (``sync_on_compute``, ``process_group``, ...) go in ``torchmetrics_kwargs``."""

    full_state_update = False
    is_differentiable = False
    higher_is_better = None

    def __init__(
        self,
        metric: str | Metric = "bleu",
        *,
        as_score: bool = False,
        scale: str = "torchmetrics",
        torchmetrics_kwargs: dict[str, Any] | None = None,
        **options: Any,
    ):
        if scale not in ("torchmetrics", "native"):
            raise InvalidOptionError(f"scale must be 'torchmetrics' (fractions, as torchmetrics reports them) or 'native', got {scale!r}")
        if not isinstance(as_score, bool):
            raise InvalidOptionError(f"as_score must be a bool, got {as_score!r}")
        super().__init__(**(torchmetrics_kwargs or {}))
        if isinstance(metric, str):
            metric = load(metric, **options)
        elif options:
            raise InvalidOptionError("options go to a metric given by name; this one is already built")
        if not isinstance(metric, Metric):
            raise InvalidOptionError(f"metric must be a registered name or a Metric object, got {type(metric).__name__}")
        self.metric = metric
        self.as_score = as_score
        self.scale = scale
        # nlgmetrics' percent scores whose torchmetrics counterparts are fractions
        self._divisor = 100.0 if scale == "torchmetrics" and _percent(metric) else 1.0
        zero = metric.zero()
        self.add_state("counts", default=torch.zeros(len(zero.count_fields), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("sum_limbs", default=torch.zeros((len(zero.sum_fields), N_LIMBS), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("n_segments", default=torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("nrefs", default=torch.zeros(MAX_REFS + 1, dtype=torch.int64), dist_reduce_fx="sum")

    def update(self, predictions: Any, references: Any = None) -> None:
        m = self.metric
        # the metric's own update runs (and refuses what cannot stream, e.g. NIST without
        # weights), on a copy with an empty state: concurrent updates share nothing but
        # the tensors, which grow under this object's lock
        batch = copy.copy(m)
        batch._state = None
        batch.update(predictions, references)
        total = batch.state
        if total.tail is not None and _tail_unread(m):
            total = total.replace(tail=None)  # the smoothing reads the corpus totals only
        if total.tables or total.tail is not None:
            raise InvalidOptionError(
                f"{m!r}: its statistics include corpus-wide tables or order-dependent extras, "
                "which do not reduce by sum across processes (fix the tables first: CIDEr(df=CiderDF.fit(...)), "
                "NIST().fit(references); or choose a smoothing that does not read the last segment)"
            )
        if any(r > MAX_REFS for r in total.ref_counts):
            raise InvalidInputError(f"at most {MAX_REFS} references per segment")
        device = self.counts.device
        counts = torch.as_tensor(total.counts.astype(np.int64), device=device)
        limbs = torch.as_tensor(np.stack([to_limbs(p) for p in total.sum_partials]), device=device) if len(total.sum_fields) else None
        with state_lock(self):
            self.counts += counts
            if limbs is not None:
                self.sum_limbs += limbs
            self.n_segments += total.n_segments
            for r in total.ref_counts:
                self.nrefs[r] += 1

    @property
    def stats(self) -> Stats:
        """The (local, unsynchronised) total as nlgmetrics statistics."""
        m = self.metric
        zero = m.zero()
        with state_lock(self):
            return Stats(
                key=zero.key,
                count_fields=zero.count_fields,
                counts=self.counts.detach().cpu().numpy().astype(np.uint64),
                sum_fields=zero.sum_fields,
                sum_partials=tuple((from_limbs(row),) for row in self.sum_limbs.detach().cpu().tolist()),
                n_segments=int(self.n_segments),
                ref_counts=frozenset(i for i, c in enumerate(self.nrefs.detach().cpu().tolist()) if c),
            )

    def compute(self) -> Any:
        stats = self.stats
        if stats.n_segments == 0:
            raise empty_input(self.metric.name, "call update() first")
        score: Score = self.metric.score_stats(stats)
        if self.as_score:
            return score
        return torch.tensor(score.score / self._divisor, dtype=torch.float64)


def _percent(metric: Metric) -> bool:
    """nlgmetrics reports it in percent (sacrebleu's convention) where torchmetrics' metric
    of the same name reports a fraction: sacrebleu's BLEU, chrF/chrF++ and TER."""
    from ..metrics.bleu import SacreBLEU
    from ..metrics.chrf import SacreCHRF
    from ..metrics.ter import SacreTER

    return isinstance(metric, (SacreBLEU, SacreCHRF, SacreTER))


def _tail_unread(metric: Metric) -> bool:
    """nltk BLEU's smoothing methods 0-4 never read the last segment's extras (methods 5-7 do)."""
    from ..metrics.bleu_nltk import NltkBLEU

    return isinstance(metric, NltkBLEU) and metric.method <= 4
