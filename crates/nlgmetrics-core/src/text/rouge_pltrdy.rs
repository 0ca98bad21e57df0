//! ROUGE as the PyPI packages `rouge` 1.0.1 (pltrdy) and `rouge-chinese` 1.0.3 compute it
//! (`Rouge().get_scores`), the ROUGE of LLaMA-Factory, ChatGLM's scripts, OpenCompass's
//! `JiebaRougeEvaluator`, evalscope and LongBench's `rouge_zh_score`.
//!
//! Sentences: `rouge` splits the text on `.`; `rouge-chinese` inserts a line break after
//! `。！？?` (not before a closing quote), after `......` and `……`, after a terminator plus
//! closing quote (not before another terminator), strips trailing whitespace and splits
//! on `\n`. Pieces of length 0 are dropped; each remaining piece's words are
//! `piece.split()` (Python whitespace), or one empty word `""` if the piece is whitespace
//! only. No sentence on one side: the reference raises ("Hypothesis is empty."); here
//! the row's last column is 0 and the caller decides.
//!
//! ROUGE-N (both): n-grams run over the words of all sentences in a row (across sentence
//! boundaries). `exclusive=True` (default): the *sets* of n-grams are compared
//! (`|hyp|`, `|ref|`, `|hyp ∩ ref|` distinct n-grams); `exclusive=False`: multisets with
//! clipped counts. `P = o/|hyp|` (0 if `|hyp| = 0`), `R = o/|ref|`,
//! `F = 2·((P·R)/(P + R + 1e-8))`.
//!
//! ROUGE-L. `rouge` (summary level, union LCS): for every reference sentence and every
//! hypothesis sentence the LCS is reconstructed (recursive traceback: diagonal on a
//! match, else up when the upper cell is strictly larger, else left) and its *words*
//! are united; with `exclusive=True` `llcs` is the number of distinct words in the union
//! and `m`, `n` the numbers of distinct reference and hypothesis words; with
//! `exclusive=False` `llcs` is the sum of the LCS lengths and `m`, `n` the word counts.
//! `rouge-chinese`: `llcs` is the LCS of the two whole word lists, `m`, `n` their lengths
//! (whatever `exclusive`). `R = llcs/m`, `P = llcs/n`, `F = 2·((P·R)/(P + R + 1e-8))`.
//!
//! Segment statistics (f64): per type `[P, R, F]`, then a flag: `0` if a side has no
//! sentence (every score 0), `1` if both have one but a side has no word other than the
//! empty word (whitespace-only text; scores computed as the package does), else `2`.

use crate::error::{Error, Result};
use crate::parallel::map_rows;
use crate::pystr::{py_rstrip, py_split};
use crate::text::rouge_lcs::lcs_len;
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// PyPI `rouge` 1.0.1.
    Pltrdy,
    /// PyPI `rouge-chinese` 1.0.3.
    Chinese,
}

impl Variant {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "pltrdy" => Ok(Variant::Pltrdy),
            "rouge-chinese" => Ok(Variant::Chinese),
            _ => Err(Error::InvalidOption(format!(
                "unknown ROUGE package flavour {name:?}; known: pltrdy, rouge-chinese"
            ))),
        }
    }
}

/// `rouge-1` .. `rouge-5` (`N(n)`) or `rouge-l`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    N(usize),
    L,
}

impl Kind {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "rouge-1" => Ok(Kind::N(1)),
            "rouge-2" => Ok(Kind::N(2)),
            "rouge-3" => Ok(Kind::N(3)),
            "rouge-4" => Ok(Kind::N(4)),
            "rouge-5" => Ok(Kind::N(5)),
            "rouge-l" => Ok(Kind::L),
            _ => Err(Error::InvalidOption(format!(
                "unknown ROUGE metric {name:?} for the rouge/rouge-chinese flavours; known: rouge-1, rouge-2, rouge-3, rouge-4, rouge-5, rouge-l"
            ))),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    pub variant: Variant,
    pub kinds: Vec<Kind>,
    pub exclusive: bool,
}

