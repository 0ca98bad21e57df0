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
from . import classification  # noqa: E402
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
from .metrics.rouge import ROUGE, RougeTokenizerWarning, rouge  # noqa: E402
from .metrics.bleu_coco import CocoBLEU  # noqa: E402
from .metrics.cider import CIDEr, CiderDF, CiderDegenerateWarning, cider_score  # noqa: E402
from .metrics.bleu_nltk import NltkBLEU, nltk_sentence_bleu  # noqa: E402
from .metrics.distinct import Distinct, distinct  # noqa: E402
from .metrics.self_bleu import SelfBLEU, self_bleu  # noqa: E402
from .metrics.perplexity import Perplexity, perplexity  # noqa: E402
from .metrics.coverage import ContentSelectionOrdering, Coverage, coverage, parse_mr  # noqa: E402
from .metrics.chrf import CHRF, chrf, chrf_plus_plus, sentence_chrf  # noqa: E402
from .metrics.ter import TER, sentence_ter, ter  # noqa: E402
from .metrics.meteor import METEOR, meteor  # noqa: E402
from .metrics.nist import NIST, nist  # noqa: E402
from .metrics.per import PER, per  # noqa: E402
from .metrics.wer import CER, MER, WER, WIL, WIP, AlignmentChunk, cer, mer, wer, wil, wip  # noqa: E402
from .registry import available, load, register  # noqa: E402
from .signature import Signature  # noqa: E402
from .stats import SegmentStats, Stats  # noqa: E402
from . import meta, significance  # noqa: E402
from .significance import bootstrap_ci, paired_test  # noqa: E402

register("bleu", BLEU, "BLEU", tuple(BLEU.flavours))
register("rouge", ROUGE, "ROUGE-N/L/Lsum/W/S/SU", tuple(ROUGE.flavours))
register("cider", CIDEr, "CIDEr-D as pycocoevalcap (corpus or fixed df), original CIDEr", CIDEr.flavours)
register("meteor", METEOR, "METEOR", tuple(METEOR.flavours))
register("distinct", Distinct, "Distinct-n: corpus, paper and mean-per-response conventions")
register("self_bleu", SelfBLEU, "Self-BLEU (Texygen conventions)")
register("chrf", CHRF, "chrF (chrF++ with word_order=2)", tuple(CHRF.flavours))
register("chrf++", chrf_plus_plus, "chrF++: chrF with word_order=2", tuple(CHRF.flavours))
register("ter", TER, "TER, translation edit rate", tuple(TER.flavours))
register("wer", WER, "word error rate (jiwer 4.0)", ("jiwer",))
register("cer", CER, "character error rate (jiwer 4.0)", ("jiwer",))
register("mer", MER, "match error rate (jiwer 4.0)", ("jiwer",))
register("wil", WIL, "word information lost (jiwer 4.0)", ("jiwer",))
register("wip", WIP, "word information preserved (jiwer 4.0)", ("jiwer",))
register("per", PER, "position-independent error rate (Moses PerScorer)", ("moses",))
register("nist", NIST, "NIST", ("mteval", "nltk"))

# Everything imported above that is public: metric classes, functions, errors, modules.
__all__ = sorted(
    name
    for name, value in list(globals().items())
    if not name.startswith("_") and name not in {"annotations", "PackageNotFoundError"}
)
