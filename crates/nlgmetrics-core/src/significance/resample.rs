//! Resampled totals: the index-count matrix times the statistics matrix.
//!
//! A resampling is given either as drawn indices (`n_resamples × n_draws`, the bootstrap)
//! or as weights (`n_resamples × n_segments`, Poisson weights or 0/1 masks); both mean
//! `totals[r] = Σ_s count[r, s] · stats[s]`. Integer statistics are summed in u64
//! (exact); real-valued ones with an exactly rounded sum (each product `c·x` is split
//! into two floats with an FMA, then summed à la Shewchuk), so totals do not depend on
//! the order of segments. [`index_totals_f32`] instead reproduces sacrebleu's float32
//! accumulation for its compatibility mode.

use crate::error::{Error, Result};
use crate::fsum::ExactSum;
use crate::parallel::map_rows;

/// How the resamples pick segments.
#[derive(Debug, Clone, Copy)]
pub enum Draws<'a> {
    /// Row-major `n_resamples × n_draws` segment indices.
    Indices { idx: &'a [i64], n_draws: usize },
    /// Row-major `n_resamples × n_segments` multiplicities.
    Weights { w: &'a [u32] },
    /// Row-major `n_resamples × n_segments` 0/1 selections.
    Mask { m: &'a [u8] },
}

impl Draws<'_> {
    fn n_resamples(&self, n_segments: usize) -> usize {
        match self {
            Draws::Indices { idx, n_draws } => idx.len().checked_div(*n_draws).unwrap_or(0),
            Draws::Weights { w } => w.len().checked_div(n_segments).unwrap_or(0),
            Draws::Mask { m } => m.len().checked_div(n_segments).unwrap_or(0),
        }
    }

    /// Shapes agree and every index is in range.
    pub fn validate(&self, n_segments: usize) -> Result<usize> {
        let bad = |msg: String| Err(Error::InvalidInput(msg));
        match self {
            Draws::Indices { idx, n_draws } => {
                if *n_draws == 0 || !idx.len().is_multiple_of(*n_draws) {
                    return bad(format!("{} indices do not fill rows of {n_draws}", idx.len()));
                }
                if let Some(&i) = idx.iter().find(|&&i| i < 0 || i as usize >= n_segments) {
                    return bad(format!("resample index {i} out of range for {n_segments} segments"));
                }
            }
            Draws::Weights { w } => {
                if n_segments == 0 || !w.len().is_multiple_of(n_segments) {
                    return bad(format!("{} weights do not fill rows of {n_segments} segments", w.len()));
                }
            }
            Draws::Mask { m } => {
                if n_segments == 0 || !m.len().is_multiple_of(n_segments) {
                    return bad(format!("{} mask entries do not fill rows of {n_segments} segments", m.len()));
                }
            }
        }
        Ok(self.n_resamples(n_segments))
    }

    /// The sum of multiplicities of resample `r` (saturating).
    fn multiplicity(&self, r: usize, n_segments: usize) -> u64 {
        match self {
            Draws::Indices { n_draws, .. } => *n_draws as u64,
            Draws::Weights { w } => w[r * n_segments..(r + 1) * n_segments]
                .iter()
                .fold(0u64, |a, &c| a.saturating_add(c as u64)),
            Draws::Mask { m } => m[r * n_segments..(r + 1) * n_segments].iter().filter(|&&c| c != 0).count() as u64,
        }
    }

    /// Calls `f(segment, multiplicity)` for every draw of resample `r`.
    #[inline]
    fn for_each(&self, r: usize, n_segments: usize, mut f: impl FnMut(usize, u64)) {
        match self {
            Draws::Indices { idx, n_draws } => {
                for &i in &idx[r * n_draws..(r + 1) * n_draws] {
                    f(i as usize, 1);
                }
            }
            Draws::Weights { w } => {
                for (s, &c) in w[r * n_segments..(r + 1) * n_segments].iter().enumerate() {
                    if c != 0 {
                        f(s, c as u64);
                    }
                }
            }
            Draws::Mask { m } => {
                for (s, &c) in m[r * n_segments..(r + 1) * n_segments].iter().enumerate() {
                    if c != 0 {
                        f(s, 1);
                    }
                }
            }
        }
    }
}

fn check_stats(len: usize, width: usize) -> Result<usize> {
    if width == 0 {
        return Ok(0);
    }
    if !len.is_multiple_of(width) {
        return Err(Error::InvalidInput(format!("{len} statistics do not fill rows of {width}")));
    }
    Ok(len / width)
}

/// Exact integer totals, `n_resamples × width`. Overflow is an error, not a wrap.
///
/// When the largest possible total (largest multiplicity sum of a resample times the
/// largest statistic of a column) fits in u64, the inner loop runs unchecked (and
/// vectorises); otherwise every addition is checked.
pub fn totals_u64(draws: Draws<'_>, stats: &[u64], width: usize, n_threads: usize) -> Result<Vec<u64>> {
    let n = check_stats(stats.len(), width)?;
    let n_res = draws.validate(n)?;
    let col_max = stats.chunks(width.max(1)).fold(0u64, |m, row| row.iter().fold(m, |m, &x| m.max(x)));
    let bound = (0..n_res).map(|r| draws.multiplicity(r, n)).max().unwrap_or(0) as u128 * col_max as u128;
    let safe = bound <= u64::MAX as u128;
    map_rows(n_res, width, n_threads, || (), |_, r, out: &mut [u64]| {
        let mut overflow = false;
        draws.for_each(r, n, |s, c| {
            let row = &stats[s * width..(s + 1) * width];
            if safe && c == 1 {
                // bootstrap draws and masks: a plain (vectorised) row addition
                for (o, &x) in out.iter_mut().zip(row) {
                    *o += x;
                }
            } else if safe {
                for (o, &x) in out.iter_mut().zip(row) {
                    *o += x * c;
                }
            } else {
                for (o, &x) in out.iter_mut().zip(row) {
                    match x.checked_mul(c).and_then(|v| o.checked_add(v)) {
                        Some(v) => *o = v,
                        None => overflow = true,
                    }
                }
            }
        });
        if overflow {
            return Err(Error::InvalidInput("resampled statistics overflow u64".into()));
        }
        Ok(())
    })
}

/// Exactly rounded real totals, `n_resamples × width`, and (when `keep_partials`) the
/// Shewchuk partials of every cell, so that totals of shards can be merged exactly.
pub fn totals_f64(
    draws: Draws<'_>,
    sums: &[f64],
    width: usize,
    n_threads: usize,
    keep_partials: bool,
) -> Result<(Vec<f64>, Vec<Vec<f64>>)> {
    let n = check_stats(sums.len(), width)?;
    if let Some(x) = sums.iter().find(|x| !x.is_finite()) {
        return Err(Error::InvalidInput(format!("cannot resample a non-finite statistic ({x})")));
    }
    let n_res = draws.validate(n)?;
    let cells = map_rows(n_res, width, n_threads, || (), |_, r, out: &mut [Option<Box<ExactSum>>]| {
        let mut acc: Vec<ExactSum> = vec![ExactSum::new(); width];
        draws.for_each(r, n, |s, c| {
            for (a, &x) in acc.iter_mut().zip(&sums[s * width..(s + 1) * width]) {
                let cf = c as f64; // weights are far below 2^53: exact
                let p = cf * x;
                a.add(p);
                a.add(cf.mul_add(x, -p)); // the rounding error of the product, exactly
            }
        });
        for (o, a) in out.iter_mut().zip(acc) {
            *o = Some(Box::new(a));
        }
        Ok::<(), Error>(())
    })?;
    let mut values = Vec::with_capacity(cells.len());
    let mut partials = Vec::new();
    for c in cells {
        let c = c.expect("every cell is written");
        values.push(c.value());
        if keep_partials {
            partials.push(c.partials().to_vec());
        }
    }
    Ok((values, partials))
}

/// sacrebleu's resampled totals: statistics cast to float32, then each resample summed
/// in float32 in draw order (`np.array(stats, dtype='float32')[idxs].sum(0)`).
pub fn index_totals_f32(idx: &[i64], n_draws: usize, stats: &[f64], width: usize, n_threads: usize) -> Result<Vec<f32>> {
    let n = check_stats(stats.len(), width)?;
    let draws = Draws::Indices { idx, n_draws };
    let n_res = draws.validate(n)?;
    let stats32: Vec<f32> = stats.iter().map(|&x| x as f32).collect();
    map_rows(n_res, width, n_threads, || (), |_, r, out: &mut [f32]| {
        draws.for_each(r, n, |s, _| {
            for (o, &x) in out.iter_mut().zip(&stats32[s * width..(s + 1) * width]) {
                *o += x;
            }
        });
        Ok::<(), Error>(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATS: [u64; 6] = [1, 2, 3, 4, 5, 6]; // 3 segments × 2

    #[test]
    fn indices_and_weights_agree() {
        let idx = [0i64, 0, 2, 1, 1, 1];
        let w = [2u32, 0, 1, 0, 3, 0];
        let a = totals_u64(Draws::Indices { idx: &idx, n_draws: 3 }, &STATS, 2, 1).unwrap();
        let b = totals_u64(Draws::Weights { w: &w }, &STATS, 2, 1).unwrap();
        assert_eq!(a, vec![7, 10, 9, 12]);
        assert_eq!(a, b);
        let m = [1u8, 0, 1, 0, 1, 0];
        assert_eq!(totals_u64(Draws::Mask { m: &m }, &STATS, 2, 1).unwrap(), vec![6, 8, 3, 4]);
    }

    #[test]
    fn float_totals_are_exact() {
        let sums = [0.1, 1e16, 0.2, -1e16, 0.3, 1.0];
        let w = [3u32, 1, 1];
        let (v, p) = totals_f64(Draws::Weights { w: &w }, &sums, 2, 1, true).unwrap();
        assert_eq!(v[0], crate::fsum::fsum([0.1, 0.1, 0.1, 0.2, 0.3]));
        assert_eq!(v[1], 3e16 - 1e16 + 1.0);
        assert_eq!(p.len(), 2);
        let mut merged = ExactSum::new();
        p[0].iter().for_each(|&x| merged.add(x));
        assert_eq!(merged.value(), v[0]);
    }

    #[test]
    fn float32_accumulates_in_draw_order() {
        let stats = [16_777_216.0, 1.0, 1.0];
        let t = index_totals_f32(&[0, 1, 2, 1, 2, 0], 3, &stats, 1, 1).unwrap();
        assert_eq!(t, vec![16_777_216.0, 16_777_218.0]);
    }

    #[test]
    fn bad_shapes_and_indices_are_errors() {
        assert!(totals_u64(Draws::Indices { idx: &[0, 3], n_draws: 2 }, &STATS, 2, 1).is_err());
        assert!(totals_u64(Draws::Indices { idx: &[0, -1], n_draws: 2 }, &STATS, 2, 1).is_err());
        assert!(totals_u64(Draws::Weights { w: &[1, 1] }, &STATS, 2, 1).is_err());
        assert!(totals_u64(Draws::Weights { w: &[u32::MAX; 3] }, &[u64::MAX, 1, 1], 1, 1).is_err());
        assert!(totals_f64(Draws::Weights { w: &[1] }, &[f64::NAN], 1, 1, false).is_err());
    }

    #[test]
    fn threads_do_not_change_totals() {
        let stats: Vec<u64> = (0..3000).collect();
        let sums: Vec<f64> = (0..3000).map(|i| (i as f64).sqrt()).collect();
        let idx = super::super::rng::multinomial_indices(9, 600, 1000, 1).unwrap();
        let d = Draws::Indices { idx: &idx, n_draws: 1000 };
        assert_eq!(totals_u64(d, &stats, 3, 1).unwrap(), totals_u64(d, &stats, 3, 2).unwrap());
        assert_eq!(totals_f64(d, &sums, 3, 1, false).unwrap().0, totals_f64(d, &sums, 3, 2, false).unwrap().0);
    }
}
