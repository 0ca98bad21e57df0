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
//! so an `n`-word hypothesis against an `m`-word reference takes at most
//! `9 · (2·(m+1) + min(2·beam, m+1)·n)` bytes for the forward table and the backward
//! distances (`beam` = 25, or `m/(2n) + 25` for a reference over 50 times longer), plus
//! about `48·(n + m)` bytes of bookkeeping: linear in the pair's length, about 60 MB for a
//! 100,000-word pair. (sacrebleu keeps every row whole, `8·(m+1)` bytes each, so its
//! memory is quadratic.)
//!
//! Speed without changing a number (`tests::the_aligner_matches_a_literal_port_of_sacrebleu`):
//! - words are integer ids; candidates are enumerated from the positions of each
//!   hypothesis word in the reference (a bit mask, or a sorted index), in sacrebleu's order;
//! - a reference of 1 to 64 words gets one-word bit-parallel rows of the *unrestricted*
//!   distance (Myers 1999, Hyyrö 2001), kept per row of the current hypothesis, so a
//!   candidate only recomputes the rows from its first moved word. Any path through a
//!   cell (i, j) outside the band costs at least `|i - j| + |(n - i) - (m - j)|`; when the
//!   unrestricted distance is below that for every outside cell (`safe_below`), every
//!   optimal path lies in the band, so the banded distance is the same, and so is the
//!   trace (each cell's first optimal predecessor in sacrebleu's order, read off the
//!   bit rows). Otherwise, or for longer references, the banded rows are used;
//! - banded candidates re-use the rows of the current matrix up to the first moved word,
//!   compute costs only (no trace) up to the last moved word, and meet the backward
//!   distances of the current hypothesis there (computed once the rows they save add
//!   up to their own cost); they stop as soon as a row's minimum shows that the
//!   candidate cannot outrank the best one (it still counts towards the 1000 cap);
//! - after a shift, forward rows before the first moved word and backward rows after
//!   the last are kept (sacrebleu's prefix-trie row cache does the former; it never
//!   changes a value: rows depend only on the words before them, and every shift keeps
//!   the hypothesis' length, hence the band).
//!
//! Cost bound: a round costs `O((n + m) · beam)` (its trace needs the whole matrix), a
//! candidate `O(moved span · beam)` (the span is at most the phrase, the shift distance
//! and the band's width for comparable lengths), and at most 1000 candidates are
//! evaluated per pair, each round evaluating at least one. A 100,000-word pair of
//! unrelated text takes about 0.1 s; a pair needing `R` rounds about `R` times a
//! banded distance over the pair (`R` ≤ 1000; about 0.1 s per round per 100,000 words).
//! sacrebleu's cache holds 10,000 rows, so on such pairs it re-runs the whole banded
//! distance per candidate (hours). Ctrl-C is checked about every 65,536 cells.

use crate::error::{Error, Result};
use crate::interrupt::Budget;
use crate::parallel::map_rows;
use crate::tokenize::ter::{preprocess_into, TercomOptions};
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
    /// where row `i`'s band starts in `cost` / `ops` / `back` (`n + 2` entries)
    start: Vec<usize>,
    /// the banded matrix of `words`, row after row, valid for the rows before
    /// `banded_from` (a row depends on the words before it only); a cell outside its
    /// row's band reads as INF / OP_UNDEF
    cost: Vec<u32>,
    ops: Vec<u8>,
    banded_from: usize,
    /// banded distance from every cell to the last one, for `words`, valid for the rows
    /// from `back_to` on (a row depends on the words from it on only)
    back: Vec<u32>,
    back_to: usize,
    /// rows computed this round after the changed words of candidates (`back` saves them)
    tail_rows: usize,
    rows: [Vec<u32>; 2],
    /// dirty range of each rolling row
    dirty: [(usize, usize); 2],
    words: Vec<u32>,
    /// `words` with the shift under evaluation applied (equal to `words` between candidates)
    shifted: Vec<u32>,
    /// banded distance of `words`
    dist: u32,
    /// an unrestricted distance below this is the banded one (see `set_shape`)
    safe_below: u32,
    /// the reference has 1 to 64 words: unrestricted rows are one machine word each
    bit_parallel: bool,
    /// bit `j` of `peq[w]`: reference word `j` is `w`
    peq: Vec<u64>,
    peq_set: Vec<u32>,
    /// unrestricted row `i` of `words`: bit `j - 1` set in `vp[i]` (`vn[i]`) when
    /// `D[i][j] - D[i][j-1]` is +1 (-1); `D[i][0] = i`
    vp: Vec<u64>,
    vn: Vec<u64>,
    /// the reference's `(word, position)` pairs, sorted (references of over 64 words)
    ref_index: Vec<(u32, u32)>,
    /// operations from the last cell back to the first
    trace: Vec<u8>,
    align: Vec<i64>,
    hyp_err: Vec<u32>,
    ref_err: Vec<u32>,
    budget: Budget,
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

