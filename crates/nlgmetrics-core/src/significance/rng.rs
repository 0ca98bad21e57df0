//! Philox4x64-10 and the draws built on it (multinomial indices, Poisson(1) weights,
//! randomization masks). Each draw is a pure function of `(seed, stream, position)`.

use crate::error::{Error, Result};
use crate::parallel::map_rows;

const M0: u64 = 0xD2E7_470E_E14C_6C93;
const M1: u64 = 0xCA5A_8263_9512_1157;
const W0: u64 = 0x9E37_79B9_7F4A_7C15;
const W1: u64 = 0xBB67_AE85_84CA_A73B;

/// Domain separators (second key word) so the three kinds of draws never share a stream.
pub const DOMAIN_MULTINOMIAL: u64 = 0x6d75_6c74_696e_6f6d; // "multinom"
pub const DOMAIN_POISSON: u64 = 0x706f_6973_736f_6e31; // "poisson1"
pub const DOMAIN_RANDOMIZATION: u64 = 0x7261_6e64_6f6d_697a; // "randomiz"

#[inline]
fn mulhilo(a: u64, b: u64) -> (u64, u64) {
    let p = (a as u128) * (b as u128);
    ((p >> 64) as u64, p as u64)
}

/// One Philox4x64-10 block: 4 random u64 for a 256-bit counter and a 128-bit key
/// (Random123's `philox4x64_R(10, ctr, key)`; NumPy's `Philox` is the same function).
pub fn philox4x64(counter: [u64; 4], key: [u64; 2]) -> [u64; 4] {
    let mut c = counter;
    let mut k = key;
    for round in 0..10 {
        if round > 0 {
            k[0] = k[0].wrapping_add(W0);
            k[1] = k[1].wrapping_add(W1);
        }
        let (hi0, lo0) = mulhilo(M0, c[0]);
        let (hi1, lo1) = mulhilo(M1, c[2]);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
    }
    c
}

/// A uniform integer in `0..n` from 64 random bits (multiply-shift; bias ≤ n / 2^64).
#[inline]
pub fn below(x: u64, n: u64) -> u64 {
    ((x as u128 * n as u128) >> 64) as u64
}

