//! The stable descending sort of scores that scikit-learn's curves rely on.
//!
//! Scores map to u64 keys whose ascending order is the descending score order (-0.0 ties
//! with 0.0, as numpy compares them). Sorting (key, index) pairs puts tied scores in
//! increasing input order: exactly `argsort(stable=True, descending=True)`.

/// A key whose ascending order is the descending order of the score.
#[inline]
pub fn descending_key(x: f64) -> u64 {
    let x = if x == 0.0 { 0.0 } else { x };
    let bits = x.to_bits();
    let ascending = if bits >> 63 == 1 { !bits } else { bits | (1 << 63) };
    !ascending
}

/// The score of a key (the inverse of [`descending_key`]; -0.0 comes back as 0.0).
#[inline]
pub fn key_score(key: u64) -> f64 {
    let ascending = !key;
    let bits = if ascending >> 63 == 1 { ascending & !(1 << 63) } else { !ascending };
    f64::from_bits(bits)
}

const TOP_BITS: u32 = 16;
const BUCKETS: usize = 1 << TOP_BITS;

/// `(keys, indices)` sorted by key, ties by increasing index; `indices` are positions in
/// `scores` (restricted to `keep` when given, in its order).
///
/// One counting pass distributes the (key, index) pairs into 65,536 buckets by the top 16
/// key bits (sign, exponent and 4 mantissa bits), keeping input order inside a bucket;
/// each bucket, small enough to sit in cache for real score distributions, is then sorted
/// by (key, index). The pairs are unique, so the result is deterministic.
pub fn sorted_keys(scores: &[f64], keep: Option<&[usize]>) -> (Vec<u64>, Vec<u32>) {
    let pairs: Vec<(u64, u32)> = match keep {
        Some(k) => k.iter().map(|&i| (descending_key(scores[i]), i as u32)).collect(),
        None => scores.iter().enumerate().map(|(i, &s)| (descending_key(s), i as u32)).collect(),
    };
    sort_pairs(pairs)
}

/// As [`sorted_keys`], with the label packed into the payload: `(index << 1) | y`
/// (order by payload = order by index). Saves a random lookup per sample afterwards.
/// Needs fewer than 2^31 scores.
pub fn sorted_keys_labelled(scores: &[f64], y: &[bool], keep: Option<&[usize]>) -> (Vec<u64>, Vec<u32>) {
    let pack = |i: usize| ((i as u32) << 1) | y[i] as u32;
    let pairs: Vec<(u64, u32)> = match keep {
        Some(k) => k.iter().map(|&i| (descending_key(scores[i]), pack(i))).collect(),
        None => scores.iter().enumerate().map(|(i, &s)| (descending_key(s), pack(i))).collect(),
    };
    sort_pairs(pairs)
}

fn sort_pairs(pairs: Vec<(u64, u32)>) -> (Vec<u64>, Vec<u32>) {
    let n = pairs.len();
    if n < 1 << 12 {
        let mut pairs = pairs;
        pairs.sort_unstable();
        return pairs.into_iter().unzip();
    }
    let bucket = |k: u64| (k >> (64 - TOP_BITS)) as usize;
    let mut start = vec![0usize; BUCKETS + 1];
    for (i, &(k, _)) in pairs.iter().enumerate() {
        crate::interrupt::check_every(i);
        start[bucket(k) + 1] += 1;
    }
    for b in 0..BUCKETS {
        start[b + 1] += start[b];
    }
    let mut out = vec![(0u64, 0u32); n];
    let mut next = start.clone();
    for (i, &p) in pairs.iter().enumerate() {
        crate::interrupt::check_every(i);
        let b = bucket(p.0);
        out[next[b]] = p;
        next[b] += 1;
    }
    drop(pairs);
    let mut budget = crate::interrupt::Budget::default();
    for b in 0..BUCKETS {
        let (lo, hi) = (start[b], start[b + 1]);
        // a bucket's sort is about 20 units of work per item
        budget.spend(20 * (hi - lo));
        if hi - lo > 1 {
            out[lo..hi].sort_unstable();
        }
    }
    out.into_iter().unzip()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_stable_comparison_sort() {
        let mut state = 12345u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in [0, 1, 5, 300, 5000] {
            let s: Vec<f64> = (0..n)
                .map(|_| match next() % 4 {
                    0 => ((next() % 7) as f64) - 3.0,
                    1 => -0.0,
                    2 => f64::from_bits(next() >> 2) * if next() % 2 == 0 { 1.0 } else { -1.0 },
                    _ => (next() % 1000) as f64 / 1000.0,
                })
                .collect();
            let (_, idx) = sorted_keys(&s, None);
            let mut expect: Vec<usize> = (0..n).collect();
            expect.sort_by(|&a, &b| s[b].partial_cmp(&s[a]).unwrap()); // stable, descending
            assert_eq!(idx.iter().map(|&i| i as usize).collect::<Vec<_>>(), expect);
        }
    }
}

#[cfg(test)]
mod timing {
    #[test]
    #[ignore]
    fn time_parts() {
        let n = 1_000_000;
        let mut state = 12345u64;
        let s: Vec<f64> = (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 11) as f64 / (1u64 << 53) as f64
            })
            .collect();
        let y: Vec<bool> = s.iter().map(|&v| v > 0.3).collect();
        let t = std::time::Instant::now();
        let _ = super::sorted_keys(&s, None);
        eprintln!("bucket sort {:?}", t.elapsed());
        let t = std::time::Instant::now();
        let _ = super::super::curves::binary_clf_curve(&y, &s, None, 1).unwrap();
        eprintln!("curve {:?}", t.elapsed());
        let t = std::time::Instant::now();
        let mut v = s.clone();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        eprintln!("std sort {:?}", t.elapsed());
    }
}
