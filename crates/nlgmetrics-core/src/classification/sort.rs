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

/// Keys at or below this many are sorted by comparison (a radix pass's fixed cost is
/// larger than the sort).
const SMALL: usize = 256;

/// `keys` sorted ascending (no payloads: equal keys are interchangeable, so the order of
/// ties does not exist). See [`class_keys_sorted`], of which this is the one-class case.
pub fn sort_keys(keys: Vec<u64>, n_threads: usize) -> Vec<u64> {
    let flags = vec![false; keys.len()];
    let [sorted, _] = bucket_radix(keys.len(), |i| (keys[i], flags[i]), n_threads);
    sorted
}

/// The score keys ([`descending_key`]) of the negative and of the positive samples, each
/// sorted ascending (no payloads: equal keys are interchangeable).
///
/// One counting pass builds, per class, a histogram of the keys' top 16 bits (sign,
/// exponent and 4 mantissa bits); a second pass scatters every key straight into its
/// class's bucket (the keys are computed from the scores in both passes: nothing is
/// stored in between). Each bucket, small enough to sit in cache for real score
/// distributions, is then sorted by an LSD radix sort of its remaining 48 bits, one byte
/// a pass, skipping bytes that all its keys share; buckets are sorted in parallel on
/// `n_threads` (a sorted multiset is unique, so threads never change the result).
pub fn class_keys_sorted(y: &[bool], scores: &[f64], n_threads: usize) -> [Vec<u64>; 2] {
    bucket_radix(y.len().min(scores.len()), |i| (descending_key(scores[i]), y[i]), n_threads)
}

fn bucket_radix(n: usize, item: impl Fn(usize) -> (u64, bool), n_threads: usize) -> [Vec<u64>; 2] {
    use rayon::prelude::*;
    let bucket = |k: u64| (k >> (64 - TOP_BITS)) as usize;
    if n <= 1 << 12 {
        let mut out = [Vec::new(), Vec::new()];
        for i in 0..n {
            let (k, c) = item(i);
            out[c as usize].push(k);
        }
        out[0].sort_unstable();
        out[1].sort_unstable();
        return out;
    }
    // start[c][b]: where class c's bucket b begins in that class's output
    let mut start = vec![vec![0usize; BUCKETS + 1]; 2];
    for i in 0..n {
        crate::interrupt::check_every(i);
        let (k, c) = item(i);
        start[c as usize][bucket(k) + 1] += 1;
    }
    for s in start.iter_mut() {
        for b in 0..BUCKETS {
            s[b + 1] += s[b];
        }
    }
    let mut out = [vec![0u64; start[0][BUCKETS]], vec![0u64; start[1][BUCKETS]]];
    let mut next = start.clone();
    for i in 0..n {
        crate::interrupt::check_every(i);
        let (k, c) = item(i);
        let (b, c) = (bucket(k), c as usize);
        out[c][next[c][b]] = k;
        next[c][b] += 1;
    }
    // the buckets with more than one key as disjoint slices
    let mut slices: Vec<&mut [u64]> = Vec::new();
    for (o, s) in out.iter_mut().zip(&start) {
        let mut rest: &mut [u64] = o;
        for b in 0..BUCKETS {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(s[b + 1] - s[b]);
            rest = tail;
            if head.len() > 1 {
                slices.push(head);
            }
        }
    }
    let watch = crate::interrupt::Watch::current();
    crate::parallel::run(n_threads, || {
        slices.par_iter_mut().for_each_init(Vec::new, |scratch, s| {
            watch.scope(|| {
                watch.check();
                radix_low48(s, scratch)
            })
        })
    });
    out
}

/// Sorts keys that share their top 16 bits: LSD radix on the low 48 bits, by bytes
/// (6 passes) or, for buckets large enough to pay for 4096-entry counts, by 12-bit
/// digits (4 passes); a digit that all keys share is skipped.
fn radix_low48(keys: &mut [u64], scratch: &mut Vec<u64>) {
    let n = keys.len();
    if n <= SMALL {
        keys.sort_unstable();
        return;
    }
    if n >= 1 << 14 {
        lsd::<12, 4096, 4>(keys, scratch);
    } else {
        lsd::<8, 256, 6>(keys, scratch);
    }
}

/// LSD radix sort of the low `BITS * PASSES` bits with `WIDTH = 2^BITS` counts a digit.
fn lsd<const BITS: u32, const WIDTH: usize, const PASSES: usize>(keys: &mut [u64], scratch: &mut Vec<u64>) {
    let n = keys.len();
    let mask = (WIDTH - 1) as u64;
    let mut counts = vec![[0usize; WIDTH]; PASSES];
    for &k in keys.iter() {
        for (d, c) in counts.iter_mut().enumerate() {
            c[((k >> (BITS as usize * d)) & mask) as usize] += 1;
        }
    }
    scratch.clear();
    scratch.resize(n, 0);
    let mut in_keys = true; // the data is in `keys` (else in `scratch`)
    for (d, c) in counts.iter_mut().enumerate() {
        if c.iter().any(|&x| x == n) {
            continue; // every key has the same digit here
        }
        let mut sum = 0;
        for x in c.iter_mut() {
            let v = *x;
            *x = sum;
            sum += v;
        }
        let (src, dst): (&[u64], &mut [u64]) = if in_keys { (keys, scratch) } else { (scratch, keys) };
        let shift = BITS as usize * d;
        for &k in src {
            let b = ((k >> shift) & mask) as usize;
            dst[c[b]] = k;
            c[b] += 1;
        }
        in_keys = !in_keys;
    }
    if !in_keys {
        keys.copy_from_slice(scratch);
    }
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

    #[test]
    fn key_sort_equals_a_comparison_sort() {
        let mut state = 99u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in [0usize, 1, 7, 5000, 100_000] {
            for spread in [3u64, 1 << 20, u64::MAX] {
                let keys: Vec<u64> = (0..n)
                    .map(|_| match next() % 3 {
                        0 => next() % spread,
                        1 => descending_key((next() % 1000) as f64 / 1000.0),
                        _ => (next() >> 3) | (1 << 62),
                    })
                    .collect();
                let mut expect = keys.clone();
                expect.sort_unstable();
                assert_eq!(sort_keys(keys.clone(), 1), expect);
                assert_eq!(sort_keys(keys, 2), expect);
            }
        }
        for n in [0usize, 9, 5000, 60_000] {
            let s: Vec<f64> = (0..n).map(|_| ((next() % 2000) as f64 - 1000.0) / 7.0).collect();
            let y: Vec<bool> = (0..n).map(|_| next() % 3 == 0).collect();
            let mut want = [Vec::new(), Vec::new()];
            for (&v, &x) in y.iter().zip(&s) {
                want[v as usize].push(descending_key(x));
            }
            want[0].sort_unstable();
            want[1].sort_unstable();
            assert_eq!(class_keys_sorted(&y, &s, 1), want);
            assert_eq!(class_keys_sorted(&y, &s, 2), want);
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
