//! Shared conversions: core errors to the typed Python exceptions of
//! `nlgmetrics.errors`, and a guard so a Rust panic never reaches Python as a panic.

use nlgmetrics_core::interrupt::{self, Interrupted};
use nlgmetrics_core::memory::{LimitExceeded, OutOfMemory};
use nlgmetrics_core::Error;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::types::{PyList, PyString, PyTuple};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn py_error(py: Python<'_>, class: &str, msg: String) -> PyErr {
    match py
        .import("nlgmetrics.errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1((msg.clone(),)))
    {
        Ok(exc) => PyErr::from_value(exc),
        Err(_) => pyo3::exceptions::PyValueError::new_err(msg),
    }
}

pub fn to_py_err(py: Python<'_>, e: Error) -> PyErr {
    let class = match &e {
        Error::LengthMismatch { .. } => "LengthMismatchError",
        Error::MissingReference { .. } => "MissingReferenceError",
        Error::InvalidOption(_) => "InvalidOptionError",
        Error::InvalidInput(_) => "InvalidInputError",
    };
    py_error(py, class, e.to_string())
}

/// Run core work without the GIL; map errors and panics to Python exceptions.
///
/// On the main thread the call is interruptible: Ctrl-C stops it at the core's next
/// chunk boundary and Python's own SIGINT handler runs (normally `KeyboardInterrupt`).
/// A refused allocation becomes `nlgmetrics.errors.ResourceLimitError` (a
/// `MemoryError`), any other panic `InternalError`; neither reaches Python raw.
pub fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, Error> + Send,
) -> PyResult<T> {
    let out = if crate::signals::is_main_thread() {
        // A Ctrl-C that arrived while the arguments were converted stops us here.
        py.check_signals()?;
        py.detach(|| {
            let _sigint = crate::signals::forward_sigint();
            interrupt::watch(|| catch_unwind(AssertUnwindSafe(f)))
        })
    } else {
        py.detach(|| catch_unwind(AssertUnwindSafe(f)))
    };
    match out {
        Ok(Ok(v)) => {
            // A Ctrl-C that came after the core's last check is raised now, before any
            // Python code (a lazy import while converting the result) could trip on it.
            if crate::signals::is_main_thread() {
                py.check_signals()?;
            }
            Ok(v)
        }
        Ok(Err(e)) => Err(to_py_err(py, e)),
        Err(payload) => Err(unwound(py, payload)),
    }
}

/// `f()` with the GIL held, an unwind (a refused allocation) turned into its Python
/// exception as [`detached`] does.
pub fn guarded<T>(py: Python<'_>, f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| unwound(py, payload))
}

/// The Python exception for a call that unwound instead of returning.
fn unwound(py: Python<'_>, payload: Box<dyn std::any::Any + Send>) -> PyErr {
    if payload.is::<Interrupted>() {
        // Python's handler for the pending SIGINT decides what to raise.
        return match py.check_signals() {
            Err(e) => e,
            Ok(()) => pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted"),
        };
    }
    if let Some(oom) = payload.downcast_ref::<OutOfMemory>() {
        return py_error(py, "ResourceLimitError", oom.to_string());
    }
    if let Some(limit) = payload.downcast_ref::<LimitExceeded>() {
        return py_error(py, "ResourceLimitError", limit.to_string());
    }
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".into());
    let at = crate::signals::last_panic_location().map(|l| format!(" (at {l})")).unwrap_or_default();
    py_error(py, "InternalError", format!("internal error in the Rust core: {what}{at}"))
}

/// Refuse up front (`ResourceLimitError`) an `n × m` pairwise result of `words` 8-byte
/// values per pair that the machine cannot hold (result plus the core's working copy).
pub fn check_pairwise(py: Python<'_>, n: usize, m: usize, words: usize) -> PyResult<()> {
    let cells = n.checked_mul(m).unwrap_or(usize::MAX);
    nlgmetrics_core::memory::check(cells, 8 * words, &format!("a {n} x {m} pairwise matrix"))
        .map_err(|oom| py_error(py, "ResourceLimitError", oom.to_string()))
}

pub fn matrix<'py, T: numpy::Element>(
    py: Python<'py>,
    data: Vec<T>,
    rows: usize,
    cols: usize,
) -> PyResult<Bound<'py, PyArray2<T>>> {
    PyArray1::from_vec(py, data).reshape([rows, cols])
}

/// A float64 numpy vector.
pub type F64s<'py> = Bound<'py, PyArray1<f64>>;

pub fn vector<'py>(py: Python<'py>, v: Vec<f64>) -> F64s<'py> {
    PyArray1::from_vec(py, v)
}

/// Three float64 vectors, the shape of many `(a, b, c)` results.
pub fn vectors3<'py>(py: Python<'py>, [a, b, c]: [Vec<f64>; 3]) -> (F64s<'py>, F64s<'py>, F64s<'py>) {
    (vector(py, a), vector(py, b), vector(py, c))
}

