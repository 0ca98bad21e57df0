"""CIDEr and CIDEr-D (Vedantam, Zitnick, Parikh 2015).

Flavours (``CIDEr(flavour=...)``):

- ``cider-d`` (default): exactly what pycocoevalcap 1.2 ``Cider`` computes (the COCO
  caption leaderboard's "CIDEr"): n-grams 1..4 with tf-idf weights
  ``tf · (ln N − ln max(1, df))``, per order the clipped similarity
  ``Σ min(h, r)·r / (‖h‖‖r‖)`` times the Gaussian length penalty
  ``e^(−δ²/2σ²)`` (σ = 6, δ = difference of the bigram counts, pycocoevalcap's
  "length"), averaged over orders, summed over references / #references, × 10.
  Scale 0–10.
- ``cider``: the original CIDEr of vrama91/cider (``pyciderevalcap/cider``): the plain
  cosine ``Σ h·r / (‖h‖‖r‖)``, no clipping, no length penalty.

Document frequencies (``df=``):

- ``None`` (default, pycocoevalcap): counted over the references of the evaluated
  corpus, ``N`` = its number of images. Per-image scores therefore depend on the whole
  corpus. ⚠ With a single image every weight is ``ln 1 − ln 1 = 0`` and the score is 0
  (pycocoevalcap returns 0 silently); nlgmetrics returns the same 0 but emits a
  :class:`CiderDegenerateWarning` saying why and pointing to a fixed ``df``.
- a :class:`CiderDF` (fitted once on a training corpus, saved and loaded): the table is
  used as is with ``N`` = its number of documents (ruotianluo/self-critical.pytorch's
  ``CiderD(df=...)``). This is the setting for rewards and for distributed scoring.

Tokenization (``tokenize=``): ``"ptb"`` (default) runs the COCO pipeline's PTB
tokenizer (lowercase, punctuation removed) so raw captions give the COCO numbers;
``"none"`` splits on whitespace, i.e. what the pycocoevalcap scorer does with
already tokenized input. For Chinese, Japanese and Korean captions the named tokenizers
``jieba`` (Chinese words: the AI Challenger captions' CIDEr-D), ``zh``, ``char``,
``unicode``, ``ja-mecab`` and ``ko-mecab`` (:mod:`nlgmetrics.tokenizers`) segment the
text first (no lowercasing, punctuation kept) and the scorer reads the space-joined
tokens, exactly as pycocoevalcap's scorer reads pre-segmented text. ``ptb`` and
``none`` warn (:class:`~nlgmetrics.script_check.TokenizationWarning`) on unsegmented
Chinese/Japanese, which they would score as one token per clause. A fitted
:class:`CiderDF` records its tokenizer (and its version, e.g. ``jieba-0.42.1``) and
is refused by a metric or reward with another one.

Statistics: one row per image with ``images = 1`` and the image's score in the float sum
``score_sum``, which the totals also keep in image order (``Stats.sequence``, 8 bytes an
image); the corpus score is pycocoevalcap's ``np.mean`` of the per-image scores, the same
bits (:func:`~nlgmetrics.stats.ordered_mean`), for one pass, streaming and shards merged in
order alike. Totals rebuilt from the sums alone (bootstrap resamples, ``torchmetrics``
synchronisation) have no order and take the exactly rounded mean, within 4 ulps of it.
With a fixed ``df`` rows from any shards merge. In corpus mode the rows of one ``stats()`` call share that call's df;
the count fields ``df_fp``/``df_fp2`` (a 20-bit fingerprint of the df and its square)
detect totals of different calls being merged, which would mix document frequencies.
``update()`` in corpus mode instead keeps the captions in order (``Stats.sequence``) and the
df as a mergeable table (``Stats.tables``), and ``compute()`` re-scores them with the merged df, so streaming
and merging give the single-pass numbers. The two-phase distributed recipe: merge
``CiderDF.fit`` of every shard (phase 1), then ``CIDEr(df=merged).stats`` per shard
(phase 2).

Citation: Vedantam, Zitnick, Parikh. CIDEr: Consensus-based Image Description
Evaluation. CVPR 2015. Parity target: pycocoevalcap 1.2 (``cider-d``); vrama91/cider
(``cider``, golden values).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import warnings
import zlib
from typing import Any, ClassVar, Sequence

import numpy as np

from .._orientation import always, oriented
from .._resources import n_threads_value
from .._safe_pickle import describe
from .. import _core, script_check
from .. import tokenizers as _tok
from .._inputs import SegmentReferences, as_references, check_all_text, check_option_applies, check_orientation
from ..errors import IncompatibleStatsError, InvalidInputError, InvalidOptionError
from ..stats import SegmentStats, Stats, ordered_mean
from .base import Metric, Score, empty_input

FLAVOURS = ("cider-d", "cider")
CORE_TOKENIZERS = ("ptb", "none")
# Run in Python/Rust before the scorer, which then splits their space-joined tokens.
PRETOKENIZERS = ("jieba", "zh", "char", "unicode", "ja-mecab", "ko-mecab")
TOKENIZERS = CORE_TOKENIZERS + PRETOKENIZERS
_DF_FORMAT = "nlgmetrics-cider-df"


class CiderDegenerateWarning(UserWarning):
    """The document frequencies make every weight 0 (e.g. a corpus of one image)."""


def _check_order(n: Any) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 4:
        raise InvalidOptionError(f"n must be an integer in 1..4, got {n!r}")


class CiderDF:
    """A document-frequency table: n-gram -> number of images whose references contain it.

    ``CiderDF.fit(references)`` counts one document per image (``references[i]`` are
    the references of image ``i``); tables add with ``+`` (key-wise, and their document
    counts), so shards can be fitted separately. ``save``/``load`` use a gzipped JSON
    file; ``from_pickle`` reads the ``{'document_frequency', 'ref_len'}`` pickles of
    ruotianluo/self-critical.pytorch (``ref_len`` there is the number of images).

    >>> df = CiderDF.fit([["a cat on a mat"], ["a dog"]], tokenize="none")
    >>> df.n_docs, df["a"], df["cat on"]
    (2, 2, 1)
    """

    def __init__(self, native: Any, tokenize: str = "ptb", tokenizer_version: str | None = None):
        self._native = native
        self.tokenize = tokenize
        self.tokenizer_version = tokenizer_version or tokenizer_signature(tokenize)
        self._digest: str | None = None

    # -- construction -------------------------------------------------------------
    @classmethod
    def fit(cls, references: Sequence[str | Sequence[str]], *, tokenize: str = "ptb", n: int = 4, n_threads: int = 0) -> "CiderDF":
        n_threads = n_threads_value(n_threads)
        _check_tokenize(tokenize)
        _check_order(n)
        refs = as_references(references)
        if tokenize in PRETOKENIZERS:
            _, refs = _tok.pretokenize(tokenize, [], refs, n_threads)
            return cls(_core.CiderDocFreq.fit(refs, n, "none", n_threads), tokenize)
        return cls(_core.CiderDocFreq.fit(refs, n, tokenize, n_threads), tokenize)

    @classmethod
    def fit_token_ids(cls, references: Sequence[Sequence[Sequence[int]]], *, eos_id: int | None = None, include_eos: bool = True, n: int = 4) -> "CiderDF":
        """Fit on token-id references (``references[i]``: the id sequences of image i)."""
        _check_order(n)
        refs = [[_id_list(r) for r in rs] for rs in references]
        return cls(_core.CiderDocFreq.fit_ids(refs, n, eos_id, include_eos), "ids")

    @classmethod
    def from_counts(cls, counts: dict[str, int], n_docs: int, *, n: int = 4, tokenize: str = "ptb", tokenizer_version: str | None = None) -> "CiderDF":
        """From ``{"w1 w2": documents}`` and the number of documents (n-grams of tokens
        of ``tokenize``, at ``tokenizer_version``: default the installed one)."""
        keys = list(counts)
        vals = [_count(counts[k], k) for k in keys]
        if not isinstance(n_docs, (int, np.integer)) or n_docs < 0:
            raise InvalidInputError(f"n_docs must be a non-negative integer, got {n_docs!r}")
        if tokenize not in TOKENIZERS + ("ids",):
            raise InvalidInputError(f"unknown tokenize {tokenize!r} for a CIDEr df; known: {', '.join(TOKENIZERS)}, ids")
        return cls(_core.CiderDocFreq.from_entries(keys, vals, int(n_docs), n), tokenize, tokenizer_version)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "CiderDF":
        """Read a file written by :meth:`save` (gzipped JSON: no code can run)."""
        try:
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, EOFError, ValueError, zlib.error) as e:
            why = (e.strerror if isinstance(e, OSError) and not isinstance(e, gzip.BadGzipFile) and e.strerror else None) or describe(e)
            raise InvalidInputError(f"{path}: not a CIDEr document-frequency file written by CiderDF.save ({why})") from None
        if not isinstance(data, dict) or data.get("format") != _DF_FORMAT:
            raise InvalidInputError(f"{path}: not a CIDEr document-frequency file written by CiderDF.save")
        tokenize = data.get("tokenize", "ptb")
        try:
            return cls.from_counts(data["df"], data["n_docs"], n=data["n"], tokenize=tokenize, tokenizer_version=data.get("tokenizer", tokenize))
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            if isinstance(e, InvalidInputError):
                raise
            raise InvalidInputError(f"{path}: a damaged CIDEr document-frequency file ({describe(e)})") from None

    @classmethod
    def from_pickle(cls, path: str | os.PathLike, *, tokenize: str = "none") -> "CiderDF":
        """Read a ruotianluo-style pickle. It is read with an allow-listed unpickler
        (containers, numbers, numpy scalars): a file that names anything else is refused
        and no code in it runs."""
        import pickle

        from .. import _safe_pickle

        try:
            with open(path, "rb") as fh:
                data = _safe_pickle.load(fh, allowed=_safe_pickle.plain_data_allowed(), encoding="latin1")
        except OSError as e:
            raise InvalidInputError(f"{path}: {e.strerror or describe(e)}") from None
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, IndexError, KeyError, MemoryError) as e:
            raise InvalidInputError(f"{path}: not a CIDEr document-frequency pickle ({describe(e)})") from None
        try:
            table, n_docs = data["document_frequency"], data["ref_len"]
            counts = {" ".join(map(str, k)): v for k, v in table.items() if v}
            n = max((len(k) for k in table), default=4)
        except (TypeError, KeyError, AttributeError):
            raise InvalidInputError(f"{path}: expected a dict with 'document_frequency' and 'ref_len'") from None
        return cls.from_counts(counts, _count(n_docs, "ref_len"), n=max(n, 1), tokenize=tokenize)

    # -- use ----------------------------------------------------------------------
    def save(self, path: str | os.PathLike) -> None:
        data = {"format": _DF_FORMAT, "version": 1, "n": self.n, "n_docs": self.n_docs, "tokenize": self.tokenize,
                "tokenizer": self.tokenizer_version, "df": self.to_counts()}
        with gzip.open(path, "wt", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, separators=(",", ":"))

    def to_counts(self) -> dict[str, int]:
        keys, vals = self._native.entries()
        return dict(zip(keys, vals))

    @property
    def n_docs(self) -> int:
        return int(self._native.n_docs)

    @property
    def n(self) -> int:
        return int(self._native.max_order)

    def __len__(self) -> int:
        return len(self._native)

    def __getitem__(self, ngram: str) -> int:
        return int(self._native.get(ngram))

    def __add__(self, other: "CiderDF") -> "CiderDF":
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, CiderDF):
            return NotImplemented
        if (other.tokenize, other.tokenizer_version) != (self.tokenize, self.tokenizer_version):
            raise IncompatibleStatsError(f"cannot merge a df of tokenizer {self.tokenizer_version!r} with one of {other.tokenizer_version!r}")
        return CiderDF(self._native.merge(other._native), self.tokenize, self.tokenizer_version)

    __radd__ = __add__

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, CiderDF)
            and (self.n, self.n_docs, self.tokenize, self.tokenizer_version) == (other.n, other.n_docs, other.tokenize, other.tokenizer_version)
            and self._native.entries() == other._native.entries()
        )

    def __getstate__(self) -> dict[str, Any]:
        return {"n": self.n, "n_docs": self.n_docs, "tokenize": self.tokenize, "tokenizer": self.tokenizer_version, "df": self.to_counts()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        other = CiderDF.from_counts(state["df"], state["n_docs"], n=state["n"], tokenize=state["tokenize"], tokenizer_version=state.get("tokenizer"))
        self._native, self.tokenize, self.tokenizer_version = other._native, other.tokenize, other.tokenizer_version
        self._digest = None

    def digest(self) -> str:
        """A short content hash, recorded in signatures (computed once: tables are immutable)."""
        cached = self.__dict__.get("_digest")
        if cached is not None:
            return cached
        tok = self.tokenize if self.tokenizer_version == self.tokenize else f"{self.tokenize}|{self.tokenizer_version}"
        h = hashlib.sha256(f"{self.n}|{self.n_docs}|{tok}".encode())
        keys, vals = self._native.entries()
        for k, v in zip(keys, vals):
            h.update(f"{k}\t{v}\n".encode())
        self._digest = h.hexdigest()[:12]
        return self._digest

    def __repr__(self) -> str:
        return f"CiderDF(n_docs={self.n_docs}, ngrams={len(self)}, n={self.n}, tokenize={self.tokenizer_version!r})"

    def check_tokenizer(self, tokenize: str) -> None:
        """Refuse a table counted on other tokens than ``tokenize`` gives (id tables fit any)."""
        if self.tokenize == "ids":
            return
        if self.tokenize != tokenize:
            raise InvalidOptionError(f"the df was fitted with tokenize={self.tokenize!r}, not {tokenize!r}")
        if self.tokenizer_version != tokenizer_signature(tokenize):
            raise InvalidOptionError(
                f"the df was fitted with tokenizer {self.tokenizer_version!r}, but {tokenizer_signature(tokenize)!r} is installed: "
                "its words differ, refit the df"
            )


def _check_tokenize(tokenize: str) -> None:
    if tokenize not in TOKENIZERS:
        raise InvalidOptionError(f"unknown tokenize {tokenize!r} for CIDEr; known: {', '.join(TOKENIZERS)}")


def tokenizer_signature(tokenize: str) -> str:
    """``tokenize`` as signatures and df files record it (Python tokenizers with their version)."""
    return _tok.signature_name(tokenize) if tokenize in PRETOKENIZERS else tokenize


def unsegmented_check(tokenize: str, metric: str = "CIDEr") -> script_check.Segmentation | None:
    """``ptb`` and ``none`` keep unsegmented Chinese/Japanese clauses as single tokens."""
    return _tok.unsegmented_check(tokenize, metric, names=PRETOKENIZERS)


def _count(v: Any, what: str) -> int:
    try:
        f = float(v)
    except (TypeError, ValueError, OverflowError):
        raise InvalidInputError(f"document frequency of {str(what)[:40]!r} must be a non-negative integer, got {type(v).__name__}") from None
    if not math.isfinite(f) or f < 0 or f != int(f):
        raise InvalidInputError(f"document frequency of {str(what)[:40]!r} must be a non-negative integer, got {v!r}")
    return int(f)


def _id_list(seq: Any) -> list[int]:
    try:
        return [int(x) for x in (seq.tolist() if isinstance(seq, np.ndarray) else seq)]
    except (TypeError, ValueError):
        from ..errors import InputTypeError

        raise InputTypeError(f"token-id sequences must hold integers, got {type(seq).__name__}") from None


def _refs_fingerprint(references: list[list[str]]) -> int:
    """20 bits identifying the corpus df (a function of the multiset of reference sets):
    an order-independent sum of per-image hashes. Squares fit u64 for 2**24 rows."""
    total = 0
    for refs in references:
        h = hashlib.blake2b("\x1f".join(refs).encode("utf-8", "surrogatepass"), digest_size=8).digest()
        total += int.from_bytes(h, "little")
    return (total % (1 << 61)) % ((1 << 20) - 3) + 1


class CIDErScore(Score):
    def format(self, width: int = 3, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"{self.name} = {self.score:.{width}f} (images = {self.images})"


class CIDEr(Metric):
    """CIDEr-D / CIDEr; see the module docstring.

    ``CIDEr(flavour="cider-d", *, df=None, tokenize="ptb", n=4, sigma=6.0, n_threads=0)``

    >>> from nlgmetrics import CIDEr
    >>> hyps = ["a man riding a horse", "a cat on a couch", "two dogs in the snow"]
    >>> refs = [["a man rides a horse", "a person on a horse"], ["a cat lies on a sofa"], ["two dogs play in snow"]]
    >>> round(CIDEr().corpus_score(hyps, refs).score, 6)
    2.407935
    """

    name = "CIDEr"
    count_fields = ("images", "df_fp", "df_fp2")
    sum_fields = ("score_sum",)
    flavours: ClassVar[tuple[str, ...]] = FLAVOURS

    def __init__(self, flavour: str = "cider-d", *, df: CiderDF | None = None, tokenize: str = "ptb", n: int = 4, sigma: float = 6.0, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if flavour not in FLAVOURS:
            raise InvalidOptionError(f"unknown CIDEr flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
        _check_tokenize(tokenize)
        _check_order(n)
        check_option_applies("sigma", sigma, 6.0, flavour == "cider-d", "with flavour='cider' (the length penalty is CIDEr-D's)")
        if not isinstance(sigma, (int, float)) or not math.isfinite(sigma) or sigma <= 0:
            raise InvalidOptionError(f"sigma must be a positive number, got {sigma!r}")
        if df is not None and not isinstance(df, CiderDF):
            raise InvalidOptionError(f"df must be a CiderDF (see CiderDF.fit / CiderDF.load), got {type(df).__name__}")
        if df is not None and df.n != n:
            raise InvalidOptionError(f"the df was counted for n={df.n}, not n={n}")
        if df is not None:
            df.check_tokenizer(tokenize)
        self.flavour = flavour
        self.df = df
        self.tokenize = tokenize
        self._tok_signature = tokenizer_signature(tokenize)
        self.n = n
        self.sigma = float(sigma)
        self._df_digest = df.digest() if df is not None else None

    def _signature_items(self) -> dict[str, Any]:
        return {
            "flavour": self.flavour,
            "tok": self._tok_signature,
            "n": self.n,
            "sigma": f"{self.sigma:g}" if self.flavour == "cider-d" else None,
            "df": "corpus" if self.df is None else f"fixed[{self.df.n_docs}:{self._df_digest}]",
        }

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "tok": "tok", "n": "n", "sigma": "s", "df": "df"}

    # -- core calls ---------------------------------------------------------------
    def _segmentation(self) -> script_check.Segmentation | None:
        return unsegmented_check(self.tokenize)

    def _scores(self, preds: list[str], refs: list[list[str]], df: CiderDF | None) -> np.ndarray:
        native = df._native if df is not None else None
        tokenize = self.tokenize
        try:
            if tokenize in PRETOKENIZERS:
                (preds, refs), tokenize = _tok.pretokenize(tokenize, preds, refs, self.n_threads), "none"
            return _core.cider_scores(preds, refs, self.flavour, self.n, self.sigma, tokenize, native, self.n_threads)
        except UnicodeEncodeError:
            check_all_text(preds, "predictions")
            for i, r in enumerate(refs):
                check_all_text(r, f"references[{i}]")
            raise

    def _list_scores(self, predictions: Any, references: Any) -> tuple[np.ndarray, np.ndarray] | None:
        """Scores and reference counts of plain lists, read in place by the core; ``None``
        for any other input, which then takes the validating path."""
        if type(predictions) is not list or type(references) not in (list, SegmentReferences) or len(predictions) != len(references):
            return None
        if self.tokenize in PRETOKENIZERS:
            return None
        if type(references) is list:
            check_orientation(predictions, references)
        references = list(references)
        native = self.df._native if self.df is not None else None
        return _core.cider_scores_lists(predictions, references, self.flavour, self.n, self.sigma, self.tokenize, native, self.n_threads)

    def _warn_degenerate(self, n_images: int) -> None:
        if self.df is None and n_images == 1:
            warnings.warn(
                "CIDEr with document frequencies from the evaluated references of a single image is 0 "
                "for any caption (every idf is ln 1 - ln 1 = 0), as pycocoevalcap computes it; "
                "score a whole corpus or pass df=CiderDF.fit(training_references)",
                CiderDegenerateWarning,
                stacklevel=3,
            )

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        self._warn_degenerate(len(predictions))
        scores = self._scores(predictions, references, self.df)
        n = len(predictions)
        counts = np.zeros((n, 3), dtype=np.uint64)
        counts[:, 0] = 1
        if self.df is None and n:
            fp = _refs_fingerprint(references)
            counts[:, 1] = fp
            counts[:, 2] = fp * fp
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            sum_fields=self.sum_fields,
            sums=scores.reshape(n, 1),
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=n),
            sequence_field="score_sum",
        )

    def corpus_score(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> CIDErScore:
        script_check.check(self._segmentation(), predictions, references)
        got = self._list_scores(predictions, references)
        if got is not None:
            scores, ref_counts = got
            self._warn_degenerate(len(scores))
            return self._make_score(scores, len(scores), frozenset(ref_counts.tolist()))
        preds, refs = self._prepare(predictions, references)
        self._warn_degenerate(len(preds))
        scores = self._scores(preds, refs, self.df)
        return self._make_score(scores, len(preds), frozenset(len(r) for r in refs))

    def _make_score(self, scores: np.ndarray, n: int, ref_counts: frozenset[int] = frozenset(), stats: Stats | None = None) -> CIDErScore:
        if not n:
            raise empty_input(self.name)  # the one rule (pycocoevalcap's Cider raises ValueError)
        value = ordered_mean(scores)
        if stats is None:
            counts = np.array([n, 0, 0], dtype=np.uint64)
            stats = Stats(key=self.key, count_fields=self.count_fields, counts=counts, sum_fields=self.sum_fields,
                          sum_partials=((math.fsum(scores),),), n_segments=n, ref_counts=ref_counts,
                          sequence=np.array(scores, dtype=np.float64))
        return CIDErScore("CIDEr-D" if self.flavour == "cider-d" else "CIDEr", value, self.signature(stats), stats, images=n)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return np.asarray(seg.sums[:, 0], dtype=np.float64)

    def sentence_scores(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> np.ndarray:
        """Per-image scores (pycocoevalcap's ``scores``), with this call's df in corpus mode."""
        script_check.check(self._segmentation(), predictions, references)
        got = self._list_scores(predictions, references)
        if got is not None:
            self._warn_degenerate(len(got[0]))
            return got[0]
        preds, refs = self._prepare(predictions, references)
        self._warn_degenerate(len(preds))
        return self._scores(preds, refs, self.df)

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        if self.df is None:
            raise InvalidOptionError("CIDEr pairwise scores need a fixed df (CIDEr(df=CiderDF.fit(...))): a one-reference df scores 0")
        tokenize = self.tokenize
        if tokenize in PRETOKENIZERS:
            cands, refs, tokenize = _tok.tokenize(tokenize, cands, self.n_threads), _tok.tokenize(tokenize, refs, self.n_threads), "none"
        try:
            return _core.cider_pairwise(cands, refs, self.df._native, self.flavour, self.sigma, tokenize, self.n_threads)
        except UnicodeEncodeError:
            check_all_text(cands, "candidates")
            check_all_text(refs, "references")
            raise

    # -- scoring totals -----------------------------------------------------------
    def _score(self, stats: Stats) -> CIDErScore:
        if "cider_df" in stats.tables:
            return self._score_tables(stats)
        images, s1, s2 = (int(x) for x in stats.counts)
        if self.df is None and images and s1 * s1 != images * s2:
            raise IncompatibleStatsError(
                "these CIDEr statistics come from stats() calls with different document frequencies "
                "(corpus mode fits the df per call); use update()/compute(), or a fixed df=CiderDF"
            )
        if not images:
            value = 0.0
        elif stats.sequence is not None and stats.sequence.dtype == np.float64 and len(stats.sequence) == images:
            value = ordered_mean(stats.sequence)
        else:  # no per-image order (totals rebuilt from sums): the exactly rounded mean
            value = math.fsum(stats.sum_partials[0]) / images
        return CIDErScore("CIDEr-D" if self.flavour == "cider-d" else "CIDEr", value, self.signature(stats), stats, images=images)

    def update(self, predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> "CIDEr":
        """Add a batch. With a fixed df this adds per-image scores; in corpus mode it keeps
        the captions and the df table, and ``compute()`` scores them with the merged df."""
        if self.df is not None:
            return super().update(predictions, references)
        preds, refs = self._prepare(predictions, references)
        script_check.check(self._segmentation(), preds, refs)
        # Store tokenized captions: the PTB tokenizer reads each caption with the start
        # of the next one, so it must run in this batch's order, not the merged order.
        try:
            preds, refs = tokenize_batch(preds, refs, self.tokenize, self.n_threads)
            df = CiderDF(_core.CiderDocFreq.fit(refs, self.n, "none", self.n_threads), self.tokenize, self._tok_signature)
        except UnicodeEncodeError:
            check_all_text(preds, "predictions")
            for i, r in enumerate(refs):
                check_all_text(r, f"references[{i}]")
            raise
        captions = np.empty(len(preds), dtype=object)  # (caption, references) in order
        for i, (p, r) in enumerate(zip(preds, refs)):
            captions[i] = (p, tuple(r))
        total = Stats(
            key=self.key, count_fields=self.count_fields, counts=np.array([len(preds), 0, 0], dtype=np.uint64),
            sum_fields=self.sum_fields, sum_partials=((),), n_segments=len(preds),
            ref_counts=frozenset(len(r) for r in refs),
            tables={"cider_df": df.to_counts()}, sequence=captions,
        )
        return self._accumulate(total)

    add_batch = update

    def _score_tables(self, stats: Stats) -> CIDErScore:
        captions = stats.sequence
        n_images = stats.n_segments
        if captions is None or captions.dtype != object or len(captions) != n_images or not all(type(c) is tuple for c in captions):
            raise IncompatibleStatsError("CIDEr statistics from update() cannot be merged with statistics from stats()")
        self._warn_degenerate(n_images)
        df = CiderDF.from_counts(stats.tables["cider_df"], n_images, n=self.n, tokenize=self.tokenize, tokenizer_version=self._tok_signature)
        preds = [p for p, _ in captions]
        refs = [list(r) for _, r in captions]
        native = df._native
        scores = _core.cider_scores(preds, refs, self.flavour, self.n, self.sigma, "none", native, self.n_threads) if preds else np.zeros(0)
        value = ordered_mean(scores) if n_images else 0.0
        return CIDErScore("CIDEr-D" if self.flavour == "cider-d" else "CIDEr", value, self.signature(stats), stats, images=n_images)


@oriented("pycocoevalcap's compute_score(gts, res)", always)
def cider_score(predictions, references, **options: Any) -> CIDErScore:
    """Corpus CIDEr-D (pycocoevalcap): ``CIDEr(**options).corpus_score(predictions, references)``."""
    return CIDEr(**options).corpus_score(predictions, references)


def tokenize_batch(preds: list[str], refs: list[list[str]], tokenize: str, n_threads: int = 0) -> tuple[list[str], list[list[str]]]:
    """Captions as space-joined tokens: the COCO pipeline's PTB run (references in one run,
    hypotheses in another), or a named tokenizer (:data:`PRETOKENIZERS`)."""
    if tokenize == "none":
        return preds, refs
    if tokenize in PRETOKENIZERS:
        return _tok.pretokenize(tokenize, preds, refs, n_threads)
    flat = _core.ptb_tokenize([r for rs in refs for r in rs], True, n_threads)
    out, k = [], 0
    for rs in refs:
        out.append(flat[k : k + len(rs)])
        k += len(rs)
    return _core.ptb_tokenize(preds, True, n_threads), out
