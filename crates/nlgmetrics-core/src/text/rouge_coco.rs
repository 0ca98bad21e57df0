//! ROUGE-L as pycocoevalcap 1.2 computes it for captions (`rouge/rouge.py`).
//!
//! Tokens are `text.split(" ")` (⚠ a single space: doubled spaces give empty tokens,
//! which match each other). For each reference, `lcs` is the LCS length;
//! `P = max_j lcs_j/|cand|` and `R = max_j lcs_j/|ref_j|` are maximised independently
//! (they may come from different references), and
//! `score = (1+β²)·P·R / (R + β²·P)` with `β = 1.2`, or 0 if P or R is 0.
//! The corpus score is the mean of the per-image scores.
//!
//! Segment statistics (f64): `[P, R, score]`.

use crate::error::{Error, Result};
use crate::parallel::map_rows;
use crate::text::rouge_lcs::lcs_len;
use rustc_hash::FxHashMap;

pub const WIDTH: usize = 3;

#[derive(Default)]
pub struct Scratch {
    ids: FxHashMap<String, u32>,
    row: Vec<u32>,
}

fn ids(text: &str, vocab: &mut FxHashMap<String, u32>) -> Vec<u32> {
    text.split(' ')
        .map(|t| {
            let next = vocab.len() as u32;
            *vocab.entry(t.to_string()).or_insert(next)
        })
        .collect()
}

pub fn score_from(p: f64, r: f64, beta: f64) -> f64 {
    if p != 0.0 && r != 0.0 {
        let b2 = beta.powf(2.0);
        ((1.0 + b2) * p * r) / (r + b2 * p)
    } else {
        0.0
    }
}

pub fn segment_stats<S: AsRef<str>>(cand: &str, refs: &[S], beta: f64, s: &mut Scratch, out: &mut [f64]) -> Result<()> {
    if refs.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    s.ids.clear();
    let c = ids(cand, &mut s.ids);
    let (mut p_max, mut r_max) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for r in refs {
        let rt = ids(r.as_ref(), &mut s.ids);
        let lcs = lcs_len(&rt, &c, &mut s.row) as f64;
        p_max = p_max.max(lcs / c.len() as f64);
        r_max = r_max.max(lcs / rt.len() as f64);
    }
    out[0] = p_max;
    out[1] = r_max;
    out[2] = score_from(p_max, r_max, beta);
    Ok(())
}

pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(cands: &[H], refs: &[Vec<R>], beta: f64, n_threads: usize) -> Result<Vec<f64>> {
    if !beta.is_finite() || beta < 0.0 {
        return Err(Error::InvalidOption(format!("beta must be finite and >= 0, got {beta}")));
    }
    if cands.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: cands.len(), right: refs.len() });
    }
    map_rows(cands.len(), WIDTH, n_threads, Scratch::default, |s, i, row| {
        segment_stats(cands[i].as_ref(), &refs[i], beta, s, row).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            e => e,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn independent_maxima() {
        let mut out = [0.0; 3];
        segment_stats("a b c d", &["a b", "a b c d e f g h"], 1.2, &mut Scratch::default(), &mut out).unwrap();
        assert_eq!((out[0], out[1]), (1.0, 1.0));
        assert!((out[2] - 1.0).abs() < 1e-15);
        segment_stats("x", &["a b"], 1.2, &mut Scratch::default(), &mut out).unwrap();
        assert_eq!(out[2], 0.0);
    }
}
