//! Precision, recall, F-beta and their averages (`precision_recall_fscore_support`).
//!
//! From per-label sums `tp`, `pred = tp + fp`, `true = tp + fn`:
//! `P = tp / pred`, `R = tp / true`, `F_β = (1 + β²) tp / (β² true + pred)` (from counts,
//! not from P and R). A zero denominator gives the `zero_division` value. `micro` sums the
//! counts first (np.sum); `macro`/`weighted`/`samples` average with `_nanaverage`: NaN
//! entries are left out; weights are the supports (`weighted`) or the sample weights
//! (`samples`); weights summing to 0 fall back to the plain mean.

use super::npsum;
use crate::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Average {
    None,
    Binary,
    Micro,
    Macro,
    Weighted,
    Samples,
}

impl Average {
    pub fn from_name(name: Option<&str>) -> Result<Self> {
        Ok(match name {
            None => Average::None,
            Some("binary") => Average::Binary,
            Some("micro") => Average::Micro,
            Some("macro") => Average::Macro,
            Some("weighted") => Average::Weighted,
            Some("samples") => Average::Samples,
            Some(other) => {
                return Err(Error::InvalidOption(format!(
                    "average must be one of None, 'binary', 'micro', 'macro', 'weighted', 'samples'; got {other:?}"
                )))
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Prf {
    pub precision: Vec<f64>,
    pub recall: Vec<f64>,
    pub fscore: Vec<f64>,
    pub support: Vec<f64>,
    /// `(P, R, F)` averaged, when an average was asked for.
    pub averaged: Option<[f64; 3]>,
    /// Which of precision / recall / F met a zero denominator (for the warning).
    pub zero_division_hit: [bool; 3],
}

fn divide(num: &[f64], den: &[f64], zero_division: f64) -> (Vec<f64>, bool) {
    let mut hit = false;
    let out = num
        .iter()
        .zip(den)
        .map(|(&a, &b)| {
            if b == 0.0 {
                hit = true;
                zero_division
            } else {
                a / b
            }
        })
        .collect();
    (out, hit)
}

/// `_nanaverage(a, weights)`.
pub fn nanaverage(a: &[f64], weights: Option<&[f64]>) -> f64 {
    if a.is_empty() || a.iter().all(|v| v.is_nan()) {
        return f64::NAN;
    }
    match weights {
        None => {
            // np.nanmean: NaNs become 0 in place, then sum / count.
            let filled: Vec<f64> = a.iter().map(|&v| if v.is_nan() { 0.0 } else { v }).collect();
            let count = a.iter().filter(|v| !v.is_nan()).count();
            npsum::sum(&filled) / count as f64
        }
        Some(w) => {
            let (mut av, mut wv) = (Vec::new(), Vec::new());
            for (&x, &y) in a.iter().zip(w) {
                if !x.is_nan() {
                    av.push(x);
                    wv.push(y);
                }
            }
            npsum::average(&av, &wv).unwrap_or_else(|| npsum::mean(&av))
        }
    }
}

/// `precision_recall_fscore_support` from per-label sums.
pub fn prf(
    tp: &[f64],
    pred: &[f64],
    truth: &[f64],
    beta: f64,
    average: Average,
    zero_division: f64,
    sample_weight: Option<&[f64]>,
) -> Result<Prf> {
    if tp.len() != pred.len() || tp.len() != truth.len() {
        return Err(Error::LengthMismatch { what: "tp, pred and true sums".into(), left: tp.len(), right: pred.len() });
    }
    if !(beta >= 0.0) {
        return Err(Error::InvalidOption(format!("beta must be >= 0, got {beta}")));
    }
    let (tp, pred, truth) = if average == Average::Micro {
        (vec![npsum::sum(tp)], vec![npsum::sum(pred)], vec![npsum::sum(truth)])
    } else {
        (tp.to_vec(), pred.to_vec(), truth.to_vec())
    };
    let beta2 = beta * beta;
    let (precision, hp) = divide(&tp, &pred, zero_division);
    let (recall, hr) = divide(&tp, &truth, zero_division);
    let (fscore, hf) = if beta.is_infinite() {
        (recall.clone(), hr)
    } else if beta == 0.0 {
        (precision.clone(), hp)
    } else {
        let num: Vec<f64> = tp.iter().map(|t| (1.0 + beta2) * t).collect();
        let den: Vec<f64> = truth.iter().zip(&pred).map(|(t, p)| beta2 * t + p).collect();
        divide(&num, &den, zero_division)
    };
    let averaged = match average {
        Average::None => None,
        _ => {
            let w: Option<&[f64]> = match average {
                Average::Weighted => Some(&truth),
                Average::Samples => sample_weight,
                _ => None,
            };
            Some([nanaverage(&precision, w), nanaverage(&recall, w), nanaverage(&fscore, w)])
        }
    };
    Ok(Prf { precision, recall, fscore, support: truth, averaged, zero_division_hit: [hp, hr, hf] })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_semantics_table() {
        let (tp, pred, tru) = ([2.0, 0.0, 2.0], [3.0, 1.0, 3.0], [2.0, 2.0, 3.0]);
        let m = prf(&tp, &pred, &tru, 1.0, Average::Macro, 0.0, None).unwrap().averaged.unwrap();
        assert!((m[0] - 0.4444444444444444).abs() < 1e-15);
        assert!((m[2] - 0.48888888888888893).abs() < 1e-15);
        let u = prf(&tp, &pred, &tru, 1.0, Average::Micro, 0.0, None).unwrap().averaged.unwrap();
        assert!((u[0] - 4.0 / 7.0).abs() < 1e-15);
    }

    #[test]
    fn zero_division_and_nan_exclusion() {
        // y_true [0,1,2], y_pred [0,0,0]
        let (tp, pred, tru) = ([1.0, 0.0, 0.0], [3.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        let one = prf(&tp, &pred, &tru, 1.0, Average::Macro, 1.0, None).unwrap().averaged.unwrap();
        assert!((one[0] - 0.7777777777777778).abs() < 1e-15);
        let nan = prf(&tp, &pred, &tru, 1.0, Average::Macro, f64::NAN, None).unwrap().averaged.unwrap();
        assert!((nan[0] - 1.0 / 3.0).abs() < 1e-15);
        assert!(nanaverage(&[f64::NAN], None).is_nan());
    }
}
