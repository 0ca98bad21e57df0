//! Threshold curves as scikit-learn 1.9 computes them (`_ranking.py`).
//!
//! `confusion_matrix_at_thresholds`: drop zero-weight samples; sort the scores with a
//! *stable descending* sort (ties keep input order: array-api-compat flips, sorts
//! stably, flips back); a threshold sits wherever the sorted score changes, plus the last
//! index; `tps = cumsum(y * w)[idx]` and `fps = 1 + idx - tps` (unweighted) or
//! `cumsum((1 - y) * w)[idx]` (weighted), each a plain float64 running sum.
//! `roc_curve` and `precision_recall_curve` post-process those three arrays.

use super::check_finite;
use super::sort::{key_score, sorted_keys, sorted_keys_labelled};
use crate::parallel;
use crate::{Error, Result};
use rayon::prelude::*;

/// Cumulative counts at each distinct threshold, highest threshold first.
#[derive(Debug, Clone, PartialEq)]
pub struct Thresholded {
    pub tps: Vec<f64>,
    pub fps: Vec<f64>,
    pub thresholds: Vec<f64>,
}

pub use super::sort::descending_key;

/// Indices of `scores` in stable descending order of score (ties by increasing index).
pub fn stable_descending_order(scores: &[f64], keep: Option<&[usize]>, n_threads: usize) -> Vec<usize> {
    if scores.len() > u32::MAX as usize {
        return wide_order(scores, keep, n_threads);
    }
    sorted_keys(scores, keep).1.into_iter().map(|i| i as usize).collect()
}

/// Fallback for more than 2^32 scores: a comparison sort of (key, index) pairs.
fn wide_order(scores: &[f64], keep: Option<&[usize]>, n_threads: usize) -> Vec<usize> {
    let mut keys: Vec<u128> = match keep {
        Some(idx) => idx.iter().map(|&i| ((descending_key(scores[i]) as u128) << 64) | i as u128).collect(),
        None => scores.iter().enumerate().map(|(i, &s)| ((descending_key(s) as u128) << 64) | i as u128).collect(),
    };
    parallel::run(n_threads, || keys.par_sort_unstable());
    keys.into_iter().map(|k| (k as u64) as usize).collect()
}

/// Checks the shapes and finiteness of a binary scoring batch; the indices of the samples
/// with non-zero weight (scikit-learn drops the others), when there are weights.
pub(crate) fn nonzero_weight_samples(y: &[bool], scores: &[f64], weights: Option<&[f64]>) -> Result<Option<Vec<usize>>> {
    if y.len() != scores.len() {
        return Err(Error::LengthMismatch { what: "y_true and y_score".into(), left: y.len(), right: scores.len() });
    }
    check_finite(scores, "y_score")?;
    if let Some(w) = weights {
        if w.len() != y.len() {
            return Err(Error::LengthMismatch { what: "y_true and sample_weight".into(), left: y.len(), right: w.len() });
        }
        check_finite(w, "sample_weight")?;
    }
    Ok(weights.map(|w| (0..w.len()).filter(|&i| w[i] != 0.0).collect()))
}

/// `confusion_matrix_at_thresholds(y_true == pos_label, y_score, sample_weight)`.
pub fn binary_clf_curve(y: &[bool], scores: &[f64], weights: Option<&[f64]>, n_threads: usize) -> Result<Thresholded> {
    let keep = nonzero_weight_samples(y, scores, weights)?;
    if weights.is_some_and(|w| !w.is_empty() && keep.as_ref().is_some_and(|k| k.is_empty())) {
        return Err(Error::InvalidInput("sample_weight must contain at least one non-zero number".into()));
    }
    if scores.len() >= 1 << 31 {
        let order = stable_descending_order(scores, keep.as_deref(), n_threads);
        return Ok(accumulate(y, scores, weights, &order, |k| f64::from_bits(descending_key(scores[order[k]]))));
    }
    let (keys, payload) = sorted_keys_labelled(scores, y, keep.as_deref());
    Ok(accumulate_keys(scores, weights, &keys, &payload))
}

