use crate::convert::{detached, matrix, ref_count_array, with_str_lists};
use nlgmetrics_core::text::chrf::{self, ChrfConfig};
use nlgmetrics_core::Error;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

fn config(char_order: usize, word_order: usize, beta: f64, lowercase: bool, whitespace: bool, eps_smoothing: bool) -> Result<ChrfConfig, Error> {
    let cfg = ChrfConfig { char_order, word_order, beta, lowercase, whitespace, eps_smoothing };
    cfg.validate()?;
    Ok(cfg)
}

fn check_width(width: usize) -> Result<(), Error> {
    if width == 0 || width % 3 != 0 {
        return Err(Error::InvalidInput(format!("chrF statistics need 3 columns per order, got {width}")));
    }
    Ok(())
}

/// Per-segment statistics `[n_hyp, n_ref, n_match]` per order (chars, then words),
/// shape (n, 3·(char_order + word_order)).
#[pyfunction]
#[pyo3(signature = (hyps, refs, char_order, word_order, beta, lowercase, whitespace, eps_smoothing, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn chrf_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    char_order: usize,
    word_order: usize,
    beta: f64,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let n = hyps.len();
    let (data, width) = detached(py, || {
        let cfg = config(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)?;
        Ok((chrf::batch_stats(&cfg, &hyps, &refs, n_threads)?, cfg.width()))
    })?;
    matrix(py, data, n, width)
}

/// [`chrf_stats`] on a list of str and a list of (str or non-empty list/tuple of str),
/// read in place, plus the number of references per segment; `None` when the inputs
/// have another shape or a string cannot be encoded (the caller then validates them).
#[pyfunction]
#[pyo3(signature = (hyps, refs, char_order, word_order, beta, lowercase, whitespace, eps_smoothing, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn chrf_stats_lists<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    char_order: usize,
    word_order: usize,
    beta: f64,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
    n_threads: usize,
) -> PyResult<Option<(Bound<'py, PyArray2<u64>>, Bound<'py, PyArray1<i64>>)>> {
    let Some(((data, width, n), ref_counts)) = with_str_lists(hyps, refs, |h, r, starts| {
        detached(py, || {
            let cfg = config(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)?;
            Ok((chrf::batch_stats_flat(&cfg, h, r, starts, n_threads)?, cfg.width(), h.len()))
        })
    })?
    else {
        return Ok(None);
    };
    Ok(Some((matrix(py, data, n, width)?, ref_count_array(py, ref_counts))))
}

/// chrF of one (summed) statistics vector.
#[pyfunction]
#[pyo3(signature = (stats, beta, eps_smoothing))]
fn chrf_score(py: Python<'_>, stats: PyReadonlyArray1<'_, u64>, beta: f64, eps_smoothing: bool) -> PyResult<f64> {
    let stats = stats.as_slice()?.to_vec();
    detached(py, || {
        check_width(stats.len())?;
        Ok(chrf::f_score(&stats, beta, eps_smoothing))
    })
}

/// chrF of every row of a statistics matrix (sentence-level chrF).
#[pyfunction]
#[pyo3(signature = (stats, beta, eps_smoothing))]
fn chrf_scores<'py>(py: Python<'py>, stats: PyReadonlyArray2<'py, u64>, beta: f64, eps_smoothing: bool) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let arr = stats.as_array();
    let width = arr.shape()[1];
    let flat: Vec<u64> = arr.iter().copied().collect();
    let out = detached(py, || {
        check_width(width)?;
        Ok(chrf::scores(&flat, width, beta, eps_smoothing))
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// Sentence chrF of every candidate against every pseudo-reference: shape (n, m).
#[pyfunction]
#[pyo3(signature = (cands, refs, char_order, word_order, beta, lowercase, whitespace, eps_smoothing, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn chrf_pairwise<'py>(
    py: Python<'py>,
    cands: Vec<String>,
    refs: Vec<String>,
    char_order: usize,
    word_order: usize,
    beta: f64,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (n, m) = (cands.len(), refs.len());
    crate::convert::check_pairwise(py, n, m, 2)?;
    let data = detached(py, || {
        let cfg = config(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)?;
        chrf::pairwise(&cfg, &cands, &refs, n_threads)
    })?;
    matrix(py, data, n, m)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_stats, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_stats_lists, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_score, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_scores, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_pairwise, m)?)?;
    Ok(())
}
