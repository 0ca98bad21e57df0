//! NIST's corpus-wide n-gram table numbered one order at a time (breadth first), for the
//! batch weighting (corpus semantics).
//!
//! Why: a trie walked depth first (one start position at a time) chains dependent hash
//! probes, each a cache miss once the table passes the last-level cache, so the cost per
//! segment grew with the corpus (27 µs at 10k segments, 56 µs at 300k). Here every order
//! is one pass over all positions: the key of the n-gram at a position is (id of its
//! prefix at that position, its last token); keys are first partitioned by hash into
//! buckets small enough that each bucket's table stays in cache, then numbered bucket by
//! bucket. Every memory access is a stream or a probe into a cache-sized table, so the
//! cost per n-gram does not depend on the number of segments.
//!
//! Ids are identities only (the statistics never depend on their values), and each order
//! has its own id space: rows compare n-grams of one order with each other.

use rustc_hash::FxHashMap;

/// Entries per bucket table (a bucket's map and counts stay within the L2 cache).
const BUCKET_TARGET: usize = 8192;

/// Every n-gram (orders 1..=n_max) of the sequences laid end to end, references first:
/// `ids[k][p]` is the (k+1)-gram starting at flat position `p` and `refs[k][p]` the number
/// of its occurrences in the reference part; both are meaningful only where `p + k` lies
/// in the sequence of `p`.
pub(crate) struct Numbered {
    pub ids: Vec<Vec<u32>>,
    pub refs: Vec<Vec<u32>>,
}

#[inline]
fn mix(key: u64) -> u64 {
    // one multiply, high bits well mixed (FxHash-style); the bucket takes the top bits
    (key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Numbers the n-grams of `toks`, where `rem[p]` is the number of tokens from `p` to the
/// end of its sequence (capped at 255) and positions before `ref_end` are references.
pub(crate) fn number(toks: &[u32], rem: &[u8], ref_end: usize, n_max: usize) -> Numbered {
    let n = toks.len();
    let mut ids: Vec<Vec<u32>> = Vec::with_capacity(n_max);
    let mut refs: Vec<Vec<u32>> = Vec::with_capacity(n_max);
    // unigrams: the token ids are already dense
    let vocab = toks.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut uni = vec![0u32; vocab];
    for &t in &toks[..ref_end] {
        uni[t as usize] += 1;
    }
    refs.push(toks.iter().map(|&t| uni[t as usize]).collect());
    drop(uni);
    ids.push(toks.to_vec());
    let mut part: Vec<(u64, u32)> = Vec::new();
    let mut local: Vec<u32> = Vec::new();
    let mut map: FxHashMap<u64, u32> = FxHashMap::default();
    let mut counts: Vec<u32> = Vec::new();
    for k in 1..n_max {
        let prev = &ids[k - 1];
        let valid = |p: usize| rem[p] as usize > k;
        let n_valid = (0..n).filter(|&p| valid(p)).count();
        let bits = (n_valid / BUCKET_TARGET).max(1).next_power_of_two().trailing_zeros().min(16);
        let buckets = 1usize << bits;
        let bucket = |key: u64| if bits == 0 { 0 } else { (mix(key) >> (64 - bits)) as usize };
        let key_at = |p: usize| (u64::from(prev[p]) << 32) | u64::from(toks[p + k]);
        // partition (key, position) by bucket: a histogram, then one scatter
        let mut start = vec![0usize; buckets + 1];
        for p in (0..n).filter(|&p| valid(p)) {
            start[bucket(key_at(p)) + 1] += 1;
        }
        for b in 0..buckets {
            start[b + 1] += start[b];
        }
        let mut at = start.clone();
        part.clear();
        part.resize(n_valid, (0, 0));
        for p in (0..n).filter(|&p| valid(p)) {
            let key = key_at(p);
            let b = bucket(key);
            part[at[b]] = (key, p as u32);
            at[b] += 1;
        }
        // number each bucket with a cache-sized table
        let mut id_k = vec![u32::MAX; n];
        let mut ref_k = vec![0u32; n];
        let mut base = 0u32;
        for b in 0..buckets {
            crate::interrupt::check_every(b << 8);
            let items = &part[start[b]..start[b + 1]];
            map.clear();
            map.reserve(items.len());
            counts.clear();
            local.clear();
            for &(key, p) in items {
                let next = counts.len() as u32;
                let id = *map.entry(key).or_insert(next);
                if id == next {
                    counts.push(0);
                }
                counts[id as usize] += u32::from((p as usize) < ref_end);
                local.push(id);
            }
            for (&(_, p), &id) in items.iter().zip(&local) {
                id_k[p as usize] = base + id;
                ref_k[p as usize] = counts[id as usize];
            }
            base += counts.len() as u32;
        }
        ids.push(id_k);
        refs.push(ref_k);
    }
    Numbered { ids, refs }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbering against a plain map from n-gram slices, on sequences with repeats.
    #[test]
    fn numbering_equals_slice_counts() {
        let seqs: Vec<Vec<u32>> = vec![vec![1, 2, 1, 2, 1, 3], vec![], vec![4; 7], vec![2, 1], vec![1, 2, 1], vec![3, 1, 2]];
        let ref_seqs = 4;
        let mut toks = Vec::new();
        let mut rem = Vec::new();
        let mut starts = Vec::new();
        for s in &seqs {
            starts.push(toks.len());
            toks.extend(s);
            rem.extend((0..s.len()).map(|i| (s.len() - i).min(255) as u8));
        }
        let ref_end = starts[ref_seqs];
        for n_max in [1, 2, 3, 5] {
            let got = number(&toks, &rem, ref_end, n_max);
            let mut want: FxHashMap<&[u32], u32> = FxHashMap::default();
            for s in &seqs[..ref_seqs] {
                for k in 1..=n_max.min(s.len()) {
                    for w in s.windows(k) {
                        *want.entry(w).or_insert(0) += 1;
                    }
                }
            }
            let mut seen: FxHashMap<(usize, u32), &[u32]> = FxHashMap::default();
            for (s, &st) in seqs.iter().zip(&starts) {
                for i in 0..s.len() {
                    for k in 0..n_max.min(s.len() - i) {
                        let g = &s[i..i + k + 1];
                        let p = st + i;
                        assert_eq!(got.refs[k][p], want.get(g).copied().unwrap_or(0), "{g:?}");
                        // one id per n-gram and one n-gram per id
                        assert_eq!(*seen.entry((k, got.ids[k][p])).or_insert(g), g);
                    }
                }
            }
        }
    }
}
