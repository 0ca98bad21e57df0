//! `unicode`: nlgmetrics' tokenizer for text that ASCII-minded tokenizers mangle.
//!
//! - Han ideographs (all extensions), kana, and scripts written without spaces between
//!   words (Thai, Lao, Khmer, Myanmar, Tibetan) become one token per character, with any
//!   following combining marks kept on their base character.
//! - Every other run of letters, digits and marks is a word; Hangul stays by word, as
//!   Korean is written with spaces.
//! - Punctuation and symbols are split off as single tokens, except `.` and `,` between
//!   two digits (3,000.50 stays one token).

use crate::pystr::is_py_space;
use super::categories::{is_mark, is_punctuation_or_symbol};

pub fn is_character_script(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF      // CJK radicals, Kangxi radicals
        | 0x3005..=0x3007    // 々 〆 〇
        | 0x3021..=0x3029 | 0x3038..=0x303B
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x31F0..=0x31FF    // Katakana phonetic extensions
        | 0x3400..=0x4DBF    // Extension A
        | 0x4E00..=0x9FFF    // Unified ideographs
        | 0xF900..=0xFAFF    // Compatibility ideographs
        | 0xFF66..=0xFF9F    // Half-width katakana
        | 0x20000..=0x323AF  // Extensions B..H
        | 0x0E00..=0x0E7F    // Thai
        | 0x0E80..=0x0EFF    // Lao
        | 0x0F00..=0x0FFF    // Tibetan
        | 0x1000..=0x109F    // Myanmar
        | 0x1780..=0x17FF    // Khmer
    )
}

pub fn tokenize(line: &str, out: &mut String) {
    let chars: Vec<char> = line.chars().collect();
    let mut in_word = false;
    let mut i = 0;
    let start_token = |out: &mut String| {
        if !out.is_empty() {
            out.push(' ');
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if is_py_space(c) {
            in_word = false;
        } else if is_character_script(c) {
            start_token(out);
            out.push(c);
            while i + 1 < chars.len() && is_mark(chars[i + 1]) {
                i += 1;
                out.push(chars[i]);
            }
            in_word = false;
        } else if is_punctuation_or_symbol(c) {
            let numeric_sep = matches!(c, '.' | ',')
                && i > 0
                && chars[i - 1].is_ascii_digit()
                && in_word
                && i + 1 < chars.len()
                && chars[i + 1].is_ascii_digit();
            if numeric_sep {
                out.push(c);
            } else {
                start_token(out);
                out.push(c);
                in_word = false;
            }
        } else {
            if !in_word {
                start_token(out);
                in_word = true;
            }
            out.push(c);
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str) -> String {
        let mut o = String::new();
        tokenize(s, &mut o);
        o
    }

    #[test]
    fn splits_by_script() {
        assert_eq!(tok("我爱北京。Hello, world!"), "我 爱 北 京 。 Hello , world !");
        assert_eq!(tok("東京タワーへ行きます"), "東 京 タ ワ ー へ 行 き ま す");
        assert_eq!(tok("안녕하세요 세계"), "안녕하세요 세계");
        assert_eq!(tok("ภาษาไทย"), "ภ า ษ า ไ ท ย");
        assert_eq!(tok("ก่อน"), "ก่ อ น");
        assert_eq!(tok("$3,000.50 in 2024."), "$ 3,000.50 in 2024 .");
        assert_eq!(tok("naïve café-au-lait"), "naïve café - au - lait");
    }
}
