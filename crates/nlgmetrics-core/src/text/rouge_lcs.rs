//! Longest-common-subsequence kernels shared by the ROUGE flavours.
//!
//! Sequences are interned token ids. The traceback rule is the one rouge-score's
//! `_backtrack_norec` and ROUGE-1.5.5's `lcs_inner`/`markLCS` share: on a token match
//! step diagonally; otherwise step in the reference (model) dimension unless the other
//! neighbour is strictly larger.

/// Length of an LCS of `a` and `b`, by the bit-parallel algorithm of Allison & Dix
/// (1986) / Hyyrö (2004): one machine word per 64 tokens of the shorter sequence.
/// `row` is kept for call compatibility (scratch).
pub fn lcs_len(a: &[u32], b: &[u32], row: &mut Vec<u32>) -> usize {
    let (long, short) = if a.len() < b.len() { (b, a) } else { (a, b) };
    let m = short.len();
    if m == 0 {
        return 0;
    }
    let words = m.div_ceil(64);
    // Position masks of each distinct token of `short` (`words` u64 per token).
    row.clear();
    let mut index: rustc_hash::FxHashMap<u32, usize> = rustc_hash::FxHashMap::default();
    let mut masks: Vec<u64> = Vec::new();
    for (i, &t) in short.iter().enumerate() {
        let slot = *index.entry(t).or_insert_with(|| {
            masks.resize(masks.len() + words, 0);
            masks.len() / words - 1
        });
        masks[slot * words + i / 64] |= 1u64 << (i % 64);
    }
    let mut v = vec![u64::MAX; words];
    let mut budget = crate::interrupt::Budget::default();
    for y in long {
        budget.spend(words);
        let Some(&slot) = index.get(y) else { continue };
        let pm = &masks[slot * words..(slot + 1) * words];
        let mut carry = 0u64;
        for k in 0..words {
            let u = v[k] & pm[k];
            let (s1, c1) = v[k].overflowing_add(u);
            let (s2, c2) = s1.overflowing_add(carry);
            carry = (c1 | c2) as u64;
            v[k] = s2 | (v[k] - u);
        }
    }
    let mut zeros = 0usize;
    for (k, &w) in v.iter().enumerate() {
        let bits = if k + 1 == words && m % 64 != 0 { m % 64 } else { 64 };
        let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        zeros += (!w & mask).count_ones() as usize;
    }
    zeros
}

/// Length of an LCS by the textbook dynamic programme (the reference for tests).
pub fn lcs_len_dp(a: &[u32], b: &[u32]) -> usize {
    let mut row = vec![0u32; b.len() + 1];
    for &x in a {
        let mut diag = 0u32;
        for j in 1..=b.len() {
            let up = row[j];
            row[j] = if x == b[j - 1] { diag + 1 } else { up.max(row[j - 1]) };
            diag = up;
        }
    }
    row[b.len()] as usize
}

/// Mark in `mask` the positions of `model` on one LCS with `peer`, for token ids of any
/// range: the ids are renumbered densely for [`BitLcs`], which keeps its table in
/// linear space (see [`checkpointed_trace`]). The positions are [`mark_lcs_dp`]'s.
pub fn mark_lcs(model: &[u32], peer: &[u32], mask: &mut [bool], s: &mut SparseLcs) {
    if model.is_empty() || peer.is_empty() {
        return;
    }
    s.ids.clear();
    s.peer.clear();
    for &t in peer {
        let next = s.ids.len() as u32;
        s.peer.push(*s.ids.entry(t).or_insert(next));
    }
    let none = s.ids.len() as u32;
    s.model.clear();
    s.model.extend(model.iter().map(|t| s.ids.get(t).copied().unwrap_or(none)));
    s.bits.mark(&s.model, &s.peer, none as usize + 1, mask);
}

/// Scratch of [`mark_lcs`]: the dense renumbering and the bit rows.
#[derive(Default)]
pub struct SparseLcs {
    ids: rustc_hash::FxHashMap<u32, u32>,
    model: Vec<u32>,
    peer: Vec<u32>,
    bits: BitLcs,
}

