//! The PTB tokenizer of the COCO caption pipeline.
//!
//! pycocoevalcap's `PTBTokenizer` joins every caption with `\n`, runs Stanford CoreNLP
//! 3.4.1 `edu.stanford.nlp.process.PTBTokenizer -preserveLines -lowerCase` on the file,
//! splits the output into lines and drops the tokens of its `PUNCTUATIONS` list. This
//! module runs the same lexer: the rules of its JFlex grammar (`ptb_grammar.rs`) compiled
//! by a longest-match engine with JFlex's semantics (`ptb_dfa.rs`: at each position the
//! longest match wins, the earlier rule on a tie; trailing context counts towards the
//! length, and the token is the longest main part whose rest matches the context), over
//! UTF-16 code units as the JVM sees the text, with the lexer's character classes taken
//! from the jar itself (`ptb_chars.rs`).
//!
//! Like the jar, it reads the joined file as one text:
//! - whether an abbreviation such as `Co.` or an acronym also ends the sentence (emitting
//!   an extra `.`) depends on the characters after it, which can be the next captions;
//! - a token may span captions (an SGML tag whose quoted attribute holds the `\n`); its
//!   pieces then go to the lines the jar writes them on.
//!
//! Quirks kept on purpose: `-lowerCase` turns `-LRB-`/`-RRB-` into `-lrb-`/`-rrb-`, which
//! the upper-case `PUNCTUATIONS` list then fails to remove.
//!
//! Outside the contract: CR, VT, FF, U+2028 and U+2029 end a line in the jar (pycocoevalcap
//! then gives every later caption the line of the one before); here they are lexed as the
//! jar lexes them, but the caption stays on one line.

use std::cell::RefCell;
use std::sync::OnceLock;

// KEPT, JAVA_ALNUM and `in_ranges` serve the test that checks the grammar against the jar.
#[allow(dead_code)]
#[path = "ptb_chars.rs"]
mod ptb_chars;
#[path = "ptb_dfa.rs"]
mod ptb_dfa;
#[path = "ptb_grammar.rs"]
mod ptb_grammar;

use ptb_dfa::{Alphabet, Dfa, Nfa, Re, DEAD};
use ptb_grammar::{Act, Rule};

/// pycocoevalcap's `PUNCTUATIONS`, compared after lowercasing as pycocoevalcap does.
pub const COCO_PUNCTUATIONS: [&str; 17] = [
    "''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!", ",", ":", "-", "--",
    "...", ";",
];

fn is_coco_punct(tok: &str) -> bool {
    COCO_PUNCTUATIONS.contains(&tok)
}

/// How a rule's token is cut from its match (JFlex's trailing context).
enum Cut {
    /// No trailing context: the whole match.
    Whole,
    /// A context of fixed length: the match minus that many units.
    FixedContext(usize),
    /// A main part of fixed length.
    FixedMain(usize),
    /// The longest main part whose rest matches the context (automata indices).
    General(usize),
}

/// The compiled grammar, shared by all threads.
struct Grammar {
    alpha: Alphabet,
    main: Nfa,
    acts: Vec<Act>,
    cuts: Vec<Cut>,
    /// Per general-context rule: the main part, and the context reversed.
    general: Vec<(Nfa, Nfa)>,
}

fn grammar() -> &'static Grammar {
    static G: OnceLock<Grammar> = OnceLock::new();
    G.get_or_init(|| {
        let rules: Vec<Rule> = ptb_grammar::rules();
        let whole: Vec<Re> = rules
            .iter()
            .map(|r| match &r.context {
                None => r.main.clone(),
                Some(c) => Re::Seq(vec![r.main.clone(), c.clone()]),
            })
            .collect();
        let alpha = Alphabet::new(&whole.iter().collect::<Vec<_>>());
        let main = Nfa::new(&whole.iter().collect::<Vec<_>>(), &alpha);
        let mut general = Vec::new();
        let cuts = rules
            .iter()
            .map(|r| match &r.context {
                None => Cut::Whole,
                Some(c) => match (c.fixed_len(), r.main.fixed_len()) {
                    (Some(n), _) => Cut::FixedContext(n),
                    (None, Some(n)) => Cut::FixedMain(n),
                    (None, None) => {
                        general.push((Nfa::new(&[&r.main], &alpha), Nfa::new(&[&c.reversed()], &alpha)));
                        Cut::General(general.len() - 1)
                    }
                },
            })
            .collect();
        Grammar { alpha, main, acts: rules.iter().map(|r| r.act).collect(), cuts, general }
    })
}

