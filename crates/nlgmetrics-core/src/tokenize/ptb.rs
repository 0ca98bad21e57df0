//! The PTB tokenizer of the COCO caption pipeline.
//!
//! pycocoevalcap's `PTBTokenizer` joins every caption with `\n`, runs Stanford CoreNLP
//! 3.4.1 `edu.stanford.nlp.process.PTBTokenizer -preserveLines -lowerCase` on the file,
//! then drops the tokens of its `PUNCTUATIONS` list. This module re-implements that
//! lexer (a JFlex grammar: at each position the longest rule match wins, the earlier
//! rule on a tie, and trailing context counts towards the length) for the rules that
//! English captions exercise, and the punctuation filter.
//!
//! Two quirks it keeps on purpose:
//! - `-lowerCase` turns `-LRB-`/`-RRB-` into `-lrb-`/`-rrb-`, which the upper-case
//!   `PUNCTUATIONS` list then fails to remove.
//! - Whether an abbreviation such as `Co.` or `etc.` also ends the sentence (emitting an
//!   extra `.`) depends on the characters after it, which in the joined file can be the
//!   start of the *next* caption. [`tokenize_lines`] therefore takes the whole sequence.
//!
//! Known departures from the Java lexer (none occurs in the COCO captions): line
//! separators other than `\n` are treated as spaces (the Java pipeline would shift
//! every later caption by one line); characters outside the Basic Multilingual Plane
//! are deleted as the Java lexer deletes them, but so are format/control characters;
//! the grammar's rarer rules (phone numbers, file names, e-mail subtleties, SGML
//! attributes, Americanize is off in 3.4.1 anyway) are approximated.


/// pycocoevalcap's `PUNCTUATIONS`, compared after lowercasing as pycocoevalcap does.
pub const COCO_PUNCTUATIONS: [&str; 17] = [
    "''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!", ",", ":", "-", "--",
    "...", ";",
];

fn is_coco_punct(tok: &str) -> bool {
    COCO_PUNCTUATIONS.contains(&tok)
}

#[path = "ptb_chars.rs"]
mod ptb_chars;
use ptb_chars::{in_ranges, DIGIT, JAVA_ALNUM, KEPT, LETTER};

/// The lexer's `{LETTER}` (its JDK's letters, marks, modifiers and the soft hyphen).
#[inline]
fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    in_ranges(&LETTER, c)
}

/// The lexer's `{DIGIT}`.
#[inline]
fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(&DIGIT, c)
}

/// `{LETTER}|{DIGIT}`.
#[inline]
fn is_alnum(c: char) -> bool {
    is_letter(c) || is_digit(c)
}

/// `[:letter:]|[:digit:]` (narrower than `{LETTER}`: no marks or modifiers).
#[inline]
fn is_java_alnum(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    in_ranges(&JAVA_ALNUM, c)
}

/// `[:letter:]`.
#[inline]
fn is_java_letter(c: char) -> bool {
    is_java_alnum(c) && !is_digit(c)
}

/// `{SPACE}` plus the line separators, which inside one caption are spaces here.
#[inline]
fn is_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\u{A0}' | '\u{2000}'..='\u{200A}' | '\u{3000}' | '\r' | '\u{0B}' | '\u{0C}'
            | '\u{2028}' | '\u{2029}'
    )
}

#[inline]
fn is_apos(c: char) -> bool {
    matches!(c, '\'' | '\u{92}' | '\u{2019}')
}

#[inline]
fn is_apos_etc(c: char) -> bool {
    is_apos(c) || matches!(c, '`' | '\u{91}' | '\u{2018}' | '\u{201B}')
}

#[inline]
fn is_hyphen(c: char) -> bool {
    matches!(c, '-' | '_' | '\u{58A}' | '\u{2010}' | '\u{2011}')
}

// The lexer is `%caseless`: string literals match in any case, but a character class
// such as `[M]` keeps its case, which is how `[M]ass` avoids matching "mass.".
const ABBREV1: &[&str] = &[
    // months, days
    "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Mon",
    "Tue", "Tues", "Wed", "Thu", "Thurs", "Fri",
    // states
    "Ala", "Ariz", "[A]z", "[A]rk", "Calif", "Colo", "Conn", "Ct", "Dak", "[D]el", "Fla", "Ga",
    "[I]ll", "Ind", "Kan", "Kans", "Ky", "[L]a", "[M]ass", "Md", "Mich", "Minn", "[M]iss", "Mo",
    "Mont", "Neb", "Nev", "Okla", "[O]re", "[P]a", "Penn", "Tenn", "[T]ex", "Va", "Vt", "[W]ash",
    "Wis", "Wisc", "Wyo",
    // companies
    "Inc", "Co", "Cos", "Corp", "Pty", "Ptys", "Pte", "Ptes", "Ppty", "Pptys", "Ppte", "Pptes", "Ltd",
    "Plc", "Rt", "Bancorp",
    "Bhd", "Assn", "Univ", "Intl", "Sys",
    // numbers, post-titles, misc
    "tel", "est", "ext", "sq", "Jr", "Sr", "Bros", "Ed.D", "Ph.D", "Blvd", "Rd", "Esq", "etc",
    "al", "seq", "Bldg",
];

const ABBREV2: &[&str] = &[
    "Mr", "Mrs", "Ms", "[M]iss", "Dr", "Drs", "Prof", "Profs", "Sen", "Sens", "Rep", "Reps",
    "Atty", "Attys", "Lt", "Col", "Gen", "Messrs", "Gov", "Govs", "Adm", "Rev", "Maj", "Sgt",
    "Cpl", "Pvt", "Capt", "St", "Ste", "Ave", "Pres", "Lieut", "Hon", "Brig", "Cmdr", "Comdr",
    "Pfc", "Spc", "Supt", "Supts", "Det", "Mt", "Ft", "Adj", "Adv", "Asst", "Assoc", "Ens", "Insp",
    "Mlle", "Mme", "Msgr", "Sfc", "vs", "Alex", "Wm", "Jos", "Cie", "a.k.a", "cf", "TREAS", "Ph",
    "Invt", "Elec", "Natl", "Mfg", "Mtg", "Dept",
];

/// Capitalised (or all-caps) words that, after an acronym and a period, mean the period
/// ended the sentence (found by probing the jar; `Mr.`/`Ms.` include their period).
const SENT_START: &[&str] = &[
    "About", "According", "Additionally", "After", "An", "A", "As", "At", "But", "Earlier", "He",
    "Her", "Here", "However", "If", "In", "It", "Last", "Many", "More", "Mr.", "Ms.", "Now", "Once",
    "One", "Other", "Our", "She", "Since", "So", "Some", "Such", "That", "The", "Their", "Then",
    "There", "These", "They", "This", "We", "When", "While", "What", "Yet", "You",
];

/// Whether the text at `i` is the list entry `pat` (see the `%caseless` note above).
fn matches_entry(t: &Text, i: usize, pat: &str) -> Option<usize> {
    let (first_exact, body) = match pat.strip_prefix('[') {
        Some(rest) => (Some(rest.chars().next()?), &rest[2..]),
        None => (None, pat),
    };
    let mut k = i;
    if let Some(f) = first_exact {
        if !t.is(k, |c| c == f) {
            return None;
        }
        k += 1;
    }
    for ch in body.chars() {
        if !t.is(k, |c| c.eq_ignore_ascii_case(&ch)) {
            return None;
        }
        k += 1;
    }
    Some(k - i)
}

/// Split at the third letter when the whole word stands alone (`cannot` -> `can not`).
const SPLIT3: &[&str] = &["cannot", "gonna", "gotta", "lemme", "gimme", "wanna"];

/// The text around one caption: its characters, then the lookahead that follows it in
/// the joined file (`\n` and the next caption's first characters, or nothing at EOF).
struct Text {
    c: Vec<char>,
    end: usize,
}

