//! Resampling for significance tests and confidence intervals.
//!
//! Every test works on per-segment statistics, never on text: a resample is an
//! *index-count matrix* (`n_resamples × n_segments`, how often each segment is drawn)
//! times the statistics matrix (`n_segments × width`). The metric then scores each row
//! of the product. Three ways to draw the counts live in [`rng`]:
//!
//! - multinomial (classic bootstrap: `n` draws with replacement per resample),
//! - Poisson(1) weights keyed by `(seed, segment id, resample)`, so that a segment gets the
//!   same weight whichever shard it sits in (bootstrap for distributed data),
//! - approximate-randomization swap masks.
//!
//! All draws come from Philox4x64-10 (Salmon et al., SC 2011), a counter-based generator:
//! the value for a given key and counter is a pure function, so results never depend on
//! the number of threads or on how the work is split.
//!
//! [`resample`] computes the products exactly (u64 counts; f64 sums exactly rounded) and,
//! for sacrebleu compatibility, with sacrebleu's float32 accumulation.
//! [`sacrebleu_compat`] scores float32 BLEU totals the way sacrebleu 2.6 does under NumPy 2.

pub mod resample;
pub mod rng;
pub mod sacrebleu_compat;
