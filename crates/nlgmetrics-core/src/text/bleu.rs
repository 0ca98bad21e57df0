//! BLEU as sacrebleu 2.6 computes it.
//!
//! Segment statistics: `[hyp_len, ref_len, correct_1..N, total_1..N]` (u64), where
//! `ref_len` is the closest reference length (ties to the shorter one) and `correct_n`
//! clips each hypothesis n-gram count by its maximum count over the references.

use crate::error::{Error, Result};
use crate::ngram::{clipped_matches, count_ngrams, sorted_ngrams, Interner, NgramCounts};
use crate::parallel::map_rows;
use crate::pystr::{py_lower, py_lower_into, py_rstrip};
use crate::tokenize::{token_spans_13a, Tokenizer};
use rayon::prelude::*;

mod clip;
use clip::{py_token_spans, Clipper, Span};

#[derive(Debug, Clone, Copy)]
pub struct BleuConfig {
    pub tokenizer: Tokenizer,
    pub lowercase: bool,
    pub max_order: usize,
}

impl BleuConfig {
    pub fn width(&self) -> usize {
        2 + 2 * self.max_order
    }

    pub fn validate(&self) -> Result<()> {
        if self.max_order == 0 || self.max_order > 64 {
            return Err(Error::InvalidOption(format!(
                "max_ngram_order must be between 1 and 64, got {}",
                self.max_order
            )));
        }
        Ok(())
    }

    /// sacrebleu's `_preprocess_segment`: lowercase, strip the right end, tokenize.
    pub fn preprocess(&self, sent: &str, out: &mut String) {
        if self.lowercase {
            let lower = py_lower(sent);
            self.tokenizer.tokenize_into(py_rstrip(&lower), out);
        } else {
            self.tokenizer.tokenize_into(py_rstrip(sent), out);
        }
    }

    /// The tokens of [`Self::preprocess`] as byte ranges of the returned text, without
    /// building the token string where the tokenizer allows (`none`, `13a`). `None` when
    /// the text is too long for 32-bit offsets (the caller takes the general path).
    fn token_spans<'a>(&self, sent: &'a str, side: &'a mut Side) -> Option<(&'a str, &'a [Span])> {
        let Side { lowered, buf, spans } = side;
        spans.clear();
        let text: &'a str = if self.lowercase {
            py_lower_into(sent, lowered);
            lowered
        } else {
            sent
        };
        if text.len() > u32::MAX as usize {
            // Offsets are 32-bit (`none` and `13a` never lengthen a text; the others are
            // checked below).
            return None;
        }
        let text: &'a str = match self.tokenizer {
            Tokenizer::None => {
                py_token_spans(text, spans);
                text
            }
            Tokenizer::Mteval13a => token_spans_13a(py_rstrip(text), buf, spans),
            tok => {
                tok.tokenize_into(py_rstrip(text), buf);
                if buf.len() > u32::MAX as usize {
                    return None;
                }
                py_token_spans(buf, spans);
                buf
            }
        };
        Some((text, spans))
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smoothing {
    None,
    Floor(f64),
    AddK(f64),
    Exp,
}

impl Smoothing {
    pub fn from_name(name: &str, value: Option<f64>) -> Result<Self> {
        let s = match name {
            "none" => Smoothing::None,
            "floor" => Smoothing::Floor(value.unwrap_or(0.1)),
            "add-k" => Smoothing::AddK(value.unwrap_or(1.0)),
            "exp" => Smoothing::Exp,
            _ => {
                return Err(Error::InvalidOption(format!(
                    "unknown smooth_method {name:?}; known: none, floor, add-k, exp"
                )))
            }
        };
        match s {
            Smoothing::Floor(v) | Smoothing::AddK(v) if !v.is_finite() => Err(
                Error::InvalidOption(format!("smooth_value must be finite, got {v}")),
            ),
            _ => Ok(s),
        }
    }
}

/// The closest reference length; on a tie the shorter reference wins.
pub fn closest_ref_len(hyp_len: usize, ref_lens: &[usize]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for &r in ref_lens {
        let d = hyp_len.abs_diff(r);
        best = match best {
            None => Some((d, r)),
            Some((bd, br)) if d < bd || (d == bd && r < br) => Some((d, r)),
            keep => keep,
        };
    }
    best.map(|(_, r)| r)
}

