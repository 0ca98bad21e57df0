//! The Snowball English ("Porter2") stemmer in the revision METEOR 1.5 bundles
//! (R1 exceptions `gener`/`commun`/`arsen` only; `exception1`/`exception2` lists).
//! Written from the published Snowball algorithm description; positions are char
//! indices, and every rule only ever edits the end of the word, so the region marks
//! `p1`/`p2` computed once stay valid.

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'y')
}

/// Non-vowel other than `w`, `x` and the marked consonant `Y`.
fn is_non_v_wxy(c: char) -> bool {
    !is_vowel(c) && !matches!(c, 'w' | 'x' | 'Y')
}

fn is_valid_li(c: char) -> bool {
    matches!(c, 'c' | 'd' | 'e' | 'g' | 'h' | 'k' | 'm' | 'n' | 'r' | 't')
}

const EXCEPTION1: &[(&str, &str)] = &[
    ("skis", "ski"),
    ("skies", "sky"),
    ("dying", "die"),
    ("lying", "lie"),
    ("tying", "tie"),
    ("idly", "idl"),
    ("gently", "gentl"),
    ("ugly", "ugli"),
    ("early", "earli"),
    ("only", "onli"),
    ("singly", "singl"),
    ("sky", "sky"),
    ("news", "news"),
    ("howe", "howe"),
    ("atlas", "atlas"),
    ("cosmos", "cosmos"),
    ("bias", "bias"),
    ("andes", "andes"),
];

const EXCEPTION2: &[&str] = &["inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"];

struct Word {
    w: Vec<char>,
    p1: usize,
    p2: usize,
}

impl Word {
    fn len(&self) -> usize {
        self.w.len()
    }

    fn ends_with(&self, s: &str) -> bool {
        let n = s.chars().count();
        n <= self.len() && self.w[self.len() - n..].iter().copied().eq(s.chars())
    }

    /// The longest of `suffixes` the word ends with.
    fn longest<'a>(&self, suffixes: &[&'a str]) -> Option<&'a str> {
        suffixes
            .iter()
            .filter(|s| self.ends_with(s))
            .max_by_key(|s| s.chars().count())
            .copied()
    }

    fn replace_suffix(&mut self, suffix: &str, with: &str) {
        let n = suffix.chars().count();
        self.w.truncate(self.len() - n);
        self.w.extend(with.chars());
    }

    /// Start index of a suffix of `n` chars.
    fn start(&self, suffix: &str) -> usize {
        self.len() - suffix.chars().count()
    }

    /// Snowball `shortv` tested at position `c` (the chars before `c`).
    fn shortv_at(&self, c: usize) -> bool {
        let w = &self.w;
        if c >= 3 && is_non_v_wxy(w[c - 1]) && is_vowel(w[c - 2]) && !is_vowel(w[c - 3]) {
            return true;
        }
        c == 2 && !is_vowel(w[1]) && is_vowel(w[0])
    }

    fn has_vowel_before(&self, end: usize) -> bool {
        self.w[..end].iter().any(|&c| is_vowel(c))
    }
}

fn mark_regions(w: &[char]) -> (usize, usize) {
    let n = w.len();
    // Position just after the first non-vowel that follows a vowel, from `from`.
    let region_after = |from: usize| -> usize {
        let mut i = from;
        while i < n && !is_vowel(w[i]) {
            i += 1;
        }
        if i >= n {
            return n;
        }
        while i < n && is_vowel(w[i]) {
            i += 1;
        }
        if i >= n {
            return n;
        }
        i + 1
    };
    let starts = |p: &str| p.chars().count() <= n && w.iter().copied().take(p.chars().count()).eq(p.chars());
    let p1 = if let Some(p) = ["gener", "commun", "arsen"].iter().find(|p| starts(p)) {
        p.chars().count()
    } else {
        region_after(0)
    };
    let p2 = if p1 >= n { n } else { region_after(p1) };
    (p1, p2)
}

fn step_1a(x: &mut Word) {
    if let Some(s) = x.longest(&["'", "'s", "'s'"]) {
        x.replace_suffix(s, "");
    }
    match x.longest(&["sses", "ied", "ies", "s", "us", "ss"]) {
        Some("sses") => x.replace_suffix("sses", "ss"),
        Some(s @ ("ied" | "ies")) => {
            let with = if x.start(s) >= 2 { "i" } else { "ie" };
            x.replace_suffix(s, with);
        }
        Some("s") => {
            let start = x.start("s");
            // `next gopast v`: skip the letter before the s, then need a vowel further left.
            if start >= 1 && x.has_vowel_before(start - 1) {
                x.replace_suffix("s", "");
            }
        }
        _ => {}
    }
}

fn step_1b(x: &mut Word) {
    match x.longest(&["eed", "eedly", "ed", "edly", "ing", "ingly"]) {
        Some(s @ ("eed" | "eedly")) => {
            if x.start(s) >= x.p1 {
                x.replace_suffix(s, "ee");
            }
        }
        Some(s) => {
            let start = x.start(s);
            if !x.has_vowel_before(start) {
                return;
            }
            x.replace_suffix(s, "");
            let doubles = ["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"];
            if x.longest(&["at", "bl", "iz"]).is_some() {
                x.w.push('e');
            } else if x.longest(&doubles).is_some() {
                x.w.pop();
            } else if x.len() == x.p1 && x.shortv_at(x.len()) {
                x.w.push('e');
            }
        }
        None => {}
    }
}

