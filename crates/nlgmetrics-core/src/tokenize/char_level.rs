//! sacrebleu's `char`: every character separated by a space; whitespace vanishes.

use crate::pystr::is_py_space;

pub fn tokenize(line: &str, out: &mut String) {
    for c in line.chars().filter(|&c| !is_py_space(c)) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push(c);
    }
}
