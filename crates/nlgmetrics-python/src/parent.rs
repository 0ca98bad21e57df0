use crate::convert::{detached, matrix};
use nlgmetrics_core::text::parent::{self, ParentConfig};
use numpy::PyArray2;
use pyo3::prelude::*;

/// Per-segment PARENT rows `[precision, recall, f, reference_recall, table_recall]`,
/// shape (n, 5). `tables[i]` is a list of entries, each a list of 2 or 3 strings.
#[pyfunction]
#[pyo3(signature = (preds, refs, tables, lambda_weight, smoothing, max_order, lowercase, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn parent_stats<'py>(
    py: Python<'py>,
    preds: Vec<String>,
    refs: Vec<Vec<String>>,
    tables: Vec<Vec<Vec<String>>>,
    lambda_weight: Option<f64>,
    smoothing: f64,
    max_order: usize,
    lowercase: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let n = preds.len();
    let cfg = ParentConfig { lambda_weight, smoothing, max_order, lowercase };
    let data = detached(py, || parent::batch_stats(&cfg, &preds, &refs, &tables, n_threads))?;
    matrix(py, data, n, parent::WIDTH)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parent_stats, m)?)?;
    Ok(())
}
