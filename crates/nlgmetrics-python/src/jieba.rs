//! jieba segmentation bindings: a segmenter built from the live state of a jieba
//! `Tokenizer` (its `FREQ`, `total`) and `jieba.finalseg` (probability tables,
//! `Force_Split_Words`), shared across calls and threads.

use crate::convert::{borrow_strs, detached};
use nlgmetrics_core::tokenize::jieba::{Hmm, Jieba, Mode};
use nlgmetrics_core::Error;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

const STATES: [&str; 4] = ["B", "M", "E", "S"];

#[pyclass(frozen, module = "nlgmetrics._core")]
pub struct JiebaSegmenter {
    inner: Arc<Jieba>,
}

fn state_dict<'py>(d: &Bound<'py, PyDict>, state: &str, what: &str) -> PyResult<Bound<'py, PyDict>> {
    match d.get_item(state)? {
        Some(v) => Ok(v.cast_into::<PyDict>().map_err(|_| PyTypeError::new_err(format!("{what}[{state:?}] is not a dict")))?),
        None => Err(PyValueError::new_err(format!("{what} has no state {state:?}"))),
    }
}

fn mode_of(mode: &str) -> PyResult<Mode> {
    Mode::from_name(mode).ok_or_else(|| PyValueError::new_err(format!("unknown jieba mode {mode:?}; known: default, no_hmm, search, search_no_hmm")))
}

#[pymethods]
impl JiebaSegmenter {
    /// `freq`: `Tokenizer.FREQ` (str -> non-negative int); `total`: `Tokenizer.total`;
    /// `start`, `trans`, `emit`: `finalseg.start_P`, `trans_P`, `emit_P`; `force_split`:
    /// `finalseg.Force_Split_Words`; `min_float`: `finalseg.MIN_FLOAT`.
    #[new]
    fn new(
        freq: &Bound<'_, PyDict>,
        total: u64,
        start: &Bound<'_, PyDict>,
        trans: &Bound<'_, PyDict>,
        emit: &Bound<'_, PyDict>,
        force_split: Vec<String>,
        min_float: f64,
    ) -> PyResult<Self> {
        if total == 0 {
            return Err(PyValueError::new_err("jieba's total frequency is 0"));
        }
        let mut start_p = [0.0f64; 4];
        let mut trans_p = [[min_float; 4]; 4];
        let mut emit_p: FxHashMap<char, [f64; 4]> = FxHashMap::default();
        for (y, s) in STATES.iter().enumerate() {
            start_p[y] = match start.get_item(*s)? {
                Some(v) => v.extract::<f64>()?,
                None => return Err(PyValueError::new_err(format!("start_P has no state {s:?}"))),
            };
            let t = state_dict(trans, s, "trans_P")?;
            for (to, name) in STATES.iter().enumerate() {
                if let Some(v) = t.get_item(*name)? {
                    trans_p[y][to] = v.extract::<f64>()?;
                }
            }
            let e = state_dict(emit, s, "emit_P")?;
            for (k, v) in e.iter() {
                let Ok(k) = k.cast::<PyString>() else { continue };
                let k = k.to_str()?;
                let mut cs = k.chars();
                let (Some(c), None) = (cs.next(), cs.next()) else { continue };
                emit_p.entry(c).or_insert([min_float; 4])[y] = v.extract::<f64>()?;
            }
        }
        let hmm = Hmm {
            start: start_p,
            trans: trans_p,
            emit: emit_p,
            min_float,
            force_split: force_split.into_iter().collect::<FxHashSet<String>>(),
        };
        let mut j = Jieba::with_capacity(total, hmm, freq.len());
        for (k, v) in freq.iter() {
            let k = k.cast::<PyString>().map_err(|_| PyTypeError::new_err("a key of FREQ is not a str"))?;
            let v = v.cast::<PyInt>().map_err(|_| PyTypeError::new_err("a value of FREQ is not an int"))?;
            let f: i64 = v.extract()?;
            if f < 0 {
                return Err(PyValueError::new_err("a value of FREQ is negative"));
            }
            j.insert(k.to_str()?, f as u64);
        }
        Ok(JiebaSegmenter { inner: Arc::new(j) })
    }

    /// `FREQ.get(word)`.
    fn freq(&self, word: &str) -> Option<u64> {
        self.inner.freq(word)
    }

    /// The words of every text (`list(jieba.cut(text))` in `mode`: "default", "no_hmm",
    /// "search" = `cut_for_search`, "search_no_hmm").
    #[pyo3(signature = (texts, mode="default", n_threads=1))]
    fn cut<'py>(&self, py: Python<'py>, texts: Vec<Bound<'py, PyString>>, mode: &str, n_threads: usize) -> PyResult<Bound<'py, PyList>> {
        let mode = mode_of(mode)?;
        let views = borrow_strs(&texts)?;
        let inner = self.inner.clone();
        let spans = detached(py, || Ok::<_, Error>(inner.spans_all(&views, mode, n_threads)))?;
        let out = PyList::empty(py);
        for (t, sp) in views.iter().zip(spans) {
            let words = PyList::empty(py);
            for (a, b) in sp {
                words.append(PyString::new(py, &t[a..b]))?;
            }
            out.append(words)?;
        }
        Ok(out)
    }

    /// `sep.join(jieba.cut(text))` of every text.
    /// `skip_space` leaves out the words that are whitespace (`str.isspace()`).
    #[pyo3(signature = (texts, mode="default", sep=" ", skip_space=false, n_threads=1))]
    fn join(&self, py: Python<'_>, texts: Vec<Bound<'_, PyString>>, mode: &str, sep: &str, skip_space: bool, n_threads: usize) -> PyResult<Vec<String>> {
        let mode = mode_of(mode)?;
        let views = borrow_strs(&texts)?;
        let inner = self.inner.clone();
        detached(py, || Ok::<_, Error>(inner.join_all(&views, mode, sep, skip_space, n_threads)))
    }
}

/// LLaMA-Factory 0.9.5 `ComputeSimilarity` rows `[rouge-1, rouge-2, rouge-l, bleu-4]`,
/// both sides segmented by `segmenter` (`" ".join(jieba.cut(text))`) in the core.
#[pyfunction]
#[pyo3(signature = (raw_h, raw_r, segmenter, n_threads=0))]
fn llamafactory_rows_jieba<'py>(
    py: Python<'py>,
    raw_h: Vec<Bound<'py, PyString>>,
    raw_r: Vec<Bound<'py, PyString>>,
    segmenter: &JiebaSegmenter,
    n_threads: usize,
) -> PyResult<Bound<'py, numpy::PyArray2<f64>>> {
    let (h, r) = (borrow_strs(&raw_h)?, borrow_strs(&raw_r)?);
    let n = h.len();
    let inner = segmenter.inner.clone();
    let data = detached(py, || nlgmetrics_core::text::llm_presets::llamafactory_rows_jieba(&h, &r, &inner, n_threads))?;
    crate::convert::matrix(py, data, n, 4)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<JiebaSegmenter>()?;
    m.add_function(wrap_pyfunction!(llamafactory_rows_jieba, m)?)?;
    Ok(())
}
