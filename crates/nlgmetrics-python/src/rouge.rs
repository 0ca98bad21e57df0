use crate::convert::{borrow_str_lists, borrow_strs, detached, matrix, ref_count_array, with_str_lists};
use nlgmetrics_core::stem::{porter_nltk, porter_rouge155};
use nlgmetrics_core::text::rouge::{self, RougeConfig, RougeTokenizer, RougeType};
use nlgmetrics_core::text::rouge155::{self, Limit, R155Config, R155Type};
use nlgmetrics_core::text::rouge_coco;
use nlgmetrics_core::tokenize::rouge::{rouge_score_tokens, unicode_tokens};
use nlgmetrics_core::Error;
use numpy::{PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

fn rouge_config(types: &[String], use_stemmer: bool, tokenizer: &str) -> Result<RougeConfig, Error> {
    let cfg = RougeConfig {
        types: types.iter().map(|t| RougeType::from_name(t)).collect::<Result<_, _>>()?,
        stemmer: use_stemmer,
        tokenizer: RougeTokenizer::from_name(tokenizer)?,
    };
    cfg.validate()?;
    Ok(cfg)
}

/// rouge-score statistics: per type `[P, R, F]`, shape (n, 3T).
#[pyfunction]
#[pyo3(signature = (hyps, refs, types, use_stemmer, tokenizer, n_threads=0))]
fn rouge_score_stats<'py>(
    py: Python<'py>,
    hyps: Vec<Bound<'py, PyString>>,
    refs: Vec<Vec<Bound<'py, PyString>>>,
    types: Vec<String>,
    use_stemmer: bool,
    tokenizer: &str,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let n = hyps.len();
    let (hyps, refs) = (borrow_strs(&hyps)?, borrow_str_lists(&refs)?);
    let (data, width) = detached(py, || {
        let cfg = rouge_config(&types, use_stemmer, tokenizer)?;
        Ok((rouge::batch_stats(&cfg, &hyps, &refs, n_threads)?, cfg.width()))
    })?;
    matrix(py, data, n, width)
}

/// [`rouge_score_stats`] reading plain lists in place (references: a str or a non-empty
/// list or tuple of str per prediction), with the number of references per prediction;
/// `None` when the inputs have another shape, so the caller validates them.
#[pyfunction]
#[pyo3(signature = (hyps, refs, types, use_stemmer, tokenizer, n_threads=0))]
#[allow(clippy::type_complexity)]
fn rouge_score_stats_lists<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    types: Vec<String>,
    use_stemmer: bool,
    tokenizer: &str,
    n_threads: usize,
) -> PyResult<Option<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<i64>>)>> {
    let cfg = rouge_config(&types, use_stemmer, tokenizer).map_err(|e| crate::convert::to_py_err(py, e))?;
    let Some((data, ref_counts)) =
        with_str_lists(hyps, refs, |h, r, starts| detached(py, || rouge::batch_stats_flat(&cfg, h, r, starts, n_threads)))?
    else {
        return Ok(None);
    };
    let n = ref_counts.len();
    Ok(Some((matrix(py, data, n, cfg.width())?, ref_count_array(py, ref_counts))))
}

/// F of the first type, every candidate against every reference: shape (n, m).
#[pyfunction]
#[pyo3(signature = (cands, refs, types, use_stemmer, tokenizer, n_threads=0))]
fn rouge_score_pairwise<'py>(
    py: Python<'py>,
    cands: Vec<String>,
    refs: Vec<String>,
    types: Vec<String>,
    use_stemmer: bool,
    tokenizer: &str,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (n, m) = (cands.len(), refs.len());
    crate::convert::check_pairwise(py, n, m, 2)?;
    let data = detached(py, || {
        let cfg = rouge_config(&types, use_stemmer, tokenizer)?;
        rouge::pairwise(&cfg, &cands, &refs, n_threads)
    })?;
    matrix(py, data, n, m)
}

/// Tokens as a ROUGE tokenizer produces them (`rouge-score` or `unicode`).
#[pyfunction]
#[pyo3(signature = (text, tokenizer="rouge-score", use_stemmer=false))]
fn rouge_tokenize(py: Python<'_>, text: &str, tokenizer: &str, use_stemmer: bool) -> PyResult<Vec<String>> {
    let mut out = Vec::new();
    match tokenizer {
        "unicode" => unicode_tokens(text, use_stemmer, &mut out),
        "rouge-score" | "default" => rouge_score_tokens(text, use_stemmer, &mut out),
        _ => {
            return Err(crate::convert::to_py_err(
                py,
                Error::InvalidOption(format!("unknown ROUGE tokenizer {tokenizer:?}; known: rouge-score, unicode")),
            ))
        }
    }
    Ok(out)
}

/// Porter stems: `flavour="nltk"` (NLTK_EXTENSIONS) or `"rouge155"` (the Perl stemmer).
#[pyfunction]
#[pyo3(signature = (words, flavour="nltk"))]
fn porter_stem(py: Python<'_>, words: Vec<String>, flavour: &str) -> PyResult<Vec<String>> {
    let f: fn(&str) -> String = match flavour {
        "nltk" => porter_nltk::stem,
        "rouge155" => porter_rouge155::stem,
        _ => {
            return Err(crate::convert::to_py_err(
                py,
                Error::InvalidOption(format!("unknown Porter flavour {flavour:?}; known: nltk, rouge155")),
            ))
        }
    };
    Ok(words.iter().map(|w| f(w)).collect())
}

