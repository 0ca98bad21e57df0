"""Ratings from pairwise judge verdicts: Bradley-Terry (Arena-Hard) and online Elo (Chatbot Arena).

- :func:`online_elo`: Chatbot Arena's sequential Elo update (``compute_elo``, K=4): closed
  form, so equal (``==``) to the reference, in the two float orders it has shipped.
- :func:`bradley_terry`: arena-hard-auto's ``compute_mle_elo`` (a logistic regression of the
  verdicts, scale 400, base 10, 1000 for the anchor model) and ``get_bootstrap_result``
  (resampling the battles with numpy's legacy ``RandomState``, replayed draw for draw).
  The fit is our own Newton solve of the same likelihood to 1e-10 of the gradient, so the
  ratings equal scikit-learn's to its ``tol=1e-8`` (the tests assert 1e-4 Elo points).
- :func:`predict_win_rate`, :func:`arena_hard_leaderboard`: the win rates against the
  baseline that Arena-Hard reports, with their 95% bootstrap intervals.

A battle is ``(model_a, model_b, winner)`` or a mapping with those keys; ``winner`` is
``"model_a"``, ``"model_b"``, ``"tie"`` or ``"tie (bothbad)"``.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ..errors import EmptyInputError, InputTypeError, InvalidInputError, InvalidOptionError

__all__ = ["online_elo", "bradley_terry", "predict_win_rate", "arena_hard_leaderboard", "ELO_FLAVOURS"]

_WINNERS = {"model_a": 1.0, "model_b": 0.0, "tie": 0.5, "tie (bothbad)": 0.5}
ELO_FLAVOURS = ("chatbot-arena-notebook", "fastchat-rating-systems")
ARENA_HARD_DEFAULT_BASELINE = "gpt-4-0314"


def _battles(battles: Iterable[Any]) -> list[tuple[str, str, str]]:
    if isinstance(battles, (str, bytes, Mapping)):
        raise InputTypeError("battles must be a sequence of (model_a, model_b, winner) or of mappings with those keys")
    if not hasattr(battles, "__iter__"):
        raise InputTypeError(f"battles must be a sequence of (model_a, model_b, winner), got {type(battles).__name__}")
    rows = []
    for i, battle in enumerate(battles):
        if isinstance(battle, Mapping):
            try:
                row = (battle["model_a"], battle["model_b"], battle["winner"])
            except KeyError as e:
                raise InvalidInputError(f"battle {i} has no {e.args[0]!r}") from None
        elif isinstance(battle, (tuple, list)) and len(battle) == 3:
            row = tuple(battle)
        else:
            raise InputTypeError(f"battle {i} is {battle!r}: expected (model_a, model_b, winner)")
        model_a, model_b, winner = row
        if not isinstance(model_a, str) or not isinstance(model_b, str):
            raise InputTypeError(f"battle {i}: model names must be strings, got {model_a!r} and {model_b!r}")
        if winner not in _WINNERS:
            raise InvalidInputError(
                f"battle {i}: winner {winner!r} is not one of {sorted(_WINNERS)}"
            )
        if model_a == model_b:
            raise InvalidInputError(f"battle {i}: {model_a!r} plays itself")
        rows.append((model_a, model_b, winner))
    if not rows:
        raise EmptyInputError("no battles to rate")
    return rows


def _check_scale(scale: float, base: float) -> None:
    if not (isinstance(scale, (int, float)) and math.isfinite(scale) and scale > 0):
        raise InvalidOptionError(f"scale must be a positive number, got {scale!r}")
    if not (isinstance(base, (int, float)) and math.isfinite(base) and base > 1):
        raise InvalidOptionError(f"base must be a number above 1, got {base!r}")



def _power(base: float, exponent: float) -> float:
    """``base ** exponent`` as the references compute it, with Python's OverflowError read as
    the infinity it stands for: far-apart ratings give a chance of exactly 0 or 1, not a crash."""
    try:
        return base**exponent
    except OverflowError:
        return math.inf


def _exp(x: float) -> float:
    """``math.exp`` with overflow read as infinity (see ``_power``)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def online_elo(
    battles: Iterable[Any],
    k: float = 4,
    scale: float = 400,
    base: float = 10,
    init_rating: float = 1000,
    flavour: str = "chatbot-arena-notebook",
) -> dict[str, float]:
    """Chatbot Arena's online Elo: each battle, in order, moves both ratings by
    ``k * (outcome - expected)``.

    ``flavour="chatbot-arena-notebook"`` is the ``compute_elo`` of the Chatbot Arena notebook
    and of FastChat's ``elo_analysis.py`` before 2024 (``base ** (diff / scale)``, separate
    expectations for A and B); ``"fastchat-rating-systems"`` is FastChat's current
    ``rating_systems.compute_elo`` (``exp(alpha * diff)``, one update applied to both)."""
    if flavour not in ELO_FLAVOURS:
        raise InvalidOptionError(f"unknown Elo flavour {flavour!r}; known: {list(ELO_FLAVOURS)}")
    _check_scale(scale, base)
    rows = _battles(battles)
    rating: dict[str, float] = {}
    if flavour == "chatbot-arena-notebook":
        for model_a, model_b, winner in rows:
            ra = rating.setdefault(model_a, init_rating)
            rb = rating.setdefault(model_b, init_rating)
            ea = 1 / (1 + _power(base, (rb - ra) / scale))
            eb = 1 / (1 + _power(base, (ra - rb) / scale))
            sa = {"model_a": 1, "model_b": 0}.get(winner, 0.5)
            rating[model_a] += k * (sa - ea)
            rating[model_b] += k * (1 - sa - eb)
        return rating
    alpha = math.log(base) / scale
    for model_a, model_b, winner in rows:
        ra = rating.setdefault(model_a, float(init_rating))
        rb = rating.setdefault(model_b, float(init_rating))
        prob = 1.0 / (1.0 + _exp(alpha * (rb - ra)))
        update = k * (_WINNERS[winner] - prob)
        rating[model_a] += update
        rating[model_b] -= update
    return rating


