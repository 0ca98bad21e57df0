//! METEOR 1.5's `-norm` text normalization for English (a Moses-tokenizer derivative
//! with quote/dash normalization and lossy dot/dash stripping), followed by lowercasing.
//!
//! Every regular expression of the reference is a fixed-width pattern over character
//! classes, so each pass is a left-to-right scan that consumes what the regex would
//! consume (leftmost, non-overlapping, like `Matcher.replaceAll`).

use rustc_hash::FxHashMap;

/// Nonbreaking-prefix kinds (`nonbreaking/english.prefixes`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Nbp {
    Any,
    NumericOnly,
}

/// Parse a Moses nonbreaking-prefix list.
pub fn parse_prefixes(text: &str) -> FxHashMap<String, Nbp> {
    let mut out = FxHashMap::default();
    for line in java_lines(text) {
        let mut tok = java_tokens(line);
        let Some(pre) = tok.next() else { continue };
        if pre.starts_with('#') {
            continue;
        }
        let kind = if tok.next() == Some("#NUMERIC_ONLY#") { Nbp::NumericOnly } else { Nbp::Any };
        out.insert(pre.to_string(), kind);
    }
    out
}

/// Lines as `BufferedReader.readLine` splits them (`\n`, `\r`, `\r\n`).
pub fn java_lines(text: &str) -> impl Iterator<Item = &str> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let text = text.strip_suffix('\r').unwrap_or(text);
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).filter(|_| !text.is_empty())
}

/// Tokens as `java.util.StringTokenizer` splits them (default delimiters ` \t\n\r\f`).
pub fn java_tokens(s: &str) -> impl Iterator<Item = &str> {
    s.split([' ', '\t', '\n', '\r', '\u{c}']).filter(|t| !t.is_empty())
}

fn is_alpha(c: char) -> bool {
    c.is_ascii_alphabetic()
        || matches!(c as u32,
            0x160 | 0x17d | 0x161 | 0x17e | 0x178
            | 0xc0..=0xd6 | 0xd8..=0xf6 | 0xf8..=0x17e
            | 0x400..=0x4ff | 0x500..=0x527 | 0xa640..=0xa66e | 0xa67e..=0xa697 | 0x1d00..=0x1d7f)
}

fn is_alnum(c: char) -> bool {
    c.is_ascii_digit() || is_alpha(c)
}

fn is_digit(c: char) -> bool {
    c.is_ascii_digit()
}

/// Java regex `\s` (ASCII whitespace).
fn is_java_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

fn is_white(c: char) -> bool {
    matches!(c as u32, 0x20 | 0x2000..=0x200a | 0x202f | 0x205f | 0x3000 | 0xa0)
}

