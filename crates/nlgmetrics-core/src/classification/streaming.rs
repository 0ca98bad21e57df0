//! Mergeable statistics for threshold curves over streams of scores.
//!
//! - [`ScoreTable`]: exact. One row per distinct score (descending) with the positive and
//!   negative weight at that score. Tables merge by a sorted merge; memory grows with the
//!   number of distinct scores. With unit weights every count is an exact integer, so the
//!   curves, AUC and AP equal scikit-learn's bit for bit, whatever the sharding.
//! - [`Histogram`]: constant memory. Scores fall into `n_bins` equal-width bins over
//!   `[lo, hi]` (scores outside are clamped into the end bins); every bin acts as one tied
//!   score. The error against the exact values is bounded from the histogram itself:
//!   * ROC AUC: only pairs (positive, negative) in the same bin can be mis-ordered and a
//!     tie counts 1/2, so `|AUC_bin − AUC| ≤ ½ Σ_b p_b n_b / (P N)`.
//!   * AP (unit weights): in bin b, with `a` positives and `c` samples ranked above it,
//!     each positive's credited precision lies between `(a+i)/(c+n_b+i)` (all the bin's
//!     negatives first) and `(a+p_b)/(c+p_b)`; the binned value lies in the same range, so
//!     `|AP_bin − AP| ≤ Σ_b [p_b (a+p_b)/(c+p_b) − L_b] / P` where
//!     `L_b = p_b − (c+n_b−a) ln(1 + p_b/(c+n_b)) ≤ Σ_i (a+i)/(c+n_b+i)`.

use super::check_finite;
use super::curves::{from_groups, Thresholded};
use crate::parallel;
use crate::{Error, Result};
use rayon::prelude::*;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScoreTable {
    pub scores: Vec<f64>,
    pub pos: Vec<f64>,
    pub neg: Vec<f64>,
}

impl ScoreTable {
    /// A table of one batch (zero-weight samples are dropped, as scikit-learn does).
    pub fn from_batch(y: &[bool], scores: &[f64], weights: Option<&[f64]>, n_threads: usize) -> Result<Self> {
        let keep = super::curves::nonzero_weight_samples(y, scores, weights)?;
        let order = super::curves::stable_descending_order(scores, keep.as_deref(), n_threads);
        let mut t = ScoreTable::default();
        for (k, &i) in order.iter().enumerate() {
            let w = weights.map_or(1.0, |w| w[i]);
            let s = if scores[i] == 0.0 { 0.0 } else { scores[i] };
            if k == 0 || t.scores.last() != Some(&s) {
                t.scores.push(s);
                t.pos.push(0.0);
                t.neg.push(0.0);
            }
            let j = t.scores.len() - 1;
            if y[i] {
                t.pos[j] += w;
            } else {
                t.neg[j] += w;
            }
        }
        Ok(t)
    }

    pub fn check(&self) -> Result<()> {
        if self.scores.len() != self.pos.len() || self.scores.len() != self.neg.len() {
            return Err(Error::InvalidInput("score table columns differ in length".into()));
        }
        if self.scores.windows(2).any(|w| !(w[0] > w[1])) {
            return Err(Error::InvalidInput("score table scores must be strictly decreasing".into()));
        }
        Ok(())
    }

    /// The union of two tables (counts at equal scores add).
    pub fn merge(&self, other: &ScoreTable) -> ScoreTable {
        let (a, b) = (self, other);
        let mut out = ScoreTable::default();
        let (mut i, mut j) = (0, 0);
        while i < a.scores.len() || j < b.scores.len() {
            let take_a = j >= b.scores.len() || (i < a.scores.len() && a.scores[i] >= b.scores[j]);
            let take_b = i >= a.scores.len() || (j < b.scores.len() && b.scores[j] >= a.scores[i]);
            let s = if take_a { a.scores[i] } else { b.scores[j] };
            let (mut p, mut n) = (0.0, 0.0);
            if take_a {
                p += a.pos[i];
                n += a.neg[i];
                i += 1;
            }
            if take_b {
                p += b.pos[j];
                n += b.neg[j];
                j += 1;
            }
            out.scores.push(s);
            out.pos.push(p);
            out.neg.push(n);
        }
        out
    }

