use crate::convert::{borrow_strs, detached, matrix};
use nlgmetrics_core::fsum::ExactSum;
use nlgmetrics_core::text::bleu_nltk;
use nlgmetrics_core::text::distinct::{self, DistinctConfig};
use nlgmetrics_core::tokenize::Tokenizer;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::collections::HashMap;

fn config(tokenizer: &str, lowercase: bool, n: usize) -> Result<DistinctConfig, nlgmetrics_core::Error> {
    let cfg = DistinctConfig { tokenizer: Tokenizer::from_name(tokenizer)?, lowercase, n };
    cfg.validate()?;
    Ok(cfg)
}

/// Per-response distinct-n statistics `[tokens, ngrams, unique]`, shape (n, 3).
#[pyfunction]
#[pyo3(signature = (texts, tokenizer, lowercase, n, n_threads=0))]
fn distinct_stats<'py>(
    py: Python<'py>,
    texts: Vec<String>,
    tokenizer: &str,
    lowercase: bool,
    n: usize,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let rows = texts.len();
    let data = detached(py, || distinct::segment_stats(&texts, &config(tokenizer, lowercase, n)?, n_threads))?;
    matrix(py, data, rows, 3)
}

/// Per-response rows (n, 3) and the corpus's distinct n-gram count, in one pass over
/// the texts (read in place).
#[pyfunction]
#[pyo3(signature = (texts, tokenizer, lowercase, n, n_threads=0))]
fn distinct_stats_and_unique<'py>(
    py: Python<'py>,
    texts: Vec<Bound<'py, PyString>>,
    tokenizer: &str,
    lowercase: bool,
    n: usize,
    n_threads: usize,
) -> PyResult<(Bound<'py, PyArray2<u64>>, u64)> {
    let rows = texts.len();
    let texts = borrow_strs(&texts)?;
    let (data, unique) = detached(py, || distinct::stats_and_unique(&texts, &config(tokenizer, lowercase, n)?, n_threads))?;
    Ok((matrix(py, data, rows, 3)?, unique))
}

/// Number of distinct n-grams over all texts.
#[pyfunction]
#[pyo3(signature = (texts, tokenizer, lowercase, n, n_threads=0))]
fn distinct_corpus_unique(py: Python<'_>, texts: Vec<String>, tokenizer: &str, lowercase: bool, n: usize, n_threads: usize) -> PyResult<u64> {
    detached(py, || distinct::corpus_unique(&texts, &config(tokenizer, lowercase, n)?, n_threads))
}

/// Occurrence count of every n-gram, keyed by its tokens joined with U+001F.
#[pyfunction]
#[pyo3(signature = (texts, tokenizer, lowercase, n, n_threads=0))]
fn distinct_table(
    py: Python<'_>,
    texts: Vec<String>,
    tokenizer: &str,
    lowercase: bool,
    n: usize,
    n_threads: usize,
) -> PyResult<HashMap<String, u64>> {
    let t = detached(py, || distinct::ngram_table(&texts, &config(tokenizer, lowercase, n)?, n_threads))?;
    Ok(t.into_iter().collect())
}

/// The exact n-gram union as (sorted keys joined by newlines, count).
#[pyfunction]
#[pyo3(signature = (texts, tokenizer, lowercase, n, n_threads=0))]
fn distinct_key_list<'py>(
    py: Python<'py>,
    texts: Vec<String>,
    tokenizer: &str,
    lowercase: bool,
    n: usize,
    n_threads: usize,
) -> PyResult<(Bound<'py, PyBytes>, u64)> {
    let (blob, count) = detached(py, || distinct::key_list(&texts, &config(tokenizer, lowercase, n)?, n_threads))?;
    Ok((PyBytes::new(py, &blob), count))
}

/// Union of two key lists of `distinct_key_list`: (keys, count).
#[pyfunction]
fn distinct_key_union<'py>(py: Python<'py>, a: &[u8], b: &[u8]) -> PyResult<(Bound<'py, PyBytes>, u64)> {
    let (blob, count) = detached(py, || Ok(distinct::key_list_union(a, b)))?;
    Ok((PyBytes::new(py, &blob), count))
}