impl Text {
    #[inline]
    fn at(&self, i: usize) -> Option<char> {
        self.c.get(i).copied()
    }
    #[inline]
    fn is(&self, i: usize, f: impl Fn(char) -> bool) -> bool {
        i < self.end && f(self.c[i])
    }
    fn run(&self, mut i: usize, f: impl Fn(char) -> bool) -> usize {
        while self.is(i, &f) {
            i += 1;
        }
        i
    }
    fn starts_with(&self, i: usize, s: &str) -> bool {
        let mut k = i;
        for ch in s.chars() {
            if !self.is(k, |c| c == ch) {
                return false;
            }
            k += 1;
        }
        true
    }
    fn starts_with_ci(&self, i: usize, s: &str) -> bool {
        let mut k = i;
        for ch in s.chars() {
            if !self.is(k, |c| c.to_ascii_lowercase() == ch) {
                return false;
            }
            k += 1;
        }
        true
    }
    fn slice(&self, a: usize, b: usize) -> String {
        self.c[a..b].iter().collect()
    }
    /// Lookahead `[^A-Za-z]` (end of input counts).
    fn not_ascii_letter_or_eof(&self, i: usize) -> bool {
        self.at(i).is_none_or(|c| !c.is_ascii_alphabetic())
    }
}

/// A candidate match: total length including trailing context, token length, output.
struct Cand {
    total: usize,
    len: usize,
    out: Out,
}

enum Out {
    /// The matched text itself.
    Same,
    /// A replacement token.
    Text(&'static str),
    /// A computed token.
    Owned(String),
    /// An abbreviation that also ends the sentence: the token, then a `.` token.
    AbbrevEnd,
    /// Two tokens (the first `n` characters, then the rest).
    Split(usize),
    /// Nothing (whitespace, untokenizable characters).
    Skip,
    /// The matched text with soft hyphens removed (`-` if nothing is left).
    NoSoftHyphens,
    /// A quote token, normalised as the lexer's `latexQuotes` does.
    Quote { probably_left: bool },
}

/// `{WORD} = {LETTER}({LETTER}|{DIGIT})*([.!?]{LETTER}({LETTER}|{DIGIT})*)*`
fn m_word(t: &Text, i: usize) -> usize {
    let letter = |k: usize| if t.is(k, is_letter) { 1 } else { splet_len(t, k) };
    let alnums = |mut k: usize| loop {
        let n = if t.is(k, is_digit) { 1 } else { letter(k) };
        if n == 0 {
            break k;
        }
        k += n;
    };
    let first = letter(i);
    if first == 0 {
        return 0;
    }
    let mut j = alnums(i + first);
    while t.is(j, |c| matches!(c, '.' | '!' | '?')) && letter(j + 1) > 0 {
        j = alnums(j + 1 + letter(j + 1));
    }
    j - i
}

/// `{SPLET} = &[aeiouAEIOU](acute|grave|uml);`, a letter of `{LETTER}`.
fn splet_len(t: &Text, k: usize) -> usize {
    if !(t.is(k, |c| c == '&') && t.is(k + 1, |c| "aeiouAEIOU".contains(c))) {
        return 0;
    }
    for (name, n) in [("acute;", 6), ("grave;", 6), ("uml;", 4)] {
        if t.starts_with_ci(k + 2, name) {
            return 2 + n;
        }
    }
    0
}

/// `{REDAUX} = {APOS}([msdMSD]|re|ve|ll)`, case-insensitive as the Java output shows.
fn m_redaux(t: &Text, i: usize) -> usize {
    let a = apos_len(t, i);
    if a == 0 {
        return 0;
    }
    if t.is(i + a, |c| matches!(c, 'm' | 's' | 'd' | 'M' | 'S' | 'D')) {
        return a + 1;
    }
    for s in ["re", "ve", "ll"] {
        if t.starts_with_ci(i + a, s) {
            return a + 2;
        }
    }
    0
}

/// `{APOS} = ['\u0092\u2019]|&apos;`: its length at `i` (0 if none).
fn apos_len(t: &Text, i: usize) -> usize {
    if t.is(i, is_apos) {
        1
    } else if t.starts_with_ci(i, "&apos;") {
        6
    } else {
        0
    }
}

/// `{SREDAUX} = n{APOSETCETERA}t`
fn m_sredaux(t: &Text, i: usize) -> usize {
    if t.is(i, |c| c == 'n' || c == 'N') && t.is(i + 1, is_apos_etc) && t.is(i + 2, |c| c == 't' || c == 'T') {
        3
    } else {
        0
    }
}

/// `{THING}`: alphanumeric runs joined by `{HYPHEN}`s, each optionally led by an O'/D'/L'
/// prefix (which needs two alphanumerics after the apostrophe).
fn m_thing(t: &Text, i: usize) -> usize {
    fn segment(t: &Text, i: usize) -> usize {
        let mut k = i;
        if t.is(k, |c| matches!(c, 'd' | 'D' | 'o' | 'O' | 'l' | 'L'))
            && t.is(k + 1, is_apos_etc)
            && t.is(k + 2, is_java_alnum)
            && t.is(k + 3, is_java_alnum)
        {
            k += 2;
        }
        let j = t.run(k, is_java_alnum);
        if j == k {
            0
        } else {
            j - i
        }
    }
    let mut j = i + segment(t, i);
    if j == i {
        return 0;
    }
    loop {
        if t.is(j, is_hyphen) {
            let s = segment(t, j + 1);
            if s > 0 {
                j += 1 + s;
                continue;
            }
        }
        break;
    }
    j - i
}

/// `{HTHING} = ([:letter:]|[:digit:])[A-Za-z0-9.,\u00AD]*(-([A-Za-z0-9\u00AD]+|{ACRO2}\.))+`
fn m_hthing(t: &Text, i: usize) -> usize {
    if !t.is(i, is_java_alnum) {
        return 0;
    }
    let body = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | ',' | '\u{AD}');
    let stop = t.run(i + 1, body);
    // The greedy body may give back characters so that a `-` follows: try the longest.
    let mut best = 0;
    let mut k = stop;
    while k > i {
        if t.is(k, |c| c == '-') {
            let mut j = k;
            while t.is(j, |c| c == '-') {
                let seg_end = t.run(j + 1, |c| c.is_ascii_alphanumeric() || c == '\u{AD}');
                let acro = m_acro2_dot(t, j + 1);
                let seg = (seg_end - (j + 1)).max(acro);
                if seg == 0 {
                    break;
                }
                j += 1 + seg;
            }
            if j > k {
                best = j - i;
                break;
            }
        }
        k -= 1;
    }
    best
}

/// `{ACRO2}\.` with `{ACRO2} = [A-Za-z](\.[A-Za-z])+`
fn m_acro2_dot(t: &Text, i: usize) -> usize {
    let n = m_acro(t, i);
    if n >= 3 && t.is(i + n, |c| c == '.') {
        n + 1
    } else {
        0
    }
}

/// `{ACRO} = [A-Za-z](\.[A-Za-z])*`
fn m_acro(t: &Text, i: usize) -> usize {
    if !t.is(i, |c| c.is_ascii_alphabetic()) {
        return 0;
    }
    let mut j = i + 1;
    while t.is(j, |c| c == '.') && t.is(j + 1, |c| c.is_ascii_alphabetic()) {
        j += 2;
    }
    j - i
}

/// `{THINGA} = [A-Z]+(([+&]|{SPAMP})[A-Z]+)+` (returns length and the normalised text)
fn m_thinga(t: &Text, i: usize) -> (usize, String) {
    let up = |c: char| c.is_ascii_uppercase();
    let mut j = t.run(i, up);
    if j == i {
        return (0, String::new());
    }
    let mut out = t.slice(i, j);
    let mut parts = 0;
    loop {
        let (sep_len, sep) = if t.starts_with_ci(j, "&amp;") {
            (5, '&')
        } else if t.is(j, |c| c == '+' || c == '&') {
            (1, t.c[j])
        } else {
            break;
        };
        let k = t.run(j + sep_len, up);
        if k == j + sep_len {
            break;
        }
        out.push(sep);
        out.extend(&t.c[j + sep_len..k]);
        j = k;
        parts += 1;
    }
    if parts == 0 {
        (0, String::new())
    } else {
        (j - i, out)
    }
}

/// `{NUMBER} = [\-+]?{NUM}`, `{NUM} = {DIGIT}+|{DIGIT}*([.:,\u00AD\u066B\u066C]{DIGIT}+)+`
fn m_number(t: &Text, i: usize) -> usize {
    let mut k = i;
    if t.is(k, |c| c == '-' || c == '+') {
        k += 1;
    }
    let mut j = t.run(k, is_digit);
    let had_digits = j > k;
    loop {
        if t.is(j, |c| matches!(c, '.' | ':' | ',' | '\u{AD}' | '\u{66B}' | '\u{66C}')) && t.is(j + 1, is_digit) {
            j = t.run(j + 1, is_digit);
        } else {
            break;
        }
    }
    if j == k || (!had_digits && j == k) {
        return 0;
    }
    j - i
}

