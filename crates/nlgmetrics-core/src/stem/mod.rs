//! Stemmers, each an exact port of the one a reference tool uses.
//!
//! - [`porter_nltk`]: NLTK's `PorterStemmer` in `NLTK_EXTENSIONS` mode (rouge-score).
//! - [`porter_rouge155`]: the Perl Porter stemmer inside ROUGE-1.5.5.pl.

pub mod porter_nltk;
pub mod porter_rouge155;
