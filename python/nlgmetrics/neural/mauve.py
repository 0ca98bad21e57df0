"""MAUVE (Pillutla et al., NeurIPS 2021; JMLR 2023) as mauve-text 0.4.0's ``compute_mauve``.

MAUVE compares two *sets* of texts: here ``predictions`` are the model's generations (P)
and ``references`` the human texts (Q); the two lists need not have the same length or be
aligned (``references`` may be a flat list of strings, or one list per prediction, which
is flattened). Each text becomes one feature vector, and then, as mauve-text does:

1. Q's and P's features are stacked (Q first), L2-normalised row by row and projected by
   a PCA (``random_state=seed + 1``; fitted on ``pca_max_data`` random rows when that is
   positive and smaller than the data) onto the fewest leading components that explain
   ``kmeans_explained_var`` of the variance;
2. the projection (float32) is quantised by faiss k-means (``num_buckets`` clusters,
   ``'auto'``: ``max(2, round(min(|P|, |Q|) / 10))``; ``kmeans_num_redo`` restarts of at
   most ``kmeans_max_iter`` iterations, ``seed + 2``) and each set becomes a histogram of
   cluster labels;
3. the divergence curve ``exp(-c · (KL(Q‖R_w), KL(P‖R_w)))`` over
   ``divergence_curve_discretization_size`` mixtures ``R_w = wP + (1-w)Q`` (``c`` =
   ``mauve_scaling_factor``), with the two extreme points, and MAUVE is the mean of the
   areas under it taken along either axis; the frontier integral, and both again on
   Krichevsky-Trofimov-smoothed histograms (``mauve_star``, ``frontier_integral_star``)
   are in the score's breakdown.

Features: from a local model directory (``model=``), as mauve-text featurizes: each
non-empty text is tokenized (``truncation=True, max_length=max_text_length``), texts are
taken ``batch_size`` at a time in order, right-padded with 0 under an attention mask, and
the feature is the last layer's hidden state at the last real token of ``AutoModel`` (a
GPT-2's base model: after the final layer norm). Empty texts are dropped, as mauve-text
drops them. Or pass features yourself: ``score_features(p_features, q_features)``.

Statistics: the features themselves (MAUVE depends on the whole sample), kept as the rows
of ``Stats.sequence`` (``[set, feature...]``, set 0 for P and 1 for Q); merging
concatenates, so shards in order give the single-pass result. Per-segment scores,
bootstrap resampling and paired tests do not apply to a distribution metric and raise
:class:`~nlgmetrics.errors.InvalidOptionError`.

Parity: ``==`` to ``mauve.compute_mauve`` given the same features, options and seed
(the same scikit-learn PCA and faiss k-means are run, then the same float64 arithmetic),
and, from texts, given the same model and ``batch_size``. faiss comes with the ``[mauve]``
extra (``pip install 'nlgmetrics[mauve]'``).
"""

from __future__ import annotations

import math
import os
from typing import Any, Sequence

import numpy as np

from .._inputs import as_texts
from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, InvalidTextError, MissingExtraError
from ..metrics.base import Metric, Score
from ..stats import Stats
from .._safe_pickle import describe
from ._models import DTYPES, pick_device, require_torch, resolve_model_dir, torch_dtype, torch_threads
from ._weights import load_pretrained


def _require_mauve_deps() -> tuple[Any, Any, Any]:
    """``(faiss, sklearn PCA, sklearn normalize)``, or a MissingExtraError naming the extra."""
    try:
        import faiss
        from sklearn.decomposition import PCA
        from sklearn.preprocessing import normalize
    except ImportError as e:
        raise MissingExtraError(f"MAUVE needs faiss-cpu and scikit-learn: pip install 'nlgmetrics[mauve]' ({e})") from None
    return faiss, PCA, normalize


