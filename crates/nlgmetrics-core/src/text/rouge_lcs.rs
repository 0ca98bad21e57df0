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

/// Mark in `mask` the positions of `model` on one LCS with `peer` (the DP table is
/// kept in `table`, `(m+1) x (n+1)`).
pub fn mark_lcs(model: &[u32], peer: &[u32], mask: &mut [bool], table: &mut Vec<u32>) {
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
/// positions of its traceback in `mask`.
pub fn mark_wlcs(model: &[u32], peer: &[u32], weight: f64, mask: &mut [bool], c: &mut Vec<f64>, l: &mut Vec<u32>, b: &mut Vec<u8>) {
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
        mark_lcs(&[1, 2, 3, 4], &[2, 4], &mut mask, &mut t);
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
                    mark_lcs(&a, &b, &mut want, &mut table);
                    bits.mark(&a, &b, alphabet as usize, &mut got);
                    assert_eq!(got, want, "{len_a} {len_b} {alphabet}");
                    assert_eq!(bits.len(&a, &b, alphabet as usize), lcs_len_dp(&a, &b));
                }
            }
        }
    }
}
