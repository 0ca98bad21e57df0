use crate::convert::{detached, matrix, ref_count_array, with_str_lists};
use nlgmetrics_core::text::bleu::{self, BleuConfig, Smoothing};
use nlgmetrics_core::tokenize::Tokenizer;
use nlgmetrics_core::Error;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

fn config(tokenizer: &str, lowercase: bool, max_order: usize) -> Result<BleuConfig, Error> {
    let cfg = BleuConfig { tokenizer: Tokenizer::from_name(tokenizer)?, lowercase, max_order };
    cfg.validate()?;
    Ok(cfg)
}

/// The options every statistics entry point takes.
#[derive(Clone, Copy)]
struct Options<'a> {
    tokenizer: &'a str,
    lowercase: bool,
    max_order: usize,
    n_threads: usize,
}

impl Options<'_> {
    /// `batch(config, n_threads)` with the GIL released: the statistics table and its width.
    fn run(
        &self,
        py: Python<'_>,
        batch: impl FnOnce(&BleuConfig, usize) -> Result<Vec<u64>, Error> + Send,
    ) -> PyResult<(Vec<u64>, usize)> {
        self.run_then(py, batch, |data, width| (data, width))
    }

    /// [`Self::run`], then `finish(table, width)`, still without the GIL.
    fn run_then<T: Send>(
        &self,
        py: Python<'_>,
        batch: impl FnOnce(&BleuConfig, usize) -> Result<Vec<u64>, Error> + Send,
        finish: impl FnOnce(Vec<u64>, usize) -> T + Send,
    ) -> PyResult<T> {
        detached(py, || {
            let cfg = config(self.tokenizer, self.lowercase, self.max_order)?;
            Ok(finish(batch(&cfg, self.n_threads)?, cfg.width()))
        })
    }

    /// The statistics of plain lists read in place (see `with_str_lists`) through
    /// `finish(table, width)`, with the number of segments and the references per
    /// segment; `None` when the inputs have another shape (the caller then validates them).
    fn run_lists<T: Send>(
        &self,
        py: Python<'_>,
        hyps: &Bound<'_, PyAny>,
        refs: &Bound<'_, PyAny>,
        finish: impl FnOnce(Vec<u64>, usize) -> T + Send,
    ) -> PyResult<Option<((T, usize), Vec<usize>)>> {
        with_str_lists(hyps, refs, |h, r, starts| {
            let out = self.run_then(py, |cfg, n_threads| bleu::batch_stats_flat(cfg, h, r, starts, n_threads), finish)?;
            Ok((out, h.len()))
        })
    }
}

/// Per-segment statistics `[hyp_len, ref_len, correct_1..N, total_1..N]`, shape (n, 2+2N).
/// Plain lists are read in place; anything else is validated by extraction.
#[pyfunction]
#[pyo3(signature = (hyps, refs, tokenizer, lowercase, max_order, n_threads=0))]
fn bleu_stats<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let opts = Options { tokenizer, lowercase, max_order, n_threads };
    if let Some((((data, width), n), _)) = opts.run_lists(py, hyps, refs, |data, width| (data, width))? {
        return matrix(py, data, n, width);
    }
    let hyps: Vec<String> = hyps.extract()?;
    let refs: Vec<Vec<String>> = refs.extract()?;
    let (data, width) = opts.run(py, |cfg, n_threads| bleu::batch_stats(cfg, &hyps, &refs, n_threads))?;
    matrix(py, data, hyps.len(), width)
}

type StatsAndRefCounts<'py> = (Bound<'py, PyArray2<u64>>, Bound<'py, PyArray1<i64>>);

/// [`bleu_stats`] on a list of str and a list of (str or non-empty list/tuple of str),
/// read in place; also the number of references per segment. `None` when the inputs
/// have another shape or a string cannot be encoded: the caller then validates them.
#[pyfunction]
#[pyo3(signature = (hyps, refs, tokenizer, lowercase, max_order, n_threads=0))]
fn bleu_stats_lists<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    n_threads: usize,
) -> PyResult<Option<StatsAndRefCounts<'py>>> {
    let opts = Options { tokenizer, lowercase, max_order, n_threads };
    let Some((((data, width), n), ref_counts)) = opts.run_lists(py, hyps, refs, |data, width| (data, width))? else {
        return Ok(None);
    };
    Ok(Some((matrix(py, data, n, width)?, ref_count_array(py, ref_counts))))
}