#[allow(clippy::too_many_arguments)]
fn r155_config(
    types: &[String],
    weight: f64,
    best_model: bool,
    alpha: f64,
    stem: bool,
    stopwords: Option<Vec<String>>,
    exceptions: Vec<(String, String)>,
    limit_words: Option<usize>,
    limit_bytes: Option<usize>,
    stem_models_only: bool,
    token_counts: bool,
) -> Result<R155Config, Error> {
    let limit = match (limit_words, limit_bytes) {
        (Some(_), Some(_)) => {
            return Err(Error::InvalidOption("give a length limit in words or in bytes, not both".into()))
        }
        (Some(n), None) => Limit::Words(n),
        (None, Some(n)) => Limit::Bytes(n),
        (None, None) => Limit::None,
    };
    let cfg = R155Config {
        types: types.iter().map(|t| R155Type::from_name(t)).collect::<Result<_, _>>()?,
        weight,
        best_model,
        alpha,
        stem,
        stopwords: stopwords.map(|s| s.into_iter().map(String::into_bytes).collect()),
        exceptions: exceptions.into_iter().map(|(a, b)| (a.into_bytes(), b.into_bytes())).collect(),
        limit,
        stem_models_only,
        token_counts,
    };
    cfg.validate()?;
    Ok(cfg)
}

/// ROUGE-1.5.5 statistics: per type the rounded `[P, R, F]`, shape (n, 3T).
#[pyfunction]
#[pyo3(signature = (hyps, refs, types, weight, best_model, alpha, stem, stopwords, exceptions, limit_words, limit_bytes, n_threads=0, stem_models_only=false, token_counts=false))]
#[allow(clippy::too_many_arguments)]
fn rouge155_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    types: Vec<String>,
    weight: f64,
    best_model: bool,
    alpha: f64,
    stem: bool,
    stopwords: Option<Vec<String>>,
    exceptions: Vec<(String, String)>,
    limit_words: Option<usize>,
    limit_bytes: Option<usize>,
    n_threads: usize,
    stem_models_only: bool,
    token_counts: bool,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let n = hyps.len();
    let (data, width) = detached(py, || {
        let cfg = r155_config(&types, weight, best_model, alpha, stem, stopwords, exceptions, limit_words, limit_bytes, stem_models_only, token_counts)?;
        Ok((rouge155::batch_stats(&cfg, &hyps, &refs, n_threads)?, cfg.width()))
    })?;
    matrix(py, data, n, width)
}

/// ROUGE-1.5.5's printed `Average_X` and confidence interval for one type, from rows
/// `[R, P, F]` in the script's instance order.
#[pyfunction]
#[pyo3(signature = (rows, resamples=1000, confidence=95.0))]
fn rouge155_script_average<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, f64>,
    resamples: usize,
    confidence: f64,
) -> PyResult<Bound<'py, PyDict>> {
    script_average_dict(py, rows, resamples, confidence, None)
}

/// The same under `-t 1`: rows `[model count, peer count, hit]`, `alpha` the `-p` value.
#[pyfunction]
#[pyo3(signature = (rows, alpha, resamples=1000, confidence=95.0))]
fn rouge155_script_average_counts<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, f64>,
    alpha: f64,
    resamples: usize,
    confidence: f64,
) -> PyResult<Bound<'py, PyDict>> {
    script_average_dict(py, rows, resamples, confidence, Some(alpha))
}

fn script_average_dict<'py>(
    py: Python<'py>,
    rows: PyReadonlyArray2<'py, f64>,
    resamples: usize,
    confidence: f64,
    count_alpha: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let arr = rows.as_array();
    if arr.shape()[1] != 3 {
        return Err(crate::convert::to_py_err(py, Error::InvalidInput("rows must have 3 columns (R, P, F)".into())));
    }
    let data: Vec<[f64; 3]> = arr.outer_iter().map(|r| [r[0], r[1], r[2]]).collect();
    let a = detached(py, || match count_alpha {
        Some(alpha) => rouge155::script_average_counts(&data, resamples, confidence, alpha),
        None => rouge155::script_average(&data, resamples, confidence),
    })?;
    let d = PyDict::new(py);
    d.set_item("average", a.average.to_vec())?;
    d.set_item("low", a.low.to_vec())?;
    d.set_item("high", a.high.to_vec())?;
    Ok(d)
}

/// pycocoevalcap ROUGE-L statistics `[P, R, score]`, shape (n, 3).
#[pyfunction]
#[pyo3(signature = (hyps, refs, beta=1.2, n_threads=0))]
fn rouge_coco_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    beta: f64,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let n = hyps.len();
    let data = detached(py, || rouge_coco::batch_stats(&hyps, &refs, beta, n_threads))?;
    matrix(py, data, n, rouge_coco::WIDTH)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rouge_score_stats, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_score_stats_lists, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_score_pairwise, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(porter_stem, m)?)?;
    m.add_function(wrap_pyfunction!(rouge155_stats, m)?)?;
    m.add_function(wrap_pyfunction!(rouge155_script_average, m)?)?;
    m.add_function(wrap_pyfunction!(rouge155_script_average_counts, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_coco_stats, m)?)?;
    Ok(())
}
