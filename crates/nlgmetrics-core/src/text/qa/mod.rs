//! Extractive question answering: the SQuAD answer normalisation and token F1 of the
//! official scripts (evaluate-v1.1.py and evaluate-v2.0.py).
//!
//! `normalize_answer(s)` is, in the scripts' order: `s.lower()`, removal of every
//! character of Python's `string.punctuation` (the 32 ASCII punctuation marks),
//! `re.sub(r'\b(a|an|the)\b', ' ', s)` (Python's Unicode `\b`: the edge of a run of `\w`
//! characters, so only whole runs "a", "an", "the" go) and `' '.join(s.split())` (Python's
//! whitespace). Its tokens are that string's `split()`; two normalised answers are equal
//! exactly when their token sequences are.

use super::py_word::{is_py_word, push_py_lower};
use crate::error::{Error, Result};
use crate::parallel;
use crate::pystr::is_py_space;

pub mod files;

/// Which official script's rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// evaluate-v1.1.py: F1 is 0 when no token is shared (two empty answers included);
    /// every gold answer counts; a question needs at least one.
    V1,
    /// evaluate-v2.0.py: gold answers whose normalisation is empty are dropped, and a
    /// question left without any has the single gold answer `""`; F1 is 1 when both sides
    /// are empty and 0 when only one is.
    V2,
}

/// The normalised tokens of one text: `text` holds the lowercased text without ASCII
/// punctuation; `spans` are the byte ranges of the tokens in it.
#[derive(Default, Clone, Debug)]
pub struct Tokens {
    text: String,
    spans: Vec<(usize, usize)>,
    /// Per token, [`key`]: equal tokens have equal keys, and equal keys of tokens shorter
    /// than eight bytes mean equal tokens, so most comparisons are one integer compare.
    keys: Vec<u64>,
    sorted: Vec<(usize, usize)>,
}

/// A token's first seven bytes (zero-padded) and, in the top byte, its length (255 for
/// 255 and longer).
#[inline(always)]
fn key(first8: u64, len: usize) -> u64 {
    let kept = len.min(7);
    (first8 & ((1u64 << (8 * kept)) - 1)) | ((len.min(255) as u64) << 56)
}

/// Keys of tokens of at least this length leave bytes out.
const KEY_BYTES: u64 = 7;

/// What `normalize_answer` does with each ASCII byte, in one lookup: a letter or digit
/// (`\w`; `_` is punctuation) maps to its lowercase form (always at least `'0'`); the
/// other codes are classes: punctuation (removed first), Python whitespace (ends a token)
/// and the rest (control characters: part of a token, not of a word). Bytes past ASCII
/// never reach it (the table is 256 long only so that indexing needs no check).
const SKIP: u8 = 0;
const SPACE: u8 = 1;
const OTHER: u8 = 2;

static ASCII_MAP: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_punctuation() {
            SKIP
        } else if matches!(c, b'\t'..=b'\r' | b'\x1c'..=b'\x1f' | b' ') {
            SPACE
        } else if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            OTHER
        };
        b += 1;
    }
    t
};

/// Codes of [`ASCII_MAP`] at or past this are lowercased word bytes.
const WORD_MIN: u8 = b'0';

#[inline]
fn is_article(w: &str) -> bool {
    matches!(w, "a" | "an" | "the")
}

impl Tokens {
    /// Tokens of `normalize_answer(s).split()`.
    pub fn fill(&mut self, s: &str) {
        self.text.clear();
        self.spans.clear();
        self.keys.clear();
        if s.is_ascii() {
            self.fill_ascii(s);
        } else {
            // str.lower() first, then the punctuation, which lowercasing never produces
            // nor removes. Python's own lowercase table (its Unicode version); a capital
            // sigma's lowercase depends on the letters around it (final sigma), which
            // Rust's to_lowercase decides by the same rule.
            if s.contains('\u{3a3}') {
                let lowered = s.to_lowercase();
                self.text.extend(lowered.chars().filter(|c| !c.is_ascii_punctuation()));
            } else {
                for c in s.chars() {
                    if c.is_ascii() {
                        if !c.is_ascii_punctuation() {
                            self.text.push(c.to_ascii_lowercase());
                        }
                    } else {
                        push_py_lower(c, &mut self.text);
                    }
                }
            }
            self.split_unicode();
            let t = self.text.as_bytes();
            self.keys.extend(self.spans.iter().map(|&(a, b)| {
                let mut first = [0u8; 8];
                let n = (b - a).min(8);
                first[..n].copy_from_slice(&t[a..a + n]);
                key(u64::from_le_bytes(first), b - a)
            }));
        }
    }

