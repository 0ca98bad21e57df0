//! Classification metrics with scikit-learn 1.9's numbers.
//!
//! - [`confusion`]: confusion matrices and per-label (tp, pred, true) sums.
//! - [`prf`]: precision / recall / F-beta with `zero_division` and the averages.
//! - [`curves`]: the thresholded counts (stable descending sort, tie merging, running
//!   sums), ROC and precision-recall curves with `drop_intermediate`.
//! - [`ap`]: average precision: scikit-learn's step sum, VOC 11-point, VOC all-point,
//!   COCO 101-point.
//! - [`auc`]: trapezoid areas, binary ROC AUC with `max_fpr` (McClish correction).
//! - [`streaming`]: an exact mergeable score table and a constant-memory histogram.
//! - [`npsum`]: numpy's pairwise summation, to reproduce numpy's bits.
//! - [`sort`]: the stable descending score sort (radix on order-preserving keys), and the
//!   payload-free per-class key sort behind the unweighted ROC AUC's fast path.
//!
//! Every float operation follows scikit-learn's order (running sums where numpy uses
//! `cumsum`, pairwise sums where it uses `np.sum`), so results are bit-identical.

pub mod ap;
pub mod auc;
pub mod confusion;
pub mod curves;
pub mod npsum;
pub mod prf;
pub mod sort;
pub mod streaming;

use crate::{Error, Result};
use rayon::prelude::*;

/// NaN or infinite values are rejected with the position of the first one.
pub fn check_finite(values: &[f64], what: &str) -> Result<()> {
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(Error::InvalidInput(format!(
            "{what} must be finite: {what}[{i}] = {} (of {} values)",
            values[i],
            values.len()
        )));
    }
    Ok(())
}

/// A binary metric applied column by column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BinaryMetric {
    /// `_binary_roc_auc_score` (NaN for a column with a single class).
    RocAuc { max_fpr: Option<f64> },
    /// `average_precision_score`'s step AP.
    AveragePrecision,
}

/// One binary metric value of `(y, scores, weights)`.
pub fn binary_metric(metric: BinaryMetric, y: &[bool], scores: &[f64], weights: Option<&[f64]>, n_threads: usize) -> Result<f64> {
    match metric {
        BinaryMetric::RocAuc { max_fpr } => {
            // scikit-learn tests `len(np.unique(y_true)) != 2` on the unfiltered labels,
            // before any other check.
            let has_pos = y.iter().any(|&v| v);
            let has_neg = y.iter().any(|&v| !v);
            if !(has_pos && has_neg) {
                if y.len() != scores.len() {
                    return Err(Error::LengthMismatch { what: "y_true and y_score".into(), left: y.len(), right: scores.len() });
                }
                check_finite(scores, "y_score")?;
                return Ok(f64::NAN);
            }
            if weights.is_none() && max_fpr.is_none_or(|m| m == 1.0) {
                return auc::binary_roc_auc_unweighted(y, scores, n_threads);
            }
            auc::binary_roc_auc(&curves::binary_clf_curve(y, scores, weights, n_threads)?, max_fpr)
        }
        BinaryMetric::AveragePrecision => {
            let c = curves::binary_clf_curve(y, scores, weights, n_threads)?;
            Ok(ap::step(&curves::precision_recall(&c, false)))
        }
    }
}

/// The metric of every column of row-major `n × k` label/score matrices (in parallel
/// over columns; each column is computed exactly as alone).
pub fn column_metrics(
    metric: BinaryMetric,
    y: &[bool],
    scores: &[f64],
    n: usize,
    k: usize,
    weights: Option<&[f64]>,
    n_threads: usize,
) -> Result<Vec<f64>> {
    if y.len() != n * k || scores.len() != n * k {
        return Err(Error::InvalidInput(format!(
            "label and score matrices must both have shape ({n}, {k}); got {} and {} values",
            y.len(),
            scores.len()
        )));
    }
    let one = |j: usize| -> Result<f64> {
        let yc: Vec<bool> = (0..n).map(|i| y[i * k + j]).collect();
        let sc: Vec<f64> = (0..n).map(|i| scores[i * k + j]).collect();
        binary_metric(metric, &yc, &sc, weights, 1)
    };
    let one = crate::interrupt::Watch::current().each(one);
    crate::parallel::run(n_threads, || (0..k).into_par_iter().map(one).collect())
}

/// Hand & Till one-vs-one pair scores: for classes `a < b`, the AUC of `a` vs `b` on
/// `scores[:, a]` and of `b` vs `a` on `scores[:, b]`, averaged; plus each pair's
/// prevalence (the fraction of samples in `a` or `b`). `codes[i]` is the class index.
pub fn ovo_pairs(codes: &[usize], scores: &[f64], k: usize, n_threads: usize) -> Result<(Vec<f64>, Vec<f64>)> {
    let n = codes.len();
    if scores.len() != n * k {
        return Err(Error::InvalidInput(format!("y_score must have shape ({n}, {k})")));
    }
    let pairs: Vec<(usize, usize)> = (0..k).flat_map(|a| (a + 1..k).map(move |b| (a, b))).collect();
    let one = |&(a, b): &(usize, usize)| -> Result<(f64, f64)> {
        let idx: Vec<usize> = (0..n).filter(|&i| codes[i] == a || codes[i] == b).collect();
        let a_true: Vec<bool> = idx.iter().map(|&i| codes[i] == a).collect();
        let b_true: Vec<bool> = idx.iter().map(|&i| codes[i] == b).collect();
        let sa: Vec<f64> = idx.iter().map(|&i| scores[i * k + a]).collect();
        let sb: Vec<f64> = idx.iter().map(|&i| scores[i * k + b]).collect();
        let m = BinaryMetric::RocAuc { max_fpr: None };
        let x = binary_metric(m, &a_true, &sa, None, 1)?;
        let y = binary_metric(m, &b_true, &sb, None, 1)?;
        Ok(((x + y) / 2.0, idx.len() as f64 / n as f64))
    };
    let one = crate::interrupt::Watch::current().each(one);
    let out: Result<Vec<(f64, f64)>> = crate::parallel::run(n_threads, || pairs.par_iter().map(one).collect());
    Ok(out?.into_iter().unzip())
}
