//! sacrebleu's `intl` (mteval-v14 international): split punctuation unless it sits
//! between digits, and split every symbol. Python `regex` semantics for
//! `(\P{N})(\p{P})`, `(\p{P})(\P{N})` and `(\p{S})`, replayed as character scans.

use super::join_split;
use unicode_general_category::{get_general_category, GeneralCategory as G};

#[inline]
fn is_p(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::ConnectorPunctuation
            | G::DashPunctuation
            | G::OpenPunctuation
            | G::ClosePunctuation
            | G::InitialPunctuation
            | G::FinalPunctuation
            | G::OtherPunctuation
    )
}

#[inline]
fn is_n(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::DecimalNumber | G::LetterNumber | G::OtherNumber
    )
}

#[inline]
fn is_s(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::MathSymbol | G::CurrencySymbol | G::ModifierSymbol | G::OtherSymbol
    )
}

pub fn tokenize(line: &str, out: &mut String) {
    let a: Vec<char> = line.chars().collect();
    // (\P{N})(\p{P}) -> "\1 \2 "
    let mut b = Vec::with_capacity(a.len() * 2);
    let mut i = 0;
    while i < a.len() {
        if i + 1 < a.len() && !is_n(a[i]) && is_p(a[i + 1]) {
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
        if i + 1 < b.len() && is_p(b[i]) && !is_n(b[i + 1]) {
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
        if is_s(ch) {
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
