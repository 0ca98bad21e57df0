//! TER (Snover et al., 2006) as sacrebleu 2.6 computes it (`metrics/ter.py`,
//! `metrics/lib_ter.py`, a tercom-compatible re-implementation).
//!
//! `edits = shifts + banded edit distance after greedy shifting`; per segment the
//! statistics are `[best_edits (min over references), avg_ref_len (mean over all
//! references)]`, and `TER = 100 · Σ edits / Σ avg_ref_len` (1 if the reference length
//! is 0 and there are edits, else 0).
//!
//! Greedy shifting, exactly as sacrebleu does it:
//! - candidate phrases: `(start_h, start_r, length ≤ 10)` with equal words and
//!   `|start_r - start_h| ≤ 50`, enumerated by `start_h`, then `start_r`, then length;
//! - a phrase is skipped if it is already correct in the hypothesis or in the
//!   reference, or if the reference position is aligned inside the phrase;
//! - targets: before the hypothesis word aligned to `start_r + offset` for
//!   `offset = -1..length` (consecutive duplicates skipped);
//! - ranking: the largest gain, then the longest phrase, the earliest `start_h`, the
//!   earliest target; shifting stops when the best gain is ≤ 0, or when 1000
//!   candidates have been evaluated over the whole sentence (then the best shift of
//!   that last round is dropped, as in sacrebleu).
//!
//! The edit distance is Levenshtein restricted to a band of ±25 (wider for very
//! unequal lengths) around the pseudo-diagonal `floor(i · m / n)`, with the last row
//! full; ties prefer diagonal, then deletion (hypothesis side), then insertion, which
//! fixes the alignment used by the shift filters.
//!
//! Memory: only the band is stored (a cell outside it reads as sacrebleu's infinity),
//! so an `n`-word hypothesis against an `m`-word reference takes
//! `5 · (2·(m+1) + min(2·beam, m+1)·n)` bytes for the table (`beam` = 25, or `m/(2n) + 25` for a
//! reference over 50 times longer), plus `24·n + 8·m` bytes of bookkeeping: linear in
//! the pair's length, about 40 MB for a 100,000-word pair. (sacrebleu keeps every row
//! whole, `8·(m+1)` bytes each, so its memory is quadratic.)
//!
//! Speed without changing a number: words are integer ids; every shift candidate
//! re-uses the rows of the current hypothesis' matrix up to its first changed word and
//! computes only the costs (no trace) of the remaining rows, in two reused buffers,
//! and stops as soon as a row's minimum shows that the candidate cannot outrank the
//! best one found so far (it still counts towards the 1000-candidate cap).
//! (sacrebleu's prefix-trie row cache is an optimisation with no effect on the value:
//! rows depend only on the hypothesis prefix, since every shift preserves its length.)

use crate::error::{Error, Result};
use crate::parallel::map_rows;
use crate::tokenize::ter::{tokenize_into, TercomOptions};
use rustc_hash::FxHashMap;

/// Longest phrase that can be shifted (tercom's limit).
pub const MAX_SHIFT_SIZE: usize = 10;
/// Largest |start_r − start_h| of a shift (sacrebleu's variant of tercom's limit).
pub const MAX_SHIFT_DIST: usize = 50;
/// Half-width of the edit-distance band.
pub const BEAM_WIDTH: usize = 25;
/// Shift candidates evaluated per sentence before shifting stops (sacrebleu's limit).
pub const MAX_SHIFT_CANDIDATES: usize = 1000;

const INF: u32 = 1 << 30;
const OP_NOP: u8 = 0;
const OP_SUB: u8 = 1;
/// consumes a hypothesis word (sacrebleu's `_OP_DEL` before the trace is flipped)
const OP_DEL: u8 = 2;
/// consumes a reference word (`_OP_INS`)
const OP_INS: u8 = 3;
const OP_UNDEF: u8 = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TerConfig {
    pub tokenizer: TercomOptions,
}

