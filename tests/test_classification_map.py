"""mAP conventions against independent ports of their definitions, plus hand-checked
values. The ports below follow the original programs line by line (numpy):
``voc_ap`` of the PASCAL VOC devkit's Python port (``voc_eval.py``) and the precision
accumulation of pycocotools ``COCOeval.accumulate`` / ``summarize``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nlgmetrics.classification as C


def voc_ap(rec, prec, use_07_metric):
    if use_07_metric:
        ap = 0.0
        for t in np.arange(0.0, 1.1, 0.1):
            if np.sum(rec >= t) == 0:
                p = 0
            else:
                p = np.max(prec[rec >= t])
            ap = ap + p / 11.0
        return ap
    mrec = np.concatenate(([0.0], rec, [1.0]))
    mpre = np.concatenate(([0.0], prec, [0.0]))
    for i in range(mpre.size - 1, 0, -1):
        mpre[i - 1] = np.maximum(mpre[i - 1], mpre[i])
    i = np.where(mrec[1:] != mrec[:-1])[0]
    return np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1])


def voc_class_ap(y, s, use_07_metric):
    order = np.argsort(-s, kind="mergesort")
    tp = y[order].astype(float)
    fp = 1.0 - tp
    npos = y.sum()
    fp, tp = np.cumsum(fp), np.cumsum(tp)
    rec = tp / float(npos)
    prec = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
    return voc_ap(rec, prec, use_07_metric)


def coco_precision(y, s):
    """One class, one IoU threshold, one area range: the R=101 precision vector."""
    recThrs = np.linspace(0.0, 1.00, int(np.round((1.00 - 0.0) / 0.01)) + 1, endpoint=True)
    R = len(recThrs)
    inds = np.argsort(-s, kind="mergesort")
    tps = y[inds] == 1
    fps = np.logical_not(tps)
    npig = int(y.sum())
    tp_sum = np.cumsum(tps).astype(dtype=float)
    fp_sum = np.cumsum(fps).astype(dtype=float)
    tp, fp = np.array(tp_sum), np.array(fp_sum)
    nd = len(tp)
    rc = tp / npig
    pr = tp / (fp + tp + np.spacing(1))
    q = np.zeros((R,))
    pr = pr.tolist()
    q = q.tolist()
    for i in range(nd - 1, 0, -1):
        if pr[i] > pr[i - 1]:
            pr[i - 1] = pr[i]
    inds = np.searchsorted(rc, recThrs, side="left")
    try:
        for ri, pi in enumerate(inds):
            q[ri] = pr[pi]
    except IndexError:
        pass
    return np.array(q)


def coco_map(Y, S):
    K = Y.shape[1]
    precision = -np.ones((101, K))
    for k in range(K):
        if Y[:, k].sum() == 0:
            continue
        precision[:, k] = coco_precision(Y[:, k], S[:, k])
    return np.mean(precision[precision > -1])


@st.composite
def ranked(draw):
    k = draw(st.integers(1, 6))
    n = draw(st.integers(1, 60))
    Y = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=n, max_size=n)))
    S = np.array(draw(st.lists(st.lists(st.sampled_from([0.05, 0.2, 0.3, 0.5, 0.51, 0.8, 0.99]) | st.floats(0, 1), min_size=k, max_size=k), min_size=n, max_size=n)))
    return Y, S


@settings(max_examples=80, deadline=None)
@given(ranked())
def test_conventions_match_their_programs(data):
    Y, S = data
    valid = Y.sum(axis=0) > 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for conv, use07 in (("voc11", True), ("voc", False)):
            r = C.mean_average_precision(Y, S, convention=conv)
            ref = [voc_class_ap(Y[:, k], S[:, k], use07) for k in range(Y.shape[1]) if valid[k]]
            np.testing.assert_array_equal(r.per_class[valid], ref)
            assert (np.isnan(r.score) and not valid.any()) or r.score == np.mean(ref)
        r = C.mean_average_precision(Y, S, convention="coco")
        if valid.any():
            assert r.score == coco_map(Y, S)
            for k in np.flatnonzero(valid):
                assert r.per_class[k] == np.mean(coco_precision(Y[:, k], S[:, k]))
        else:
            assert np.isnan(r.score)


def test_hand_checked_values():
    # ranking + - + (scores .9 .8 .7): recall .5 .5 1, precision 1 .5 2/3
    y, s = np.array([1, 0, 1]), np.array([0.9, 0.8, 0.7])
    Y, S = y[:, None], s[:, None]
    assert C.mean_average_precision(Y, S, convention="voc").score == pytest.approx(0.5 + 0.5 * 2 / 3, abs=1e-15)
    assert C.mean_average_precision(Y, S, convention="voc11").score == pytest.approx((6 + 5 * 2 / 3) / 11, abs=1e-15)
    assert C.mean_average_precision(Y, S, convention="coco").score == pytest.approx((51 + 50 * 2 / 3) / 101, abs=1e-12)
    assert C.mean_average_precision(Y, S, convention="sklearn").score == pytest.approx(0.5 + 0.5 * 2 / 3, abs=1e-15)
    # reference-semantics §13 example: step AP 0.62619 vs interpolated values
    y = np.array([0, 0, 1, 1, 1, 0, 1])
    s = np.array([0.1, 0.4, 0.35, 0.8, 0.8, 0.8, 0.05])
    assert C.mean_average_precision(y, s).score == pytest.approx(0.6261904761904762, abs=1e-15)
    # one by one (ties in input order): + + - - + - +  -> precisions at hits 1, 1, 3/5, 4/7 (already monotone)
    assert C.mean_average_precision(y, s, convention="voc").score == pytest.approx(0.25 * (1 + 1 + 3 / 5 + 4 / 7), abs=1e-15)


def test_signature_names_the_convention():
    r = C.mean_average_precision([[1, 0], [0, 1]], [[0.9, 0.1], [0.2, 0.8]], convention="coco")
    assert "convention:coco" in str(r.signature)
    with pytest.raises(ValueError):
        C.mean_average_precision([[1, 0]], [[0.9, 0.1]], convention="voc12")
