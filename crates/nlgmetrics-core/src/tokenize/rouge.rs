//! Tokenizers of the ROUGE family.
//!
//! - [`rouge_score_tokens`]: rouge-score 0.1.2 `tokenize.tokenize`: Python `str.lower()`,
//!   every run of characters outside `[a-z0-9]` becomes a separator, and with a stemmer,
//!   tokens longer than 3 characters are Porter-stemmed (NLTK_EXTENSIONS). Text in any
//!   script without ASCII letters or digits (Chinese, Japanese, Thai, ...) yields no
//!   token at all; that is rouge-score's behaviour and is kept for parity.
//! - [`unicode_tokens`]: nlgmetrics' named alternative for such text: Python
//!   lowercasing, then the core `unicode` tokenizer (ideographs, kana and Thai-like
//!   scripts by character, other scripts by word), keeping only tokens with at least one
//!   letter or digit. Only ASCII tokens are stemmed.
//! - [`rouge155_words`]: ROUGE-1.5.5.pl's cleaning of one (already lowercased and
//!   truncated) text: `s/-/ - /g; s/[^A-Za-z0-9\-]/ /g`, whitespace split, on bytes as
//!   Perl reads files without an encoding layer.

use crate::pystr::py_lower;
use crate::stem::porter_nltk;
use crate::tokenize::Tokenizer;
use rustc_hash::FxHashMap;

/// Tokens stored back to back in one buffer (no allocation per token), with a cache
/// of Porter stems (words repeat, stemming is the costly step).
#[derive(Default)]
pub struct Tokens {
    buf: String,
    ends: Vec<usize>,
    stems: FxHashMap<String, String>,
}

impl Tokens {
    pub fn clear(&mut self) {
        self.buf.clear();
        self.ends.clear();
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&e| {
            let t = &self.buf[start..e];
            start = e;
            t
        })
    }

    /// Close the token that starts at `start` (stemming it if asked and longer than 3
    /// characters); an empty token is dropped.
    fn close(&mut self, start: usize, stem: bool) {
        if self.buf.len() == start {
            return;
        }
        if stem && self.buf.len() - start > 3 && self.buf[start..].is_ascii() {
            let word = &self.buf[start..];
            let stemmed = match self.stems.get(word) {
                Some(s) => s.clone(),
                None => {
                    let s = porter_nltk::stem(word);
                    if self.stems.len() < 1 << 16 {
                        self.stems.insert(word.to_string(), s.clone());
                    }
                    s
                }
            };
            self.buf.truncate(start);
            self.buf.push_str(&stemmed);
        }
        self.ends.push(self.buf.len());
    }

    fn push(&mut self, tok: &str, stem: bool) {
        let start = self.buf.len();
        self.buf.push_str(tok);
        self.close(start, stem);
    }

    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
}

/// rouge-score's `tokenize(text, stemmer)`, appending to `out`.
pub fn rouge_score_tokens_into(text: &str, stem: bool, out: &mut Tokens) {
    if text.is_ascii() {
        // Fast path: bytes, and token boundaries found by slice scanning.
        for word in text.as_bytes().split(|b| !b.is_ascii_alphanumeric()) {
            if word.is_empty() {
                continue;
            }
            let start = out.buf.len();
            for &b in word {
                out.buf.push(b.to_ascii_lowercase() as char);
            }
            out.close(start, stem);
        }
        return;
    }
    let mut start = out.buf.len();
    for c in text.chars() {
        if c.is_ascii() {
            let l = c.to_ascii_lowercase();
            if l.is_ascii_alphanumeric() {
                out.buf.push(l);
            } else {
                out.close(start, stem);
                start = out.buf.len();
            }
        } else {
            // A few non-ASCII characters lower-case to ASCII letters in Python
            // (U+212A KELVIN SIGN -> 'k', U+0130 -> 'i' + U+0307): keep those letters.
            for l in c.to_lowercase() {
                if l.is_ascii_alphanumeric() {
                    out.buf.push(l);
                } else {
                    out.close(start, stem);
                    start = out.buf.len();
                }
            }
        }
    }
    out.close(start, stem);
}

/// rouge-score's `tokenize(text, stemmer)`.
pub fn rouge_score_tokens(text: &str, stem: bool, out: &mut Vec<String>) {
    let mut t = Tokens::default();
    rouge_score_tokens_into(text, stem, &mut t);
    *out = t.to_vec();
}

/// The `unicode` tokenizer with lowercasing, appending to `out`.
pub fn unicode_tokens_into(text: &str, stem: bool, out: &mut Tokens) {
    let lower = py_lower(text);
    let tokenized = Tokenizer::Unicode.tokenize(&lower);
    for tok in tokenized.split(' ') {
        if tok.chars().any(char::is_alphanumeric) {
            out.push(tok, stem);
        }
    }
}

/// The `unicode` tokenizer with lowercasing, dropping punctuation/symbol tokens.
pub fn unicode_tokens(text: &str, stem: bool, out: &mut Vec<String>) {
    let mut t = Tokens::default();
    unicode_tokens_into(text, stem, &mut t);
    *out = t.to_vec();
}

/// ROUGE-1.5.5's cleaning of a text into words (the callers filter and stem them).
pub fn rouge155_words(text: &[u8]) -> Vec<&[u8]> {
    // `-` becomes its own word; every byte outside [A-Za-z0-9-] a separator.
    let mut words = Vec::new();
    let mut start: Option<usize> = None;
    for (i, &b) in text.iter().enumerate() {
        if b.is_ascii_alphanumeric() {
            if start.is_none() {
                start = Some(i);
            }
        } else {
            if let Some(s) = start.take() {
                words.push(&text[s..i]);
            }
            if b == b'-' {
                words.push(&text[i..i + 1]);
            }
        }
    }
    if let Some(s) = start {
        words.push(&text[s..]);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str, stem: bool) -> Vec<String> {
        let mut v = Vec::new();
        rouge_score_tokens(s, stem, &mut v);
        v
    }

    #[test]
    fn rouge_score_tokenizer() {
        assert_eq!(toks("The quick-brown fox, 3.5!", false), ["the", "quick", "brown", "fox", "3", "5"]);
        assert_eq!(toks("café naïve", false), ["caf", "na", "ve"]);
        assert!(toks("我爱北京天安门", false).is_empty());
        assert_eq!(toks("\u{212A}elvin \u{130}stanbul", false), ["kelvin", "i", "stanbul"]);
        assert_eq!(toks("The runners were running quickly", true), ["the", "runner", "were", "run", "quickli"]);
    }

    #[test]
    fn unicode_tokenizer_keeps_cjk_and_thai() {
        let mut v = Vec::new();
        unicode_tokens("我爱北京。Hello, World", false, &mut v);
        assert_eq!(v, ["我", "爱", "北", "京", "hello", "world"]);
        unicode_tokens("สวัสดี", false, &mut v);
        assert!(!v.is_empty());
    }

    #[test]
    fn rouge155_cleaning() {
        let w: Vec<&[u8]> = rouge155_words(b"u.s. well-known $5");
        assert_eq!(w, [&b"u"[..], b"s", b"well", b"-", b"known", b"5"]);
    }
}
