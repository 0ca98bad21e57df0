"""nlgmetrics: exact, fast evaluation metrics for text generation and classification.

Every metric extracts per-segment sufficient statistics in a Rust core, then aggregates
them; statistics merge with ``+``, so streaming, sharding and resampling share one path.

>>> import nlgmetrics
>>> round(nlgmetrics.bleu(["the cat sat on the mat"], [["the cat sat on the mat"]]).score, 6)
100.0
"""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("nlgmetrics")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.1.0"

from . import _core  # noqa: E402
from ._inputs import references_from_streams  # noqa: E402
from .errors import (  # noqa: E402
    IncompatibleStatsError,
    InputTypeError,
    InternalError,
    InvalidInputError,
    InvalidOptionError,
    InvalidTextError,
    LengthMismatchError,
    MissingExtraError,
    MissingReferenceError,
    NlgMetricsError,
)
from .metrics.base import Metric, Score  # noqa: E402
from .metrics.bleu import BLEU, bleu, sentence_bleu  # noqa: E402
from .metrics.nist import NIST, nist  # noqa: E402
from .metrics.per import PER, per  # noqa: E402
from .metrics.wer import CER, MER, WER, WIL, WIP, AlignmentChunk, cer, mer, wer, wil, wip  # noqa: E402
from .registry import available, load, register  # noqa: E402
from .signature import Signature  # noqa: E402
from .stats import SegmentStats, Stats  # noqa: E402

register("bleu", BLEU, "BLEU (flavours: sacrebleu)", tuple(BLEU.flavours))
register("wer", WER, "word error rate (jiwer 4.0)", ("jiwer",))
register("cer", CER, "character error rate (jiwer 4.0)", ("jiwer",))
register("mer", MER, "match error rate (jiwer 4.0)", ("jiwer",))
register("wil", WIL, "word information lost (jiwer 4.0)", ("jiwer",))
register("wip", WIP, "word information preserved (jiwer 4.0)", ("jiwer",))
register("per", PER, "position-independent error rate (Moses PerScorer)", ("moses",))
register("nist", NIST, "NIST (flavours: mteval, nltk)", ("mteval", "nltk"))

__all__ = [
    "AlignmentChunk",
    "BLEU",
    "CER",
    "MER",
    "NIST",
    "PER",
    "WER",
    "WIL",
    "WIP",
    "cer",
    "mer",
    "nist",
    "per",
    "wer",
    "wil",
    "wip",
    "IncompatibleStatsError",
    "InputTypeError",
    "InternalError",
    "InvalidInputError",
    "InvalidOptionError",
    "InvalidTextError",
    "LengthMismatchError",
    "Metric",
    "MissingExtraError",
    "MissingReferenceError",
    "NlgMetricsError",
    "Score",
    "SegmentStats",
    "Signature",
    "Stats",
    "available",
    "bleu",
    "load",
    "references_from_streams",
    "register",
    "sentence_bleu",
]