    /// Token `i` of `self` equals token `j` of `other`.
    #[inline(always)]
    fn same_token(&self, i: usize, other: &Tokens, j: usize) -> bool {
        let k = self.keys[i];
        k == other.keys[j] && (k >> 56 <= KEY_BYTES || {
            let ((a, b), (c, d)) = (self.spans[i], other.spans[j]);
            self.text.as_bytes()[a..b] == other.text.as_bytes()[c..d]
        })
    }

    /// ASCII text in one pass: lowercased, punctuation skipped (so it joins the letters
    /// around it, as the script removes it before the article regex), whitespace not kept
    /// (the spans delimit the tokens), article runs cut out where they end. A word run is
    /// read in an inner loop; every byte is classed by one table lookup.
    fn fill_ascii(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let n = bytes.len();
        // SAFETY (of the raw writes and reads below): the buffer holds n + 8 initialised
        // bytes; at most one byte is written per byte read, so every write is below n and
        // every eight-byte read starts at most at n; only ASCII bytes are kept (the buffer
        // is cut to them at the end), so it stays UTF-8
        let out = unsafe { self.text.as_mut_vec() };
        out.resize(n + 8, 0);
        let base = out.as_mut_ptr();
        let (spans, keys) = (&mut self.spans, &mut self.keys);
        let mut push = |t: usize, end: usize| {
            spans.push((t, end));
            keys.push(key(u64::from_le(unsafe { (base.add(t) as *const u64).read_unaligned() }), end - t));
        };
        let mut len = 0;
        let mut tok: Option<usize> = None;
        let mut i = 0;
        while i < n {
            let code = ASCII_MAP[bytes[i] as usize];
            if code >= WORD_MIN {
                let run = len;
                if tok.is_none() {
                    tok = Some(run);
                }
                // the word run, punctuation inside it skipped
                while i < n {
                    let c = ASCII_MAP[bytes[i] as usize];
                    if c >= WORD_MIN {
                        unsafe { base.add(len).write(c) };
                        len += 1;
                    } else if c != SKIP {
                        break;
                    }
                    i += 1;
                }
                // the run ended: an article is cut out and ends the token before it
                let word = unsafe { std::slice::from_raw_parts(base.add(run), len - run) };
                if matches!(word, b"a" | b"an" | b"the") {
                    len = run;
                    if let Some(t) = tok.take() {
                        if t < run {
                            push(t, run);
                        }
                    }
                }
                continue;
            }
            match code {
                SKIP => {}
                SPACE => {
                    if let Some(t) = tok.take() {
                        push(t, len);
                    }
                }
                _ => {
                    if tok.is_none() {
                        tok = Some(len);
                    }
                    unsafe { base.add(len).write(bytes[i]) };
                    len += 1;
                }
            }
            i += 1;
        }
        if let Some(t) = tok {
            push(t, len);
        }
        out.truncate(len);
    }

    fn split_unicode(&mut self) {
        let t = self.text.as_str();
        let n = t.len();
        let mut open: Option<usize> = None;
        let mut it = t.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            if is_py_space(c) {
                if let Some(s) = open.take() {
                    self.spans.push((s, i));
                }
            } else if is_py_word(c) {
                let mut j = i + c.len_utf8();
                while let Some(&(k, d)) = it.peek() {
                    if !is_py_word(d) {
                        break;
                    }
                    j = k + d.len_utf8();
                    it.next();
                }
                if is_article(&t[i..j]) {
                    if let Some(s) = open.take() {
                        self.spans.push((s, i));
                    }
                } else if open.is_none() {
                    open = Some(i);
                }
            } else if open.is_none() {
                open = Some(i);
            }
        }
        if let Some(s) = open {
            self.spans.push((s, n));
        }
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    pub fn token(&self, i: usize) -> &str {
        let (a, b) = self.spans[i];
        &self.text[a..b]
    }

