use crate::convert::{detached, matrix, ref_count_array, with_str_lists};
use nlgmetrics_core::text::edit::{self, Measure, MultiRef, Transform};
use nlgmetrics_core::text::per;
use nlgmetrics_core::tokenize::Tokenizer;
use numpy::{PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

/// Per-segment `[hits, substitutions, deletions, insertions]`, shape (n, 4).
#[pyfunction]
#[pyo3(signature = (hyps, refs, transform, multi_ref, n_threads=0))]
fn edit_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    transform: &str,
    multi_ref: &str,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let n = hyps.len();
    let data = detached(py, || {
        let t = Transform::from_name(transform)?;
        let m = MultiRef::from_name(multi_ref)?;
        edit::batch_stats(t, m, &hyps, &refs, n_threads)
    })?;
    matrix(py, data, n, 4)
}

/// [`edit_stats`] on a list of str and a list of (str or non-empty list/tuple of str),
/// read in place; `None` when the inputs have another shape or a string cannot be
/// encoded (the caller then validates them).
#[pyfunction]
#[pyo3(signature = (hyps, refs, transform, multi_ref, n_threads=0))]
fn edit_stats_lists<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    transform: &str,
    multi_ref: &str,
    n_threads: usize,
) -> PyResult<Option<(Bound<'py, PyArray2<u64>>, Bound<'py, PyArray1<i64>>)>> {
    let Some(((data, n), ref_counts)) = with_str_lists(hyps, refs, |h, r, starts| {
        detached(py, || {
            let t = Transform::from_name(transform)?;
            let m = MultiRef::from_name(multi_ref)?;
            Ok((edit::batch_stats_flat(t, m, h, r, starts, n_threads)?, h.len()))
        })
    })?
    else {
        return Ok(None);
    };
    Ok(Some((matrix(py, data, n, 4)?, ref_count_array(py, ref_counts))))
}

/// Opcode rows `[segment, tag, ref_start, ref_end, hyp_start, hyp_end]` and the
/// reference index used per segment.
#[pyfunction]
#[pyo3(signature = (hyps, refs, transform, multi_ref))]
fn edit_alignments<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    transform: &str,
    multi_ref: &str,
) -> PyResult<(Bound<'py, PyArray2<u64>>, Bound<'py, PyArray1<u64>>)> {
    let (rows, chosen) = detached(py, || {
        let t = Transform::from_name(transform)?;
        let m = MultiRef::from_name(multi_ref)?;
        edit::batch_alignments(t, m, &hyps, &refs)
    })?;
    let n = rows.len() / 6;
    Ok((matrix(py, rows, n, 6)?, PyArray1::from_vec(py, chosen)))
}

/// One measure (`wer`, `mer`, `wil`, `wip`) per statistics row.
#[pyfunction]
fn edit_scores<'py>(py: Python<'py>, stats: PyReadonlyArray2<'py, u64>, measure: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let arr = stats.as_array();
    let width = arr.shape()[1];
    let flat: Vec<u64> = arr.iter().copied().collect();
    let out = detached(py, || {
        let m = Measure::from_name(measure)?;
        if width != 4 {
            return Err(nlgmetrics_core::Error::InvalidInput(format!("edit statistics need 4 columns, got {width}")));
        }
        Ok(flat.chunks(4).map(|r| m.of(r)).collect::<Vec<f64>>())
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// `(wer, mer, wil, wip)` of one statistics row.
#[pyfunction]
fn edit_measures(stats: Vec<u64>) -> PyResult<(f64, f64, f64, f64)> {
    if stats.len() != 4 {
        return Err(pyo3::exceptions::PyValueError::new_err("edit statistics need 4 values"));
    }
    let m = edit::measures(&stats);
    Ok((m.wer, m.mer, m.wil, m.wip))
}

/// Measure of every candidate against every reference: shape (n, m).
#[pyfunction]
#[pyo3(signature = (cands, refs, transform, measure, n_threads=0))]
fn edit_pairwise<'py>(
    py: Python<'py>,
    cands: Vec<String>,
    refs: Vec<String>,
    transform: &str,
    measure: &str,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (n, m) = (cands.len(), refs.len());
    crate::convert::check_pairwise(py, n, m, 2)?;
    let data = detached(py, || {
        let t = Transform::from_name(transform)?;
        let me = Measure::from_name(measure)?;
        edit::pairwise(t, me, &cands, &refs, n_threads)
    })?;
    matrix(py, data, n, m)
}

fn per_tokenizer(name: &str) -> Result<Option<Tokenizer>, nlgmetrics_core::Error> {
    if name == "space" {
        Ok(None)
    } else {
        Tokenizer::from_name(name).map(Some)
    }
}

/// PER statistics `[correct, hyp_len, ref_len]`, shape (n, 3).
#[pyfunction]
#[pyo3(signature = (hyps, refs, tokenizer, lowercase, multi_ref, n_threads=0))]
fn per_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    tokenizer: &str,
    lowercase: bool,
    multi_ref: &str,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let n = hyps.len();
    let data = detached(py, || {
        let cfg = per::PerConfig { tokenizer: per_tokenizer(tokenizer)?, lowercase, multi: MultiRef::from_name(multi_ref)? };
        per::batch_stats(&cfg, &hyps, &refs, n_threads)
    })?;
    matrix(py, data, n, 3)
}

/// PER of every statistics row.
#[pyfunction]
fn per_scores<'py>(py: Python<'py>, stats: PyReadonlyArray2<'py, u64>) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let arr = stats.as_array();
    if arr.shape()[1] != 3 {
        return Err(pyo3::exceptions::PyValueError::new_err("PER statistics need 3 columns"));
    }
    let flat: Vec<u64> = arr.iter().copied().collect();
    Ok(PyArray1::from_vec(py, flat.chunks(3).map(per::score).collect()))
}

/// PER of every candidate against every reference: shape (n, m).
#[pyfunction]
#[pyo3(signature = (cands, refs, tokenizer, lowercase, n_threads=0))]
fn per_pairwise<'py>(
    py: Python<'py>,
    cands: Vec<String>,
    refs: Vec<String>,
    tokenizer: &str,
    lowercase: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (n, m) = (cands.len(), refs.len());
    crate::convert::check_pairwise(py, n, m, 2)?;
    let data = detached(py, || {
        let cfg = per::PerConfig { tokenizer: per_tokenizer(tokenizer)?, lowercase, multi: MultiRef::Error };
        per::pairwise(&cfg, &cands, &refs, n_threads)
    })?;
    matrix(py, data, n, m)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(edit_stats, m)?)?;
    m.add_function(wrap_pyfunction!(edit_stats_lists, m)?)?;
    m.add_function(wrap_pyfunction!(edit_alignments, m)?)?;
    m.add_function(wrap_pyfunction!(edit_scores, m)?)?;
    m.add_function(wrap_pyfunction!(edit_measures, m)?)?;
    m.add_function(wrap_pyfunction!(edit_pairwise, m)?)?;
    m.add_function(wrap_pyfunction!(per_stats, m)?)?;
    m.add_function(wrap_pyfunction!(per_scores, m)?)?;
    m.add_function(wrap_pyfunction!(per_pairwise, m)?)?;
    Ok(())
}