/// Built states an automaton of one thread may keep (a state takes 4 bytes per class).
const MAX_DFA_STATES: usize = 20_000;

/// The lazily built automata of one thread.
struct Runner {
    main: Dfa,
    general: Vec<(Dfa, Dfa)>,
    fin: Vec<bool>,
}

impl Runner {
    fn new(g: &Grammar) -> Runner {
        Runner {
            main: Dfa::new(&g.main, g.alpha.n),
            general: g.general.iter().map(|(a, b)| (Dfa::new(a, g.alpha.n), Dfa::new(b, g.alpha.n))).collect(),
            fin: Vec::new(),
        }
    }

    /// Drop the built states of automata grown past [`MAX_DFA_STATES`] (between scans, so
    /// no state in use is lost), which bounds a thread's memory on any input.
    fn bound(&mut self, g: &Grammar) {
        if self.main.n_states() > MAX_DFA_STATES {
            self.main = Dfa::new(&g.main, g.alpha.n);
        }
        for (k, (a, b)) in self.general.iter_mut().enumerate() {
            if a.n_states() + b.n_states() > MAX_DFA_STATES {
                *a = Dfa::new(&g.general[k].0, g.alpha.n);
                *b = Dfa::new(&g.general[k].1, g.alpha.n);
            }
        }
    }

    /// The rule that matches at `pos`, the end of its match and the end of its token.
    fn scan(&mut self, g: &Grammar, buf: &[u16], pos: usize) -> (usize, usize, usize) {
        self.bound(g);
        let mut state = 0;
        // No rule of the grammar matches the empty string; a match takes one unit at least.
        let mut best = None;
        let mut i = pos;
        while i < buf.len() {
            state = self.main.next(&g.main, state, g.alpha.class(buf[i]));
            if state == DEAD {
                break;
            }
            i += 1;
            if let Some(r) = self.main.accepts(state) {
                best = Some((r, i));
            }
        }
        // The last rule matches any single unit but `\n`, which the newline rule matches.
        let (rule, end) = best.map(|(r, e)| (r as usize, e)).unwrap_or((g.acts.len() - 1, pos + 1));
        let cut = match g.cuts[rule] {
            Cut::Whole => end,
            Cut::FixedContext(n) => end - n,
            Cut::FixedMain(n) => pos + n,
            Cut::General(k) => self.general_cut(g, k, buf, pos, end),
        };
        (rule, end, cut)
    }

    /// JFlex's general lookahead: mark where the main part accepts going forwards, then
    /// walk the reversed context back from the end to the first marked position.
    fn general_cut(&mut self, g: &Grammar, k: usize, buf: &[u16], pos: usize, end: usize) -> usize {
        let (main_nfa, ctx_nfa) = &g.general[k];
        let (main, ctx) = &mut self.general[k];
        self.fin.clear();
        self.fin.resize(end - pos + 1, false);
        let mut state = 0;
        self.fin[0] = main.accepts(0).is_some();
        for i in pos..end {
            state = main.next(main_nfa, state, g.alpha.class(buf[i]));
            if state == DEAD {
                break;
            }
            self.fin[i + 1 - pos] = main.accepts(state).is_some();
        }
        let mut state = 0;
        let mut at = end;
        loop {
            if self.fin[at - pos] && ctx.accepts(state).is_some() {
                return at;
            }
            if at == pos {
                return end;
            }
            at -= 1;
            state = ctx.next(ctx_nfa, state, g.alpha.class(buf[at]));
            if state == DEAD {
                return end;
            }
        }
    }
}

thread_local! {
    static RUNNER: RefCell<Option<Runner>> = const { RefCell::new(None) };
}

