//! Bindings for the `rouge` (pltrdy) / `rouge-chinese` ROUGE flavours.

use crate::convert::{borrow_strs, detached, matrix};
use pyo3::types::PyString;
use nlgmetrics_core::text::rouge_pltrdy::{self, Config, Kind, Variant};
use nlgmetrics_core::Error;
use numpy::PyArray2;
use pyo3::prelude::*;

/// Per pair, per metric `[P, R, F]`, then 1 if both sides have a sentence (else 0);
/// shape (n, 3T + 1). `variant` is "pltrdy" or "rouge-chinese".
#[pyfunction]
#[pyo3(signature = (hyps, refs, metrics, variant, exclusive=true, n_threads=0))]
fn rouge_pltrdy_stats<'py>(
    py: Python<'py>,
    hyps: Vec<Bound<'py, PyString>>,
    refs: Vec<Bound<'py, PyString>>,
    metrics: Vec<String>,
    variant: &str,
    exclusive: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    // the texts' UTF-8 borrowed from the str objects (no copy per text)
    let (hyps, refs) = (borrow_strs(&hyps)?, borrow_strs(&refs)?);
    let n = hyps.len();
    let build = || -> Result<Config, Error> {
        Ok(Config {
            variant: Variant::from_name(variant)?,
            kinds: metrics.iter().map(|m| Kind::from_name(m)).collect::<Result<_, _>>()?,
            exclusive,
        })
    };
    let cfg = detached(py, build)?;
    let width = cfg.width();
    let data = detached(py, || rouge_pltrdy::batch_stats(&hyps, &refs, &cfg, n_threads))?;
    matrix(py, data, n, width)
}

/// `rouge-chinese`'s `Rouge.cut_sent(text)`.
#[pyfunction]
fn rouge_chinese_cut_sent(text: &str) -> Vec<String> {
    rouge_pltrdy::cut_sent(text)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rouge_pltrdy_stats, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_chinese_cut_sent, m)?)?;
    Ok(())
}

/// LLaMA-Factory 0.9.5 `ComputeSimilarity` rows `[rouge-1, rouge-2, rouge-l, bleu-4]`
/// (×100, rounded to 4 digits): `cut_*` are `" ".join(jieba.cut(text))`.
#[pyfunction]
#[pyo3(signature = (raw_h, raw_r, cut_h, cut_r, n_threads=0))]
fn llamafactory_rows<'py>(
    py: Python<'py>,
    raw_h: Vec<String>,
    raw_r: Vec<String>,
    cut_h: Vec<String>,
    cut_r: Vec<String>,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let n = raw_h.len();
    let data = detached(py, || nlgmetrics_core::text::llm_presets::llamafactory_rows(&raw_h, &raw_r, &cut_h, &cut_r, n_threads))?;
    matrix(py, data, n, 4)
}

/// CPython's `round(x, ndigits)` of every value (0 <= ndigits <= 8).
#[pyfunction]
fn py_round_array(values: Vec<f64>, ndigits: u32) -> Vec<f64> {
    values.into_iter().map(|v| nlgmetrics_core::text::llm_presets::py_round(v, ndigits)).collect()
}

pub fn register_presets(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(llamafactory_rows, m)?)?;
    m.add_function(wrap_pyfunction!(py_round_array, m)?)?;
    Ok(())
}

/// Per pair, the deepest nesting of `rouge` 1.0.1's recursive LCS traceback (`_recon`).
#[pyfunction]
#[pyo3(signature = (hyps, refs, n_threads=0))]
fn rouge_pltrdy_traceback_depths(py: Python<'_>, hyps: Vec<String>, refs: Vec<String>, n_threads: usize) -> PyResult<Vec<u64>> {
    detached(py, || rouge_pltrdy::pltrdy_traceback_depths(&hyps, &refs, n_threads))
}

pub fn register_depths(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rouge_pltrdy_traceback_depths, m)?)?;
    Ok(())
}
