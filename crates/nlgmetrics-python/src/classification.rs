//! Bindings of `nlgmetrics_core::classification`: borrow the numpy buffers, release the
//! GIL, call the core, return numpy arrays. Label encoding and input validation happen
//! in `nlgmetrics.classification` before these are called.

use crate::convert::{detached, matrix, opt_slice, vector, vectors3, F64s};
use nlgmetrics_core::classification::{
    self as cls, ap, auc, confusion, curves, npsum, prf as prf_mod,
    streaming::{Histogram, ScoreTable},
    BinaryMetric,
};
use nlgmetrics_core::Error;
use numpy::{PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

type Bools<'py> = PyReadonlyArray1<'py, bool>;
type Floats<'py> = PyReadonlyArray1<'py, f64>;

/// Labels, scores and optional weights of a binary problem as slices.
fn binary_inputs<'a>(y: &'a Bools<'_>, scores: &'a Floats<'_>, weights: &'a Option<Floats<'_>>) -> PyResult<(&'a [bool], &'a [f64], Option<&'a [f64]>)> {
    Ok((y.as_slice()?, scores.as_slice()?, opt_slice(weights)?))
}

/// Grouped counts `(thresholds, pos, neg)` as slices.
fn group_inputs<'a>(thresholds: &'a Floats<'_>, pos: &'a Floats<'_>, neg: &'a Floats<'_>) -> PyResult<(&'a [f64], &'a [f64], &'a [f64])> {
    Ok((thresholds.as_slice()?, pos.as_slice()?, neg.as_slice()?))
}

/// An owned score table from three arrays.
fn score_table(scores: &Floats<'_>, pos: &Floats<'_>, neg: &Floats<'_>) -> PyResult<ScoreTable> {
    Ok(ScoreTable { scores: scores.as_slice()?.to_vec(), pos: pos.as_slice()?.to_vec(), neg: neg.as_slice()?.to_vec() })
}

fn metric(name: &str, max_fpr: Option<f64>) -> Result<BinaryMetric, Error> {
    match name {
        "roc_auc" => Ok(BinaryMetric::RocAuc { max_fpr }),
        "average_precision" => Ok(BinaryMetric::AveragePrecision),
        other => Err(Error::InvalidOption(format!("unknown binary metric {other:?}"))),
    }
}

/// `(fps, tps, thresholds)` of `confusion_matrix_at_thresholds`.
#[pyfunction]
#[pyo3(signature = (y, scores, weights=None, n_threads=0))]
fn clf_curve<'py>(
    py: Python<'py>,
    y: PyReadonlyArray1<'py, bool>,
    scores: PyReadonlyArray1<'py, f64>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    n_threads: usize,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>)> {
    let (y, s, w) = binary_inputs(&y, &scores, &weights)?;
    let c = detached(py, || curves::binary_clf_curve(y, s, w, n_threads))?;
    Ok(vectors3(py, [c.fps, c.tps, c.thresholds]))
}

fn groups(thresholds: &[f64], pos: &[f64], neg: &[f64]) -> Result<curves::Thresholded, Error> {
    let t = ScoreTable { scores: thresholds.to_vec(), pos: pos.to_vec(), neg: neg.to_vec() };
    t.check()?;
    Ok(t.curve())
}

fn roc_out<'py>(py: Python<'py>, r: curves::RocCurve) -> (F64s<'py>, F64s<'py>, F64s<'py>, bool, bool) {
    (vector(py, r.fpr), vector(py, r.tpr), vector(py, r.thresholds), r.no_positive, r.no_negative)
}

fn pr_out<'py>(py: Python<'py>, r: curves::PrCurve) -> (F64s<'py>, F64s<'py>, F64s<'py>, bool) {
    (vector(py, r.precision), vector(py, r.recall), vector(py, r.thresholds), r.no_positive)
}

/// `roc_curve`: `(fpr, tpr, thresholds, no_positive, no_negative)`.
#[pyfunction]
#[pyo3(signature = (y, scores, weights=None, drop_intermediate=true, n_threads=0))]
fn roc_curve<'py>(
    py: Python<'py>,
    y: PyReadonlyArray1<'py, bool>,
    scores: PyReadonlyArray1<'py, f64>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    drop_intermediate: bool,
    n_threads: usize,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>, bool, bool)> {
    let (y, s, w) = binary_inputs(&y, &scores, &weights)?;
    let r = detached(py, || Ok(curves::roc(&curves::binary_clf_curve(y, s, w, n_threads)?, drop_intermediate)))?;
    Ok(roc_out(py, r))
}

