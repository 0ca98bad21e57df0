//! chrF and chrF++ as sacrebleu 2.6 computes them (Popović 2015, 2017).
//!
//! Segment statistics: for every order (character orders `1..=nc`, then word orders
//! `1..=nw`) the triple `[n_hyp, n_ref, n_match]` (u64), taken from the reference with
//! the best sentence-level F (first maximum). `n_match = Σ_g min(hyp_g, ref_g)`, and
//! `n_hyp` is reported as 0 when the reference has no n-gram of that order (sacrebleu's
//! `hyp_count if ref_ngrams else 0`).
//!
//! Character n-grams are taken over the (optionally lowercased) text with every Python
//! whitespace character removed (unless `whitespace`), so they span word boundaries.
//! Word n-grams use sacrebleu's one-sided punctuation split (`"(hi)"` → `"(hi"`, `")"`).
//!
//! N-grams are identified by dense integer ids built incrementally: the id of an n-gram
//! is the interned pair (id of its (n-1)-gram prefix, last token). This is exact (no
//! lossy hashing of strings) and costs one `u64` hash lookup per n-gram.

use crate::error::{Error, Result};
use crate::parallel::map_rows;
use super::chrf_chars::CharGrams;
use crate::pystr::{is_py_space, py_lower, py_split};
use rustc_hash::FxHashMap;

/// The options of sacrebleu's `CHRF`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfConfig {
    pub char_order: usize,
    pub word_order: usize,
    pub beta: f64,
    pub lowercase: bool,
    pub whitespace: bool,
    pub eps_smoothing: bool,
}

impl Default for ChrfConfig {
    fn default() -> Self {
        Self { char_order: 6, word_order: 0, beta: 2.0, lowercase: false, whitespace: false, eps_smoothing: false }
    }
}

/// The longest n-gram order accepted (chars or words); far beyond any published setting.
pub const MAX_ORDER: usize = 64;

impl ChrfConfig {
    pub fn orders(&self) -> usize {
        self.char_order + self.word_order
    }

    /// Values per segment: three per order.
    pub fn width(&self) -> usize {
        3 * self.orders()
    }

    pub fn validate(&self) -> Result<()> {
        if self.char_order > MAX_ORDER || self.word_order > MAX_ORDER {
            return Err(Error::InvalidOption(format!(
                "char_order and word_order must be at most {MAX_ORDER}, got {} and {}",
                self.char_order, self.word_order
            )));
        }
        if self.orders() == 0 {
            return Err(Error::InvalidOption("char_order + word_order must be at least 1".into()));
        }
        if !(self.beta.is_finite() && self.beta >= 0.0) {
            return Err(Error::InvalidOption(format!("beta must be a finite number >= 0, got {}", self.beta)));
        }
        Ok(())
    }
}

/// sacrebleu `CHRF._compute_f_score`, operation for operation (factor = β²).
pub fn f_score(stats: &[u64], beta: f64, eps_smoothing: bool) -> f64 {
    const EPS: f64 = 1e-16;
    let factor = beta * beta;
    let order = stats.len() / 3;
    let mut score = 0.0;
    let mut effective_order = 0usize;
    let (mut avg_prec, mut avg_rec) = (0.0f64, 0.0f64);
    for t in stats.chunks_exact(3) {
        let (n_hyp, n_ref, n_match) = (t[0], t[1], t[2]);
        let prec = if n_hyp > 0 { n_match as f64 / n_hyp as f64 } else { EPS };
        let rec = if n_ref > 0 { n_match as f64 / n_ref as f64 } else { EPS };
        let denom = factor * prec + rec;
        score += if denom > 0.0 { (1.0 + factor) * prec * rec / denom } else { EPS };
        if n_hyp > 0 && n_ref > 0 {
            avg_prec += prec;
            avg_rec += rec;
            effective_order += 1;
        }
    }
    if eps_smoothing {
        return 100.0 * score / order as f64;
    }
    if effective_order == 0 {
        avg_prec = 0.0;
        avg_rec = 0.0;
    } else {
        avg_prec /= effective_order as f64;
        avg_rec /= effective_order as f64;
    }
    if avg_prec + avg_rec != 0.0 {
        let mut s = (1.0 + factor) * avg_prec * avg_rec;
        s /= factor * avg_prec + avg_rec;
        100.0 * s
    } else {
        0.0
    }
}