/// Shewchuk partials of the exact sum of `values` (`math.fsum` of them is the exact sum,
/// rounded once): the float statistics of a large batch without a Python-level loop.
#[pyfunction]
fn exact_partials(py: Python<'_>, values: PyReadonlyArray1<'_, f64>) -> PyResult<Vec<f64>> {
    let v = values.as_slice()?.to_vec();
    detached(py, || {
        if v.iter().any(|x| !x.is_finite()) {
            return Err(nlgmetrics_core::Error::InvalidInput("exact sums need finite values".into()));
        }
        let mut s = ExactSum::new();
        for x in v {
            s.add(x);
        }
        Ok(s.partials().to_vec())
    })
}

/// HyperLogLog registers (2**p, uint8) of the texts' n-grams.
#[pyfunction]
#[pyo3(signature = (texts, tokenizer, lowercase, n, precision, n_threads=0))]
fn distinct_hll<'py>(
    py: Python<'py>,
    texts: Vec<String>,
    tokenizer: &str,
    lowercase: bool,
    n: usize,
    precision: u32,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let regs = detached(py, || distinct::hll_registers(&texts, &config(tokenizer, lowercase, n)?, precision, n_threads))?;
    Ok(PyArray1::from_vec(py, regs))
}

/// The HyperLogLog estimate of a register array.
#[pyfunction]
fn hll_estimate(py: Python<'_>, registers: PyReadonlyArray1<'_, u8>) -> PyResult<f64> {
    let regs = registers.as_slice()?.to_vec();
    detached(py, || distinct::hll_estimate(&regs))
}

/// Self-BLEU statistics: each text against the others (nltk BLEU rows, width 2+2N+3).
#[pyfunction]
#[pyo3(signature = (texts, tokenizer, lowercase, n_orders, exclude_self, n_threads=0))]
fn self_bleu_stats<'py>(
    py: Python<'py>,
    texts: Vec<String>,
    tokenizer: &str,
    lowercase: bool,
    n_orders: usize,
    exclude_self: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let rows = texts.len();
    let data = detached(py, || {
        let cfg = config(tokenizer, lowercase, 1)?;
        let toks = distinct::tokenize_all(&texts, &cfg, n_threads);
        let split: Vec<Vec<&str>> = toks.iter().map(|t| t.split(' ').filter(|x| !x.is_empty()).collect()).collect();
        let ids = bleu_nltk::intern_all(&split);
        bleu_nltk::self_bleu_stats(&ids, n_orders, exclude_self, n_threads)
    })?;
    matrix(py, data, rows, bleu_nltk::width(n_orders))
}

/// Self-BLEU statistics of token lists.
#[pyfunction]
#[pyo3(signature = (tokens, n_orders, exclude_self, n_threads=0))]
fn self_bleu_stats_tokens<'py>(
    py: Python<'py>,
    tokens: Vec<Vec<String>>,
    n_orders: usize,
    exclude_self: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let rows = tokens.len();
    let data = detached(py, || {
        let split: Vec<Vec<&str>> = tokens.iter().map(|t| t.iter().map(String::as_str).collect()).collect();
        let ids = bleu_nltk::intern_all(&split);
        bleu_nltk::self_bleu_stats(&ids, n_orders, exclude_self, n_threads)
    })?;
    matrix(py, data, rows, bleu_nltk::width(n_orders))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(distinct_stats, m)?)?;
    m.add_function(wrap_pyfunction!(distinct_stats_and_unique, m)?)?;
    m.add_function(wrap_pyfunction!(distinct_corpus_unique, m)?)?;
    m.add_function(wrap_pyfunction!(distinct_table, m)?)?;
    m.add_function(wrap_pyfunction!(distinct_hll, m)?)?;
    m.add_function(wrap_pyfunction!(distinct_key_list, m)?)?;
    m.add_function(wrap_pyfunction!(exact_partials, m)?)?;
    m.add_function(wrap_pyfunction!(distinct_key_union, m)?)?;
    m.add_function(wrap_pyfunction!(hll_estimate, m)?)?;
    m.add_function(wrap_pyfunction!(self_bleu_stats, m)?)?;
    m.add_function(wrap_pyfunction!(self_bleu_stats_tokens, m)?)?;
    Ok(())
}