/// `{FRAC}` without its optional whole-number part (handled by the NUMBER before it):
/// `{DIGIT}{1,4}[-]?...` — here `({DIGIT}{1,4}-)?{DIGIT}{1,4}(\\?\/|\u2044){DIGIT}{1,4}`.
fn m_frac(t: &Text, i: usize) -> (usize, String) {
    let digits = |k: usize| {
        let e = t.run(k, is_digit);
        e - k
    };
    let mut k = i;
    let d0 = digits(k);
    if d0 == 0 || d0 > 4 {
        return (0, String::new());
    }
    // optional leading "N-"
    let try_core = |k: usize| -> usize {
        let d1 = digits(k);
        if d1 == 0 || d1 > 4 {
            return 0;
        }
        let mut j = k + d1;
        if t.is(j, |c| c == '\\') && t.is(j + 1, |c| c == '/') {
            j += 2;
        } else if t.is(j, |c| c == '/' || c == '\u{2044}') {
            j += 1;
        } else {
            return 0;
        }
        let d2 = digits(j);
        if d2 == 0 || d2 > 4 {
            return 0;
        }
        j + d2 - k
    };
    let mut best = try_core(k);
    if t.is(k + d0, |c| matches!(c, '-' | ' ' | '\u{A0}')) {
        let c2 = try_core(k + d0 + 1);
        if c2 > 0 && d0 + 1 + c2 > best {
            best = d0 + 1 + c2;
        }
    }
    if best == 0 {
        return (0, String::new());
    }
    k += best;
    // normalizeSpace: the space between the whole number and the fraction becomes U+00A0.
    let text: String = t.c[i..k].iter().map(|&c| if c == ' ' { '\u{A0}' } else { c }).collect();
    (best, text)
}

/// `{DATE} = {DIGIT}{1,2}[\-\/]{DIGIT}{1,2}[\-\/]{DIGIT}{2,4}`
fn m_date(t: &Text, i: usize) -> usize {
    let digits = |k: usize| t.run(k, is_digit) - k;
    let a = digits(i);
    if !(1..=2).contains(&a) || !t.is(i + a, |c| c == '-' || c == '/') {
        return 0;
    }
    let j = i + a + 1;
    let b = digits(j);
    if !(1..=2).contains(&b) || !t.is(j + b, |c| c == '-' || c == '/') {
        return 0;
    }
    let k = j + b + 1;
    let d = digits(k);
    if d < 2 {
        return 0;
    }
    k + d.min(4) - i
}

/// `{APOWORD}` and `{APOWORD2}/[:letter:]`, plus `'t` before `is`/`was`.
fn m_apoword(t: &Text, i: usize) -> (usize, usize) {
    let mut best = (0, 0);
    let mut take = |total: usize, len: usize| {
        if total > best.0 {
            best = (total, len);
        }
    };
    let a = apos_len(t, i);
    if a > 0 {
        // {APOS}n{APOS}?
        if t.is(i + a, |c| c == 'n' || c == 'N') {
            let n = a + 1 + apos_len(t, i + a + 1);
            take(n, n);
        }
        for w in ["em", "cause", "till", "til"] {
            if t.starts_with_ci(i + a, w) {
                take(a + w.len(), a + w.len());
            }
        }
        if t.is(i + a, |c| ('2'..='9').contains(&c)) && t.starts_with_ci(i + a + 1, "0s") {
            take(a + 3, a + 3);
        }
        for w in ["is", "was"] {
            // the first rules of the grammar: `'twas` and `'tis` give `'t` (and the rest)
            if a == 1 && t.is(i, |c| c == '\'') && t.is(i + 1, |c| c == 't' || c == 'T') && t.starts_with_ci(i + 2, w) {
                take(a + 1 + w.len(), a + 1);
            }
        }
    }
    // [lLdDjJ]{APOS}
    if t.is(i, |c| matches!(c, 'l' | 'L' | 'd' | 'D' | 'j' | 'J')) && t.is(i + 1, is_apos) {
        take(2, 2);
    }
    // [A-HJ-XZn]{APOSETCETERA}[:letter:]{2}[:letter:]*
    if t.is(i, |c| (c.is_ascii_uppercase() && c != 'I' && c != 'Y') || c == 'n')
        && t.is(i + 1, is_apos_etc)
        && t.is(i + 2, is_java_letter)
        && t.is(i + 3, is_java_letter)
    {
        let e = t.run(i + 4, is_java_letter);
        take(e - i, e - i);
    }
    // [:letter:][:letter:]*[aeiouyAEIOUY]{APOSETCETERA}[aeiouA-Z][:letter:]*
    if t.is(i, is_java_letter) {
        let e = t.run(i, is_java_letter);
        if e >= i + 2
            && t.is(e - 1, |c| "aeiouyAEIOUY".contains(c))
            && t.is(e, is_apos_etc)
            && t.is(e + 1, |c| "aeiou".contains(c) || c.is_ascii_uppercase())
        {
            let f = t.run(e + 2, is_java_letter);
            take(f - i, f - i);
        }
    }
    for w in ["dunkin", "somethin", "ol"] {
        if t.starts_with_ci(i, w) && t.is(i + w.len(), is_apos) {
            take(w.len() + 1, w.len() + 1);
        }
    }
    for w in ["cont'd.", "cont'd", "nor'easter", "c'mon", "e'er", "s'mores", "ev'ry", "li'l", "nat'l"] {
        if t.starts_with_ci(i, w) {
            take(w.chars().count(), w.chars().count());
        }
    }
    // O{APOSETCETERA}o
    if t.is(i, |c| c == 'o' || c == 'O') && t.is(i + 1, is_apos_etc) && t.is(i + 2, |c| c == 'o' || c == 'O') {
        take(3, 3);
    }
    // {APOWORD2}/[:letter:] = y{APOS}
    if t.is(i, |c| c == 'y' || c == 'Y') && t.is(i + 1, is_apos) && t.is(i + 2, is_java_letter) {
        take(3, 2);
    }
    best
}

/// The text of an abbreviation `X.` at `i` and whether it is ABBREV1 (may end a sentence).
fn m_abbrev(t: &Text, i: usize) -> (usize, bool) {
    let mut best = (0, false);
    // Every entry is letters (and inner periods) followed by a period: look only at
    // entries as long as the letter run here, or containing a period.
    let run = t.run(i, |c| c.is_ascii_alphabetic()) - i;
    if run == 0 {
        return best;
    }
    let dotted = t.is(i + run, |c| c == '.');
    for (list, is1) in [(ABBREV1, true), (ABBREV2, false)] {
        for a in list {
            let plain_len = a.len() - usize::from(a.starts_with('[')) * 2;
            if !(a.contains('.') || (dotted && plain_len == run)) {
                continue;
            }
            if let Some(n) = matches_entry(t, i, a) {
                if n + 1 > best.0 && t.is(i + n, |c| c == '.') {
                    best = (n + 1, is1);
                }
            }
        }
    }
    // ACRO + "."
    let n = m_acro(t, i);
    if n > 0 && t.is(i + n, |c| c == '.') && n + 1 > best.0 {
        best = (n + 1, false);
    }
    best
}

/// `{SENTEND1}` after an ABBREV1 (end of input counts as a sentence end).
fn sentence_end_after(t: &Text, j: usize) -> Option<usize> {
    let spacenl = |c: char| is_space(c) || c == '\n';
    match t.at(j) {
        None => Some(0),
        Some(c) if spacenl(c) => match t.at(j + 1) {
            None => Some(1),
            Some(d) if spacenl(d) || d.is_uppercase() => Some(2),
            Some('<') if t.at(j + 2).is_some_and(|e| e.is_ascii_alphabetic() || e == '/') => Some(2),
            _ => None,
        },
        _ => None,
    }
}

