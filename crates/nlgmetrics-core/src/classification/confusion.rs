//! Confusion counts as scikit-learn accumulates them.
//!
//! Labels arrive as codes `0..k` (the caller maps label values to their position in the
//! label list; a code outside `0..k` means "not a listed label"). Weighted sums run in
//! sample order, as `np.bincount(..., weights=...)` and scipy's COO-to-dense conversion
//! do, so float weights give scikit-learn's bits.

use crate::{Error, Result};

fn check_len(what: &str, a: usize, b: usize) -> Result<()> {
    if a != b {
        return Err(Error::LengthMismatch { what: what.into(), left: a, right: b });
    }
    Ok(())
}

#[inline]
fn code(c: i64, k: usize) -> Option<usize> {
    if c >= 0 && (c as u64) < k as u64 {
        Some(c as usize)
    } else {
        None
    }
}

/// `confusion_matrix`: a row-major k×k matrix, rows = true label, columns = predicted.
/// Samples whose true or predicted label is not listed are skipped. `weights = None`
/// counts samples; with weights the cells are float sums in sample order.
pub fn confusion_matrix(y_true: &[i64], y_pred: &[i64], weights: Option<&[f64]>, k: usize) -> Result<Vec<f64>> {
    check_len("y_true and y_pred", y_true.len(), y_pred.len())?;
    if let Some(w) = weights {
        check_len("y_true and sample_weight", y_true.len(), w.len())?;
    }
    let mut cm = vec![0.0; k * k];
    for i in 0..y_true.len() {
        if let (Some(t), Some(p)) = (code(y_true[i], k), code(y_pred[i], k)) {
            cm[t * k + p] += weights.map_or(1.0, |w| w[i]);
        }
    }
    Ok(cm)
}

/// `confusion_matrix` without weights, as exact integer counts.
pub fn confusion_counts(y_true: &[i64], y_pred: &[i64], k: usize) -> Result<Vec<u64>> {
    check_len("y_true and y_pred", y_true.len(), y_pred.len())?;
    let mut cm = vec![0u64; k * k];
    for (&t, &p) in y_true.iter().zip(y_pred) {
        if let (Some(t), Some(p)) = (code(t, k), code(p, k)) {
            cm[t * k + p] += 1;
        }
    }
    Ok(cm)
}

/// Per-label sums `(tp, pred, true)` of `multilabel_confusion_matrix` for 1-D targets.
pub fn label_sums(y_true: &[i64], y_pred: &[i64], weights: Option<&[f64]>, k: usize) -> Result<[Vec<f64>; 3]> {
    check_len("y_true and y_pred", y_true.len(), y_pred.len())?;
    if let Some(w) = weights {
        check_len("y_true and sample_weight", y_true.len(), w.len())?;
    }
    let (mut tp, mut pred, mut tru) = (vec![0.0; k], vec![0.0; k], vec![0.0; k]);
    for i in 0..y_true.len() {
        let w = weights.map_or(1.0, |w| w[i]);
        let (t, p) = (code(y_true[i], k), code(y_pred[i], k));
        if let Some(t) = t {
            tru[t] += w;
            if t_eq(t, p) {
                tp[t] += w;
            }
        }
        if let Some(p) = p {
            pred[p] += w;
        }
    }
    Ok([tp, pred, tru])
}

#[inline]
fn t_eq(t: usize, p: Option<usize>) -> bool {
    p == Some(t)
}

/// `(tp, pred, true)` of a multilabel indicator pair (row-major n×k, nonzero = 1), summed
/// over samples (per label) or, with `samplewise`, over labels (per sample: the count
/// times the sample weight, as scikit-learn's sparse `count_nonzero` computes it).
pub fn indicator_sums(
    y_true: &[u8],
    y_pred: &[u8],
    n: usize,
    k: usize,
    weights: Option<&[f64]>,
    samplewise: bool,
) -> Result<[Vec<f64>; 3]> {
    check_len("y_true and y_pred", y_true.len(), y_pred.len())?;
    check_len("indicator matrix size and n_samples * n_labels", y_true.len(), n * k)?;
    if let Some(w) = weights {
        check_len("y_true and sample_weight", n, w.len())?;
    }
    let width = if samplewise { n } else { k };
    let (mut tp, mut pred, mut tru) = (vec![0.0; width], vec![0.0; width], vec![0.0; width]);
    for i in 0..n {
        let w = weights.map_or(1.0, |w| w[i]);
        let row_t = &y_true[i * k..(i + 1) * k];
        let row_p = &y_pred[i * k..(i + 1) * k];
        if samplewise {
            let (mut a, mut b, mut c) = (0u64, 0u64, 0u64);
            for j in 0..k {
                a += (row_t[j] != 0 && row_p[j] != 0) as u64;
                b += (row_p[j] != 0) as u64;
                c += (row_t[j] != 0) as u64;
            }
            let f = |x: u64| if weights.is_some() { x as f64 * w } else { x as f64 };
            tp[i] = f(a);
            pred[i] = f(b);
            tru[i] = f(c);
        } else {
            for j in 0..k {
                if row_t[j] != 0 && row_p[j] != 0 {
                    tp[j] += w;
                }
                if row_p[j] != 0 {
                    pred[j] += w;
                }
                if row_t[j] != 0 {
                    tru[j] += w;
                }
            }
        }
    }
    Ok([tp, pred, tru])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiclass_counts() {
        let t = [0, 1, 2, 0, 1, 2, 2];
        let p = [0, 2, 1, 0, 0, 2, 2];
        let cm = confusion_counts(&t, &p, 3).unwrap();
        assert_eq!(cm, vec![2, 0, 0, 1, 0, 1, 0, 1, 2]);
        let [tp, pred, tru] = label_sums(&t, &p, None, 3).unwrap();
        assert_eq!(tp, vec![2.0, 0.0, 2.0]);
        assert_eq!(pred, vec![3.0, 1.0, 3.0]);
        assert_eq!(tru, vec![2.0, 2.0, 3.0]);
    }

    #[test]
    fn unlisted_labels_are_skipped_and_lengths_checked() {
        assert_eq!(confusion_counts(&[0, 5], &[0, 0], 2).unwrap(), vec![1, 0, 0, 0]);
        assert!(confusion_counts(&[0], &[0, 1], 2).is_err());
    }

    #[test]
    fn indicator_samplewise() {
        let t = [1, 0, 1, 0, 1, 0];
        let p = [1, 0, 0, 0, 1, 1];
        let [tp, pred, tru] = indicator_sums(&t, &p, 2, 3, None, true).unwrap();
        assert_eq!((tp, pred, tru), (vec![1.0, 1.0], vec![1.0, 2.0], vec![2.0, 1.0]));
    }
}