/// Reusable state for computing the edits of hypotheses against one reference at a time.
#[derive(Default)]
pub struct Aligner {
    n: usize,
    m: usize,
    /// band `[lo, hi)` of every row `0..=n`
    lo: Vec<usize>,
    hi: Vec<usize>,
    /// where row `i`'s band starts in `cost` / `ops` (`n + 2` entries)
    start: Vec<usize>,
    /// the banded matrix of the current hypothesis, row after row; a cell outside
    /// its row's band reads as INF / OP_UNDEF
    cost: Vec<u32>,
    ops: Vec<u8>,
    rows: [Vec<u32>; 2],
    /// dirty range of each rolling row
    dirty: [(usize, usize); 2],
    words: Vec<u32>,
    shifted: Vec<u32>,
    align: Vec<i64>,
    hyp_err: Vec<u32>,
    ref_err: Vec<u32>,
}
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Candidate {
    gain: i64,
    len: usize,
    start: usize,
    target: usize,
}

impl Candidate {
    /// sacrebleu's tuple `(gain, length, -start_h, -idx)`, compared lexicographically.
    fn beats(&self, other: &Candidate) -> bool {
        (self.gain, self.len, std::cmp::Reverse(self.start), std::cmp::Reverse(self.target))
            > (other.gain, other.len, std::cmp::Reverse(other.start), std::cmp::Reverse(other.target))
    }
}

/// `_perform_shift`, with Python's slice clamping.
fn perform_shift(words: &[u32], start: usize, len: usize, target: usize, out: &mut Vec<u32>) {
    out.clear();
    let n = words.len();
    if target < start {
        out.extend_from_slice(&words[..target]);
        out.extend_from_slice(&words[start..start + len]);
        out.extend_from_slice(&words[target..start]);
        out.extend_from_slice(&words[start + len..]);
    } else if target > start + len {
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + len..target]);
        out.extend_from_slice(&words[start..start + len]);
        out.extend_from_slice(&words[target..]);
    } else {
        // "shift within": sacrebleu moves the phrase `target - start` words right
        let e = (len + target).min(n);
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + len..e]);
        out.extend_from_slice(&words[start..start + len]);
        out.extend_from_slice(&words[e..]);
    }
}