/// Reusable buffers for one worker.
#[derive(Default)]
pub struct Scratch {
    hyp: Side,
    reference: Side,
    clip: Clipper,
}

/// Buffers of one text: lowercased, tokenized (or replaced), and its token spans.
#[derive(Default)]
struct Side {
    lowered: String,
    buf: String,
    spans: Vec<Span>,
}

pub fn segment_stats<S: AsRef<str>>(
    cfg: &BleuConfig,
    hyp: &str,
    refs: &[S],
    scratch: &mut Scratch,
    out: &mut [u64],
) -> Result<()> {
    if refs.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    let n_max = cfg.max_order;
    out.fill(0);
    let Scratch { hyp: hyp_side, reference, clip } = scratch;
    let Some((hyp_text, hyp_spans)) = cfg.token_spans(hyp, hyp_side) else {
        return segment_stats_general(cfg, hyp, refs, out);
    };
    let Some(hyp_len) = clip.set_hypothesis(hyp_text.as_bytes(), hyp_spans, n_max) else {
        return segment_stats_general(cfg, hyp, refs, out);
    };
    // The closest reference length; on a tie the shorter reference wins.
    let mut closest = (usize::MAX, usize::MAX);
    for r in refs {
        let Some((ref_text, ref_spans)) = cfg.token_spans(r.as_ref(), reference) else {
            return segment_stats_general(cfg, hyp, refs, out);
        };
        let len = clip.add_reference(hyp_text.as_bytes(), ref_text.as_bytes(), ref_spans);
        closest = closest.min((hyp_len.abs_diff(len), len));
    }
    out[0] = hyp_len as u64;
    out[1] = closest.1 as u64;
    clip.matches_into(&mut out[2..2 + n_max]);
    for n in 0..n_max {
        out[2 + n_max + n] = hyp_len.saturating_sub(n) as u64;
    }
    Ok(())
}

/// Any order and vocabulary size: every n-gram as an interned slice.
fn segment_stats_general<S: AsRef<str>>(cfg: &BleuConfig, hyp: &str, refs: &[S], out: &mut [u64]) -> Result<()> {
    let n_max = cfg.max_order;
    let mut hyp_tok = String::new();
    cfg.preprocess(hyp, &mut hyp_tok);
    let ref_tok: Vec<String> = refs
        .iter()
        .map(|r| {
            let mut o = String::new();
            cfg.preprocess(r.as_ref(), &mut o);
            o
        })
        .collect();
    let mut interner = Interner::new();
    let hyp_ids = interner.ids_of(&hyp_tok);
    let ref_ids: Vec<Vec<u32>> = ref_tok.iter().map(|r| interner.ids_of(r)).collect();
    let ref_lens: Vec<usize> = ref_ids.iter().map(Vec::len).collect();
    out.fill(0);
    out[0] = hyp_ids.len() as u64;
    out[1] = closest_ref_len(hyp_ids.len(), &ref_lens).ok_or(Error::MissingReference { index: 0 })?
        as u64;
    count_sliced(n_max, &hyp_ids, &ref_ids, out);
    Ok(())
}

/// The general path: any order, any vocabulary size.
fn count_sliced(n_max: usize, hyp_ids: &[u32], ref_ids: &[Vec<u32>], out: &mut [u64]) {
    let mut ref_max = NgramCounts::default();
    let mut one = NgramCounts::default();
    for (k, ids) in ref_ids.iter().enumerate() {
        if k == 0 {
            count_ngrams(ids, n_max, &mut ref_max);
        } else {
            one.clear();
            count_ngrams(ids, n_max, &mut one);
            for (g, c) in one.drain() {
                let e = ref_max.entry(g).or_insert(0);
                *e = (*e).max(c);
            }
        }
    }
    let mut hyp_counts = NgramCounts::default();
    count_ngrams(hyp_ids, n_max, &mut hyp_counts);
    for (g, c) in hyp_counts {
        let n = g.len() - 1;
        out[2 + n_max + n] += c as u64;
        if let Some(&r) = ref_max.get(g) {
            out[2 + n] += c.min(r) as u64;
        }
    }
}

