use crate::convert::{detached, matrix, rows_of};
use nlgmetrics_core::text::sari::{self, Flavour, SariConfig, EASSE_WIDTH, SENT_WIDTH};
use nlgmetrics_core::tokenize::Tokenizer;
use nlgmetrics_core::Error;
use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The texts of Python strings, borrowed (no copy; the objects outlive the call).
fn texts<'a>(items: &'a [Bound<'_, PyString>]) -> PyResult<Vec<&'a str>> {
    items.iter().map(|s| s.to_str()).collect()
}

fn nested<'a>(items: &'a [Vec<Bound<'_, PyString>>]) -> PyResult<Vec<Vec<&'a str>>> {
    items.iter().map(|r| texts(r)).collect()
}

fn config(flavour: &str, tokenizer: &str, lowercase: bool, legacy: bool) -> Result<SariConfig, Error> {
    let flavour = Flavour::from_name(flavour)?;
    let tokenizer = match tokenizer {
        "13a" | "intl" => Tokenizer::from_name(tokenizer)?,
        _ => return Err(Error::InvalidOption(format!("unknown SARI tokenizer {tokenizer:?}; known: 13a, intl"))),
    };
    Ok(SariConfig { flavour, tokenizer, lowercase, legacy })
}

/// EASSE SARI statistics: uint64 array (n, 36), column `stat * 4 + order`.
#[pyfunction]
#[pyo3(signature = (sources, hyps, refs, tokenizer, lowercase, n_threads=0, legacy=false))]
#[allow(clippy::too_many_arguments)]
fn sari_easse_stats<'py>(
    py: Python<'py>,
    sources: Vec<Bound<'py, PyString>>,
    hyps: Vec<Bound<'py, PyString>>,
    refs: Vec<Vec<Bound<'py, PyString>>>,
    tokenizer: &str,
    lowercase: bool,
    n_threads: usize,
    legacy: bool,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let n = hyps.len();
    let (sources, hyps, refs) = (texts(&sources)?, texts(&hyps)?, nested(&refs)?);
    let data = detached(py, || sari::easse_stats(&config("easse", tokenizer, lowercase, legacy)?, &sources, &hyps, &refs, n_threads))?;
    matrix(py, data, n, EASSE_WIDTH)
}

/// Sentence SARI rows of the `evaluate` / `xu2016` flavours: float64 (n, 4) =
/// keep, del, add, sari (0-1).
#[pyfunction]
#[pyo3(signature = (sources, hyps, refs, flavour, n_threads=0))]
fn sari_sentence_stats<'py>(
    py: Python<'py>,
    sources: Vec<Bound<'py, PyString>>,
    hyps: Vec<Bound<'py, PyString>>,
    refs: Vec<Vec<Bound<'py, PyString>>>,
    flavour: &str,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let n = hyps.len();
    let (sources, hyps, refs) = (texts(&sources)?, texts(&hyps)?, nested(&refs)?);
    let data = detached(py, || {
        let cfg = config(flavour, "13a", true, false)?;
        if cfg.flavour == Flavour::Easse {
            return Err(Error::InvalidOption("the easse flavour has integer statistics: use sari_easse_stats".into()));
        }
        sari::sent_stats(&cfg, &sources, &hyps, &refs, n_threads)
    })?;
    matrix(py, data, n, SENT_WIDTH)
}

/// EASSE scores of summed statistics rows (n, 36): float64 (n, 4) = sari, add, keep, del.
#[pyfunction]
fn sari_easse_scores<'py>(py: Python<'py>, stats: PyReadonlyArray2<'py, u64>) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (values, width) = rows_of(&stats);
    let rows = values.len().checked_div(width).unwrap_or(0);
    let out = detached(py, || {
        if width != EASSE_WIDTH {
            return Err(Error::InvalidInput(format!("EASSE SARI statistics have {EASSE_WIDTH} columns, got {width}")));
        }
        Ok(values.chunks(EASSE_WIDTH).flat_map(sari::easse_score).collect::<Vec<f64>>())
    })?;
    matrix(py, out, rows, 4)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sari_easse_stats, m)?)?;
    m.add_function(wrap_pyfunction!(sari_sentence_stats, m)?)?;
    m.add_function(wrap_pyfunction!(sari_easse_scores, m)?)?;
    Ok(())
}
