"""AlpacaEval 2.0's length-controlled win rate (alpaca_eval ``metrics/glm_winrate.py``).

The GLM ``preference ~ tanh(std_delta_len) + instruction_difficulty + 1`` is fitted to the
verdicts, then the length term is set to zero and the predicted preferences are averaged.
The fit is alpaca_eval's own: scikit-learn's ``LogisticRegressionCV`` (liblinear, L1, no
intercept, 5 group folds, the verdict's probability as the sample weight of a doubled design),
so scikit-learn is needed (the ``[judge]`` extra) and the numbers equal alpaca_eval's to
1e-9 percentage points (``tests/test_judge_aggregates.py``).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from ..errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError, MissingExtraError
from .judge import _nanvar, _preference_values, _sem_pandas, win_rate

__all__ = ["length_controlled_win_rate", "LC_GLMS"]

# glm name -> whether instruction_difficulty is a term (alpaca_eval's GLM_INFO formulas)
LC_GLMS = {"length_controlled_noreg": True, "length_controlled_minimal": False}


def _numbers(values: Sequence[Any], name: str, n: int, nonnegative: bool = False) -> np.ndarray:
    if isinstance(values, (str, bytes, dict)) or not hasattr(values, "__len__"):
        raise InputTypeError(f"{name} must be a sequence of numbers, one per preference, got {type(values).__name__}")
    if len(values) != n:
        raise LengthMismatchError(f"{name} has {len(values)} values for {n} preferences")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise InvalidInputError(f"{name}[{i}] is {v!r}, not a number")
        if not math.isfinite(float(v)) or (nonnegative and v < 0):
            raise InvalidInputError(f"{name}[{i}] is {v!r}")
        out.append(v)
    return np.asarray(out, dtype=float)


def length_controlled_win_rate(
    preferences: Sequence[Any],
    model_lengths: Sequence[int],
    baseline_lengths: Sequence[int],
    instruction_difficulty: Sequence[float],
    glm: str = "length_controlled_noreg",
    fold_order: str | Sequence[int] = "stable",
) -> dict[str, float | int]:
    """alpaca_eval's ``get_length_controlled_winrate`` given the verdicts.

    ``preferences`` as for :func:`win_rate`; ``model_lengths`` and ``baseline_lengths`` are the
    outputs' lengths in characters (``len(text)``, alpaca_eval's ``str.len()``);
    ``instruction_difficulty`` is each instruction's difficulty (AlpacaEval's
    ``instruction_difficulty.csv``, which nlgmetrics does not download). Returns
    :func:`win_rate`'s keys plus ``length_controlled_winrate`` and ``lc_standard_error``.

    ``glm="length_controlled_v1"`` (AlpacaEval's default) also regularises towards the
    gamed baselines in AlpacaEval's ``df_gamed.csv``, data this function does not take.

    ``fold_order`` is how scikit-learn's ``GroupKFold`` orders the (equal-sized) verdict groups
    before dealing them to the 5 folds: ``"stable"`` as scikit-learn 1.9 and later do, or
    ``"quicksort"`` as scikit-learn 1.4-1.8 did (numpy's default argsort, whose order of equal
    keys is numpy's and the CPU's: the reference's own number varies with them too), or that
    order itself, a permutation of ``range(len(preferences))`` (``numpy.argsort`` of the group
    sizes where the reference ran). The folds decide which regularisation the CV picks.
    """
    if isinstance(fold_order, str) and fold_order not in _FOLD_ORDERS:
        raise InvalidOptionError(f"fold_order must be one of {list(_FOLD_ORDERS)} or an order of the verdicts, got {fold_order!r}")
    if glm not in LC_GLMS:
        raise InvalidOptionError(f"unknown length-controlled GLM {glm!r}; known: {sorted(LC_GLMS)}"
                                 " (length_controlled_v1 needs AlpacaEval's gamed-baseline annotations)")
    metrics = win_rate(preferences)
    target = np.asarray(_preference_values(preferences)) - 1
    n = target.size
    len_model = _numbers(model_lengths, "model_lengths", n, nonnegative=True)
    len_base = _numbers(baseline_lengths, "baseline_lengths", n, nonnegative=True)
    difficulty = _numbers(instruction_difficulty, "instruction_difficulty", n)
    delta = len_base - len_model  # output_1 (the baseline) minus output_2 (the model)
    std = float(np.sqrt(_nanvar(delta))) if n > 1 else math.nan
    if not std > 0:
        raise InvalidInputError("the length differences do not vary: the standardised length term is undefined")
    columns = [np.tanh(delta / std)] + ([difficulty] if LC_GLMS[glm] else []) + [np.ones(n)]
    x_train = np.column_stack(columns)
    x_test = x_train.copy()
    x_test[:, 0] = 0.0  # predict as if both outputs had the same length
    predicted = _fit_predict(x_train, target, x_test, fold_order)
    metrics["length_controlled_winrate"] = float(predicted.mean() * 100)
    metrics["lc_standard_error"] = _sem_pandas(predicted.tolist()) * 100
    return metrics


def _logloss_continuous(y_true, y_pred, true_prob):
    """alpaca_eval's CV score: the log loss against the verdict's probability."""
    y_true = np.where(y_true == 1, true_prob, 1 - true_prob)
    y_pred = np.clip(y_pred, 1e-15, 1 - 1e-15)
    return -np.mean(y_true * np.log(y_pred) + (1 - y_true) * np.log(1 - y_pred))


_FOLD_ORDERS = ("stable", "quicksort")


def _group_folds(n: int, fold_order, n_splits: int = 5) -> list[tuple[np.ndarray, np.ndarray]]:
    """scikit-learn's ``GroupKFold(5)`` splits of the doubled design (group i = rows i and n+i),
    computed here so the folds do not depend on the installed scikit-learn."""
    groups = np.concatenate([np.arange(n), np.arange(n)])
    per_group = np.bincount(groups)
    if isinstance(fold_order, str):
        order = (np.argsort(per_group, kind="stable") if fold_order == "stable" else np.argsort(per_group))[::-1]
    else:
        order = np.asarray(list(fold_order))
        if order.shape != (n,) or order.dtype.kind not in "iu" or not np.array_equal(np.sort(order), np.arange(n)):
            raise InvalidOptionError(f"fold_order must be a permutation of range({n})")
        order = order[::-1]
    per_fold = np.zeros(n_splits)
    group_to_fold = np.zeros(n)
    for group_index, weight in enumerate(per_group[order]):
        lightest = np.argmin(per_fold)
        per_fold[lightest] += weight
        group_to_fold[order[group_index]] = lightest
    fold_of_row = group_to_fold[groups]
    rows = np.arange(2 * n)
    return [(rows[fold_of_row != f], rows[fold_of_row == f]) for f in range(n_splits)]


def _fit_predict(x_train: np.ndarray, target: np.ndarray, x_test: np.ndarray, fold_order: str) -> np.ndarray:
    try:
        import sklearn
        from sklearn.linear_model import LogisticRegressionCV
        from sklearn.metrics import make_scorer
    except ImportError:
        raise MissingExtraError("the length-controlled win rate fits with scikit-learn: pip install 'nlgmetrics[judge]'") from None
    n = target.size
    if n < 5:
        raise InvalidInputError(f"the length-controlled GLM is cross-validated over 5 folds: it needs 5 verdicts, got {n}")
    # the doubled design: each verdict once as a win weighted p, once as a loss weighted 1 - p
    x_dup = np.vstack([x_train, x_train])
    y_dup = np.concatenate([np.ones(n, dtype=int), np.zeros(n, dtype=int)])
    true_prob = np.concatenate([target, 1 - target])
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = make_scorer(_logloss_continuous, response_method="predict_proba", greater_is_better=False)
        scorer = scorer.set_score_request(true_prob=True)
        options = dict(cv=_group_folds(n, fold_order), scoring=scorer, random_state=123, dual=False,
                       solver="liblinear", n_jobs=None, fit_intercept=False)
        import inspect

        if inspect.signature(LogisticRegressionCV).parameters["penalty"].default == "deprecated":
            options["l1_ratios"] = (1.0,)  # penalty="l1" in scikit-learn 1.8's spelling
        else:
            options["penalty"] = "l1"
        if "use_legacy_attributes" in inspect.signature(LogisticRegressionCV).parameters:
            options["use_legacy_attributes"] = True  # only coef_ is read; silences 1.8's notice
        model = LogisticRegressionCV(**options)
        model.set_fit_request(sample_weight=True)
        model.fit(x_dup, y_dup, sample_weight=true_prob, true_prob=true_prob)
    return model.predict_proba(x_test)[:, 1]