/// Statistics of a batch, row-major `n × width`.
pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    cfg: &BleuConfig,
    hyps: &[H],
    refs: &[Vec<R>],
    n_threads: usize,
) -> Result<Vec<u64>> {
    check_lengths(hyps.len(), refs.len())?;
    batch_with(cfg, hyps, |i| &refs[i], n_threads)
}

/// [`batch_stats`] with the references of segment `i` at `refs[starts[i]..starts[i + 1]]`
/// (one flat list, as the bindings borrow them from Python).
pub fn batch_stats_flat<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    cfg: &BleuConfig,
    hyps: &[H],
    refs: &[R],
    starts: &[usize],
    n_threads: usize,
) -> Result<Vec<u64>> {
    super::check_flat_references(hyps.len(), refs.len(), starts)?;
    batch_with(cfg, hyps, |i| &refs[starts[i]..starts[i + 1]], n_threads)
}

fn check_lengths(hyps: usize, refs: usize) -> Result<()> {
    if hyps != refs {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: hyps, right: refs });
    }
    Ok(())
}

fn batch_with<'r, H: AsRef<str> + Sync, R: AsRef<str> + Sync + 'r>(
    cfg: &BleuConfig,
    hyps: &[H],
    refs_of: impl Fn(usize) -> &'r [R] + Sync + Send,
    n_threads: usize,
) -> Result<Vec<u64>> {
    cfg.validate()?;
    map_rows(hyps.len(), cfg.width(), n_threads, Scratch::default, |s, i, row| {
        segment_stats(cfg, hyps[i].as_ref(), refs_of(i), s, row).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            e => e,
        })
    })
}

/// A BLEU score and its breakdown, on sacrebleu's 0–100 scale.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuScore {
    pub score: f64,
    /// Matches per order, after add-k smoothing when it applies (as sacrebleu reports).
    pub counts: Vec<f64>,
    pub totals: Vec<f64>,
    pub precisions: Vec<f64>,
    pub bp: f64,
    pub sys_len: u64,
    pub ref_len: u64,
}

fn my_log(x: f64) -> f64 {
    if x == 0.0 {
        -9_999_999_999.0
    } else {
        x.ln()
    }
}

/// sacrebleu `BLEU.compute_bleu`, operation for operation.
pub fn score_stats(stats: &[u64], max_order: usize, smooth: Smoothing, effective_order: bool) -> BleuScore {
    let mut correct = vec![0.0; max_order];
    let mut total = vec![0.0; max_order];
    let mut precisions = vec![0.0; max_order];
    let (score, bp) = compute_bleu(stats, smooth, effective_order, &mut correct, &mut total, &mut precisions);
    BleuScore { score, counts: correct, totals: total, precisions, bp, sys_len: stats[0], ref_len: stats[1] }
}

/// The score alone of [`score_stats`] (the same operations, on the stack): sentence
/// scores of many rows without allocating per row.
pub fn score_only(stats: &[u64], max_order: usize, smooth: Smoothing, effective_order: bool) -> f64 {
    const MAX: usize = 64;
    if max_order > MAX {
        return score_stats(stats, max_order, smooth, effective_order).score;
    }
    let (mut correct, mut total, mut precisions) = ([0.0; MAX], [0.0; MAX], [0.0; MAX]);
    let n = max_order;
    compute_bleu(stats, smooth, effective_order, &mut correct[..n], &mut total[..n], &mut precisions[..n]).0
}

/// `compute_bleu` into `correct`, `total` and `precisions` (one slot per order, zeroed):
/// the score and the brevity penalty.
fn compute_bleu(
    stats: &[u64],
    smooth: Smoothing,
    effective_order: bool,
    correct: &mut [f64],
    total: &mut [f64],
    precisions: &mut [f64],
) -> (f64, f64) {
    let max_order = correct.len();
    let sys_len = stats[0];
    let ref_len = stats[1];
    for (c, &s) in correct.iter_mut().zip(&stats[2..2 + max_order]) {
        *c = s as f64;
    }
    for (t, &s) in total.iter_mut().zip(&stats[2 + max_order..2 + 2 * max_order]) {
        *t = s as f64;
    }
    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0 {
            (1.0 - ref_len as f64 / sys_len as f64).exp()
        } else {
            0.0
        };
    }
    if correct.iter().all(|&c| c == 0.0) {
        return (0.0, bp);
    }
    let mut smooth_mteval = 1.0;
    let mut eff_order = max_order;
    for n in 1..=max_order {
        if let Smoothing::AddK(k) = smooth {
            if n > 1 {
                correct[n - 1] += k;
                total[n - 1] += k;
            }
        }
        if total[n - 1] == 0.0 {
            break;
        }
        if effective_order {
            eff_order = n;
        }
        if correct[n - 1] == 0.0 {
            match smooth {
                Smoothing::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1]);
                }
                Smoothing::Floor(v) => precisions[n - 1] = 100.0 * v / total[n - 1],
                _ => {}
            }
        } else {
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1];
        }
    }
    let mut s = 0.0;
    for &p in &precisions[..eff_order] {
        s += my_log(p);
    }
    (bp * (s / eff_order as f64).exp(), bp)
}

