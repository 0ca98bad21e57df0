//! Explicit, deterministic parallelism. Work is split into fixed chunks and results are
//! written back by position, so the output never depends on the number of threads.
//!
//! Resource bounds: a request for `n` threads is capped at [`max_threads`] (the
//! machine's parallelism), and pools are reused: besides rayon's global pool, at most
//! [`CACHED_POOLS`] sized pools stay alive (least recently used dropped first), so a
//! process never holds more than `(1 + CACHED_POOLS) * max_threads()` worker threads.
//! Long loops check for a requested interrupt before every row or item ([`crate::interrupt`]).

use crate::interrupt::Watch;
use rayon::prelude::*;
use std::sync::{Arc, Mutex, OnceLock};

/// Segments handed to one worker at a time (small enough to balance, large enough to
/// amortise scratch buffers).
pub const CHUNK: usize = 256;

/// Sized pools kept alive besides rayon's global pool.
pub const CACHED_POOLS: usize = 2;

/// The machine's parallelism (`std::thread::available_parallelism`, 1 if unknown).
pub fn max_threads() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}

/// The number of threads a request for `n_threads` runs on (0 = every core).
pub fn effective_threads(n_threads: usize) -> usize {
    match n_threads {
        0 => max_threads(),
        n => n.min(max_threads()),
    }
}

/// A pool of exactly `n` threads (`2 <= n <= max_threads()`), reused across calls.
fn pool(n: usize) -> Arc<rayon::ThreadPool> {
    static POOLS: OnceLock<Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>> = OnceLock::new();
    let mut pools = POOLS.get_or_init(|| Mutex::new(Vec::new())).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(at) = pools.iter().position(|(size, _)| *size == n) {
        let hit = pools.remove(at);
        pools.push(hit);
    } else {
        let built = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("nlgmetrics-{i}"))
            .build()
            .expect("thread pool");
        if pools.len() == CACHED_POOLS {
            // Its threads exit once running calls release their handles.
            pools.remove(0);
        }
        pools.push((n, Arc::new(built)));
    }
    pools.last().expect("just pushed").1.clone()
}

/// Run `f` on `n_threads` threads (0 = one per core, capped at the machine's
/// parallelism). `1` runs inline.
pub fn run<R: Send>(n_threads: usize, f: impl FnOnce() -> R + Send) -> R {
    let n = effective_threads(n_threads);
    if n_threads == 0 || n == 1 || n == rayon::current_num_threads() {
        // Inline, or rayon's global pool (or the pool we are already running on).
        f()
    } else {
        // the pool's thread runs `f` as part of this call (Ctrl-C checks deep inside it)
        let watch = crate::interrupt::Watch::current();
        pool(n).install(|| watch.scope(f))
    }
}

/// Map `f` over `0..n` in chunks with per-chunk scratch state, collecting `width` values
/// per item into one row-major vector. Errors are reported for the first failing item.
pub fn map_rows<T, S, E>(
    n: usize,
    width: usize,
    n_threads: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, usize, &mut [T]) -> Result<(), E> + Sync + Send,
) -> Result<Vec<T>, E>
where
    T: Default + Clone + Send,
    E: Send,
{
    let cells = n.checked_mul(width).unwrap_or(usize::MAX);
    let mut out = crate::memory::filled(cells, T::default(), "a result table");
    if n == 0 {
        return Ok(out);
    }
    let watch = Watch::current();
    let work = |out: &mut Vec<T>| -> Result<(), E> {
        if effective_threads(n_threads) == 1 || n <= CHUNK {
            let mut s = init();
            for (i, row) in out.chunks_mut(width.max(1)).enumerate().take(n) {
                watch.check();
                f(&mut s, i, row)?;
            }
            return Ok(());
        }
        out.par_chunks_mut(CHUNK * width.max(1))
            .enumerate()
            .try_for_each(|(c, block)| {
                watch.scope(|| {
                    let mut s = init();
                    for (j, row) in block.chunks_mut(width.max(1)).enumerate() {
                        // Per row, not per chunk: a pairwise row can be seconds of work.
                        watch.check();
                        f(&mut s, c * CHUNK + j, row)?;
                    }
                    Ok(())
                })
            })
    };
    run(n_threads, || watch.scope(|| work(&mut out)))?;
    Ok(out)
}

/// `f(state, i)` for `i` in `0..n` on `n_threads` threads (`1`: inline, in order), with
/// one `init()` state per worker task; the results in index order.
pub fn map_range<S, T: Send>(
    n: usize,
    n_threads: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, usize) -> T + Sync + Send,
) -> Vec<T> {
    let watch = Watch::current();
    let f = |s: &mut S, i: usize| {
        watch.check();
        watch.scope(|| f(s, i))
    };
    crate::memory::ensure::<T>(n, "a result list");
    if effective_threads(n_threads) == 1 {
        let mut s = init();
        return (0..n).map(|i| f(&mut s, i)).collect();
    }
    run(n_threads, || (0..n).into_par_iter().map_init(&init, f).collect())
}

/// `f(item)` for every item of `items` on `n_threads` threads (`1`: inline, in order).
pub fn for_each_mut<T: Send>(items: &mut [T], n_threads: usize, f: impl Fn(&mut T) + Sync + Send) {
    let watch = Watch::current();
    let f = |x: &mut T| {
        watch.check();
        watch.scope(|| f(x))
    };
    if effective_threads(n_threads) == 1 {
        items.iter_mut().for_each(f);
    } else {
        run(n_threads, || items.par_iter_mut().for_each(f));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_requests_are_capped_and_pools_bounded() {
        assert_eq!(effective_threads(0), max_threads());
        assert_eq!(effective_threads(1), 1);
        assert_eq!(effective_threads(usize::MAX), max_threads());
        for n in [usize::MAX, 1 << 40, 3, 2, 7, 2] {
            let seen = run(n, rayon::current_num_threads);
            assert!(seen <= max_threads().max(rayon::current_num_threads()));
        }
    }

    #[test]
    fn map_range_and_for_each_mut_keep_index_order_on_any_threads() {
        for threads in [0, 1, 2, 3] {
            let got = map_range(1000, threads, || 0usize, |calls, i| {
                *calls += 1;
                i * i
            });
            assert_eq!(got, (0..1000).map(|i| i * i).collect::<Vec<_>>());
            let mut items: Vec<usize> = (0..1000).collect();
            for_each_mut(&mut items, threads, |x| *x += 1);
            assert_eq!(items, (1..=1000).collect::<Vec<_>>());
        }
    }
}
