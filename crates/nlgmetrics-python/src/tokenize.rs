use crate::convert::detached;
use nlgmetrics_core::parallel;
use nlgmetrics_core::tokenize::{Tokenizer, TOKENIZER_NAMES};
use pyo3::prelude::*;

/// Tokenize each line with the named tokenizer; tokens are joined by single spaces.
#[pyfunction]
#[pyo3(signature = (name, lines, n_threads=0))]
fn tokenize(py: Python<'_>, name: &str, lines: Vec<String>, n_threads: usize) -> PyResult<Vec<String>> {
    detached(py, || {
        let tok = Tokenizer::from_name(name)?;
        let out = parallel::map_rows(lines.len(), 1, n_threads, || (), |_, i, row: &mut [String]| {
            row[0] = tok.tokenize(&lines[i]);
            Ok::<(), nlgmetrics_core::Error>(())
        })?;
        Ok(out)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add("TOKENIZERS", TOKENIZER_NAMES.to_vec())?;
    Ok(())
}
