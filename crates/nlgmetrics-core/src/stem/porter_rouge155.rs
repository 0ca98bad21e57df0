//! The Porter stemmer of ROUGE-1.5.5.pl (`sub stem`, the Perl port of the original
//! 1980 algorithm with Chin-Yew Lin's 2004 change to step 4), ported rule for rule.
//!
//! How the Perl differs from NLTK's stemmers, and why each rule below looks as it does:
//! - suffix lists are regex alternations anchored at the end, so the *longest* matching
//!   suffix is the one tried, and a failed condition does not fall back to a shorter one;
//! - the measure tests are the regexes `^(C)?VC` (m>0), `^(C)?VC(V)?$` (m=1) and
//!   `^(C)?VCVC` (m>1) with `C = [^aeiou][^aeiouy]*`, `V = [aeiouy][aeiou]*`, which is
//!   the usual measure with `y` a vowel only after a consonant; an initial `y` is
//!   upper-cased first and so is always a consonant;
//! - step 4 strips `ement`-class suffixes, then independently `ment`, then `ent` or
//!   `(s|t)ion` (the 02/14/2004 modification), so a word can lose more than one suffix;
//! - step 1c is the original `(*v*) Y -> I`; step 2 has `bli -> ble` and `logi -> log`.

fn is_vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// Consonant flags under the regex definitions (`Y` upper-case is a consonant).
fn consonant_flags(w: &[u8]) -> Vec<bool> {
    let mut flags: Vec<bool> = Vec::with_capacity(w.len());
    for (i, &c) in w.iter().enumerate() {
        let cons = if is_vowel(c) {
            false
        } else if c == b'y' {
            i == 0 || !flags[i - 1]
        } else {
            true
        };
        flags.push(cons);
    }
    flags
}

fn measure(w: &[u8]) -> usize {
    let f = consonant_flags(w);
    f.windows(2).filter(|p| !p[0] && p[1]).count()
}

/// `/^(C)?v/`: the stem holds a vowel.
fn has_vowel(w: &[u8]) -> bool {
    consonant_flags(w).iter().any(|c| !c)
}

/// `/^${C}${v}[^aeiouwxy]$/`: the whole stem is one consonant run, one vowel and one
/// final consonant other than w, x, y.
fn is_short_cvc(w: &[u8]) -> bool {
    let n = w.len();
    n >= 3
        && !is_vowel(w[0])
        && w[1..n - 2].iter().all(|&c| !is_vowel(c) && c != b'y')
        && (is_vowel(w[n - 2]) || w[n - 2] == b'y')
        && !matches!(w[n - 1], b'a' | b'e' | b'i' | b'o' | b'u' | b'w' | b'x' | b'y')
}

/// The longest suffix in `list` that `w` ends with (a regex alternation anchored at `$`).
fn longest_suffix<'a>(w: &[u8], list: &[(&'a str, &'a str)]) -> Option<(&'a str, &'a str)> {
    list.iter()
        .filter(|(s, _)| w.ends_with(s.as_bytes()))
        .max_by_key(|(s, _)| s.len())
        .copied()
}

const STEP2: &[(&str, &str)] = &[
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("logi", "log"),
];

const STEP3: &[(&str, &str)] = &[
    ("icate", "ic"),
    ("ative", ""),
    ("alize", "al"),
    ("iciti", "ic"),
    ("ical", "ic"),
    ("ful", ""),
    ("ness", ""),
];

const STEP4: &[(&str, &str)] = &[
    ("al", ""),
    ("ance", ""),
    ("ence", ""),
    ("er", ""),
    ("ic", ""),
    ("able", ""),
    ("ible", ""),
    ("ant", ""),
    ("ement", ""),
    ("ou", ""),
    ("ism", ""),
    ("ate", ""),
    ("iti", ""),
    ("ous", ""),
    ("ive", ""),
    ("ize", ""),
];

fn strip(w: &mut Vec<u8>, n: usize) -> Vec<u8> {
    w[..w.len() - n].to_vec()
}

