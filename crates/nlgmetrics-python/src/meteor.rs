//! METEOR 1.5 bindings: a resources handle (parsed once, shared across calls and
//! threads) and batch statistics / scores.

use crate::convert::{detached, matrix, rows_of};
use nlgmetrics_core::text::meteor::{self, aligner::Module, nltk, MeteorConfig, Normalization, Params, Resources};
use nlgmetrics_core::Error;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;

/// Parsed METEOR resources (function words, prefixes, synonyms, paraphrase table).
#[pyclass(frozen, module = "nlgmetrics._core")]
pub struct MeteorResources {
    inner: Arc<Resources>,
}

#[pymethods]
impl MeteorResources {
    #[new]
    #[pyo3(signature = (function_words, prefixes, synsets, exceptions, paraphrases=None))]
    fn new(
        py: Python<'_>,
        function_words: &Bound<'_, PyBytes>,
        prefixes: &Bound<'_, PyBytes>,
        synsets: &Bound<'_, PyBytes>,
        exceptions: &Bound<'_, PyBytes>,
        paraphrases: Option<&Bound<'_, PyBytes>>,
    ) -> PyResult<Self> {
        let (f, p, s, e) = (function_words.as_bytes(), prefixes.as_bytes(), synsets.as_bytes(), exceptions.as_bytes());
        let para = paraphrases.map(|b| b.as_bytes());
        let inner = detached(py, || Resources::parse(f, p, s, e, para))?;
        Ok(MeteorResources { inner: Arc::new(inner) })
    }

    /// Write the compiled tables to `path` (the caller renames it into place).
    fn save_cache(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let inner = self.inner.clone();
        detached(py, || {
            std::fs::write(&path, inner.to_cache())
                .map_err(|e| Error::InvalidInput(format!("cannot write the METEOR table cache {}: {e}", path.display())))
        })
    }

    /// Tables compiled by `save_cache`, read in one go; an error for a file of another
    /// format version or a damaged one.
    #[staticmethod]
    fn load_cache(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        let inner = detached(py, || {
            let buf = std::fs::read(&path)
                .map_err(|e| Error::InvalidInput(format!("cannot read the METEOR table cache {}: {e}", path.display())))?;
            Resources::from_cache(&buf)
        })?;
        Ok(MeteorResources { inner: Arc::new(inner) })
    }

    /// The version of the cache layout (part of the cache file's name).
    #[classattr]
    fn cache_format() -> u32 {
        nlgmetrics_core::text::meteor::resources::CACHE_FORMAT
    }

    #[getter]
    fn has_paraphrases(&self) -> bool {
        self.inner.paraphrases.is_some()
    }
}

fn params(alpha: f64, beta: f64, gamma: f64, delta: f64, weights: Vec<f64>) -> Params {
    Params { alpha, beta, gamma, delta, weights }
}

fn config<'a>(res: &'a Resources, modules: &[String], p: Params, normalization: &str) -> Result<MeteorConfig<'a>, Error> {
    let modules = modules.iter().map(|m| Module::from_name(m)).collect::<Result<Vec<_>, _>>()?;
    let cfg = MeteorConfig { modules, params: p, normalization: Normalization::from_name(normalization)?, resources: res };
    cfg.validate()?;
    Ok(cfg)
}

/// Statistics rows (× `meteor::WIDTH`) computed by `f` under one validated configuration.
#[allow(clippy::too_many_arguments)]
fn stats_matrix<'py>(
    py: Python<'py>,
    resources: &MeteorResources,
    rows: usize,
    modules: Vec<String>,
    p: Params,
    normalization: &str,
    f: impl FnOnce(&MeteorConfig) -> Result<Vec<u64>, Error> + Send,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let res = resources.inner.clone();
    let data = detached(py, || f(&config(&res, &modules, p, normalization)?))?;
    matrix(py, data, rows, meteor::WIDTH)
}

/// Per-segment statistics (n × 24 uint64): the 23 METEOR 1.5 numbers plus `agg_chunks`.
#[pyfunction]
#[pyo3(signature = (resources, hyps, refs, modules, alpha, beta, gamma, delta, weights, normalization, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn meteor_stats<'py>(
    py: Python<'py>,
    resources: &MeteorResources,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    modules: Vec<String>,
    alpha: f64,
    beta: f64,
    gamma: f64,
    delta: f64,
    weights: Vec<f64>,
    normalization: &str,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let p = params(alpha, beta, gamma, delta, weights);
    stats_matrix(py, resources, hyps.len(), modules, p, normalization, |cfg| meteor::batch_stats(cfg, &hyps, &refs, n_threads))
}

