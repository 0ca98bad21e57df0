//! Token interning and n-gram counting shared by the n-gram metrics.
//!
//! Tokens are interned to dense `u32` ids, and an n-gram is the slice of its ids, so
//! counting is exact (no hashing of strings into lossy keys) and cheap to compare.

use rustc_hash::FxHashMap;

/// Maps token strings to dense ids in first-seen order.
#[derive(Default)]
pub struct Interner<'a> {
    ids: FxHashMap<&'a str, u32>,
}

impl<'a> Interner<'a> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn id(&mut self, token: &'a str) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(token).or_insert(next)
    }

    /// Ids of the space-separated tokens of an already tokenized line.
    pub fn ids_of(&mut self, tokenized: &'a str) -> Vec<u32> {
        tokenized
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(|t| self.id(t))
            .collect()
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// Counts of every n-gram of orders `1..=max_order` of one token sequence.
pub type NgramCounts<'a> = FxHashMap<&'a [u32], u32>;

pub fn count_ngrams<'a>(ids: &'a [u32], max_order: usize, into: &mut NgramCounts<'a>) {
    for n in 1..=max_order.min(ids.len()) {
        for (i, w) in ids.windows(n).enumerate() {
            crate::interrupt::check_every(i);
            *into.entry(w).or_insert(0) += 1;
        }
    }
}

/// Exact 64-bit keys for n-grams of order <= 4 over fewer than 65535 distinct tokens:
/// each id (+1, so 0 marks "absent") takes 16 bits. Maps keyed by these can be reused
/// across segments without borrowing token buffers.
pub const PACK_MAX_ORDER: usize = 4;
pub const PACK_MAX_VOCAB: usize = 65534;

pub fn packable(max_order: usize, vocab: usize) -> bool {
    max_order <= PACK_MAX_ORDER && vocab <= PACK_MAX_VOCAB
}

/// The order of a packed n-gram key.
#[inline]
pub fn packed_order(key: u64) -> usize {
    (64 - key.leading_zeros() as usize).div_ceil(16)
}

/// Call `f(key)` for every n-gram of orders `1..=max_order` (requires `packable`).
#[inline]
pub fn for_each_packed(ids: &[u32], max_order: usize, mut f: impl FnMut(u64)) {
    for i in 0..ids.len() {
        crate::interrupt::check_every(i);
        let mut key = 0u64;
        for n in 0..max_order.min(ids.len() - i) {
            key |= ((ids[i + n] + 1) as u64) << (16 * n);
            f(key);
        }
    }
}

pub type PackedCounts = FxHashMap<u64, u32>;

/// Counts as a sorted vector, for merge-joins between many sentence pairs.
pub fn sorted_ngrams(ids: &[u32], max_order: usize) -> Vec<(&[u32], u32)> {
    let mut c = NgramCounts::default();
    count_ngrams(ids, max_order, &mut c);
    let mut v: Vec<(&[u32], u32)> = c.into_iter().collect();
    v.sort_unstable_by(|a, b| a.0.cmp(b.0));
    v
}

/// Σ min(count_a, count_b) per order (index n-1) over two sorted n-gram vectors.
pub fn clipped_matches(a: &[(&[u32], u32)], b: &[(&[u32], u32)], out: &mut [u64]) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out[a[i].0.len() - 1] += a[i].1.min(b[j].1) as u64;
                i += 1;
                j += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_all_orders() {
        let mut it = Interner::new();
        let ids = it.ids_of("the cat the cat");
        let mut c = NgramCounts::default();
        count_ngrams(&ids, 2, &mut c);
        assert_eq!(c[&ids[0..1]], 2);
        assert_eq!(c[&ids[0..2]], 2);
        assert_eq!(c[&ids[1..3]], 1);
        assert_eq!(c.len(), 4);
    }

    #[test]
    fn packed_keys_are_exact_and_know_their_order() {
        let ids = [0u32, 65533, 7, 0];
        let mut keys = vec![];
        for_each_packed(&ids, 4, |k| keys.push(k));
        assert_eq!(keys.len(), 4 + 3 + 2 + 1);
        let orders: Vec<usize> = keys.iter().map(|&k| packed_order(k)).collect();
        assert_eq!(orders, [1, 2, 3, 4, 1, 2, 3, 1, 2, 1]);
        let mut uniq = keys.clone();
        uniq.sort_unstable();
        uniq.dedup();
        assert_eq!(uniq.len(), keys.len() - 1); // "0" occurs twice as a unigram
    }

    #[test]
    fn merge_join_clips() {
        let mut it = Interner::new();
        let a = it.ids_of("a a b");
        let b = it.ids_of("a b b");
        let (sa, sb) = (sorted_ngrams(&a, 2), sorted_ngrams(&b, 2));
        let mut m = [0u64; 2];
        clipped_matches(&sa, &sb, &mut m);
        assert_eq!(m, [2, 1]);
    }
}