impl Config {
    pub fn width(&self) -> usize {
        3 * self.kinds.len() + 1
    }
}

const TERMINATORS: [char; 4] = ['。', '！', '？', '?'];
const QUOTES: [char; 2] = ['\u{201d}', '\u{2019}'];

/// `rouge-chinese`'s `Rouge.cut_sent`: four `re.sub` passes, `rstrip()`, `split("\n")`.
pub fn cut_sent(para: &str) -> Vec<String> {
    let mut c: Vec<char> = para.chars().collect();
    // ([。！？\?])([^”’]) -> \1\n\2
    c = sub_pass(&c, |c, i| {
        (TERMINATORS.contains(&c[i]) && i + 1 < c.len() && !QUOTES.contains(&c[i + 1])).then_some(1)
    });
    // (\.{6})([^”’])
    if c.windows(6).any(|w| w.iter().all(|&x| x == '.')) {
        c = sub_pass(&c, |c, i| {
            (i + 6 < c.len()
                && c[i..i + 6].iter().all(|&x| x == '.')
                && !QUOTES.contains(&c[i + 6]))
            .then_some(6)
        });
    }
    // (\…{2})([^”’])
    if c.windows(2).any(|w| w[0] == '…' && w[1] == '…') {
        c = sub_pass(&c, |c, i| {
            (i + 2 < c.len() && c[i] == '…' && c[i + 1] == '…' && !QUOTES.contains(&c[i + 2]))
                .then_some(2)
        });
    }
    // ([。！？\?][”’])([^，。！？\?])
    if c.iter().any(|x| QUOTES.contains(x)) {
        c = sub_pass(&c, |c, i| {
            (i + 2 < c.len()
                && TERMINATORS.contains(&c[i])
                && QUOTES.contains(&c[i + 1])
                && c[i + 2] != '，'
                && !TERMINATORS.contains(&c[i + 2]))
            .then_some(2)
        });
    }
    let s: String = c.into_iter().collect();
    py_rstrip(&s).split('\n').map(str::to_string).collect()
}

/// [`cut_sent`] as slices of the text when only its first pass can apply (no `......`,
/// `……` or closing quote in the text); `None` otherwise.
fn cut_sent_borrowed(para: &str) -> Option<Vec<&str>> {
    if para.contains("......") || para.contains("……") || para.contains(|c: char| QUOTES.contains(&c)) {
        return None;
    }
    let t = py_rstrip(para);
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = t.char_indices().peekable();
    // breaks of `([。！？\?])([^”’])` (no quotes here: every terminator with a next
    // character), scanning past the consumed character, and the text's own line breaks
    while let Some((i, c)) = it.next() {
        if c == '\n' {
            out.push(&t[start..i]);
            start = i + 1;
        } else if TERMINATORS.contains(&c) {
            let end = i + c.len_utf8();
            if let Some(&(_, next)) = it.peek() {
                out.push(&t[start..end]);
                start = end;
                it.next(); // the consumed character
                if next == '\n' {
                    out.push("");
                    start = end + 1;
                }
            }
        }
    }
    out.push(&t[start..]);
    Some(out)
}

