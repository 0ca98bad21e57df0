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

/// The first position at or after `p` whose byte is not an ASCII letter, an ASCII
/// digit or part of a multi-byte character (`src.len()` if none): every byte before it
/// is one the passes leave alone. The bytes it stops at may still be such (an
/// apostrophe, a control character): the caller asks [`CLASS`].
#[inline]
fn next_unusual(src: &[u8], mut p: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // SSE2 is part of x86_64: sixteen bytes per step.
        use std::arch::x86_64::*;
        while p + 16 <= src.len() {
            // SAFETY: the 16 bytes at `p` lie inside `src` (checked above); the loads are unaligned.
            let mask = unsafe {
                let v = _mm_loadu_si128(src.as_ptr().add(p) as *const __m128i);
                // Letters: (v | 0x20) - 'a' < 26 as unsigned, i.e. + (128 - 'a') < -128 + 26 signed.
                let folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
                let letter = _mm_cmplt_epi8(_mm_add_epi8(folded, _mm_set1_epi8(31)), _mm_set1_epi8(-102));
                // Digits: v + (128 - '0') < -128 + 10.
                let digit = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(80)), _mm_set1_epi8(-118));
                let high = _mm_cmplt_epi8(v, _mm_setzero_si128());
                let usual = _mm_or_si128(_mm_or_si128(letter, digit), high);
                !(_mm_movemask_epi8(usual) as u32) & 0xFFFF
            };
            if mask != 0 {
                return p + mask.trailing_zeros() as usize;
            }
            p += 16;
        }
    }
    while p < src.len() && (src[p].is_ascii_alphanumeric() || src[p] >= 0x80) {
        p += 1;
    }
    p
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
fn post_tokenize_padded<const PERL_SPACE: bool>(src: &[u8], wrap: bool, out: &mut String) {
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.clear();
    bytes.reserve(src.len() + src.len() / 2);
    scan_tokens::<PERL_SPACE, false>(src, wrap, |start, end| {
        if !bytes.is_empty() {
            bytes.push(b' ');
        }
        bytes.extend_from_slice(&src[start..end]);
    });
    // Tokens are whole UTF-8 sequences: every cut is next to an ASCII byte.
    let text = String::from_utf8(bytes).expect("cuts at ASCII bytes keep UTF-8 valid");
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

/// The tokens of the four passes on `src` (on `" " + src + " "` when `wrap`) before the
/// final split at non-ASCII whitespace, as byte ranges `f(start, end)` of `src`, in order.
///
/// One scan decides for each byte whether the passes leave it standing alone. Split
/// punctuation always does; `-` does after a digit (pass 4; a digit is never consumed
/// by it). A `.`/`,` does if pass 2 or pass 3 takes it. Both see the text after pass 1,
/// where split punctuation reads as a space. Pass 2 (`([^0-9])([\.,])`) needs an
/// unconsumed non-digit on the left; a left `.`/`,` is consumed iff pass 2 took it.
/// Pass 3 (`([\.,])([^0-9])`) needs a non-digit on the right as pass 2 left it (a space
/// once pass 2 took this byte or a `.`/`,` right after it, which it then always does),
/// and this byte not consumed by a pass-3 match of the byte before. Every other byte
/// joins its neighbours, so each token is a contiguous range of `src`.
///
/// With `STOP_AT_REPLACED`, stops and returns `false` at the first `<`, `&` or newline
/// (bytes that `Tokenizer13a`'s replacements may change), so raw text needs no separate
/// scan for them; otherwise returns `true`.
#[inline]
fn scan_tokens<const PERL_SPACE: bool, const STOP_AT_REPLACED: bool>(
    src: &[u8],
    wrap: bool,
    mut f: impl FnMut(usize, usize),
) -> bool {
    const NONE: usize = usize::MAX;
    let edge = wrap.then_some(b' ');
    let n = src.len();
    let after_pass1 = |i: usize| if class::<PERL_SPACE>(src[i]) == SPLIT { b' ' } else { src[i] };
    let (mut prev_pass2, mut prev_pass3) = (false, false);
    let mut token = NONE; // start of the token being read
    let mut p = 0;
    let mut steps = 0usize;
    while p < n {
        // One huge line stays interruptible.
        steps += 1;
        crate::interrupt::check_every(steps);
        // A run of bytes no pass touches.
        let q = next_unusual(src, p);
        if q > p {
            if token == NONE {
                token = p;
            }
            (prev_pass2, prev_pass3) = (false, false);
            p = q;
            if p == n {
                break;
            }
        }
        let c = class::<PERL_SPACE>(src[p]);
        if c == 0 || c == DIGIT {
            // Rare bytes that the quick test does not know (an apostrophe, a control).
            if token == NONE {
                token = p;
            }
            (prev_pass2, prev_pass3) = (false, false);
            p += 1;
            continue;
        }
        if STOP_AT_REPLACED && matches!(src[p], b'<' | b'&' | b'\n') {
            return false;
        }
        let alone = match c {
            SPACE => {
                if token != NONE {
                    f(token, p);
                    token = NONE;
                }
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
        if alone {
            if token != NONE {
                f(token, p);
                token = NONE;
            }
            f(p, p + 1);
        } else if token == NONE {
            token = p;
        }
        p += 1;
    }
    if token != NONE {
        f(token, n);
    }
    true
}

/// The text 13a's passes read: `line`, or `buf` holding it after `Tokenizer13a`'s
/// replacements (`<skipped>`, hyphenated line ends, newlines, four entities).
pub fn replaced_13a<'a>(line: &'a str, buf: &'a mut String) -> &'a str {
    if !line.bytes().any(|b| matches!(b, b'<' | b'\n' | b'&')) {
        // Nothing to replace: no copy.
        return line;
    }
    let mut s = line.replace("<skipped>", "").replace("-\n", "").replace('\n', " ");
    if s.contains('&') {
        s = s
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
    }
    *buf = s;
    buf
}

/// The tokens of `Tokenizer13a` on `line` (the tokens of [`tokenize_13a`], without
/// building its string), as byte ranges of the returned text (`line`, or `buf` holding
/// it after [`replaced_13a`]'s replacements) appended to `spans`.
pub fn token_spans_13a<'a>(line: &'a str, buf: &'a mut String, spans: &mut Vec<(u32, u32)>) -> &'a str {
    let first = spans.len();
    let mut push = |s: usize, e: usize| spans.push((s as u32, e as u32));
    let text = if scan_tokens::<false, true>(line.as_bytes(), true, &mut push) {
        line
    } else {
        // Rare: scan again after the replacements.
        spans.truncate(first);
        let text = replaced_13a(line, buf);
        scan_tokens::<false, false>(text.as_bytes(), true, |s, e| spans.push((s as u32, e as u32)));
        text
    };
    if !text.is_ascii() {
        // Python's split() also breaks at non-ASCII whitespace, inside what the passes
        // left whole; the cut points are whole characters.
        let mut split = Vec::with_capacity(spans.len() - first);
        for &(s, e) in &spans[first..] {
            let tok = &text[s as usize..e as usize];
            if tok.is_ascii() {
                split.push((s, e));
            } else {
                for part in crate::pystr::py_split(tok) {
                    let at = s + (part.as_ptr() as usize - tok.as_ptr() as usize) as u32;
                    split.push((at, at + part.len() as u32));
                }
            }
        }
        spans.truncate(first);
        spans.extend(split);
    }
    text
}

/// Tokenizer13a.__call__
pub fn tokenize_13a(line: &str, out: &mut String) {
    let mut buf = String::new();
    post_tokenize_padded::<false>(replaced_13a(line, &mut buf).as_bytes(), true, out);
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

    /// `f` on `count` pseudo-random lines of up to `max_len - 1` pieces of `alphabet`.
    fn random_lines(alphabet: &[&str], mut seed: u64, max_len: u64, count: usize, mut f: impl FnMut(&str)) {
        for _ in 0..count {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut line = String::new();
            let mut x = seed >> 8;
            for _ in 0..seed % max_len {
                line.push_str(alphabet[(x % alphabet.len() as u64) as usize]);
                x /= alphabet.len() as u64;
                if x == 0 {
                    x = seed.rotate_left(17) | 1;
                }
            }
            f(&line);
        }
    }

    #[test]
    fn one_scan_equals_the_four_passes() {
        // Lines long enough for the 16-byte steps of `next_unusual`.
        let alphabet = ["a", "7", ".", ",", "-", " ", "(", "$", "'", "é", "\u{3000}", "\t", "\x1c", "0", "abcdefghijklmnopq"];
        random_lines(&alphabet, 0x2545_f491_4f6c_dd1d, 40, 200_000, |line| {
            for wrap in [true, false] {
                let mut got = String::new();
                post_tokenize_padded::<false>(line.as_bytes(), wrap, &mut got);
                assert_eq!(got, post_tokenize_passes(line, wrap), "{line:?} wrap={wrap}");
            }
        });
    }

    /// The tokens of [`token_spans_13a`].
    fn span_tokens(line: &str) -> Vec<String> {
        let mut buf = String::new();
        let mut spans = vec![(7, 7)]; // appends after what is there
        let text = token_spans_13a(line, &mut buf, &mut spans);
        assert_eq!(spans[0], (7, 7));
        spans[1..].iter().map(|&(s, e)| text[s as usize..e as usize].to_string()).collect()
    }

    #[test]
    fn spans_are_the_tokens_of_the_string() {
        let alphabet = [
            "a", "7", ".", ",", "-", " ", "(", "&", "'", "é", "\u{3000}", "\t", "\x1c", "0", "\u{a0}", "\u{85}",
            "\n", "<", "&amp;", "<skipped>", "-\n", "\u{2028}", "Σ", "\u{200b}", "abcdefghijklmnopq",
        ];
        random_lines(&alphabet, 0x9e37_79b9_7f4a_7c15, 30, 100_000, |line| {
            let want: Vec<String> = tok(line).split(' ').filter(|t| !t.is_empty()).map(String::from).collect();
            assert_eq!(span_tokens(line), want, "{line:?}");
        });
    }

    #[test]
    fn next_unusual_stops_at_the_first_byte_outside_letters_digits_and_non_ascii() {
        for b in 0..=255u8 {
            for at in 0..40 {
                let mut src = vec![b'a'; 40];
                src[7] = b'7';
                src[at] = b;
                let usual = b.is_ascii_alphanumeric() || b >= 0x80;
                for from in [0, at.saturating_sub(3), at] {
                    let want = if usual { 40 } else if from <= at { at } else { 40 };
                    assert_eq!(next_unusual(&src, from), want, "byte {b:#x} at {at} from {from}");
                }
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