impl Aligner {
    fn set_shape(&mut self, n: usize, m: usize) {
        self.n = n;
        self.m = m;
        let ratio = if n > 0 { m as f64 / n as f64 } else { 1.0 };
        let beam = if (BEAM_WIDTH as f64) < ratio / 2.0 { (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64 } else { BEAM_WIDTH as i64 };
        crate::memory::ensure::<usize>((n + 2).saturating_mul(3), "TER's band limits");
        self.lo.clear();
        self.hi.clear();
        self.start.clear();
        self.lo.push(0);
        self.hi.push(m + 1);
        for i in 1..=n {
            let diag = (i as f64 * ratio).floor() as i64;
            let lo = (diag - beam).max(0) as usize;
            let hi = if i == n { m + 1 } else { (diag + beam).clamp(0, m as i64 + 1) as usize };
            self.lo.push(lo.min(m + 1));
            self.hi.push(hi.max(lo.min(m + 1)));
        }
        let mut cells = 0usize;
        for i in 0..=n {
            self.start.push(cells);
            cells += self.hi[i] - self.lo[i];
        }
        self.start.push(cells);
        // Only the band is stored (row 0 and the last row are wider): at most
        // `2·(m+1) + n·min(2·beam, m+1)` cells of 5 bytes, linear in the pair's length.
        if let Err(oom) = crate::memory::check(cells, std::mem::size_of::<u32>() + 1, &format!("TER's edit table of a {n} x {m}-word pair")) {
            std::panic::resume_unwind(Box::new(oom));
        }
        self.cost.clear();
        self.cost.resize(cells, INF);
        self.ops.clear();
        self.ops.resize(cells, OP_UNDEF);
        crate::memory::ensure::<u32>((m + 1).saturating_mul(2), "TER's edit rows");
        for r in 0..2 {
            self.rows[r].clear();
            self.rows[r].resize(m + 1, INF);
            self.dirty[r] = (0, 0);
        }
    }

    /// Index of cell `(i, j)` in `cost` / `ops`, if it lies in row `i`'s band.
    #[inline]
    fn cell(&self, i: usize, j: usize) -> Option<usize> {
        (j >= self.lo[i] && j < self.hi[i]).then(|| self.start[i] + j - self.lo[i])
    }

    #[inline]
    fn cost_at(&self, i: usize, j: usize) -> u32 {
        self.cell(i, j).map_or(INF, |k| self.cost[k])
    }

    /// The banded matrix (costs and operations) of `self.words` against `reference`.
    fn full_matrix(&mut self, reference: &[u32]) {
        let n = self.n;
        for j in 0..=self.m {
            self.cost[j] = j as u32;
            self.ops[j] = OP_INS;
        }
        for i in 1..=n {
            if i % 64 == 0 {
                crate::interrupt::check();
            }
            let (plo, phi, clo, chi) = (self.lo[i - 1], self.hi[i - 1], self.lo[i], self.hi[i]);
            let (before, after) = self.cost.split_at_mut(self.start[i]);
            let prev = &before[self.start[i - 1]..];
            let cur = &mut after[..chi - clo];
            let ops = &mut self.ops[self.start[i]..self.start[i + 1]];
            let prev_at = |j: usize| if j >= plo && j < phi { prev[j - plo] } else { INF };
            let word = self.words[i - 1];
            for j in clo..chi {
                let k = j - clo;
                if j == 0 {
                    // unconditional, as in sacrebleu (INF + 1 when the cell above is unset)
                    cur[0] = prev_at(0) + 1;
                    ops[0] = OP_DEL;
                    continue;
                }
                let left = if k > 0 { cur[k - 1] } else { INF };
                let (mut best, mut op) = (INF, OP_UNDEF);
                let (sub_cost, sub_op) = if word == reference[j - 1] { (0, OP_NOP) } else { (1, OP_SUB) };
                for (c, o) in [(prev_at(j - 1) + sub_cost, sub_op), (prev_at(j) + 1, OP_DEL), (left + 1, OP_INS)] {
                    if best > c {
                        best = c;
                        op = o;
                    }
                }
                cur[k] = best;
                ops[k] = op;
            }
        }
    }

    /// Walk the trace back from (n, m): the alignment of reference positions to
    /// hypothesis positions and the error flags, as `trace_to_alignment` derives them
    /// from the flipped trace.
    fn alignment(&mut self) -> Result<()> {
        let (n, m) = (self.n, self.m);
        self.align.clear();
        self.align.resize(m, -1);
        let mut hyp_err = vec![0u32; n];
        let mut ref_err = vec![0u32; m];
        let (mut i, mut j) = (n, m);
        while i > 0 || j > 0 {
            match self.cell(i, j).map_or(OP_UNDEF, |k| self.ops[k]) {
                op @ (OP_NOP | OP_SUB) => {
                    let e = (op == OP_SUB) as u32;
                    hyp_err[i - 1] = e;
                    ref_err[j - 1] = e;
                    self.align[j - 1] = i as i64 - 1;
                    i -= 1;
                    j -= 1;
                }
                OP_DEL => {
                    hyp_err[i - 1] = 1;
                    i -= 1;
                }
                OP_INS => {
                    ref_err[j - 1] = 1;
                    self.align[j - 1] = i as i64 - 1;
                    j -= 1;
                }
                _ => return Err(Error::InvalidInput(format!("TER: broken edit trace at ({i}, {j})"))),
            }
        }
        // prefix sums, so that "any error in a span" is one subtraction
        self.hyp_err.clear();
        self.hyp_err.push(0);
        for e in hyp_err {
            let last = *self.hyp_err.last().unwrap_or(&0);
            self.hyp_err.push(last + e);
        }
        self.ref_err.clear();
        self.ref_err.push(0);
        for e in ref_err {
            let last = *self.ref_err.last().unwrap_or(&0);
            self.ref_err.push(last + e);
        }
        Ok(())
    }

    /// Edit distance (cost only) of `self.shifted`, whose first `p` words equal those of
    /// `self.words`: rows `0..=p` come from the current matrix. Returns None as soon as
    /// the distance is known to exceed `limit`: every path to the last cell crosses each
    /// row and costs never decrease along a path, so a row's minimum is a lower bound.
    fn shifted_cost(&mut self, reference: &[u32], p: usize, limit: u32) -> Option<u32> {
        let n = self.n;
        if p >= n {
            let c = self.cost_at(n, self.m);
            return (c <= limit).then_some(c);
        }
        // row p of the current matrix, unchanged by the shift, starts the rolling rows
        let (plo, phi) = (self.lo[p], self.hi[p]);
        let (dl, dh) = self.dirty[0];
        self.rows[0][dl..dh].fill(INF);
        self.rows[0][plo..phi].copy_from_slice(&self.cost[self.start[p]..self.start[p + 1]]);
        self.dirty[0] = (plo, phi);
        let mut prev_idx = 0usize;
        for i in p + 1..=n {
            if (i - p) % 64 == 0 {
                crate::interrupt::check();
            }
            let cur_idx = 1 - prev_idx;
            // restore INF where this buffer held an older row
            let (dl, dh) = self.dirty[cur_idx];
            let [r0, r1] = &mut self.rows;
            let (cur, prev) = if cur_idx == 0 { (r0, &*r1) } else { (r1, &*r0) };
            cur[dl..dh].fill(INF);
            let (lo, hi) = (self.lo[i], self.hi[i]);
            let word = self.shifted[i - 1];
            let mut row_min = INF;
            for j in lo..hi {
                let c = if j == 0 {
                    prev[0] + 1
                } else {
                    let sub = prev[j - 1] + (word != reference[j - 1]) as u32;
                    let del = prev[j] + 1;
                    let ins = cur[j - 1] + 1;
                    INF.min(sub).min(del).min(ins)
                };
                cur[j] = c;
                row_min = row_min.min(c);
            }
            self.dirty[cur_idx] = (lo, hi);
            prev_idx = cur_idx;
            if row_min > limit {
                return None;
            }
        }
        let c = self.rows[prev_idx][self.m];
        (c <= limit).then_some(c)
    }

    /// One round of `_shift`: the best candidate, or None; `checked` is updated.
    fn best_shift(&mut self, reference: &[u32], checked: &mut usize) -> Result<Option<Candidate>> {
        let (n, m) = (self.n, self.m);
        let pre_score = self.cost_at(n, m) as i64;
        self.alignment()?;
        let mut best: Option<Candidate> = None;
        for start_h in 0..n {
            crate::interrupt::check();
            let r_lo = start_h.saturating_sub(MAX_SHIFT_DIST);
            let r_hi = (start_h + MAX_SHIFT_DIST + 1).min(m);
            for start_r in r_lo..r_hi {
                let mut len = 0;
                while len < MAX_SHIFT_SIZE && self.words[start_h + len] == reference[start_r + len] {
                    len += 1;
                    self.try_phrase(reference, start_h, start_r, len, pre_score, checked, &mut best);
                    if *checked >= MAX_SHIFT_CANDIDATES {
                        return Ok(best);
                    }
                    if start_h + len == n || start_r + len == m {
                        break;
                    }
                }
            }
        }
        Ok(best)
    }

    #[allow(clippy::too_many_arguments)]
    fn try_phrase(&mut self, reference: &[u32], start_h: usize, start_r: usize, len: usize, pre_score: i64, checked: &mut usize, best: &mut Option<Candidate>) {
        if self.hyp_err[start_h + len] - self.hyp_err[start_h] == 0 {
            return;
        }
        if self.ref_err[start_r + len] - self.ref_err[start_r] == 0 {
            return;
        }
        let a = self.align[start_r];
        if start_h as i64 <= a && a < (start_h + len) as i64 {
            return;
        }
        let mut prev_target: i64 = -1;
        for offset in -1..len as i64 {
            let pos = start_r as i64 + offset;
            let target = if pos == -1 { 0 } else { self.align[pos as usize] + 1 };
            if target == prev_target {
                continue;
            }
            prev_target = target;
            let target = target as usize;
            *checked += 1;
            // the largest distance with which this candidate still beats the best one
            let limit = match best {
                None => INF as i64,
                Some(b) => {
                    let tie = Candidate { gain: b.gain, len, start: start_h, target };
                    pre_score - b.gain - 1 + tie.beats(b) as i64
                }
            };
            if limit < 0 {
                continue;
            }
            let words = std::mem::take(&mut self.words);
            perform_shift(&words, start_h, len, target, &mut self.shifted);
            self.words = words;
            let first_changed = start_h.min(target);
            if let Some(ed) = self.shifted_cost(reference, first_changed, limit as u32) {
                let cand = Candidate { gain: pre_score - ed as i64, len, start: start_h, target };
                if best.as_ref().is_none_or(|b| cand.beats(b)) {
                    *best = Some(cand);
                }
            }
        }
    }

    /// `translation_edit_rate(hyp, ref)`: the number of edits (shifts + edit distance).
    pub fn edits(&mut self, hyp: &[u32], reference: &[u32]) -> Result<u64> {
        let (n, m) = (hyp.len(), reference.len());
        if m == 0 {
            return Ok(n as u64);
        }
        self.set_shape(n, m);
        self.words.clear();
        self.words.extend_from_slice(hyp);
        let mut shifts = 0u64;
        let mut checked = 0usize;
        loop {
            self.full_matrix(reference);
            let best = self.best_shift(reference, &mut checked)?;
            if checked >= MAX_SHIFT_CANDIDATES {
                break;
            }
            match best {
                Some(c) if c.gain > 0 => {
                    let words = std::mem::take(&mut self.words);
                    perform_shift(&words, c.start, c.len, c.target, &mut self.shifted);
                    self.words = words;
                    std::mem::swap(&mut self.words, &mut self.shifted);
                    shifts += 1;
                }
                _ => break,
            }
        }
        // the matrix of the final hypothesis is the one computed last
        Ok(shifts + self.cost_at(n, m) as u64)
    }
}

/// Reusable buffers for one worker.
#[derive(Default)]
pub struct Scratch {
    aligner: Aligner,
    text: String,
    text2: String,
    refs: Vec<String>,
}

/// ⚠ sacrebleu tokenizes every *reference* twice (`_cache_references` preprocesses the
/// lines, then `TER._extract_reference_info` preprocesses them again), and the
/// normalizer is not idempotent: `"his 40's,"` → `"his 40's ,"` → `"his 40 's ,"`.
/// Hypotheses are tokenized once.
pub fn tokenize_reference_into(opts: TercomOptions, text: &str, out: &mut String, tmp: &mut String) {
    tokenize_into(opts, text, tmp);
    tokenize_into(opts, tmp, out);
}

fn intern<'a>(ids: &mut FxHashMap<&'a str, u32>, text: &'a str) -> Vec<u32> {
    text.split(' ')
        .filter(|t| !t.is_empty())
        .map(|t| {
            let next = ids.len() as u32;
            *ids.entry(t).or_insert(next)
        })
        .collect()
}