const CHAR_ROOT: u64 = (u32::MAX as u64) << 32;
const WORD_ROOT: u64 = ((u32::MAX - 1) as u64) << 32;

/// Dense ids for n-grams of every order: `id(g + t) = intern(id(g), t)`.
#[derive(Default)]
pub struct NgramIds {
    map: FxHashMap<u64, u32>,
    /// The order of each id (1-based), for callers that need it.
    order_of: Vec<u8>,
}

impl NgramIds {
    pub fn clear(&mut self) {
        self.map.clear();
        self.order_of.clear();
    }

    pub fn len(&self) -> usize {
        self.order_of.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order_of.is_empty()
    }

    #[inline]
    fn intern(&mut self, key: u64, order: usize) -> u32 {
        let next = self.order_of.len() as u32;
        let id = *self.map.entry(key).or_insert(next);
        if id == next {
            self.order_of.push(order as u8);
        }
        id
    }

    /// Ids of every n-gram of orders `1..=max_order` of `tokens`, appended to `out`
    /// order by order; `bounds` receives the end offset in `out` of each order.
    pub fn ngrams(&mut self, tokens: &[u32], max_order: usize, root: u64, out: &mut Vec<u32>, bounds: &mut Vec<usize>) {
        let base = out.len();
        let len = tokens.len();
        for n in 1..=max_order {
            let start = out.len();
            if n <= len {
                if n == 1 {
                    for (p, &t) in tokens.iter().enumerate() {
                        crate::interrupt::check_every(p);
                        let id = self.intern(root | t as u64, 1);
                        out.push(id);
                    }
                } else {
                    // the (n-1)-grams start at `prev`; extend each by one token
                    let prev = bounds.last().map_or(base, |&b| b) - (len - n + 2);
                    for p in 0..=len - n {
                        crate::interrupt::check_every(p);
                        let key = ((out[prev + p] as u64) << 32) | tokens[p + n - 1] as u64;
                        let id = self.intern(key, n);
                        out.push(id);
                    }
                }
            }
            debug_assert_eq!(out.len() - start, (len + 1).saturating_sub(n));
            bounds.push(out.len());
        }
    }
}

/// An n-gram absent from the interned side (it cannot match).
pub const ABSENT: u32 = u32::MAX;

impl NgramIds {
    /// Like [`NgramIds::ngrams`] but read-only: an n-gram never interned gets
    /// [`ABSENT`], and so does every extension of it (it cannot be interned either).
    pub fn lookup(&self, tokens: &[u32], max_order: usize, root: u64, out: &mut Vec<u32>, bounds: &mut Vec<usize>) {
        let len = tokens.len();
        let get = |key: u64| self.map.get(&key).copied().unwrap_or(ABSENT);
        for n in 1..=max_order {
            if n <= len {
                if n == 1 {
                    out.extend(tokens.iter().map(|&t| if t == ABSENT { ABSENT } else { get(root | t as u64) }));
                } else {
                    let prev = bounds.last().map_or(0, |&b| b) - (len - n + 2);
                    for p in 0..=len - n {
                        crate::interrupt::check_every(p);
                        let g = out[prev + p];
                        let t = tokens[p + n - 1];
                        let id = if g == ABSENT || t == ABSENT { ABSENT } else { get(((g as u64) << 32) | t as u64) };
                        out.push(id);
                    }
                }
            }
            bounds.push(out.len());
        }
    }
}

/// One side of a comparison: n-gram ids per order (chars then words).
#[derive(Default, Clone)]
pub struct Side {
    ids: Vec<u32>,
    /// end offsets in `ids` of each order
    bounds: Vec<usize>,
}

impl Side {
    fn order(&self, k: usize) -> &[u32] {
        let start = if k == 0 { 0 } else { self.bounds[k - 1] };
        &self.ids[start..self.bounds[k]]
    }
}