    pub fn curve(&self) -> Thresholded {
        from_groups(&self.scores, &self.pos, &self.neg)
    }
}

/// Equal-width bins over `[lo, hi]`; `pos[b]`, `neg[b]` are weight totals in bin `b`.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    pub lo: f64,
    pub hi: f64,
    pub pos: Vec<f64>,
    pub neg: Vec<f64>,
}

const HIST_CHUNK: usize = 1 << 20;

impl Histogram {
    pub fn new(lo: f64, hi: f64, n_bins: usize) -> Result<Self> {
        if !(lo.is_finite() && hi.is_finite() && lo < hi) {
            return Err(Error::InvalidOption(format!("histogram range needs finite lo < hi, got [{lo}, {hi}]")));
        }
        if n_bins == 0 {
            return Err(Error::InvalidOption("n_bins must be positive".into()));
        }
        Ok(Histogram { lo, hi, pos: vec![0.0; n_bins], neg: vec![0.0; n_bins] })
    }

    #[inline]
    fn bin(&self, s: f64) -> usize {
        let n = self.pos.len();
        let x = (s - self.lo) / (self.hi - self.lo) * n as f64;
        if x <= 0.0 {
            0
        } else if x >= n as f64 {
            n - 1
        } else {
            x as usize
        }
    }

    /// Add a batch. Unit-weight batches are counted in parallel with integer counts
    /// (exact, independent of `n_threads`); weighted batches in sample order.
    pub fn update(&mut self, y: &[bool], scores: &[f64], weights: Option<&[f64]>, n_threads: usize) -> Result<()> {
        if y.len() != scores.len() {
            return Err(Error::LengthMismatch { what: "y_true and y_score".into(), left: y.len(), right: scores.len() });
        }
        check_finite(scores, "y_score")?;
        match weights {
            Some(w) => {
                if w.len() != y.len() {
                    return Err(Error::LengthMismatch { what: "y_true and sample_weight".into(), left: y.len(), right: w.len() });
                }
                check_finite(w, "sample_weight")?;
                for i in 0..y.len() {
                    let b = self.bin(scores[i]);
                    if y[i] {
                        self.pos[b] += w[i];
                    } else {
                        self.neg[b] += w[i];
                    }
                }
            }
            None => {
                let n_bins = self.pos.len();
                let this = &*self;
                let count = |range: std::ops::Range<usize>| {
                    let mut c = vec![0u64; 2 * n_bins];
                    for i in range {
                        c[2 * this.bin(scores[i]) + y[i] as usize] += 1;
                    }
                    c
                };
                let chunks: Vec<std::ops::Range<usize>> =
                    (0..y.len()).step_by(HIST_CHUNK).map(|s| s..(s + HIST_CHUNK).min(y.len())).collect();
                let total = if chunks.len() <= 1 || n_threads == 1 {
                    count(0..y.len())
                } else {
                    parallel::run(n_threads, || {
                        chunks.into_par_iter().map(crate::interrupt::Watch::current().each(count)).reduce(
                            || vec![0u64; 2 * n_bins],
                            |mut a, b| {
                                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                                a
                            },
                        )
                    })
                };
                for b in 0..n_bins {
                    self.neg[b] += total[2 * b] as f64;
                    self.pos[b] += total[2 * b + 1] as f64;
                }
            }
        }
        Ok(())
    }

