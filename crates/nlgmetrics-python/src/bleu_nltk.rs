use crate::convert::{detached, matrix, rows_of};
use nlgmetrics_core::text::bleu_nltk::{self, Alpha, Smoothing, TokenSeq, Weights};
use nlgmetrics_core::Error;
use numpy::{PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};

/// nltk keeps `alpha` an int unless the caller passes a float, and the type changes the
/// arithmetic of method6 (exact fractions vs floats).
fn alpha_of(alpha: &Bound<'_, PyAny>) -> PyResult<Alpha> {
    if alpha.is_instance_of::<PyInt>() && !alpha.is_instance_of::<PyBool>() {
        return Ok(Alpha::Int(alpha.extract()?));
    }
    Ok(Alpha::Float(alpha.extract()?))
}

pub fn smoothing(method: u8, epsilon: f64, alpha: &Bound<'_, PyAny>, k: f64) -> PyResult<Smoothing> {
    Ok(Smoothing { method, epsilon, alpha: alpha_of(alpha)?, k })
}

fn weights_of(weights: Vec<Vec<f64>>, uniform4: Vec<bool>) -> Result<Vec<Weights>, Error> {
    if weights.len() != uniform4.len() || weights.is_empty() {
        return Err(Error::InvalidOption("one uniform4 flag per weight tuple is needed".into()));
    }
    if weights.iter().flatten().any(|w| !w.is_finite()) {
        return Err(Error::InvalidOption("weights must be finite numbers".into()));
    }
    Ok(weights.into_iter().zip(uniform4).map(|(w, uniform4)| Weights { w, uniform4 }).collect())
}

/// The statistics matrix of hypotheses and references of one token representation.
fn stats_matrix<'py, T: TokenSeq + Sync>(py: Python<'py>, hyps: Vec<T>, refs: Vec<Vec<T>>, n_orders: usize, n_threads: usize) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let n = hyps.len();
    let data = detached(py, || bleu_nltk::batch_stats(&hyps, &refs, n_orders, n_threads))?;
    matrix(py, data, n, bleu_nltk::width(n_orders))
}

/// Per-segment statistics of whitespace-split strings, shape (n, 2+2N+3).
#[pyfunction]
#[pyo3(signature = (hyps, refs, n_orders, n_threads=0))]
fn nltk_bleu_stats_text<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    n_orders: usize,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    stats_matrix(py, hyps, refs, n_orders, n_threads)
}

/// Per-segment statistics of token lists, shape (n, 2+2N+3).
#[pyfunction]
#[pyo3(signature = (hyps, refs, n_orders, n_threads=0))]
fn nltk_bleu_stats_tokens<'py>(
    py: Python<'py>,
    hyps: Vec<Vec<String>>,
    refs: Vec<Vec<Vec<String>>>,
    n_orders: usize,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    stats_matrix(py, hyps, refs, n_orders, n_threads)
}

/// nltk `corpus_bleu` of one summed statistics row (tail = the last segment's).
#[pyfunction]
#[pyo3(signature = (stats, n_orders, weights, uniform4, method, epsilon, alpha, k, auto_reweigh))]
#[allow(clippy::too_many_arguments)]
fn nltk_bleu_score<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray1<'py, u64>,
    n_orders: usize,
    weights: Vec<Vec<f64>>,
    uniform4: Vec<bool>,
    method: u8,
    epsilon: f64,
    alpha: &Bound<'py, PyAny>,
    k: f64,
    auto_reweigh: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let row = stats.as_slice()?.to_vec();
    let sm = smoothing(method, epsilon, alpha, k)?;
    let s = detached(py, || {
        sm.validate()?;
        let w = weights_of(weights, uniform4)?;
        bleu_nltk::score_stats(&row, n_orders, &w, &sm, auto_reweigh)
    })?;
    Ok(crate::py_dict!(py,
        "scores" => s.scores,
        "precisions" => s.precisions,
        "bp" => s.bp,
        "hyp_len" => s.hyp_len,
        "ref_len" => s.ref_len,
    ))
}

/// Sentence scores of every statistics row: shape (rows, number of weight tuples).
#[pyfunction]
#[pyo3(signature = (stats, n_orders, weights, uniform4, method, epsilon, alpha, k, auto_reweigh, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn nltk_bleu_scores<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, u64>,
    n_orders: usize,
    weights: Vec<Vec<f64>>,
    uniform4: Vec<bool>,
    method: u8,
    epsilon: f64,
    alpha: &Bound<'py, PyAny>,
    k: f64,
    auto_reweigh: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let rows = stats.as_array().shape()[0];
    let (flat, _) = rows_of(&stats);
    let n_weights = weights.len();
    let sm = smoothing(method, epsilon, alpha, k)?;
    let data = detached(py, || {
        let w = weights_of(weights, uniform4)?;
        bleu_nltk::batch_scores(&flat, n_orders, &w, &sm, auto_reweigh, n_threads)
    })?;
    matrix(py, data, rows, n_weights)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nltk_bleu_stats_text, m)?)?;
    m.add_function(wrap_pyfunction!(nltk_bleu_stats_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(nltk_bleu_score, m)?)?;
    m.add_function(wrap_pyfunction!(nltk_bleu_scores, m)?)?;
    Ok(())
}