/// `CHRF._remove_punctuation`: split one leading *or* trailing ASCII punctuation mark.
pub fn split_punctuation<'a>(sent: &'a str, out: &mut Vec<&'a str>) {
    out.clear();
    for w in py_split(sent) {
        let mut chars = w.chars();
        let first = chars.next().unwrap_or(' ');
        let last = chars.next_back();
        match last {
            None => out.push(w),
            Some(l) if l.is_ascii_punctuation() => {
                out.push(&w[..w.len() - 1]);
                out.push(&w[w.len() - 1..]);
            }
            Some(_) if first.is_ascii_punctuation() => {
                out.push(&w[..1]);
                out.push(&w[1..]);
            }
            Some(_) => out.push(w),
        }
    }
}

/// Reusable buffers for one worker.
#[derive(Default)]
pub struct Scratch {
    ids: NgramIds,
    lowered: String,
    chars: Vec<u32>,
    words: Vec<u32>,
    hyp: Side,
    refs: Vec<Side>,
    hyp_count: Vec<u32>,
    ref_seen: Vec<u32>,
    stats: Vec<u64>,
    grams: CharGrams,
    /// per reference: the character orders' triples (packed path), the other orders'
    char_rows: Vec<u64>,
    rest_rows: Vec<u64>,
}

