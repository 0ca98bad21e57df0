//! sacrebleu's `13a` tokenizer (mteval-v13a.pl without its lowercasing).
//!
//! The reference applies four regex substitutions in sequence. Each one matches at most
//! two characters and the characters it tests are ASCII; a multi-byte character only
//! ever plays the role of "not a digit", which its bytes are too. Every substitution only
//! puts spaces around one character, so the four passes reduce to one question per byte,
//! "does it stand alone?", answered while copying in one scan.
//! The literal pass-by-pass replay is kept in the tests as the oracle.

use super::join_split;

#[inline]
const fn is_split_punct(b: u8) -> bool {
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

const SPLIT: u8 = 1;
const DIGIT: u8 = 2;
const PERIOD_COMMA: u8 = 4;
const SPACE: u8 = 8;
const DASH: u8 = 16;

const fn class_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if matches!(b, b'\t'..=b'\r' | b'\x1c'..=b'\x1f' | b' ') {
            SPACE
        } else if is_split_punct(b) {
            SPLIT
        } else if b.is_ascii_digit() {
            DIGIT
        } else if b == b'.' || b == b',' {
            PERIOD_COMMA
        } else if b == b'-' {
            DASH
        } else {
            0
        };
        i += 1;
    }
    t
}

/// What each byte can do in the four passes (Python whitespace first).
static CLASS: [u8; 256] = class_table();

/// What a byte can do; with `PERL_SPACE`, Perl's `\s`, which (unlike Python's
/// whitespace) leaves the separators U+001C..U+001F inside tokens.
#[inline]
fn class<const PERL_SPACE: bool>(b: u8) -> u8 {
    if PERL_SPACE && matches!(b, b'\x1c'..=b'\x1f') {
        0
    } else {
        CLASS[b as usize]
    }
}

/// Perl's `\s` on a character string (Unicode White_Space minus nothing Python adds):
/// Python's whitespace without U+001C..U+001F.
#[inline]
fn is_perl_space(c: char) -> bool {
    crate::pystr::is_py_space(c) && !matches!(c, '\x1c'..='\x1f')
}

/// TokenizerRegexp: the post-tokenizer shared by `13a` and `zh`.
pub fn post_tokenize(line: &str, out: &mut String) {
    post_tokenize_padded::<false>(line.as_bytes(), false, out);
}

/// `post_tokenize(" " + line + " ")` when `wrap`, without building that string.
///
/// One scan decides for each byte whether the passes leave it standing alone. Split
/// punctuation always does; `-` does after a digit (pass 4; a digit is never consumed
/// by it). A `.`/`,` does if pass 2 or pass 3 takes it. Both see the text after pass 1,
/// where split punctuation reads as a space. Pass 2 (`([^0-9])([\.,])`) needs an
/// unconsumed non-digit on the left; a left `.`/`,` is consumed iff pass 2 took it.
/// Pass 3 (`([\.,])([^0-9])`) needs a non-digit on the right as pass 2 left it (a space
/// once pass 2 took this byte or a `.`/`,` right after it, which it then always does),
/// and this byte not consumed by a pass-3 match of the byte before.
fn post_tokenize_padded<const PERL_SPACE: bool>(src: &[u8], wrap: bool, out: &mut String) {
    let edge = wrap.then_some(b' ');
    let n = src.len();
    let after_pass1 = |i: usize| if class::<PERL_SPACE>(src[i]) == SPLIT { b' ' } else { src[i] };
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.clear();
    bytes.reserve(n + n / 2);
    let (mut prev_pass2, mut prev_pass3) = (false, false);
    let mut in_token = false;
    let mut p = 0;
    while p < n {
        let c = class::<PERL_SPACE>(src[p]);
        if c == 0 || c == DIGIT {
            // A run of bytes no pass touches.
            let start = p;
            p += 1;
            while p < n && matches!(class::<PERL_SPACE>(src[p]), 0 | DIGIT) {
                p += 1;
            }
            if !in_token {
                if !bytes.is_empty() {
                    bytes.push(b' ');
                }
                in_token = true;
            }
            bytes.extend_from_slice(&src[start..p]);
            (prev_pass2, prev_pass3) = (false, false);
            continue;
        }
        let alone = match c {
            SPACE => {
                in_token = false;
                (prev_pass2, prev_pass3) = (false, false);
                p += 1;
                continue;
            }
            SPLIT => true,
            DASH => p >= 1 && src[p - 1].is_ascii_digit(),
            _ => {
                let left = if p == 0 { edge } else { Some(after_pass1(p - 1)) };
                let left_pc = p >= 1 && class::<PERL_SPACE>(src[p - 1]) == PERIOD_COMMA;
                let pass2 = left.is_some_and(|l| !l.is_ascii_digit()) && !(left_pc && prev_pass2);
                let right = if pass2 {
                    Some(b' ')
                } else if p + 1 >= n {
                    edge
                } else if class::<PERL_SPACE>(src[p + 1]) == PERIOD_COMMA {
                    Some(b' ')
                } else {
                    Some(after_pass1(p + 1))
                };
                let consumed = !pass2 && left_pc && !prev_pass2 && prev_pass3;
                let pass3 = right.is_some_and(|r| !r.is_ascii_digit()) && !consumed;
                (prev_pass2, prev_pass3) = (pass2, pass3);
                pass2 || pass3
            }
        };
        if c != PERIOD_COMMA {
            (prev_pass2, prev_pass3) = (false, false);
        }
        if alone || !in_token {
            if !bytes.is_empty() {
                bytes.push(b' ');
            }
            in_token = !alone;
        }
        bytes.push(src[p]);
        p += 1;
    }
    // Only ASCII bytes were inserted next to whole UTF-8 sequences.
    let text = String::from_utf8(bytes).expect("ASCII edits keep UTF-8 valid");
    if text.is_ascii() {
        *out = text;
    } else if PERL_SPACE {
        // mteval's s/\s+/ /g also joins at non-ASCII whitespace.
        out.clear();
        for (i, tok) in text.split(is_perl_space).filter(|t| !t.is_empty()).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(tok);
        }
    } else {
        // Python's split() also breaks at non-ASCII whitespace.
        join_split(&text, out);
    }
}

