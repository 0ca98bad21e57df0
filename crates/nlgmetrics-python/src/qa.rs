use crate::copied;
use crate::convert::{detached, guarded, matrix, utf8_views};
use nlgmetrics_core::text::qa::{self, Version};
use nlgmetrics_core::{parallel, Error};
use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::intern;
use pyo3::types::{PyDict, PyList, PyString};

fn version(v: &str) -> Result<Version, Error> {
    match v {
        "1.1" => Ok(Version::V1),
        "2.0" => Ok(Version::V2),
        _ => Err(Error::InvalidOption(format!("unknown SQuAD version {v:?}; known: 1.1, 2.0"))),
    }
}

/// Per-question rows, F1 values and gold answer counts.
type SquadStats<'py> = (Bound<'py, PyArray2<u64>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<i64>>);

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
    // copied: every answer is read once per question's comparison, scattered Python strings
    // would cost a cache miss each time
    let (Some(pred_texts), Some((gold_texts, starts))) = guarded(py, || (copied::str_list(preds), copied::answer_runs(golds)))? else {
        return Ok(None);
    };
    let (p, g) = (pred_texts.views(), gold_texts.views());
    let v = self::version(version);
    let (rows, f1) = detached(py, || qa::batch_stats(v?, &p, &g, &starts, n_threads))?;
    let n = p.len();
    let counts = starts.windows(2).map(|w| (w[1] - w[0]) as i64).collect();
    Ok(Some((matrix(py, rows, n, qa::WIDTH)?, PyArray1::from_vec(py, f1), PyArray1::from_vec(py, counts))))
}

/// The questions of a parsed SQuAD dataset's `data` list (articles -> `paragraphs` ->
/// `qas` -> `id` and `answers` -> `text`), read in place: ids, the flat gold answer texts
/// and `n + 1` offsets. `None` when a level is not exactly a list or dict of that shape
/// or an id or text is not exactly a str (the caller's checked walk names the problem).
struct Questions<'py> {
    ids: Vec<Bound<'py, PyString>>,
    golds: Vec<Bound<'py, PyString>>,
    starts: Vec<usize>,
}

fn field<'py>(obj: &Bound<'py, PyAny>, key: &Bound<'py, PyString>) -> Option<Bound<'py, PyAny>> {
    obj.cast_exact::<PyDict>().ok()?.get_item(key).ok()?
}

fn dataset_questions<'py>(data: &Bound<'py, PyAny>) -> Option<Questions<'py>> {
    let py = data.py();
    let (k_par, k_qas, k_id, k_ans, k_text) =
        (intern!(py, "paragraphs"), intern!(py, "qas"), intern!(py, "id"), intern!(py, "answers"), intern!(py, "text"));
    let mut q = Questions { ids: Vec::new(), golds: Vec::new(), starts: vec![0] };
    for article in data.cast_exact::<PyList>().ok()?.iter() {
        for paragraph in field(&article, k_par)?.cast_exact::<PyList>().ok()?.iter() {
            for qa in field(&paragraph, k_qas)?.cast_exact::<PyList>().ok()?.iter() {
                let id = field(&qa, k_id)?.cast_into_exact::<PyString>().ok()?;
                for answer in field(&qa, k_ans)?.cast_exact::<PyList>().ok()?.iter() {
                    q.golds.push(field(&answer, k_text)?.cast_into_exact::<PyString>().ok()?);
                }
                q.ids.push(id);
                q.starts.push(q.golds.len());
            }
        }
    }
    Some(q)
}

