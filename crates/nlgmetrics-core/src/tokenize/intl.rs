//! sacrebleu's `intl` (mteval-v14 international): split punctuation unless it sits
//! between digits, and split every symbol. Python `regex` semantics for
//! `(\P{N})(\p{P})`, `(\p{P})(\P{N})` and `(\p{S})`, replayed as character scans.

use super::join_split;
use super::categories::{is_number as is_n, is_punctuation as is_p, is_symbol as is_s};
use std::sync::OnceLock;

const P: u8 = 1;
const N: u8 = 2;
const S: u8 = 4;

/// The P/N/S class bits of a character, looked up once per character (ASCII from a
/// table built from the same helpers).
#[inline]
fn class(c: char) -> u8 {
    static ASCII: OnceLock<[u8; 128]> = OnceLock::new();
    let of = |c: char| (is_p(c) as u8) * P | (is_n(c) as u8) * N | (is_s(c) as u8) * S;
    if c.is_ascii() {
        ASCII.get_or_init(|| std::array::from_fn(|i| of(i as u8 as char)))[c as usize]
    } else {
        of(c)
    }
}

pub fn tokenize(line: &str, out: &mut String) {
    let a: Vec<(char, u8)> = line.chars().map(|c| (c, class(c))).collect();
    let space = (' ', 0u8);
    // (\P{N})(\p{P}) -> "\1 \2 "
    let mut b = Vec::with_capacity(a.len() * 2);
    let mut i = 0;
    while i < a.len() {
        if i + 1 < a.len() && a[i].1 & N == 0 && a[i + 1].1 & P != 0 {
            b.extend_from_slice(&[a[i], space, a[i + 1], space]);
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
        if i + 1 < b.len() && b[i].1 & P != 0 && b[i + 1].1 & N == 0 {
            c.extend_from_slice(&[space, b[i], space, b[i + 1]]);
            i += 2;
        } else {
            c.push(b[i]);
            i += 1;
        }
    }
    // (\p{S}) -> " \1 "
    let mut s = String::with_capacity(line.len() * 2);
    for (ch, cl) in c {
        if cl & S != 0 {
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
