//! BLEU as pycocoevalcap 1.2 computes it (`Bleu(4)`, `bleu_scorer.py`, option "closest").
//!
//! Segment statistics: `[testlen, reflen, guess_1..N, correct_1..N]` (u64) where `reflen`
//! is the closest reference length (ties to the shorter), `guess_k = max(0, testlen-k+1)`
//! and `correct_k` clips each n-gram count by its maximum count in any one reference.
//!
//! Score of (summed) statistics, operation for operation as `BleuScorer.compute_score`:
//! `bleu *= (correct_k + 1e-15) / (guess_k + 1e-9)`, `B_k = bleu^(1/k)`, then the brevity
//! penalty `exp(1 - 1/ratio)` with `ratio = (testlen + 1e-15) / (reflen + 1e-9)` when
//! `ratio < 1` (so an exact length match still pays a penalty of about 1e-9/reflen).
//! The corpus score comes from summed statistics, not from the per-image scores.

use crate::error::{Error, Result};
use crate::ngram::{count_ngrams, Interner, NgramCounts};
use crate::parallel::map_rows;
use crate::pystr::py_split;
use crate::text::bleu::closest_ref_len;
use crate::tokenize::ptb::{tokenize_batch, CaptionTokenizer};

const SMALL: f64 = 1e-9;
const TINY: f64 = 1e-15;

pub fn width(max_order: usize) -> usize {
    2 + 2 * max_order
}

pub fn validate(max_order: usize) -> Result<()> {
    if max_order == 0 || max_order > 64 {
        return Err(Error::InvalidOption(format!("n (max n-gram order) must be between 1 and 64, got {max_order}")));
    }
    Ok(())
}

fn ids<'a>(interner: &mut Interner<'a>, s: &'a str) -> Vec<u32> {
    py_split(s).map(|t| interner.id(t)).collect()
}

/// `cook_refs` + `cook_test` of one image on already tokenized strings.
pub fn segment_stats<S: AsRef<str>>(hyp: &str, refs: &[S], max_order: usize, out: &mut [u64]) -> Result<()> {
    if refs.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    let mut interner = Interner::new();
    let hyp_ids = ids(&mut interner, hyp);
    let ref_ids: Vec<Vec<u32>> = refs.iter().map(|r| ids(&mut interner, r.as_ref())).collect();
    let mut ref_max = NgramCounts::default();
    let mut one = NgramCounts::default();
    for r in &ref_ids {
        one.clear();
        count_ngrams(r, max_order, &mut one);
        for (g, c) in one.drain() {
            let e = ref_max.entry(g).or_insert(0);
            *e = (*e).max(c);
        }
    }
    let mut hyp_counts = NgramCounts::default();
    count_ngrams(&hyp_ids, max_order, &mut hyp_counts);
    let ref_lens: Vec<usize> = ref_ids.iter().map(Vec::len).collect();
    let testlen = hyp_ids.len();
    out.fill(0);
    out[0] = testlen as u64;
    out[1] = closest_ref_len(testlen, &ref_lens).unwrap_or(0) as u64;
    for k in 1..=max_order {
        out[1 + k] = testlen.saturating_sub(k - 1) as u64;
    }
    for (g, c) in hyp_counts {
        if let Some(&r) = ref_max.get(g) {
            out[1 + max_order + g.len()] += c.min(r) as u64;
        }
    }
    Ok(())
}

/// Statistics of a batch, row-major `n × (2 + 2N)`.
pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    hyps: &[H],
    refs: &[Vec<R>],
    tokenizer: CaptionTokenizer,
    max_order: usize,
    n_threads: usize,
) -> Result<Vec<u64>> {
    validate(max_order)?;
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: hyps.len(), right: refs.len() });
    }
    if let Some(i) = refs.iter().position(Vec::is_empty) {
        return Err(Error::MissingReference { index: i });
    }
    match tokenizer {
        CaptionTokenizer::Split => {
            map_rows(hyps.len(), width(max_order), n_threads, || (), |_, i, row| segment_stats(hyps[i].as_ref(), &refs[i], max_order, row))
        }
        CaptionTokenizer::Ptb => {
            let (h, r) = tokenize_batch(tokenizer, hyps, refs, n_threads);
            map_rows(h.len(), width(max_order), n_threads, || (), |_, i, row| segment_stats(&h[i], &r[i], max_order, row))
        }
    }
}

/// BLEU-1..N and the length ratio of one (summed) statistics row.
pub fn score_stats(stats: &[u64], max_order: usize) -> (Vec<f64>, f64) {
    let testlen = stats[0] as f64;
    let reflen = stats[1] as f64;
    let mut bleus = Vec::with_capacity(max_order);
    let mut bleu = 1.0f64;
    for k in 0..max_order {
        let guess = stats[2 + k] as f64;
        let correct = stats[2 + max_order + k] as f64;
        bleu *= (correct + TINY) / (guess + SMALL);
        bleus.push(bleu.powf(1.0 / (k + 1) as f64));
    }
    let ratio = (testlen + TINY) / (reflen + SMALL);
    if ratio < 1.0 {
        let bp = (1.0 - 1.0 / ratio).exp();
        for b in &mut bleus {
            *b *= bp;
        }
    }
    (bleus, ratio)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(h: &str, r: &[&str]) -> Vec<f64> {
        let mut row = vec![0u64; width(4)];
        segment_stats(h, r, 4, &mut row).unwrap();
        score_stats(&row, 4).0
    }

    #[test]
    fn reference_values() {
        // pycocoevalcap 1.2 (reference-semantics §1.3).
        let b = one("a b c d e", &["a b c d e"]);
        assert!((b[0] - 0.9999999996).abs() < 1e-10 && (b[3] - 0.9999999994792).abs() < 1e-12, "{b:?}");
        let b = one("a b c d e", &["a b c e d"]);
        assert!((b[3] - 9.554e-05).abs() < 1e-8, "{b:?}");
    }

    #[test]
    fn stats_layout_and_closest_length() {
        let mut row = vec![0u64; width(2)];
        segment_stats("the cat the cat", &["the cat", "a cat sat on it"], 2, &mut row).unwrap();
        assert_eq!(row, [4, 5, 4, 3, 2, 1]);
    }

    #[test]
    fn empty_hypothesis_is_tiny_not_nan() {
        let b = one("", &["a b c"]);
        assert!(b.iter().all(|x| x.is_finite() && *x >= 0.0));
    }
}
