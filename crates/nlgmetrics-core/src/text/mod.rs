//! One module per metric family: statistics extraction and scoring.

pub mod bleu;
pub mod edit;
pub mod nist;
pub mod per;
