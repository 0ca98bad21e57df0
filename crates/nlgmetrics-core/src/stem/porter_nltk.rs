//! NLTK's `PorterStemmer()` in its default `NLTK_EXTENSIONS` mode (nltk 3.10), the
//! stemmer rouge-score uses, ported rule for rule.
//!
//! Differences from the original 1980 algorithm that this mode carries (and that make
//! it disagree with ROUGE-1.5.5's Perl stemmer): an irregular-forms pool (`dying` ->
//! `die`, `skies` -> `sky`), `ies`/`ied` on four-letter words, the `(*c and not c) Y -> I`
//! rule of step 1c, `bli -> ble`, `fulli -> ful`, the `logi` rule, the recursive `alli`
//! rule, and the two-letter `*o` condition.
//!
//! Words are expected lowercase ASCII (rouge-score's tokens are `[a-z0-9]+`); any
//! other word is returned unchanged.

/// The `irregular_forms` pool of NLTK_EXTENSIONS mode, inverted (form -> stem).
const POOL: &[(&str, &str)] = &[
    ("sky", "sky"),
    ("skies", "sky"),
    ("dying", "die"),
    ("lying", "lie"),
    ("tying", "tie"),
    ("news", "news"),
    ("innings", "inning"),
    ("inning", "inning"),
    ("outings", "outing"),
    ("outing", "outing"),
    ("cannings", "canning"),
    ("canning", "canning"),
    ("howe", "howe"),
    ("proceed", "proceed"),
    ("exceed", "exceed"),
    ("succeed", "succeed"),
];

fn is_vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// `_is_consonant(word, i)`: `y` is a consonant at the start or after a vowel (NLTK's
/// own loop over a run of `y`s, iterative so that a long run cannot overflow a stack).
fn is_consonant(w: &[u8], mut i: usize) -> bool {
    if is_vowel(w[i]) {
        return false;
    }
    let mut negate = false;
    while i > 0 && w[i] == b'y' {
        negate = !negate;
        i -= 1;
    }
    !is_vowel(w[i]) != negate
}

/// `_measure`: the number of `vc` transitions in the consonant/vowel pattern.
fn measure(stem: &[u8]) -> usize {
    let mut m = 0;
    let mut prev_vowel = false;
    let mut prev_cons: Option<bool> = None;
    for i in 0..stem.len() {
        let cons = match (stem[i], prev_cons) {
            (c, _) if is_vowel(c) => false,
            (b'y', None) => true,
            (b'y', Some(p)) => !p,
            _ => true,
        };
        if cons && prev_vowel {
            m += 1;
        }
        prev_vowel = !cons;
        prev_cons = Some(cons);
    }
    m
}

fn contains_vowel(stem: &[u8]) -> bool {
    (0..stem.len()).any(|i| !is_consonant(stem, i))
}

fn ends_double_consonant(w: &[u8]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1)
}

/// `*o`, with NLTK's extension that a two-letter `vc` word also qualifies.
fn ends_cvc(w: &[u8]) -> bool {
    let n = w.len();
    (n >= 3
        && is_consonant(w, n - 3)
        && !is_consonant(w, n - 2)
        && is_consonant(w, n - 1)
        && !matches!(w[n - 1], b'w' | b'x' | b'y'))
        || (n == 2 && !is_consonant(w, 0) && is_consonant(w, 1))
}

fn ends(w: &[u8], suffix: &str) -> bool {
    w.ends_with(suffix.as_bytes())
}

fn replace(w: &[u8], suffix_len: usize, with: &str) -> Vec<u8> {
    let mut out = w[..w.len() - suffix_len].to_vec();
    out.extend_from_slice(with.as_bytes());
    out
}

type Cond<'a> = &'a dyn Fn(&[u8]) -> bool;

/// `_apply_rule_list` for plain suffix rules: the first rule whose suffix matches
/// decides, whether or not its condition holds.
fn apply_rules(w: &[u8], rules: &[(&str, &str, Cond)]) -> Vec<u8> {
    for (suffix, repl, cond) in rules {
        if ends(w, suffix) {
            let stem = &w[..w.len() - suffix.len()];
            return if cond(stem) { replace(w, suffix.len(), repl) } else { w.to_vec() };
        }
    }
    w.to_vec()
}

fn step1a(w: &[u8]) -> Vec<u8> {
    if ends(w, "ies") && w.len() == 4 {
        return replace(w, 3, "ie");
    }
    let always: Cond = &|_| true;
    apply_rules(w, &[("sses", "ss", always), ("ies", "i", always), ("ss", "ss", always), ("s", "", always)])
}

fn step1b(w: &[u8]) -> Vec<u8> {
    if ends(w, "ied") {
        return replace(w, 3, if w.len() == 4 { "ie" } else { "i" });
    }
    if ends(w, "eed") {
        let stem = &w[..w.len() - 3];
        return if measure(stem) > 0 { replace(w, 3, "ee") } else { w.to_vec() };
    }
    let mut inter: Option<&[u8]> = None;
    for suffix in ["ed", "ing"] {
        if ends(w, suffix) {
            let stem = &w[..w.len() - suffix.len()];
            if contains_vowel(stem) {
                inter = Some(stem);
                break;
            }
        }
    }
    let Some(s) = inter else { return w.to_vec() };
    for (suffix, repl) in [("at", "ate"), ("bl", "ble"), ("iz", "ize")] {
        if ends(s, suffix) {
            return replace(s, suffix.len(), repl);
        }
    }
    if ends_double_consonant(s) {
        let last = s[s.len() - 1];
        return if !matches!(last, b'l' | b's' | b'z') { s[..s.len() - 1].to_vec() } else { s.to_vec() };
    }
    if measure(s) == 1 && ends_cvc(s) {
        let mut out = s.to_vec();
        out.push(b'e');
        return out;
    }
    s.to_vec()
}