/// Spaces or newlines, then a [`SENT_START`] word ending at a space, newline or EOF.
fn sentence_start_after(t: &Text, j: usize) -> Option<usize> {
    let spacenl = |c: char| is_space(c) || c == '\n';
    let mut k = j;
    while t.at(k).is_some_and(spacenl) {
        k += 1;
    }
    if k == j {
        return None;
    }
    // An SGML tag (`<` + letter or `/`), possibly on the next caption's line.
    if t.at(k) == Some('<') && t.at(k + 1).is_some_and(|c| c.is_ascii_alphabetic() || c == '/') {
        return Some(k + 2 - j);
    }
    if !t.at(k).is_some_and(|c| c.is_ascii_uppercase()) {
        return None;
    }
    for w in SENT_START {
        let n = w.len();
        let ok = w.chars().enumerate().all(|(q, ch)| {
            t.at(k + q).is_some_and(|c| if q == 0 { c == ch } else { c.eq_ignore_ascii_case(&ch) })
        });
        if ok {
            match t.at(k + n) {
                None => return Some(k + n - j),
                Some(c) if spacenl(c) => return Some(k + n + 1 - j),
                _ => {}
            }
        }
    }
    None
}

/// `{SGML}`: `<!x...>`/`<?x...>`, `</name>`, or `<name attr attr="v" ... />`.
fn m_sgml(t: &Text, i: usize) -> usize {
    if !t.is(i, |c| c == '<') {
        return 0;
    }
    let name_start = |c: char| c.is_ascii_alphabetic();
    let name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.' | '-');
    let spaces = |j: usize| t.run(j, |c| c == ' ');
    let close = |j: usize| {
        let j = spaces(j);
        if t.is(j, |c| c == '>') {
            j + 1 - i
        } else {
            0
        }
    };
    if t.is(i + 1, |c| c == '!' || c == '?') && t.is(i + 2, |c| c.is_ascii_alphabetic() || c == '-') {
        let e = t.run(i + 3, |c| !matches!(c, '>' | '\r' | '\n'));
        return if t.is(e, |c| c == '>') { e + 1 - i } else { 0 };
    }
    if t.is(i + 1, |c| c == '/') {
        if !t.is(i + 2, name_start) {
            return 0;
        }
        return close(t.run(i + 3, name));
    }
    if !t.is(i + 1, name_start) {
        return 0;
    }
    let mut j = t.run(i + 2, name);
    loop {
        let s = spaces(j);
        if s == j || !t.is(s, name_start) {
            break;
        }
        let n = t.run(s + 1, name);
        j = n;
        let eq = spaces(n);
        if t.is(eq, |c| c == '=') {
            let v = spaces(eq + 1);
            if let Some(q) = t.at(v).filter(|&c| (c == '\'' || c == '"') && v < t.end) {
                let e = t.run(v + 1, |c| c != q);
                if t.is(e, |c| c == q) {
                    j = e + 1;
                }
            }
        }
    }
    let j = spaces(j);
    let j = if t.is(j, |c| c == '/') { j + 1 } else { j };
    close(j)
}

/// `{FULLURL}` and `{LIKELYURL}`.
fn m_url(t: &Text, i: usize) -> usize {
    let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\u{0C}' | '\r');
    let body = |c: char| !ws(c) && !matches!(c, '"' | '<' | '>' | '|' | '(' | ')' | '{' | '}');
    let last = |c: char| body(c) && !matches!(c, '.' | '!' | '?' | ',' | '-');
    // The longest `X+Y` with X = `inner`, Y = `last` starting at `j` (0 if none).
    let tail = |j: usize, inner: &dyn Fn(char) -> bool, last: &dyn Fn(char) -> bool| -> usize {
        let e = t.run(j, inner);
        let mut q = e;
        while q >= j + 2 {
            if last(t.c[q - 1]) {
                return q;
            }
            q -= 1;
        }
        0
    };
    if t.starts_with_ci(i, "http://") || t.starts_with_ci(i, "https://") {
        let start = if t.is(i + 4, |c| c == ':') { i + 7 } else { i + 8 };
        let e = tail(start, &body, &last);
        return if e > 0 { e - i } else { 0 };
    }
    let mut ends: Vec<usize> = Vec::new();
    if t.starts_with_ci(i, "www.") {
        let label = |c: char| !ws(c) && !matches!(c, '"' | '<' | '>' | '|' | '.' | '!' | '?' | '(' | ')' | '{' | '}' | ',');
        let mut p = i + 4;
        loop {
            let e = t.run(p, label);
            if e == p || !t.is(e, |c| c == '.') {
                break;
            }
            p = e + 1;
            let alpha = t.run(p, |c| c.is_ascii_alphabetic()) - p;
            for n in 2..=alpha.min(4) {
                ends.push(p + n);
            }
        }
    }
    {
        let label = |c: char| {
            !ws(c) && !matches!(c, '"' | '`' | '\'' | '<' | '>' | '|' | '.' | '!' | '?' | '(' | ')' | '{' | '}' | '$') && !(',' ..= '_').contains(&c)
        };
        let mut p = i;
        loop {
            let e = t.run(p, label);
            if e == p || !t.is(e, |c| c == '.') {
                break;
            }
            p = e + 1;
            for tld in ["com", "net", "org", "edu"] {
                if t.starts_with_ci(p, tld) {
                    ends.push(p + 3);
                }
            }
        }
    }
    let path_inner = |c: char| !ws(c) && !matches!(c, '"' | '<' | '>' | '|' | '(' | ')');
    let mut best = 0;
    for e in ends {
        best = best.max(e - i);
        if t.is(e, |c| c == '/') {
            let q = tail(e + 1, &path_inner, &last);
            if q > 0 {
                best = best.max(q - i);
            }
        }
    }
    best
}

/// A position-set simulation of a small regular expression (all the ways to match).
struct Nfa<'a> {
    t: &'a Text,
    at: Vec<usize>,
}

impl<'a> Nfa<'a> {
    fn new(t: &'a Text, i: usize) -> Self {
        Self { t, at: vec![i] }
    }
    fn set(&mut self, v: Vec<usize>) -> &mut Self {
        let mut v = v;
        v.sort_unstable();
        v.dedup();
        self.at = v;
        self
    }
    /// `[0-9]{lo,hi}`
    fn digits(&mut self, lo: usize, hi: usize) -> &mut Self {
        let t = self.t;
        let v = self
            .at
            .iter()
            .flat_map(|&p| {
                let n = t.run(p, |c| c.is_ascii_digit()) - p;
                (lo..=hi.min(n)).map(move |k| p + k)
            })
            .collect();
        self.set(v)
    }
    /// One character of `f`, optionally.
    fn one(&mut self, f: impl Fn(char) -> bool, optional: bool) -> &mut Self {
        let t = self.t;
        let mut v: Vec<usize> = self.at.iter().filter(|&&p| t.is(p, &f)).map(|&p| p + 1).collect();
        if optional {
            v.extend(self.at.iter().copied());
        }
        self.set(v)
    }
    fn union(&mut self, other: &[usize]) -> &mut Self {
        let mut v = self.at.clone();
        v.extend_from_slice(other);
        self.set(v)
    }
}

/// `{PHONE}`; its spaces become U+00A0 in the token.
fn m_phone(t: &Text, i: usize) -> usize {
    let sep = |c: char| matches!(c, '-' | ' ' | '\u{A0}');
    // (\([0-9]{2,3}\)[ \u00A0]? | (\+\+?)?([0-9]{2,4}[\- \u00A0])?[0-9]{2,4}[\- \u00A0])
    let mut a = Nfa::new(t, i);
    a.one(|c| c == '(', false).digits(2, 3).one(|c| c == ')', false).one(|c| c == ' ' || c == '\u{A0}', true);
    let mut b = Nfa::new(t, i);
    b.one(|c| c == '+', true).one(|c| c == '+', true);
    let b0 = b.at.clone();
    b.digits(2, 4).one(sep, false).union(&b0).digits(2, 4).one(sep, false);
    let pre = a.at.iter().chain(b.at.iter()).copied().collect::<Vec<_>>();
    let mut m = Nfa::new(t, i);
    m.set(pre).digits(3, 4).one(sep, true).digits(3, 5);
    // ((\+\+?)?[0-9]{2,4}\.)?[0-9]{2,4}\.[0-9]{3,4}\.[0-9]{3,5}
    let dot = |c: char| c == '.';
    let mut d = Nfa::new(t, i);
    d.one(|c| c == '+', true).one(|c| c == '+', true).digits(2, 4).one(dot, false).union(&[i]);
    d.digits(2, 4).one(dot, false).digits(3, 4).one(dot, false).digits(3, 5);
    m.at.iter().chain(d.at.iter()).map(|&e| e - i).max().unwrap_or(0)
}

