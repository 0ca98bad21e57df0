use crate::convert::{detached, matrix, str_items, utf8_views};
use nlgmetrics_core::text::qa::{self, Version};
use nlgmetrics_core::{parallel, Error};
use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

fn version(v: &str) -> Result<Version, Error> {
    match v {
        "1.1" => Ok(Version::V1),
        "2.0" => Ok(Version::V2),
        _ => Err(Error::InvalidOption(format!("unknown SQuAD version {v:?}; known: 1.1, 2.0"))),
    }
}

/// Per-question rows, F1 values and gold answer counts.
type SquadStats<'py> = (Bound<'py, PyArray2<u64>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<i64>>);

/// Gold answers from a list whose items are lists or tuples of str (empty ones too: an
/// unanswerable question): the flat strings and `n + 1` offsets. `None` for any other shape.
fn gold_runs<'py>(obj: &Bound<'py, PyAny>) -> Option<(Vec<Bound<'py, PyString>>, Vec<usize>)> {
    let list = obj.cast_exact::<PyList>().ok()?;
    let mut flat = Vec::with_capacity(list.len());
    let mut starts = Vec::with_capacity(list.len() + 1);
    starts.push(0);
    for item in list.iter() {
        if let Ok(l) = item.cast_exact::<PyList>() {
            for x in l.iter() {
                flat.push(x.cast_into::<PyString>().ok()?);
            }
        } else if let Ok(t) = item.cast_exact::<PyTuple>() {
            for x in t.iter() {
                flat.push(x.cast_into::<PyString>().ok()?);
            }
        } else {
            return None;
        }
        starts.push(flat.len());
    }
    Some((flat, starts))
}

/// Per question `[exact, shared, pred_len, gold_len, pred_nonempty]` (uint64, shape (n, 5))
/// its F1 (float64) and its number of gold answers (int64), as evaluate-v1.1.py (`version="1.1"`) or evaluate-v2.0.py
/// (`"2.0"`) score it against its gold answers. `None` when the inputs are not a list of
/// str and a list of lists (or tuples) of str.
#[pyfunction]
#[pyo3(signature = (preds, golds, version, n_threads=0))]
fn squad_stats<'py>(
    py: Python<'py>,
    preds: &Bound<'py, PyAny>,
    golds: &Bound<'py, PyAny>,
    version: &str,
    n_threads: usize,
) -> PyResult<Option<SquadStats<'py>>> {
    let (Some(pred_objs), Some((gold_objs, starts))) = (str_items(preds), gold_runs(golds)) else {
        return Ok(None);
    };
    let (Some(p), Some(g)) = (utf8_views(&pred_objs), utf8_views(&gold_objs)) else {
        return Ok(None);
    };
    let v = self::version(version);
    let (rows, f1) = detached(py, || qa::batch_stats(v?, &p, &g, &starts, n_threads))?;
    let n = p.len();
    let counts = starts.windows(2).map(|w| (w[1] - w[0]) as i64).collect();
    Ok(Some((matrix(py, rows, n, qa::WIDTH)?, PyArray1::from_vec(py, f1), PyArray1::from_vec(py, counts))))
}

/// `normalize_answer(text)` of the SQuAD scripts for each text.
#[pyfunction]
#[pyo3(signature = (texts, n_threads=0))]
fn squad_normalize(py: Python<'_>, texts: Vec<String>, n_threads: usize) -> PyResult<Vec<String>> {
    detached(py, || {
        parallel::map_rows(texts.len(), 1, n_threads, qa::Tokens::default, |t, i, row: &mut [String]| {
            t.fill(&texts[i]);
            row[0] = t.normalized();
            Ok::<(), Error>(())
        })
    })
}

/// evaluate-v2.0.py's `find_best_thresh` over the questions in `order`: the best running
/// total and the index of the question that reached it (`None`: threshold 0.0).
#[pyfunction]
fn squad_best_threshold(
    py: Python<'_>,
    scores: PyReadonlyArray1<'_, f64>,
    has_ans: PyReadonlyArray1<'_, bool>,
    pred_nonempty: PyReadonlyArray1<'_, bool>,
    order: PyReadonlyArray1<'_, i64>,
) -> PyResult<(f64, Option<usize>)> {
    let (s, h, p) = (scores.as_slice()?, has_ans.as_slice()?, pred_nonempty.as_slice()?);
    let o: Vec<usize> = order.as_slice()?.iter().map(|&i| if i < 0 { usize::MAX } else { i as usize }).collect();
    detached(py, || qa::best_threshold(s, h, p, &o))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(squad_stats, m)?)?;
    m.add_function(wrap_pyfunction!(squad_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(squad_best_threshold, m)?)?;
    Ok(())
}
