use crate::convert::{detached, matrix};
use nlgmetrics_core::text::ter::{self, TerConfig, BEAM_WIDTH, MAX_SHIFT_CANDIDATES, MAX_SHIFT_DIST, MAX_SHIFT_SIZE};
use nlgmetrics_core::tokenize::ter::{preprocess_into, tokenize_into, TercomOptions};
use nlgmetrics_core::{parallel, Error};
use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;

fn config(normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> TerConfig {
    TerConfig { tokenizer: TercomOptions { normalized, no_punct, asian_support, case_sensitive } }
}

/// Per-segment statistics: best edits (u64, shape (n,)) and average reference length
/// (float64, shape (n,)).
#[pyfunction]
#[pyo3(signature = (hyps, refs, normalized, no_punct, asian_support, case_sensitive, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn ter_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    n_threads: usize,
) -> PyResult<(Bound<'py, PyArray1<u64>>, Bound<'py, PyArray1<f64>>)> {
    let (edits, lens) = detached(py, || {
        ter::batch_stats(&config(normalized, no_punct, asian_support, case_sensitive), &hyps, &refs, n_threads)
    })?;
    Ok((PyArray1::from_vec(py, edits), PyArray1::from_vec(py, lens)))
}

/// TER (0-100) of every (edits, reference length) pair.
#[pyfunction]
fn ter_scores<'py>(py: Python<'py>, edits: PyReadonlyArray1<'py, u64>, ref_lengths: PyReadonlyArray1<'py, f64>) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (e, l) = (edits.as_slice()?.to_vec(), ref_lengths.as_slice()?.to_vec());
    let out = detached(py, || {
        if e.len() != l.len() {
            return Err(Error::LengthMismatch { what: "edits and reference lengths".into(), left: e.len(), right: l.len() });
        }
        Ok(e.iter().zip(&l).map(|(&e, &l)| ter::score(e, l)).collect::<Vec<f64>>())
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// Sentence TER of every candidate against every pseudo-reference: shape (n, m).
#[pyfunction]
#[pyo3(signature = (cands, refs, normalized, no_punct, asian_support, case_sensitive, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn ter_pairwise<'py>(
    py: Python<'py>,
    cands: Vec<String>,
    refs: Vec<String>,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (n, m) = (cands.len(), refs.len());
    crate::convert::check_pairwise(py, n, m, 2)?;
    let data = detached(py, || ter::pairwise(&config(normalized, no_punct, asian_support, case_sensitive), &cands, &refs, n_threads))?;
    matrix(py, data, n, m)
}

/// sacrebleu's `TercomTokenizer` on each line; with `rstrip` (the default) on the
/// right-stripped line, as the TER metric preprocesses it.
#[pyfunction]
#[pyo3(signature = (lines, normalized, no_punct, asian_support, case_sensitive, n_threads=0, rstrip=true))]
#[allow(clippy::too_many_arguments)]
fn ter_tokenize(py: Python<'_>, lines: Vec<String>, normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool, n_threads: usize, rstrip: bool) -> PyResult<Vec<String>> {
    let opts = TercomOptions { normalized, no_punct, asian_support, case_sensitive };
    let apply = if rstrip { preprocess_into } else { tokenize_into };
    detached(py, || {
        parallel::map_rows(lines.len(), 1, n_threads, || (), |_, i, row: &mut [String]| {
            apply(opts, &lines[i], &mut row[0]);
            Ok::<(), Error>(())
        })
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_stats, m)?)?;
    m.add_function(wrap_pyfunction!(ter_scores, m)?)?;
    m.add_function(wrap_pyfunction!(ter_pairwise, m)?)?;
    m.add_function(wrap_pyfunction!(ter_tokenize, m)?)?;
    m.add("TER_LIMITS", (MAX_SHIFT_SIZE, MAX_SHIFT_DIST, BEAM_WIDTH, MAX_SHIFT_CANDIDATES))?;
    Ok(())
}