def _encode(rows: Sequence[tuple[str, str, str]]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Models in first-appearance order (``pd.concat([model_a, model_b]).unique()``) and each
    battle as (a index, b index, winner code: 0 model_a, 1 model_b, 2 tie)."""
    models = list(dict.fromkeys([r[0] for r in rows] + [r[1] for r in rows]))
    index = {m: i for i, m in enumerate(models)}
    a = np.fromiter((index[r[0]] for r in rows), dtype=np.intp, count=len(rows))
    b = np.fromiter((index[r[1]] for r in rows), dtype=np.intp, count=len(rows))
    code = np.fromiter(({"model_a": 0, "model_b": 1}.get(r[2], 2) for r in rows), dtype=np.intp, count=len(rows))
    return models, a, b, code


def _win_counts(a: np.ndarray, b: np.ndarray, code: np.ndarray, n_models: int) -> np.ndarray:
    """wins[i, j]: observations where i beats j in arena-hard's doubled design (a win counts
    twice, a tie once for each side)."""
    wins = np.zeros((n_models, n_models))
    np.add.at(wins, (a[code == 0], b[code == 0]), 2.0)
    np.add.at(wins, (b[code == 1], a[code == 1]), 2.0)
    ties = code == 2
    np.add.at(wins, (a[ties], b[ties]), 1.0)
    np.add.at(wins, (b[ties], a[ties]), 1.0)
    return wins


def _check_connected(wins: np.ndarray, models: Sequence[str]) -> None:
    """The maximum-likelihood ratings exist only when every model both beats and loses to
    the rest through some chain of verdicts (the win graph is strongly connected)."""
    n = len(models)
    for graph, missing in ((wins > 0, "lose"), ((wins > 0).T, "win")):
        seen = {0}
        stack = [0]
        while stack:
            i = stack.pop()
            for j in np.nonzero(graph[i])[0]:
                if int(j) not in seen:
                    seen.add(int(j))
                    stack.append(int(j))
        if len(seen) < n:
            unreached = [models[i] for i in range(n) if i not in seen]
            raise InvalidInputError(
                "the Bradley-Terry ratings are unbounded: "
                f"{unreached[:3]} never {missing} against the others "
                "(a model that wins, or loses, every battle has no finite rating)"
            )


def _fit_log_strengths(wins: np.ndarray) -> np.ndarray:
    """The natural-log strengths (summing to 0, as scikit-learn's lbfgs from zero leaves
    them) maximising sum_ij wins[i,j] * log sigmoid(theta_i - theta_j): damped Newton."""
    n = wins.shape[0]
    theta = np.zeros(n)
    games = wins + wins.T

    def loss(t: np.ndarray) -> float:
        diff = t[:, None] - t[None, :]
        return float(np.sum(wins * np.logaddexp(0.0, -diff)))

    current = loss(theta)
    scale = max(1.0, float(wins.sum()))
    for _ in range(200):
        p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        gradient = -(wins * (1 - p)).sum(axis=1) + (wins.T * p).sum(axis=1)
        if np.max(np.abs(gradient)) <= 1e-10 * scale:
            break
        weight = games * p * (1 - p)
        hessian = np.diag(weight.sum(axis=1)) - weight
        step = np.linalg.solve(hessian + 1.0 / n, -gradient)  # +1/n: the all-ones direction is free
        size = 1.0
        while size > 1e-12:
            trial = theta + size * step
            value = loss(trial)
            if value <= current:
                break
            size /= 2
        theta, current = trial, value
    return theta - theta.mean()


def _mle_ratings(models, a, b, code, scale, base, init_rating, baseline) -> dict[str, float]:
    """compute_mle_elo on the battles (a, b, code); a model in no battle is left out, as the
    reference's design matrix leaves it out of a resample."""
    wins = _win_counts(a, b, code, len(models))
    present = np.nonzero((wins + wins.T).sum(axis=1) > 0)[0]
    names = [models[i] for i in present]
    wins = wins[np.ix_(present, present)]
    _check_connected(wins, names)
    theta = _fit_log_strengths(wins)
    ratings = scale * (theta / math.log(base)) + init_rating
    if baseline is not None and baseline in names:
        ratings = ratings + (1000 - ratings[names.index(baseline)])
    return {m: float(r) for m, r in zip(names, ratings)}


