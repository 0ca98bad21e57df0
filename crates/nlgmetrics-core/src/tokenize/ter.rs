//! sacrebleu's `TercomTokenizer` (a port of tercom's `Normalizer.java`), bit for bit.
//!
//! Steps, applied to the sentence as given (empty → empty); the TER metric right-strips
//! it first (`TER._preprocess_segment`), see [`preprocess_into`]:
//! 1. `lower()` unless `case_sensitive`;
//! 2. `normalized`: join lines, unescape four XML entities, pad with spaces, split ASCII
//!    punctuation, possessives, the 13a-style period/comma/dash rules; with
//!    `asian_support` also split CJK ideographs and Asian punctuation;
//! 3. `no_punct`: delete `.,?:;!"()` (and Asian/full-width punctuation with
//!    `asian_support`);
//! 4. `' '.join(sent.split())`.
//!
//! Each regular expression of the reference is a fixed two-character pattern or a
//! character class, so it is emulated by a left-to-right, non-overlapping scan, which
//! is exactly how `re.sub` applies it.

use crate::pystr::{py_lower, py_rstrip};
use crate::tokenize::join_split;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TercomOptions {
    pub normalized: bool,
    pub no_punct: bool,
    pub asian_support: bool,
    pub case_sensitive: bool,
}

/// `[{-~[-` -&(-+:-@/]`: the ASCII punctuation (and space) tercom pads with spaces.
/// Note what it leaves out: `'`, `,`, `-`, `.` and digits.
#[inline]
fn is_western_punct(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// The union of the CJK classes `_normalize_asian` pads (ideographs, strokes, radicals,
/// compatibility blocks, enclosed letters, Asian and full-width punctuation).
#[inline]
fn is_asian_split(c: char) -> bool {
    matches!(c,
        '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}' | '\u{31c0}'..='\u{31ef}' | '\u{2e80}'..='\u{2eff}'
        | '\u{3300}'..='\u{33ff}' | '\u{f900}'..='\u{faff}' | '\u{fe30}'..='\u{fe4f}' | '\u{3200}'..='\u{3f22}')
        || is_asian_punct(c)
        || is_full_width_punct(c)
}

#[inline]
fn is_asian_punct(c: char) -> bool {
    matches!(c, '\u{3001}' | '\u{3002}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}' | '\u{ff61}'..='\u{ff65}' | '\u{30fb}')
}

#[inline]
fn is_full_width_punct(c: char) -> bool {
    matches!(c, '\u{ff0e}' | '\u{ff0c}' | '\u{ff1f}' | '\u{ff1a}' | '\u{ff1b}' | '\u{ff01}' | '\u{ff02}' | '\u{ff08}' | '\u{ff09}')
}

#[inline]
fn is_removed_punct(c: char) -> bool {
    matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')')
}