    /// `normalize_answer(s)`: the tokens joined by single spaces.
    pub fn normalized(&self) -> String {
        let mut out = String::with_capacity(self.text.len());
        for i in 0..self.len() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(self.token(i));
        }
        out
    }

    /// Same token sequence (so the same normalised string).
    pub fn same_as(&self, other: &Tokens) -> bool {
        self.keys.len() == other.keys.len() && (0..self.keys.len()).all(|i| self.same_token(i, other, i))
    }

    fn sort(&mut self) {
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.spans);
        let t = &self.text;
        self.sorted.sort_unstable_by(|&(a, b), &(c, d)| t[a..b].cmp(&t[c..d]));
    }

    /// `sum((Counter(self) & Counter(other)).values())`: for short answers each token of
    /// `other` takes the first equal unused token of `self` (equality is transitive, so
    /// greedy pairing counts `min(count_self, count_other)` per token); longer ones are
    /// sorted and merged.
    fn shared(&mut self, other: &mut Tokens) -> usize {
        let (k, m) = (self.len(), other.len());
        if k <= 64 && k * m <= 512 {
            let mut used = 0u64;
            let mut n = 0;
            for j in 0..m {
                let kj = other.keys[j];
                for i in 0..k {
                    // free, and the same key: the same token but for long ones, then checked
                    if used & (1 << i) == 0 && self.keys[i] == kj && (kj >> 56 <= KEY_BYTES || self.same_token(i, other, j)) {
                        used |= 1 << i;
                        n += 1;
                        break;
                    }
                }
            }
            return n;
        }
        if self.sorted.len() != k {
            self.sort();
        }
        other.sort();
        self.shared_sorted(other)
    }

    /// [`shared`] of two sorted token lists.
    fn shared_sorted(&self, other: &Tokens) -> usize {
        let (mut i, mut j, mut n) = (0, 0, 0);
        let (x, y) = (&self.sorted, &other.sorted);
        while i < x.len() && j < y.len() {
            let a = &self.text[x[i].0..x[i].1];
            let b = &other.text[y[j].0..y[j].1];
            match a.cmp(b) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    n += 1;
                    i += 1;
                    j += 1;
                }
            }
        }
        n
    }
}

/// The tokens of `normalize_answer(s).split()` as strings.
pub fn squad_tokens(s: &str) -> Vec<String> {
    let mut t = Tokens::default();
    t.fill(s);
    (0..t.len()).map(|i| t.token(i).to_string()).collect()
}

/// Token F1 of the scripts from `(shared, pred_len, gold_len)`, in their float order:
/// `p = 1.0 * shared / pred_len`, `r = 1.0 * shared / gold_len`, `2 * p * r / (p + r)`.
#[inline]
pub fn f1_value(version: Version, shared: u64, pred_len: u64, gold_len: u64) -> f64 {
    if version == Version::V2 && (pred_len == 0 || gold_len == 0) {
        return if pred_len == gold_len { 1.0 } else { 0.0 };
    }
    if shared == 0 {
        return 0.0;
    }
    let p = shared as f64 / pred_len as f64;
    let r = shared as f64 / gold_len as f64;
    (2.0 * p * r) / (p + r)
}

/// Statistics columns of one question.
pub const WIDTH: usize = 5;

/// How many questions ahead [`batch_stats`] asks for the texts.
const PREFETCH_AHEAD: usize = 8;

/// A hint to load the start of `s` into cache (no effect on the results).
#[inline(always)]
fn prefetch(s: &str) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing the program sees
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(s.as_ptr() as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = s;
}

