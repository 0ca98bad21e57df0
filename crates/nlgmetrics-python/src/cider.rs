//! CIDEr / CIDEr-D: document-frequency tables and per-image scores.

use crate::convert::{detached, matrix, ref_count_array, str_runs, utf8_views, with_str_lists};
use nlgmetrics_core::text::cider::{self, CiderConfig, DocFreq, Flavour, IdText};
use nlgmetrics_core::tokenize::ptb::{tokenize_batch, CaptionTokenizer};
use nlgmetrics_core::Error;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use std::sync::Arc;

/// A document-frequency table (n-gram -> number of images whose references contain it).
#[pyclass(name = "CiderDocFreq", module = "nlgmetrics._core", frozen)]
pub struct PyDocFreq {
    inner: Arc<DocFreq>,
}

fn config(flavour: &str, max_order: usize, sigma: f64) -> Result<CiderConfig, Error> {
    let cfg = CiderConfig { flavour: Flavour::from_name(flavour)?, max_order, sigma };
    cfg.validate()?;
    Ok(cfg)
}

fn check_order(max_order: usize) -> Result<(), Error> {
    config("cider-d", max_order, 6.0).map(|_| ())
}

#[pymethods]
impl PyDocFreq {
    /// Fit on references (one document per image), tokenized by `tokenizer` ("ptb"/"none").
    #[staticmethod]
    #[pyo3(signature = (refs, max_order=4, tokenizer="ptb", n_threads=0))]
    fn fit(py: Python<'_>, refs: &Bound<'_, PyAny>, max_order: usize, tokenizer: &str, n_threads: usize) -> PyResult<Self> {
        let fit = |refs: &[Vec<&str>]| {
            detached(py, || {
                check_order(max_order)?;
                Ok(match CaptionTokenizer::from_name(tokenizer)? {
                    CaptionTokenizer::Split => cider::fit_threads(refs, max_order, n_threads),
                    tok => cider::fit_threads(&tokenize_batch::<&str, &str>(tok, &[], refs, n_threads).1, max_order, n_threads),
                })
            })
        };
        // Plain lists are read in place; anything else is extracted (or rejected) here.
        let runs = str_runs(refs);
        let views = runs.as_ref().and_then(|(objs, starts)| Some((utf8_views(objs)?, starts)));
        let df = match views {
            Some((texts, starts)) => fit(&starts.windows(2).map(|w| texts[w[0]..w[1]].to_vec()).collect::<Vec<_>>())?,
            None => {
                let owned: Vec<Vec<String>> = refs.extract()?;
                fit(&owned.iter().map(|rs| rs.iter().map(String::as_str).collect()).collect::<Vec<_>>())?
            }
        };
        Ok(Self { inner: Arc::new(df) })
    }

    /// Fit on token-id references (read up to `eos`, included when `include_eos`).
    #[staticmethod]
    #[pyo3(signature = (refs, max_order=4, eos=None, include_eos=true))]
    fn fit_ids(py: Python<'_>, refs: Vec<Vec<Vec<i64>>>, max_order: usize, eos: Option<i64>, include_eos: bool) -> PyResult<Self> {
        let df = detached(py, || {
            check_order(max_order)?;
            let text = IdText { eos, include_eos };
            let mut df = DocFreq::new(max_order);
            for rs in &refs {
                df.add_document_token_ids(rs, &text);
            }
            Ok(df)
        })?;
        Ok(Self { inner: Arc::new(df) })
    }

    #[staticmethod]
    fn from_entries(py: Python<'_>, ngrams: Vec<String>, counts: Vec<u64>, n_docs: u64, max_order: usize) -> PyResult<Self> {
        let df = detached(py, || DocFreq::from_entries(&ngrams, &counts, n_docs, max_order))?;
        Ok(Self { inner: Arc::new(df) })
    }

    /// (n-grams, counts), sorted by n-gram.
    fn entries(&self, py: Python<'_>) -> PyResult<(Vec<String>, Vec<u64>)> {
        let inner = self.inner.clone();
        detached(py, || Ok(inner.entries().into_iter().unzip()))
    }

    fn merge(&self, py: Python<'_>, other: PyRef<'_, PyDocFreq>) -> PyResult<Self> {
        let (a, b) = (self.inner.clone(), other.inner.clone());
        let df = detached(py, || a.merge(&b))?;
        Ok(Self { inner: Arc::new(df) })
    }

    fn get(&self, ngram: &str) -> u64 {
        self.inner.get(ngram)
    }

    #[getter]
    fn n_docs(&self) -> u64 {
        self.inner.n_docs()
    }

    #[getter]
    fn max_order(&self) -> usize {
        self.inner.max_order()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }
}