/// Column sums of the statistics of [`bleu_stats_lists`] (the corpus total, without
/// building the per-segment matrix in Python), the distinct numbers of references per
/// segment (sorted) and the number of segments; `None` as [`bleu_stats_lists`].
/// Plain Python values: a corpus score from these needs no numpy.
#[pyfunction]
#[pyo3(signature = (hyps, refs, tokenizer, lowercase, max_order, n_threads=0))]
fn bleu_totals_lists<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    n_threads: usize,
) -> PyResult<Option<(Vec<u64>, Vec<usize>, usize)>> {
    let opts = Options { tokenizer, lowercase, max_order, n_threads };
    let Some(((totals, n), mut ref_counts)) = opts.run_lists(py, hyps, refs, |data, width| column_sums(&data, width))? else {
        return Ok(None);
    };
    ref_counts.sort_unstable();
    ref_counts.dedup();
    Ok(Some((totals, ref_counts, n)))
}

/// Sums of the columns of a row-major matrix, wrapping as numpy's uint64 sum does.
fn column_sums(data: &[u64], width: usize) -> Vec<u64> {
    let mut sums = vec![0u64; width];
    for row in data.chunks_exact(width.max(1)) {
        for (s, &v) in sums.iter_mut().zip(row) {
            *s = s.wrapping_add(v);
        }
    }
    sums
}

/// Score one statistics vector (a uint64 array, or a tuple or list of ints: then numpy
/// is not needed); returns the breakdown as a dict.
#[pyfunction]
#[pyo3(signature = (stats, max_order, smooth_method, smooth_value, effective_order))]
fn bleu_score<'py>(
    py: Python<'py>,
    stats: &Bound<'py, PyAny>,
    max_order: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let stats: Vec<u64> = if stats.is_instance_of::<PyTuple>() || stats.is_instance_of::<PyList>() {
        stats.extract()?
    } else {
        stats.extract::<PyReadonlyArray1<'py, u64>>()?.as_slice()?.to_vec()
    };
    let s = detached(py, || {
        let smooth = Smoothing::from_name(smooth_method, smooth_value)?;
        check_width(stats.len(), max_order)?;
        Ok(bleu::score_stats(&stats, max_order, smooth, effective_order))
    })?;
    let d = PyDict::new(py);
    d.set_item("score", s.score)?;
    d.set_item("counts", s.counts)?;
    d.set_item("totals", s.totals)?;
    d.set_item("precisions", s.precisions)?;
    d.set_item("bp", s.bp)?;
    d.set_item("sys_len", s.sys_len)?;
    d.set_item("ref_len", s.ref_len)?;
    Ok(d)
}

fn check_width(width: usize, max_order: usize) -> Result<(), Error> {
    if width != 2 + 2 * max_order {
        return Err(Error::InvalidInput(format!(
            "BLEU statistics need {} columns for max_ngram_order={max_order}, got {width}",
            2 + 2 * max_order
        )));
    }
    Ok(())
}

/// Score every row of a statistics matrix (sentence-level BLEU).
#[pyfunction]
#[pyo3(signature = (stats, max_order, smooth_method, smooth_value, effective_order))]
fn bleu_scores<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, u64>,
    max_order: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let arr = stats.as_array();
    let width = arr.shape()[1];
    let flat: Vec<u64> = arr.iter().copied().collect();
    let out = detached(py, || {
        let smooth = Smoothing::from_name(smooth_method, smooth_value)?;
        check_width(width, max_order)?;
        Ok(flat
            .chunks(width.max(1))
            .map(|row| bleu::score_only(row, max_order, smooth, effective_order))
            .collect::<Vec<f64>>())
    })?;
    Ok(PyArray1::from_vec(py, out))
}

/// Sentence BLEU of every candidate against every pseudo-reference: shape (n, m).
#[pyfunction]
#[pyo3(signature = (cands, refs, tokenizer, lowercase, max_order, smooth_method, smooth_value, effective_order, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn bleu_pairwise<'py>(
    py: Python<'py>,
    cands: Vec<String>,
    refs: Vec<String>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    smooth_method: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (n, m) = (cands.len(), refs.len());
    crate::convert::check_pairwise(py, n, m, 2)?;
    let data = detached(py, || {
        let cfg = config(tokenizer, lowercase, max_order)?;
        let smooth = Smoothing::from_name(smooth_method, smooth_value)?;
        bleu::pairwise(&cfg, &cands, &refs, smooth, effective_order, n_threads)
    })?;
    matrix(py, data, n, m)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_stats_lists, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_totals_lists, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_score, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_pairwise, m)?)?;
    Ok(())
}