def _histograms(p: np.ndarray, q: np.ndarray, num_clusters: int, pca_max_data: int, explained_variance: float,
                num_redo: int, max_iter: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    faiss, PCA, normalize = _require_mauve_deps()
    data = normalize(np.vstack([q, p]), norm="l2", axis=1)
    pca = PCA(n_components=None, whiten=False, random_state=seed + 1)
    if pca_max_data < 0 or pca_max_data >= data.shape[0]:
        pca.fit(data)
    elif 0 < pca_max_data < data.shape[0]:
        rows = np.random.RandomState(seed + 5).choice(data.shape[0], size=pca_max_data, replace=False)
        pca.fit(data[rows])
    else:
        raise InvalidOptionError(f"pca_max_data={pca_max_data} with {data.shape[0]} data points: use -1 or a positive count")
    cumulative = np.cumsum(pca.explained_variance_ratio_)
    last = np.argmax(cumulative >= explained_variance)
    data = pca.transform(data)[:, : last + 1].astype(np.float32)
    kmeans = faiss.Kmeans(data.shape[1], num_clusters, niter=max_iter, verbose=False, nredo=num_redo, update_index=True, seed=seed + 2)
    kmeans.train(data)
    _, labels = kmeans.index.search(data, 1)
    labels = labels.reshape(-1)
    q_counts = np.histogram(labels[: len(q)], bins=num_clusters, range=[0, num_clusters], density=False)[0]
    p_counts = np.histogram(labels[len(q) :], bins=num_clusters, range=[0, num_clusters], density=False)[0]
    return p_counts / p_counts.sum(), q_counts / q_counts.sum(), (p_counts + 0.5) / (p_counts + 0.5).sum(), (q_counts + 0.5) / (q_counts + 0.5).sum()


def _kl(p: np.ndarray, q: np.ndarray) -> float:
    if np.logical_and(p != 0, q == 0).any():
        return np.inf
    both = np.logical_and(p != 0, q != 0)
    return np.sum(p[both] * np.log(p[both] / q[both]))


def divergence_curve(p: np.ndarray, q: np.ndarray, mixture_weights: np.ndarray, scaling_factor: float) -> np.ndarray:
    """The points ``exp(-c · (KL(Q‖R), KL(P‖R)))`` of the mixtures, with both extremes."""
    points = [[0, np.inf]]
    for w in np.sort(mixture_weights):
        r = w * p + (1 - w) * q
        points.append([_kl(q, r), _kl(p, r)])
    points.append([np.inf, 0])
    return np.exp(-scaling_factor * np.asarray(points))


def _area(x: np.ndarray, y: np.ndarray) -> float:
    from sklearn.metrics import auc

    return auc(x, y)


def _mauve_of(curve: np.ndarray) -> float:
    x, y = curve.T
    i, j = np.argsort(x), np.argsort(y)
    return 0.5 * (_area(x[i], y[i]) + _area(y[j], x[j]))


def frontier_integral(p: np.ndarray, q: np.ndarray, scaling_factor: float = 2) -> float:
    total = 0.0
    for p1, q1 in zip(p, q):
        if p1 == 0 and q1 == 0:
            pass
        elif p1 == 0:
            total += q1 / 4
        elif q1 == 0:
            total += p1 / 4
        elif abs(p1 - q1) > 1e-8:
            t1 = p1 + q1
            t2 = p1 * q1 * (math.log(p1) - math.log(q1)) / (p1 - q1)
            total += 0.25 * t1 - 0.5 * t2
    return total * scaling_factor


class MAUVE(Metric):
    """MAUVE; see the module docstring. ``MAUVE("path/to/gpt2-large").corpus_score(generations, human_texts)``"""

    name = "mauve"
    count_fields = ("p_texts", "q_texts")
    sum_fields = ()

    def __init__(
        self,
        model: str | os.PathLike | None = None,
        *,
        num_buckets: int | str = "auto",
        pca_max_data: int = -1,
        kmeans_explained_var: float = 0.9,
        kmeans_num_redo: int = 5,
        kmeans_max_iter: int = 500,
        divergence_curve_discretization_size: int = 25,
        mauve_scaling_factor: float = 5,
        seed: int = 25,
        max_text_length: int = 1024,
        batch_size: int = 1,
        device: str | None = None,
        dtype: str = "float32",
        n_threads: int = 0,
    ):
        super().__init__(n_threads=n_threads)
        if not (num_buckets == "auto" or (isinstance(num_buckets, int) and not isinstance(num_buckets, bool) and num_buckets >= 1)):
            raise InvalidOptionError(f"num_buckets must be 'auto' or a positive integer, got {num_buckets!r}")
        for option, value, least in (("kmeans_num_redo", kmeans_num_redo, 1), ("kmeans_max_iter", kmeans_max_iter, 1),
                                     ("divergence_curve_discretization_size", divergence_curve_discretization_size, 1),
                                     ("max_text_length", max_text_length, 1), ("batch_size", batch_size, 1), ("seed", seed, 0)):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise InvalidOptionError(f"{option} must be an integer >= {least}, got {value!r}")
        if not isinstance(pca_max_data, int) or isinstance(pca_max_data, bool) or pca_max_data == 0 or pca_max_data < -1:
            raise InvalidOptionError(f"pca_max_data must be -1 (all the data) or a positive count, got {pca_max_data!r}")
        if not isinstance(kmeans_explained_var, (int, float)) or not 0 < kmeans_explained_var < 1:
            raise InvalidOptionError(f"kmeans_explained_var must be in (0, 1), got {kmeans_explained_var!r}")
        if not isinstance(mauve_scaling_factor, (int, float)) or isinstance(mauve_scaling_factor, bool) or not mauve_scaling_factor > 0:
            raise InvalidOptionError(f"mauve_scaling_factor must be positive, got {mauve_scaling_factor!r}")
        if dtype not in DTYPES:
            raise InvalidOptionError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
        if model is not None and not isinstance(model, (str, os.PathLike)):
            raise InvalidOptionError(f"MAUVE model must be a path, got {type(model).__name__}")
        self.model = None if model is None else str(model)
        self.num_buckets = num_buckets
        self.pca_max_data = pca_max_data
        self.kmeans_explained_var = kmeans_explained_var
        self.kmeans_num_redo = kmeans_num_redo
        self.kmeans_max_iter = kmeans_max_iter
        self.divergence_curve_discretization_size = divergence_curve_discretization_size
        self.mauve_scaling_factor = mauve_scaling_factor
        self.seed = seed
        self.max_text_length = max_text_length
        self.batch_size = batch_size
        self.device = device
        self.dtype = dtype

    # -- identity -------------------------------------------------------------------------
    def _signature_items(self) -> dict[str, Any]:
        return {"model": "features" if self.model is None else (os.path.basename(os.path.normpath(self.model)) or self.model),
                "buckets": self.num_buckets, "explained_var": self.kmeans_explained_var, "redo": self.kmeans_num_redo,
                "iter": self.kmeans_max_iter, "c": self.mauve_scaling_factor, "curve": self.divergence_curve_discretization_size,
                "pca_max_data": self.pca_max_data, "seed": self.seed, "max_len": self.max_text_length}

    def _abbreviations(self) -> dict[str, str]:
        return {"model": "m", "buckets": "k", "explained_var": "ev", "redo": "redo", "iter": "it", "c": "c",
                "curve": "n", "pca_max_data": "pca", "seed": "seed", "max_len": "ml"}

    def _stats_items(self) -> dict[str, Any]:
        return {"model": self.model, "max_len": self.max_text_length, "dtype": self.dtype, "batch_size": self.batch_size}

    # -- features -------------------------------------------------------------------------
    def _network(self) -> tuple[Any, Any]:
        if self.model is None:
            raise InvalidOptionError("MAUVE from texts needs model= (a local model directory; on the command line '--mauve-model PATH'), "
                                     "or pass features to score_features")
        return _load(self.model, pick_device(self.device), self.dtype)

    def features(self, texts: Sequence[str]) -> np.ndarray:
        """mauve-text's features of ``texts`` (empty texts dropped): float32, one row a text."""
        torch, _ = require_torch()
        texts = [t for t in as_texts(texts, "texts") if len(t) > 0]
        _check_unicode(texts)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        tok, model = self._network()
        ids = [tok.encode(t, return_tensors="pt", truncation=True, max_length=self.max_text_length).view(-1) for t in texts]
        if any(len(x) == 0 for x in ids):
            raise InvalidInputError("a text has no tokens under this tokenizer")
        device = next(model.parameters()).device
        out = []
        with torch_threads(self.n_threads), torch.no_grad():
            for start in range(0, len(ids), self.batch_size):
                chunk = ids[start : start + self.batch_size]
                lengths = [len(c) for c in chunk]
                padded = torch.nn.utils.rnn.pad_sequence(chunk, batch_first=True, padding_value=0).to(device)
                mask = torch.nn.utils.rnn.pad_sequence([torch.ones(n).long() for n in lengths], batch_first=True, padding_value=0).to(device)
                outs = model(input_ids=padded, attention_mask=mask, past_key_values=None, output_hidden_states=True, return_dict=True)
                last = outs.hidden_states[-1]
                out.append(torch.stack([last[i, n - 1] for i, n in enumerate(lengths)], dim=0).cpu())
        return torch.cat(out).numpy()

    # -- statistics -----------------------------------------------------------------------
    def stats_from_features(self, p_features: Any, q_features: Any) -> Stats:
        """Statistics of precomputed features (``n × d`` arrays, P = generations, Q = human)."""
        p, q = _as_features(p_features, "p_features"), _as_features(q_features, "q_features")
        if p.shape[0] and q.shape[0] and p.shape[1] != q.shape[1]:
            raise InvalidInputError(f"p_features have {p.shape[1]} dimensions, q_features {q.shape[1]}")
        n = p.shape[0] + q.shape[0]
        dtypes = {str(a.dtype): 1 for a in (p, q) if a.shape[0]}
        if not n:  # no text: the identity of merging
            return Stats(self.key, self.count_fields, (0, 0), tables={"dtype": dtypes})
        width = p.shape[1] if p.shape[0] else q.shape[1]
        # float32 features are kept as float32 (exact, half the memory), others as float64
        rows = np.zeros((n, width + 1), dtype=np.float32 if set(dtypes) == {"float32"} else np.float64)
        rows[p.shape[0] :, 0] = 1.0
        if p.shape[0]:
            rows[: p.shape[0], 1:] = p
        if q.shape[0]:
            rows[p.shape[0] :, 1:] = q
        return Stats(self.key, self.count_fields, (p.shape[0], q.shape[0]), n_segments=n, tables={"dtype": dtypes}, sequence=rows)

    def stats(self, predictions: Sequence[str], references: Any) -> Stats:  # type: ignore[override]
        """Statistics (the features) of generations ``predictions`` and human texts ``references``."""
        self._network()  # a model first, even for no text: an empty call still names the missing model
        return self.stats_from_features(self.features(predictions), self.features(_flat_texts(references)))

    def corpus_score(self, predictions: Sequence[str], references: Any) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(predictions, references))

    def score_features(self, p_features: Any, q_features: Any) -> Score:
        """MAUVE of precomputed features, as ``compute_mauve(p_features=, q_features=)``."""
        return self.score_stats(self.stats_from_features(p_features, q_features))

    def update(self, predictions: Sequence[str], references: Any) -> "MAUVE":  # type: ignore[override]
        return self._accumulate(self.stats(predictions, references))  # the locked, key-checked path

    def score_stats(self, stats: Any) -> Score:
        if not isinstance(stats, Stats):
            raise InputTypeError(f"MAUVE scores its Stats (features), got {type(stats).__name__}")
        if stats.key != self.key:
            from ..errors import IncompatibleStatsError

            raise IncompatibleStatsError(f"cannot score statistics of {stats.key!r} with {self.key!r}")
        return self._score(stats)

    def _score(self, stats: Stats) -> Score:
        rows = stats.sequence
        if rows is None and stats.n_segments:
            raise InvalidInputError("these merged statistics dropped their features (more than the 64 MiB the statistics keep "
                                    "in order): score the whole sample in one call (corpus_score or score_features)")
        if rows is None or not len(rows):
            raise InvalidInputError("MAUVE needs at least one generation and one human text")
        in_q = rows[:, 0] == 1.0
        dtypes = set(stats.tables.get("dtype", {}))
        dtype = np.dtype(dtypes.pop()) if len(dtypes) == 1 else np.float64
        p, q = rows[~in_q, 1:].astype(dtype), rows[in_q, 1:].astype(dtype)
        if not len(p) or not len(q):
            raise InvalidInputError(f"MAUVE needs at least one generation and one human text, got {len(p)} and {len(q)}")
        buckets = self.num_buckets
        if buckets == "auto":
            buckets = max(2, int(round(min(p.shape[0], q.shape[0]) / 10)))
        if buckets > p.shape[0] + q.shape[0]:
            raise InvalidInputError(f"{buckets} buckets for {p.shape[0] + q.shape[0]} texts: k-means needs at least one point a cluster")
        with _faiss_threads(self.n_threads):
            p_hist, q_hist, p_smooth, q_smooth = _histograms(p, q, buckets, self.pca_max_data, self.kmeans_explained_var,
                                                             self.kmeans_num_redo, self.kmeans_max_iter, self.seed)
        weights = np.linspace(1e-6, 1 - 1e-6, self.divergence_curve_discretization_size)
        curve = divergence_curve(p_hist, q_hist, weights, self.mauve_scaling_factor)
        score = _mauve_of(curve)
        star = _mauve_of(divergence_curve(p_smooth, q_smooth, weights, self.mauve_scaling_factor))
        return Score(self.name, score, self.signature(stats), stats, frontier_integral=frontier_integral(p_hist, q_hist),
                     mauve_star=star, frontier_integral_star=frontier_integral(p_smooth, q_smooth), num_buckets=buckets,
                     p_texts=int(p.shape[0]), q_texts=int(q.shape[0]), p_hist=p_hist, q_hist=q_hist, divergence_curve=curve)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> Any:
        raise InvalidOptionError("MAUVE compares two sets of texts: it has no per-segment statistics (no sentence scores, bootstrap or paired tests)")

    def sentence_scores(self, *args: Any, **kwargs: Any) -> np.ndarray:  # type: ignore[override]
        return self._segment_stats([], [])


