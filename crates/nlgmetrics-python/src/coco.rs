//! The COCO caption pipeline: the PTB tokenizer and pycocoevalcap's BLEU.

use crate::convert::{detached, matrix};
use nlgmetrics_core::text::bleu_coco;
use nlgmetrics_core::tokenize::ptb::{self, CaptionTokenizer};
use numpy::{PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

/// pycocoevalcap's PTBTokenizer over captions in file order: lowercased PTB tokens joined
/// by spaces, pycocoevalcap's punctuation tokens removed when `drop_punctuation`.
#[pyfunction]
#[pyo3(signature = (lines, drop_punctuation=true, n_threads=0))]
fn ptb_tokenize(py: Python<'_>, lines: Vec<String>, drop_punctuation: bool, n_threads: usize) -> PyResult<Vec<String>> {
    detached(py, || Ok(ptb::tokenize_captions(&lines, drop_punctuation, n_threads)))
}

/// Per-image statistics `[testlen, reflen, guess_1..N, correct_1..N]`, shape (n, 2+2N).
#[pyfunction]
#[pyo3(signature = (hyps, refs, tokenizer, max_order, n_threads=0))]
fn bleu_coco_stats<'py>(
    py: Python<'py>,
    hyps: Vec<String>,
    refs: Vec<Vec<String>>,
    tokenizer: &str,
    max_order: usize,
    n_threads: usize,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let n = hyps.len();
    let data = detached(py, || {
        let tok = CaptionTokenizer::from_name(tokenizer)?;
        bleu_coco::batch_stats(&hyps, &refs, tok, max_order, n_threads)
    })?;
    matrix(py, data, n, bleu_coco::width(max_order))
}

fn check_width(width: usize, max_order: usize) -> Result<(), nlgmetrics_core::Error> {
    bleu_coco::validate(max_order)?;
    if width != bleu_coco::width(max_order) {
        return Err(nlgmetrics_core::Error::InvalidInput(format!(
            "coco BLEU statistics need {} columns for n={max_order}, got {width}",
            bleu_coco::width(max_order)
        )));
    }
    Ok(())
}

/// BLEU-1..N and the length ratio of one (summed) statistics vector.
#[pyfunction]
fn bleu_coco_score(py: Python<'_>, stats: PyReadonlyArray1<'_, u64>, max_order: usize) -> PyResult<(Vec<f64>, f64)> {
    let stats = stats.as_slice()?.to_vec();
    detached(py, || {
        check_width(stats.len(), max_order)?;
        Ok(bleu_coco::score_stats(&stats, max_order))
    })
}

/// BLEU-1..N of every row: shape (n, N).
#[pyfunction]
fn bleu_coco_scores<'py>(py: Python<'py>, stats: PyReadonlyArray2<'py, u64>, max_order: usize) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let arr = stats.as_array();
    let (rows, width) = (arr.shape()[0], arr.shape()[1]);
    let flat: Vec<u64> = arr.iter().copied().collect();
    let out = detached(py, || {
        check_width(width, max_order)?;
        Ok(flat.chunks(width.max(1)).take(rows).flat_map(|r| bleu_coco::score_stats(r, max_order).0).collect::<Vec<f64>>())
    })?;
    if rows == 0 {
        return matrix(py, Vec::new(), 0, max_order);
    }
    matrix(py, out, rows, max_order)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ptb_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_coco_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_coco_score, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_coco_scores, m)?)?;
    Ok(())
}