/// Per-image CIDEr(-D) scores; `df=None` fits the table on these references.
#[pyfunction]
#[pyo3(signature = (hyps, refs, flavour="cider-d", max_order=4, sigma=6.0, tokenizer="ptb", df=None, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn cider_scores<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    flavour: &str,
    max_order: usize,
    sigma: f64,
    tokenizer: &str,
    df: Option<PyRef<'py, PyDocFreq>>,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let opts = Options { flavour, max_order, sigma, tokenizer, df: df.map(|d| d.inner.clone()), n_threads };
    if let Some((scores, _)) = scores_in_place(py, hyps, refs, &opts)? {
        return Ok(scores);
    }
    let hyps: Vec<String> = hyps.extract()?;
    let refs: Vec<Vec<String>> = refs.extract()?;
    let out = detached(py, || opts.run(&hyps, &refs))?;
    Ok(PyArray1::from_vec(py, out))
}

/// MBR: CIDEr(-D) of every candidate against every pseudo-reference with a fixed
/// table: shape (n, m).
#[pyfunction]
#[pyo3(signature = (cands, refs, df, flavour="cider-d", sigma=6.0, tokenizer="ptb", n_threads=0))]
fn cider_pairwise<'py>(
    py: Python<'py>,
    cands: Vec<String>,
    refs: Vec<String>,
    df: PyRef<'py, PyDocFreq>,
    flavour: &str,
    sigma: f64,
    tokenizer: &str,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let df = df.inner.clone();
    let (n, m) = (cands.len(), refs.len());
    crate::convert::check_pairwise(py, n, m, 2)?;
    let data = detached(py, || {
        let cfg = config(flavour, df.max_order(), sigma)?;
        let tok = CaptionTokenizer::from_name(tokenizer)?;
        cider::pairwise(&cfg, &cands, &refs, tok, &df, n_threads)
    })?;
    matrix(py, data, n, m)
}

/// [`cider_scores`] of plain lists (a list of str; a list of str or non-empty lists or
/// tuples of str), read in place, with each image's number of references; `None` for
/// any other input, which the caller then validates.
#[pyfunction]
#[pyo3(signature = (hyps, refs, flavour="cider-d", max_order=4, sigma=6.0, tokenizer="ptb", df=None, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn cider_scores_lists<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    flavour: &str,
    max_order: usize,
    sigma: f64,
    tokenizer: &str,
    df: Option<PyRef<'py, PyDocFreq>>,
    n_threads: usize,
) -> PyResult<Option<ScoresAndRefCounts<'py>>> {
    let opts = Options { flavour, max_order, sigma, tokenizer, df: df.map(|d| d.inner.clone()), n_threads };
    scores_in_place(py, hyps, refs, &opts)
}

type ScoresAndRefCounts<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<i64>>);

struct Options<'a> {
    flavour: &'a str,
    max_order: usize,
    sigma: f64,
    tokenizer: &'a str,
    df: Option<Arc<DocFreq>>,
    n_threads: usize,
}

impl Options<'_> {
    fn run<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(&self, hyps: &[H], refs: &[Vec<R>]) -> Result<Vec<f64>, Error> {
        let cfg = config(self.flavour, self.max_order, self.sigma)?;
        let tok = CaptionTokenizer::from_name(self.tokenizer)?;
        cider::scores(&cfg, hyps, refs, tok, self.df.as_deref(), self.n_threads)
    }
}

/// Scores of plain lists whose strings the core borrows (no copies), or `None` (also
/// for a length mismatch, which the validating path reports).
fn scores_in_place<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    opts: &Options<'_>,
) -> PyResult<Option<ScoresAndRefCounts<'py>>> {
    let got = with_str_lists(hyps, refs, |hyp_texts, ref_texts, starts| {
        if hyp_texts.len() != starts.len() - 1 {
            return Ok(None);
        }
        let out = detached(py, || {
            let refs: Vec<Vec<&str>> = starts.windows(2).map(|w| ref_texts[w[0]..w[1]].to_vec()).collect();
            opts.run(hyp_texts, &refs)
        })?;
        Ok(Some(out))
    })?;
    let Some((Some(out), ref_counts)) = got else {
        return Ok(None);
    };
    Ok(Some((PyArray1::from_vec(py, out), ref_count_array(py, ref_counts))))
}

/// Per-sample CIDEr(-D) of token-id sequences against a fixed table (training rewards).
#[pyfunction]
#[pyo3(signature = (hyps, refs, df, flavour="cider-d", sigma=6.0, eos=None, include_eos=true, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn cider_scores_ids<'py>(
    py: Python<'py>,
    hyps: Vec<Vec<i64>>,
    refs: Vec<Vec<Vec<i64>>>,
    df: PyRef<'py, PyDocFreq>,
    flavour: &str,
    sigma: f64,
    eos: Option<i64>,
    include_eos: bool,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let df = df.inner.clone();
    let out = detached(py, || {
        let cfg = config(flavour, df.max_order(), sigma)?;
        cider::scores_token_ids(&cfg, &hyps, &refs, IdText { eos, include_eos }, &df, n_threads)
    })?;
    Ok(PyArray1::from_vec(py, out))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDocFreq>()?;
    m.add_function(wrap_pyfunction!(cider_scores, m)?)?;
    m.add_function(wrap_pyfunction!(cider_scores_lists, m)?)?;
    m.add_function(wrap_pyfunction!(cider_scores_ids, m)?)?;
    m.add_function(wrap_pyfunction!(cider_pairwise, m)?)?;
    Ok(())
}