/// Per question `[exact, shared, pred_len, gold_len, pred_nonempty]` (the token counts of
/// the gold answer with the highest F1, the first of equals, as the scripts' `max`) and
/// its F1. Question `i`'s gold answers are `golds[starts[i]..starts[i + 1]]`.
pub fn batch_stats<P, G>(version: Version, preds: &[P], golds: &[G], starts: &[usize], n_threads: usize) -> Result<(Vec<u64>, Vec<f64>)>
where
    P: AsRef<str> + Sync,
    G: AsRef<str> + Sync,
{
    super::check_flat_references(preds.len(), golds.len(), starts)?;
    if version == Version::V1 {
        if let Some(i) = starts.windows(2).position(|w| w[0] == w[1]) {
            return Err(Error::InvalidInput(format!(
                "question {i} has no gold answer: SQuAD v1.1 needs at least one (use SQuAD v2.0 for unanswerable questions)"
            )));
        }
    }
    let rows = parallel::map_rows(preds.len(), WIDTH, n_threads, || (Tokens::default(), Tokens::default()), |(p, g), i, row: &mut [u64]| {
        // the texts live in scattered Python string objects: ask for a later question's
        // texts now, so that they are in cache when its turn comes
        if let Some(ahead) = preds.get(i + PREFETCH_AHEAD) {
            prefetch(ahead.as_ref());
            for gold in &golds[starts[i + PREFETCH_AHEAD]..starts[i + PREFETCH_AHEAD + 1]] {
                prefetch(gold.as_ref());
            }
        }
        let pred = preds[i].as_ref();
        p.fill(pred);
        p.sorted.clear();
        let mut best_exact = 0u64;
        let mut best: Option<(f64, [u64; 3])> = None;
        let consider = |p: &Tokens, g: &Tokens, shared: usize, best_exact: &mut u64, best: &mut Option<(f64, [u64; 3])>| {
            let exact = u64::from(p.same_as(g));
            *best_exact = (*best_exact).max(exact);
            let triple = [shared as u64, p.len() as u64, g.len() as u64];
            let f = f1_value(version, triple[0], triple[1], triple[2]);
            if best.is_none_or(|(b, _)| f > b) {
                *best = Some((f, triple));
            }
        };
        let mut any = false;
        for gold in &golds[starts[i]..starts[i + 1]] {
            let gold = gold.as_ref();
            if gold == pred {
                // the same text (extractive answers often are): the same tokens, all shared
                if version == Version::V2 && p.is_empty() {
                    continue;
                }
                any = true;
                consider(p, p, p.len(), &mut best_exact, &mut best);
                continue;
            }
            g.fill(gold);
            if version == Version::V2 && g.is_empty() {
                continue;
            }
            any = true;
            let shared = p.shared(g);
            consider(p, g, shared, &mut best_exact, &mut best);
        }
        if !any {
            // v2.0: no gold answer survives normalisation: the one gold answer is ""
            g.fill("");
            consider(p, g, 0, &mut best_exact, &mut best);
        }
        let (_, [shared, pl, gl]) = best.expect("at least one gold answer");
        row.copy_from_slice(&[best_exact, shared, pl, gl, u64::from(!pred.is_empty())]);
        Ok::<(), Error>(())
    })?;
    let f1 = rows.chunks(WIDTH).map(|r| f1_value(version, r[1], r[2], r[3])).collect();
    Ok((rows, f1))
}

/// The distinct question ids of a dataset as evaluate-v2.0.py keys them (a Python dict):
/// `slot[i]` is question `i`'s entry, entries in order of first appearance; `first[k]` and
/// `last[k]` are the questions where entry `k`'s id first and last appears (the script keeps
/// the first place and the last answers).
pub struct IdPlaces<'a> {
    pub of_id: rustc_hash::FxHashMap<&'a str, usize>,
    pub slot: Vec<usize>,
    pub first: Vec<usize>,
    pub last: Vec<usize>,
}

