//! sacrebleu's `13a` tokenizer (mteval-v13a.pl without its lowercasing).
//!
//! The reference applies four regex substitutions in sequence. Each one matches at most
//! two characters and the characters it tests are ASCII, so each pass is replayed here as
//! one left-to-right byte scan with Python's non-overlapping `re.sub` semantics; a
//! multi-byte character only ever plays the role of "not a digit", which its bytes are too.

use super::join_split;

#[inline]
fn is_split_punct(b: u8) -> bool {
    // [\{-\~\[-\` -\&\(-\+\:-\@\/]
    matches!(b, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

/// TokenizerRegexp: the post-tokenizer shared by `13a` and `zh`.
pub fn post_tokenize(line: &str, out: &mut String) {
    let src = line.as_bytes();
    let mut a: Vec<u8> = Vec::with_capacity(src.len() * 2 + 8);
    // 1: ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> " \1 "
    for &b in src {
        if is_split_punct(b) {
            a.extend_from_slice(&[b' ', b, b' ']);
        } else {
            a.push(b);
        }
    }
    // 2: ([^0-9])([\.,]) -> "\1 \2 "
    let mut b_ = Vec::with_capacity(a.len() + 8);
    let mut i = 0;
    while i < a.len() {
        if i + 1 < a.len() && !a[i].is_ascii_digit() && matches!(a[i + 1], b'.' | b',') {
            b_.extend_from_slice(&[a[i], b' ', a[i + 1], b' ']);
            i += 2;
        } else {
            b_.push(a[i]);
            i += 1;
        }
    }
    // 3: ([\.,])([^0-9]) -> " \1 \2"
    a.clear();
    i = 0;
    while i < b_.len() {
        if i + 1 < b_.len() && matches!(b_[i], b'.' | b',') && !b_[i + 1].is_ascii_digit() {
            a.extend_from_slice(&[b' ', b_[i], b' ', b_[i + 1]]);
            i += 2;
        } else {
            a.push(b_[i]);
            i += 1;
        }
    }
    // 4: ([0-9])(-) -> "\1 \2 "
    b_.clear();
    i = 0;
    while i < a.len() {
        if i + 1 < a.len() && a[i].is_ascii_digit() && a[i + 1] == b'-' {
            b_.extend_from_slice(&[a[i], b' ', b'-', b' ']);
            i += 2;
        } else {
            b_.push(a[i]);
            i += 1;
        }
    }
    // Only ASCII bytes were inserted next to whole UTF-8 sequences.
    let s = std::str::from_utf8(&b_).expect("ASCII edits keep UTF-8 valid");
    join_split(s, out);
}

/// Tokenizer13a.__call__
pub fn tokenize_13a(line: &str, out: &mut String) {
    let mut s = line.replace("<skipped>", "").replace("-\n", "").replace('\n', " ");
    if s.contains('&') {
        s = s
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
    }
    let wrapped = format!(" {s} ");
    post_tokenize(&wrapped, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str) -> String {
        let mut o = String::new();
        tokenize_13a(s, &mut o);
        o
    }

    #[test]
    fn known_outputs() {
        assert_eq!(tok("The cat sat on the mat."), "The cat sat on the mat .");
        assert_eq!(tok("It costs $3,000.50, right?"), "It costs $ 3,000.50 , right ?");
        assert_eq!(tok("1990-2000 and well-known"), "1990 - 2000 and well-known");
        assert_eq!(tok("a.,b"), "a . , b");
        assert_eq!(tok("&quot;Hi&quot; &amp;amp;"), "\" Hi \" & amp ;");
        assert_eq!(tok("don't “quote”"), "don't “quote”");
        assert_eq!(tok("x<skipped>y"), "xy");
        assert_eq!(tok("é.b"), "é . b");
    }
}