def _check_unicode(texts: list[str]) -> None:
    for i, t in enumerate(texts):
        try:
            t.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidTextError(f"text {i} is not valid Unicode (a lone surrogate): the tokenizer cannot read it") from None


def _flat_texts(references: Any) -> list[str]:
    if isinstance(references, str):
        raise InputTypeError("references must be a list of texts, not one string")
    try:
        items = list(references)
    except TypeError:
        raise InputTypeError(f"references must be a list of texts, got {type(references).__name__}") from None
    flat: list[Any] = []
    for item in items:
        if isinstance(item, str):
            flat.append(item)
        elif isinstance(item, (list, tuple)):
            flat.extend(item)
        else:
            flat.append(item)
    return as_texts(flat, "references")


def _as_features(value: Any, name: str) -> np.ndarray:
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be an n x d array of numbers") from None
    if arr.ndim != 2 or arr.dtype.kind not in "fiu":
        raise InputTypeError(f"{name} must be an n x d array of numbers, got shape {arr.shape} of {arr.dtype}")
    if arr.shape[0] and not np.isfinite(arr).all():
        raise InvalidInputError(f"{name} has NaN or infinite values")
    if arr.dtype.kind in "iu":
        arr = arr.astype(np.float64)
    return arr


class _faiss_threads:
    """faiss's OpenMP threads set to ``n`` for the block (0: leave as is)."""

    def __init__(self, n: int):
        self.n = n

    def __enter__(self) -> None:
        if self.n > 0:
            import faiss

            self.before = faiss.omp_get_max_threads()
            faiss.omp_set_num_threads(self.n)

    def __exit__(self, *exc: Any) -> None:
        if self.n > 0:
            import faiss

            faiss.omp_set_num_threads(self.before)


