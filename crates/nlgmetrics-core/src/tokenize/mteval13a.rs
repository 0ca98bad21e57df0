//! sacrebleu's `13a` tokenizer (mteval-v13a.pl without its lowercasing).
//!
//! The reference applies four regex substitutions in sequence. Each one matches at most
//! two characters and the characters it tests are ASCII; a multi-byte character only
//! ever plays the role of "not a digit", which its bytes are too. Every substitution only
//! puts spaces around one character, so the four passes reduce to one question per byte,
//! "does it stand alone?", answered in one scan (`mark_alone`) before one copying scan.
//! The literal pass-by-pass replay is kept in the tests as the oracle.

use super::join_split;
use std::cell::RefCell;

#[inline]
fn is_split_punct(b: u8) -> bool {
    // [\{-\~\[-\` -\&\(-\+\:-\@\/]
    matches!(b, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

#[cfg(test)]
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

#[cfg(test)]
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

const ALONE: u8 = 1;
const PASS2: u8 = 2;
const PASS3: u8 = 4;

#[inline]
fn is_period_comma(b: u8) -> bool {
    b == b'.' || b == b','
}

/// Flags per byte of `w`: `ALONE` where the four passes leave the byte as a token of its
/// own. `edge` is the byte beyond both ends (the wrapping space, if any).
///
/// Passes 2 and 3 isolate `.`/`,` and see the text after pass 1, where a split
/// punctuation neighbour reads as a space. Pass 2 (`([^0-9])([\.,])`) needs an
/// unconsumed non-digit on the left: a left `.`/`,` was consumed if pass 2 took it.
/// Pass 3 (`([\.,])([^0-9])`) needs a non-digit on the right as pass 2 left it (a space
/// after a pass-2 match), and the byte itself unconsumed by a pass-3 match just before.
/// Pass 4 (`([0-9])(-)`) isolates `-` after a digit; a digit is never consumed by it.
fn mark_alone(w: &[u8], edge: Option<u8>, st: &mut Vec<u8>) {
    let n = w.len();
    st.clear();
    st.resize(n, 0);
    let after_pass1 = |i: usize| if is_split_punct(w[i]) { b' ' } else { w[i] };
    let left = |p: usize| if p == 0 { edge } else { Some(after_pass1(p - 1)) };
    let right = |p: usize| if p + 1 >= n { edge } else { Some(after_pass1(p + 1)) };
    for p in 0..n {
        let b = w[p];
        if is_split_punct(b) || (b == b'-' && p >= 1 && w[p - 1].is_ascii_digit()) {
            st[p] = ALONE;
        } else if is_period_comma(b) {
            if let Some(l) = left(p) {
                let consumed = is_period_comma(l) && st[p - 1] & PASS2 != 0;
                if !l.is_ascii_digit() && !consumed {
                    st[p] |= PASS2 | ALONE;
                }
            }
        }
    }
    for p in 0..n {
        if !is_period_comma(w[p]) {
            continue;
        }
        let pass2 = st[p] & PASS2 != 0;
        let r = if pass2 {
            Some(b' ')
        } else {
            match right(p) {
                Some(r) if is_period_comma(r) && st[p + 1] & PASS2 != 0 => Some(b' '),
                r => r,
            }
        };
        let consumed = !pass2 && p >= 1 && is_period_comma(w[p - 1]) && st[p - 1] & (PASS2 | PASS3) == PASS3;
        if r.is_some_and(|r| !r.is_ascii_digit()) && !consumed {
            st[p] |= PASS3 | ALONE;
        }
    }
}

thread_local! {
    /// Scratch buffers per thread (flags, and the spaced text of non-ASCII lines), so a
    /// warm thread tokenizes without allocating.
    static BUFFERS: RefCell<(Vec<u8>, Vec<u8>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// TokenizerRegexp: the post-tokenizer shared by `13a` and `zh`.
pub fn post_tokenize(line: &str, out: &mut String) {
    post_tokenize_padded(line.as_bytes(), false, out);
}

/// `post_tokenize(" " + line + " ")` when `wrap`, without building that string.
fn post_tokenize_padded(src: &[u8], wrap: bool, out: &mut String) {
    BUFFERS.with(|cell| {
        let mut bufs = cell.borrow_mut();
        let (st, spaced) = &mut *bufs;
        mark_alone(src, wrap.then_some(b' '), st);
        let mut bytes = std::mem::take(spaced);
        bytes.clear();
        let mut in_token = false;
        for (&b, &f) in src.iter().zip(st.iter()) {
            if crate::pystr::is_py_space_byte(b) {
                in_token = false;
                continue;
            }
            if f & ALONE != 0 || !in_token {
                if !bytes.is_empty() {
                    bytes.push(b' ');
                }
                in_token = f & ALONE == 0;
            }
            bytes.push(b);
        }
        // Only ASCII bytes were inserted next to whole UTF-8 sequences.
        let text = String::from_utf8(bytes).expect("ASCII edits keep UTF-8 valid");
        if text.is_ascii() {
            // Hand the text over and keep the caller's old buffer for next time.
            *spaced = std::mem::replace(out, text).into_bytes();
        } else {
            // Python's split() also breaks at non-ASCII whitespace.
            out.clear();
            join_split(&text, out);
            *spaced = text.into_bytes();
        }
    });
}

/// Tokenizer13a.__call__
pub fn tokenize_13a(line: &str, out: &mut String) {
    if !line.bytes().any(|b| matches!(b, b'<' | b'\n' | b'&')) {
        // Nothing to replace: skip the string copies.
        post_tokenize_padded(line.as_bytes(), true, out);
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
    post_tokenize_padded(s.as_bytes(), true, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four passes literally, on `" " + line + " "` (`wrap`) or `line`.
    fn post_tokenize_passes(line: &str, wrap: bool) -> String {
        let w = if wrap { format!(" {line} ") } else { line.to_string() };
        let mut a = Vec::new();
        let mut b = Vec::new();
        pad_punctuation(w.as_bytes(), &mut a);
        sub_pairs(&a, &mut b, 2);
        a.clear();
        sub_pairs(&b, &mut a, 3);
        b.clear();
        sub_pairs(&a, &mut b, 4);
        let mut out = String::new();
        join_split(std::str::from_utf8(&b).unwrap(), &mut out);
        out
    }

    #[test]
    fn one_scan_equals_the_four_passes() {
        let alphabet = ["a", "7", ".", ",", "-", " ", "(", "$", "'", "é", "\u{3000}", "\t", "\x1c", "0"];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 11) as usize;
            let mut line = String::new();
            let mut x = seed >> 8;
            for _ in 0..len {
                line.push_str(alphabet[(x % alphabet.len() as u64) as usize]);
                x /= alphabet.len() as u64;
                if x == 0 {
                    x = seed.rotate_left(17) | 1;
                }
            }
            for wrap in [true, false] {
                let mut got = String::new();
                post_tokenize_padded(line.as_bytes(), wrap, &mut got);
                assert_eq!(got, post_tokenize_passes(&line, wrap), "{line:?} wrap={wrap}");
            }
        }
    }

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
