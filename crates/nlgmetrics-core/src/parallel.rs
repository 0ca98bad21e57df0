//! Explicit, deterministic parallelism. Work is split into fixed chunks and results are
//! written back by position, so the output never depends on the number of threads.

use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Segments handed to one worker at a time (small enough to balance, large enough to
/// amortise scratch buffers).
pub const CHUNK: usize = 256;

fn pool(n_threads: usize) -> Arc<rayon::ThreadPool> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut guard = pools.lock().unwrap_or_else(|e| e.into_inner());
    guard
        .entry(n_threads)
        .or_insert_with(|| {
            Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n_threads)
                    .build()
                    .expect("thread pool"),
            )
        })
        .clone()
}

/// Run `f` on `n_threads` threads (0 = one per core). `1` runs inline.
pub fn run<R: Send>(n_threads: usize, f: impl FnOnce() -> R + Send) -> R {
    match n_threads {
        1 => f(),
        0 => f(),
        n => pool(n).install(f),
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
    let mut out = vec![T::default(); n * width];
    if n == 0 {
        return Ok(out);
    }
    let work = |out: &mut Vec<T>| -> Result<(), E> {
        if n_threads == 1 || n <= CHUNK {
            let mut s = init();
            for (i, row) in out.chunks_mut(width.max(1)).enumerate().take(n) {
                f(&mut s, i, row)?;
            }
            return Ok(());
        }
        out.par_chunks_mut(CHUNK * width.max(1))
            .enumerate()
            .try_for_each(|(c, block)| {
                let mut s = init();
                for (j, row) in block.chunks_mut(width.max(1)).enumerate() {
                    f(&mut s, c * CHUNK + j, row)?;
                }
                Ok(())
            })
    };
    run(n_threads, || work(&mut out))?;
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
    if n_threads == 1 {
        let mut s = init();
        return (0..n).map(|i| f(&mut s, i)).collect();
    }
    run(n_threads, || (0..n).into_par_iter().map_init(&init, |s, i| f(s, i)).collect())
}

/// `f(item)` for every item of `items` on `n_threads` threads (`1`: inline, in order).
pub fn for_each_mut<T: Send>(items: &mut [T], n_threads: usize, f: impl Fn(&mut T) + Sync + Send) {
    if n_threads == 1 {
        items.iter_mut().for_each(f);
    } else {
        run(n_threads, || items.par_iter_mut().for_each(f));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