/// Statistics of every candidate against every reference alone ((n·m) × 24).
#[pyfunction]
#[pyo3(signature = (resources, cands, refs, modules, alpha, beta, gamma, delta, weights, normalization, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn meteor_pairwise_stats<'py>(
    py: Python<'py>,
    resources: &MeteorResources,
    cands: Vec<String>,
    refs: Vec<String>,
    modules: Vec<String>,
    alpha: f64,
    beta: f64,
    gamma: f64,
    delta: f64,
    weights: Vec<f64>,
    normalization: &str,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let p = params(alpha, beta, gamma, delta, weights);
    let (n, m) = (cands.len(), refs.len());
    crate::convert::check_pairwise(py, n, m, 2 * meteor::WIDTH)?;
    stats_matrix(py, resources, n * m, modules, p, normalization, |cfg| meteor::pairwise_stats(cfg, &cands, &refs, n_threads))
}

fn check_width(w: usize) -> Result<(), Error> {
    if w != meteor::WIDTH {
        return Err(Error::InvalidInput(format!("METEOR statistics need {} columns, got {w}", meteor::WIDTH)));
    }
    Ok(())
}

fn check_weights(w: &[f64]) -> Result<(), Error> {
    if w.is_empty() || w.len() > meteor::MAX_MODULES {
        return Err(Error::InvalidOption(format!("METEOR needs 1 to {} module weights", meteor::MAX_MODULES)));
    }
    Ok(())
}

/// Scoring parameters, checked against the statistics' width.
fn scoring_params(width: usize, alpha: f64, beta: f64, gamma: f64, delta: f64, weights: Vec<f64>) -> Result<Params, Error> {
    check_width(width)?;
    check_weights(&weights)?;
    Ok(params(alpha, beta, gamma, delta, weights))
}

/// Score one (summed) statistics row; returns the breakdown.
#[pyfunction]
fn meteor_score<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray1<'py, u64>,
    alpha: f64,
    beta: f64,
    gamma: f64,
    delta: f64,
    weights: Vec<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let row = stats.as_slice()?.to_vec();
    let s = detached(py, || Ok(meteor::score(&scoring_params(row.len(), alpha, beta, gamma, delta, weights)?, &row)))?;
    Ok(crate::py_dict!(py,
        "score" => s.score,
        "precision" => s.precision,
        "recall" => s.recall,
        "fmean" => s.fmean,
        "frag_penalty" => s.frag_penalty,
    ))
}

/// Score every row of a statistics matrix (segment scores).
#[pyfunction]
fn meteor_scores<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, u64>,
    alpha: f64,
    beta: f64,
    gamma: f64,
    delta: f64,
    weights: Vec<f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (rows, width) = rows_of(&stats);
    let out = detached(py, || Ok(meteor::scores(&scoring_params(width, alpha, beta, gamma, delta, weights)?, &rows)))?;
    Ok(PyArray1::from_vec(py, out))
}

/// The English normalization METEOR applies before aligning (for inspection/tests).
#[pyfunction]
fn meteor_normalize(py: Python<'_>, resources: &MeteorResources, texts: Vec<String>, normalization: &str) -> PyResult<Vec<String>> {
    let res = resources.inner.clone();
    detached(py, || {
        let cfg = MeteorConfig {
            modules: vec![Module::Exact],
            params: params(0.0, 0.0, 0.0, 0.0, vec![1.0]),
            normalization: Normalization::from_name(normalization)?,
            resources: &res,
        };
        Ok(texts.iter().map(|t| cfg.prepare(t)).collect())
    })
}

/// The Snowball English stem METEOR's stem module compares.
#[pyfunction]
fn meteor_stem(words: Vec<String>) -> Vec<String> {
    words.iter().map(|w| meteor::stemmer::stem(w)).collect()
}

/// nltk-flavour statistics `(hyp_len, ref_len, matches, chunks)` of the best reference
/// (n × 4 uint64) and the segment scores (n float64), from interned word ids.
#[pyfunction]
#[pyo3(signature = (hyps, refs, stem_of, syn_of, alpha, beta, gamma, n_threads=0))]
#[allow(clippy::too_many_arguments)]
fn nltk_meteor_stats<'py>(
    py: Python<'py>,
    hyps: Vec<Vec<u32>>,
    refs: Vec<Vec<Vec<u32>>>,
    stem_of: Vec<u32>,
    syn_of: Vec<Vec<u32>>,
    alpha: f64,
    beta: f64,
    gamma: f64,
    n_threads: usize,
) -> PyResult<(Bound<'py, PyArray2<u64>>, Bound<'py, PyArray1<f64>>)> {
    let n = hyps.len();
    let (counts, scores) = detached(py, || {
        let t = nltk::NltkTables { stem_of: &stem_of, syn_of: &syn_of };
        nltk::batch_stats(&t, nltk::NltkParams { alpha, beta, gamma }, &hyps, &refs, n_threads)
    })?;
    Ok((matrix(py, counts, n, nltk::WIDTH)?, PyArray1::from_vec(py, scores)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nltk_meteor_stats, m)?)?;
    m.add_class::<MeteorResources>()?;
    m.add_function(wrap_pyfunction!(meteor_stats, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_pairwise_stats, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_score, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_scores, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_stem, m)?)?;
    Ok(())
}