/// One `re.sub(r"(A)(B)", r"\1\n\2", ...)` pass: `at(c, i)` gives the length of group 1
/// when the pattern matches at `i` (group 2 is always one character). Matches do not
/// overlap; scanning resumes after group 2, as `re.sub` does.
fn sub_pass(c: &[char], at: impl Fn(&[char], usize) -> Option<usize>) -> Vec<char> {
    let mut out = Vec::with_capacity(c.len() + 4);
    let mut i = 0;
    while i < c.len() {
        if let Some(k) = at(c, i) {
            out.extend_from_slice(&c[i..i + k]);
            out.push('\n');
            out.push(c[i + k]);
            i += k + 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

#[derive(Default)]
pub struct Scratch {
    row: Vec<u32>,
    table: Vec<u32>,
    set_h: FxHashSet<u64>,
    set_r: FxHashSet<u64>,
    marks: Vec<u8>,
    hw: Vec<u32>,
    rw: Vec<u32>,
}

/// Whether `text` has a terminator (`。！？?`), `.`, `…` or `\n`: a byte scan of the UTF-8
/// (continuation bytes never equal a lead byte or ASCII, so a match is a whole character).
fn may_break(text: &str) -> bool {
    let b = text.as_bytes();
    let at = |i: usize, x: u8, y: u8| b.get(i + 1) == Some(&x) && b.get(i + 2) == Some(&y);
    b.iter().enumerate().any(|(i, &c)| match c {
        b'.' | b'?' | b'\n' => true,
        0xE3 => at(i, 0x80, 0x82),                     // 。
        0xEF => at(i, 0xBC, 0x81) || at(i, 0xBC, 0x9F), // ！ ？
        0xE2 => at(i, 0x80, 0xA6),                     // …
        _ => false,
    })
}

/// The non-empty sentence pieces of a text (borrowed where no break is inserted).
fn pieces(text: &str, variant: Variant) -> Vec<Cow<'_, str>> {
    match variant {
        Variant::Pltrdy => text
            .split('.')
            .filter(|p| !p.is_empty())
            .map(Cow::Borrowed)
            .collect(),
        Variant::Chinese => {
            if !may_break(text) {
                // No pass can insert a break: one piece, the rstripped text.
                let t = py_rstrip(text);
                return if t.is_empty() {
                    Vec::new()
                } else {
                    vec![Cow::Borrowed(t)]
                };
            }
            if let Some(p) = cut_sent_borrowed(text) {
                return p.into_iter().filter(|p| !p.is_empty()).map(Cow::Borrowed).collect();
            }
            cut_sent(text).into_iter().filter(|p| !p.is_empty()).map(Cow::Owned).collect()
        }
    }
}

/// The interned word ids of all pieces in a row (`""` for a whitespace-only piece): the
/// concatenation of [`sentences`], without a list per sentence.
fn words_into<'a>(pieces: &'a [Cow<'a, str>], vocab: &mut FxHashMap<&'a str, u32>, out: &mut Vec<u32>) {
    out.clear();
    for piece in pieces {
        let before = out.len();
        for w in py_split(piece) {
            let next = vocab.len() as u32;
            out.push(*vocab.entry(w).or_insert(next));
        }
        if out.len() == before {
            let next = vocab.len() as u32;
            out.push(*vocab.entry("").or_insert(next));
        }
    }
}

/// Sentences as lists of interned word ids (`[""]` for a whitespace-only piece).
fn sentences<'a>(pieces: &'a [Cow<'a, str>], vocab: &mut FxHashMap<&'a str, u32>) -> Vec<Vec<u32>> {
    let mut intern = |w: &'a str| -> u32 {
        let next = vocab.len() as u32;
        *vocab.entry(w).or_insert(next)
    };
    pieces
        .iter()
        .map(|piece| {
            let mut ws: Vec<u32> = py_split(piece).map(&mut intern).collect();
            if ws.is_empty() {
                ws.push(intern(""));
            }
            ws
        })
        .collect()
}

fn prf(hyp: usize, reference: usize, overlap: usize) -> [f64; 3] {
    let p = if hyp == 0 {
        0.0
    } else {
        overlap as f64 / hyp as f64
    };
    let r = if reference == 0 {
        0.0
    } else {
        overlap as f64 / reference as f64
    };
    [p, r, 2.0 * ((p * r) / (p + r + 1e-8))]
}

fn rouge_n(
    h: &[u32],
    r: &[u32],
    n: usize,
    exclusive: bool,
    n_ids: usize,
    s: &mut Scratch,
) -> [f64; 3] {
    let hn = if h.len() >= n { h.len() - n + 1 } else { 0 };
    let rn = if r.len() >= n { r.len() - n + 1 } else { 0 };
    if exclusive && n == 1 {
        // distinct words: marks over the pair's dense ids (1 hyp, 2 ref)
        s.marks.clear();
        s.marks.resize(n_ids, 0);
        let (mut ch, mut cr, mut o) = (0usize, 0usize, 0usize);
        for &w in h {
            if s.marks[w as usize] & 1 == 0 {
                s.marks[w as usize] |= 1;
                ch += 1;
            }
        }
        for &w in r {
            let m = &mut s.marks[w as usize];
            if *m & 2 == 0 {
                *m |= 2;
                cr += 1;
                if *m & 1 != 0 {
                    o += 1;
                }
            }
        }
        return prf(ch, cr, o);
    }
    if exclusive && n == 2 {
        s.set_h.clear();
        s.set_r.clear();
        s.set_h
            .extend(h.windows(2).map(|g| ((g[0] as u64) << 32) | g[1] as u64));
        s.set_r
            .extend(r.windows(2).map(|g| ((g[0] as u64) << 32) | g[1] as u64));
        let o = s.set_h.iter().filter(|g| s.set_r.contains(*g)).count();
        return prf(s.set_h.len(), s.set_r.len(), o);
    }
    let hg = || (0..hn).map(|i| &h[i..i + n]);
    let rg = || (0..rn).map(|i| &r[i..i + n]);
    if exclusive {
        let hs: FxHashSet<&[u32]> = hg().collect();
        let rs: FxHashSet<&[u32]> = rg().collect();
        let o = if hs.len() <= rs.len() {
            hs.iter().filter(|g| rs.contains(*g)).count()
        } else {
            rs.iter().filter(|g| hs.contains(*g)).count()
        };
        prf(hs.len(), rs.len(), o)
    } else {
        let mut counts: FxHashMap<&[u32], i64> = FxHashMap::default();
        for g in rg() {
            *counts.entry(g).or_insert(0) += 1;
        }
        let mut o = 0usize;
        for g in hg() {
            if let Some(c) = counts.get_mut(g) {
                if *c > 0 {
                    *c -= 1;
                    o += 1;
                }
            }
        }
        prf(hn, rn, o)
    }
}

/// The words of `rouge`'s recursive `_recon_lcs(x, y)` traceback (`x` the reference
/// sentence), added to `union`; returns the number of nested `_recon` calls it makes.
fn recon_lcs_words(
    x: &[u32],
    y: &[u32],
    table: &mut Vec<u32>,
    union: &mut FxHashSet<u32>,
) -> usize {
    let (n, m) = (x.len(), y.len());
    let w = m + 1;
    table.clear();
    table.resize((n + 1) * w, 0);
    for i in 1..=n {
        for j in 1..=m {
            table[i * w + j] = if x[i - 1] == y[j - 1] {
                table[(i - 1) * w + j - 1] + 1
            } else {
                table[(i - 1) * w + j].max(table[i * w + j - 1])
            };
        }
    }
    let (mut i, mut j) = (n, m);
    let mut calls = 1;
    while i > 0 && j > 0 {
        calls += 1;
        if x[i - 1] == y[j - 1] {
            union.insert(x[i - 1]);
            i -= 1;
            j -= 1;
        } else if table[(i - 1) * w + j] > table[i * w + j - 1] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    calls
}

/// The deepest nesting of `rouge` 1.0.1's recursive `_recon` over the sentence pairs of
/// ROUGE-L (`exclusive=True`), per pair; 0 where a side has no sentence. CPython raises
/// `RecursionError` when this plus the caller's frame depth passes the recursion limit.
pub fn pltrdy_traceback_depths<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    hyps: &[H],
    refs: &[R],
    n_threads: usize,
) -> Result<Vec<u64>> {
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch {
            what: "predictions and references".into(),
            left: hyps.len(),
            right: refs.len(),
        });
    }
    map_rows(hyps.len(), 1, n_threads, Scratch::default, |s, i, row| {
        let hp = pieces(hyps[i].as_ref(), Variant::Pltrdy);
        let rp = pieces(refs[i].as_ref(), Variant::Pltrdy);
        let mut vocab: FxHashMap<&str, u32> = FxHashMap::default();
        let hs = sentences(&hp, &mut vocab);
        let rs = sentences(&rp, &mut vocab);
        let mut union = FxHashSet::default();
        let mut deepest = 0usize;
        for r in &rs {
            for h in &hs {
                deepest = deepest.max(recon_lcs_words(r, h, &mut s.table, &mut union));
            }
        }
        row[0] = deepest as u64;
        Ok(())
    })
}

