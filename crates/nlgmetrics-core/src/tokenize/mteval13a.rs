//! sacrebleu's `13a` tokenizer (mteval-v13a.pl without its lowercasing).
//!
//! The reference applies four regex substitutions in sequence. Each one matches at most
//! two characters and the characters it tests are ASCII, so each pass is replayed here as
//! one left-to-right byte scan with Python's non-overlapping `re.sub` semantics; a
//! multi-byte character only ever plays the role of "not a digit", which its bytes are too.

use super::{join_split, join_split_ascii};

#[inline]
fn is_split_punct(b: u8) -> bool {
    // [\{-\~\[-\` -\&\(-\+\:-\@\/]
    matches!(b, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

/// Pass 1: `([\{-\~\[-\` -\&\(-\+\:-\@\/])` -> `" \1 "`.
fn pad_punctuation(src: &[u8], dst: &mut Vec<u8>) {
    let mut from = 0;
    for (p, &b) in src.iter().enumerate() {
        if is_split_punct(b) {
            dst.extend_from_slice(&src[from..p]);
            dst.extend_from_slice(&[b' ', b, b' ']);
            from = p + 1;
        }
    }
    dst.extend_from_slice(&src[from..]);
}

/// Passes 2-4 each match a two-byte pattern anchored on one special byte. `re.sub`
/// scans left to right and a match consumes both bytes, so a candidate only matches
/// when its first byte has not been consumed by the previous match.
fn sub_pairs(src: &[u8], dst: &mut Vec<u8>, pass: u8) {
    let mut from = 0; // first byte not yet copied (= not consumed)
    for (p, &b) in src.iter().enumerate() {
        match pass {
            // ([^0-9])([\.,]) -> "\1 \2 "
            2 if (b == b'.' || b == b',') && p >= 1 && p > from && !src[p - 1].is_ascii_digit() => {
                dst.extend_from_slice(&src[from..p]);
                dst.extend_from_slice(&[b' ', b, b' ']);
                from = p + 1;
            }
            // ([\.,])([^0-9]) -> " \1 \2"
            3 if (b == b'.' || b == b',') && p >= from && p + 1 < src.len() && !src[p + 1].is_ascii_digit() => {
                dst.extend_from_slice(&src[from..p]);
                dst.extend_from_slice(&[b' ', b, b' ', src[p + 1]]);
                from = p + 2;
            }
            // ([0-9])(-) -> "\1 \2 "
            4 if b == b'-' && p >= 1 && p > from && src[p - 1].is_ascii_digit() => {
                dst.extend_from_slice(&src[from..p]);
                dst.extend_from_slice(b" - ");
                from = p + 1;
            }
            _ => {}
        }
    }
    if from < src.len() {
        dst.extend_from_slice(&src[from..]);
    }
}

/// TokenizerRegexp: the post-tokenizer shared by `13a` and `zh`.
pub fn post_tokenize(line: &str, out: &mut String) {
    let src = line.as_bytes();
    let mut a: Vec<u8> = Vec::with_capacity(src.len() * 2 + 8);
    let mut b: Vec<u8> = Vec::with_capacity(src.len() * 2 + 8);
    pad_punctuation(src, &mut a);
    let has = |v: &[u8], x: u8| v.contains(&x);
    if has(&a, b'.') || has(&a, b',') {
        sub_pairs(&a, &mut b, 2);
        a.clear();
        sub_pairs(&b, &mut a, 3);
    }
    if has(&a, b'-') {
        b.clear();
        sub_pairs(&a, &mut b, 4);
        std::mem::swap(&mut a, &mut b);
    }
    if a.is_ascii() {
        join_split_ascii(&a, out);
    } else {
        // Only ASCII bytes were inserted next to whole UTF-8 sequences.
        let s = std::str::from_utf8(&a).expect("ASCII edits keep UTF-8 valid");
        join_split(s, out);
    }
}

/// Tokenizer13a.__call__
pub fn tokenize_13a(line: &str, out: &mut String) {
    if !line.bytes().any(|b| matches!(b, b'<' | b'\n' | b'&')) {
        // Nothing to replace: skip the string copies.
        let mut wrapped = String::with_capacity(line.len() + 2);
        wrapped.push(' ');
        wrapped.push_str(line);
        wrapped.push(' ');
        post_tokenize(&wrapped, out);
        return;
    }
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