/// [`mark_lcs`] by the textbook `(m+1) x (n+1)` table kept in `table` (the reference for
/// tests: quadratic memory).
pub fn mark_lcs_dp(model: &[u32], peer: &[u32], mask: &mut [bool], table: &mut Vec<u32>) {
    let (m, n) = (model.len(), peer.len());
    if m == 0 || n == 0 {
        return;
    }
    let w = n + 1;
    table.clear();
    table.resize((m + 1) * w, 0);
    let mut budget = crate::interrupt::Budget::default();
    for i in 1..=m {
        budget.spend(n);
        for j in 1..=n {
            table[i * w + j] = if model[i - 1] == peer[j - 1] {
                table[(i - 1) * w + j - 1] + 1
            } else {
                table[(i - 1) * w + j].max(table[i * w + j - 1])
            };
        }
    }
    trace_back(model, peer, mask, |i, j| table[i * w + j] as usize);
}

/// Walk one LCS back from the end, marking the matched positions of `model`, with
/// `len(i, j)` the LCS length of `model[..i]` and `peer[..j]`; ties go up (to a shorter
/// model prefix), which is the walk every table layout here must reproduce.
fn trace_back(model: &[u32], peer: &[u32], mask: &mut [bool], len: impl Fn(usize, usize) -> usize) {
    let (mut i, mut j) = (model.len(), peer.len());
    while i > 0 && j > 0 {
        if model[i - 1] == peer[j - 1] {
            mask[i - 1] = true;
            i -= 1;
            j -= 1;
        } else if len(i - 1, j) >= len(i, j - 1) {
            i -= 1;
        } else {
            j -= 1;
        }
    }
}

/// ROUGE-1.5.5 `wlcs_inner`: weighted LCS with `f(k) = k^weight`, marking the model
/// positions of its traceback in `mask`. The table's rows of (weighted length, run
/// length) are kept in linear space by [`checkpointed_trace`]; the direction `wlcs_inner`
/// stores in `b` is recomputed from them (a match is a diagonal step; otherwise up when
/// the cell above is at least the cell to the left), so the walk is [`mark_wlcs_dp`]'s.
pub fn mark_wlcs(model: &[u32], peer: &[u32], weight: f64, mask: &mut [bool]) {
    let (m, n) = (model.len(), peer.len());
    if m == 0 || n == 0 {
        return;
    }
    let w = n + 1;
    let row0 = vec![(0.0f64, 0u32); w];
    // k^weight for every run length a match can reach (the same powf calls, made once)
    let pw: Vec<f64> = (0..=m.min(n) + 1).map(|k| (k as f64).powf(weight)).collect();
    let step = |i: usize, prev: &[(f64, u32)], next: &mut [(f64, u32)]| {
        crate::interrupt::check();
        next[0] = (0.0, 0);
        let x = model[i - 1];
        for j in 1..=n {
            next[j] = if x == peer[j - 1] {
                let (c, k) = prev[j - 1];
                (c + pw[k as usize + 1] - pw[k as usize], k + 1)
            } else if prev[j].0 >= next[j - 1].0 {
                (prev[j].0, 0)
            } else {
                (next[j - 1].0, 0)
            };
        }
    };
    let walk = |rows: &[(f64, u32)], lo: usize, hi: usize, mut j: usize, mask: &mut [bool]| {
        let at = |i: usize, j: usize| rows[(i - lo) * w + j].0;
        let mut i = hi;
        while i > lo && j > 0 {
            if model[i - 1] == peer[j - 1] {
                i -= 1;
                j -= 1;
                mask[i] = true;
            } else if at(i - 1, j) >= at(i, j - 1) {
                i -= 1;
            } else {
                j -= 1;
            }
        }
        j
    };
    checkpointed_trace(m, w, &row0, n, &step, &mut |rows, lo, hi, j| walk(rows, lo, hi, j, mask));
}

/// Bytes of table rows [`checkpointed_trace`] keeps at one level: a pair whose whole
/// table fits is traced from the full table, a larger one in blocks of rows.
pub const TRACE_BLOCK_BYTES: usize = 16 << 20;

