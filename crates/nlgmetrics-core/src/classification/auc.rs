//! Areas under curves as scikit-learn computes them.
//!
//! `auc(x, y)` is `direction * scipy.integrate.trapezoid(y, x)`, where the trapezoid rule
//! is `np.sum(diff(x) * (y[1:] + y[:-1]) / 2.0)` (pairwise summation). The binary ROC AUC
//! integrates the ROC curve *after* `drop_intermediate`. With `max_fpr`, the curve is cut
//! at `max_fpr` (a point interpolated with `np.interp`) and the partial area gets the
//! McClish correction `0.5 * (1 + (pAUC - max_fpr²/2) / (max_fpr - max_fpr²/2))`
//! (McClish, Medical Decision Making 9(3), 1989).

use super::curves::{roc, Thresholded};
use super::npsum;
use crate::{Error, Result};

/// `scipy.integrate.trapezoid(y, x)`.
pub fn trapezoid(y: &[f64], x: &[f64]) -> f64 {
    let terms: Vec<f64> = (0..x.len().saturating_sub(1)).map(|i| (x[i + 1] - x[i]) * (y[i + 1] + y[i]) / 2.0).collect();
    npsum::sum(&terms)
}

/// `sklearn.metrics.auc(x, y)`: x must be monotone (either direction).
pub fn auc(x: &[f64], y: &[f64]) -> Result<f64> {
    if x.len() != y.len() {
        return Err(Error::LengthMismatch { what: "x and y".into(), left: x.len(), right: y.len() });
    }
    if x.len() < 2 {
        return Err(Error::InvalidInput(format!(
            "at least 2 points are needed to compute the area under a curve, got {}",
            x.len()
        )));
    }
    let dx: Vec<f64> = x.windows(2).map(|w| w[1] - w[0]).collect();
    let mut direction = 1.0;
    if dx.iter().any(|&d| d < 0.0) {
        if dx.iter().all(|&d| d <= 0.0) {
            direction = -1.0;
        } else {
            return Err(Error::InvalidInput("x is neither increasing nor decreasing".into()));
        }
    }
    Ok(direction * trapezoid(y, x))
}

/// `np.interp(x, [x0, x1], [y0, y1])` for `x0 <= x <= x1` (numpy's `arr_interp`).
fn interp2(x: f64, x0: f64, x1: f64, y0: f64, y1: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < x0 {
        return y0;
    }
    if x > x1 {
        return y1;
    }
    if x == x1 {
        return y1;
    }
    if x == x0 {
        return y0;
    }
    let slope = (y1 - y0) / (x1 - x0);
    let mut r = slope * (x - x0) + y0;
    if r.is_nan() {
        r = slope * (x - x1) + y1;
        if r.is_nan() && y0 == y1 {
            r = y0;
        }
    }
    r
}

/// `_binary_roc_auc_score` given the thresholded counts (the caller has already returned
/// NaN when `y_true` holds a single class).
pub fn binary_roc_auc(c: &Thresholded, max_fpr: Option<f64>) -> Result<f64> {
    let r = roc(c, true);
    let (fpr, tpr) = (r.fpr, r.tpr);
    let max_fpr = match max_fpr {
        None => return auc(&fpr, &tpr).or(Ok(f64::NAN)),
        Some(m) if m == 1.0 => return auc(&fpr, &tpr).or(Ok(f64::NAN)),
        Some(m) if !(m > 0.0 && m <= 1.0) => {
            return Err(Error::InvalidOption(format!("max_fpr must be in (0, 1], got {m}")))
        }
        Some(m) => m,
    };
    // No weight on the negative class: the FPR axis is 0/0, so there is no curve to cut at
    // max_fpr (scikit-learn fails in `auc` on a single point). No weight on the positive
    // class leaves a cut but NaN heights: NaN, as scikit-learn returns.
    if fpr.iter().any(|v| v.is_nan()) {
        return Err(Error::InvalidInput(format!(
            "partial ROC AUC (max_fpr={max_fpr}) is undefined: the negative class has no weight, so the false positive rate is 0/0"
        )));
    }
    if tpr.iter().any(|v| v.is_nan()) {
        return Ok(f64::NAN);
    }
    // np.searchsorted(fpr, max_fpr, "right")
    let stop = fpr.partition_point(|&f| f <= max_fpr);
    if stop == 0 || stop >= fpr.len() {
        return Ok(f64::NAN);
    }
    let y_cut = interp2(max_fpr, fpr[stop - 1], fpr[stop], tpr[stop - 1], tpr[stop]);
    let mut tp: Vec<f64> = tpr[..stop].to_vec();
    tp.push(y_cut);
    let mut fp: Vec<f64> = fpr[..stop].to_vec();
    fp.push(max_fpr);
    let partial = auc(&fp, &tp)?;
    let min_area = 0.5 * (max_fpr * max_fpr);
    let max_area = max_fpr;
    Ok(0.5 * (1.0 + (partial - min_area) / (max_area - min_area)))
}

