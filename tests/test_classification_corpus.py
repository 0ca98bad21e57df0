"""Parity on real data: the out-of-fold predictions in ../shared/corpora/classification_sklearn
(against the committed scikit-learn 1.9.1 values and a live scikit-learn run), and a
logistic regression fitted here on a data set scikit-learn ships."""

from __future__ import annotations

import csv
import json
import warnings

import numpy as np
import pytest

import nlgmetrics.classification as C

sk = pytest.importorskip("sklearn.metrics")


def load(corpora, name):
    with open(corpora / "classification_sklearn" / f"{name}_oof.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    y = np.array([int(r["y_true"]) for r in rows])
    cols = [c for c in rows[0] if c not in ("index", "y_true")]
    X = np.array([[float(r[c]) for c in cols] for r in rows])
    return y, X, cols


@pytest.fixture(scope="module")
def expected(corpora):
    return json.loads((corpora / "classification_sklearn" / "expected_sklearn.json").read_text())


def test_breast_cancer_binary(corpora, expected):
    e = expected["breast_cancer"]
    y, X, cols = load(corpora, "breast_cancer")
    p = X[:, cols.index("p_logreg")]
    assert C.roc_auc_score(y, p) == e["roc_auc"]
    assert C.average_precision_score(y, p) == e["average_precision"]
    pred = (p >= 0.5).astype(int)
    assert C.accuracy_score(y, pred) == e["accuracy@0.5"]
    assert C.precision_score(y, pred) == e["precision@0.5"]
    assert C.recall_score(y, pred) == e["recall@0.5"]
    assert C.f1_score(y, pred) == e["f1@0.5"]
    assert C.confusion_matrix(y, pred).tolist() == e["confusion_matrix@0.5"]


def test_breast_cancer_tie_heavy_curves(corpora, expected):
    e = expected["breast_cancer"]["weak_score_for_label0"]
    y, X, cols = load(corpora, "breast_cancer")
    s = X[:, cols.index("score_mean_radius_rounded")]
    y0 = (y == 0).astype(int)
    assert len(np.unique(s)) == e["n_distinct_scores"]
    assert C.roc_auc_score(y0, s) == e["roc_auc"]
    assert C.average_precision_score(y0, s) == e["average_precision"]
    fpr, tpr, thr = C.roc_curve(y0, s)
    assert fpr.tolist() == e["roc_curve"]["fpr"]
    assert tpr.tolist() == e["roc_curve"]["tpr"]
    assert thr.tolist() == e["roc_curve"]["thresholds"]
    prec, rec, thr = C.precision_recall_curve(y0, s)
    assert prec.tolist() == e["pr_curve"]["precision"]
    assert rec.tolist() == e["pr_curve"]["recall"]
    assert thr.tolist() == e["pr_curve"]["thresholds"]
    # the exact streaming table gives the same numbers from shards
    m = C.ExactCurves()
    for part in np.array_split(np.arange(len(y0)), 7):
        m.update(y0[part], s[part])
    r = m.compute()
    assert (r.score, r.average_precision) == (e["roc_auc"], e["average_precision"])
    assert [a.tolist() for a in m.roc_curve()] == [e["roc_curve"]["fpr"], e["roc_curve"]["tpr"], e["roc_curve"]["thresholds"]]


@pytest.mark.parametrize("name", ["iris", "wine", "digits"])
def test_multiclass_sets(corpora, expected, name):
    e = expected[name]
    y, P, _ = load(corpora, name)
    pred = P.argmax(axis=1)
    assert C.accuracy_score(y, pred) == e["accuracy"]
    assert C.f1_score(y, pred, average="macro") == e["macro_f1"]
    assert C.f1_score(y, pred, average="micro") == e["micro_f1"]
    assert C.f1_score(y, pred, average="weighted") == e["weighted_f1"]
    assert C.precision_score(y, pred, average="macro") == e["macro_precision"]
    assert C.recall_score(y, pred, average="macro") == e["macro_recall"]
    assert C.confusion_matrix(y, pred).tolist() == e["confusion_matrix"]
    assert C.roc_auc_score(y, P, multi_class="ovr") == e["roc_auc_ovr_macro"]
    assert C.roc_auc_score(y, P, multi_class="ovo") == e["roc_auc_ovo_macro"]
    # and everything else against a live scikit-learn run
    for average in (None, "micro", "macro", "weighted"):
        ref = sk.roc_auc_score(y, P, multi_class="ovr", average=average)
        np.testing.assert_array_equal(C.roc_auc_score(y, P, multi_class="ovr", average=average), ref)
        np.testing.assert_array_equal(C.average_precision_score(y, P, average=average), sk.average_precision_score(y, P, average=average))
        ref = sk.precision_recall_fscore_support(y, pred, average=average)
        ours = C.precision_recall_fscore_support(y, pred, average=average)
        for a, b in zip(ref, ours):
            if a is None:
                assert b is None
            else:
                np.testing.assert_array_equal(a, b)
    assert C.roc_auc_score(y, P, multi_class="ovo", average="weighted") == sk.roc_auc_score(y, P, multi_class="ovo", average="weighted")
    assert C.balanced_accuracy_score(y, pred) == sk.balanced_accuracy_score(y, pred)
    for k in range(P.shape[1]):
        for a, b in zip(C.roc_curve(y, P[:, k], pos_label=k), sk.roc_curve(y, P[:, k], pos_label=k)):
            np.testing.assert_array_equal(a, b)
        for a, b in zip(C.precision_recall_curve(y, P[:, k], pos_label=k), sk.precision_recall_curve(y, P[:, k], pos_label=k)):
            np.testing.assert_array_equal(a, b)


def test_logistic_regression_fitted_here():
    from sklearn.datasets import load_breast_cancer, load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(Xtr, ytr)
    p = model.predict_proba(Xte)[:, 1]
    d = model.decision_function(Xte)
    w = np.linspace(0.5, 2.0, len(yte))
    for s in (p, d):
        assert C.roc_auc_score(yte, s) == sk.roc_auc_score(yte, s)
        assert C.roc_auc_score(yte, s, sample_weight=w, max_fpr=0.2) == sk.roc_auc_score(yte, s, sample_weight=w, max_fpr=0.2)
        assert C.average_precision_score(yte, s, sample_weight=w) == sk.average_precision_score(yte, s, sample_weight=w)
    X, y = load_digits(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(Xtr, ytr)
    P = model.predict_proba(Xte)
    pred = model.predict(Xte)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for mc in ("ovr", "ovo"):
            assert C.roc_auc_score(yte, P, multi_class=mc) == sk.roc_auc_score(yte, P, multi_class=mc)
    assert C.f1_score(yte, pred, average="weighted") == sk.f1_score(yte, pred, average="weighted")
    assert C.mean_average_precision(yte, P).score == sk.average_precision_score(yte, P, average="macro")
