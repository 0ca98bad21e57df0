# Stubs of the native functions added by the METEOR family (nlgmetrics._core).
import numpy as np
import numpy.typing as npt

class MeteorResources:
    """Parsed METEOR 1.5 resources: function words, prefixes, synsets, exceptions, paraphrases."""

    def __init__(
        self,
        function_words: bytes,
        prefixes: bytes,
        synsets: bytes,
        exceptions: bytes,
        paraphrases: bytes | None = None,
    ) -> None: ...
    @property
    def has_paraphrases(self) -> bool: ...

def meteor_stats(
    resources: MeteorResources,
    hyps: list[str],
    refs: list[list[str]],
    modules: list[str],
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: list[float],
    normalization: str,
    n_threads: int = 0,
) -> npt.NDArray[np.uint64]: ...
def meteor_pairwise_stats(
    resources: MeteorResources,
    cands: list[str],
    refs: list[str],
    modules: list[str],
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: list[float],
    normalization: str,
    n_threads: int = 0,
) -> npt.NDArray[np.uint64]: ...
def meteor_score(
    stats: npt.NDArray[np.uint64], alpha: float, beta: float, gamma: float, delta: float, weights: list[float]
) -> dict[str, float]: ...
def meteor_scores(
    stats: npt.NDArray[np.uint64], alpha: float, beta: float, gamma: float, delta: float, weights: list[float]
) -> npt.NDArray[np.float64]: ...
def meteor_normalize(resources: MeteorResources, texts: list[str], normalization: str) -> list[str]: ...
def meteor_stem(words: list[str]) -> list[str]: ...
def nltk_meteor_stats(
    hyps: list[list[int]],
    refs: list[list[list[int]]],
    stem_of: list[int],
    syn_of: list[list[int]],
    alpha: float,
    beta: float,
    gamma: float,
    n_threads: int = 0,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]]: ...