/// Statistics of one segment: `(best edits, average reference length)`.
pub fn segment_stats<S: AsRef<str>>(cfg: &TerConfig, hyp: &str, refs: &[S], s: &mut Scratch) -> Result<(u64, f64)> {
    if refs.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    tokenize_into(cfg.tokenizer, hyp, &mut s.text);
    if s.refs.len() < refs.len() {
        s.refs.resize_with(refs.len(), String::new);
    }
    for (r, buf) in refs.iter().zip(s.refs.iter_mut()) {
        tokenize_reference_into(cfg.tokenizer, r.as_ref(), buf, &mut s.text2);
    }
    let mut ids = FxHashMap::default();
    let hyp_ids = intern(&mut ids, &s.text);
    let mut best = u64::MAX;
    let mut ref_lengths = 0u64;
    for r in &s.refs[..refs.len()] {
        let ref_ids = intern(&mut ids, r);
        let e = s.aligner.edits(&hyp_ids, &ref_ids)?;
        ref_lengths += ref_ids.len() as u64;
        best = best.min(e);
    }
    Ok((best, ref_lengths as f64 / refs.len() as f64))
}

/// Statistics of a batch: edits (u64) and average reference lengths (f64), one per segment.
pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(cfg: &TerConfig, hyps: &[H], refs: &[Vec<R>], n_threads: usize) -> Result<(Vec<u64>, Vec<f64>)> {
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: hyps.len(), right: refs.len() });
    }
    let rows = map_rows(hyps.len(), 1, n_threads, Scratch::default, |s, i, row: &mut [(u64, f64)]| {
        row[0] = segment_stats(cfg, hyps[i].as_ref(), &refs[i], s).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            e => e,
        })?;
        Ok(())
    })?;
    Ok(rows.into_iter().unzip())
}