/// `{EMAIL}`: `(&lt;|<)?[a-zA-Z0-9][^...]*@([^...]+\.)*[^...]+(&gt;|>)?`.
fn m_email(t: &Text, i: usize) -> usize {
    let open = if t.starts_with(i, "&lt;") { 4 } else if t.is(i, |c| c == '<') { 1 } else { 0 };
    let s = i + open;
    if !t.is(s, |c| c.is_ascii_alphanumeric()) {
        return 0;
    }
    let hard = |c: char| matches!(c, ' ' | '\t' | '\n' | '\u{0C}' | '\r' | '"' | '<' | '>' | '|' | '(' | ')' | '\u{A0}' | '{' | '}');
    let local_end = t.run(s + 1, |c| !hard(c));
    let label = |c: char| !hard(c) && c != '.';
    let mut best = 0;
    for a in s + 1..local_end {
        if t.c[a] != '@' {
            continue;
        }
        let mut e = t.run(a + 1, label);
        if e == a + 1 {
            continue;
        }
        while t.is(e, |c| c == '.') {
            let f = t.run(e + 1, label);
            if f == e + 1 {
                break;
            }
            e = f;
        }
        let e = if t.starts_with(e, "&gt;") { e + 4 } else if t.is(e, |c| c == '>') { e + 1 } else { e };
        best = best.max(e - i);
    }
    best
}

fn m_twitter(t: &Text, i: usize) -> usize {
    if t.is(i, |c| c == '@') && t.is(i + 1, |c| c.is_ascii_alphabetic() || c == '_') {
        return t.run(i + 1, |c| c.is_ascii_alphanumeric() || c == '_') - i;
    }
    if t.is(i, |c| c == '#') {
        let e = t.run(i + 1, is_letter);
        if e > i + 1 {
            return e - i;
        }
    }
    0
}

/// `{LDOTS} = \.{3,5}|(\.[ \u00A0]){2,4}\.|[\u0085\u2026]`
fn m_ldots(t: &Text, i: usize) -> usize {
    let dots = t.run(i, |c| c == '.') - i;
    let mut best = if dots >= 3 { dots.min(5) } else { 0 };
    let mut j = i;
    let mut pairs = 0;
    while pairs < 4 && t.is(j, |c| c == '.') && t.is(j + 1, |c| c == ' ' || c == '\u{A0}') {
        j += 2;
        pairs += 1;
        if pairs >= 2 && t.is(j, |c| c == '.') && j + 1 - i > best {
            best = j + 1 - i;
        }
    }
    best
}

/// `{THING3}`: up to three `[A-Za-z0-9]+(-[A-Za-z]+){0,2}` parts joined by `/` or `\/`.
fn m_thing3(t: &Text, i: usize) -> usize {
    // Every way a part can end (the alphanumeric run, then 0-2 letter suffixes).
    fn part_ends(t: &Text, i: usize) -> Vec<usize> {
        let e = t.run(i, |c| c.is_ascii_alphanumeric());
        if e == i {
            return Vec::new();
        }
        let mut ends = vec![e];
        let mut j = e;
        for _ in 0..2 {
            if !t.is(j, |c| c == '-') {
                break;
            }
            let f = t.run(j + 1, |c| c.is_ascii_alphabetic());
            if f == j + 1 {
                break;
            }
            ends.push(f);
            j = f;
        }
        ends
    }
    fn slash(t: &Text, j: usize) -> usize {
        if t.is(j, |c| c == '/') {
            1
        } else if t.is(j, |c| c == '\\') && t.is(j + 1, |c| c == '/') {
            2
        } else {
            0
        }
    }
    /// The furthest end of a part at `j` followed by at most `more` further `/` parts.
    fn rest(t: &Text, j: usize, more: usize) -> usize {
        let mut best = 0;
        for e in part_ends(t, j) {
            best = best.max(e);
            let s = slash(t, e);
            if more > 0 && s > 0 {
                best = best.max(rest(t, e + s, more - 1));
            }
        }
        best
    }
    let mut best = 0;
    for e in part_ends(t, i) {
        let s = slash(t, e);
        if s > 0 {
            best = best.max(rest(t, e + s, 1));
        }
    }
    if best > i {
        best - i
    } else {
        0
    }
}

const FILENAME_EXT: &[&str] = &[
    "bat", "bmp", "c", "class", "cgi", "cpp", "dll", "doc", "docx", "exe", "gif", "gz", "h", "htm", "html", "jar",
    "java", "jpeg", "jpg", "mov", "mp3", "pdf", "php", "pl", "png", "ppt", "ps", "py", "sql", "tar", "txt", "wav",
    "x", "xml", "zip",
];

/// `{FILENAME}/({SPACENL}|[.?!,])`: (token length, total with the lookahead character).
fn m_filename(t: &Text, i: usize) -> (usize, usize) {
    let mut best = (0, 0);
    let mut j = t.run(i, is_alnum);
    if j == i {
        return best;
    }
    while t.is(j, |c| c == '.') {
        for ext in FILENAME_EXT {
            let n = ext.len();
            if t.starts_with_ci(j + 1, ext) {
                let e = j + 1 + n;
                if t.at(e).is_some_and(|c| is_space(c) || c == '\n' || matches!(c, '.' | '?' | '!' | ',')) && e - i > best.0 {
                    best = (e - i, e + 1 - i);
                }
            }
        }
        let k = t.run(j + 1, is_alnum);
        if k == j + 1 {
            break;
        }
        j = k;
    }
    best
}

/// `{SMILEY}/[^A-Za-z0-9]`: (token length, total).
fn m_smiley(t: &Text, i: usize) -> (usize, usize) {
    let mut k = i;
    if t.is(k, |c| c == '<' || c == '>') {
        k += 1;
    }
    if !t.is(k, |c| matches!(c, ':' | ';' | '=')) {
        return (0, 0);
    }
    let face = |c: char| matches!(c, '(' | ')' | 'D' | 'P' | 'd' | 'p' | 'O' | '\\' | '{' | '@' | '|' | '[' | ']');
    let mut best = (0, 0);
    for nose in [false, true] {
        let mut j = k + 1;
        if nose {
            if !t.is(j, |c| matches!(c, '-' | 'o' | '*' | '\'')) {
                continue;
            }
            j += 1;
        }
        if t.is(j, face) && t.at(j + 1).is_some_and(|c| !c.is_ascii_alphanumeric()) && j + 1 - i > best.0 {
            best = (j + 1 - i, j + 2 - i);
        }
    }
    best
}

/// `{ASIANSMILEY}` (the forms that can match: `^_^`, `(^_^)`, `(>_<)`, `(^^)`, `(^-^)` ...).
fn m_asian_smiley(t: &Text, i: usize) -> usize {
    let eye = |c: char| matches!(c, '-' | '^' | 'x' | '=' | '~' | '<' | '>' | '\'');
    let eye2 = |c: char| matches!(c, '^' | 'x' | '=' | '~' | '<' | '>' | '\'');
    let mut best = 0;
    if t.is(i, eye) && t.is(i + 1, |c| c == '_') && t.is(i + 2, eye) {
        best = 3;
    }
    if t.is(i, |c| c == '(') {
        if t.is(i + 1, eye) {
            let mut j = i + 2;
            if t.is(j, |c| c == '_' || c == '.') && t.is(j + 1, eye) && t.is(j + 2, |c| c == ')') {
                best = best.max(j + 3 - i);
            }
            if t.is(j, eye) && t.is(j + 1, |c| c == ')') {
                best = best.max(j + 2 - i);
            }
            j = i + 2;
            if t.is(i + 1, eye2) && t.is(j, |c| c == '-') && t.is(j + 1, |c| eye2(c) || c == '`') && t.is(j + 2, |c| c == ')') {
                best = best.max(j + 3 - i);
            }
        }
    }
    best
}

/// The lexer's `latexQuotes`.
fn latex_quotes(s: &str, probably_left: bool) -> String {
    let s = s.replace("&apos;", "'").replace("&quot;", "\"");
    let mut out = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        match c {
            '\'' => out.push(if probably_left { '`' } else { '\'' }),
            '"' => out.push_str(if probably_left { "``" } else { "''" }),
            '\u{91}' | '\u{2018}' | '\u{201B}' | '\u{2039}' => out.push('`'),
            '\u{92}' | '\u{2019}' | '\u{203A}' => out.push('\''),
            '\u{93}' | '\u{201C}' | '\u{AB}' => out.push_str("``"),
            '\u{94}' | '\u{201D}' | '\u{BB}' => out.push_str("''"),
            _ => out.push(c),
        }
    }
    out
}