/// `precision_recall_curve`: `(precision, recall, thresholds, no_positive)`.
#[pyfunction]
#[pyo3(signature = (y, scores, weights=None, drop_intermediate=false, n_threads=0))]
fn pr_curve<'py>(
    py: Python<'py>,
    y: PyReadonlyArray1<'py, bool>,
    scores: PyReadonlyArray1<'py, f64>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    drop_intermediate: bool,
    n_threads: usize,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>, bool)> {
    let (y, s, w) = binary_inputs(&y, &scores, &weights)?;
    let r = detached(py, || {
        Ok(curves::precision_recall(&curves::binary_clf_curve(y, s, w, n_threads)?, drop_intermediate))
    })?;
    Ok(pr_out(py, r))
}

/// `roc_auc` (with `max_fpr`) or `average_precision` of one binary problem.
#[pyfunction]
#[pyo3(signature = (name, y, scores, weights=None, max_fpr=None, n_threads=0))]
fn binary_metric<'py>(
    py: Python<'py>,
    name: &str,
    y: PyReadonlyArray1<'py, bool>,
    scores: PyReadonlyArray1<'py, f64>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    max_fpr: Option<f64>,
    n_threads: usize,
) -> PyResult<f64> {
    let (y, s, w) = binary_inputs(&y, &scores, &weights)?;
    detached(py, || cls::binary_metric(metric(name, max_fpr)?, y, s, w, n_threads))
}

/// The binary metric of every column of (n, k) label and score matrices.
#[pyfunction]
#[pyo3(signature = (name, y, scores, weights=None, max_fpr=None, n_threads=0))]
fn column_metrics<'py>(
    py: Python<'py>,
    name: &str,
    y: PyReadonlyArray2<'py, bool>,
    scores: PyReadonlyArray2<'py, f64>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    max_fpr: Option<f64>,
    n_threads: usize,
) -> PyResult<F64s<'py>> {
    let shape = scores.shape().to_vec();
    let (ys, ss, w) = (y.as_slice()?, scores.as_slice()?, opt_slice(&weights)?);
    let out = detached(py, || cls::column_metrics(metric(name, max_fpr)?, ys, ss, shape[0], shape[1], w, n_threads))?;
    Ok(vector(py, out))
}

/// Hand & Till pair scores and prevalences for codes `0..k` (k = columns of `scores`).
#[pyfunction]
#[pyo3(signature = (codes, scores, n_threads=0))]
fn ovo_pairs<'py>(
    py: Python<'py>,
    codes: PyReadonlyArray1<'py, i64>,
    scores: PyReadonlyArray2<'py, f64>,
    n_threads: usize,
) -> PyResult<(F64s<'py>, F64s<'py>)> {
    let k = scores.shape()[1];
    let (c, s) = (codes.as_slice()?, scores.as_slice()?);
    let (a, b) = detached(py, || {
        let codes: Vec<usize> = c
            .iter()
            .map(|&v| if v >= 0 && (v as usize) < k { Ok(v as usize) } else { Err(Error::InvalidInput(format!("class code {v} out of range 0..{k}"))) })
            .collect::<Result<_, _>>()?;
        cls::ovo_pairs(&codes, s, k, n_threads)
    })?;
    Ok((vector(py, a), vector(py, b)))
}

/// Confusion matrix of label codes: exact u64 counts without weights.
#[pyfunction]
fn confusion_counts<'py>(py: Python<'py>, y_true: PyReadonlyArray1<'py, i64>, y_pred: PyReadonlyArray1<'py, i64>, k: usize) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let (t, p) = (y_true.as_slice()?, y_pred.as_slice()?);
    let cm = detached(py, || confusion::confusion_counts(t, p, k))?;
    matrix(py, cm, k, k)
}

