//! sacrebleu's `intl` (mteval-v14 international): split punctuation unless it sits
//! between digits, and split every symbol. Python `regex` semantics for
//! `(\P{N})(\p{P})`, `(\p{P})(\P{N})` and `(\p{S})`, replayed as character scans.

use super::join_split;
use super::categories::{is_number, is_punctuation, is_symbol};

pub fn tokenize(line: &str, out: &mut String) {
    let a: Vec<char> = line.chars().collect();
    // (\P{N})(\p{P}) -> "\1 \2 "
    let mut b = Vec::with_capacity(a.len() * 2);
    let mut i = 0;
    while i < a.len() {
        if i + 1 < a.len() && !is_number(a[i]) && is_punctuation(a[i + 1]) {
            b.extend_from_slice(&[a[i], ' ', a[i + 1], ' ']);
            i += 2;
        } else {
            b.push(a[i]);
            i += 1;
        }
    }
    // (\p{P})(\P{N}) -> " \1 \2"
    let mut c = Vec::with_capacity(b.len() * 2);
    i = 0;
    while i < b.len() {
        if i + 1 < b.len() && is_punctuation(b[i]) && !is_number(b[i + 1]) {
            c.extend_from_slice(&[' ', b[i], ' ', b[i + 1]]);
            i += 2;
        } else {
            c.push(b[i]);
            i += 1;
        }
    }
    // (\p{S}) -> " \1 "
    let mut s = String::with_capacity(c.len() * 2);
    for ch in c {
        if is_symbol(ch) {
            s.push(' ');
            s.push(ch);
            s.push(' ');
        } else {
            s.push(ch);
        }
    }
    join_split(&s, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_numbers_and_year_dot() {
        let mut o = String::new();
        tokenize("Pay $3.50, in 1999.", &mut o);
        assert_eq!(o, "Pay $ 3.50 , in 1999.");
        o.clear();
        tokenize("«Bonjour», dit-il!", &mut o);
        assert_eq!(o, "« Bonjour » , dit - il !");
    }
}