/// `TER._compute_score_from_stats` on sacrebleu's 0–100 scale.
pub fn score(edits: u64, ref_length: f64) -> f64 {
    let s = if ref_length > 0.0 {
        edits as f64 / ref_length
    } else if edits > 0 {
        1.0
    } else {
        0.0
    };
    100.0 * s
}

/// Sentence TER of every candidate against every pseudo-reference (MBR decoding):
/// `out[i * refs.len() + j]` is the TER of `cands[i]` against `refs[j]` alone.
/// Every sentence is tokenized and interned once.
pub fn pairwise<S: AsRef<str> + Sync>(cfg: &TerConfig, cands: &[S], refs: &[S], n_threads: usize) -> Result<Vec<f64>> {
    let tok = |xs: &[S]| -> Result<Vec<String>> {
        map_rows(xs.len(), 1, n_threads, || (), |_, i, row: &mut [String]| {
            tokenize_into(cfg.tokenizer, xs[i].as_ref(), &mut row[0]);
            Ok(())
        })
    };
    let ct = tok(cands)?;
    let rt = map_rows(refs.len(), 1, n_threads, String::new, |tmp, i, row: &mut [String]| {
        tokenize_reference_into(cfg.tokenizer, refs[i].as_ref(), &mut row[0], tmp);
        Ok(())
    })?;
    let mut ids = FxHashMap::default();
    let cand_ids: Vec<Vec<u32>> = ct.iter().map(|t| intern(&mut ids, t)).collect();
    let ref_ids: Vec<Vec<u32>> = rt.iter().map(|t| intern(&mut ids, t)).collect();
    map_rows(cands.len(), refs.len(), n_threads, Aligner::default, |al, i, row| {
        for (j, out) in row.iter_mut().enumerate() {
            let e = al.edits(&cand_ids[i], &ref_ids[j])?;
            *out = score(e, ref_ids[j].len() as f64);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(cfg: &TerConfig, hyps: &[&str], refs: &[Vec<&str>]) -> (u64, f64, f64) {
        let (e, l) = batch_stats(cfg, hyps, refs, 1).unwrap();
        let (e, l): (u64, f64) = (e.iter().sum(), l.iter().sum());
        (e, l, score(e, l))
    }

    fn cfg() -> TerConfig {
        TerConfig::default()
    }

    #[test]
    fn reference_values() {
        // sacrebleu 2.6.0 values (reference-semantics §5)
        let (_, _, s) = corpus(&cfg(), &["The cat sat on the mat."], &[vec!["The cat is sitting on the mat."]]);
        assert!((s - 28.57).abs() < 0.005, "{s}");
        let (e, _, s) = corpus(&cfg(), &["mat the on sat cat the"], &[vec!["the cat sat on the mat"]]);
        assert_eq!((e, s), (3, 50.0));
        assert_eq!(corpus(&cfg(), &[""], &[vec!["a b"]]).2, 100.0);
        assert_eq!(corpus(&cfg(), &["a b"], &[vec![""]]).2, 100.0);
        assert_eq!(corpus(&cfg(), &[""], &[vec![""]]).2, 0.0);
        let (e, l, s) = corpus(&cfg(), &["a b c d", "x y"], &[vec!["a b c", "a c d e f"], vec!["x y z w", "x"]]);
        assert_eq!((e, l), (2, 6.5));
        assert!((s - 30.77).abs() < 0.005);
    }

    #[test]
    fn references_are_tokenized_twice() {
        let norm = TerConfig { tokenizer: TercomOptions { normalized: true, ..Default::default() } };
        // sacrebleu 2.6.0 on an identical pair: 2 edits, the reference has 4 tokens
        // ("his 40 's ,") and the hypothesis 3 ("his 40's ,")
        let (e, l) = batch_stats(&norm, &["his 40's,"], &[vec!["his 40's,"]], 1).unwrap();
        assert_eq!((e[0], l[0]), (2, 4.0));
    }

    #[test]
    fn shift_slicing_matches_python() {
        let w: Vec<u32> = (0..6).collect();
        let mut out = vec![];
        perform_shift(&w, 3, 2, 1, &mut out);
        assert_eq!(out, [0, 3, 4, 1, 2, 5]);
        perform_shift(&w, 0, 2, 4, &mut out);
        assert_eq!(out, [2, 3, 0, 1, 4, 5]);
        // "within": target in [start, start+len] moves right by target-start
        perform_shift(&w, 1, 2, 2, &mut out);
        assert_eq!(out, [0, 3, 1, 2, 4, 5]);
        perform_shift(&w, 3, 2, 5, &mut out);
        assert_eq!(out, [0, 1, 2, 5, 3, 4]);
        perform_shift(&w, 1, 2, 1, &mut out);
        assert_eq!(out, w);
    }

    #[test]
    fn the_table_is_linear_in_the_pair() {
        // a 100,000-word pair with a few local edits: the stored band is ~50 cells a row
        let n = 100_000u32;
        let hyp: Vec<u32> = (0..n).map(|i| i % 1000).collect();
        let mut reference = hyp.clone();
        reference.swap(10, 11);
        reference[50_000] = 5000;
        let mut al = Aligner::default();
        let e = al.edits(&hyp, &reference).unwrap();
        assert_eq!(e, 2); // one shift of the swapped pair, one substitution
        assert!(al.cost.len() <= 2 * (n as usize + 1) + 2 * BEAM_WIDTH * n as usize, "{} cells", al.cost.len());
        // very unequal lengths widen the band, and the table stays linear
        al.edits(&hyp[..100], &reference).unwrap();
        assert!(al.cost.len() <= 3 * (n as usize + 1) + 2 * BEAM_WIDTH * 100);
    }

    #[test]
    fn identical_and_pairwise() {
        let xs = ["a b c d e", "e d c b a", "a b", "", "x a b c y"];
        let m = pairwise(&cfg(), &xs, &xs, 2).unwrap();
        for i in 0..xs.len() {
            for j in 0..xs.len() {
                let (_, _, s) = corpus(&cfg(), &[xs[i]], &[vec![xs[j]]]);
                assert_eq!(m[i * xs.len() + j], s);
            }
            assert_eq!(m[i * xs.len() + i], 0.0);
        }
    }
}