/// Confusion matrix of label codes with float sample weights (summed in sample order).
#[pyfunction]
fn confusion_weighted<'py>(
    py: Python<'py>,
    y_true: PyReadonlyArray1<'py, i64>,
    y_pred: PyReadonlyArray1<'py, i64>,
    weights: PyReadonlyArray1<'py, f64>,
    k: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (t, p, w) = (y_true.as_slice()?, y_pred.as_slice()?, weights.as_slice()?);
    let cm = detached(py, || confusion::confusion_matrix(t, p, Some(w), k))?;
    matrix(py, cm, k, k)
}

/// Per-label `(tp, pred, true)` sums of label codes.
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, k, weights=None))]
fn label_sums<'py>(
    py: Python<'py>,
    y_true: PyReadonlyArray1<'py, i64>,
    y_pred: PyReadonlyArray1<'py, i64>,
    k: usize,
    weights: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>)> {
    let (t, p, w) = (y_true.as_slice()?, y_pred.as_slice()?, opt_slice(&weights)?);
    Ok(vectors3(py, detached(py, || confusion::label_sums(t, p, w, k))?))
}

/// `(tp, pred, true)` of multilabel indicator matrices, per label or per sample.
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, weights=None, samplewise=false))]
fn indicator_sums<'py>(
    py: Python<'py>,
    y_true: PyReadonlyArray2<'py, u8>,
    y_pred: PyReadonlyArray2<'py, u8>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    samplewise: bool,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>)> {
    let (n, k) = (y_true.shape()[0], y_true.shape()[1]);
    if y_pred.shape() != y_true.shape() {
        return Err(crate::convert::to_py_err(
            py,
            Error::InvalidInput(format!("y_true has shape {:?} but y_pred has shape {:?}", y_true.shape(), y_pred.shape())),
        ));
    }
    let (t, p, w) = (y_true.as_slice()?, y_pred.as_slice()?, opt_slice(&weights)?);
    Ok(vectors3(py, detached(py, || confusion::indicator_sums(t, p, n, k, w, samplewise))?))
}

/// Precision, recall, F-beta (per label and averaged) from per-label sums.
#[pyfunction]
#[pyo3(signature = (tp, pred, truth, beta, average, zero_division, sample_weight=None))]
#[allow(clippy::too_many_arguments)]
fn prf<'py>(
    py: Python<'py>,
    tp: PyReadonlyArray1<'py, f64>,
    pred: PyReadonlyArray1<'py, f64>,
    truth: PyReadonlyArray1<'py, f64>,
    beta: f64,
    average: Option<&str>,
    zero_division: f64,
    sample_weight: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (a, b, c, w) = (tp.as_slice()?, pred.as_slice()?, truth.as_slice()?, opt_slice(&sample_weight)?);
    let r = detached(py, || prf_mod::prf(a, b, c, beta, prf_mod::Average::from_name(average)?, zero_division, w))?;
    let [zp, zr, zf] = r.zero_division_hit;
    Ok(crate::py_dict!(py,
        "precision" => vector(py, r.precision),
        "recall" => vector(py, r.recall),
        "fscore" => vector(py, r.fscore),
        "support" => vector(py, r.support),
        "averaged" => r.averaged.map(|v| (v[0], v[1], v[2])),
        "zero_division_hit" => (zp, zr, zf),
    ))
}

/// numpy's pairwise `np.sum` (exposed for tests of bit parity).
#[pyfunction]
fn np_sum(a: PyReadonlyArray1<'_, f64>) -> PyResult<f64> {
    Ok(npsum::sum(a.as_slice()?))
}