/// Trace an LCS-like dynamic programme of `m + 1` rows of `width` cells back from
/// `(m, j)` without keeping the table: `step(i, row i-1, row i)` computes a row,
/// `walk(rows lo..=hi, lo, hi, j)` walks back from `(hi, j)` until row `lo` (or column
/// 0) and returns the column it stopped at. The walk of a block needs only the rows of
/// that block, so the rows are recomputed per block from checkpoints: at each level the
/// forward pass stores up to [`TRACE_BLOCK_BYTES`] of checkpoint rows, and a block
/// whose rows fit in that size is computed whole. Memory is O(`width`) per level (a
/// level divides the rows by `TRACE_BLOCK_BYTES / row bytes`, so there are one or two
/// levels in practice); time is two or three forward passes.
pub fn checkpointed_trace<T: Copy>(m: usize, width: usize, row0: &[T], j: usize, step: &dyn Fn(usize, &[T], &mut [T]), walk: &mut dyn FnMut(&[T], usize, usize, usize) -> usize) -> usize {
    let cells = (block_bytes() / std::mem::size_of::<T>().max(1)).max(1);
    trace_block(row0, 0, m, j, width, cells, step, walk)
}

#[cfg(not(test))]
#[inline]
fn block_bytes() -> usize {
    TRACE_BLOCK_BYTES
}

#[cfg(test)]
thread_local! {
    static BLOCK_BYTES: std::cell::Cell<usize> = const { std::cell::Cell::new(TRACE_BLOCK_BYTES) };
}

#[cfg(test)]
fn block_bytes() -> usize {
    BLOCK_BYTES.with(|b| b.get())
}

#[allow(clippy::too_many_arguments)]
fn trace_block<T: Copy>(lo_row: &[T], lo: usize, hi: usize, j: usize, width: usize, cells: usize, step: &dyn Fn(usize, &[T], &mut [T]), walk: &mut dyn FnMut(&[T], usize, usize, usize) -> usize) -> usize {
    let rows = hi - lo + 1;
    if rows.saturating_mul(width) <= cells || hi - lo <= 1 {
        let mut buf = crate::memory::filled(rows * width, lo_row[0], "an LCS table block");
        buf[..width].copy_from_slice(lo_row);
        for i in lo + 1..=hi {
            let (done, rest) = buf.split_at_mut((i - lo) * width);
            step(i, &done[(i - lo - 1) * width..], &mut rest[..width]);
        }
        return walk(&buf, lo, hi, j);
    }
    // `k` segments, their first rows stored on the way down
    let k = (cells / width).clamp(2, hi - lo);
    let seg = (hi - lo).div_ceil(k);
    let starts: Vec<usize> = (lo..hi).step_by(seg).collect();
    let mut chk = crate::memory::filled(starts.len() * width, lo_row[0], "LCS checkpoint rows");
    chk[..width].copy_from_slice(lo_row);
    let mut two = crate::memory::filled(2 * width, lo_row[0], "LCS rows");
    two[..width].copy_from_slice(lo_row);
    let last = *starts.last().expect("lo < hi");
    for i in lo + 1..=last {
        let (prev, next) = two.split_at_mut(width);
        step(i, prev, next);
        prev.copy_from_slice(next);
        if (i - lo) % seg == 0 {
            let s = (i - lo) / seg;
            chk[s * width..(s + 1) * width].copy_from_slice(prev);
        }
    }
    drop(two);
    let mut j = j;
    for s in (0..starts.len()).rev() {
        let end = (starts[s] + seg).min(hi);
        j = trace_block(&chk[s * width..(s + 1) * width], starts[s], end, j, width, cells, step, walk);
        if j == 0 {
            break;
        }
    }
    j
}

/// [`mark_wlcs`] by the three whole `(m+1) x (n+1)` tables of `wlcs_inner` (the
/// reference for tests: quadratic memory).
pub fn mark_wlcs_dp(model: &[u32], peer: &[u32], weight: f64, mask: &mut [bool], c: &mut Vec<f64>, l: &mut Vec<u32>, b: &mut Vec<u8>) {
    let (m, n) = (model.len(), peer.len());
    if m == 0 || n == 0 {
        return;
    }
    let w = n + 1;
    for v in [&mut *c] {
        v.clear();
        v.resize((m + 1) * w, 0.0);
    }
    l.clear();
    l.resize((m + 1) * w, 0);
    b.clear();
    b.resize((m + 1) * w, 0);
    const DIAG: u8 = 1;
    const UP: u8 = 2;
    const LEFT: u8 = 3;
    let mut budget = crate::interrupt::Budget::default();
    for i in 1..=m {
        budget.spend(n);
        for j in 1..=n {
            let at = i * w + j;
            if model[i - 1] == peer[j - 1] {
                let k = l[(i - 1) * w + j - 1];
                c[at] = c[(i - 1) * w + j - 1] + (k as f64 + 1.0).powf(weight) - (k as f64).powf(weight);
                b[at] = DIAG;
                l[at] = k + 1;
            } else if c[(i - 1) * w + j] >= c[i * w + j - 1] {
                c[at] = c[(i - 1) * w + j];
                b[at] = UP;
            } else {
                c[at] = c[i * w + j - 1];
                b[at] = LEFT;
            }
        }
    }
    let (mut i, mut j) = (m, n);
    while i > 0 && j > 0 {
        match b[i * w + j] {
            DIAG => {
                i -= 1;
                j -= 1;
                mask[i] = true;
            }
            UP => i -= 1,
            _ => j -= 1,
        }
    }
}