/// Extract the n-gram ids of one text (lowercasing and whitespace removal included).
/// `words` maps word strings to token ids for the word orders.
/// `intern = false` only looks n-grams up (references of one segment: an n-gram the
/// hypothesis lacks cannot match, so it need not be interned).
#[allow(clippy::too_many_arguments)]
fn extract_with(cfg: &ChrfConfig, text: &str, scratch_lower: &mut String, chars: &mut Vec<u32>, words: &mut Vec<u32>, word_ids: &mut FxHashMap<String, u32>, ids: &mut NgramIds, side: &mut Side, intern: bool) {
    side.ids.clear();
    side.bounds.clear();
    let text = if cfg.lowercase {
        *scratch_lower = py_lower(text);
        scratch_lower.as_str()
    } else {
        text
    };
    chars.clear();
    if cfg.whitespace {
        chars.extend(text.chars().map(|c| c as u32));
    } else {
        chars.extend(text.chars().filter(|&c| !is_py_space(c)).map(|c| c as u32));
    }
    if intern {
        ids.ngrams(chars, cfg.char_order, CHAR_ROOT, &mut side.ids, &mut side.bounds);
    } else {
        ids.lookup(chars, cfg.char_order, CHAR_ROOT, &mut side.ids, &mut side.bounds);
    }
    if cfg.word_order > 0 {
        let mut toks = Vec::new();
        split_punctuation(text, &mut toks);
        words.clear();
        for t in toks {
            let next = word_ids.len() as u32;
            let id = match word_ids.get(t) {
                Some(&id) => id,
                None if !intern => ABSENT,
                None => {
                    word_ids.insert(t.to_owned(), next);
                    next
                }
            };
            words.push(id);
        }
        if intern {
            ids.ngrams(words, cfg.word_order, WORD_ROOT, &mut side.ids, &mut side.bounds);
        } else {
            ids.lookup(words, cfg.word_order, WORD_ROOT, &mut side.ids, &mut side.bounds);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn extract(cfg: &ChrfConfig, text: &str, scratch_lower: &mut String, chars: &mut Vec<u32>, words: &mut Vec<u32>, word_ids: &mut FxHashMap<String, u32>, ids: &mut NgramIds, side: &mut Side) {
    extract_with(cfg, text, scratch_lower, chars, words, word_ids, ids, side, true)
}

/// The triples `[n_hyp, n_ref, n_match]` of `hyp` against one reference, given the
/// hypothesis counts in the dense `hyp_count` (indexed by n-gram id).
fn match_stats(hyp: &Side, reference: &Side, hyp_count: &[u32], ref_seen: &mut [u32], out: &mut [u64]) {
    for (k, t) in out.chunks_exact_mut(3).enumerate() {
        let (h, r) = (hyp.order(k), reference.order(k));
        let mut matched = 0u64;
        for &g in r {
            if g == ABSENT {
                continue;
            }
            let g = g as usize;
            // the c-th occurrence in the reference matches while the hypothesis has ≥ c
            if ref_seen[g] < hyp_count[g] {
                matched += 1;
            }
            ref_seen[g] += 1;
        }
        for &g in r {
            if g != ABSENT {
                ref_seen[g as usize] = 0;
            }
        }
        t[0] = if r.is_empty() { 0 } else { h.len() as u64 };
        t[1] = r.len() as u64;
        t[2] = matched;
    }
}

/// The triples of every order of `cfg` (interned n-gram ids) of `hyp` against each
/// reference, one row of `cfg.width()` values per reference in `s.rest_rows`.
fn interned_rows<S: AsRef<str>>(cfg: &ChrfConfig, hyp: &str, refs: &[S], s: &mut Scratch) {
    s.ids.clear();
    let mut word_ids: FxHashMap<String, u32> = FxHashMap::default();
    extract(cfg, hyp, &mut s.lowered, &mut s.chars, &mut s.words, &mut word_ids, &mut s.ids, &mut s.hyp);
    if s.refs.len() < refs.len() {
        s.refs.resize_with(refs.len(), Side::default);
    }
    for (r, side) in refs.iter().zip(s.refs.iter_mut()) {
        extract_with(cfg, r.as_ref(), &mut s.lowered, &mut s.chars, &mut s.words, &mut word_ids, &mut s.ids, side, false);
    }
    let n_ids = s.ids.len();
    s.hyp_count.clear();
    s.hyp_count.resize(n_ids, 0);
    if s.ref_seen.len() < n_ids {
        s.ref_seen.resize(n_ids, 0);
    }
    for &g in &s.hyp.ids {
        s.hyp_count[g as usize] += 1;
    }
    let width = cfg.width();
    s.rest_rows.clear();
    s.rest_rows.resize(width * refs.len(), 0);
    for (side, row) in s.refs[..refs.len()].iter().zip(s.rest_rows.chunks_exact_mut(width)) {
        match_stats(&s.hyp, side, &s.hyp_count, &mut s.ref_seen, row);
    }
}

/// Statistics of one segment against its best reference (first maximum of F).
///
/// The character orders take the packed-key path ([`CharGrams`]) when the segment's
/// n-grams pack into 64 bits; the word orders, and the character orders of a segment
/// that does not pack, take the interning path.
pub fn segment_stats<S: AsRef<str>>(cfg: &ChrfConfig, hyp: &str, refs: &[S], s: &mut Scratch, out: &mut [u64]) -> Result<()> {
    if refs.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    s.char_rows.clear();
    let packed = s.grams.rows(cfg.char_order, cfg.lowercase, cfg.whitespace, hyp, refs, &mut s.char_rows);
    let (char_width, rest) = if packed { (3 * cfg.char_order, ChrfConfig { char_order: 0, ..*cfg }) } else { (0, *cfg) };
    let rest_width = rest.width();
    if rest_width > 0 {
        interned_rows(&rest, hyp, refs, s);
    }
    s.stats.resize(out.len(), 0);
    let mut best = -1.0f64;
    for j in 0..refs.len() {
        s.stats[..char_width].copy_from_slice(&s.char_rows[j * char_width..(j + 1) * char_width]);
        s.stats[char_width..].copy_from_slice(&s.rest_rows[j * rest_width..(j + 1) * rest_width]);
        let f = f_score(&s.stats, cfg.beta, cfg.eps_smoothing);
        if f > best {
            best = f;
            out.copy_from_slice(&s.stats);
        }
    }
    Ok(())
}

/// Statistics of a batch, row-major `n × 3·(nc+nw)`.
/// [`batch_stats`] with the references of every segment in one flat slice: segment `i`'s
/// are `refs[starts[i]..starts[i + 1]]` (`n + 1` offsets), as read in place from Python.
pub fn batch_stats_flat<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(cfg: &ChrfConfig, hyps: &[H], refs: &[R], starts: &[usize], n_threads: usize) -> Result<Vec<u64>> {
    cfg.validate()?;
    super::check_flat_references(hyps.len(), refs.len(), starts)?;
    map_rows(hyps.len(), cfg.width(), n_threads, Scratch::default, |s, i, row| {
        segment_stats(cfg, hyps[i].as_ref(), &refs[starts[i]..starts[i + 1]], s, row).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            e => e,
        })
    })
}

pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(cfg: &ChrfConfig, hyps: &[H], refs: &[Vec<R>], n_threads: usize) -> Result<Vec<u64>> {
    cfg.validate()?;
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: hyps.len(), right: refs.len() });
    }
    map_rows(hyps.len(), cfg.width(), n_threads, Scratch::default, |s, i, row| {
        segment_stats(cfg, hyps[i].as_ref(), &refs[i], s, row).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            e => e,
        })
    })
}

