//! numpy's summation order, so that sums over float64 arrays give numpy's bits.
//!
//! `np.sum` / `np.add.reduce` over a contiguous float64 array uses pairwise summation
//! (`pairwise_sum_DOUBLE` in numpy's `loops_utils.h`): blocks of fewer than 8 values are
//! added left to right, blocks of up to 128 values use 8 interleaved accumulators, larger
//! blocks are split in two at a multiple of 8. `np.cumsum` is a plain running sum.

const BLOCK: usize = 128;

/// `np.sum(a)` for a contiguous float64 array.
pub fn sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        // numpy starts from -0.0 so that a sum of negative zeros stays -0.0.
        let mut res = -0.0;
        for &x in a {
            res += x;
        }
        res
    } else if n <= BLOCK {
        let mut r = [a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]];
        let mut i = 8;
        while i < n - (n % 8) {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            res += a[i];
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        sum(&a[..n2]) + sum(&a[n2..])
    }
}

/// [`sum`] of `n` values produced one after the other by `next` (never stored): the same
/// blocks, accumulators and split points, so the same bits as `sum` of the collected
/// values. The pairwise recursion reads its values strictly in order, so a stream works.
pub fn sum_stream(n: usize, next: &mut impl FnMut() -> f64) -> f64 {
    if n < 8 {
        let mut res = -0.0;
        for _ in 0..n {
            res += next();
        }
        res
    } else if n <= BLOCK {
        let mut r = [0.0f64; 8];
        for v in r.iter_mut() {
            *v = next();
        }
        let mut i = 8;
        while i < n - (n % 8) {
            for v in r.iter_mut() {
                *v += next();
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            res += next();
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        let left = sum_stream(n2, next);
        left + sum_stream(n - n2, next)
    }
}

/// `np.mean(a)`: the pairwise sum divided by the length (NaN when empty).
pub fn mean(a: &[f64]) -> f64 {
    sum(a) / a.len() as f64
}

/// `np.average(a, weights=w)`: `sum(a * w) / sum(w)`; `None` when the weights sum to 0
/// (numpy raises ZeroDivisionError there).
pub fn average(a: &[f64], w: &[f64]) -> Option<f64> {
    let scale = sum(w);
    if scale == 0.0 {
        return None;
    }
    let prod: Vec<f64> = a.iter().zip(w).map(|(x, y)| x * y).collect();
    Some(sum(&prod) / scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_sums_are_sequential() {
        assert_eq!(sum(&[]), -0.0);
        assert_eq!(sum(&[1.0, 2.0, 3.0]), 6.0);
    }

    #[test]
    fn pairwise_grouping_differs_from_sequential() {
        // 1e16 + 1 + 1 ... : sequential loses the ones, 8-way accumulation keeps some.
        let mut a = vec![1.0; 16];
        a[0] = 1e16;
        let seq: f64 = a.iter().sum();
        assert_eq!(seq, 1e16);
        assert_eq!(sum(&a), 1e16 + 16.0 - 2.0); // r0 = 1e16+1 -> 1e16 (even); others keep 2.0 each
    }

    #[test]
    fn sum_stream_equals_sum_of_the_values() {
        for n in [0usize, 3, 8, 13, 128, 129, 1000, 4099] {
            let a: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1013) as f64 * 1e-3 + if i % 5 == 0 { 1e15 } else { 0.0 }).collect();
            let mut it = a.iter().copied();
            assert_eq!(sum_stream(n, &mut || it.next().unwrap()).to_bits(), sum(&a).to_bits());
            assert_eq!(it.next(), None);
        }
    }

    #[test]
    fn average_with_zero_weights_is_none() {
        assert_eq!(average(&[1.0, 2.0], &[0.0, 0.0]), None);
        assert_eq!(average(&[1.0, 3.0], &[1.0, 1.0]), Some(2.0));
    }
}
