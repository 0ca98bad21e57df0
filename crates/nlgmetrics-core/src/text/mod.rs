//! One module per metric family: statistics extraction and scoring.

pub mod bleu;
pub mod meteor;