/// Bit-parallel LCS over small dense token ids (`id < n_ids`), with buffers kept
/// between calls. [`BitLcs::mark`] gives exactly [`mark_lcs`]'s positions: the DP
/// values `L[i][j]` it traces back through are read off the stored bit rows.
#[derive(Default)]
pub struct BitLcs {
    /// match masks of the `peer` positions, `words` u64 per token id
    pm: Vec<u64>,
    /// bit row after each model token, `(m + 1) * words`
    rows: Vec<u64>,
}

impl BitLcs {
    fn load(&mut self, peer: &[u32], n_ids: usize, words: usize) {
        if self.pm.len() < n_ids * words {
            self.pm.resize(n_ids * words, 0);
        }
        for (j, &t) in peer.iter().enumerate() {
            self.pm[t as usize * words + j / 64] |= 1u64 << (j % 64);
        }
    }

    fn unload(&mut self, peer: &[u32], words: usize) {
        for &t in peer {
            let at = t as usize * words;
            self.pm[at..at + words].iter_mut().for_each(|w| *w = 0);
        }
    }

    /// One step of Hyyrö's recurrence: `row` <- the bit row after one more model token.
    #[inline]
    fn step(prev: &[u64], pm: &[u64], next: &mut [u64]) {
        let mut carry = 0u64;
        for k in 0..prev.len() {
            let v = prev[k];
            let u = v & pm[k];
            let (s1, c1) = v.overflowing_add(u);
            let (s2, c2) = s1.overflowing_add(carry);
            carry = (c1 | c2) as u64;
            next[k] = s2 | (v - u);
        }
    }

    /// LCS length of `a` and `b`.
    pub fn len(&mut self, a: &[u32], b: &[u32], n_ids: usize) -> usize {
        let (long, short) = if a.len() < b.len() { (b, a) } else { (a, b) };
        let m = short.len();
        if m == 0 {
            return 0;
        }
        let words = m.div_ceil(64);
        self.load(short, n_ids, words);
        if words == 1 {
            // One machine word per row: the common sentence-length case.
            let mut v = u64::MAX;
            for (i, &y) in long.iter().enumerate() {
                if i & 0xFFFF == 0xFFFF {
                    crate::interrupt::check();
                }
                let u = v & self.pm[y as usize];
                v = v.wrapping_add(u) | (v - u);
            }
            self.unload(short, 1);
            return (!v & low_bits(m)).count_ones() as usize;
        }
        self.rows.clear();
        self.rows.resize(2 * words, u64::MAX);
        let (cur, nxt) = self.rows.split_at_mut(words);
        let mut budget = crate::interrupt::Budget::default();
        for &y in long {
            budget.spend(words);
            let at = y as usize * words;
            Self::step(cur, &self.pm[at..at + words], nxt);
            cur.copy_from_slice(nxt);
        }
        let zeros = prefix_zeros(cur, m);
        self.unload(short, words);
        zeros
    }

    /// [`mark_lcs`] by bit rows: model positions on the traced LCS set in `mask`.
    pub fn mark(&mut self, model: &[u32], peer: &[u32], n_ids: usize, mask: &mut [bool]) {
        self.load_peer(peer, n_ids);
        self.mark_loaded(model, peer, mask);
        self.unload_peer(peer);
    }

    /// Keep `peer`'s match masks for several [`BitLcs::mark_loaded`] calls.
    pub fn load_peer(&mut self, peer: &[u32], n_ids: usize) {
        self.load(peer, n_ids, peer.len().div_ceil(64).max(1));
    }

