//! Bindings of `nlgmetrics_core::significance`: draws, resampled totals, and the
//! sacrebleu-compatible float32 BLEU scores. Arrays in, arrays out, GIL released.

use crate::convert::{detached, matrix};
use nlgmetrics_core::significance::resample::{self, Draws};
use nlgmetrics_core::significance::{rng, sacrebleu_compat};
use nlgmetrics_core::text::bleu::Smoothing;
use nlgmetrics_core::Error;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

fn owned<T: Copy + numpy::Element>(a: &PyReadonlyArray2<'_, T>) -> (Vec<T>, usize, usize) {
    let v = a.as_array();
    let (r, c) = (v.shape()[0], v.shape()[1]);
    (v.iter().copied().collect(), r, c)
}

/// One Philox4x64-10 block (for tests against NumPy's `Philox`).
#[pyfunction]
fn sig_philox4x64(counter: [u64; 4], key: [u64; 2]) -> [u64; 4] {
    rng::philox4x64(counter, key)
}

/// Bootstrap indices `(n_resamples, n)`, int64, from Philox keyed by `seed`.
#[pyfunction]
#[pyo3(signature = (seed, n_resamples, n, n_threads=0))]
fn sig_multinomial_indices<'py>(py: Python<'py>, seed: u64, n_resamples: usize, n: usize, n_threads: usize) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let data = detached(py, || rng::multinomial_indices(seed, n_resamples, n, n_threads))?;
    matrix(py, data, n_resamples, n)
}

/// Poisson(1) weights `(n_resamples, len(segment_ids))`, uint32, keyed by (seed, id, resample).
#[pyfunction]
#[pyo3(signature = (seed, segment_ids, n_resamples, n_threads=0))]
fn sig_poisson_weights<'py>(py: Python<'py>, seed: u64, segment_ids: PyReadonlyArray1<'py, u64>, n_resamples: usize, n_threads: usize) -> PyResult<Bound<'py, PyArray2<u32>>> {
    let ids = segment_ids.as_slice()?.to_vec();
    let n = ids.len();
    let data = detached(py, || rng::poisson_weights(seed, &ids, n_resamples, n_threads))?;
    matrix(py, data, n_resamples, n)
}

/// Randomization masks `(n_trials, n)`, uint8 (1 = swap the two systems' segment).
#[pyfunction]
#[pyo3(signature = (seed, n_trials, n, n_threads=0))]
fn sig_randomization_mask<'py>(py: Python<'py>, seed: u64, n_trials: usize, n: usize, n_threads: usize) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let data = detached(py, || rng::randomization_mask(seed, n_trials, n, n_threads))?;
    matrix(py, data, n_trials, n)
}

enum OwnedDraws {
    Indices(Vec<i64>, usize),
    Weights(Vec<u32>),
    Mask(Vec<u8>),
}

impl OwnedDraws {
    fn view(&self) -> Draws<'_> {
        match self {
            OwnedDraws::Indices(idx, n_draws) => Draws::Indices { idx, n_draws: *n_draws },
            OwnedDraws::Weights(w) => Draws::Weights { w },
            OwnedDraws::Mask(m) => Draws::Mask { m },
        }
    }
}

/// `kind` is "indices" (int64 drawn indices), "weights" (uint32) or "mask" (uint8).
fn draws_of(kind: &str, draws: &Bound<'_, PyAny>) -> PyResult<(OwnedDraws, usize)> {
    Ok(match kind {
        "indices" => {
            let (v, r, c) = owned(&draws.extract::<PyReadonlyArray2<i64>>()?);
            (OwnedDraws::Indices(v, c), r)
        }
        "weights" => {
            let (v, r, _) = owned(&draws.extract::<PyReadonlyArray2<u32>>()?);
            (OwnedDraws::Weights(v), r)
        }
        "mask" => {
            let (v, r, _) = owned(&draws.extract::<PyReadonlyArray2<u8>>()?);
            (OwnedDraws::Mask(v), r)
        }
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!("unknown draw kind {other:?}")))
        }
    })
}