/// The words `_perform_shift` changes, as `(first, end, k)`: the shifted words are the
/// words with `[first, end)` rotated left by `k` (Python's slice clamping included).
fn shift_span(n: usize, start: usize, len: usize, target: usize) -> (usize, usize, usize) {
    if target < start {
        (target, start + len, start - target)
    } else if target > start + len {
        (start, target, len)
    } else {
        // "shift within": sacrebleu moves the phrase `target - start` words right
        (start, (len + target).min(n), len)
    }
}

/// `_perform_shift`.
fn perform_shift(words: &[u32], start: usize, len: usize, target: usize, out: &mut Vec<u32>) {
    let (first, end, k) = shift_span(words.len(), start, len, target);
    out.clear();
    out.extend_from_slice(&words[..first]);
    out.extend_from_slice(&words[first + k..end]);
    out.extend_from_slice(&words[first..first + k]);
    out.extend_from_slice(&words[end..]);
}

/// The low `j` bits.
#[inline]
fn low_bits(j: usize) -> u64 {
    if j >= 64 {
        !0
    } else {
        (1u64 << j) - 1
    }
}

/// One row of the unrestricted edit distance, bit-parallel (Myers 1999, Hyyrö 2001):
/// the row after `(vp, vn)` for a hypothesis word matching the reference at `eq`.
/// Bits above the reference's length hold garbage that never reaches the lower ones.
#[inline(always)]
fn myers_step(vp: u64, vn: u64, eq: u64) -> (u64, u64) {
    let d0 = (((eq & vp).wrapping_add(vp)) ^ vp) | eq | vn;
    let hp = vn | !(d0 | vp);
    let hn = d0 & vp;
    let hp = (hp << 1) | 1; // D[i][0] - D[i-1][0] = 1
    let hn = hn << 1;
    (hn | !(d0 | hp), hp & d0)
}

