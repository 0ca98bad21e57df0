//! Named tokenizers. Each name means exactly one behaviour, fixed to the tool it copies;
//! the output is the tokens joined by single spaces (as the reference tools produce it).

mod char_level;
mod categories;
pub mod rouge;
pub mod ptb;
mod intl;
mod mteval13a;
pub mod ter;
mod unicode;
mod zh;
pub mod jieba;

pub use mteval13a::{post_tokenize, token_spans_13a, tokenize_13a, tokenize_mteval_sgml};

use crate::error::{Error, Result};
use crate::pystr::py_split;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokenizer {
    /// Whitespace split only (sacrebleu `none`).
    None,
    /// mteval-v13a without lowercasing (sacrebleu `13a`).
    Mteval13a,
    /// mteval-v14 international (sacrebleu `intl`).
    Intl,
    /// sacrebleu `zh`, including its U+2001..U+2A6D range quirk.
    Zh,
    /// Every non-space character a token (sacrebleu `char`).
    Char,
    /// nlgmetrics' script-aware tokenizer: ideographs, kana and Thai-like scripts by
    /// character, everything else by word with punctuation and symbols split off.
    Unicode,
}

pub const TOKENIZER_NAMES: &[&str] = &["none", "13a", "intl", "zh", "char", "unicode"];

impl Tokenizer {
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name {
            "none" => Tokenizer::None,
            "13a" => Tokenizer::Mteval13a,
            "intl" => Tokenizer::Intl,
            "zh" => Tokenizer::Zh,
            "char" => Tokenizer::Char,
            "unicode" => Tokenizer::Unicode,
            _ => {
                return Err(Error::InvalidOption(format!(
                    "unknown tokenizer {name:?}; known: {}",
                    TOKENIZER_NAMES.join(", ")
                )))
            }
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::None => "none",
            Tokenizer::Mteval13a => "13a",
            Tokenizer::Intl => "intl",
            Tokenizer::Zh => "zh",
            Tokenizer::Char => "char",
            Tokenizer::Unicode => "unicode",
        }
    }

    /// Tokenize `line` into `out` (cleared first) as space-joined tokens.
    pub fn tokenize_into(self, line: &str, out: &mut String) {
        out.clear();
        match self {
            Tokenizer::None => join_split(line, out),
            Tokenizer::Mteval13a => tokenize_13a(line, out),
            Tokenizer::Intl => intl::tokenize(line, out),
            Tokenizer::Zh => zh::tokenize(line, out),
            Tokenizer::Char => char_level::tokenize(line, out),
            Tokenizer::Unicode => unicode::tokenize(line, out),
        }
    }

    pub fn tokenize(self, line: &str) -> String {
        let mut out = String::with_capacity(line.len() + 16);
        self.tokenize_into(line, &mut out);
        out
    }
}

/// `' '.join(line.split())` for ASCII bytes (Python's ASCII whitespace includes
/// \x1c-\x1f), validating the output once instead of token by token.
pub(crate) fn join_split_ascii(line: &[u8], out: &mut String) {
    let is_space = |b: &u8| matches!(b, b'\t'..=b'\r' | b'\x1c'..=b'\x1f' | b' ');
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.clear();
    for tok in line.split(is_space).filter(|t| !t.is_empty()) {
        if !bytes.is_empty() {
            bytes.push(b' ');
        }
        bytes.extend_from_slice(tok);
    }
    *out = String::from_utf8(bytes).expect("ASCII input gives ASCII output");
}

/// `' '.join(line.split())`
pub(crate) fn join_split(line: &str, out: &mut String) {
    if line.is_ascii() {
        join_split_ascii(line.as_bytes(), out);
        return;
    }
    for (i, tok) in py_split(line).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(tok);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in TOKENIZER_NAMES {
            assert_eq!(Tokenizer::from_name(name).unwrap().name(), *name);
        }
        assert!(Tokenizer::from_name("13b").is_err());
    }

    #[test]
    fn none_collapses_whitespace() {
        assert_eq!(Tokenizer::None.tokenize("  a\tb \u{3000}c "), "a b c");
    }
}