/// The characters of `{QUOTES}`' `{1,2}` class.
#[inline]
fn is_quote_char(c: char) -> bool {
    matches!(
        c,
        '`' | '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{201C}' | '\u{201D}' | '\u{91}' | '\u{92}' | '\u{93}' | '\u{94}'
            | '\u{201E}' | '\u{201F}' | '\u{2039}' | '\u{203A}' | '\u{AB}' | '\u{BB}'
    )
}

fn candidates(t: &Text, i: usize, cands: &mut Vec<Cand>) {
    let c = t.c[i];
    let mut push = |total: usize, len: usize, out: Out| {
        if total > 0 {
            cands.push(Cand { total, len, out });
        }
    };
    if is_space(c) {
        // A URL's host may start with the spaces that `[^ \t\n\f\r...]` does not exclude.
        let u = if c == ' ' || c == '\t' { 0 } else { m_url(t, i) };
        let n = t.run(i, is_space) - i;
        if u > n {
            push(u, u, Out::Same);
        } else {
            push(n, n, Out::Skip);
        }
        return;
    }
    if t.starts_with_ci(i, "&nbsp;") {
        push(6, 6, Out::Skip);
    }
    { let m = m_sgml(t, i); push(m, m, Out::Owned(t.slice(i, i + m).replace(' ', "\u{A0}"))); }
    // Entities and dashes.
    for (ent, rep) in [("&md;", "--"), ("&mdash;", "--"), ("&ndash;", "--"), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")] {
        if t.starts_with_ci(i, ent) {
            push(ent.len(), ent.len(), Out::Text(rep));
        }
    }
    for ent in ["&ht;", "&tl;", "&ur;", "&lr;", "&qc;", "&ql;", "&qr;", "&odq;", "&cdq;"] {
        if t.starts_with_ci(i, ent) {
            push(ent.len(), ent.len(), Out::Same);
        }
    }
    // `c[+][+]`, `(c|f)#` (the first rules of the grammar).
    if t.starts_with_ci(i, "c++") {
        push(3, 3, Out::Same);
    }
    if t.starts_with_ci(i, "c#") || t.starts_with_ci(i, "f#") {
        push(2, 2, Out::Same);
    }
    // `(\\\*){1,3}`
    {
        let mut k = i;
        while k - i < 6 && t.is(k, |d| d == '\\') && t.is(k + 1, |d| d == '*') {
            k += 2;
        }
        push(k - i, k - i, Out::Same);
    }
    // The named acronyms of `{ACRO}`: before a period (`{ABBREV2}`) or a space.
    for acro in ["canada-u.s", "sino-u.s", "korean-u.s", "eu-u.s", "japan-u.s", "non-u.s", "u.s.-u.k", "u.s.-u.s.s.r"] {
        let n = acro.len();
        if t.starts_with_ci(i, acro) {
            if t.is(i + n, |d| d == '.') {
                push(n + 1, n + 1, Out::Same);
            }
            if t.at(i + n).is_some_and(|d| is_space(d) || d == '\n') {
                push(n + 1, n, Out::Same);
            }
        }
    }
    if matches!(c, '\u{96}' | '\u{97}' | '\u{2013}' | '\u{2014}' | '\u{2015}') {
        push(1, 1, Out::Text("--"));
    }
    if c == '&' && t.is(i + 1, |d| d == '#') {
        let e = t.run(i + 2, |d| d.is_ascii_digit());
        if e > i + 2 && t.is(e, |d| d == ';') {
            push(e + 1 - i, e + 1 - i, Out::Same);
        }
    }
    // Words and their clitics.
    let w = m_word(t, i);
    if w > 0 {
        let r = m_redaux(t, i + w);
        if r > 0 {
            // `{WORD}/{REDAUX}`: the clitic is trailing context, whatever follows it.
            push(w + r, w, Out::NoSoftHyphens);
        }
        if (w == 5 || w == 6) && SPLIT3.iter().any(|x| x.len() == w && matches_entry(t, i, x) == Some(w)) && t.not_ascii_letter_or_eof(i + w) {
            push(w, w, Out::Split(3));
        }
    }
    // SWORD/SREDAUX: letters not ending in n, then n't.
    if t.is(i, |d| d.is_ascii_alphabetic() || d == '\u{AD}') {
        let e = t.run(i, |d| d.is_ascii_alphabetic() || d == '\u{AD}');
        if e >= i + 2 && t.is(e - 1, |d| d == 'n' || d == 'N') && m_sredaux(t, e - 1) == 3 && !t.is(e - 2, |d| d == 'n' || d == 'N') {
            push(e - 1 - i + 3, e - 1 - i, Out::Same);
        }
    }
    push(w, w, Out::NoSoftHyphens);
    let (aw_total, aw_len) = m_apoword(t, i);
    push(aw_total, aw_len, Out::Same);
    { let m = m_url(t, i); push(m, m, Out::Same); }
    { let m = m_email(t, i); push(m, m, Out::Same); }
    { let m = m_twitter(t, i); push(m, m, Out::Same); }
    // Stand-alone clitics.
    let r = m_redaux(t, i);
    if r > 0 && t.not_ascii_letter_or_eof(i + r) {
        push(r + usize::from(t.at(i + r).is_some()), r, Out::Quote { probably_left: false });
    }
    { let m = m_sredaux(t, i); push(m, m, Out::Quote { probably_left: false }); }

    // Numbers.
    { let m = m_date(t, i); push(m, m, Out::Same); }
    { let m = m_number(t, i); push(m, m, Out::NoSoftHyphens); }
    let (fl, ft) = m_frac(t, i);
    if fl > 0 {
        push(fl, fl, Out::Owned(ft));
    }
    match c {
        '\u{BC}' => push(1, 1, Out::Text("1/4")),
        '\u{BD}' => push(1, 1, Out::Text("1/2")),
        '\u{BE}' => push(1, 1, Out::Text("3/4")),
        '\u{2153}' => push(1, 1, Out::Text("1/3")),
        '\u{2154}' => push(1, 1, Out::Text("2/3")),
        '\u{2155}'..='\u{215E}' => push(1, 1, Out::Same),
        _ => {}
    }
    { let m = m_thing3(t, i); push(m, m, Out::Same); }
    // Currency.
    let up = t.run(i, |d| d.is_ascii_uppercase());
    if t.is(up, |d| d == '$') {
        push(up + 1 - i, up + 1 - i, Out::Same);
    }
    match c {
        '#' => push(1, 1, Out::Same),
        '\u{A2}' => push(1, 1, Out::Text("cents")),
        '\u{A3}' => push(1, 1, Out::Text("#")),
        '\u{80}' | '\u{20AC}' | '\u{A4}' | '\u{20A0}' => push(1, 1, Out::Text("$")),
        '\u{A5}' | '\u{60B}' | '\u{E3F}' | '\u{20A4}' | '\u{FFE0}' | '\u{FFE1}' | '\u{FFE5}' | '\u{FFE6}' => {
            push(1, 1, Out::Same)
        }
        _ => {}
    }
    // Abbreviations.
    let (al, is1) = m_abbrev(t, i);
    if al > 0 {
        if is1 {
            if let Some(la) = sentence_end_after(t, i + al) {
                push(al + la, al, Out::AbbrevEnd);
            }
            // `{ABBREV1}/[^][^]`, else (at the end of the file) the abbreviation and a `.`.
            if t.at(i + al + 1).is_some() {
                push(al + 2, al, Out::Same);
            }
            push(al, al, Out::AbbrevEnd);
        } else {
            push(al, al, Out::Same);
        }
    }
    // An acronym and a period before a sentence-initial word: a single letter gives the
    // letter and a `.`; a longer acronym keeps its period and adds a `.` token.
    let acro = m_acro(t, i);
    if acro > 0 && t.is(i + acro, |d| d == '.') {
        if let Some(la) = sentence_start_after(t, i + acro + 1) {
            if acro == 1 {
                push(acro + 1 + la, 1, Out::Same);
            } else {
                push(acro + 1 + la, acro + 1, Out::AbbrevEnd);
            }
        }
    }
    // ABBREV3 before a number: "No. 5", "vol. 2".
    for a in ["ca", "fig", "figs", "prop", "no", "nos", "art", "bldg", "pp", "op"] {
        let n = a.len();
        if t.starts_with_ci(i, a) && t.is(i + n, |d| d == '.') {
            let s = i + n + 1;
            let s = if t.at(s).is_some_and(|d| is_space(d) || d == '\n') { s + 1 } else { s };
            if t.at(s).is_some_and(|d| d.is_ascii_digit() || (!d.is_ascii() && is_digit(d))) {
                push(s + 1 - i, n + 1, Out::Same);
            }
        }
    }
    // `{TBSPEC}` and `{TBSPEC2}/{SPACENL}`.
    for sp in ["-rrb-", "-lrb-", "-rcb-", "-lcb-", "-rsb-", "-lsb-", "c.d.s", "pro-", "anti-", "s&p-500", "s&amp;p-500", "s&ls", "s&amp;ls"] {
        if t.starts_with_ci(i, sp) {
            push(sp.len(), sp.len(), Out::Owned(t.slice(i, i + sp.len()).replace("&amp;", "&").replace("&AMP;", "&")));
        }
    }
    for (pre, post) in [("cap", "n"), ("c", "est")] {
        if t.starts_with_ci(i, pre) && t.is(i + pre.len(), is_apos) && t.starts_with_ci(i + pre.len() + 1, post) {
            let n = pre.len() + 1 + post.len();
            push(n, n, Out::Same);
        }
    }
    let a = apos_len(t, i);
    if a > 0 && t.is(i + a, |d| d.is_ascii_digit()) && t.is(i + a + 1, |d| d.is_ascii_digit()) && t.at(i + a + 2).is_some_and(|d| is_space(d) || d == '\n') {
        push(a + 3, a + 2, Out::Same);
    }
    {
        let (len, total) = m_filename(t, i);
        push(total, len, Out::Same);
    }
    // `{WORD}\./{INSENTP}` (and the same for HTHING, THING, THINGA below).
    let insentp = |j: usize| t.is(j, |d| d == '.') && t.is(j + 1, |d| matches!(d, ',' | ';' | ':' | '\u{3001}'));
    if w > 0 && insentp(i + w) {
        push(w + 2, w + 1, Out::NoSoftHyphens);
    }
    {
        let m = m_phone(t, i);
        push(m, m, Out::Owned(t.slice(i, i + m).replace(' ', "\u{A0}").replace('(', "-LRB-").replace(')', "-RRB-")));
    }
    // Quotes.
    let dq = if c == '"' { 1 } else if t.starts_with_ci(i, "&quot;") { 6 } else { 0 };
    if dq > 0 {
        if t.is(i + dq, |d| d.is_ascii_alphanumeric() || d == '$') {
            push(dq + 1, dq, Out::Quote { probably_left: true });
        }
        push(dq, dq, Out::Quote { probably_left: false });
    }
    {
        let paren = |a: usize, b: usize| Out::Owned(t.slice(a, b).replace('(', "-LRB-").replace(')', "-RRB-"));
        let (sm, st) = m_smiley(t, i);
        push(st, sm, paren(i, i + sm));
        let m = m_asian_smiley(t, i);
        push(m, m, paren(i, i + m));
    }
    if c == '\''
        && t.is(i + 1, |d| d.is_ascii_alphabetic())
        && t.at(i + 2).is_some_and(|d| !matches!(d, ' ' | '\t' | '\n' | '\r' | '\u{A0}'))
    {
        push(3, 1, Out::Quote { probably_left: true });
    }
    if r > 0 {
        // `{REDAUX}` without lookahead (after `'/[A-Za-z]...`: loses the tie to it).
        push(r, r, Out::Quote { probably_left: false });
    }
    if is_apos(c) {
        push(1, 1, Out::Quote { probably_left: false });
    }
    if t.starts_with_ci(i, "&apos;") {
        push(6, 6, Out::Quote { probably_left: false });
    }
    if c == '\'' && t.is(i + 1, |d| d == '\'') {
        push(2, 2, Out::Quote { probably_left: false });
    }
    if is_quote_char(c) {
        let n = if t.is(i + 1, is_quote_char) { 2 } else { 1 };
        push(n, n, Out::Quote { probably_left: false });
    }
    if t.starts_with(i, "<<") || t.starts_with(i, ">>") {
        push(2, 2, Out::Same);
    }
    // Dashes, dots, joined words.
    if c == '-' {
        let n = t.run(i, |d| d == '-') - i;
        push(n, n, if (3..=4).contains(&n) { Out::Text("--") } else { Out::Same });
    }
    let ld = m_ldots(t, i);
    push(ld, ld, Out::Text("..."));
    if c == '\u{2026}' || c == '\u{85}' {
        push(1, 1, Out::Text("..."));
    }
    {
        let m = m_hthing(t, i);
        if m > 0 && insentp(i + m) {
            push(m + 2, m + 1, Out::NoSoftHyphens);
        }
        push(m, m, Out::NoSoftHyphens);
        let m = m_thing(t, i);
        if m > 0 && insentp(i + m) {
            push(m + 2, m + 1, Out::Same);
        }
        push(m, m, Out::Same);
    }
    let (ta, ts) = m_thinga(t, i);
    if ta > 0 {
        if insentp(i + ta) {
            push(ta + 2, ta + 1, Out::Owned(format!("{ts}.")));
        }
        push(ta, ta, Out::Owned(ts));
    }
    // Brackets and single characters.
    match c {
        '(' => push(1, 1, Out::Text("-LRB-")),
        ')' => push(1, 1, Out::Text("-RRB-")),
        '[' => push(1, 1, Out::Text("-LSB-")),
        ']' => push(1, 1, Out::Text("-RSB-")),
        '{' => push(1, 1, Out::Text("-LCB-")),
        '}' => push(1, 1, Out::Text("-RCB-")),
        '*' | '@' | '_' => {
            let n = t.run(i, |d| d == c) - i;
            push(n, n, Out::Same);
        }
        '#' => {
            let n = t.run(i, |d| d == '#') - i;
            push(n, n, Out::Same);
        }
        '?' | '!' => {
            let n = t.run(i, |d| d == '?' || d == '!') - i;
            push(n, n, Out::Same);
        }
        _ => {}
    }
    if cands.is_empty() {
        // Any other punctuation or symbol of the Basic Multilingual Plane is a token of
        // its own; everything else is "untokenizable" and deleted, as the Java lexer does.
        let keep = in_ranges(&KEPT, c);
        cands.push(Cand { total: 1, len: 1, out: if keep { Out::Same } else { Out::Skip } });
    }
}