/// AP of one class in a ranked convention: `voc11` / `voc` give `[AP]`, `coco` the 101
/// interpolated precisions; NaN (or an empty array for coco) without positives.
#[pyfunction]
#[pyo3(signature = (convention, y, scores, n_threads=0))]
fn ranked_ap<'py>(
    py: Python<'py>,
    convention: &str,
    y: PyReadonlyArray1<'py, bool>,
    scores: PyReadonlyArray1<'py, f64>,
    n_threads: usize,
) -> PyResult<F64s<'py>> {
    let (y, s) = (y.as_slice()?, scores.as_slice()?);
    let out = detached(py, || {
        if y.len() != s.len() {
            return Err(Error::LengthMismatch { what: "y_true and y_score".into(), left: y.len(), right: s.len() });
        }
        cls::check_finite(s, "y_score")?;
        let order = curves::stable_descending_order(s, None, n_threads);
        let (tps, fps) = ap::ranked_counts(y, &order);
        let npos = tps.last().copied().unwrap_or(0.0);
        if npos == 0.0 {
            return Ok(if convention == "coco" { vec![] } else { vec![f64::NAN] });
        }
        Ok(match convention {
            "voc11" => vec![ap::voc11(&tps, &fps, npos)],
            "voc" => vec![ap::voc_all_point(&tps, &fps, npos)],
            "coco" => ap::coco_precisions(&tps, &fps, npos),
            other => return Err(Error::InvalidOption(format!("unknown AP convention {other:?}"))),
        })
    })?;
    Ok(vector(py, out))
}

/// Exact score table of one batch: `(scores descending, pos, neg)`.
#[pyfunction]
#[pyo3(signature = (y, scores, weights=None, n_threads=0))]
fn table_from_batch<'py>(
    py: Python<'py>,
    y: PyReadonlyArray1<'py, bool>,
    scores: PyReadonlyArray1<'py, f64>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    n_threads: usize,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>)> {
    let (y, s, w) = binary_inputs(&y, &scores, &weights)?;
    let t = detached(py, || ScoreTable::from_batch(y, s, w, n_threads))?;
    Ok(vectors3(py, [t.scores, t.pos, t.neg]))
}

/// Merge two score tables.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn table_merge<'py>(
    py: Python<'py>,
    s1: PyReadonlyArray1<'py, f64>,
    p1: PyReadonlyArray1<'py, f64>,
    n1: PyReadonlyArray1<'py, f64>,
    s2: PyReadonlyArray1<'py, f64>,
    p2: PyReadonlyArray1<'py, f64>,
    n2: PyReadonlyArray1<'py, f64>,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>)> {
    let (a, b) = (score_table(&s1, &p1, &n1)?, score_table(&s2, &p2, &n2)?);
    let t = detached(py, || {
        a.check()?;
        b.check()?;
        Ok(a.merge(&b))
    })?;
    Ok(vectors3(py, [t.scores, t.pos, t.neg]))
}

/// ROC curve of grouped counts (thresholds descending).
#[pyfunction]
#[pyo3(signature = (thresholds, pos, neg, drop_intermediate=true))]
fn groups_roc<'py>(
    py: Python<'py>,
    thresholds: PyReadonlyArray1<'py, f64>,
    pos: PyReadonlyArray1<'py, f64>,
    neg: PyReadonlyArray1<'py, f64>,
    drop_intermediate: bool,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>, bool, bool)> {
    let (t, p, n) = group_inputs(&thresholds, &pos, &neg)?;
    let r = detached(py, || Ok(curves::roc(&groups(t, p, n)?, drop_intermediate)))?;
    Ok(roc_out(py, r))
}

/// Precision-recall curve of grouped counts.
#[pyfunction]
#[pyo3(signature = (thresholds, pos, neg, drop_intermediate=false))]
fn groups_pr<'py>(
    py: Python<'py>,
    thresholds: PyReadonlyArray1<'py, f64>,
    pos: PyReadonlyArray1<'py, f64>,
    neg: PyReadonlyArray1<'py, f64>,
    drop_intermediate: bool,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>, bool)> {
    let (t, p, n) = group_inputs(&thresholds, &pos, &neg)?;
    let r = detached(py, || Ok(curves::precision_recall(&groups(t, p, n)?, drop_intermediate)))?;
    Ok(pr_out(py, r))
}

/// `(roc_auc, average_precision)` of grouped counts (roc_auc NaN with a single class).
#[pyfunction]
#[pyo3(signature = (thresholds, pos, neg, max_fpr=None))]
fn groups_scores<'py>(
    py: Python<'py>,
    thresholds: PyReadonlyArray1<'py, f64>,
    pos: PyReadonlyArray1<'py, f64>,
    neg: PyReadonlyArray1<'py, f64>,
    max_fpr: Option<f64>,
) -> PyResult<(f64, f64)> {
    let (t, p, n) = group_inputs(&thresholds, &pos, &neg)?;
    detached(py, || {
        let c = groups(t, p, n)?;
        let has_pos = p.iter().any(|&v| v != 0.0);
        let has_neg = n.iter().any(|&v| v != 0.0);
        let roc_auc = if has_pos && has_neg { auc::binary_roc_auc(&c, max_fpr)? } else { f64::NAN };
        Ok((roc_auc, ap::step(&curves::precision_recall(&c, false))))
    })
}