/// Replace every `(X) m (Y)` (three chars, consumed) with `X + mid + Y`.
fn replace_triples(s: &[char], x: impl Fn(char) -> bool, m: char, y: impl Fn(char) -> bool, mid: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len() + 8);
    let mut i = 0;
    while i < s.len() {
        if i + 2 < s.len() && s[i + 1] == m && x(s[i]) && y(s[i + 2]) {
            out.push(s[i]);
            out.extend(mid.chars());
            out.push(s[i + 2]);
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// `\.([\.]+)` -> ` DOTMULTI$1`.
fn escape_multi_dots(s: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(s.len() + 16);
    let mut i = 0;
    while i < s.len() {
        if s[i] == '.' && i + 1 < s.len() && s[i + 1] == '.' {
            let mut j = i + 1;
            while j < s.len() && s[j] == '.' {
                j += 1;
            }
            out.extend(" DOTMULTI".chars());
            out.extend(&s[i + 1..j]);
            i = j;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// `DOTMULTI\.([^\.])` -> `DOTDOTMULTI $1`.
fn split_multi_dot(s: &str) -> String {
    const PAT: &str = "DOTMULTI.";
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    while let Some(pos) = rest.find(PAT) {
        let after = &rest[pos + PAT.len()..];
        match after.chars().next() {
            Some(c) if c != '.' => {
                out.push_str(&rest[..pos]);
                out.push_str("DOTDOTMULTI ");
                out.push(c);
                rest = &after[c.len_utf8()..];
            }
            _ => {
                out.push_str(&rest[..pos + 1]);
                rest = &rest[pos + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

fn string(v: &[char]) -> String {
    v.iter().collect()
}

/// Java `String.trim()`: strip chars <= U+0020 at both ends.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// `Normalizer.normalizeLine(line, LANG_EN, keep_punctuation)`.
pub fn normalize_en(line: &str, nbp: &FxHashMap<String, Nbp>, keep_punctuation: bool) -> String {
    let mut w: Vec<char> = Vec::with_capacity(line.len() + 2);
    w.push(' ');
    w.extend(line.chars());
    w.push(' ');
    // Separate every symbol that is not alphanumeric, whitespace or . ' ` , - ‘ ’
    let mut sep = Vec::with_capacity(w.len() * 2);
    for &c in &w {
        if is_alnum(c) || is_java_space(c) || matches!(c, '.' | '\'' | '`' | ',' | '-' | '\u{2018}' | '\u{2019}') {
            sep.push(c);
        } else {
            sep.extend([' ', c, ' ']);
        }
    }
    let mut s = string(&escape_multi_dots(&sep));
    while s.contains("DOTMULTI.") {
        s = split_multi_dot(&s);
        s = s.replace("DOTMULTI.", "DOTDOTMULTI");
    }
    let mut v = chars(&s);
    v = replace_triples(&v, |c| !is_digit(c), ',', |c| !is_digit(c), " , ");
    v = replace_triples(&v, is_digit, ',', |c| !is_digit(c), " , ");
    v = replace_triples(&v, |c| !is_digit(c), ',', is_digit, " , ");
    // Quotes: ` ‘ ’ -> ' ; “ ” and '' -> " (spaced)
    for c in v.iter_mut() {
        if matches!(*c, '`' | '\u{2018}' | '\u{2019}') {
            *c = '\'';
        }
    }
    let mut q = Vec::with_capacity(v.len() + 8);
    let mut i = 0;
    while i < v.len() {
        if matches!(v[i], '\u{201c}' | '\u{201d}') {
            q.extend([' ', '"', ' ']);
            i += 1;
        } else if v[i] == '\'' && i + 1 < v.len() && v[i + 1] == '\'' {
            q.extend([' ', '"', ' ']);
            i += 2;
        } else {
            q.push(v[i]);
            i += 1;
        }
    }
    let s = string(&q).replace('\u{2013}', "-").replace("--", "-");
    let mut v = chars(&s);
    v = replace_triples(&v, |c| is_alnum(c) || c == '.', '-', is_alnum, " ");
    // English contractions split to the right.
    v = replace_triples(&v, |c| !is_alpha(c), '\'', |c| !is_alpha(c), " ' ");
    v = replace_triples(&v, |c| !is_alpha(c) && !is_digit(c), '\'', is_alpha, " ' ");
    v = replace_triples(&v, is_alpha, '\'', |c| !is_alpha(c), " ' ");
    v = replace_triples(&v, is_alpha, '\'', is_alpha, " '");
    v = replace_triples(&v, is_digit, '\'', |c| c == 's', " '");
    let s = string(&v);
    let words: Vec<&str> = java_tokens(&s).collect();
    let mut out = String::with_capacity(s.len() + 8);
    for (i, word) in words.iter().enumerate() {
        let next = words.get(i + 1);
        if word.chars().count() > 1 && word.ends_with('.') {
            let pre = &word[..word.len() - 1];
            let kind = nbp.get(pre).copied();
            if pre.contains('.') && pre.chars().any(is_alpha) {
                out.push_str(&word.replace('.', ""));
            } else if kind == Some(Nbp::Any) || next.is_some_and(|n| n.starts_with(|c: char| c.is_ascii_lowercase())) {
                out.push_str(word);
            } else if kind == Some(Nbp::NumericOnly) && next.is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit())) {
                out.push_str(word);
            } else {
                out.push_str(pre);
                out.push_str(" .");
            }
        } else {
            out.push_str(word);
        }
        out.push(' ');
    }
    let mut s = out;
    while s.contains("DOTDOTMULTI") {
        s = s.replace("DOTDOTMULTI", "DOTMULTI.");
    }
    let mut s = s.replace("DOTMULTI", ".");
    if !keep_punctuation {
        s = s.chars().map(|c| if is_alnum(c) { c } else { ' ' }).collect();
    }
    let mut collapsed = String::with_capacity(s.len());
    let mut in_white = false;
    for c in s.chars() {
        if is_white(c) {
            if !in_white {
                collapsed.push(' ');
            }
            in_white = true;
        } else {
            collapsed.push(c);
            in_white = false;
        }
    }
    java_trim(&collapsed).to_string()
}

/// Java's `String.toLowerCase()` for the text METEOR sees.
pub fn lowercase(s: &str) -> String {
    s.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nbp() -> FxHashMap<String, Nbp> {
        parse_prefixes("Mr\nNo #NUMERIC_ONLY#\n# comment\n")
    }

    #[test]
    fn matches_reference_examples() {
        let n = nbp();
        let cases = [
            ("a,b,c 1,000 x.y.", "a , b,c 1,000 xy"),
            ("U.S.-based e.g. Mr. Smith ... hello... \"quoted\" it's dogs' 1990's", "US based eg Mr. Smith ... hello ... \" quoted \" it 's dogs ' 1990 's"),
            ("a--b a\u{2013}b (x) [y] $5 50% end.", "a b a - b ( x ) [ y ] $ 5 50 % end ."),
            ("No. 5 No. five", "No. 5 No. five"),
        ];
        for (i, o) in cases {
            assert_eq!(normalize_en(i, &n, true), o, "{i}");
        }
    }
}