/// The running sums over radix-sorted keys: ties are equal keys, thresholds are read
/// back from the keys (only a zero is looked up, to keep the sign of -0.0 as numpy does).
/// `payload[k]` is `(index << 1) | label` of the k-th sample in sorted order.
fn accumulate_keys(scores: &[f64], weights: Option<&[f64]>, keys: &[u64], payload: &[u32]) -> Thresholded {
    let n = keys.len();
    let groups = if n == 0 { 0 } else { 1 + keys.windows(2).filter(|w| w[0] != w[1]).count() };
    let mut out = Thresholded { tps: Vec::with_capacity(groups), fps: Vec::with_capacity(groups), thresholds: Vec::with_capacity(groups) };
    let (mut tp, mut fp) = (0.0f64, 0.0f64);
    for k in 0..n {
        crate::interrupt::check_every(k);
        let i = (payload[k] >> 1) as usize;
        let yf = if payload[k] & 1 == 1 { 1.0 } else { 0.0 };
        match weights {
            None => tp += yf,
            Some(w) => {
                let (a, b) = (yf * w[i], (1.0 - yf) * w[i]);
                if k == 0 {
                    tp = a;
                    fp = b;
                } else {
                    tp += a;
                    fp += b;
                }
            }
        }
        if k + 1 == n || keys[k + 1] != keys[k] {
            out.tps.push(tp);
            out.fps.push(if weights.is_none() { 1.0 + k as f64 - tp } else { fp });
            let t = key_score(keys[k]);
            out.thresholds.push(if t == 0.0 { scores[i] } else { t });
        }
    }
    out
}

/// Running sums over samples in sorted order; a threshold closes wherever the next
/// sample's `tie_key` differs (or at the end).
fn accumulate(y: &[bool], scores: &[f64], weights: Option<&[f64]>, order: &[usize], tie_key: impl Fn(usize) -> f64) -> Thresholded {
    let n = order.len();
    let mut out = Thresholded { tps: Vec::new(), fps: Vec::new(), thresholds: Vec::new() };
    if n == 0 {
        return out;
    }
    let (mut tp, mut fp) = (0.0f64, 0.0f64);
    for (k, &i) in order.iter().enumerate() {
        crate::interrupt::check_every(k);
        let yf = if y[i] { 1.0 } else { 0.0 };
        match weights {
            None => tp = if k == 0 { yf } else { tp + yf },
            Some(w) => {
                let (a, b) = (yf * w[i], (1.0 - yf) * w[i]);
                if k == 0 {
                    tp = a;
                    fp = b;
                } else {
                    tp += a;
                    fp += b;
                }
            }
        }
        let last = k + 1 == n || tie_key(k + 1).to_bits() != tie_key(k).to_bits();
        if last {
            out.tps.push(tp);
            out.fps.push(if weights.is_none() { 1.0 + k as f64 - tp } else { fp });
            out.thresholds.push(scores[i]);
        }
    }
    out
}

/// The same curve from per-threshold (positive, negative) totals, highest threshold
/// first (an exact score table or a histogram). With integer counts this is bit-identical
/// to [`binary_clf_curve`]: every partial sum is an exact integer.
pub fn from_groups(thresholds: &[f64], pos: &[f64], neg: &[f64]) -> Thresholded {
    let mut out = Thresholded {
        tps: Vec::with_capacity(pos.len()),
        fps: Vec::with_capacity(pos.len()),
        thresholds: thresholds.to_vec(),
    };
    let (mut tp, mut fp) = (0.0, 0.0);
    for k in 0..pos.len() {
        tp += pos[k];
        fp += neg[k];
        out.tps.push(tp);
        out.fps.push(fp);
    }
    out
}

/// Second differences `np.diff(a, 2)`, computed as numpy does (difference of differences).
fn second_diff_nonzero(a: &[f64], i: usize) -> bool {
    let d0 = a[i + 1] - a[i];
    let d1 = a[i + 2] - a[i + 1];
    d1 - d0 != 0.0
}

/// The curve's points with the first and last kept and an inner point `i` (1..n-1) kept
/// when `keep_inner(i)`; the curve unchanged when `drop_intermediate` is off or it is short.
fn thin<'a>(
    c: &'a Thresholded,
    drop_intermediate: bool,
    keep_inner: impl Fn(usize) -> bool,
) -> std::borrow::Cow<'a, Thresholded> {
    let n = c.tps.len();
    if !drop_intermediate || n <= 2 {
        return std::borrow::Cow::Borrowed(c);
    }
    let keep: Vec<usize> = std::iter::once(0)
        .chain((1..n - 1).filter(|&i| keep_inner(i)))
        .chain(std::iter::once(n - 1))
        .collect();
    std::borrow::Cow::Owned(Thresholded {
        tps: keep.iter().map(|&i| c.tps[i]).collect(),
        fps: keep.iter().map(|&i| c.fps[i]).collect(),
        thresholds: keep.iter().map(|&i| c.thresholds[i]).collect(),
    })
}

#[derive(Debug, Clone, PartialEq)]
pub struct RocCurve {
    pub fpr: Vec<f64>,
    pub tpr: Vec<f64>,
    pub thresholds: Vec<f64>,
    pub no_positive: bool,
    pub no_negative: bool,
}