def bradley_terry(
    battles: Iterable[Any],
    baseline: str | None = ARENA_HARD_DEFAULT_BASELINE,
    rounds: int = 0,
    seed: int = 42,
    scale: float = 400,
    base: float = 10,
    init_rating: float = 1000,
) -> dict[str, Any]:
    """Arena-Hard's Bradley-Terry ratings (``compute_mle_elo``): ``{"ratings": {model: rating}}``,
    the baseline at 1000 when it is among the models (otherwise the ratings average
    ``init_rating``). With ``rounds > 0``, also ``get_bootstrap_result``'s resamples
    (``"bootstrap"``, one dict per round, a model absent from a resample is NaN) and their
    2.5th / 97.5th percentiles (``"lower"``, ``"upper"``) as ``show_result.py`` reports them;
    ``seed`` seeds ``numpy.random.RandomState`` as arena-hard's ``np.random.seed(42)`` does."""
    _check_scale(scale, base)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise InvalidOptionError(f"rounds must be a non-negative integer, got {rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise InvalidOptionError(f"seed must be an integer in [0, 2**32) (numpy.random.RandomState's), got {seed!r}")
    rows = _battles(battles)
    if baseline is not None and not isinstance(baseline, str):
        raise InputTypeError(f"baseline must be a model name, got {baseline!r}")
    models, a, b, code = _encode(rows)
    result: dict[str, Any] = {"ratings": _mle_ratings(models, a, b, code, scale, base, init_rating, baseline)}
    if rounds:
        rng = np.random.RandomState(seed)
        samples = []
        for r in range(rounds):
            # pandas' DataFrame.sample(frac=1.0, replace=True) draws RandomState.choice(n, n)
            picks = rng.choice(len(rows), size=len(rows), replace=True)
            try:
                fitted = _mle_ratings(models, a[picks], b[picks], code[picks], scale, base, init_rating, baseline)
            except InvalidInputError as e:
                raise InvalidInputError(f"bootstrap round {r}: {e}") from None
            samples.append({m: fitted.get(m, math.nan) for m in models})
        result["bootstrap"] = samples
        result["lower"] = {m: float(np.percentile([s[m] for s in samples], 2.5)) for m in models}
        result["upper"] = {m: float(np.percentile([s[m] for s in samples], 97.5)) for m in models}
    return result


def predict_win_rate(ratings: Mapping[str, float], scale: float = 400, base: float = 10) -> dict[str, dict[str, float]]:
    """``p[a][b]``: the chance that ``a`` beats ``b`` under the ratings, as arena-hard's
    ``predict_win_rate`` computes it (the same float operations, so ``==``); NaN on the diagonal."""
    _check_scale(scale, base)
    if not isinstance(ratings, Mapping):
        raise InputTypeError(f"ratings must be a mapping of model name to rating, got {type(ratings).__name__}")
    if not all(isinstance(name, str) for name in ratings):
        raise InputTypeError("ratings' keys must be model names (strings)")
    names = sorted(ratings)
    for name in names:
        value = ratings[name]
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) or math.isnan(value):
            raise InvalidInputError(f"rating of {name!r} is {value!r}, not a number")
    position = {n: i for i, n in enumerate(names)}
    wins: dict[str, dict[str, float]] = {a: {} for a in names}
    for a in names:
        for b in names:
            if a == b:
                wins[a][b] = math.nan
            elif position[a] > position[b]:  # the reference's later write is ea(a, b)
                wins[a][b] = 1 / (1 + _power(base, (ratings[b] - ratings[a]) / scale))
            else:  # written last as 1 - ea(b, a)
                wins[a][b] = 1 - 1 / (1 + _power(base, (ratings[a] - ratings[b]) / scale))
    return wins


def arena_hard_leaderboard(
    battles: Iterable[Any],
    baseline: str = ARENA_HARD_DEFAULT_BASELINE,
    rounds: int = 100,
    seed: int = 42,
) -> dict[str, dict[str, float]]:
    """Arena-Hard's leaderboard (``show_result.py`` without ``--show-elo``): per model the win
    rate against ``baseline`` in percent, rounded to 2 decimals, from the fitted rating
    (``score``) and from the 2.5th / 97.5th bootstrap percentiles (``lower``, ``upper``)."""
    result = bradley_terry(battles, baseline=baseline, rounds=rounds, seed=seed)
    if baseline not in result["ratings"]:
        raise InvalidInputError(f"the baseline {baseline!r} is in no battle; models: {sorted(result['ratings'])[:5]}")
    board: dict[str, dict[str, float]] = {m: {} for m in result["ratings"]}
    for column in ("ratings", "lower", "upper") if rounds else ("ratings",):
        chances = predict_win_rate(result[column])
        for model in board:
            p = chances[model][baseline]
            board[model]["score" if column == "ratings" else column] = (
                50.0 if math.isnan(p) else float(np.round(p * 100, 2))
            )
    return board