    pub fn unload_peer(&mut self, peer: &[u32]) {
        self.unload(peer, peer.len().div_ceil(64).max(1));
    }

    /// [`BitLcs::mark`] against the peer loaded last.
    pub fn mark_loaded(&mut self, model: &[u32], peer: &[u32], mask: &mut [bool]) {
        let (m, n) = (model.len(), peer.len());
        if m == 0 || n == 0 {
            return;
        }
        if n <= 64 {
            return self.mark_short(model, peer, mask);
        }
        let words = n.div_ceil(64);
        if (m + 1).saturating_mul(words) <= block_bytes() / 8 {
            self.rows.clear();
            self.rows.resize((m + 1) * words, u64::MAX);
            let mut budget = crate::interrupt::Budget::default();
            for i in 0..m {
                budget.spend(words);
                let at = model[i] as usize * words;
                let (done, rest) = self.rows.split_at_mut((i + 1) * words);
                Self::step(&done[i * words..], &self.pm[at..at + words], &mut rest[..words]);
            }
            // L[i][j] = zero bits of row i below bit j.
            let rows = &self.rows;
            trace_back(model, peer, mask, |i, j| prefix_zeros(&rows[i * words..(i + 1) * words], j));
            return;
        }
        // A table beyond one block: rows recomputed per block, and each block's zero
        // counts per word kept beside it so a step of the walk reads `L` in O(1).
        let pm = &self.pm;
        let row0 = vec![u64::MAX; words];
        let step = |i: usize, prev: &[u64], next: &mut [u64]| {
            crate::interrupt::check();
            let at = model[i - 1] as usize * words;
            Self::step(prev, &pm[at..at + words], next);
        };
        let mut cum: Vec<u32> = Vec::new();
        let mut walk = |rows: &[u64], lo: usize, hi: usize, mut j: usize| {
            let cw = words + 1;
            cum.clear();
            cum.resize((hi - lo + 1) * cw, 0);
            for r in 0..=hi - lo {
                let mut z = 0u32;
                for k in 0..words {
                    cum[r * cw + k] = z;
                    z += rows[r * words + k].count_zeros();
                }
                cum[r * cw + words] = z;
            }
            let len = |i: usize, j: usize| {
                let r = i - lo;
                let (k, rest) = (j / 64, j % 64);
                let mut z = cum[r * cw + k] as usize;
                if rest > 0 {
                    z += (!rows[r * words + k] & ((1u64 << rest) - 1)).count_ones() as usize;
                }
                z
            };
            let mut i = hi;
            while i > lo && j > 0 {
                if model[i - 1] == peer[j - 1] {
                    mask[i - 1] = true;
                    i -= 1;
                    j -= 1;
                } else if len(i - 1, j) >= len(i, j - 1) {
                    i -= 1;
                } else {
                    j -= 1;
                }
            }
            j
        };
        checkpointed_trace(m, words, &row0, n, &step, &mut walk);
    }
}

impl BitLcs {
    /// [`BitLcs::mark_loaded`] for a peer of at most 64 tokens: one word per row.
    fn mark_short(&mut self, model: &[u32], peer: &[u32], mask: &mut [bool]) {
        self.rows.clear();
        let mut v = u64::MAX;
        self.rows.push(v);
        for (i, &t) in model.iter().enumerate() {
            crate::interrupt::check_every(i);
            let u = v & self.pm[t as usize];
            v = v.wrapping_add(u) | (v - u);
            self.rows.push(v);
        }
        let rows = &self.rows;
        let l = |i: usize, j: usize| {
            let below = if j == 64 { u64::MAX } else { (1u64 << j) - 1 };
            (!rows[i] & below).count_ones()
        };
        trace_back(model, peer, mask, |i, j| l(i, j) as usize);
    }
}

/// The low `k` bits set (`k <= 64`).
#[inline]
fn low_bits(k: usize) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}