fn with_runner<T>(f: impl FnOnce(&mut Runner, &Grammar) -> T) -> T {
    let g = grammar();
    RUNNER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let runner = slot.get_or_insert_with(|| Runner::new(g));
        f(runner, g)
    })
}

/// Code units as text; a lone surrogate becomes `?`, as the JVM's UTF-8 writer writes it.
fn units_to_string(u: &[u16]) -> String {
    char::decode_utf16(u.iter().copied()).map(|c| c.unwrap_or('?')).collect()
}

/// `replaceAll` of a fixed pattern.
fn replace_units(u: &[u16], f: impl Fn(char) -> Option<&'static str>) -> String {
    let mut s = String::new();
    for c in char::decode_utf16(u.iter().copied()) {
        let c = c.unwrap_or('?');
        match f(c) {
            Some(r) => s.push_str(r),
            None => s.push(c),
        }
    }
    s
}

/// `(?i:&amp;)` replaced by `&`.
fn normalize_amp(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if tail.len() >= 5 && tail.is_char_boundary(5) && tail[..5].eq_ignore_ascii_case("&amp;") {
            out.push('&');
            rest = &tail[5..];
        } else {
            out.push('&');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The lexer's `latexQuotes`: ASCII quotes by position, the others by direction.
fn latex_quotes(s: &str, probably_left: bool) -> String {
    let (single, double) = if probably_left { ("`", "``") } else { ("'", "''") };
    let mut out = String::with_capacity(s.len() + 2);
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("&apos;") {
            out.push_str(single);
            rest = &rest[6..];
            continue;
        }
        if rest.starts_with("&quot;") {
            out.push_str(double);
            rest = &rest[6..];
            continue;
        }
        match c {
            '\'' => out.push_str(single),
            '"' => out.push_str(double),
            '\u{91}' | '\u{2018}' | '\u{201B}' | '\u{2039}' => out.push('`'),
            '\u{92}' | '\u{2019}' | '\u{203A}' => out.push('\''),
            '\u{93}' | '\u{201C}' | '\u{AB}' => out.push_str("``"),
            '\u{94}' | '\u{201D}' | '\u{BB}' => out.push_str("''"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `String.toLowerCase(Locale.ENGLISH)` of the JVM that runs the jar. It differs from
/// Unicode's default lowercasing only for the capital sigma, which becomes final `ς` when
/// its word (as the JVM's word `BreakIterator` sees it) has a cased letter before it and
/// none after it; the JVM's words join letters and digits of any script but split off
/// runs of ideographs, katakana and hiragana, and single symbols.
fn java_lowercase(tok: &str) -> String {
    if !tok.contains('\u{3A3}') {
        return tok.to_lowercase();
    }
    let chars: Vec<char> = tok.chars().collect();
    let seg = java_word_segments(&chars);
    let mut out = String::with_capacity(tok.len());
    for (k, &c) in chars.iter().enumerate() {
        if c == '\u{3A3}' {
            let a = seg[..k].iter().rposition(|&s| s != seg[k]).map_or(0, |n| n + 1);
            let b = seg[k + 1..].iter().position(|&s| s != seg[k]).map_or(chars.len(), |n| k + 1 + n);
            let starts_word = k == 0 || seg[k - 1] != seg[k];
            let final_sigma = !starts_word && chars[a..k].iter().any(|&c| java_is_cased(c)) && !chars[k + 1..b].iter().any(|&c| java_is_cased(c));
            out.push(if final_sigma { '\u{3C2}' } else { '\u{3C3}' });
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// `ConditionalSpecialCasing.isCased` of the JVM: letters with case and a few others.
fn java_is_cased(c: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    matches!(get_general_category(c), G::LowercaseLetter | G::UppercaseLetter | G::TitlecaseLetter)
        || matches!(c as u32, 0x2B0..=0x2B8 | 0x2C0..=0x2C1 | 0x2E0..=0x2E4 | 0x345 | 0x37A | 0x1D2C..=0x1D61 | 0x2160..=0x217F | 0x24B6..=0x24E9)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum WordClass {
    Letter,
    Digit,
    /// Nonspacing and enclosing marks: part of whatever precedes them.
    Mark,
    /// Format characters: part of whatever precedes them, and skipped after a mid-word mark.
    Format,
    Kanji,
    Katakana,
    Hiragana,
    /// Japanese marks that join katakana or hiragana.
    CjkDiacritic,
    MidWord,
    MidNum,
    /// Both inside words and inside numbers (`'`, `"`, `.`).
    MidBoth,
    Other,
}

fn java_word_class(c: char) -> WordClass {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    let u = c as u32;
    match u {
        0x3005 | 0x4E00..=0x9FA5 | 0xF900..=0xFA2D => return WordClass::Kanji,
        0x30A1..=0x30FA | 0x30FD | 0x30FE => return WordClass::Katakana,
        0x3041..=0x3094 | 0x309D | 0x309E => return WordClass::Hiragana,
        0x3099..=0x309C | 0x30FB | 0x30FC => return WordClass::CjkDiacritic,
        _ => {}
    }
    match c {
        '\'' | '"' | '.' => return WordClass::MidBoth,
        ',' | '\u{66B}' => return WordClass::MidNum,
        '\u{AD}' | '\u{2027}' => return WordClass::MidWord,
        _ => {}
    }
    match get_general_category(c) {
        G::NonspacingMark | G::EnclosingMark => WordClass::Mark,
        G::Format => WordClass::Format,
        G::UppercaseLetter | G::LowercaseLetter | G::TitlecaseLetter | G::ModifierLetter | G::OtherLetter | G::SpacingMark => WordClass::Letter,
        G::DecimalNumber | G::LetterNumber | G::OtherNumber => WordClass::Digit,
        G::DashPunctuation | G::ConnectorPunctuation => WordClass::MidWord,
        _ => WordClass::Other,
    }
}

/// What may open a number (`$`, `#`, `.`, currency signs but the cent) and close one.
fn java_pre_number(c: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    matches!(c, '#' | '.') || (c != '\u{A2}' && get_general_category(c) == G::CurrencySymbol)
}

fn java_post_number(c: char) -> bool {
    matches!(c, '%' | '&' | '\u{A2}' | '\u{66A}' | '\u{2030}' | '\u{2031}')
}

/// The segment (word) index of every character, after the JVM's word rules (checked
/// against `BreakIterator.getWordInstance` where a capital sigma's lowercasing depends on
/// them): letters and digits alternate within one word, joined inside by one mid-word (or
/// mid-number) mark between two letters (digits); a number may open with a currency sign,
/// `#` or `.` and close with a percent sign; runs of kanji, of katakana and of hiragana
/// are words of their own; anything else is a word of one character; marks and format
/// characters belong to what precedes them.
fn java_word_segments(chars: &[char]) -> Vec<usize> {
    use WordClass as W;
    let cls: Vec<W> = chars.iter().map(|&c| java_word_class(c)).collect();
    let ignorable = |k: usize| matches!(cls[k], W::Mark | W::Format);
    let skip = |mut k: usize| {
        while k < cls.len() && ignorable(k) {
            k += 1;
        }
        k
    };
    // A word or number from `i` (of `kind`), alternating letters and digits.
    let unit = |mut i: usize, mut kind: W| -> usize {
        loop {
            i = skip(i + 1);
            while i < cls.len() {
                if cls[i] == kind {
                    i = skip(i + 1);
                    continue;
                }
                let joins = match kind {
                    W::Letter => matches!(cls[i], W::MidWord | W::MidBoth),
                    _ => matches!(cls[i], W::MidNum | W::MidBoth),
                };
                let mut j = i + 1;
                while j < cls.len() && cls[j] == W::Format {
                    j += 1;
                }
                if joins && j < cls.len() && cls[j] == kind {
                    i = j;
                    continue;
                }
                break;
            }
            if kind == W::Digit && i < cls.len() && java_post_number(chars[i]) {
                return skip(i + 1);
            }
            let other = if kind == W::Letter { W::Digit } else { W::Letter };
            if i < cls.len() && cls[i] == other {
                kind = other;
                continue;
            }
            return i;
        }
    };
    let mut seg = vec![0; chars.len()];
    let (mut i, mut n) = (0, 0);
    while i < chars.len() {
        let start = i;
        if start == 0 {
            // Leading marks belong to the first word.
            i = skip(0);
            if i == chars.len() {
                break;
            }
        }
        i = match cls[i] {
            W::Letter | W::Digit => unit(i, cls[i]),
            _ if java_pre_number(chars[i]) && i + 1 < cls.len() && cls[i + 1] == W::Digit => unit(i + 1, W::Digit),
            W::Kanji => {
                let mut j = i + 1;
                while j < cls.len() && (cls[j] == W::Kanji || ignorable(j)) {
                    j += 1;
                }
                j
            }
            W::Katakana | W::Hiragana | W::CjkDiacritic => {
                let mut best = i + 1;
                for kind in [W::Katakana, W::Hiragana] {
                    let mut j = i;
                    while j < cls.len() && (cls[j] == kind || cls[j] == W::CjkDiacritic || (j > i && ignorable(j))) {
                        j += 1;
                    }
                    best = best.max(j);
                }
                best
            }
            _ => skip(i + 1),
        };
        for s in &mut seg[start..i] {
            *s = n;
        }
        n += 1;
    }
    seg
}

/// The token a rule makes of `buf[pos..cut]`, and where the lexer goes on.
fn token(act: Act, buf: &[u16], pos: usize, cut: usize) -> (Option<String>, usize) {
    let text = &buf[pos..cut];
    let tok = match act {
        Act::Text => units_to_string(text),
        Act::Pushback(n) => return (Some(units_to_string(&text[..text.len() - n])), cut - n),
        Act::Sgml | Act::Frac => replace_units(text, |c| (c == ' ').then_some("\u{A0}")),
        Act::Fixed(s) => s.to_owned(),
        Act::Amp => normalize_amp(&units_to_string(text)),
        Act::NoSoftHyphens => {
            let s: String = units_to_string(text).chars().filter(|&c| c != '\u{AD}').collect();
            if s.is_empty() {
                "-".to_owned()
            } else {
                s
            }
        }
        Act::Quote(left) => latex_quotes(&units_to_string(text), left),
        Act::Frac2 => replace_units(text, |c| match c {
            '\u{BC}' => Some("1/4"),
            '\u{BD}' => Some("1/2"),
            '\u{BE}' => Some("3/4"),
            '\u{2153}' => Some("1/3"),
            '\u{2154}' => Some("2/3"),
            _ => None,
        }),
        Act::Currency => replace_units(text, |c| match c {
            '\u{A2}' => Some("cents"),
            '\u{A3}' => Some("#"),
            '\u{80}' | '\u{A4}' | '\u{20A0}' | '\u{20AC}' => Some("$"),
            _ => None,
        }),
        Act::AcronymEnd => {
            if text.len() == 2 {
                return (Some(units_to_string(&text[..1])), pos + 1);
            }
            return (Some(units_to_string(text)), cut - 1);
        }
        Act::AbbrevEnd => return (Some(units_to_string(text)), cut - 1),
        Act::Phone => replace_units(text, |c| match c {
            ' ' => Some("\u{A0}"),
            '(' => Some("-LRB-"),
            ')' => Some("-RRB-"),
            _ => None,
        }),
        Act::Parens => replace_units(text, |c| match c {
            '(' => Some("-LRB-"),
            ')' => Some("-RRB-"),
            _ => None,
        }),
        Act::Hyphens => {
            if (3..=4).contains(&text.len()) {
                "--".to_owned()
            } else {
                units_to_string(text)
            }
        }
        Act::Ellipsis => "...".to_owned(),
        Act::Skip | Act::Newline => return (None, cut),
    };
    (Some(tok), cut)
}

/// The joined file: the captions (their own `\n` made spaces) separated by `\n`, as UTF-16.
struct Joined {
    buf: Vec<u16>,
    /// Where each caption starts, then the end of the text plus one.
    starts: Vec<usize>,
}

impl Joined {
    fn new<S: AsRef<str>>(lines: &[S]) -> Joined {
        let mut buf = Vec::with_capacity(lines.iter().map(|l| l.as_ref().len() + 1).sum());
        let mut starts = Vec::with_capacity(lines.len() + 1);
        for (k, line) in lines.iter().enumerate() {
            if k > 0 {
                buf.push(b'\n' as u16);
            }
            starts.push(buf.len());
            buf.extend(line.as_ref().encode_utf16().map(|u| if u == b'\n' as u16 { b' ' as u16 } else { u }));
        }
        starts.push(buf.len() + 1);
        Joined { buf, starts }
    }
    /// Where caption `i` ends (its `\n`, or the end of the text).
    fn end(&self, i: usize) -> usize {
        self.starts[i + 1] - 1
    }
}

/// The jar's output line for caption `line` (lexing from `pos`, with `out` already holding
/// what the line starts with); if a token runs past the line's end, its pieces after the
/// first `\n` and the position after it.
fn lex_line(r: &mut Runner, g: &Grammar, j: &Joined, line: usize, mut pos: usize, out: &mut String) -> Option<(Vec<String>, usize)> {
    let end = j.end(line);
    while pos < end {
        let (rule, _, cut) = r.scan(g, &j.buf, pos);
        let (tok, next) = token(g.acts[rule], &j.buf, pos, cut);
        if let Some(tok) = tok {
            let tok = java_lowercase(&tok);
            if !out.is_empty() {
                out.push(' ');
            }
            if next > end {
                let mut pieces = tok.split('\n').map(str::to_owned);
                out.push_str(&pieces.next().unwrap_or_default());
                return Some((pieces.collect(), next));
            }
            out.push_str(&tok);
        }
        pos = next;
    }
    None
}

/// The jar's output lines for `lines` (pycocoevalcap's input file), before the punctuation
/// filter. Lines are lexed in parallel, each from its start; a token that runs past a
/// line's end (rare) makes the following lines be lexed again from where it ends.
fn jar_lines<S: AsRef<str> + Sync>(lines: &[S], n_threads: usize) -> Vec<String> {
    let j = Joined::new(lines);
    let n = lines.len();
    let mut out: Vec<(String, Option<(Vec<String>, usize)>)> =
        crate::parallel::map_rows(n, 1, n_threads, || (), |_, i, row: &mut [(String, Option<(Vec<String>, usize)>)]| {
            let mut s = String::new();
            let spill = with_runner(|r, g| lex_line(r, g, &j, i, j.starts[i], &mut s));
            row[0] = (s, spill);
            Ok::<(), std::convert::Infallible>(())
        })
        .unwrap_or_else(|e| match e {});
    let mut i = 0;
    while i < n {
        let Some((pieces, next)) = out[i].1.take() else {
            i += 1;
            continue;
        };
        // The token's pieces fill the lines its `\n`s cross; the last piece starts the line
        // the lexer goes on with.
        let m = pieces.len();
        for (k, piece) in pieces.into_iter().enumerate() {
            let line = i + 1 + k;
            if line >= n {
                break;
            }
            out[line] = (piece, None);
            if k + 1 == m {
                let mut s = std::mem::take(&mut out[line].0);
                let spill = with_runner(|r, g| lex_line(r, g, &j, line, next, &mut s));
                out[line] = (s, spill);
            }
        }
        i += m.max(1);
    }
    out.into_iter().map(|(s, _)| s).collect()
}

/// pycocoevalcap's `PTBTokenizer` over a sequence of captions (in the order they are
/// written to the tokenizer's input file): PTB tokens, lowercased, joined by a space,
/// with the `PUNCTUATIONS` tokens removed when `drop_punct` (as pycocoevalcap does it:
/// `line.rstrip().split(' ')`, filtered, joined).
pub fn tokenize_captions<S: AsRef<str> + Sync>(lines: &[S], drop_punct: bool, n_threads: usize) -> Vec<String> {
    let mut out = jar_lines(lines, n_threads);
    if drop_punct {
        for line in &mut out {
            let kept: Vec<&str> = crate::pystr::py_rstrip(line).split(' ').filter(|w| !is_coco_punct(w)).collect();
            *line = kept.join(" ");
        }
    }
    out
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
    fn token_spanning_captions_lands_on_the_jars_lines() {
        // The jar's output: the SGML tag holds the `\n` between two captions.
        let got = tok(&["a <b c='x", "y'> d e", "f", "<g h=\"1", "2", "3\" > i", "j"]);
        assert_eq!(got, ["a <b\u{A0}c='x", "y'> d e", "f", "<g\u{A0}h=\"1", "2", "3\"\u{A0}> i", "j"]);
    }

    #[test]
    fn caseless_literals_final_sigma_and_surrogates_as_the_jar() {
        let got = tok(&[
            "\u{212A}y. a",
            "\u{17F}q. a",
            "\u{131}nc. a",
            "Mr\u{17F}. A",
            "\u{39F}\u{394}\u{39F}\u{3A3} a\u{3A3} \u{432}\u{661}\u{3A3}\u{6587} c\u{3A3}3\u{3B2} \u{39F}\u{394}\u{39F}\u{3A3}_no",
            "U.S.\u{3000}\u{3000}The",
            "http://x.com/\u{1F600}a \u{1F600} a\u{1F600}b",
        ]);
        assert_eq!(
            got,
            [
                "ky. a",
                "\u{17F}q. a",
                "\u{131}nc. a",
                "mr\u{17F}. a",
                "\u{3BF}\u{3B4}\u{3BF}\u{3C2} a\u{3C2} \u{432}\u{661}\u{3C2}\u{6587} c\u{3C3}3\u{3B2} \u{3BF}\u{3B4}\u{3BF}\u{3C3}_no",
                "u.s. . the",
                "http://x.com/\u{1F600}a a b",
            ]
        );
    }

    #[test]
    fn coco_punctuation_removed_but_brackets_kept() {
        let got = tokenize_captions(&["It's 3.5 km -- (far) away..."], true, 1);
        assert_eq!(got, ["it 's 3.5 km -lrb- far -rrb- away"]);
    }

    /// Every BMP character alone between spaces, and after `#`, `-` and `1`, gives what the
    /// jar gives (its answers are the probed tables of `ptb_chars.rs`): the grammar's classes
    /// and rules agree with the jar character by character.
    #[test]
    fn single_characters_agree_with_the_probed_classes() {
        use ptb_chars::{in_ranges, DIGIT, JAVA_ALNUM, KEPT, LETTER};
        let cps: Vec<char> = (0u32..0x10000)
            .filter_map(char::from_u32)
            .filter(|c| !"\n\r\u{0B}\u{0C}\u{2028}\u{2029}".contains(*c))
            .collect();
        let mut lines = Vec::new();
        for &c in &cps {
            lines.extend([format!("a {c} b"), format!("#{c}"), format!("-{c}"), format!("1{c}")]);
        }
        let out = tok(&lines.iter().map(String::as_str).collect::<Vec<_>>());
        let one = |s: &str| !s.is_empty() && !s.contains(' ');
        let mut bad = Vec::new();
        for (k, &c) in cps.iter().enumerate() {
            let [alone, hash, minus, digit] = [&out[4 * k], &out[4 * k + 1], &out[4 * k + 2], &out[4 * k + 3]];
            let checks = [
                (alone != "a b", in_ranges(&KEPT, c)),
                (c != '#' && c != '-' && one(hash) && hash != "#", in_ranges(&LETTER, c)),
                (c != '-' && one(minus) && minus != "-", in_ranges(&DIGIT, c)),
                (one(digit) && digit != "1", in_ranges(&JAVA_ALNUM, c)),
            ];
            if checks.iter().any(|(got, want)| got != want) {
                bad.push((c as u32, checks.map(|(g, w)| (g, w))));
            }
        }
        assert!(bad.is_empty(), "{} characters differ: {:x?}", bad.len(), &bad[..bad.len().min(20)]);
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