/// The score of every statistics row (sentence-level chrF).
pub fn scores(stats: &[u64], width: usize, beta: f64, eps_smoothing: bool) -> Vec<f64> {
    stats.chunks_exact(width.max(1)).map(|row| f_score(row, beta, eps_smoothing)).collect()
}

/// Sentence chrF of every candidate against every pseudo-reference (MBR decoding):
/// `out[i * refs.len() + j]` is the score of `cands[i]` against `refs[j]` alone.
/// Every sentence's n-gram table is built once; a pair costs one pass over the
/// reference's distinct n-grams.
pub fn pairwise<S: AsRef<str> + Sync>(cfg: &ChrfConfig, cands: &[S], refs: &[S], n_threads: usize) -> Result<Vec<f64>> {
    cfg.validate()?;
    let mut ids = NgramIds::default();
    let mut word_ids: FxHashMap<String, u32> = FxHashMap::default();
    let (mut lowered, mut chars, mut words) = (String::new(), Vec::new(), Vec::new());
    let mut side = Side::default();
    let mut cand_sides = Vec::with_capacity(cands.len());
    for c in cands {
        extract(cfg, c.as_ref(), &mut lowered, &mut chars, &mut words, &mut word_ids, &mut ids, &mut side);
        cand_sides.push(side.clone());
    }
    // references as distinct (id, count) per order, with their n-gram totals
    let mut ref_tables: Vec<(Vec<(u32, u32)>, Vec<usize>, Vec<u64>)> = Vec::with_capacity(refs.len());
    let mut counts: FxHashMap<u32, u32> = FxHashMap::default();
    for r in refs {
        extract(cfg, r.as_ref(), &mut lowered, &mut chars, &mut words, &mut word_ids, &mut ids, &mut side);
        let (mut table, mut bounds, mut totals) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..cfg.orders() {
            counts.clear();
            let grams = side.order(k);
            for &g in grams {
                *counts.entry(g).or_insert(0) += 1;
            }
            table.extend(counts.iter().map(|(&g, &c)| (g, c)));
            bounds.push(table.len());
            totals.push(grams.len() as u64);
        }
        ref_tables.push((table, bounds, totals));
    }
    let n_ids = ids.len();
    let width = cfg.width();
    let m = refs.len();
    map_rows(cands.len(), m, n_threads, || (vec![0u32; n_ids], vec![0u64; width]), |(hyp_count, stats), i, row| {
        let hyp = &cand_sides[i];
        for &g in &hyp.ids {
            hyp_count[g as usize] += 1;
        }
        for (j, out) in row.iter_mut().enumerate() {
            let (table, bounds, totals) = &ref_tables[j];
            let mut start = 0;
            for (k, t) in stats.chunks_exact_mut(3).enumerate() {
                let mut matched = 0u64;
                for &(g, c) in &table[start..bounds[k]] {
                    matched += c.min(hyp_count[g as usize]) as u64;
                }
                start = bounds[k];
                t[0] = if totals[k] == 0 { 0 } else { hyp.order(k).len() as u64 };
                t[1] = totals[k];
                t[2] = matched;
            }
            *out = f_score(stats, cfg.beta, cfg.eps_smoothing);
        }
        for &g in &hyp.ids {
            hyp_count[g as usize] = 0;
        }
        Ok::<(), Error>(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(cfg: &ChrfConfig, hyps: &[&str], refs: &[Vec<&str>]) -> f64 {
        let stats = batch_stats(cfg, hyps, refs, 1).unwrap();
        let w = cfg.width();
        let mut sum = vec![0u64; w];
        for row in stats.chunks(w) {
            for (a, b) in sum.iter_mut().zip(row) {
                *a += b;
            }
        }
        f_score(&sum, cfg.beta, cfg.eps_smoothing)
    }

    const HYPS: [&str; 2] = ["The cat sat on the mat.", "It is raining today!"];

    fn refs() -> Vec<Vec<&'static str>> {
        vec![vec!["The cat is sitting on the mat."], vec!["It rains today."]]
    }

    #[test]
    fn reference_values() {
        // sacrebleu 2.6.0: chrF2 = 45.83, chrF2++ = 47.71 (reference-semantics §8)
        let c = corpus(&ChrfConfig::default(), &HYPS, &refs());
        assert!((c - 45.83).abs() < 0.005, "{c}");
        let pp = ChrfConfig { word_order: 2, ..Default::default() };
        let c = corpus(&pp, &HYPS, &refs());
        assert!((c - 47.71).abs() < 0.005, "{c}");
        let s = corpus(&ChrfConfig::default(), &HYPS[..1], &refs()[..1]);
        assert!((s - 49.65).abs() < 0.005, "{s}");
    }

    #[test]
    fn ngram_ids_are_exact() {
        let mut ids = NgramIds::default();
        let (mut out, mut bounds) = (vec![], vec![]);
        ids.ngrams(&[1, 2, 1, 2], 3, CHAR_ROOT, &mut out, &mut bounds);
        assert_eq!(bounds, [4, 7, 9]);
        assert_eq!(out[0], out[2]); // "1"
        assert_eq!(out[4], out[6]); // "12"
        assert_ne!(out[4], out[5]); // "12" vs "21"
        assert_ne!(out[7], out[8]);
        // the same tokens as words get other ids
        let (mut w, mut wb) = (vec![], vec![]);
        ids.ngrams(&[1, 2], 1, WORD_ROOT, &mut w, &mut wb);
        assert!(!out.contains(&w[0]));
    }

    #[test]
    fn punctuation_split_is_one_sided() {
        let mut v = vec![];
        split_punctuation("(hi) a, .b c", &mut v);
        assert_eq!(v, ["(hi", ")", "a", ",", ".", "b", "c"]);
    }

    #[test]
    fn empty_sides() {
        let cfg = ChrfConfig::default();
        assert_eq!(corpus(&cfg, &[""], &[vec!["abc"]]), 0.0);
        assert_eq!(corpus(&cfg, &["abc"], &[vec![""]]), 0.0);
        assert_eq!(corpus(&cfg, &[""], &[vec![""]]), 0.0);
        let row = batch_stats(&cfg, &["ab"], &[vec!["abc"]], 1).unwrap();
        // order 3: the hypothesis has no trigram, the reference one
        assert_eq!(&row[6..9], &[0, 1, 0]);
        let row = batch_stats(&cfg, &["abc"], &[vec!["ab"]], 1).unwrap();
        // the reference has no trigram: n_hyp is reported as 0
        assert_eq!(&row[6..9], &[0, 0, 0]);
    }

    #[test]
    fn best_reference_is_first_max() {
        let cfg = ChrfConfig::default();
        let a = batch_stats(&cfg, &["abc"], &[vec!["xyz", "abc", "abc"]], 1).unwrap();
        let b = batch_stats(&cfg, &["abc"], &[vec!["abc"]], 1).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn pairwise_equals_sentence_scores() {
        let xs = ["a b c d e", "a b c", "the cat sat", "x y", "", "(hi) there."];
        for cfg in [ChrfConfig::default(), ChrfConfig { word_order: 2, lowercase: true, ..Default::default() }, ChrfConfig { whitespace: true, eps_smoothing: true, ..Default::default() }] {
            let m = pairwise(&cfg, &xs, &xs, 2).unwrap();
            for i in 0..xs.len() {
                for j in 0..xs.len() {
                    let s = corpus(&cfg, &[xs[i]], &[vec![xs[j]]]);
                    assert_eq!(m[i * xs.len() + j], s, "{i} {j}");
                }
            }
        }
    }

    #[test]
    fn bad_options() {
        assert!(ChrfConfig { char_order: 0, ..Default::default() }.validate().is_err());
        assert!(ChrfConfig { beta: -1.0, ..Default::default() }.validate().is_err());
        assert!(ChrfConfig { beta: f64::NAN, ..Default::default() }.validate().is_err());
        let refs: Vec<Vec<&str>> = vec![vec![]];
        assert_eq!(batch_stats(&ChrfConfig::default(), &["a"], &refs, 1).unwrap_err(), Error::MissingReference { index: 0 });
    }
}