/// Tokenizer13a.__call__
pub fn tokenize_13a(line: &str, out: &mut String) {
    if !line.bytes().any(|b| matches!(b, b'<' | b'\n' | b'&')) {
        // Nothing to replace: skip the string copies.
        post_tokenize_padded::<false>(line.as_bytes(), true, out);
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
    post_tokenize_padded::<false>(s.as_bytes(), true, out);
}

/// mteval-v13a.pl's `tokenization` of a segment of raw text as the script reads it from
/// NIST SGML written with `&`, `<` and `>` escaped (the only way to carry arbitrary text
/// into its input). The script's entity pass then restores the escaped text and, decoding
/// in the order `&quot;`, `&amp;`, `&lt;`, `&gt;`, also turns a literal `&lt;` / `&gt;` of
/// the raw text into `<` / `>` (a literal `&amp;` or `&quot;` stays: its `&` was escaped).
/// `<skipped>` is never stripped (its `<` arrives escaped) and the SGML reader has already
/// made every newline a space. Whitespace is Perl's `\s`, which keeps U+001C..U+001F inside
/// tokens. No lowercasing (the caller applies mteval's ASCII-only `tr/A-Z/a-z/`).
pub fn tokenize_mteval_sgml(line: &str, out: &mut String) {
    if line.contains('&') {
        let s = line.replace("&lt;", "<").replace("&gt;", ">");
        post_tokenize_padded::<true>(s.as_bytes(), true, out);
    } else {
        post_tokenize_padded::<true>(line.as_bytes(), true, out);
    }
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
                post_tokenize_padded::<false>(line.as_bytes(), wrap, &mut got);
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

    fn mteval_sgml(s: &str) -> String {
        let mut o = String::new();
        tokenize_mteval_sgml(s, &mut o);
        o
    }

    /// Outputs of mteval-v13a.pl (`-d 3`) on these segments written as escaped SGML.
    #[test]
    fn mteval_sgml_known_outputs() {
        assert_eq!(mteval_sgml("&quot;Hi&quot; &amp;amp; &lt;b&gt;"), "& quot ; Hi & quot ; & amp ; amp ; < b >");
        assert_eq!(mteval_sgml("x<skipped>y"), "x < skipped > y");
        assert_eq!(mteval_sgml("a\x1cb\u{3000}c\u{85}d \x1f"), "a\x1cb c d \x1f");
        assert_eq!(mteval_sgml("1990-2000, 3,000.50."), "1990 - 2000 , 3,000.50 .");
        assert_eq!(mteval_sgml("é.b\u{a0}Σ"), "é . b Σ");
        assert_eq!(mteval_sgml(""), "");
    }
}
