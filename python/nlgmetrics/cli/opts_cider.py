"""Command-line options of CIDEr (``nlgmetrics score -m cider``)."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options

# metrics.cider.TOKENIZERS, spelled out so that building the parser imports no metric.
TOKENIZERS = ("ptb", "none", "jieba", "zh", "char", "unicode", "ja-mecab", "ko-mecab")


def _add_cider(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--cider-flavour", default="cider-d", choices=["cider-d", "cider"], help="CIDEr flavour (default: cider-d, as pycocoevalcap)")
    g.add_argument("--cider-df", default=None, metavar="DF.json.gz", help="fixed document frequencies (CiderDF.save); default: from the references")
    g.add_argument(
        "--cider-tokenize", default="ptb", choices=list(TOKENIZERS),
        help="CIDEr tokenization (default: ptb, the COCO pipeline; jieba/zh/char/unicode/ja-mecab/ko-mecab for CJK captions, "
        "and the --cider-df table must be fitted with the same one)",
    )
    g.add_argument("--cider-sigma", type=float, default=6.0, help="CIDEr-D length-penalty sigma (default: 6)")


def _collect_cider(a: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"flavour": a.cider_flavour, "tokenize": a.cider_tokenize}
    if a.cider_flavour == "cider-d":  # the length penalty is CIDEr-D's (read only then: cli/checks.py)
        opts["sigma"] = a.cider_sigma
    if a.cider_df:
        opts["df"] = _load_df(a.cider_df)
    return opts


def _load_df(path: str) -> Any:
    """``--cider-df``: any failure to read the file is a data error naming it."""
    import gzip
    import zlib

    from ..errors import InvalidInputError, NlgMetricsError
    from ..metrics.cider import CiderDF

    try:
        return CiderDF.load(path)
    except NlgMetricsError as e:
        raise InvalidInputError(f"--cider-df {path}: {e}") from None
    except OSError as e:
        if e.strerror and not isinstance(e, gzip.BadGzipFile):  # missing, a directory, unreadable
            raise InvalidInputError(f"--cider-df {path}: {e.strerror}") from None
        raise InvalidInputError(f"--cider-df {path}: not a document-frequency file saved by CiderDF.save ({e})") from None
    except (EOFError, zlib.error, ValueError, TypeError, KeyError, AttributeError, IndexError) as e:
        why = str(e) or type(e).__name__
        raise InvalidInputError(f"--cider-df {path}: not a document-frequency file saved by CiderDF.save ({why})") from None


register_options("cider", _add_cider, _collect_cider)
