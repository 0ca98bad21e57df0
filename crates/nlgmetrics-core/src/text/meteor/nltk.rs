//! nltk 3.10.4 `nltk.translate.meteor_score`: greedy three-stage alignment (exact,
//! stem, WordNet synonym) and the original METEOR score with alpha, beta, gamma.
//!
//! Words arrive as interned ids; `stem_of[id]` is the id of the word's stem and
//! `syn_of[id]` the ids of the synonyms of a (stemmed) word, both computed in Python
//! with the caller's stemmer and WordNet. Parity details copied: each stage walks the
//! unmatched hypothesis words from last to first and takes the *last* unmatched
//! reference position; the synonym stage looks up the *stems* left over by the stem
//! stage (nltk passes the stemmed lists on); chunks count breaks between matches
//! sorted by hypothesis position.

use crate::{parallel, Error, Result};

pub const WIDTH: usize = 4;

pub struct NltkTables<'a> {
    pub stem_of: &'a [u32],
    pub syn_of: &'a [Vec<u32>],
}

#[derive(Clone, Copy)]
pub struct NltkParams {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
}

/// One greedy stage over (original index, key) lists; returns the matches and keeps
/// the unmatched entries in order.
fn stage(
    hyp: &mut Vec<(usize, u32)>,
    refs: &mut Vec<(usize, u32)>,
    candidates: impl Fn(u32) -> Vec<u32>,
    out: &mut Vec<(usize, usize)>,
) {
    let mut positions: rustc_hash::FxHashMap<u32, Vec<usize>> = rustc_hash::FxHashMap::default();
    for (j, &(_, w)) in refs.iter().enumerate() {
        positions.entry(w).or_default().push(j);
    }
    let mut hyp_used = vec![false; hyp.len()];
    let mut ref_used = vec![false; refs.len()];
    for i in (0..hyp.len()).rev() {
        let mut best: Option<(usize, u32)> = None;
        for c in candidates(hyp[i].1) {
            if let Some(&j) = positions.get(&c).and_then(|p| p.last()) {
                if best.is_none_or(|(bj, _)| j > bj) {
                    best = Some((j, c));
                }
            }
        }
        if let Some((j, c)) = best {
            positions.get_mut(&c).map(|p| p.pop());
            hyp_used[i] = true;
            ref_used[j] = true;
            out.push((hyp[i].0, refs[j].0));
        }
    }
    let mut k = 0;
    hyp.retain(|_| {
        k += 1;
        !hyp_used[k - 1]
    });
    let mut k = 0;
    refs.retain(|_| {
        k += 1;
        !ref_used[k - 1]
    });
}

/// (hyp_len, ref_len, matches, chunks) of one hypothesis against one reference.
pub fn pair_stats(t: &NltkTables<'_>, hyp: &[u32], reference: &[u32]) -> [u64; WIDTH] {
    let mut h: Vec<(usize, u32)> = hyp.iter().copied().enumerate().collect();
    let mut r: Vec<(usize, u32)> = reference.iter().copied().enumerate().collect();
    let mut matches = Vec::new();
    stage(&mut h, &mut r, |w| vec![w], &mut matches);
    for x in h.iter_mut().chain(r.iter_mut()) {
        x.1 = t.stem_of[x.1 as usize];
    }
    stage(&mut h, &mut r, |w| vec![w], &mut matches);
    stage(
        &mut h,
        &mut r,
        |w| {
            let mut c = t.syn_of[w as usize].clone();
            c.push(w);
            c
        },
        &mut matches,
    );
    matches.sort_unstable();
    let mut chunks = 1u64;
    for k in 1..matches.len() {
        let (a, b) = (matches[k - 1], matches[k]);
        if !(b.0 == a.0 + 1 && b.1 == a.1 + 1) {
            chunks += 1;
        }
    }
    [hyp.len() as u64, reference.len() as u64, matches.len() as u64, chunks]
}

/// `single_meteor_score` from statistics (0.0 wherever nltk divides by zero).
pub fn score(p: NltkParams, row: &[u64]) -> f64 {
    let (t, r, m, chunks) = (row[0] as f64, row[1] as f64, row[2] as f64, row[3] as f64);
    if t == 0.0 || r == 0.0 {
        return 0.0;
    }
    let precision = m / t;
    let recall = m / r;
    let denom = p.alpha * precision + (1.0 - p.alpha) * recall;
    if denom == 0.0 || m == 0.0 {
        return 0.0;
    }
    let fmean = (precision * recall) / denom;
    let frag = chunks / m;
    let penalty = p.gamma * frag.powf(p.beta);
    (1.0 - penalty) * fmean
}

/// Statistics of the best reference (first maximum) and its score, per hypothesis.
pub fn batch_stats(
    t: &NltkTables<'_>,
    p: NltkParams,
    hyps: &[Vec<u32>],
    refs: &[Vec<Vec<u32>>],
    n_threads: usize,
) -> Result<(Vec<u64>, Vec<f64>)> {
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions vs references".into(), left: hyps.len(), right: refs.len() });
    }
    if let Some(index) = refs.iter().position(|r| r.is_empty()) {
        return Err(Error::MissingReference { index });
    }
    let n_ids = t.stem_of.len();
    let bad = |ids: &[u32]| ids.iter().any(|&w| w as usize >= n_ids);
    if hyps.iter().any(|h| bad(h)) || refs.iter().flatten().any(|r| bad(r)) || t.stem_of.iter().any(|&s| s as usize >= t.syn_of.len()) {
        return Err(Error::InvalidInput("word id out of range of the stem/synonym tables".into()));
    }
    let rows = parallel::map_rows(hyps.len(), WIDTH + 1, n_threads, || (), |_, i, row: &mut [f64]| {
        let mut best = [0u64; WIDTH];
        let mut best_score = f64::NEG_INFINITY;
        for r in &refs[i] {
            let st = pair_stats(t, &hyps[i], r);
            let s = score(p, &st);
            if s > best_score {
                best_score = s;
                best = st;
            }
        }
        for k in 0..WIDTH {
            row[k] = best[k] as f64;
        }
        row[WIDTH] = best_score;
        Ok::<(), Error>(())
    })?;
    let mut counts = Vec::with_capacity(hyps.len() * WIDTH);
    let mut scores = Vec::with_capacity(hyps.len());
    for row in rows.chunks(WIDTH + 1) {
        counts.extend(row[..WIDTH].iter().map(|&x| x as u64));
        scores.push(row[WIDTH]);
    }
    Ok((counts, scores))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example() {
        // "a man riding a horse" vs "a man is riding a horse": ids a=0 man=1 riding=2 horse=3 is=4
        let stem_of: Vec<u32> = (0..5).collect();
        let syn_of = vec![Vec::new(); 5];
        let t = NltkTables { stem_of: &stem_of, syn_of: &syn_of };
        let st = pair_stats(&t, &[0, 1, 2, 0, 3], &[0, 1, 4, 2, 0, 3]);
        assert_eq!(st, [5, 6, 5, 2]);
        let s = score(NltkParams { alpha: 0.9, beta: 3.0, gamma: 0.5 }, &st);
        assert_eq!(s, 0.8203389830508474);
    }
}