/// A Poisson(1) variate by inversion of its CDF at `u = top 53 bits / 2^53`.
#[inline]
pub fn poisson1(x: u64) -> u32 {
    let u = (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    let mut k = 0u32;
    let mut p = (-1.0f64).exp();
    let mut cdf = p;
    // P(K > 30) < 1e-32: the cap is never reached by a 53-bit uniform except through
    // rounding of `cdf` just below 1.
    while u >= cdf && k < 30 {
        k += 1;
        p /= k as f64;
        cdf += p;
    }
    k
}

fn check_n(n: usize) -> Result<()> {
    if n == 0 {
        return Err(Error::InvalidInput("cannot resample an empty set of segments".into()));
    }
    Ok(())
}

/// Bootstrap draws: `n_resamples × n` indices in `0..n`; draw `j` of resample `r` is
/// word `j % 4` of `philox(counter = [j / 4, r, 0, 0], key = [seed, MULTINOMIAL])`.
pub fn multinomial_indices(seed: u64, n_resamples: usize, n: usize, n_threads: usize) -> Result<Vec<i64>> {
    check_n(n)?;
    let key = [seed, DOMAIN_MULTINOMIAL];
    map_rows(n_resamples, n, n_threads, || (), |_, r, row: &mut [i64]| {
        for (b, chunk) in row.chunks_mut(4).enumerate() {
            let words = philox4x64([b as u64, r as u64, 0, 0], key);
            for (slot, w) in chunk.iter_mut().zip(words) {
                *slot = below(w, n as u64) as i64;
            }
        }
        Ok::<(), Error>(())
    })
}

/// Poisson(1) weights `n_resamples × len(segment_ids)`: the weight of segment `id` in
/// resample `r` is `poisson1(word r % 4 of philox([id, r / 4, 0, 0], [seed, POISSON]))`,
/// a function of `(seed, id, r)` only, hence identical in every shard.
pub fn poisson_weights(seed: u64, segment_ids: &[u64], n_resamples: usize, n_threads: usize) -> Result<Vec<u32>> {
    check_n(segment_ids.len())?;
    let key = [seed, DOMAIN_POISSON];
    let n = segment_ids.len();
    let blocks = n_resamples.div_ceil(4);
    // Generate per block of four resamples (one Philox call serves four rows), then
    // write each word to its row.
    let by_block = map_rows(blocks, n * 4, n_threads, || (), |_, b, out: &mut [u32]| {
        for (s, &id) in segment_ids.iter().enumerate() {
            let words = philox4x64([id, b as u64, 0, 0], key);
            for (q, w) in words.into_iter().enumerate() {
                out[q * n + s] = poisson1(w);
            }
        }
        Ok::<(), Error>(())
    })?;
    let mut out = by_block;
    out.truncate(n_resamples * n);
    Ok(out)
}

/// Randomization masks `n_trials × n` (1 = swap): bit `s % 256` of
/// `philox([s / 256, t, 0, 0], [seed, RANDOMIZATION])` for segment `s` of trial `t`.
pub fn randomization_mask(seed: u64, n_trials: usize, n: usize, n_threads: usize) -> Result<Vec<u8>> {
    check_n(n)?;
    let key = [seed, DOMAIN_RANDOMIZATION];
    map_rows(n_trials, n, n_threads, || (), |_, t, row: &mut [u8]| {
        for (b, chunk) in row.chunks_mut(256).enumerate() {
            let words = philox4x64([b as u64, t as u64, 0, 0], key);
            for (i, slot) in chunk.iter_mut().enumerate() {
                *slot = ((words[i / 64] >> (i % 64)) & 1) as u8;
            }
        }
        Ok::<(), Error>(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random123_known_answers() {
        // Known-answer vectors of Random123 (kat_vectors, philox4x64 10 rounds).
        assert_eq!(
            philox4x64([0; 4], [0; 2]),
            [0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b, 0x7e68b68aec7ba23b]
        );
        assert_eq!(
            philox4x64([u64::MAX; 4], [u64::MAX; 2]),
            [0x87b092c3013fe90b, 0x438c3c67be8d0224, 0x9cc7d7c69cd777b6, 0xa09caebf594f0ba0]
        );
        assert_eq!(
            philox4x64(
                [0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89],
                [0x452821e638d01377, 0xbe5466cf34e90c6c]
            ),
            [0xa528f45403e61d95, 0x38c72dbd566e9788, 0xa5a1610e72fd18b5, 0x57bd43b5e52b7fe6]
        );
    }

    #[test]
    fn poisson_has_mean_and_variance_one() {
        let n = 200_000u64;
        let (mut s, mut s2) = (0f64, 0f64);
        for i in 0..n {
            let k = poisson1(philox4x64([i, 0, 0, 0], [7, DOMAIN_POISSON])[0]) as f64;
            s += k;
            s2 += k * k;
        }
        let mean = s / n as f64;
        let var = s2 / n as f64 - mean * mean;
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
        assert!((var - 1.0).abs() < 0.02, "{var}");
        assert_eq!(poisson1(0), 0);
        assert!(poisson1(u64::MAX) <= 30);
    }

    #[test]
    fn draws_do_not_depend_on_threads() {
        assert_eq!(multinomial_indices(3, 50, 700, 1).unwrap(), multinomial_indices(3, 50, 700, 2).unwrap());
        let ids: Vec<u64> = (0..600).collect();
        assert_eq!(poisson_weights(3, &ids, 9, 1).unwrap(), poisson_weights(3, &ids, 9, 2).unwrap());
        assert_eq!(randomization_mask(3, 300, 70, 1).unwrap(), randomization_mask(3, 300, 70, 2).unwrap());
    }

    #[test]
    fn poisson_weights_follow_the_segment_id() {
        let all: Vec<u64> = (0..10).collect();
        let w = poisson_weights(5, &all, 7, 1).unwrap();
        let shard = [7u64, 3];
        let ws = poisson_weights(5, &shard, 7, 1).unwrap();
        for r in 0..7 {
            assert_eq!(ws[r * 2], w[r * 10 + 7]);
            assert_eq!(ws[r * 2 + 1], w[r * 10 + 3]);
        }
    }

    #[test]
    fn indices_in_range_and_empty_is_an_error() {
        assert!(multinomial_indices(1, 20, 13, 1).unwrap().iter().all(|&i| (0..13).contains(&i)));
        assert!(multinomial_indices(1, 2, 0, 1).is_err());
        assert!(poisson_weights(1, &[], 2, 1).is_err());
    }
}