fn rouge_l(
    hyp: &[Vec<u32>],
    reference: &[Vec<u32>],
    hw: &[u32],
    rw: &[u32],
    cfg: &Config,
    s: &mut Scratch,
) -> [f64; 3] {
    let (llcs, m, n) = match (cfg.variant, cfg.exclusive) {
        (Variant::Chinese, _) => (lcs_len(rw, hw, &mut s.row), rw.len(), hw.len()),
        (Variant::Pltrdy, false) => {
            let mut total = 0usize;
            for r in reference {
                for h in hyp {
                    total += lcs_len(r, h, &mut s.row);
                }
            }
            (total, rw.len(), hw.len())
        }
        (Variant::Pltrdy, true) => {
            let mut union: FxHashSet<u32> = FxHashSet::default();
            for r in reference {
                for h in hyp {
                    let _ = recon_lcs_words(r, h, &mut s.table, &mut union);
                }
            }
            let m = rw.iter().collect::<FxHashSet<_>>().len();
            let n = hw.iter().collect::<FxHashSet<_>>().len();
            (union.len(), m, n)
        }
    };
    let r = llcs as f64 / m as f64;
    let p = llcs as f64 / n as f64;
    [p, r, 2.0 * ((p * r) / (p + r + 1e-8))]
}

pub fn segment_stats(hyp: &str, reference: &str, cfg: &Config, s: &mut Scratch, out: &mut [f64]) {
    let hp = pieces(hyp, cfg.variant);
    let rp = pieces(reference, cfg.variant);
    out.fill(0.0);
    if hp.is_empty() || rp.is_empty() {
        return;
    }
    let mut vocab: FxHashMap<&str, u32> =
        FxHashMap::with_capacity_and_hasher(128, Default::default());
    if cfg.variant == Variant::Chinese {
        // rouge-chinese reads only the whole word lists (its ROUGE-L too)
        let (mut hw, mut rw) = (std::mem::take(&mut s.hw), std::mem::take(&mut s.rw));
        words_into(&hp, &mut vocab, &mut hw);
        words_into(&rp, &mut vocab, &mut rw);
        let n_ids = vocab.len();
        let empty_word = vocab.get("").copied();
        let wordless = |w: &[u32]| empty_word.is_some_and(|e| w.iter().all(|&x| x == e));
        for (k, kind) in cfg.kinds.iter().enumerate() {
            let v = match *kind {
                Kind::N(n) => rouge_n(&hw, &rw, n, cfg.exclusive, n_ids, s),
                Kind::L => rouge_l(&[], &[], &hw, &rw, cfg, s),
            };
            out[3 * k..3 * k + 3].copy_from_slice(&v);
        }
        out[3 * cfg.kinds.len()] = if wordless(&hw) || wordless(&rw) { 1.0 } else { 2.0 };
        s.hw = hw;
        s.rw = rw;
        return;
    }
    let hs = sentences(&hp, &mut vocab);
    let rs = sentences(&rp, &mut vocab);
    let n_ids = vocab.len();
    let hw: Vec<u32> = hs.concat();
    let rw: Vec<u32> = rs.concat();
    let empty_word = vocab.get("").copied();
    let wordless = |w: &[u32]| empty_word.is_some_and(|e| w.iter().all(|&x| x == e));
    for (k, kind) in cfg.kinds.iter().enumerate() {
        let v = match *kind {
            Kind::N(n) => rouge_n(&hw, &rw, n, cfg.exclusive, n_ids, s),
            Kind::L => rouge_l(&hs, &rs, &hw, &rw, cfg, s),
        };
        out[3 * k..3 * k + 3].copy_from_slice(&v);
    }
    out[3 * cfg.kinds.len()] = if wordless(&hw) || wordless(&rw) {
        1.0
    } else {
        2.0
    };
}

pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    hyps: &[H],
    refs: &[R],
    cfg: &Config,
    n_threads: usize,
) -> Result<Vec<f64>> {
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch {
            what: "predictions and references".into(),
            left: hyps.len(),
            right: refs.len(),
        });
    }
    if cfg.kinds.is_empty() {
        return Err(Error::InvalidOption(
            "name at least one ROUGE metric".into(),
        ));
    }
    map_rows(
        hyps.len(),
        cfg.width(),
        n_threads,
        Scratch::default,
        |s, i, row| {
            segment_stats(hyps[i].as_ref(), refs[i].as_ref(), cfg, s, row);
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(variant: Variant) -> Config {
        Config {
            variant,
            kinds: vec![Kind::N(1), Kind::N(2), Kind::L],
            exclusive: true,
        }
    }

    #[test]
    fn borrowed_cut_sent_equals_the_passes() {
        for t in ["你好。世界", "a。。。x", "a？ ", "", "a。\n\nb", "a。\n", "x?y? z！\n\n。", "  \n ", "。"] {
            let want: Vec<String> = cut_sent(t);
            let got: Vec<&str> = cut_sent_borrowed(t).unwrap();
            assert_eq!(got, want, "{t:?}");
        }
    }

    #[test]
    fn may_break_is_the_character_test() {
        let chars = ['。', '！', '？', '?', '.', '\u{2026}', '\n', 'a', '中', '，', '\u{2025}', '\u{3001}', '\u{FF01}', '\u{FF1F}', '\u{FF00}', '😀', '”'];
        for a in chars {
            for b in chars {
                let t: String = [a, b].iter().collect();
                let want = t.contains(|c: char| TERMINATORS.contains(&c) || c == '.' || c == '\u{2026}' || c == '\n');
                assert_eq!(may_break(&t), want, "{t:?}");
            }
        }
    }

    #[test]
    fn cut_sent_passes() {
        assert_eq!(cut_sent("你好。世界"), vec!["你好。", "世界"]);
        assert_eq!(cut_sent("a。。。x"), vec!["a。", "。。", "x"]);
        assert_eq!(cut_sent("他说：“好。”然后"), vec!["他说：“好。”", "然后"]);
        assert_eq!(cut_sent("a？ "), vec!["a？"]);
        assert_eq!(cut_sent(""), vec![""]);
    }

    #[test]
    fn unique_ngrams() {
        let mut out = vec![0.0; 10];
        segment_stats(
            "the the cat",
            "the cat",
            &cfg(Variant::Pltrdy),
            &mut Scratch::default(),
            &mut out,
        );
        // rouge-1 sets: {the, cat} vs {the, cat}
        assert_eq!((out[0], out[1]), (1.0, 1.0));
        assert_eq!(out[9], 2.0);
        segment_stats(
            "a. ",
            " . ",
            &cfg(Variant::Pltrdy),
            &mut Scratch::default(),
            &mut out,
        );
        assert_eq!(out[9], 1.0);
        segment_stats(
            "...",
            "a",
            &cfg(Variant::Pltrdy),
            &mut Scratch::default(),
            &mut out,
        );
        assert_eq!(out[9], 0.0);
    }
}
