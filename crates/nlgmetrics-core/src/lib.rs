//! nlgmetrics-core: the numerics behind nlgmetrics, with no Python in sight.
//!
//! Every metric follows one shape: a batch of segments is turned into per-segment
//! *sufficient statistics* (plain integer or float vectors), statistics add up, and a
//! score is computed from (summed) statistics. Streaming, sharding, bootstrap and
//! significance tests all reuse that one path.

pub mod classification;
pub mod edit_distance;
pub mod error;
pub mod fsum;
pub mod interrupt;
pub mod memory;
pub mod ngram;
pub mod parallel;
pub mod retrieval;
pub mod pystr;
pub mod stem;
pub mod significance;
pub mod text;
pub mod tokenize;

pub use error::{Error, Result};