/// Counts of one batch in equal-width bins: `(pos, neg)` arrays of length `n_bins`.
#[pyfunction]
#[pyo3(signature = (lo, hi, n_bins, y, scores, weights=None, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn hist_counts<'py>(
    py: Python<'py>,
    lo: f64,
    hi: f64,
    n_bins: usize,
    y: PyReadonlyArray1<'py, bool>,
    scores: PyReadonlyArray1<'py, f64>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    n_threads: usize,
) -> PyResult<(F64s<'py>, F64s<'py>)> {
    let (y, s, w) = binary_inputs(&y, &scores, &weights)?;
    let h = detached(py, || {
        let mut h = Histogram::new(lo, hi, n_bins)?;
        h.update(y, s, w, n_threads)?;
        Ok(h)
    })?;
    Ok((vector(py, h.pos), vector(py, h.neg)))
}

/// Grouped counts of a histogram (non-empty bins, highest first, lower edges as
/// thresholds) and its error bounds `(auc_bound, ap_bound)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn hist_groups<'py>(
    py: Python<'py>,
    lo: f64,
    hi: f64,
    pos: PyReadonlyArray1<'py, f64>,
    neg: PyReadonlyArray1<'py, f64>,
) -> PyResult<(F64s<'py>, F64s<'py>, F64s<'py>, f64, f64)> {
    let (p, n) = (pos.as_slice()?.to_vec(), neg.as_slice()?.to_vec());
    let (t, gp, gn, b1, b2) = detached(py, || {
        if p.len() != n.len() {
            return Err(Error::LengthMismatch { what: "histogram pos and neg".into(), left: p.len(), right: n.len() });
        }
        let mut h = Histogram::new(lo, hi, p.len().max(1))?;
        h.pos = p;
        h.neg = n;
        let bins: Vec<usize> = (0..h.pos.len()).rev().filter(|&b| h.pos[b] + h.neg[b] != 0.0).collect();
        let t = bins.iter().map(|&b| h.edge(b)).collect();
        let gp = bins.iter().map(|&b| h.pos[b]).collect();
        let gn = bins.iter().map(|&b| h.neg[b]).collect();
        Ok((t, gp, gn, h.auc_error_bound(), h.ap_error_bound()))
    })?;
    Ok((vector(py, t), vector(py, gp), vector(py, gn), b1, b2))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(clf_curve, m)?)?;
    m.add_function(wrap_pyfunction!(roc_curve, m)?)?;
    m.add_function(wrap_pyfunction!(pr_curve, m)?)?;
    m.add_function(wrap_pyfunction!(binary_metric, m)?)?;
    m.add_function(wrap_pyfunction!(column_metrics, m)?)?;
    m.add_function(wrap_pyfunction!(ovo_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(confusion_counts, m)?)?;
    m.add_function(wrap_pyfunction!(confusion_weighted, m)?)?;
    m.add_function(wrap_pyfunction!(label_sums, m)?)?;
    m.add_function(wrap_pyfunction!(indicator_sums, m)?)?;
    m.add_function(wrap_pyfunction!(prf, m)?)?;
    m.add_function(wrap_pyfunction!(np_sum, m)?)?;
    m.add_function(wrap_pyfunction!(ranked_ap, m)?)?;
    m.add_function(wrap_pyfunction!(table_from_batch, m)?)?;
    m.add_function(wrap_pyfunction!(table_merge, m)?)?;
    m.add_function(wrap_pyfunction!(groups_roc, m)?)?;
    m.add_function(wrap_pyfunction!(groups_pr, m)?)?;
    m.add_function(wrap_pyfunction!(groups_scores, m)?)?;
    m.add_function(wrap_pyfunction!(hist_counts, m)?)?;
    m.add_function(wrap_pyfunction!(hist_groups, m)?)?;
    Ok(())
}