/// Apply a two-character rewrite `(a, b) -> f(a, b)` left to right without overlap.
fn rewrite_pairs(chars: &[char], matches: impl Fn(char, char) -> bool, emit: impl Fn(char, char, &mut Vec<char>)) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len() + chars.len() / 4);
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() && matches(chars[i], chars[i + 1]) {
            emit(chars[i], chars[i + 1], &mut out);
            i += 2;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// `_normalize_general_and_western`.
fn normalize_western(sent: &str) -> Vec<char> {
    let s = sent.replace("\n-", "").replace('\n', " ");
    let s = s.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
    let mut chars: Vec<char> = Vec::with_capacity(s.len() * 2 + 2);
    // pad, then split the punctuation class (the padding spaces are in it too)
    for c in std::iter::once(' ').chain(s.chars()).chain(std::iter::once(' ')) {
        if is_western_punct(c) {
            chars.extend([' ', c, ' ']);
        } else {
            chars.push(c);
        }
    }
    // possessives: "'s " -> " 's "; the "'s$" rule never fires, the text ends in a space
    let mut poss = Vec::with_capacity(chars.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\'' && i + 2 < chars.len() && chars[i + 1] == 's' && chars[i + 2] == ' ' {
            poss.extend([' ', '\'', 's', ' ']);
            i += 3;
        } else {
            poss.push(chars[i]);
            i += 1;
        }
    }
    let is_digit = |c: char| c.is_ascii_digit();
    let pc = |c: char| c == '.' || c == ',';
    // period and comma unless preceded by a digit: ([^0-9])([\.,]) -> "\1 \2 "
    let a = rewrite_pairs(&poss, |x, y| !is_digit(x) && pc(y), |x, y, o| o.extend([x, ' ', y, ' ']));
    // period and comma unless followed by a digit: ([\.,])([^0-9]) -> " \1 \2"
    let b = rewrite_pairs(&a, |x, y| pc(x) && !is_digit(y), |x, y, o| o.extend([' ', x, ' ', y]));
    // dash after a digit: ([0-9])(-) -> "\1 \2 "
    rewrite_pairs(&b, |x, y| is_digit(x) && y == '-', |x, y, o| o.extend([x, ' ', y, ' ']))
}

/// `TER._preprocess_segment`: the tokenizer on the right-stripped sentence. Stripping
/// is not a no-op: `"40's\t"` keeps its possessive whole (`"'s "` needs a space after),
/// `"40's"` splits it.
pub fn preprocess_into(opts: TercomOptions, sent: &str, out: &mut String) {
    tokenize_into(opts, py_rstrip(sent), out);
}

/// `TercomTokenizer.__call__`: one sentence into `out` (cleared first), tokens joined
/// by single spaces.
pub fn tokenize_into(opts: TercomOptions, sent: &str, out: &mut String) {
    out.clear();
    if sent.is_empty() {
        return;
    }
    if !opts.normalized && !opts.no_punct && sent.is_ascii() {
        // the common case in one pass: Python's lower() of ASCII is ASCII's
        let mut bytes = std::mem::take(out).into_bytes();
        let is_space = |b: &u8| matches!(b, b'\t'..=b'\r' | b'\x1c'..=b'\x1f' | b' ');
        for tok in sent.as_bytes().split(is_space).filter(|t| !t.is_empty()) {
            if !bytes.is_empty() {
                bytes.push(b' ');
            }
            let at = bytes.len();
            bytes.extend_from_slice(tok);
            if !opts.case_sensitive {
                bytes[at..].make_ascii_lowercase();
            }
        }
        *out = String::from_utf8(bytes).expect("ASCII input gives ASCII output");
        return;
    }
    let lowered;
    let sent = if opts.case_sensitive {
        sent
    } else {
        lowered = py_lower(sent);
        lowered.as_str()
    };
    if !opts.normalized && !opts.no_punct {
        join_split(sent, out);
        return;
    }
    let mut chars: Vec<char> = if opts.normalized { normalize_western(sent) } else { sent.chars().collect() };
    if opts.normalized && opts.asian_support {
        // the kana rules are anchored at the start of the string, which is a padding
        // space after the western step, so they never fire; only the classes remain
        let mut padded = Vec::with_capacity(chars.len() * 2);
        for &c in &chars {
            if is_asian_split(c) {
                padded.extend([' ', c, ' ']);
            } else {
                padded.push(c);
            }
        }
        chars = padded;
    }
    if opts.no_punct {
        chars.retain(|&c| !(is_removed_punct(c) || (opts.asian_support && (is_asian_punct(c) || is_full_width_punct(c)))));
    }
    let s: String = chars.into_iter().collect();
    join_split(&s, out);
}

pub fn tokenize(opts: TercomOptions, sent: &str) -> String {
    let mut out = String::new();
    tokenize_into(opts, sent, &mut out);
    out
}

pub fn preprocess(opts: TercomOptions, sent: &str) -> String {
    let mut out = String::new();
    preprocess_into(opts, sent, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm() -> TercomOptions {
        TercomOptions { normalized: true, ..Default::default() }
    }

    #[test]
    fn default_lowercases_and_collapses() {
        assert_eq!(tokenize(TercomOptions::default(), "  The CAT\tsat.  "), "the cat sat.");
        let cs = TercomOptions { case_sensitive: true, ..Default::default() };
        assert_eq!(tokenize(cs, "The CAT"), "The CAT");
        assert_eq!(tokenize(TercomOptions::default(), " \n "), "");
    }

    #[test]
    fn normalized_rules() {
        assert_eq!(tokenize(norm(), "It's John's (big) dog."), "it 's john 's ( big ) dog .");
        assert_eq!(tokenize(norm(), "3.5 and 1,000, a.b"), "3.5 and 1,000 , a . b");
        assert_eq!(tokenize(norm(), "1990-2000 a-b"), "1990 - 2000 a-b");
        assert_eq!(tokenize(norm(), "a &amp;lt; b &quot;c&quot;"), "a < b \" c \"");
        assert_eq!(tokenize(norm(), "line\n-break\nnext"), "linebreak next");
    }

    #[test]
    fn the_metric_strips_the_tokenizer_does_not() {
        // "'s " needs a literal space after it; a trailing tab is not one
        assert_eq!(tokenize(norm(), "40's\t"), "40's");
        assert_eq!(tokenize(norm(), "40's\r"), "40's");
        assert_eq!(preprocess(norm(), "40's\t"), "40 's");
        assert_eq!(tokenize(norm(), "40's\n"), "40 's");
        assert_eq!(tokenize(norm(), "a's\u{a0}"), "a's");
    }

    #[test]
    fn no_punct_and_asian() {
        let np = TercomOptions { no_punct: true, ..Default::default() };
        assert_eq!(tokenize(np, "Hello, (world)! 你好。"), "hello world 你好。");
        let asian = TercomOptions { no_punct: true, asian_support: true, ..Default::default() };
        assert_eq!(tokenize(asian, "Hello, 你好。"), "hello 你好");
        let both = TercomOptions { normalized: true, asian_support: true, ..Default::default() };
        assert_eq!(tokenize(both, "我爱ひらがな。"), "我 爱 ひらがな 。");
    }
}
