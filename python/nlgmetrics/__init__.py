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
from .metrics.meteor import METEOR, meteor  # noqa: E402
from .registry import available, load, register  # noqa: E402
from .signature import Signature  # noqa: E402
from .stats import SegmentStats, Stats  # noqa: E402

register("bleu", BLEU, "BLEU (flavours: sacrebleu)", tuple(BLEU.flavours))
register("meteor", METEOR, "METEOR (flavours: meteor-1.5, nltk)", tuple(METEOR.flavours))

__all__ = [
    "BLEU",
    "IncompatibleStatsError",
    "InputTypeError",
    "InternalError",
    "InvalidInputError",
    "InvalidOptionError",
    "InvalidTextError",
    "LengthMismatchError",
    "METEOR",
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
    "meteor",
    "references_from_streams",
    "register",
    "sentence_bleu",
]
