//! Texts copied side by side out of Python str objects, for batches whose texts are read
//! many times over or sit scattered in memory: one pass under the GIL with borrowed items
//! (no reference taken or dropped per string, no Python code run meanwhile), then the core
//! works on one buffer with the GIL released.
//!
//! Shapes are those of `convert::str_items` and `convert::answer_runs` (exact list and
//! tuple types, str subclasses accepted); anything else, or a str that UTF-8 cannot encode
//! (a lone surrogate), gives `None` and the caller's checked path.

use nlgmetrics_core::memory::{self, OutOfMemory};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// Texts one after another in `buf`; text `i` ends at `ends[i]`.
#[derive(Default)]
pub struct Texts {
    buf: String,
    ends: Vec<usize>,
}

impl Texts {
    /// Every text, in order.
    pub fn views(&self) -> Vec<&str> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let s = &self.buf[start..end];
                start = end;
                s
            })
            .collect()
    }

    /// Appends the str `item` (borrowed, the GIL held), or `None` when it is not a str
    /// or has no UTF-8 form.
    fn push(&mut self, _py: Python<'_>, item: *mut ffi::PyObject) -> Option<()> {
        // SAFETY: `item` is a live object borrowed from a container the caller holds, under
        // the GIL; the UTF-8 buffer belongs to the str and is read before anything can free it
        unsafe {
            if item.is_null() || ffi::PyUnicode_Check(item) == 0 {
                return None;
            }
            let mut size: ffi::Py_ssize_t = 0;
            let data = ffi::PyUnicode_AsUTF8AndSize(item, &mut size);
            if data.is_null() {
                ffi::PyErr_Clear();
                return None;
            }
            let bytes = std::slice::from_raw_parts(data as *const u8, size as usize);
            self.grow(bytes.len());
            self.buf.push_str(std::str::from_utf8_unchecked(bytes));
        }
        self.ends.push(self.buf.len());
        Some(())
    }

    /// Room for `extra` more bytes and one more text, or an [`OutOfMemory`] unwind (the
    /// caller's guard makes it a `ResourceLimitError`) instead of an abort.
    fn grow(&mut self, extra: usize) {
        let refuse = |bytes| std::panic::resume_unwind(Box::new(OutOfMemory { what: "a copy of the batch's texts".into(), bytes }));
        if self.buf.capacity() - self.buf.len() < extra {
            let want = self.buf.len().saturating_add(extra).max(2 * self.buf.capacity());
            if let Err(oom) = memory::check(want, 1, "a copy of the batch's texts") {
                std::panic::resume_unwind(Box::new(oom));
            }
            if self.buf.try_reserve(want - self.buf.len()).is_err() {
                refuse(Some(want));
            }
        }
        if self.ends.len() == self.ends.capacity() && self.ends.try_reserve(self.ends.len().max(16)).is_err() {
            refuse(self.ends.len().checked_mul(16));
        }
    }
}

/// How many items ahead the readers ask for the objects (they sit anywhere in memory:
/// each first touch would otherwise wait on a cache miss).
const AHEAD: isize = 8;

/// A hint to load the object at `p` into cache (no effect on the results).
#[inline(always)]
fn prefetch(p: *const ffi::PyObject) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing the program sees
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p as *const i8);
        // an ASCII str's text starts right after its header, in the next line
        _mm_prefetch::<_MM_HINT_T0>((p as *const i8).wrapping_add(64));
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The str items of a list (see the module).
pub fn str_list(obj: &Bound<'_, PyAny>) -> Option<Texts> {
    let list = obj.cast_exact::<PyList>().ok()?;
    let (py, ptr) = (obj.py(), list.as_ptr());
    let mut out = Texts::default();
    let n = list.len();
    out.ends.reserve(n);
    for i in 0..n as isize {
        // SAFETY: in range (nothing runs meanwhile that could shrink the list); borrowed
        unsafe {
            if i + AHEAD < n as isize {
                prefetch(ffi::PyList_GetItem(ptr, i + AHEAD));
            }
            out.push(py, ffi::PyList_GetItem(ptr, i))?;
        }
    }
    Some(out)
}

/// Gold answers: a list whose items are lists or tuples of str, empty ones too. The flat
/// texts and `n + 1` offsets.
pub fn answer_runs(obj: &Bound<'_, PyAny>) -> Option<(Texts, Vec<usize>)> {
    let list = obj.cast_exact::<PyList>().ok()?;
    let (py, ptr) = (obj.py(), list.as_ptr());
    let n = list.len();
    let mut out = Texts::default();
    out.ends.reserve(2 * n);
    let mut starts = Vec::with_capacity(n + 1);
    starts.push(0);
    for i in 0..n as isize {
        // SAFETY: as in `str_list`; the run's items are borrowed from the run, itself
        // borrowed from the list, all under the GIL with no Python code running
        unsafe {
            // two levels: the run two steps ahead is in cache by now, so its strings can be
            // asked for; the run further ahead itself
            if i + AHEAD < n as isize {
                prefetch(ffi::PyList_GetItem(ptr, i + AHEAD));
            }
            if i + AHEAD / 2 < n as isize {
                let ahead = ffi::PyList_GetItem(ptr, i + AHEAD / 2);
                if ffi::PyList_CheckExact(ahead) != 0 {
                    for j in 0..ffi::PyList_Size(ahead) {
                        prefetch(ffi::PyList_GetItem(ahead, j));
                    }
                }
            }
            let run = ffi::PyList_GetItem(ptr, i);
            if ffi::PyList_CheckExact(run) != 0 {
                for j in 0..ffi::PyList_Size(run) {
                    out.push(py, ffi::PyList_GetItem(run, j))?;
                }
            } else if ffi::PyTuple_CheckExact(run) != 0 {
                for j in 0..ffi::PyTuple_Size(run) {
                    out.push(py, ffi::PyTuple_GetItem(run, j))?;
                }
            } else {
                return None;
            }
        }
        starts.push(out.ends.len());
    }
    Some((out, starts))
}