/// `roc_curve`: optional drop of collinear points, then (0, 0) at threshold +inf.
/// fpr (tpr) is all NaN when there is no negative (positive) weight.
pub fn roc(c: &Thresholded, drop_intermediate: bool) -> RocCurve {
    let c = &*thin(c, drop_intermediate, |i| {
        second_diff_nonzero(&c.fps, i - 1) || second_diff_nonzero(&c.tps, i - 1)
    });
    let mut tps = vec![0.0];
    tps.extend_from_slice(&c.tps);
    let mut fps = vec![0.0];
    fps.extend_from_slice(&c.fps);
    let mut thresholds = vec![f64::INFINITY];
    thresholds.extend_from_slice(&c.thresholds);
    let (fl, tl) = (*fps.last().unwrap(), *tps.last().unwrap());
    let no_negative = fl <= 0.0;
    let no_positive = tl <= 0.0;
    let fpr = if no_negative { vec![f64::NAN; fps.len()] } else { fps.iter().map(|f| f / fl).collect() };
    let tpr = if no_positive { vec![f64::NAN; tps.len()] } else { tps.iter().map(|t| t / tl).collect() };
    RocCurve { fpr, tpr, thresholds, no_positive, no_negative }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PrCurve {
    pub precision: Vec<f64>,
    pub recall: Vec<f64>,
    pub thresholds: Vec<f64>,
    pub no_positive: bool,
}

/// `precision_recall_curve`: optional drop of points where tps does not change, then
/// reversed (recall decreasing) with (precision 1, recall 0) appended. Recall is all ones
/// when there is no positive (scikit-learn's convention, with a warning).
pub fn precision_recall(c: &Thresholded, drop_intermediate: bool) -> PrCurve {
    let c = &*thin(c, drop_intermediate, |j| {
        c.tps[j] - c.tps[j - 1] != 0.0 || c.tps[j + 1] - c.tps[j] != 0.0
    });
    let last = c.tps.last().copied().unwrap_or(0.0);
    let no_positive = last == 0.0;
    let mut precision: Vec<f64> = c
        .tps
        .iter()
        .zip(&c.fps)
        .rev()
        .map(|(&t, &f)| {
            let ps = t + f;
            if ps != 0.0 {
                t / ps
            } else {
                0.0
            }
        })
        .collect();
    precision.push(1.0);
    let mut recall: Vec<f64> = c.tps.iter().rev().map(|&t| if no_positive { 1.0 } else { t / last }).collect();
    recall.push(0.0);
    let thresholds = c.thresholds.iter().rev().copied().collect();
    PrCurve { precision, recall, thresholds, no_positive }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_example() -> (Vec<bool>, Vec<f64>) {
        let y = [0, 0, 1, 1, 1, 0, 1].iter().map(|&v| v == 1).collect();
        (y, vec![0.1, 0.4, 0.35, 0.8, 0.8, 0.8, 0.05])
    }

    #[test]
    fn roc_matches_reference_semantics_example() {
        let (y, s) = spec_example();
        let c = binary_clf_curve(&y, &s, None, 1).unwrap();
        let r = roc(&c, true);
        let third = 1.0 / 3.0;
        assert_eq!(r.fpr, vec![0.0, third, 2.0 * third, 2.0 * third, 1.0, 1.0]);
        assert_eq!(r.tpr, vec![0.0, 0.5, 0.5, 0.75, 0.75, 1.0]);
        assert_eq!(r.thresholds, vec![f64::INFINITY, 0.8, 0.4, 0.35, 0.1, 0.05]);
    }

    #[test]
    fn ties_merge_and_negative_zero_ties_with_zero() {
        let y = vec![true, false, true];
        let c = binary_clf_curve(&y, &[0.0, -0.0, 0.0], None, 1).unwrap();
        assert_eq!(c.tps, vec![2.0]);
        assert_eq!(c.fps, vec![1.0]);
    }

    #[test]
    fn zero_weights_are_dropped_and_nan_rejected() {
        let y = vec![true, false, true];
        let c = binary_clf_curve(&y, &[0.9, 0.5, 0.1], Some(&[1.0, 0.0, 2.0]), 1).unwrap();
        assert_eq!(c.thresholds, vec![0.9, 0.1]);
        assert_eq!(c.tps, vec![1.0, 3.0]);
        assert!(binary_clf_curve(&y, &[0.9, f64::NAN, 0.1], None, 1).is_err());
    }

    #[test]
    fn groups_equal_per_sample_curve() {
        let (y, s) = spec_example();
        let c = binary_clf_curve(&y, &s, None, 1).unwrap();
        let g = from_groups(&[0.8, 0.4, 0.35, 0.1, 0.05], &[2.0, 0.0, 1.0, 0.0, 1.0], &[1.0, 1.0, 0.0, 1.0, 0.0]);
        assert_eq!(c, g);
    }
}
