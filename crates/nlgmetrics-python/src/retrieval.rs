use crate::convert::{borrow_strs, detached, matrix};
use nlgmetrics_core::retrieval::{self, Config, Measure, COUNT_FIELDS};
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Per-query trec_eval statistics: `[num_ret, num_rel, num_rel_ret]` rows (uint64, shape
/// (q, 3)) and one float64 row of `measures` (`(kind, cutoff)` pairs) per query. Query
/// `q`'s documents are `run_docs[run_starts[q]:run_starts[q + 1]]`, its judgments
/// `judged_docs[judged_starts[q]:judged_starts[q + 1]]`. `single_precision`: scores rounded
/// to f32 before ranking (trec_eval 9, pytrec_eval); false: doubles (trec_eval 10).
#[pyfunction]
#[pyo3(signature = (qids, run_docs, run_scores, run_starts, judged_docs, judged_rels, judged_starts, measures, relevance_level=1, judged_only=false, single_precision=true, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn retrieval_stats<'py>(
    py: Python<'py>,
    qids: Vec<String>,
    run_docs: Vec<Bound<'py, PyString>>,
    run_scores: Vec<f64>,
    run_starts: Vec<usize>,
    judged_docs: Vec<Bound<'py, PyString>>,
    judged_rels: Vec<i64>,
    judged_starts: Vec<usize>,
    measures: Vec<(String, usize)>,
    relevance_level: i64,
    judged_only: bool,
    single_precision: bool,
    n_threads: usize,
) -> PyResult<(Bound<'py, PyArray2<u64>>, Bound<'py, PyArray2<f64>>)> {
    let nq = qids.len();
    let width = measures.len();
    // the ids are read in place (no copy per document); the list items keep them alive
    let rd = borrow_strs(&run_docs)?;
    let jd = borrow_strs(&judged_docs)?;
    let (counts, values) = detached(py, || {
        let ms = measures.iter().map(|(kind, k)| Measure::from_parts(kind, *k)).collect::<Result<Vec<_>, _>>()?;
        let config = Config { relevance_level, judged_only, single_precision };
        let q: Vec<&str> = qids.iter().map(String::as_str).collect();
        retrieval::batch(&q, &rd, &run_scores, &run_starts, &jd, &judged_rels, &judged_starts, &ms, &config, n_threads)
    })?;
    Ok((matrix(py, counts, nq, COUNT_FIELDS.len())?, matrix(py, values, nq, width)?))
}

/// [`retrieval_stats`] as flat Python lists (row-major, 3 counts and one value per
/// measure a query): a total from these needs no numpy (the CLI's plain run).
#[pyfunction]
#[pyo3(signature = (qids, run_docs, run_scores, run_starts, judged_docs, judged_rels, judged_starts, measures, relevance_level=1, judged_only=false, single_precision=true, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn retrieval_stats_lists<'py>(
    py: Python<'py>,
    qids: Vec<String>,
    run_docs: Vec<Bound<'py, PyString>>,
    run_scores: Vec<f64>,
    run_starts: Vec<usize>,
    judged_docs: Vec<Bound<'py, PyString>>,
    judged_rels: Vec<i64>,
    judged_starts: Vec<usize>,
    measures: Vec<(String, usize)>,
    relevance_level: i64,
    judged_only: bool,
    single_precision: bool,
    n_threads: usize,
) -> PyResult<(Vec<u64>, Vec<f64>)> {
    // the ids are read in place (no copy per document); the list items keep them alive
    let rd = borrow_strs(&run_docs)?;
    let jd = borrow_strs(&judged_docs)?;
    let (counts, values) = detached(py, || {
        let ms = measures.iter().map(|(kind, k)| Measure::from_parts(kind, *k)).collect::<Result<Vec<_>, _>>()?;
        let config = Config { relevance_level, judged_only, single_precision };
        let q: Vec<&str> = qids.iter().map(String::as_str).collect();
        retrieval::batch(&q, &rd, &run_scores, &run_starts, &jd, &judged_rels, &judged_starts, &ms, &config, n_threads)
    })?;
    Ok((counts, values))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(retrieval_stats, m)?)?;
    m.add_function(wrap_pyfunction!(retrieval_stats_lists, m)?)?;
    Ok(())
}