/// The str prediction of each id in `by_id`, or `None` when one is missing or not exactly
/// a str (the caller's checked path warns about or names it).
fn predictions_of<'py, 'a>(by_id: &Bound<'py, PyDict>, ids: impl Iterator<Item = &'a Bound<'py, PyString>>) -> PyResult<Option<Vec<Bound<'py, PyString>>>>
where
    'py: 'a,
{
    let mut out = Vec::new();
    for id in ids {
        let Some(p) = by_id.get_item(id)?.and_then(|p| p.cast_into_exact::<PyString>().ok()) else {
            return Ok(None);
        };
        out.push(p);
    }
    Ok(Some(out))
}

/// evaluate-v1.1.py's per-question statistics straight from its parsed inputs: the
/// dataset's `data` list and the predictions dict `{id: text}` (as [`squad_stats`]).
/// `None` unless every question has a str prediction and a gold answer and the shapes are
/// exact (the caller's path then warns about, or names, what differs).
#[pyfunction]
#[pyo3(signature = (data, predictions, n_threads=0))]
fn squad_dataset_v1<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    predictions: &Bound<'py, PyAny>,
    n_threads: usize,
) -> PyResult<Option<SquadStats<'py>>> {
    let (Some(q), Ok(by_id)) = (dataset_questions(data), predictions.cast_exact::<PyDict>()) else {
        return Ok(None);
    };
    if q.ids.is_empty() || q.starts.windows(2).any(|w| w[0] == w[1]) {
        return Ok(None);
    }
    let Some(pred_objs) = predictions_of(by_id, q.ids.iter())? else {
        return Ok(None);
    };
    let (Some(p), Some(g)) = (utf8_views(&pred_objs), utf8_views(&q.golds)) else {
        return Ok(None);
    };
    let starts = q.starts;
    let (rows, f1) = detached(py, || qa::batch_stats(Version::V1, &p, &g, &starts, n_threads))?;
    let counts = starts.windows(2).map(|w| (w[1] - w[0]) as i64).collect();
    Ok(Some((matrix(py, rows, p.len(), qa::WIDTH)?, PyArray1::from_vec(py, f1), PyArray1::from_vec(py, counts))))
}

/// evaluate-v2.0.py's per-question statistics straight from its parsed inputs, with its
/// questions keyed by id (an id asked twice keeps its first place and its last answers):
/// the ids in that order and [`squad_stats`] of them. `None` unless every question has a
/// str prediction and the shapes are exact (the caller's path then warns or names it).
#[pyfunction]
#[pyo3(signature = (data, predictions, n_threads=0))]
fn squad_dataset_v2<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    predictions: &Bound<'py, PyAny>,
    n_threads: usize,
) -> PyResult<Option<(Bound<'py, PyList>, SquadStats<'py>)>> {
    let (Some(q), Ok(by_id)) = (dataset_questions(data), predictions.cast_exact::<PyDict>()) else {
        return Ok(None);
    };
    let Some(ids) = utf8_views(&q.ids) else {
        return Ok(None);
    };
    // the script's dict: one entry per id at its first place, holding its last answers
    let places = qa::IdPlaces::new(ids.iter().copied());
    if places.first.is_empty() {
        return Ok(None);
    }
    let Some(pred_objs) = predictions_of(by_id, places.first.iter().map(|&i| &q.ids[i]))? else {
        return Ok(None);
    };
    let (answers, starts) = places.last_answers(&q.starts);
    let gold_objs: Vec<Bound<'py, PyString>> = answers.iter().map(|&k| q.golds[k].clone()).collect();
    let (Some(p), Some(g)) = (utf8_views(&pred_objs), utf8_views(&gold_objs)) else {
        return Ok(None);
    };
    let (rows, f1) = detached(py, || qa::batch_stats(Version::V2, &p, &g, &starts, n_threads))?;
    let counts = starts.windows(2).map(|w| (w[1] - w[0]) as i64).collect();
    let kept = PyList::new(py, places.first.iter().map(|&i| &q.ids[i]))?;
    Ok(Some((kept, (matrix(py, rows, p.len(), qa::WIDTH)?, PyArray1::from_vec(py, f1), PyArray1::from_vec(py, counts)))))
}

