//! One module per metric family: statistics extraction and scoring.

pub mod bleu;
pub mod bleu_nltk;
pub mod distinct;
