//! Allocations whose size comes from the user (resample counts, pairwise matrices,
//! statistics of huge batches). Rust aborts the process when an allocation fails, so
//! these sizes are checked first: against the address space (`checked_mul`), against the
//! memory the system reports as available, and with `try_reserve`. A refusal unwinds
//! with the [`OutOfMemory`] payload, which the embedding layer turns into its own
//! memory error (Python's `MemoryError`).

/// The panic payload of a refused allocation: what it was for and how many bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfMemory {
    pub what: String,
    /// `None` when the size does not even fit in `usize`.
    pub bytes: Option<usize>,
}

impl std::fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.bytes {
            Some(b) => write!(f, "{} needs {:.1} GiB, more than this machine has available", self.what, b as f64 / (1u64 << 30) as f64),
            None => write!(f, "{} is larger than the address space", self.what),
        }
    }
}

/// Below this, sizes are only reserved (no look at the system's free memory).
const CHECK_AVAILABLE_ABOVE: usize = 64 << 20;

/// Bytes the system reports as available (Linux: `MemAvailable`), if known.
pub fn available_bytes() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// `Ok` if `count` values of `elem_bytes` each can be allocated; the refusal otherwise.
pub fn check(count: usize, elem_bytes: usize, what: &str) -> Result<(), OutOfMemory> {
    let refuse = |bytes| Err(OutOfMemory { what: what.to_string(), bytes });
    let Some(bytes) = count.checked_mul(elem_bytes).filter(|&b| b <= isize::MAX as usize) else {
        return refuse(None);
    };
    if bytes > CHECK_AVAILABLE_ABOVE && available_bytes().is_some_and(|avail| bytes > avail) {
        return refuse(Some(bytes));
    }
    Ok(())
}

/// Unwind with [`OutOfMemory`] unless `count` values of `T` fit (see [`check`]).
pub fn ensure<T>(count: usize, what: &str) {
    if let Err(oom) = check(count, std::mem::size_of::<T>(), what) {
        std::panic::resume_unwind(Box::new(oom));
    }
}

/// `vec![value; count]`, or an [`OutOfMemory`] unwind instead of an abort.
pub fn filled<T: Clone>(count: usize, value: T, what: &str) -> Vec<T> {
    ensure::<T>(count, what);
    let mut v = Vec::new();
    if v.try_reserve_exact(count).is_err() {
        let bytes = count.checked_mul(std::mem::size_of::<T>());
        std::panic::resume_unwind(Box::new(OutOfMemory { what: what.to_string(), bytes }));
    }
    v.resize(count, value);
    v
}

/// The panic payload of work refused by an explicit, documented cap (not by the memory the
/// system reports): the message names the input, the cap and why it exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitExceeded(pub String);

impl std::fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Unwind with [`LimitExceeded`] (the embedding layer's memory error).
pub fn refuse(message: String) -> ! {
    std::panic::resume_unwind(Box::new(LimitExceeded(message)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::catch_unwind;

    #[test]
    fn impossible_sizes_unwind_with_out_of_memory_instead_of_aborting() {
        for count in [usize::MAX, usize::MAX / 2, 1 << 50] {
            let err = catch_unwind(|| filled(count, 0u64, "test matrix")).unwrap_err();
            let oom = err.downcast_ref::<OutOfMemory>().expect("OutOfMemory payload");
            assert_eq!(oom.what, "test matrix");
        }
        assert_eq!(filled(3, 7u8, "small"), vec![7, 7, 7]);
    }
}