/// Sentence-level BLEU of every candidate against every pseudo-reference (MBR decoding):
/// `out[i * refs.len() + j]` is the score of `cands[i]` against `refs[j]` alone.
pub fn pairwise<S: AsRef<str> + Sync>(
    cfg: &BleuConfig,
    cands: &[S],
    refs: &[S],
    smooth: Smoothing,
    effective_order: bool,
    n_threads: usize,
) -> Result<Vec<f64>> {
    cfg.validate()?;
    let n_max = cfg.max_order;
    let tokenize = |xs: &[S]| -> Vec<String> {
        crate::parallel::run(n_threads, || {
            xs.par_iter()
                .map(crate::interrupt::Watch::current().each(|x: &S| {
                    let mut o = String::new();
                    cfg.preprocess(x.as_ref(), &mut o);
                    o
                }))
                .collect()
        })
    };
    let cand_tok = tokenize(cands);
    let ref_tok = tokenize(refs);
    let mut interner = Interner::new();
    let cand_ids: Vec<Vec<u32>> = cand_tok.iter().map(|t| interner.ids_of(t)).collect();
    let ref_ids: Vec<Vec<u32>> = ref_tok.iter().map(|t| interner.ids_of(t)).collect();
    let cand_ng: Vec<_> = cand_ids.iter().map(|ids| sorted_ngrams(ids, n_max)).collect();
    let ref_ng: Vec<_> = ref_ids.iter().map(|ids| sorted_ngrams(ids, n_max)).collect();
    let m = refs.len();
    let width = 2 + 2 * n_max;
    map_rows(cands.len(), m, n_threads, || vec![0u64; width], |stats, i, row| {
        let hyp_len = cand_ids[i].len();
        for (j, out) in row.iter_mut().enumerate() {
            stats.fill(0);
            stats[0] = hyp_len as u64;
            stats[1] = ref_ids[j].len() as u64;
            for n in 0..n_max {
                stats[2 + n_max + n] = (hyp_len.saturating_sub(n)) as u64;
            }
            clipped_matches(&cand_ng[i], &ref_ng[j], &mut stats[2..2 + n_max]);
            *out = score_only(stats, n_max, smooth, effective_order);
        }
        Ok::<(), Error>(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> BleuConfig {
        BleuConfig { tokenizer: Tokenizer::Mteval13a, lowercase: false, max_order: 4 }
    }

    fn corpus(hyps: &[&str], refs: &[Vec<&str>], smooth: Smoothing, eff: bool) -> BleuScore {
        let stats = batch_stats(&cfg(), hyps, refs, 1).unwrap();
        let w = cfg().width();
        let mut sum = vec![0u64; w];
        for row in stats.chunks(w) {
            for (a, b) in sum.iter_mut().zip(row) {
                *a += b;
            }
        }
        score_stats(&sum, 4, smooth, eff)
    }

    #[test]
    fn reference_corpus_example() {
        let s = corpus(
            &["The cat sat on the mat.", "It is raining today!"],
            &[vec!["The cat is sitting on the mat."], vec!["It rains today."]],
            Smoothing::Exp,
            false,
        );
        assert_eq!(s.counts, [8.0, 4.0, 2.0, 1.0]);
        assert_eq!(s.totals, [12.0, 10.0, 8.0, 6.0]);
        assert!((s.score - 32.47).abs() < 0.005, "{}", s.score);
    }

    #[test]
    fn smoothing_table() {
        let h = ["the cat sat down quickly"];
        let r = [vec!["the cat ran down the road quickly"]];
        let exp = [
            (Smoothing::None, 0.0),
            (Smoothing::Floor(0.1), 9.057365),
            (Smoothing::AddK(1.0), 27.087841),
            (Smoothing::Exp, 17.030578),
        ];
        for (sm, want) in exp {
            let s = corpus(&h, &r, sm, true);
            assert!((s.score - want).abs() < 1e-6, "{sm:?}: {}", s.score);
        }
    }

    #[test]
    fn score_only_is_the_score_of_score_stats() {
        let smooths = [Smoothing::None, Smoothing::Floor(0.1), Smoothing::AddK(1.0), Smoothing::Exp];
        let mut seed = 0x0123_4567_89ab_cdefu64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let order = 1 + (seed % 5) as usize;
            let total: Vec<u64> = (0..order).map(|n| ((seed >> (8 + n)) % 6).saturating_sub(n as u64)).collect();
            let correct: Vec<u64> = total.iter().enumerate().map(|(n, &t)| ((seed >> (20 + 3 * n)) % 3).min(t)).collect();
            let mut stats = vec![(seed >> 40) % 7, (seed >> 44) % 7];
            stats.extend(&correct);
            stats.extend(&total);
            for sm in smooths {
                for eff in [false, true] {
                    let want = score_stats(&stats, order, sm, eff).score;
                    assert_eq!(score_only(&stats, order, sm, eff).to_bits(), want.to_bits(), "{stats:?} {sm:?} {eff}");
                }
            }
        }
    }

    #[test]
    fn effective_order_and_empty() {
        assert_eq!(corpus(&["cat"], &[vec!["cat"]], Smoothing::Exp, true).score, 100.0f64.ln().exp());
        assert_eq!(corpus(&["cat"], &[vec!["cat"]], Smoothing::Exp, false).score, 0.0);
        let e = corpus(&[""], &[vec!["a b c"]], Smoothing::Exp, false);
        assert_eq!((e.score, e.bp), (0.0, 0.0));
    }

    #[test]
    fn packed_and_sliced_paths_agree() {
        let hyp = "a b c a b c d a b";
        let refs = ["a b c d b c a", "b c a b z", "c a b c a b c a b"];
        for lowercase in [false, true] {
            for tokenizer in [Tokenizer::None, Tokenizer::Mteval13a] {
                let cfg = BleuConfig { tokenizer, lowercase, max_order: 4 };
                let mut a = [0u64; 10];
                let mut b = [0u64; 10];
                segment_stats(&cfg, hyp, &refs, &mut Scratch::default(), &mut a).unwrap();
                segment_stats_general(&cfg, hyp, &refs, &mut b).unwrap();
                assert_eq!(a, b);
            }
        }
        // Orders above 4 take the sliced path and still count totals right.
        let cfg5 = BleuConfig { tokenizer: Tokenizer::None, lowercase: false, max_order: 5 };
        let st = batch_stats(&cfg5, &["a b c d e f"], &[vec!["a b c d e f"]], 1).unwrap();
        assert_eq!(st, [6, 6, 6, 5, 4, 3, 2, 6, 5, 4, 3, 2]);
    }

    #[test]
    fn none_tokenizer_splits_on_python_whitespace() {
        let cfg = BleuConfig { tokenizer: Tokenizer::None, lowercase: true, max_order: 2 };
        let st = batch_stats(&cfg, &["A\u{3000}b\x1fC "], &[vec![" a B c\t"]], 1).unwrap();
        assert_eq!(st, [3, 3, 3, 2, 3, 2]);
    }

    #[test]
    fn missing_reference_is_an_error() {
        let refs: Vec<Vec<&str>> = vec![vec!["a"], vec![]];
        let err = batch_stats(&cfg(), &["a", "b"], &refs, 1).unwrap_err();
        assert_eq!(err, Error::MissingReference { index: 1 });
    }

    #[test]
    fn pairwise_equals_sentence_scores() {
        let xs = ["a b c d e", "a b c", "the cat sat", "x y"];
        let m = pairwise(&cfg(), &xs, &xs, Smoothing::Exp, true, 2).unwrap();
        for i in 0..4 {
            for j in 0..4 {
                let s = corpus(&[xs[i]], &[vec![xs[j]]], Smoothing::Exp, true).score;
                assert_eq!(m[i * 4 + j], s);
            }
        }
    }
}
