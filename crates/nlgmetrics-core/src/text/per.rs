//! PER, the position-independent word error rate (Tillmann et al. 1997), as Moses MERT
//! `PerScorer` defines it.
//!
//! Segment statistics `[correct, hyp_len, ref_len]` (u64), with
//! `correct = Σ_w min(count_hyp(w), count_ref(w))` (bag-of-words intersection).
//! `PER = 1 − (correct − max(0, hyp_len − ref_len)) / ref_len` of the summed counts.

use crate::error::{Error, Result};
use crate::ngram::Interner;
use crate::parallel::map_rows;
use crate::pystr::py_lower;
use crate::text::edit::MultiRef;
use crate::tokenize::Tokenizer;
use rustc_hash::FxHashMap;

#[derive(Debug, Clone, Copy)]
pub struct PerConfig {
    /// `None`: Moses' `TokenizeAndEncode` (split on the space character only).
    pub tokenizer: Option<Tokenizer>,
    pub lowercase: bool,
    pub multi: MultiRef,
}

fn prep(cfg: &PerConfig, s: &str) -> String {
    let lowered;
    let s = if cfg.lowercase {
        lowered = py_lower(s);
        lowered.as_str()
    } else {
        s
    };
    match cfg.tokenizer {
        Some(t) => t.tokenize(s),
        // Moses splits on ' ' only; other whitespace stays inside tokens. Tokens are
        // re-joined with single spaces for the interner, which splits on ' ' too.
        None => s.split(' ').filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" "),
    }
}

/// `[correct, hyp_len, ref_len]` of token-id sequences.
pub fn counts(hyp: &[u32], rf: &[u32]) -> [u64; 3] {
    let mut bag: FxHashMap<u32, i64> = FxHashMap::default();
    for &t in rf {
        *bag.entry(t).or_insert(0) += 1;
    }
    let mut correct = 0u64;
    for &t in hyp {
        if let Some(c) = bag.get_mut(&t) {
            if *c > 0 {
                *c -= 1;
                correct += 1;
            }
        }
    }
    [correct, hyp.len() as u64, rf.len() as u64]
}

/// Errors of one row: `max(ref, hyp) − correct` (what `best` minimises).
fn errors(c: &[u64; 3]) -> u64 {
    c[1].max(c[2]) - c[0]
}

fn segment<S: AsRef<str>>(cfg: &PerConfig, hyp: &str, refs: &[S]) -> Result<[u64; 3]> {
    if refs.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    if refs.len() > 1 && cfg.multi == MultiRef::Error {
        return Err(Error::InvalidInput(format!(
            "{} references given for one segment; PER (as Moses) takes one (pass multi_ref=\"best\" to use the closest)",
            refs.len()
        )));
    }
    let h = prep(cfg, hyp);
    let rs: Vec<String> = refs.iter().map(|r| prep(cfg, r.as_ref())).collect();
    let mut it = Interner::new();
    let hid = it.ids_of(&h);
    let mut best: Option<[u64; 3]> = None;
    for r in &rs {
        let c = counts(&hid, &it.ids_of(r));
        if best.is_none_or(|b| errors(&c) < errors(&b)) {
            best = Some(c);
        }
    }
    Ok(best.expect("one reference"))
}

pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(cfg: &PerConfig, hyps: &[H], refs: &[Vec<R>], n_threads: usize) -> Result<Vec<u64>> {
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: hyps.len(), right: refs.len() });
    }
    map_rows(hyps.len(), 3, n_threads, || (), |_, i, row| {
        let c = segment(cfg, hyps[i].as_ref(), &refs[i]).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            Error::InvalidInput(m) => Error::InvalidInput(format!("segment {i}: {m}")),
            e => e,
        })?;
        row.copy_from_slice(&c);
        Ok(())
    })
}

/// PER of (summed) `[correct, hyp_len, ref_len]`. With no reference word Moses scores
/// `1 − PER = 0`, so PER is 1.
pub fn score(stats: &[u64]) -> f64 {
    let (correct, hyp, rf) = (stats[0] as f64, stats[1] as f64, stats[2] as f64);
    if rf == 0.0 {
        return 1.0;
    }
    1.0 - (correct - (hyp - rf).max(0.0)) / rf
}

pub fn pairwise<S: AsRef<str> + Sync>(cfg: &PerConfig, cands: &[S], refs: &[S], n_threads: usize) -> Result<Vec<f64>> {
    let m = refs.len();
    map_rows(cands.len(), m, n_threads, || (), |_, i, row| {
        for (j, out) in row.iter_mut().enumerate() {
            *out = score(&segment(cfg, cands[i].as_ref(), &refs[j..j + 1])?);
        }
        Ok::<(), Error>(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example() {
        let cfg = PerConfig { tokenizer: None, lowercase: false, multi: MultiRef::Error };
        let c = segment(&cfg, "c b a d", &["a b c"]).unwrap();
        assert_eq!(c, [3, 4, 3]);
        assert!((score(&c) - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(score(&[0, 0, 0]), 1.0);
        assert_eq!(score(&[2, 2, 2]), 0.0);
    }
}
