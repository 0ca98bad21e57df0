//! String primitives with Python's exact semantics, because the reference tools are
//! Python: `str.split()`, `str.strip()` and `str.isspace()` use a whitespace set that
//! differs from Rust's (`\x1c`..`\x1f` are whitespace for Python, not for Rust).

/// `c.isspace()` in CPython: bidirectional class WS, B or S, or category Zs.
#[inline]
pub fn is_py_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\x0b' | '\x0c' | '\r' | '\x1c' | '\x1d' | '\x1e' | '\x1f' | ' '
            | '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{2028}'
            | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// `s.split()` with no argument.
#[inline]
pub fn py_split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_space).filter(|t| !t.is_empty())
}

pub fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(is_py_space)
}

pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// `s.lower()`: full Unicode lowercasing including the final-sigma rule, which Rust's
/// `to_lowercase` implements the same way.
pub fn py_lower(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.to_lowercase()
    }
}

/// `s.lower()` into a reused buffer.
pub fn py_lower_into(s: &str, out: &mut String) {
    out.clear();
    if s.is_ascii() {
        out.push_str(s);
        out.make_ascii_lowercase();
    } else {
        out.push_str(&s.to_lowercase());
    }
}

/// Python's whitespace among ASCII bytes.
#[inline]
pub fn is_py_space_byte(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b'\x1c'..=b'\x1f' | b' ')
}

/// The tokens of `s.split()`, scanning bytes when the text is ASCII.
pub fn py_tokens(s: &str) -> PyTokens<'_> {
    PyTokens { rest: s, ascii: s.is_ascii() }
}

pub struct PyTokens<'a> {
    rest: &'a str,
    ascii: bool,
}

impl<'a> Iterator for PyTokens<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest;
        let (start, end) = if self.ascii {
            let b = rest.as_bytes();
            let start = b.iter().position(|&c| !is_py_space_byte(c))?;
            let len = b[start..].iter().position(|&c| is_py_space_byte(c)).unwrap_or(b.len() - start);
            (start, start + len)
        } else {
            let start = rest.find(|c: char| !is_py_space(c))?;
            let end = rest[start..].find(is_py_space).map_or(rest.len(), |e| start + e);
            (start, end)
        };
        self.rest = &rest[end..];
        Some(&rest[start..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_uses_python_whitespace() {
        let v: Vec<&str> = py_split(" a\x1cb\u{3000}c  ").collect();
        assert_eq!(v, ["a", "b", "c"]);
        // U+200B is not whitespace for Python either.
        assert_eq!(py_split("a\u{200b}b").count(), 1);
    }

    #[test]
    fn lower_matches_python_special_cases() {
        assert_eq!(py_lower("İ"), "i\u{307}");
        assert_eq!(py_lower("ΟΔΟΣ"), "οδος");
        assert_eq!(py_lower("ABC"), "abc");
    }

    #[test]
    fn tokens_equal_split() {
        for s in ["", "  ", " a\x1cb\u{3000}c  ", "a  b\tc\n", "é b\u{a0}c", "x"] {
            let want: Vec<&str> = py_split(s).collect();
            assert_eq!(py_tokens(s).collect::<Vec<_>>(), want, "{s:?}");
        }
        let mut o = String::from("junk");
        py_lower_into("ΟΔΟΣ Ab", &mut o);
        assert_eq!(o, "οδος ab");
    }

    #[test]
    fn strip_both_sides() {
        assert_eq!(py_strip("\x1f a b \u{a0}"), "a b");
        assert_eq!(py_rstrip(" a "), " a");
    }
}