/// Exact u64 totals `(n_resamples, width)` = count matrix × statistics.
#[pyfunction]
#[pyo3(signature = (kind, draws, stats, n_threads=0))]
fn sig_totals_u64<'py>(py: Python<'py>, kind: &str, draws: &Bound<'py, PyAny>, stats: PyReadonlyArray2<'py, u64>, n_threads: usize) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let (d, n_res) = draws_of(kind, draws)?;
    let (s, _, width) = owned(&stats);
    let data = detached(py, || resample::totals_u64(d.view(), &s, width, n_threads))?;
    matrix(py, data, n_res, width)
}

/// Exactly rounded f64 totals `(n_resamples, width)`; with `keep_partials`, also the
/// Shewchuk partials of each cell (flat values and per-cell lengths).
#[pyfunction]
#[pyo3(signature = (kind, draws, sums, keep_partials=false, n_threads=0))]
#[allow(clippy::type_complexity)]
fn sig_totals_f64<'py>(
    py: Python<'py>,
    kind: &str,
    draws: &Bound<'py, PyAny>,
    sums: PyReadonlyArray2<'py, f64>,
    keep_partials: bool,
    n_threads: usize,
) -> PyResult<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<u64>>)> {
    let (d, n_res) = draws_of(kind, draws)?;
    let (s, _, width) = owned(&sums);
    let (values, partials) = detached(py, || resample::totals_f64(d.view(), &s, width, n_threads, keep_partials))?;
    let lens: Vec<u64> = partials.iter().map(|p| p.len() as u64).collect();
    let flat: Vec<f64> = partials.into_iter().flatten().collect();
    Ok((matrix(py, values, n_res, width)?, PyArray1::from_vec(py, flat), PyArray1::from_vec(py, lens)))
}

/// sacrebleu's float32 resample totals (statistics cast to float32, summed in draw order).
#[pyfunction]
#[pyo3(signature = (indices, stats, n_threads=0))]
fn sig_index_totals_f32<'py>(py: Python<'py>, indices: PyReadonlyArray2<'py, i64>, stats: PyReadonlyArray2<'py, f64>, n_threads: usize) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let (idx, n_res, n_draws) = owned(&indices);
    let (s, _, width) = owned(&stats);
    let data = detached(py, || resample::index_totals_f32(&idx, n_draws, &s, width, n_threads))?;
    matrix(py, data, n_res, width)
}

/// sacrebleu's BLEU of each float32 totals row (NumPy ≥ 2 promotion), as float64.
#[pyfunction]
#[pyo3(signature = (totals, max_order, smooth_method, smooth_value, effective_order))]
fn sig_sacrebleu_bleu_f32_scores<'py>(
    py: Python<'py>,
    totals: PyReadonlyArray2<'py, f32>,
    max_order: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (t, _, width) = owned(&totals);
    let out = detached(py, || {
        let smooth = Smoothing::from_name(smooth_method, smooth_value)?;
        if width != 2 + 2 * max_order {
            return Err(Error::InvalidInput(format!(
                "BLEU statistics need {} columns for max_ngram_order={max_order}, got {width}",
                2 + 2 * max_order
            )));
        }
        Ok(t.chunks(width)
            .map(|row| sacrebleu_compat::bleu_score_f32(row, max_order, smooth, effective_order))
            .collect::<Vec<f64>>())
    })?;
    Ok(PyArray1::from_vec(py, out))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sig_philox4x64, m)?)?;
    m.add_function(wrap_pyfunction!(sig_multinomial_indices, m)?)?;
    m.add_function(wrap_pyfunction!(sig_poisson_weights, m)?)?;
    m.add_function(wrap_pyfunction!(sig_randomization_mask, m)?)?;
    m.add_function(wrap_pyfunction!(sig_totals_u64, m)?)?;
    m.add_function(wrap_pyfunction!(sig_totals_f64, m)?)?;
    m.add_function(wrap_pyfunction!(sig_index_totals_f32, m)?)?;
    m.add_function(wrap_pyfunction!(sig_sacrebleu_bleu_f32_scores, m)?)?;
    Ok(())
}