impl<'a> IdPlaces<'a> {
    pub fn new(ids: impl ExactSizeIterator<Item = &'a str>) -> Self {
        let n = ids.len();
        let mut of_id = rustc_hash::FxHashMap::with_capacity_and_hasher(n, Default::default());
        let (mut slot, mut first, mut last) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        for (i, id) in ids.enumerate() {
            match of_id.entry(id) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    last[*e.get()] = i;
                    slot.push(*e.get());
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(first.len());
                    slot.push(first.len());
                    first.push(i);
                    last.push(i);
                }
            }
        }
        IdPlaces { of_id, slot, first, last }
    }

    /// The gold answers of each entry (its last question's), as indices into the dataset's
    /// flat answers (question `i`'s are `starts[i]..starts[i + 1]`) and `entries + 1` offsets.
    pub fn last_answers(&self, starts: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let mut answers = Vec::with_capacity(starts.last().copied().unwrap_or(0));
        let mut offsets = Vec::with_capacity(self.last.len() + 1);
        offsets.push(0);
        for &i in &self.last {
            answers.extend(starts[i]..starts[i + 1]);
            offsets.push(answers.len());
        }
        (answers, offsets)
    }
}

/// evaluate-v2.0.py's `find_best_thresh`: questions in `order` (the script sorts its
/// no-answer probabilities with Python's stable sort), starting from the number of
/// unanswerable questions; a question adds its score when it has an answer, -1 when it
/// is unanswerable and the prediction is not empty. Returns the best running total and
/// the question that reached it (`None`: none beat the start, threshold 0.0).
pub fn best_threshold(scores: &[f64], has_ans: &[bool], pred_nonempty: &[bool], order: &[usize]) -> Result<(f64, Option<usize>)> {
    let n = scores.len();
    if has_ans.len() != n || pred_nonempty.len() != n {
        return Err(Error::LengthMismatch { what: "scores and answer flags".into(), left: n, right: has_ans.len().min(pred_nonempty.len()) });
    }
    if order.iter().any(|&i| i >= n) {
        return Err(Error::InvalidInput("question order out of range".into()));
    }
    let mut cur = has_ans.iter().filter(|&&h| !h).count() as f64;
    let mut best = cur;
    let mut at = None;
    for &i in order {
        let diff = if has_ans[i] {
            scores[i]
        } else if pred_nonempty[i] {
            -1.0
        } else {
            0.0
        };
        cur += diff;
        if cur > best {
            best = cur;
            at = Some(i);
        }
    }
    Ok((best, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        squad_tokens(s)
    }

    #[test]
    fn normalisation_matches_the_script() {
        assert_eq!(toks("The  Cat, a dog!"), ["cat", "dog"]);
        assert_eq!(toks("an-the"), ["anthe"]); // punctuation goes first
        assert_eq!(toks("x—the—y"), ["x—", "—y"]); // an em dash is not \w
        assert_eq!(toks("théa the"), ["théa"]);
        assert_eq!(toks("ΑΣ the"), ["ας"]); // final sigma
        assert_eq!(toks("a_the a"), ["athe"]); // _ is punctuation, removed first
        assert_eq!(toks("\u{3000}北京\u{3000}the"), ["北京"]);
        assert!(toks("The a AN .").is_empty());
    }

    /// The general (Unicode) path on ASCII text, to check the ASCII fast path against.
    fn general(s: &str) -> Vec<String> {
        let mut t = Tokens::default();
        t.text.extend(s.chars().filter(|c| !c.is_ascii_punctuation()).map(|c| c.to_ascii_lowercase()));
        t.split_unicode();
        (0..t.len()).map(|i| t.token(i).to_string()).collect()
    }

    #[test]
    fn ascii_path_equals_the_general_path() {
        let alphabet = b"aAnNtThHeEx1 _.,'-\t\n\x0b\x1c\x1f\x00\x07\x7f";
        let mut x = 0x9e3779b97f4a7c15u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 12) as usize;
            let s: String = (0..len).map(|k| alphabet[((x >> (5 * k + 4)) % alphabet.len() as u64) as usize] as char).collect();
            assert_eq!(toks(&s), general(&s), "{s:?}");
        }
    }

    #[test]
    fn f1_and_exact() {
        let (rows, f1) = batch_stats(Version::V1, &["the cat sat", ""], &["cat", "a cat sat", "x"], &[0, 2, 3], 1).unwrap();
        assert_eq!(&rows[..5], &[1, 2, 2, 2, 1]);
        assert_eq!(f1, [1.0, 0.0]);
        let (rows, f1) = batch_stats(Version::V2, &["", "x"], &["the", "a"], &[0, 1, 2], 1).unwrap();
        assert_eq!(f1, [1.0, 0.0]);
        assert_eq!(rows[0], 1);
        assert!(batch_stats(Version::V1, &["x"], &[] as &[&str], &[0, 0], 1).is_err());
    }

    /// `shared` and `same_as` (keys, with the bytes checked for long tokens) against
    /// counting the token strings, on tokens around the key's seven bytes and past 255.
    #[test]
    fn keys_count_as_the_strings() {
        let mut x = 7u64;
        let mut rnd = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let stems = ["abcdefg", "abcdefgh", "abcdefgi", "abcdef", "abcdefgh\u{1}", "x", "ab", "é", "éé", "\u{1}"];
        let mut p = Tokens::default();
        let mut g = Tokens::default();
        for _ in 0..3000 {
            let text = |rnd: &mut dyn FnMut(u64) -> u64| {
                let k = rnd(9);
                (0..k)
                    .map(|_| match rnd(12) {
                        10 => "y".repeat(250 + rnd(10) as usize),
                        11 => format!("{}z", "y".repeat(250 + rnd(10) as usize)),
                        i => stems[i as usize % stems.len()].to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(if rnd(2) == 0 { " " } else { ", " })
            };
            let (a, b) = (text(&mut rnd), text(&mut rnd));
            p.fill(&a);
            g.fill(&b);
            let (ta, tb) = (squad_tokens(&a), squad_tokens(&b));
            let mut rest = tb.clone();
            let mut want = 0;
            for t in &ta {
                if let Some(k) = rest.iter().position(|u| u == t) {
                    rest.swap_remove(k);
                    want += 1;
                }
            }
            assert_eq!(p.shared(&mut g), want, "{a:?} / {b:?}");
            assert_eq!(p.same_as(&g), ta == tb);
            assert!(p.same_as(&p.clone()));
        }
    }

    #[test]
    fn threshold_search() {
        let (best, at) = best_threshold(&[1.0, 0.5, 0.0], &[true, true, false], &[true, true, true], &[0, 1, 2]).unwrap();
        assert_eq!((best, at), (2.5, Some(1)));
    }
}

#[cfg(test)]
mod timing {
    #[test]
    #[ignore]
    fn time_batch() {
        let mut preds = Vec::new();
        let mut golds = Vec::new();
        let mut starts = vec![0];
        let mut x = 12345u64;
        let mut rnd = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..100_000 {
            let mut phrase = |k: u64| (0..k).map(|_| format!("W{}, the", rnd() % 20000)).collect::<Vec<_>>().join(" ");
            preds.push(phrase(3));
            golds.push(phrase(4));
            golds.push(phrase(2));
            starts.push(golds.len());
        }
        let p: Vec<&str> = preds.iter().map(|s| s.as_str()).collect();
        let g: Vec<&str> = golds.iter().map(|s| s.as_str()).collect();
        let mut tk = super::Tokens::default();
        let t = std::time::Instant::now();
        let mut n = 0;
        for s in p.iter().chain(g.iter()) {
            tk.fill(s);
            n += tk.len();
        }
        eprintln!("fill only {:?} {n}", t.elapsed());
        let t = std::time::Instant::now();
        for s in p.iter().chain(g.iter()) {
            tk.fill(s);
            tk.sort();
        }
        eprintln!("fill+sort {:?}", t.elapsed());
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let r = super::batch_stats(super::Version::V1, &p, &g, &starts, 1).unwrap();
            eprintln!("{:?} {}", t.elapsed(), r.0.len());
        }
    }
}
