"""``from nlgmetrics.compat import sacrebleu``: sacrebleu 2.6's Python API on nlgmetrics.

``BLEU``/``CHRF``/``TER`` (``corpus_score``, ``sentence_score``, ``get_signature``),
their score objects (printing as sacrebleu prints), and the functions ``corpus_bleu``,
``raw_corpus_bleu``, ``sentence_bleu``, ``corpus_chrf``, ``sentence_chrf``,
``corpus_ter``, ``sentence_ter``. The command line is ``nlgmetrics sacrebleu`` /
``sacrebleu-nm``. Test sets (``DATASETS``, ``SACREBLEU_DIR``, ``get_source_file``,
``get_reference_files``, ``get_langpairs_for_testset``, ``get_available_testsets``,
``download_test_set``, and the modules ``dataset`` and ``utils``) are read offline from a
local sacrebleu cache; see :mod:`nlgmetrics.compat.sacrebleu.dataset`.

Every public module path of sacrebleu 2.6 a user imports is here too: ``compat``, ``metrics``
(``bleu``, ``chrf``, ``ter``, ``base``, ``helpers``, ``lib_ter``), ``tokenizers.*``,
``significance``, ``utils``, ``version``. Left out: ``sacrebleu.sacrebleu`` (the command line),
``tokenizers.tokenizer_spm`` (it downloads models) and the test-set format classes of
``dataset.*`` (download and processing internals).
"""

from __future__ import annotations

from . import metrics
from ._scores import SACREBLEU_VERSION as __version__
from .compat import corpus_bleu, corpus_chrf, corpus_ter, raw_corpus_bleu, sentence_bleu, sentence_chrf, sentence_ter
from ._helpers import extract_char_ngrams, extract_word_ngrams
from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore

__all__ = [
    "BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu",
    "corpus_chrf", "sentence_chrf", "corpus_ter", "sentence_ter", "metrics", "__version__",
    "DATASETS", "SACREBLEU_DIR", "get_source_file", "get_reference_files", "get_langpairs_for_testset",
    "get_available_testsets", "download_test_set", "dataset", "utils",
    "compat", "extract_char_ngrams", "extract_word_ngrams", "smart_open", "significance", "tokenizers", "version",
]  # fmt: skip

_TEST_SET_NAMES = ("DATASETS", "SACREBLEU_DIR", "get_source_file", "get_reference_files", "get_langpairs_for_testset",
                   "get_available_testsets", "download_test_set", "smart_open")


def __getattr__(name: str):
    # the test-set catalogue loads on first use, so importing the metrics stays cheap
    if name in ("dataset", "utils", "tokenizers", "significance", "version"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    if name in _TEST_SET_NAMES:
        from . import utils

        return getattr(utils, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