fn step_1c(x: &mut Word) {
    let n = x.len();
    if n >= 3 && matches!(x.w[n - 1], 'y' | 'Y') && !is_vowel(x.w[n - 2]) {
        x.w[n - 1] = 'i';
    }
}

fn step_2(x: &mut Word) {
    const S: &[&str] = &[
        "tional", "enci", "anci", "abli", "entli", "izer", "ization", "ational", "ation", "ator", "alism", "aliti", "alli",
        "fulness", "ousli", "ousness", "iveness", "iviti", "biliti", "bli", "ogi", "fulli", "lessli", "li",
    ];
    let Some(s) = x.longest(S) else { return };
    let start = x.start(s);
    if start < x.p1 {
        return;
    }
    let with = match s {
        "tional" => "tion",
        "enci" => "ence",
        "anci" => "ance",
        "abli" => "able",
        "entli" => "ent",
        "izer" | "ization" => "ize",
        "ational" | "ation" | "ator" => "ate",
        "alism" | "aliti" | "alli" => "al",
        "fulness" | "fulli" => "ful",
        "ousli" | "ousness" => "ous",
        "iveness" | "iviti" => "ive",
        "biliti" | "bli" => "ble",
        "lessli" => "less",
        "ogi" => {
            if start >= 1 && x.w[start - 1] == 'l' {
                "og"
            } else {
                return;
            }
        }
        _ => {
            // "li"
            if start >= 1 && is_valid_li(x.w[start - 1]) {
                ""
            } else {
                return;
            }
        }
    };
    x.replace_suffix(s, with);
}

fn step_3(x: &mut Word) {
    const S: &[&str] = &["tional", "ational", "alize", "icate", "iciti", "ical", "ful", "ness", "ative"];
    let Some(s) = x.longest(S) else { return };
    let start = x.start(s);
    if start < x.p1 {
        return;
    }
    let with = match s {
        "tional" => "tion",
        "ational" => "ate",
        "alize" => "al",
        "icate" | "iciti" | "ical" => "ic",
        "ful" | "ness" => "",
        _ => {
            if start >= x.p2 {
                ""
            } else {
                return;
            }
        }
    };
    x.replace_suffix(s, with);
}

fn step_4(x: &mut Word) {
    const S: &[&str] = &[
        "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism", "ate", "iti", "ous", "ive",
        "ize", "ion",
    ];
    let Some(s) = x.longest(S) else { return };
    let start = x.start(s);
    if start < x.p2 {
        return;
    }
    if s == "ion" && !(start >= 1 && matches!(x.w[start - 1], 's' | 't')) {
        return;
    }
    x.replace_suffix(s, "");
}

fn step_5(x: &mut Word) {
    let n = x.len();
    if n == 0 {
        return;
    }
    let start = n - 1;
    match x.w[start] {
        'e' => {
            if start >= x.p2 || (start >= x.p1 && !x.shortv_at(start)) {
                x.w.pop();
            }
        }
        'l' => {
            if start >= x.p2 && start >= 1 && x.w[start - 1] == 'l' {
                x.w.pop();
            }
        }
        _ => {}
    }
}

/// Stem one word (expected lowercase, as METEOR feeds it).
pub fn stem(word: &str) -> String {
    if let Some((_, to)) = EXCEPTION1.iter().find(|(from, _)| *from == word) {
        return (*to).to_string();
    }
    let mut w: Vec<char> = word.chars().collect();
    // Snowball counts UTF-16 units in `hop 3`; words of < 3 letters are left alone.
    if word.encode_utf16().count() < 3 {
        return word.to_string();
    }
    // prelude
    if w.first() == Some(&'\'') {
        w.remove(0);
    }
    let mut y_found = false;
    if w.first() == Some(&'y') {
        w[0] = 'Y';
        y_found = true;
    }
    for i in 1..w.len() {
        if w[i] == 'y' && is_vowel(w[i - 1]) {
            w[i] = 'Y';
            y_found = true;
        }
    }
    let (p1, p2) = mark_regions(&w);
    let mut x = Word { w, p1, p2 };
    step_1a(&mut x);
    let s: String = x.w.iter().collect();
    if !EXCEPTION2.contains(&s.as_str()) {
        step_1b(&mut x);
        step_1c(&mut x);
        step_2(&mut x);
        step_3(&mut x);
        step_4(&mut x);
        step_5(&mut x);
    }
    if y_found {
        for c in x.w.iter_mut() {
            if *c == 'Y' {
                *c = 'y';
            }
        }
    }
    x.w.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn porter2_examples() {
        for (w, s) in [
            ("consign", "consign"),
            ("consigned", "consign"),
            ("consigning", "consign"),
            ("consignment", "consign"),
            ("consist", "consist"),
            ("consisted", "consist"),
            ("consistency", "consist"),
            ("knack", "knack"),
            ("knackeries", "knackeri"),
            ("riding", "ride"),
            ("horses", "hors"),
            ("generously", "generous"),
            ("skies", "sky"),
            ("cries", "cri"),
            ("ties", "tie"),
            ("hoped", "hope"),
            ("hopping", "hop"),
            ("sitting", "sit"),
            ("happy", "happi"),
            ("enjoy", "enjoy"),
            ("a", "a"),
            ("ion", "ion"),
            ("communication", "communic"),
        ] {
            assert_eq!(stem(w), s, "{w}");
        }
    }
}
