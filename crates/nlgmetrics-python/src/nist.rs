use crate::convert::{detached, matrix, ref_count_array, with_str_lists};
use nlgmetrics_core::text::nist::{self, Flavour, InfoTable, NistConfig, Weighting};
use nlgmetrics_core::tokenize::Tokenizer;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn config(flavour: &str, tokenizer: &str, lowercase: bool, n: usize) -> Result<NistConfig, nlgmetrics_core::Error> {
    let cfg = NistConfig { flavour: Flavour::from_name(flavour)?, tokenizer: Tokenizer::from_name(tokenizer)?, lowercase, max_order: n };
    cfg.validate()?;
    Ok(cfg)
}

/// Reference n-gram counts (phase one): `(ngrams, counts, total_words)`.
#[pyfunction]
#[pyo3(signature = (refs, flavour, tokenizer, lowercase, n))]
fn nist_table(py: Python<'_>, refs: Vec<Vec<String>>, flavour: &str, tokenizer: &str, lowercase: bool, n: usize) -> PyResult<(Vec<String>, Vec<u64>, u64)> {
    let t = detached(py, || Ok(InfoTable::build(&config(flavour, tokenizer, lowercase, n)?, &refs)))?;
    let (keys, counts): (Vec<String>, Vec<u64>) = t.counts.into_iter().unzip();
    Ok((keys, counts, t.total_words))
}

/// Per-segment statistics with the given table; without one, with the table of all
/// `refs` (`batch_table=True`, corpus semantics) or of each segment's own references
/// (`batch_table=False`, nltk `sentence_nist`): `(counts, sums)`.
#[pyfunction]
#[pyo3(signature = (hyps, refs, flavour, tokenizer, lowercase, n, table=None, n_threads=0, batch_table=false))]
#[allow(clippy::too_many_arguments)]
fn nist_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    flavour: &str,
    tokenizer: &str,
    lowercase: bool,
    n: usize,
    table: Option<(Vec<String>, Vec<u64>, u64)>,
    n_threads: usize,
    batch_table: bool,
) -> PyResult<(Bound<'py, PyArray2<u64>>, Bound<'py, PyArray2<f64>>)> {
    let rows = hyps.len();
    let (c, s, wc, ws) = detached(py, || stats_with(flavour, tokenizer, lowercase, n, table, n_threads, batch_table, &hyps, &refs))?;
    Ok((matrix(py, c, rows, wc)?, matrix(py, s, rows, ws)?))
}

/// [`nist_stats`] for plain lists read in place (predictions: a list of str; references:
/// a list of str or non-empty lists/tuples of str): `(counts, sums, refs per segment)`,
/// or `None` when the inputs have another shape (the caller then validates them).
#[pyfunction]
#[pyo3(signature = (hyps, refs, flavour, tokenizer, lowercase, n, table=None, n_threads=0, batch_table=false))]
#[allow(clippy::too_many_arguments)]
fn nist_stats_lists<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    flavour: &str,
    tokenizer: &str,
    lowercase: bool,
    n: usize,
    table: Option<(Vec<String>, Vec<u64>, u64)>,
    n_threads: usize,
    batch_table: bool,
) -> PyResult<Option<NistStats<'py>>> {
    let got = with_str_lists(hyps, refs, |h, r, starts| {
        let per_segment: Vec<Vec<&str>> = starts.windows(2).map(|w| r[w[0]..w[1]].to_vec()).collect();
        detached(py, || stats_with(flavour, tokenizer, lowercase, n, table, n_threads, batch_table, h, &per_segment))
    })?;
    let Some(((c, s, wc, ws), ref_counts)) = got else {
        return Ok(None);
    };
    let rows = ref_counts.len();
    Ok(Some((matrix(py, c, rows, wc)?, matrix(py, s, rows, ws)?, ref_count_array(py, ref_counts))))
}

type NistStats<'py> = (Bound<'py, PyArray2<u64>>, Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<i64>>);

