//! sacrebleu's `zh` tokenizer. Its range table compares one-character strings against
//! malformed two-character bounds ('\u20000' is U+2000 followed by '0'), which makes
//! U+2001..=U+2A6D count as Chinese and leaves Extension B unsplit. `tok:zh` means that
//! behaviour, so it is kept.

use super::post_tokenize;
use crate::pystr::py_strip;

const RANGES: &[(u32, u32)] = &[
    (0x3400, 0x4db5),
    (0x4e00, 0x9fa5),
    (0x9fa6, 0x9fbb),
    (0xf900, 0xfa2d),
    (0xfa30, 0xfa6a),
    (0xfa70, 0xfad9),
    (0x2001, 0x2a6d), // the '\u20000'..'\u2a6d6' bound as Python compares it
    (0x2f81, 0x2fa1), // the '\u2f800'..'\u2fa1d' bound as Python compares it
    (0xff00, 0xffef),
    (0x2e80, 0x2eff),
    (0x3000, 0x303f),
    (0x31c0, 0x31ef),
    (0x2f00, 0x2fdf),
    (0x2ff0, 0x2fff),
    (0x3100, 0x312f),
    (0x31a0, 0x31bf),
    (0xfe10, 0xfe1f),
    (0xfe30, 0xfe4f),
    (0x2600, 0x26ff),
    (0x2700, 0x27bf),
    (0x3200, 0x32ff),
    (0x3300, 0x33ff),
];

pub fn is_chinese_char(c: char) -> bool {
    let u = c as u32;
    // Every range starts at U+2001 or above: most text is decided here.
    u >= 0x2001 && RANGES.iter().any(|&(lo, hi)| lo <= u && u <= hi)
}

pub fn tokenize(line: &str, out: &mut String) {
    let line = py_strip(line);
    if line.is_ascii() {
        return post_tokenize(line, out);
    }
    let mut spaced = String::with_capacity(line.len() * 2);
    for c in line.chars() {
        if is_chinese_char(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    post_tokenize(&spaced, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_reference_output() {
        let mut o = String::new();
        tokenize("Hello—world “quoted” … €5 → x ≤ y 我爱你。", &mut o);
        assert_eq!(o, "Hello — world “ quoted ” … € 5 → x ≤ y 我 爱 你 。");
        // Extension B is not split (the reference's quirk).
        o.clear();
        tokenize("𠀀𠀁", &mut o);
        assert_eq!(o, "𠀀𠀁");
    }
}
