//! One error type for everything the core can reject. User input never panics.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Two inputs that must align do not (e.g. predictions vs references).
    LengthMismatch { what: String, left: usize, right: usize },
    /// A segment has no reference to compare against.
    MissingReference { index: usize },
    /// An option name or value is not understood.
    InvalidOption(String),
    /// The input is well-formed but cannot be scored (empty corpus, NaN, ...).
    InvalidInput(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::LengthMismatch { what, left, right } => {
                write!(f, "{what}: lengths differ ({left} vs {right})")
            }
            Error::MissingReference { index } => {
                write!(f, "segment {index} has no reference")
            }
            Error::InvalidOption(msg) | Error::InvalidInput(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {}
