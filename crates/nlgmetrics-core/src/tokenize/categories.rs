//! Unicode general-category classes shared by the tokenizers, with the meaning of the
//! Python `regex` properties `\p{P}`, `\p{N}`, `\p{S}` and `\p{M}`.

use unicode_general_category::{get_general_category, GeneralCategory as G};

fn punctuation_category(g: G) -> bool {
    matches!(
        g,
        G::ConnectorPunctuation
            | G::DashPunctuation
            | G::OpenPunctuation
            | G::ClosePunctuation
            | G::InitialPunctuation
            | G::FinalPunctuation
            | G::OtherPunctuation
    )
}

fn symbol_category(g: G) -> bool {
    matches!(g, G::MathSymbol | G::CurrencySymbol | G::ModifierSymbol | G::OtherSymbol)
}

/// `\p{P}`: any punctuation category (Pc, Pd, Ps, Pe, Pi, Pf, Po).
#[inline]
pub fn is_punctuation(c: char) -> bool {
    punctuation_category(get_general_category(c))
}

/// `\p{N}`: any number category (Nd, Nl, No).
#[inline]
pub fn is_number(c: char) -> bool {
    matches!(get_general_category(c), G::DecimalNumber | G::LetterNumber | G::OtherNumber)
}

/// `\p{S}`: any symbol category (Sm, Sc, Sk, So).
#[inline]
pub fn is_symbol(c: char) -> bool {
    symbol_category(get_general_category(c))
}

/// `[\p{P}\p{S}]`, with one category lookup.
#[inline]
pub fn is_punctuation_or_symbol(c: char) -> bool {
    let g = get_general_category(c);
    punctuation_category(g) || symbol_category(g)
}

/// `\p{M}`: any mark category (Mn, Mc, Me).
#[inline]
pub fn is_mark(c: char) -> bool {
    matches!(get_general_category(c), G::NonspacingMark | G::SpacingMark | G::EnclosingMark)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert!(is_punctuation('«') && is_punctuation('_') && !is_punctuation('$'));
        assert!(is_number('٣') && is_number('Ⅻ') && is_number('½') && !is_number('a'));
        assert!(is_symbol('$') && is_symbol('+') && is_symbol('^') && !is_symbol('-'));
        assert!(is_punctuation_or_symbol('«') && is_punctuation_or_symbol('$') && !is_punctuation_or_symbol('a'));
        assert!(is_mark('\u{0301}') && is_mark('\u{0E48}') && !is_mark('a'));
    }
}