fn step1c(w: &[u8]) -> Vec<u8> {
    if ends(w, "y") {
        let stem = &w[..w.len() - 1];
        if stem.len() > 1 && is_consonant(stem, stem.len() - 1) {
            return replace(w, 1, "i");
        }
    }
    w.to_vec()
}

fn step2(w: &[u8]) -> Vec<u8> {
    if ends(w, "alli") && measure(&w[..w.len() - 4]) > 0 {
        return step2(&replace(w, 4, "al"));
    }
    let pos: Cond = &|s| measure(s) > 0;
    let logi: Cond = &|_| measure(&w[..w.len() - 3]) > 0;
    apply_rules(
        w,
        &[
            ("ational", "ate", pos),
            ("tional", "tion", pos),
            ("enci", "ence", pos),
            ("anci", "ance", pos),
            ("izer", "ize", pos),
            ("bli", "ble", pos),
            ("alli", "al", pos),
            ("entli", "ent", pos),
            ("eli", "e", pos),
            ("ousli", "ous", pos),
            ("ization", "ize", pos),
            ("ation", "ate", pos),
            ("ator", "ate", pos),
            ("alism", "al", pos),
            ("iveness", "ive", pos),
            ("fulness", "ful", pos),
            ("ousness", "ous", pos),
            ("aliti", "al", pos),
            ("iviti", "ive", pos),
            ("biliti", "ble", pos),
            ("fulli", "ful", pos),
            ("logi", "log", logi),
        ],
    )
}

fn step3(w: &[u8]) -> Vec<u8> {
    let pos: Cond = &|s| measure(s) > 0;
    apply_rules(
        w,
        &[
            ("icate", "ic", pos),
            ("ative", "", pos),
            ("alize", "al", pos),
            ("iciti", "ic", pos),
            ("ical", "ic", pos),
            ("ful", "", pos),
            ("ness", "", pos),
        ],
    )
}

fn step4(w: &[u8]) -> Vec<u8> {
    let gt1: Cond = &|s| measure(s) > 1;
    let ion: Cond = &|s| measure(s) > 1 && matches!(s.last(), Some(b's' | b't'));
    apply_rules(
        w,
        &[
            ("al", "", gt1),
            ("ance", "", gt1),
            ("ence", "", gt1),
            ("er", "", gt1),
            ("ic", "", gt1),
            ("able", "", gt1),
            ("ible", "", gt1),
            ("ant", "", gt1),
            ("ement", "", gt1),
            ("ment", "", gt1),
            ("ent", "", gt1),
            ("ion", "", ion),
            ("ou", "", gt1),
            ("ism", "", gt1),
            ("ate", "", gt1),
            ("iti", "", gt1),
            ("ous", "", gt1),
            ("ive", "", gt1),
            ("ize", "", gt1),
        ],
    )
}

fn step5a(w: &[u8]) -> Vec<u8> {
    if ends(w, "e") {
        let stem = &w[..w.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            return stem.to_vec();
        }
    }
    w.to_vec()
}

fn step5b(w: &[u8]) -> Vec<u8> {
    if ends(w, "ll") && measure(&w[..w.len() - 1]) > 1 {
        return w[..w.len() - 1].to_vec();
    }
    w.to_vec()
}

/// `PorterStemmer().stem(word)` (NLTK_EXTENSIONS) for a lowercase ASCII word.
pub fn stem(word: &str) -> String {
    if !word.is_ascii() || word.bytes().any(|b| b.is_ascii_uppercase()) {
        return word.to_string();
    }
    if let Some((_, s)) = POOL.iter().find(|(form, _)| *form == word) {
        return (*s).to_string();
    }
    if word.len() <= 2 {
        return word.to_string();
    }
    let w = word.as_bytes();
    let w = step1a(w);
    let w = step1b(&w);
    let w = step1c(&w);
    let w = step2(&w);
    let w = step3(&w);
    let w = step4(&w);
    let w = step5a(&w);
    let w = step5b(&w);
    String::from_utf8(w).expect("ASCII in, ASCII out")
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn nltk_extension_examples() {
        // Outputs of nltk 3.10.4 PorterStemmer().stem
        let cases = [
            ("dying", "die"),
            ("skies", "sky"),
            ("they", "they"),
            ("running", "run"),
            ("runners", "runner"),
            ("quickly", "quickli"),
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("relational", "relat"),
            ("conditional", "condit"),
            ("generalization", "gener"),
            ("hopefulness", "hope"),
            ("controlling", "control"),
            ("happy", "happi"),
            ("enjoy", "enjoy"),
            ("spied", "spi"),
            ("tied", "tie"),
            ("analogousli", "analog"),
            ("archaeology", "archaeolog"),
            ("radically", "radic"),
            ("agreed", "agre"),
            ("feed", "feed"),
            ("filing", "file"),
        ];
        for (w, want) in cases {
            assert_eq!(stem(w), want, "{w}");
        }
    }
}