/// `D[i][j]` from row `i`'s deltas.
#[inline]
fn bit_value(i: usize, vp: u64, vn: u64, j: usize) -> i64 {
    let mask = low_bits(j);
    i as i64 + (vp & mask).count_ones() as i64 - (vn & mask).count_ones() as i64
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
        if let Err(mut oom) = crate::memory::check(cells, std::mem::size_of::<u32>() + 1, "") {
            oom.what = format!("TER's edit table of a {n} x {m}-word pair");
            std::panic::resume_unwind(Box::new(oom));
        }
        // The banded distance is the least cost of a path inside the band, the
        // unrestricted one of any path. A path through cell (i, j) costs at least
        // |i - j| + |(n - i) - (m - j)|; if the unrestricted distance is below that bound
        // for every cell outside the band, every optimal path lies inside the band, and
        // so do the cells any optimal path passes through: both distances, and the
        // traces (each cell's choice among its optimal predecessors), are the same.
        let (ni, mi) = (n as i64, m as i64);
        let mut safe = INF as i64;
        for i in 1..n {
            let ii = i as i64;
            let (a, b) = (ii.min(ii + mi - ni), ii.max(ii + mi - ni));
            let bound = |j: i64| (j - ii).abs() + (j - ii - mi + ni).abs();
            let (lo, hi) = (self.lo[i] as i64, self.hi[i] as i64);
            if lo > 0 {
                safe = safe.min(bound(a.min(lo - 1).max(0)));
            }
            if hi <= mi {
                safe = safe.min(bound(b.max(hi).min(mi)));
            }
        }
        self.safe_below = safe as u32;
        self.banded_from = 0;
        self.back_to = n + 1;
        for r in 0..2 {
            self.rows[r].clear();
            self.dirty[r] = (0, 0);
        }
    }

    /// Index of cell `(i, j)` in `cost` / `ops` / `back`, if it lies in row `i`'s band.
    #[inline]
    fn cell(&self, i: usize, j: usize) -> Option<usize> {
        (j >= self.lo[i] && j < self.hi[i]).then(|| self.start[i] + j - self.lo[i])
    }

    #[inline]
    fn cost_at(&self, i: usize, j: usize) -> u32 {
        self.cell(i, j).map_or(INF, |k| self.cost[k])
    }

    /// The reference's word masks (1 to 64 words) or sorted index (longer references).
    fn index_reference(&mut self, hyp: &[u32], reference: &[u32]) {
        for &w in &self.peq_set {
            self.peq[w as usize] = 0;
        }
        self.peq_set.clear();
        self.ref_index.clear();
        self.bit_parallel = !hyp.is_empty() && reference.len() <= 64;
        if self.bit_parallel {
            let top = hyp.iter().chain(reference).copied().max().unwrap_or(0) as usize;
            if self.peq.len() <= top {
                self.peq.resize(top + 1, 0);
            }
            for (j, &w) in reference.iter().enumerate() {
                if self.peq[w as usize] == 0 {
                    self.peq_set.push(w);
                }
                self.peq[w as usize] |= 1 << j;
            }
        } else {
            self.ref_index.extend(reference.iter().enumerate().map(|(j, &w)| (w, j as u32)));
            self.ref_index.sort_unstable();
        }
    }

    /// The banded matrix (costs and operations) of `self.words` against `reference`
    /// (rows before `banded_from` are kept).
    fn ensure_banded(&mut self, reference: &[u32]) {
        if self.banded_from > self.n {
            return;
        }
        let (n, m) = (self.n, self.m);
        let cells = self.start[n + 1];
        if self.cost.len() < cells {
            // every cell of the band is written below
            self.cost.resize(cells, INF);
            self.ops.resize(cells, OP_UNDEF);
        }
        if self.rows[0].len() != m + 1 {
            crate::memory::ensure::<u32>((m + 1).saturating_mul(2), "TER's edit rows");
            for r in 0..2 {
                self.rows[r].clear();
                self.rows[r].resize(m + 1, INF);
                self.dirty[r] = (0, 0);
            }
        }
        if self.banded_from == 0 {
            for j in 0..=m {
                self.cost[j] = j as u32;
                self.ops[j] = OP_INS;
            }
            self.banded_from = 1;
        }
        for i in self.banded_from..=n {
            let (plo, phi, clo, chi) = (self.lo[i - 1], self.hi[i - 1], self.lo[i], self.hi[i]);
            self.budget.spend(chi - clo);
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
        self.banded_from = n + 1;
    }

    /// Banded distances from every cell to the last one, for `self.words`: the same
    /// moves as the forward matrix, walked backwards (rows from `back_to` on are kept).
    fn compute_back(&mut self, reference: &[u32]) {
        let (n, m) = (self.n, self.m);
        let cells = self.start[n + 1];
        if self.back.len() < cells {
            self.back.resize(cells, INF);
        }
        if self.back_to > n {
            let (lo_n, base) = (self.lo[n], self.start[n]);
            for j in lo_n..=m {
                self.back[base + j - lo_n] = (m - j) as u32;
            }
            self.back_to = n;
        }
        for i in (0..self.back_to).rev() {
            let (lo, hi, nlo, nhi) = (self.lo[i], self.hi[i], self.lo[i + 1], self.hi[i + 1]);
            self.budget.spend(hi - lo);
            let (before, after) = self.back.split_at_mut(self.start[i + 1]);
            let cur = &mut before[self.start[i]..];
            let next = &after[..nhi - nlo];
            let next_at = |j: usize| if j >= nlo && j < nhi { next[j - nlo] } else { INF };
            let word = self.words[i];
            for j in (lo..hi).rev() {
                let right = if j + 1 < hi { cur[j + 1 - lo] } else { INF };
                let mut b = (right + 1).min(next_at(j) + 1);
                if j < m {
                    b = b.min(next_at(j + 1) + (word != reference[j]) as u32);
                }
                cur[j - lo] = b.min(INF);
            }
        }
        self.back_to = 0;
    }

    /// Unrestricted rows of `self.words` (bit-parallel); returns the distance.
    fn bit_rows(&mut self) -> u32 {
        let m = self.m;
        self.budget.spend(self.n);
        self.vp.clear();
        self.vn.clear();
        let (mut vp, mut vn) = (low_bits(m), 0u64);
        self.vp.push(vp);
        self.vn.push(vn);
        for &w in &self.words {
            (vp, vn) = myers_step(vp, vn, self.peq[w as usize]);
            self.vp.push(vp);
            self.vn.push(vn);
        }
        bit_value(self.n, vp, vn, m) as u32
    }

    /// The trace of the unrestricted matrix with sacrebleu's preferences (diagonal,
    /// then hypothesis side, then reference side), read off the bit-parallel rows.
    fn bit_trace(&mut self, reference: &[u32]) {
        self.trace.clear();
        let (mut i, mut j) = (self.n, self.m);
        let (vp, vn) = (&self.vp, &self.vn);
        let mut d = bit_value(i, vp[i], vn[i], j);
        while i > 0 || j > 0 {
            let op = if i == 0 {
                OP_INS
            } else if j == 0 {
                OP_DEL
            } else {
                let bit = 1u64 << (j - 1);
                let delta = |k: usize| ((vp[k] & bit != 0) as i64) - ((vn[k] & bit != 0) as i64);
                let up = bit_value(i - 1, vp[i - 1], vn[i - 1], j);
                let diag = up - delta(i - 1);
                let same = self.words[i - 1] == reference[j - 1];
                if diag + (!same) as i64 == d {
                    d = diag;
                    if same {
                        OP_NOP
                    } else {
                        OP_SUB
                    }
                } else if up + 1 == d {
                    d = up;
                    OP_DEL
                } else {
                    d -= delta(i);
                    OP_INS
                }
            };
            self.trace.push(op);
            match op {
                OP_NOP | OP_SUB => {
                    i -= 1;
                    j -= 1;
                }
                OP_DEL => i -= 1,
                _ => j -= 1,
            }
        }
    }

    /// The trace of the banded matrix.
    fn banded_trace(&mut self) -> Result<()> {
        self.trace.clear();
        let (mut i, mut j) = (self.n, self.m);
        while i > 0 || j > 0 {
            let op = self.cell(i, j).map_or(OP_UNDEF, |k| self.ops[k]);
            match op {
                OP_NOP | OP_SUB => {
                    i -= 1;
                    j -= 1;
                }
                OP_DEL => i -= 1,
                OP_INS => j -= 1,
                _ => return Err(Error::InvalidInput(format!("TER: broken edit trace at ({i}, {j})"))),
            }
            self.trace.push(op);
        }
        Ok(())
    }

    /// The alignment of reference positions to hypothesis positions and the error
    /// flags (as prefix sums, so that "any error in a span" is one subtraction), as
    /// `trace_to_alignment` derives them from the flipped trace.
    fn alignment(&mut self) {
        let (n, m) = (self.n, self.m);
        self.align.clear();
        self.align.resize(m, -1);
        self.hyp_err.clear();
        self.hyp_err.resize(n + 1, 0);
        self.ref_err.clear();
        self.ref_err.resize(m + 1, 0);
        let (mut i, mut j) = (n, m);
        for &op in &self.trace {
            match op {
                OP_NOP | OP_SUB => {
                    let e = (op == OP_SUB) as u32;
                    self.hyp_err[i] = e;
                    self.ref_err[j] = e;
                    self.align[j - 1] = i as i64 - 1;
                    i -= 1;
                    j -= 1;
                }
                OP_DEL => {
                    self.hyp_err[i] = 1;
                    i -= 1;
                }
                _ => {
                    self.ref_err[j] = 1;
                    self.align[j - 1] = i as i64 - 1;
                    j -= 1;
                }
            }
        }
        for k in 1..=n {
            self.hyp_err[k] += self.hyp_err[k - 1];
        }
        for k in 1..=m {
            self.ref_err[k] += self.ref_err[k - 1];
        }
    }

    /// The distance and trace of `self.words`, and `self.shifted` reset to it.
    fn start_round(&mut self, reference: &[u32]) -> Result<()> {
        self.tail_rows = 0;
        self.shifted.clear();
        self.shifted.extend_from_slice(&self.words);
        if self.bit_parallel {
            let d = self.bit_rows();
            if d < self.safe_below {
                self.dist = d;
                self.bit_trace(reference);
                self.alignment();
                return Ok(());
            }
        }
        self.ensure_banded(reference);
        self.dist = self.cost_at(self.n, self.m);
        self.banded_trace()?;
        self.alignment();
        Ok(())
    }

    /// Banded distance of `self.shifted`, if it is at most `limit`. `shifted` equals
    /// `words` before `first` and from `end` on.
    fn candidate_cost(&mut self, reference: &[u32], first: usize, end: usize, limit: u32) -> Option<u32> {
        if self.bit_parallel {
            let (mut vp, mut vn) = (self.vp[first], self.vn[first]);
            self.budget.spend(self.n - first);
            for &w in &self.shifted[first..] {
                (vp, vn) = myers_step(vp, vn, self.peq[w as usize]);
            }
            let d = bit_value(self.n, vp, vn, self.m) as u32;
            // the banded distance is never below the unrestricted one
            if d < self.safe_below || d > limit {
                return (d <= limit).then_some(d);
            }
        }
        self.ensure_banded(reference);
        self.banded_cost(reference, first, end, limit)
    }

    /// Banded distance (cost only) of `self.shifted`, whose rows `0..=p` are those of
    /// `self.words`, if it is at most `limit`. Rows go up to the last changed word,
    /// then meet the backward distances of `self.words` (computed once the rows they
    /// save add up to their own cost), or else go to the end. Stops as
    /// soon as a row's minimum exceeds `limit`: every path crosses each row and costs
    /// never decrease along a path, so a row's minimum is a lower bound.
    fn banded_cost(&mut self, reference: &[u32], p: usize, end: usize, limit: u32) -> Option<u32> {
        let (n, m) = (self.n, self.m);
        if p >= n {
            let c = self.cost_at(n, m);
            return (c <= limit).then_some(c);
        }
        let mut stop = n;
        if end < n {
            if self.back_to > 0 {
                self.tail_rows += n - end;
                if self.tail_rows >= self.back_to {
                    self.compute_back(reference);
                }
            }
            if self.back_to == 0 {
                stop = end;
            }
        }
        // row p of the current matrix, unchanged by the shift, starts the rolling rows
        let (plo, phi) = (self.lo[p], self.hi[p]);
        let (dl, dh) = self.dirty[0];
        self.rows[0][dl..dh].fill(INF);
        self.rows[0][plo..phi].copy_from_slice(&self.cost[self.start[p]..self.start[p + 1]]);
        self.dirty[0] = (plo, phi);
        let mut prev_idx = 0usize;
        for i in p + 1..=stop {
            let cur_idx = 1 - prev_idx;
            // restore INF where this buffer held an older row
            let (dl, dh) = self.dirty[cur_idx];
            let [r0, r1] = &mut self.rows;
            let (cur, prev) = if cur_idx == 0 { (r0, &*r1) } else { (r1, &*r0) };
            cur[dl..dh].fill(INF);
            let (lo, hi) = (self.lo[i], self.hi[i]);
            self.budget.spend(hi - lo);
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
        let row = &self.rows[prev_idx];
        let c = if stop == n {
            row[m]
        } else {
            let (lo, hi, base) = (self.lo[stop], self.hi[stop], self.start[stop]);
            let back = &self.back[base..base + hi - lo];
            row[lo..hi].iter().zip(back).map(|(&f, &b)| (f as u64 + b as u64).min(INF as u64)).min().unwrap_or(INF as u64) as u32
        };
        (c <= limit).then_some(c)
    }

    /// One round of `_shift`: the best candidate, or None; `checked` is updated.
    fn best_shift(&mut self, reference: &[u32], checked: &mut usize) -> Option<Candidate> {
        let (n, m) = (self.n, self.m);
        let pre_score = self.dist as i64;
        let mut best: Option<Candidate> = None;
        for start_h in 0..n {
            // phrases start at equal words at most MAX_SHIFT_DIST apart, in order of start_r
            let r_lo = start_h.saturating_sub(MAX_SHIFT_DIST);
            if r_lo >= m {
                break;
            }
            let r_hi = (start_h + MAX_SHIFT_DIST + 1).min(m);
            self.budget.spend(1);
            let w = self.words[start_h];
            if self.bit_parallel {
                let mut at = self.peq[w as usize] & low_bits(r_hi) & !low_bits(r_lo);
                while at != 0 {
                    let start_r = at.trailing_zeros() as usize;
                    at &= at - 1;
                    if self.phrases_at(reference, start_h, start_r, pre_score, checked, &mut best) {
                        return best;
                    }
                }
            } else {
                let mut k = self.ref_index.partition_point(|&e| e < (w, r_lo as u32));
                while let Some(&(word, start_r)) = self.ref_index.get(k) {
                    if word != w || start_r as usize >= r_hi {
                        break;
                    }
                    k += 1;
                    if self.phrases_at(reference, start_h, start_r as usize, pre_score, checked, &mut best) {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// Every phrase starting at `(start_h, start_r)`, longest last; true once the
    /// candidate cap is reached.
    fn phrases_at(&mut self, reference: &[u32], start_h: usize, start_r: usize, pre_score: i64, checked: &mut usize, best: &mut Option<Candidate>) -> bool {
        let (n, m) = (self.n, self.m);
        let mut len = 0;
        while len < MAX_SHIFT_SIZE && self.words[start_h + len] == reference[start_r + len] {
            len += 1;
            self.try_phrase(reference, start_h, start_r, len, pre_score, checked, best);
            if *checked >= MAX_SHIFT_CANDIDATES {
                return true;
            }
            if start_h + len == n || start_r + len == m {
                break;
            }
        }
        false
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
            let (first, end, k) = shift_span(self.n, start_h, len, target);
            let region = &mut self.shifted[first..end];
            region.copy_from_slice(&self.words[first..end]);
            region.rotate_left(k);
            let cost = self.candidate_cost(reference, first, end, limit as u32);
            self.shifted[first..end].copy_from_slice(&self.words[first..end]);
            if let Some(ed) = cost {
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
        self.index_reference(hyp, reference);
        self.words.clear();
        self.words.extend_from_slice(hyp);
        let mut shifts = 0u64;
        let mut checked = 0usize;
        loop {
            self.start_round(reference)?;
            let best = self.best_shift(reference, &mut checked);
            if checked >= MAX_SHIFT_CANDIDATES {
                break;
            }
            match best {
                Some(c) if c.gain > 0 => {
                    perform_shift(&self.words, c.start, c.len, c.target, &mut self.shifted);
                    std::mem::swap(&mut self.words, &mut self.shifted);
                    // rows before the first moved word and after the last keep their
                    // forward and backward distances
                    let (first, end, _) = shift_span(n, c.start, c.len, c.target);
                    self.banded_from = self.banded_from.min(first + 1);
                    self.back_to = self.back_to.max(end);
                    shifts += 1;
                }
                _ => break,
            }
        }
        // the distance of the final hypothesis is the one computed last
        Ok(shifts + self.dist as u64)
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
    preprocess_into(opts, text, tmp);
    if !opts.normalized && tmp.is_ascii() {
        // the second pass changes nothing: the text is already lowercased (or kept
        // as is), stripped of the removed punctuation and joined by single spaces
        out.clear();
        out.push_str(tmp);
        return;
    }
    preprocess_into(opts, tmp, out);
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
    preprocess_into(cfg.tokenizer, hyp, &mut s.text);
    if s.refs.len() < refs.len() {
        s.refs.resize_with(refs.len(), String::new);
    }
    for (r, buf) in refs.iter().zip(s.refs.iter_mut()) {
        tokenize_reference_into(cfg.tokenizer, r.as_ref(), buf, &mut s.text2);
    }
    let words = s.text.len() / 4 + s.refs[..refs.len()].iter().map(|r| r.len() / 4).sum::<usize>() + 8;
    let mut ids = FxHashMap::with_capacity_and_hasher(words, Default::default());
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
            preprocess_into(cfg.tokenizer, xs[i].as_ref(), &mut row[0]);
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
        let cells = |al: &Aligner| al.start[al.n + 1];
        assert!(cells(&al) <= 2 * (n as usize + 1) + 2 * BEAM_WIDTH * n as usize, "{} cells", cells(&al));
        assert!(al.cost.len() <= cells(&al) && al.back.len() <= cells(&al));
        // very unequal lengths widen the band, and the table stays linear
        al.edits(&hyp[..100], &reference).unwrap();
        assert!(cells(&al) <= 3 * (n as usize + 1) + 2 * BEAM_WIDTH * 100);
    }

    /// sacrebleu's `lib_ter.py`, line by line (without its row cache, which never
    /// changes a value): the oracle the optimised aligner is compared with.
    mod literal {
        const INF: i64 = 10_000_000_000_000_000;

        fn beam_edit_distance(h: &[u32], r: &[u32]) -> (i64, Vec<u8>) {
            let (n, m) = (h.len(), r.len());
            let mut dist = vec![vec![(INF, b'x'); m + 1]; n + 1];
            for (j, cell) in dist[0].iter_mut().enumerate() {
                *cell = (j as i64, b'i');
            }
            let ratio = if n > 0 { m as f64 / n as f64 } else { 1.0 };
            let beam = if 25.0 < ratio / 2.0 { (ratio / 2.0 + 25.0).ceil() as i64 } else { 25 };
            for i in 1..=n {
                let diag = (i as f64 * ratio).floor() as i64;
                let min_j = (diag - beam).max(0) as usize;
                let mut max_j = ((m + 1) as i64).min(diag + beam).max(0) as usize;
                if i == n {
                    max_j = m + 1;
                }
                for j in min_j..max_j {
                    if j == 0 {
                        dist[i][j] = (dist[i - 1][j].0 + 1, b'd');
                    } else {
                        let (cs, os) = if h[i - 1] == r[j - 1] { (0, b' ') } else { (1, b's') };
                        for (c, o) in [(dist[i - 1][j - 1].0 + cs, os), (dist[i - 1][j].0 + 1, b'd'), (dist[i][j - 1].0 + 1, b'i')] {
                            if dist[i][j].0 > c {
                                dist[i][j] = (c, o);
                            }
                        }
                    }
                }
            }
            let mut trace = vec![];
            let (mut i, mut j) = (n, m);
            while i > 0 || j > 0 {
                let op = dist[i][j].1;
                trace.push(op);
                match op {
                    b's' | b' ' => {
                        i -= 1;
                        j -= 1;
                    }
                    b'i' => j -= 1,
                    b'd' => i -= 1,
                    _ => panic!("unknown operation"),
                }
            }
            trace.reverse();
            (dist[n][m].0, trace)
        }

        fn perform_shift(w: &[u32], start: usize, len: usize, target: usize) -> Vec<u32> {
            let n = w.len();
            let sl = |a: usize, b: usize| w[a.min(n)..b.min(n).max(a.min(n))].to_vec();
            if target < start {
                [sl(0, target), sl(start, start + len), sl(target, start), sl(start + len, n)].concat()
            } else if target > start + len {
                [sl(0, start), sl(start + len, target), sl(start, start + len), sl(target, n)].concat()
            } else {
                [sl(0, start), sl(start + len, len + target), sl(start, start + len), sl(len + target, n)].concat()
            }
        }

        fn shift(h: &[u32], r: &[u32], checked: &mut usize) -> (i64, Vec<u32>) {
            let (pre, inv) = beam_edit_distance(h, r);
            // flip the trace, then trace_to_alignment
            let (mut ph, mut pr) = (-1i64, -1i64);
            let (mut hyp_err, mut ref_err) = (vec![], vec![]);
            let mut align = std::collections::HashMap::new();
            for op in inv {
                match op {
                    b' ' | b's' => {
                        ph += 1;
                        pr += 1;
                        align.insert(pr, ph);
                        hyp_err.push((op == b's') as i64);
                        ref_err.push((op == b's') as i64);
                    }
                    b'd' => {
                        // flipped to an insertion
                        ph += 1;
                        hyp_err.push(1);
                    }
                    _ => {
                        pr += 1;
                        align.insert(pr, ph);
                        ref_err.push(1);
                    }
                }
            }
            let mut best: Option<(i64, usize, i64, i64, Vec<u32>)> = None;
            let sum = |v: &[i64], a: usize, b: usize| v[a..b.min(v.len())].iter().sum::<i64>();
            'outer: for start_h in 0..h.len() {
                for start_r in 0..r.len() {
                    if (start_r as i64 - start_h as i64).abs() > 50 {
                        continue;
                    }
                    let mut len = 0;
                    while h[start_h + len] == r[start_r + len] && len < 10 {
                        len += 1;
                        let mut skip = sum(&hyp_err, start_h, start_h + len) == 0 || sum(&ref_err, start_r, start_r + len) == 0;
                        let a = align[&(start_r as i64)];
                        skip |= start_h as i64 <= a && a < (start_h + len) as i64;
                        if !skip {
                            let mut prev = -1i64;
                            for offset in -1..len as i64 {
                                let idx = if start_r as i64 + offset == -1 {
                                    0
                                } else if let Some(&a) = align.get(&(start_r as i64 + offset)) {
                                    a + 1
                                } else {
                                    break;
                                };
                                if idx == prev {
                                    continue;
                                }
                                prev = idx;
                                let shifted = perform_shift(h, start_h, len, idx as usize);
                                let cand = (pre - beam_edit_distance(&shifted, r).0, len, -(start_h as i64), -idx, shifted);
                                *checked += 1;
                                if best.as_ref().is_none_or(|b| cand > *b) {
                                    best = Some(cand);
                                }
                            }
                            if *checked >= 1000 {
                                break 'outer;
                            }
                        }
                        if h.len() == start_h + len || r.len() == start_r + len {
                            break;
                        }
                    }
                }
            }
            match best {
                None => (0, h.to_vec()),
                Some((gain, _, _, _, w)) => (gain, w),
            }
        }

        pub fn translation_edit_rate(h: &[u32], r: &[u32]) -> u64 {
            if r.is_empty() {
                return h.len() as u64;
            }
            let (mut words, mut shifts, mut checked) = (h.to_vec(), 0, 0);
            loop {
                let (delta, new_words) = shift(&words, r, &mut checked);
                if checked >= 1000 || delta <= 0 {
                    break;
                }
                shifts += 1;
                words = new_words;
            }
            (shifts + beam_edit_distance(&words, r).0) as u64
        }
    }

    /// xorshift64*: reproducible pseudo-random pairs without a dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, k: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % k
        }
    }

    /// A reference from a small vocabulary (many repeated words) and a hypothesis made
    /// from it by moving blocks, dropping, adding and replacing words: shift-heavy pairs.
    fn shuffled_pair(rng: &mut Rng, max_len: u64, vocab: u64) -> (Vec<u32>, Vec<u32>) {
        let m = rng.below(max_len + 1) as usize;
        let reference: Vec<u32> = (0..m).map(|_| rng.below(vocab) as u32).collect();
        let mut hyp = reference.clone();
        for _ in 0..rng.below(8) {
            let n = hyp.len();
            match rng.below(4) {
                0 if n > 1 => {
                    let a = rng.below(n as u64) as usize;
                    let len = 1 + rng.below(6.min(n - a) as u64) as usize;
                    let block: Vec<u32> = hyp.drain(a..a + len).collect();
                    let at = rng.below(hyp.len() as u64 + 1) as usize;
                    hyp.splice(at..at, block);
                }
                1 if n > 0 => {
                    hyp.remove(rng.below(n as u64) as usize);
                }
                2 => hyp.insert(rng.below(n as u64 + 1) as usize, rng.below(vocab) as u32),
                _ if n > 0 => hyp[rng.below(n as u64) as usize] = rng.below(vocab) as u32,
                _ => {}
            }
        }
        if rng.below(8) == 0 {
            // unrelated lengths: the band is narrow or widened
            let k = rng.below(3 * max_len + 1);
            hyp = (0..k).map(|_| rng.below(vocab) as u32).collect();
        }
        (hyp, reference)
    }

    #[test]
    fn the_aligner_matches_a_literal_port_of_sacrebleu() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut al = Aligner::default();
        // short pairs (one-word bit-parallel rows), long ones (the band binds, the
        // backward distances are used), tiny vocabularies (repeated words everywhere)
        for (cases, max_len, vocab) in [(1500, 30, 4), (1500, 40, 12), (200, 64, 6), (200, 70, 5), (100, 140, 8), (15, 400, 30)] {
            for _ in 0..cases {
                let (hyp, reference) = shuffled_pair(&mut rng, max_len, vocab);
                let want = literal::translation_edit_rate(&hyp, &reference);
                assert_eq!(al.edits(&hyp, &reference).unwrap(), want, "{hyp:?} vs {reference:?}");
            }
        }
        // rotations by more than the band's half-width: the unrestricted distance and
        // trace differ from the banded ones
        for _ in 0..200 {
            let m = 30 + rng.below(35) as usize;
            let vocab = [3, 20, 1000][rng.below(3) as usize];
            let reference: Vec<u32> = (0..m).map(|_| rng.below(vocab) as u32).collect();
            let mut hyp = reference.clone();
            hyp.rotate_left(20 + rng.below(m as u64 - 20) as usize);
            hyp.truncate(m - rng.below(4) as usize);
            let want = literal::translation_edit_rate(&hyp, &reference);
            assert_eq!(al.edits(&hyp, &reference).unwrap(), want, "{hyp:?} vs {reference:?}");
        }
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