/// The binary ROC AUC of unweighted samples, equal to
/// `binary_roc_auc(&binary_clf_curve(y, scores, None, _), None)` bit for bit.
///
/// Unweighted, a threshold's `tps` and `fps` are the numbers of positive and negative
/// samples scoring at least it, and the area needs neither thresholds nor sample order:
/// the positives' and the negatives' score keys are sorted apart (8-byte keys, no index
/// payload, [`class_keys_sorted`](super::sort::class_keys_sorted)), then one merge walk
/// over both yields every distinct threshold's cumulative counts and keeps the points
/// `drop_intermediate` keeps (its second differences, exact on integer counts, are
/// taken on the integers), as two u32 counts each. The trapezoid terms are then fed to
/// numpy's pairwise summation as a stream.
pub fn binary_roc_auc_unweighted(y: &[bool], scores: &[f64], n_threads: usize) -> Result<f64> {
    super::curves::nonzero_weight_samples(y, scores, None)?;
    if y.len() >= u32::MAX as usize {
        return binary_roc_auc(&super::curves::binary_clf_curve(y, scores, None, n_threads)?, None);
    }
    let [mut neg, mut pos] = super::sort::class_keys_sorted(y, scores, n_threads);
    let (fl, tl) = (neg.len() as f64, pos.len() as f64);
    if !(fl > 0.0 && tl > 0.0) {
        return Ok(f64::NAN); // fpr or tpr is 0/0 everywhere
    }
    // a finite score's key is never u64::MAX (that is a NaN's): it ends both runs
    neg.push(u64::MAX);
    pos.push(u64::MAX);
    let kept = roc_points(&pos, &neg);
    // auc(fpr, tpr): fpr never decreases here, so the direction is 1
    let point = |p: (u32, u32)| (f64::from(p.0) / fl, f64::from(p.1) / tl);
    let mut a = point(kept[0]);
    let mut t = 0;
    let mut term = || {
        t += 1;
        let b = point(kept[t]);
        let v = (b.0 - a.0) * (b.1 + a.1) / 2.0;
        a = b;
        v
    };
    Ok(npsum::sum_stream(kept.len() - 1, &mut term))
}