/// Zero bits among the first `j` bits of a bit row.
#[inline]
fn prefix_zeros(row: &[u64], j: usize) -> usize {
    let full = j / 64;
    let mut z: usize = row[..full].iter().map(|w| w.count_zeros() as usize).sum();
    let rest = j % 64;
    if rest > 0 {
        z += (!row[full] & ((1u64 << rest) - 1)).count_ones() as usize;
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lcs_basics() {
        let mut row = Vec::new();
        assert_eq!(lcs_len(&[1, 2, 3, 4], &[2, 4, 3], &mut row), 2);
        assert_eq!(lcs_len(&[], &[1], &mut row), 0);
        // bit-parallel == DP on pseudo-random sequences, across word boundaries
        let mut x = 12345u64;
        let mut next = |k: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) % k) as u32
        };
        for len_a in [1usize, 5, 63, 64, 65, 130, 200] {
            for len_b in [1usize, 7, 64, 129] {
                for alphabet in [2u64, 5, 40] {
                    let a: Vec<u32> = (0..len_a).map(|_| next(alphabet)).collect();
                    let b: Vec<u32> = (0..len_b).map(|_| next(alphabet)).collect();
                    assert_eq!(lcs_len(&a, &b, &mut row), lcs_len_dp(&a, &b), "{len_a} {len_b} {alphabet}");
                }
            }
        }
        let mut mask = vec![false; 4];
        let mut t = Vec::new();
        mark_lcs_dp(&[1, 2, 3, 4], &[2, 4], &mut mask, &mut t);
        assert_eq!(mask, [false, true, false, true]);
    }

    #[test]
    fn bit_rows_trace_like_the_table() {
        let mut x = 987654321u64;
        let mut next = |k: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) % k) as u32
        };
        let mut bits = BitLcs::default();
        let mut table = Vec::new();
        for len_a in [0usize, 1, 3, 17, 64, 65, 130] {
            for len_b in [0usize, 1, 5, 63, 64, 65, 129, 200] {
                for alphabet in [2u64, 4, 30] {
                    let a: Vec<u32> = (0..len_a).map(|_| next(alphabet)).collect();
                    let b: Vec<u32> = (0..len_b).map(|_| next(alphabet)).collect();
                    let mut want = vec![false; len_a];
                    let mut got = vec![false; len_a];
                    mark_lcs_dp(&a, &b, &mut want, &mut table);
                    bits.mark(&a, &b, alphabet as usize, &mut got);
                    assert_eq!(got, want, "{len_a} {len_b} {alphabet}");
                    assert_eq!(bits.len(&a, &b, alphabet as usize), lcs_len_dp(&a, &b));
                }
            }
        }
    }

    #[test]
    fn checkpointed_traces_equal_the_whole_tables() {
        let mut x = 55555u64;
        let mut next = |k: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) % k) as u32
        };
        let mut table = Vec::new();
        let (mut c, mut l, mut b) = (Vec::new(), Vec::new(), Vec::new());
        let mut sparse = SparseLcs::default();
        // tiny blocks force one, two and three levels of checkpoints
        for block in [8usize, 24, 64, 200, 1 << 12, TRACE_BLOCK_BYTES] {
            BLOCK_BYTES.with(|b| b.set(block));
            for len_a in [0usize, 1, 2, 3, 17, 64, 65, 150, 300] {
                for len_b in [0usize, 1, 5, 64, 65, 129, 260] {
                    for alphabet in [2u64, 4, 30] {
                        let a: Vec<u32> = (0..len_a).map(|_| next(alphabet) * 1000 + 7).collect();
                        let b2: Vec<u32> = (0..len_b).map(|_| next(alphabet) * 1000 + 7).collect();
                        let mut want = vec![false; len_a];
                        let mut got = vec![false; len_a];
                        mark_lcs_dp(&a, &b2, &mut want, &mut table);
                        mark_lcs(&a, &b2, &mut got, &mut sparse);
                        assert_eq!(got, want, "lcs {block} {len_a} {len_b} {alphabet}");
                        for weight in [1.2, 2.0] {
                            let mut want = vec![false; len_a];
                            let mut got = vec![false; len_a];
                            mark_wlcs_dp(&a, &b2, weight, &mut want, &mut c, &mut l, &mut b);
                            mark_wlcs(&a, &b2, weight, &mut got);
                            assert_eq!(got, want, "wlcs {block} {len_a} {len_b} {alphabet} {weight}");
                        }
                    }
                }
            }
        }
        BLOCK_BYTES.with(|b| b.set(TRACE_BLOCK_BYTES));
    }
}