/// `stem($w)` of ROUGE-1.5.5.pl for a lowercase ASCII word (other words unchanged).
pub fn stem(word: &str) -> String {
    if word.len() < 3 || !word.is_ascii() {
        return word.to_string();
    }
    let mut w = word.as_bytes().to_vec();
    let initial_y = w[0] == b'y';
    if initial_y {
        w[0] = b'Y';
    }
    // Step 1a
    if w.ends_with(b"sses") || w.ends_with(b"ies") {
        let n = w.len();
        w.truncate(n - 2);
    } else if w.len() >= 2 && w.ends_with(b"s") && w[w.len() - 2] != b's' {
        w.pop();
    }
    // Step 1b
    if w.ends_with(b"eed") {
        if measure(&w[..w.len() - 3]) > 0 {
            w.pop();
        }
    } else if w.ends_with(b"ed") || w.ends_with(b"ing") {
        let cut = if w.ends_with(b"ed") { 2 } else { 3 };
        let stem = strip(&mut w, cut);
        if has_vowel(&stem) {
            w = stem;
            let n = w.len();
            if w.ends_with(b"at") || w.ends_with(b"bl") || w.ends_with(b"iz") {
                w.push(b'e');
            } else if n >= 2
                && w[n - 1] == w[n - 2]
                && !matches!(w[n - 1], b'a' | b'e' | b'i' | b'o' | b'u' | b'y' | b'l' | b's' | b'z')
            {
                w.pop();
            } else if is_short_cvc(&w) {
                w.push(b'e');
            }
        }
    }
    // Step 1c
    if w.ends_with(b"y") && has_vowel(&w[..w.len() - 1]) {
        let n = w.len();
        w[n - 1] = b'i';
    }
    // Steps 2 and 3
    for list in [STEP2, STEP3] {
        if let Some((suffix, repl)) = longest_suffix(&w, list) {
            let stem = strip(&mut w, suffix.len());
            if measure(&stem) > 0 {
                w = stem;
                w.extend_from_slice(repl.as_bytes());
            }
        }
    }
    // Step 4, as modified by CYL on 02/14/2004
    if let Some((suffix, _)) = longest_suffix(&w, STEP4) {
        let stem = strip(&mut w, suffix.len());
        if measure(&stem) > 1 {
            w = stem;
        }
    }
    if w.ends_with(b"ment") {
        let stem = strip(&mut w, 4);
        if measure(&stem) > 1 {
            w = stem;
        }
    }
    if w.ends_with(b"ent") {
        let stem = strip(&mut w, 3);
        if measure(&stem) > 1 {
            w = stem;
        }
    } else if w.ends_with(b"sion") || w.ends_with(b"tion") {
        let stem = strip(&mut w, 3);
        if measure(&stem) > 1 {
            w = stem;
        }
    }
    // Step 5
    if w.ends_with(b"e") {
        let stem = strip(&mut w, 1);
        let m = measure(&stem);
        if m > 1 || (m == 1 && !is_short_cvc(&stem)) {
            w = stem;
        }
    }
    if w.ends_with(b"ll") && measure(&w) > 1 {
        w.pop();
    }
    if initial_y {
        w[0] = b'y';
    }
    String::from_utf8(w).expect("ASCII in, ASCII out")
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn original_porter_examples() {
        // The 1980 paper's examples (and the Perl script's own conventions).
        let cases = [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "ti"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("motoring", "motor"),
            ("sing", "sing"),
            ("conflated", "conflat"),
            ("hopping", "hop"),
            ("falling", "fall"),
            ("filing", "file"),
            ("happy", "happi"),
            ("sky", "sky"),
            ("relational", "relat"),
            ("dying", "dy"),
            ("skies", "ski"),
            ("they", "thei"),
            ("replacement", "replac"),
            ("adjustment", "adjust"),
            ("adoption", "adopt"),
            ("controll", "control"),
            ("yelling", "yell"),
        ];
        for (w, want) in cases {
            assert_eq!(stem(w), want, "{w}");
        }
    }
}