/// Tokenize one caption given what follows it in the joined file (`follow`: `\n` and the
/// start of the next caption, or empty at the end of the file). Tokens are lowercased.
pub fn tokenize_caption(line: &str, follow: &str, out: &mut Vec<String>) {
    let mut c: Vec<char> = line.chars().map(|ch| if ch == '\n' { ' ' } else { ch }).collect();
    let end = c.len();
    c.extend(follow.chars());
    let t = Text { c, end };
    let mut cands = Vec::with_capacity(16);
    let mut i = 0;
    while i < end {
        // Fast paths (most of a caption): spaces, and a space-delimited run of ASCII
        // letters and digits, which no rule can extend or split (none of the longer
        // rules can match without a period, apostrophe, hyphen, slash, & or @ in it),
        // except the SPLIT3 words ("cannot" -> "can not").
        let c0 = t.c[i];
        if c0 == ' ' || c0 == '\t' {
            i += 1;
            continue;
        }
        if c0.is_ascii_alphanumeric() {
            let e = t.run(i, |c| c.is_ascii_alphanumeric());
            let n = e - i;
            let split = (n == 5 || n == 6) && SPLIT3.iter().any(|x| x.len() == n && matches_entry(&t, i, x) == Some(n));
            // A number followed by a space and a digit may be a fraction or a phone number.
            let spaced_number = t.is(e, |c| c == ' ' || c == '\u{A0}') && t.is(e + 1, |c| c.is_ascii_digit());
            if (e == end || is_space(t.c[e])) && !split && !spaced_number {
                out.push(t.c[i..e].iter().map(|c| c.to_ascii_lowercase()).collect());
                i = e;
                continue;
            }
        }
        cands.clear();
        candidates(&t, i, &mut cands);
        // Longest total match; the earliest candidate wins a tie.
        let mut best = 0;
        for (k, cand) in cands.iter().enumerate() {
            if cand.total > cands[best].total {
                best = k;
            }
        }
        let cand = &cands[best];
        let len = cand.len.max(1);
        match &cand.out {
            Out::Skip => {}
            Out::Same => out.push(t.slice(i, i + len).to_lowercase()),
            Out::Text(s) => out.push(s.to_lowercase()),
            Out::Owned(s) => out.push(s.to_lowercase()),
            Out::NoSoftHyphens => {
                let s: String = t.c[i..i + len].iter().filter(|&&c| c != '\u{AD}').collect();
                out.push(if s.is_empty() { "-".into() } else { s.to_lowercase() });
            }
            Out::Quote { probably_left } => out.push(latex_quotes(&t.slice(i, i + len), *probably_left).to_lowercase()),
            Out::AbbrevEnd => {
                out.push(t.slice(i, i + len).to_lowercase());
                out.push(".".into());
            }
            Out::Split(n) => {
                out.push(t.slice(i, i + n).to_lowercase());
                i += n;
                continue;
            }
        }
        i += len;
    }
}