/// The points `(fps, tps)` of `roc_curve(drop_intermediate=True)` before the division
/// by the totals: (0, 0), then the thresholds' cumulative counts (highest threshold
/// first) where either curve bends, the first and the last always. `pos` and `neg` are
/// sorted and end with the sentinel `u64::MAX`.
fn roc_points(pos: &[u64], neg: &[u64]) -> Vec<(u32, u32)> {
    let mut kept: Vec<(u32, u32)> = Vec::with_capacity(pos.len() + neg.len());
    kept.push((0, 0));
    let (mut i, mut j) = (0usize, 0usize);
    // the last three groups' counts (fps, tps)
    let mut window = [(0i64, 0i64); 3];
    let mut groups = 0usize;
    let bends = |a: i64, b: i64, c: i64| (c - b) - (b - a) != 0;
    loop {
        crate::interrupt::check_every(groups);
        let k = pos[i].min(neg[j]);
        if k == u64::MAX {
            break;
        }
        // one step without branches (a tie of two samples is rare in real scores)
        i += usize::from(pos[i] == k);
        j += usize::from(neg[j] == k);
        while pos[i] == k {
            i += 1;
        }
        while neg[j] == k {
            j += 1;
        }
        let g = (j as i64, i as i64);
        window = [window[1], window[2], g];
        groups += 1;
        if groups == 1 {
            kept.push((g.0 as u32, g.1 as u32));
        } else if groups >= 3 {
            // the middle of the window is an inner point: kept where a curve bends
            let [p, q, r] = window;
            if bends(p.0, q.0, r.0) || bends(p.1, q.1, r.1) {
                kept.push((q.0 as u32, q.1 as u32));
            }
        }
    }
    if groups >= 2 {
        kept.push((window[2].0 as u32, window[2].1 as u32));
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::super::curves::binary_clf_curve;
    use super::*;

    #[test]
    fn auc_of_spec_example_and_mcclish() {
        let y: Vec<bool> = [0, 0, 1, 1, 1, 0, 1].iter().map(|&v| v == 1).collect();
        let s = [0.1, 0.4, 0.35, 0.8, 0.8, 0.8, 0.05];
        let c = binary_clf_curve(&y, &s, None, 1).unwrap();
        let a = binary_roc_auc(&c, None).unwrap();
        assert!((a - 0.5).abs() < 1e-15, "{a}");
        let p = binary_roc_auc(&c, Some(0.5)).unwrap();
        assert!((p - 0.5555555555555556).abs() < 1e-12, "{p}");
    }

    #[test]
    fn unweighted_fast_path_equals_the_curve() {
        let mut state = 4242u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in [2usize, 3, 10, 257, 5000, 70_000] {
            for kind in 0..4 {
                let y: Vec<bool> = (0..n).map(|i| i % 3 == 0 || next() % 4 == 0).collect();
                let s: Vec<f64> = (0..n)
                    .map(|_| match kind {
                        0 => (next() % 5) as f64 - 2.0,
                        1 => [0.0, -0.0, 1.0, -1.0][(next() % 4) as usize],
                        2 => f64::from_bits(next() >> 2) * if next() % 2 == 0 { 1.0 } else { -1.0 },
                        _ => (next() >> 11) as f64 / (1u64 << 53) as f64,
                    })
                    .collect();
                let want = binary_roc_auc(&binary_clf_curve(&y, &s, None, 1).unwrap(), None).unwrap();
                for threads in [1, 2] {
                    let got = binary_roc_auc_unweighted(&y, &s, threads).unwrap();
                    assert_eq!(got.to_bits(), want.to_bits(), "n={n} kind={kind}");
                }
            }
        }
        assert!(binary_roc_auc_unweighted(&[true], &[0.0, 1.0], 1).is_err());
        assert!(binary_roc_auc_unweighted(&[true, false], &[f64::NAN, 1.0], 1).is_err());
    }

    #[test]
    fn auc_direction_and_errors() {
        assert_eq!(auc(&[1.0, 0.0], &[1.0, 1.0]).unwrap(), 1.0);
        assert!(auc(&[0.0, 1.0, 0.5], &[1.0, 1.0, 1.0]).is_err());
        assert!(auc(&[0.0], &[1.0]).is_err());
    }

    #[test]
    fn partial_auc_without_negative_weight_is_an_error_and_without_positive_weight_nan() {
        let y = [false, false, true];
        let s = [0.0, 0.0, 0.0];
        let no_negatives = binary_clf_curve(&y, &s, Some(&[0.0, 0.0, 1.0]), 1).unwrap();
        assert!(binary_roc_auc(&no_negatives, Some(0.5)).is_err());
        assert!(binary_roc_auc(&no_negatives, None).unwrap().is_nan());
        let no_positives = binary_clf_curve(&y, &[0.1, 0.2, 0.3], Some(&[1.0, 1.0, 0.0]), 1).unwrap();
        assert!(binary_roc_auc(&no_positives, Some(0.5)).unwrap().is_nan());
    }
}