/// Optional sample weights as a slice.
pub fn opt_slice<'a>(w: &'a Option<numpy::PyReadonlyArray1<'_, f64>>) -> PyResult<Option<&'a [f64]>> {
    Ok(match w {
        Some(a) => Some(a.as_slice()?),
        None => None,
    })
}

/// A statistics matrix as owned row-major values and its width (any memory layout).
pub fn rows_of<T: numpy::Element + Copy>(stats: &numpy::PyReadonlyArray2<'_, T>) -> (Vec<T>, usize) {
    let arr = stats.as_array();
    (arr.iter().copied().collect(), arr.shape()[1])
}

/// A Python dict from `key => value` pairs (a score's breakdown); `?` inside a PyResult fn.
#[macro_export]
macro_rules! py_dict {
    ($py:expr, $($key:literal => $value:expr),+ $(,)?) => {{
        let d = pyo3::types::PyDict::new($py);
        $(d.set_item($key, $value)?;)+
        d
    }};
}

/// The UTF-8 of each Python str, borrowed (CPython keeps it with the object, and an
/// ASCII str is stored as UTF-8 already): no copy per text. The borrows live as long
/// as `items`, which keep the strings alive while the GIL is released.
pub fn borrow_strs<'a>(items: &'a [Bound<'_, pyo3::types::PyString>]) -> PyResult<Vec<&'a str>> {
    use pyo3::types::PyStringMethods;
    items.iter().map(|s| s.to_str()).collect()
}

/// [`borrow_strs`] for a list of lists.
pub fn borrow_str_lists<'a>(items: &'a [Vec<Bound<'_, pyo3::types::PyString>>]) -> PyResult<Vec<Vec<&'a str>>> {
    items.iter().map(|r| borrow_strs(r)).collect()
}

/// The str items of a Python list, or `None` when `obj` is not a list or an item is not
/// a str (callers then take their validating path, which names the problem).
pub fn str_items<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyString>>> {
    let list = obj.cast_exact::<PyList>().ok()?;
    list.iter().map(|x| x.cast_into::<PyString>().ok()).collect()
}

/// Segment references from a list whose items are a str or a non-empty list or tuple of
/// str: the flat strings and the start of each segment's run (`n + 1` offsets). `None`
/// for any other shape. (Gold answer runs, which may be empty, are read by `copied`.)
pub fn str_runs<'py>(obj: &Bound<'py, PyAny>) -> Option<(Vec<Bound<'py, PyString>>, Vec<usize>)> {
    let list = obj.cast_exact::<PyList>().ok()?;
    let mut flat = Vec::with_capacity(list.len());
    let mut starts = Vec::with_capacity(list.len() + 1);
    starts.push(0);
    for item in list.iter() {
        let before = flat.len();
        if let Ok(s) = item.cast::<PyString>() {
            flat.push(s.clone());
        } else if let Ok(l) = item.cast_exact::<PyList>() {
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
        if flat.len() == before {
            return None;
        }
        starts.push(flat.len());
    }
    Some((flat, starts))
}

/// The UTF-8 of each string, borrowed from the string objects (CPython stores it in
/// the object: no copy for ASCII, one cached encoding otherwise). `None` if a string
/// cannot be encoded (a lone surrogate).
pub fn utf8_views<'a>(strings: &'a [Bound<'_, PyString>]) -> Option<Vec<&'a str>> {
    borrow_strs(strings).ok()
}

/// Predictions (a list of str) and references (a list of str or non-empty lists/tuples of
/// str) read in place: `f(hyps, flat references, offsets)` and the number of references
/// per segment, or `None` when the inputs have another shape or a string cannot be
/// encoded (the caller then validates them on its slower path).
pub fn with_str_lists<'py, T>(
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    f: impl FnOnce(&[&str], &[&str], &[usize]) -> PyResult<T>,
) -> PyResult<Option<(T, Vec<usize>)>> {
    let (Some(hyp_objs), Some((ref_objs, starts))) = (str_items(hyps), str_runs(refs)) else {
        return Ok(None);
    };
    let (Some(hyp_texts), Some(ref_texts)) = (utf8_views(&hyp_objs), utf8_views(&ref_objs)) else {
        return Ok(None);
    };
    let out = f(&hyp_texts, &ref_texts, &starts)?;
    Ok(Some((out, starts.windows(2).map(|w| w[1] - w[0]).collect())))
}

/// The references per segment of [`with_str_lists`] as the int64 array `SegmentStats` keeps.
pub fn ref_count_array<'py>(py: Python<'py>, counts: Vec<usize>) -> Bound<'py, PyArray1<i64>> {
    PyArray1::from_vec(py, counts.into_iter().map(|c| c as i64).collect())
}