/// What follows caption `i` of `lines` once they are joined with `\n`: enough characters
/// for the longest lookahead of the lexer (an acronym's period is a sentence end when
/// spaces and a word such as `Additionally` follow, possibly on later lines).
fn follow_of<S: AsRef<str>>(lines: &[S], i: usize) -> String {
    const LOOKAHEAD: usize = 32;
    let mut f = String::new();
    let mut n = 0;
    for line in &lines[i + 1..] {
        f.push('\n');
        n += 1;
        for ch in line.as_ref().chars() {
            if n >= LOOKAHEAD {
                return f;
            }
            f.push(if ch == '\n' { ' ' } else { ch });
            n += 1;
        }
        if n >= LOOKAHEAD {
            break;
        }
    }
    f
}

/// pycocoevalcap's `PTBTokenizer` over a sequence of captions (in the order they are
/// written to the tokenizer's input file): PTB tokens, lowercased, joined by a space,
/// with the `PUNCTUATIONS` tokens removed when `drop_punct`.
pub fn tokenize_captions<S: AsRef<str> + Sync>(lines: &[S], drop_punct: bool, n_threads: usize) -> Vec<String> {
    crate::parallel::map_rows(lines.len(), 1, n_threads, Vec::new, |toks: &mut Vec<String>, i, row: &mut [String]| {
        toks.clear();
        let follow = follow_of(lines, i);
        tokenize_caption(lines[i].as_ref(), &follow, toks);
        let mut s = String::new();
        for tok in toks.iter() {
            if drop_punct && is_coco_punct(tok) {
                continue;
            }
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(tok);
        }
        row[0] = s;
        Ok::<(), std::convert::Infallible>(())
    })
    .unwrap_or_else(|e| match e {})
}

/// How the caption metrics (coco BLEU, CIDEr) read a caption.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptionTokenizer {
    /// Python's `str.split()`: the caption is already tokenized (the scorers' own input).
    Split,
    /// The COCO pipeline: PTB tokens, lowercased, punctuation removed.
    Ptb,
}

impl CaptionTokenizer {
    pub fn from_name(name: &str) -> crate::Result<Self> {
        match name {
            "none" => Ok(Self::Split),
            "ptb" => Ok(Self::Ptb),
            _ => Err(crate::Error::InvalidOption(format!(
                "unknown caption tokenizer {name:?}; known: ptb, none"
            ))),
        }
    }
}

/// Captions as the COCO pipeline tokenizes them: the references of all images in one
/// tokenizer run (image by image, in order), the hypotheses in another.
pub fn tokenize_batch<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    kind: CaptionTokenizer,
    hyps: &[H],
    refs: &[Vec<R>],
    n_threads: usize,
) -> (Vec<String>, Vec<Vec<String>>) {
    match kind {
        CaptionTokenizer::Split => (
            hyps.iter().map(|h| h.as_ref().to_owned()).collect(),
            refs.iter().map(|rs| rs.iter().map(|r| r.as_ref().to_owned()).collect()).collect(),
        ),
        CaptionTokenizer::Ptb => {
            let flat: Vec<&str> = refs.iter().flat_map(|rs| rs.iter().map(|r| r.as_ref())).collect();
            let mut tok = tokenize_captions(&flat, true, n_threads).into_iter();
            let refs_tok = refs.iter().map(|rs| tok.by_ref().take(rs.len()).collect()).collect();
            (tokenize_captions(hyps, true, n_threads), refs_tok)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(lines: &[&str]) -> Vec<String> {
        tokenize_captions(lines, false, 1)
    }

    #[test]
    fn java_examples() {
        // Outputs of the Stanford CoreNLP 3.4.1 jar on the same lines.
        let cases = [
            ("A man's bike, can't stop (far) away...", "a man 's bike , ca n't stop -lrb- far -rrb- away ..."),
            ("'No Parking' sign 'a b' '5 dollars'", "` no parking ' sign ' a b ' ' 5 dollars '"),
            ("\"hello\" \"5\" \" x\" (\"a\") \"$5\"", "`` hello '' `` 5 '' '' x '' -lrb- `` a '' -rrb- `` $ 5 ''"),
            ("rock'n'roll o'clock y'all I'd cannot gonna", "rock 'n' roll o'clock y' all i 'd can not gon na"),
            ("Japan Motor Co. a", "japan motor co. a"),
            ("Japan Motor Co. A", "japan motor co. . a"),
            ("1/2 3-4 1-1/2 12/25/2010 1,000,000 -5 3.14 .5 5. 50s '80s", "1/2 3-4 1-1/2 12/25/2010 1,000,000 -5 3.14 .5 5 . 50s '80s"),
            ("A&M M&Ms a&b B&amp &amp; &lt;", "a&m m&m s a & b b & amp & <"),
            ("<b>bold</b> <|endoftext|> <-pad->", "<b> bold </b> < | endoftext | > < - pad - >"),
            ("his/her shower/tub. a/ x/y/ a_b start_of_text", "his/her shower/tub . a / x/y / a_b start_of_text"),
            ("Hello!!! Really?! 3.50. plate.a U.S.-based 3.5-inch", "hello !!! really ?! 3.50 . plate.a u.s.-based 3.5-inch"),
            ("wait... and -- and --- and . . . and ..", "wait ... and -- and -- and ... and . ."),
            ("#EarlofSkateboard #1 $8 US$5 i=on couple`s", "#earlofskateboard # 1 $ 8 us$ 5 i = on couple ` s"),
            ("Dr. Smith at St. Mark and Rd. the t. a.5", "dr. smith at st. mark and rd. the t. a. 5"),
        ];
        for (src, want) in cases {
            assert_eq!(tok(&[src]), [want], "{src}");
        }
    }

    #[test]
    fn abbreviation_at_line_end_looks_at_next_caption() {
        let got = tok(&["x Co.", "a b", "x Co.", "A b", "x Co.", "", "x Co.", " b", "x Co."]);
        assert_eq!(got, ["x co.", "a b", "x co. .", "a b", "x co. .", "", "x co. .", "b", "x co. ."]);
    }

    #[test]
    fn coco_punctuation_removed_but_brackets_kept() {
        let got = tokenize_captions(&["It's 3.5 km -- (far) away..."], true, 1);
        assert_eq!(got, ["it 's 3.5 km -lrb- far -rrb- away"]);
    }

    #[test]
    fn emoji_deleted_symbols_kept() {
        assert_eq!(tok(&["a 😀 b • c © d"]), ["a b • c © d"]);
    }

    /// Compare with the jar's output on a corpus: set PTB_SRC and PTB_TOK to files with
    /// one caption per line (input, and the jar's output on it).
    #[test]
    #[ignore]
    fn against_java_files() {
        let (Ok(src), Ok(tok_path)) = (std::env::var("PTB_SRC"), std::env::var("PTB_TOK")) else {
            return;
        };
        let src = std::fs::read_to_string(src).unwrap();
        let want = std::fs::read_to_string(tok_path).unwrap();
        let lines: Vec<&str> = src.split('\n').collect();
        let want: Vec<&str> = want.split('\n').collect();
        let got = tokenize_captions(&lines, false, 0);
        let mut bad = 0;
        for (i, (g, w)) in got.iter().zip(want.iter()).enumerate() {
            if g != w {
                bad += 1;
                if bad <= 60 {
                    println!("{i}: {}\n  got  {g}\n  want {w}", lines[i]);
                }
            }
        }
        println!("{bad} of {} differ", lines.len());
    }
}
