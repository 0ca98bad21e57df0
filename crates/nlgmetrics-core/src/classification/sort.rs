//! The stable descending sort of scores that scikit-learn's curves rely on.
//!
//! Scores map to u64 keys whose ascending order is the descending score order (-0.0 ties
//! with 0.0, as numpy compares them). An LSD radix sort (8-bit digits, passes whose
//! digit is constant skipped) is stable, so tied scores keep increasing input order:
//! exactly `argsort(stable=True, descending=True)`. O(n), no comparisons.

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

const BITS: u32 = 8;
const BUCKETS: usize = 1 << BITS;
const PASSES: usize = 8; // 8 * 8 = 64

/// `(keys, indices)` sorted by key, ties by increasing index; `indices` are positions in
/// `scores` (restricted to `keep` when given, in its order).
pub fn sorted_keys(scores: &[f64], keep: Option<&[usize]>) -> (Vec<u64>, Vec<u32>) {
    let (mut keys, mut idx): (Vec<u64>, Vec<u32>) = match keep {
        Some(k) => (k.iter().map(|&i| descending_key(scores[i])).collect(), k.iter().map(|&i| i as u32).collect()),
        None => (scores.iter().map(|&s| descending_key(s)).collect(), (0..scores.len() as u32).collect()),
    };
    let n = keys.len();
    if n < 2 {
        return (keys, idx);
    }
    if n < 256 {
        let mut pairs: Vec<(u64, u32)> = keys.into_iter().zip(idx).collect();
        pairs.sort_unstable(); // (key, index) pairs are unique
        return pairs.into_iter().unzip();
    }
    let mut counts = vec![[0u32; BUCKETS]; PASSES];
    for &k in &keys {
        for (p, c) in counts.iter_mut().enumerate() {
            c[((k >> (p as u32 * BITS)) as usize) & (BUCKETS - 1)] += 1;
        }
    }
    let mut keys2 = vec![0u64; n];
    let mut idx2 = vec![0u32; n];
    for (p, c) in counts.iter().enumerate() {
        if c.iter().any(|&v| v as usize == n) {
            continue; // every key has the same digit here
        }
        let mut offset = [0usize; BUCKETS];
        let mut acc = 0;
        for b in 0..BUCKETS {
            offset[b] = acc;
            acc += c[b] as usize;
        }
        let shift = p as u32 * BITS;
        for i in 0..n {
            let k = keys[i];
            let b = ((k >> shift) as usize) & (BUCKETS - 1);
            let o = offset[b];
            keys2[o] = k;
            idx2[o] = idx[i];
            offset[b] = o + 1;
        }
        std::mem::swap(&mut keys, &mut keys2);
        std::mem::swap(&mut idx, &mut idx2);
    }
    (keys, idx)
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
        eprintln!("radix {:?}", t.elapsed());
        let t = std::time::Instant::now();
        let _ = super::super::curves::binary_clf_curve(&y, &s, None, 1).unwrap();
        eprintln!("curve {:?}", t.elapsed());
        let t = std::time::Instant::now();
        let mut v = s.clone();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        eprintln!("std sort {:?}", t.elapsed());
    }
}