    pub fn merge(&self, other: &Histogram) -> Result<Histogram> {
        if self.lo != other.lo || self.hi != other.hi || self.pos.len() != other.pos.len() {
            return Err(Error::InvalidInput(format!(
                "histograms with different bins cannot merge: [{}, {}]x{} vs [{}, {}]x{}",
                self.lo,
                self.hi,
                self.pos.len(),
                other.lo,
                other.hi,
                other.pos.len()
            )));
        }
        let add = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x + y).collect();
        Ok(Histogram { lo: self.lo, hi: self.hi, pos: add(&self.pos, &other.pos), neg: add(&self.neg, &other.neg) })
    }

    /// Lower edge of bin `b`: the threshold reported for it.
    pub fn edge(&self, b: usize) -> f64 {
        self.lo + (self.hi - self.lo) * (b as f64 / self.pos.len() as f64)
    }

    /// The curve with each non-empty bin as one tied score, highest bin first.
    pub fn curve(&self) -> Thresholded {
        let bins: Vec<usize> = (0..self.pos.len()).rev().filter(|&b| self.pos[b] + self.neg[b] != 0.0).collect();
        let th: Vec<f64> = bins.iter().map(|&b| self.edge(b)).collect();
        let p: Vec<f64> = bins.iter().map(|&b| self.pos[b]).collect();
        let n: Vec<f64> = bins.iter().map(|&b| self.neg[b]).collect();
        from_groups(&th, &p, &n)
    }

    /// Bound on |binned ROC AUC − exact ROC AUC| (NaN when a class is missing).
    pub fn auc_error_bound(&self) -> f64 {
        let p: f64 = self.pos.iter().sum();
        let n: f64 = self.neg.iter().sum();
        let within: f64 = self.pos.iter().zip(&self.neg).map(|(a, b)| a * b).sum();
        0.5 * within / (p * n)
    }

    /// Bound on |binned AP − exact AP| for unit weights (NaN without positives).
    pub fn ap_error_bound(&self) -> f64 {
        let total_pos: f64 = self.pos.iter().sum();
        let (mut a, mut c, mut bound) = (0.0f64, 0.0f64, 0.0f64);
        for b in (0..self.pos.len()).rev() {
            let (p, n) = (self.pos[b], self.neg[b]);
            if p > 0.0 {
                let upper = p * (a + p) / (c + p);
                let base = c + n;
                let lower = if base == 0.0 { p } else { p - (base - a) * (p / base).ln_1p() };
                bound += (upper - lower.max(0.0)).max(0.0);
            }
            a += p;
            c += p + n;
        }
        bound / total_pos
    }
}

#[cfg(test)]
mod tests {
    use super::super::curves::binary_clf_curve;
    use super::*;

    #[test]
    fn table_equals_direct_curve_for_any_split() {
        let y: Vec<bool> = [0, 0, 1, 1, 1, 0, 1, 1].iter().map(|&v| v == 1).collect();
        let s = [0.1, 0.4, 0.35, 0.8, 0.8, 0.8, 0.05, 0.4];
        let direct = binary_clf_curve(&y, &s, None, 1).unwrap();
        for cut in 0..=y.len() {
            let a = ScoreTable::from_batch(&y[..cut], &s[..cut], None, 1).unwrap();
            let b = ScoreTable::from_batch(&y[cut..], &s[cut..], None, 1).unwrap();
            assert_eq!(a.merge(&b).curve(), direct);
            assert_eq!(b.merge(&a), a.merge(&b));
        }
    }

    #[test]
    fn histogram_bins_clamp_and_bounds() {
        let mut h = Histogram::new(0.0, 1.0, 4).unwrap();
        h.update(&[true, false, true, false], &[-3.0, 0.3, 0.99, 7.0], None, 1).unwrap();
        assert_eq!(h.pos, vec![1.0, 0.0, 0.0, 1.0]);
        assert_eq!(h.neg, vec![0.0, 1.0, 0.0, 1.0]);
        assert!((h.auc_error_bound() - 0.125).abs() < 1e-15);
        assert!(h.merge(&Histogram::new(0.0, 2.0, 4).unwrap()).is_err());
        assert!(Histogram::new(1.0, 1.0, 4).is_err());
    }
}