/// The questions of a parsed SQuAD dataset's `data` list: their ids and their gold answer
/// texts (a list per question), or `None` when the shapes are not exact (see above).
#[pyfunction]
fn squad_dataset_questions<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Option<(Bound<'py, PyList>, Bound<'py, PyList>)>> {
    let Some(q) = dataset_questions(data) else {
        return Ok(None);
    };
    let golds = q.starts.windows(2).map(|w| PyList::new(py, &q.golds[w[0]..w[1]])).collect::<PyResult<Vec<_>>>()?;
    Ok(Some((PyList::new(py, q.ids)?, PyList::new(py, golds)?)))
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

/// A probabilities file's column: values (float64), which were ints, and the threshold
/// search's order (int64).
type NaColumn<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<bool>>, Bound<'py, PyArray1<i64>>);

/// The official scripts' statistics from their files' bytes: the dataset JSON, the
/// predictions JSON and evaluate-v2.0.py's no-answer probabilities JSON, read in the core
/// (`version`: `"1.1"`, `"2.0"` or `"auto"`, the dataset's). `(version, the dataset's
/// version field, stats as [`squad_stats`], the probabilities' column or `None`)`, or
/// `None` unless the files are exactly the regular shapes with every question answered
/// (the caller's general path then reads them).
#[pyfunction]
#[pyo3(signature = (data, predictions, na_probs=None, version="auto", n_threads=0))]
fn squad_files<'py>(
    py: Python<'py>,
    data: &[u8],
    predictions: &[u8],
    na_probs: Option<&[u8]>,
    version: &str,
    n_threads: usize,
) -> PyResult<Option<(&'static str, String, SquadStats<'py>, Option<NaColumn<'py>>)>> {
    let Some(got) = detached(py, || {
        let v = if version == "auto" { None } else { Some(self::version(version)?) };
        qa::files::file_stats(data, predictions, na_probs, v, n_threads)
    })?
    else {
        return Ok(None);
    };
    let n = got.counts.len();
    let name = if got.version == Version::V1 { "1.1" } else { "2.0" };
    let na = got.na.map(|c| {
        let order = c.order.into_iter().map(|i| i as i64).collect();
        (PyArray1::from_vec(py, c.values), PyArray1::from_vec(py, c.is_int), PyArray1::from_vec(py, order))
    });
    let stats = (matrix(py, got.rows, n, qa::WIDTH)?, PyArray1::from_vec(py, got.f1), PyArray1::from_vec(py, got.counts));
    Ok(Some((name, got.version_field, stats, na)))
}

/// Plain-Python statistics: rows flat (`qa::WIDTH` per question).
type SquadLists = (Vec<u64>, Vec<f64>, Vec<i64>);
type NaLists = (Vec<f64>, Vec<bool>, Vec<i64>);

/// [`squad_files`] as Python lists (the rows flattened, `qa::WIDTH` a question): a total
/// from these needs no numpy (the CLI's plain run).
#[pyfunction]
#[pyo3(signature = (data, predictions, na_probs, version, n_threads=0))]
fn squad_files_lists(
    py: Python<'_>,
    data: &[u8],
    predictions: &[u8],
    na_probs: Option<&[u8]>,
    version: &str,
    n_threads: usize,
) -> PyResult<Option<(&'static str, String, SquadLists, Option<NaLists>)>> {
    let Some(got) = detached(py, || {
        let v = if version == "auto" { None } else { Some(self::version(version)?) };
        qa::files::file_stats(data, predictions, na_probs, v, n_threads)
    })?
    else {
        return Ok(None);
    };
    let name = if got.version == Version::V1 { "1.1" } else { "2.0" };
    let na = got.na.map(|c| (c.values, c.is_int, c.order.into_iter().map(|i| i as i64).collect()));
    Ok(Some((name, got.version_field, (got.rows, got.f1, got.counts), na)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(squad_stats, m)?)?;
    m.add_function(wrap_pyfunction!(squad_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(squad_best_threshold, m)?)?;
    m.add_function(wrap_pyfunction!(squad_dataset_v1, m)?)?;
    m.add_function(wrap_pyfunction!(squad_dataset_v2, m)?)?;
    m.add_function(wrap_pyfunction!(squad_dataset_questions, m)?)?;
    m.add_function(wrap_pyfunction!(squad_files, m)?)?;
    m.add_function(wrap_pyfunction!(squad_files_lists, m)?)?;
    Ok(())
}