_CACHE: dict[tuple[str, str, str, str], tuple[Any, Any]] = {}


def _load(model: str, device: str, dtype: str) -> tuple[Any, Any]:
    """(tokenizer, model) of a local directory, as mauve-text's get_tokenizer/get_model."""
    from ._content import directory_key

    directory = resolve_model_dir(model)
    key = (str(directory), directory_key(directory), device, dtype)  # the files' content: an edited model is read again
    if key not in _CACHE:
        _, transformers = require_torch()
        if len(_CACHE) >= 2:
            _CACHE.clear()
        try:
            tok = transformers.AutoTokenizer.from_pretrained(str(directory), local_files_only=True, trust_remote_code=False)
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise InvalidOptionError(f"cannot load a tokenizer from {str(directory)!r}: {describe(e)}") from None
        net = load_pretrained(transformers.AutoModel, directory, config_overrides={"pad_token_id": tok.eos_token_id}, unused=("pooler",), dtype=torch_dtype(dtype))
        _CACHE[key] = (tok, net.to(device).eval())
    return _CACHE[key]


def mauve(predictions: Sequence[str], references: Any, model: str | os.PathLike, **options: Any) -> Score:
    """MAUVE of generations ``predictions`` against human texts ``references``."""
    return MAUVE(model, **options).corpus_score(predictions, references)