/// The statistics of `nist_stats` / `nist_stats_lists` and their widths.
#[allow(clippy::too_many_arguments)]
fn stats_with<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    flavour: &str,
    tokenizer: &str,
    lowercase: bool,
    n: usize,
    table: Option<(Vec<String>, Vec<u64>, u64)>,
    n_threads: usize,
    batch_table: bool,
    hyps: &[H],
    refs: &[Vec<R>],
) -> Result<(Vec<u64>, Vec<f64>, usize, usize), nlgmetrics_core::Error> {
    let cfg = config(flavour, tokenizer, lowercase, n)?;
    let table = table.map(|(k, v, total)| InfoTable { counts: k.into_iter().zip(v).collect(), total_words: total });
    let weighting = match &table {
        Some(t) => Weighting::Table(t),
        None if batch_table => Weighting::Batch,
        None => Weighting::OwnReferences,
    };
    let (c, s) = nist::batch_stats(&cfg, hyps, refs, weighting, n_threads)?;
    let (wc, ws) = cfg.width();
    Ok((c, s, wc, ws))
}

fn to_dict<'py>(py: Python<'py>, s: nist::NistScore) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("score", s.score)?;
    d.set_item("precisions", s.precisions)?;
    d.set_item("penalty", s.penalty)?;
    d.set_item("hyp_len", s.hyp_len)?;
    d.set_item("ref_len", s.ref_len)?;
    Ok(d)
}

/// Score one (summed) statistics row.
#[pyfunction]
#[pyo3(signature = (flavour, counts, sums, n_segments, lenient))]
fn nist_score<'py>(py: Python<'py>, flavour: &str, counts: PyReadonlyArray1<'py, u64>, sums: PyReadonlyArray1<'py, f64>, n_segments: u64, lenient: bool) -> PyResult<Bound<'py, PyDict>> {
    let c = counts.as_slice()?.to_vec();
    let s = sums.as_slice()?.to_vec();
    let out = detached(py, || score_row(flavour, &c, &s, n_segments, lenient))?;
    to_dict(py, out)
}

fn score_row(flavour: &str, c: &[u64], s: &[f64], n_segments: u64, lenient: bool) -> Result<nist::NistScore, nlgmetrics_core::Error> {
    match Flavour::from_name(flavour)? {
        Flavour::Mteval => {
            if c.len() != s.len() + 2 {
                return Err(nlgmetrics_core::Error::InvalidInput("NIST statistics have inconsistent widths".into()));
            }
            nist::score_mteval(s, c, n_segments)
        }
        Flavour::Nltk => {
            if c.len() != s.len() + 2 {
                return Err(nlgmetrics_core::Error::InvalidInput("NIST statistics have inconsistent widths".into()));
            }
            nist::score_nltk(s, c, lenient)
        }
    }
}

/// Sentence scores: one per statistics row.
#[pyfunction]
#[pyo3(signature = (flavour, counts, sums, lenient))]
fn nist_scores<'py>(py: Python<'py>, flavour: &str, counts: numpy::PyReadonlyArray2<'py, u64>, sums: numpy::PyReadonlyArray2<'py, f64>, lenient: bool) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let ca = counts.as_array();
    let sa = sums.as_array();
    let (wc, ws) = (ca.shape()[1], sa.shape()[1]);
    let cf: Vec<u64> = ca.iter().copied().collect();
    let sf: Vec<f64> = sa.iter().copied().collect();
    let out = detached(py, || {
        let mut out = Vec::with_capacity(ca.shape()[0]);
        for (c, s) in cf.chunks(wc.max(1)).zip(sf.chunks(ws.max(1))) {
            out.push(score_row(flavour, c, s, 1, lenient)?.score);
        }
        Ok(out)
    })?;
    Ok(PyArray1::from_vec(py, out))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nist_table, m)?)?;
    m.add_function(wrap_pyfunction!(nist_stats, m)?)?;
    m.add_function(wrap_pyfunction!(nist_stats_lists, m)?)?;
    m.add_function(wrap_pyfunction!(nist_score, m)?)?;
    m.add_function(wrap_pyfunction!(nist_scores, m)?)?;
    Ok(())
}
