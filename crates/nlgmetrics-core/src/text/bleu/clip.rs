//! Clipped n-gram matches of one hypothesis against its references (orders <= 4).
//!
//! Only hypothesis n-grams can match, so only the hypothesis is interned and counted.
//! Each reference is then scanned with lookups alone: a reference token the hypothesis
//! lacks ends every n-gram through it, and an n-gram the hypothesis lacks ends its
//! extensions too (every prefix of a hypothesis n-gram is a hypothesis n-gram).
//!
//! Tokens arrive as byte ranges of their text (no token strings are built) and are
//! interned by their bytes. A hypothesis n-gram is named by the position of its first
//! occurrence. An n-gram whose (n-1)-gram prefix occurs once in the hypothesis can only
//! be that prefix's extension, so it is found by comparing one token; only n-grams with
//! a repeated prefix need a table, keyed by (order, prefix, last token). In most text
//! few prefixes repeat, so most n-grams cost an array access instead of a hash probe.
//! The tables are open-addressing arrays emptied in O(1) per segment by moving to a new
//! generation (a segment has few tokens; clearing would cost more than filling), and
//! every buffer is reused from segment to segment: no allocation per segment.

use crate::ngram::PACK_MAX_ORDER;

/// Position of a reference token that the hypothesis does not contain.
const ABSENT: u32 = u32::MAX;

/// Hypotheses are at most this many tokens long here (positions take 29 bits of a key).
const MAX_LEN: usize = 1 << 29;

/// A token as a byte range `start..end` of its text.
pub type Span = (u32, u32);

#[inline(always)]
fn read_u64(text: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(text[at..at + 8].try_into().expect("8 bytes"))
}

/// The bytes `text[start..end]` (at most 8) as a little-endian word, zero-padded; one
/// unaligned read of the 8 bytes ending at `end` or starting at `start` when either lies
/// inside `text` (always, but for texts shorter than 8 bytes).
#[inline(always)]
fn word(text: &[u8], start: usize, end: usize) -> u64 {
    let len = end - start;
    debug_assert!((1..=8).contains(&len));
    if end >= 8 {
        read_u64(text, end - 8) >> (8 * (8 - len))
    } else if start + 8 <= text.len() {
        read_u64(text, start) & (u64::MAX >> (8 * (8 - len)))
    } else {
        let mut w = [0u8; 8];
        w[..len].copy_from_slice(&text[start..end]);
        u64::from_le_bytes(w)
    }
}

const MUL: u64 = 0x9e37_79b9_7f4a_7c15;

/// A token's exact key when it has at most 16 bytes (its two words; `len` tells
/// apart tokens that differ only by trailing zero bytes), else its first 16 bytes, and
/// a hash of all its bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
struct TokenKey {
    w0: u64,
    w1: u64,
    len: u32,
}

#[inline(always)]
fn token_key(text: &[u8], start: usize, end: usize) -> (TokenKey, u64) {
    let len = end - start;
    let (w0, w1) = if len <= 8 {
        (word(text, start, end), 0)
    } else {
        (read_u64(text, start), word(text, start + 8, end.min(start + 16)))
    };
    let mut h = (w0 ^ (len as u64).rotate_right(8)).wrapping_mul(MUL);
    if len > 8 {
        h = (h.rotate_left(23) ^ w1).wrapping_mul(MUL);
        if len > 16 {
            for c in text[start + 16..end].chunks(8) {
                h = (h.rotate_left(23) ^ word(c, 0, c.len())).wrapping_mul(MUL);
            }
        }
    }
    (TokenKey { w0, w1, len: len as u32 }, h)
}

#[derive(Clone, Copy)]
struct TokenEntry {
    key: TokenKey,
    start: u32,
    /// Its first position in the hypothesis.
    first: u32,
    generation: u32,
}

impl Default for TokenEntry {
    fn default() -> Self {
        TokenEntry { key: TokenKey { w0: 0, w1: 0, len: 0 }, start: 0, first: 0, generation: 0 }
    }
}

/// The entries of an open-addressing table (a power of two of them) and the current
/// generation: an entry of another generation is empty.
#[derive(Default)]
struct Stamped<E> {
    entries: Vec<E>,
    generation: u32,
    /// 64 - log2(entries): a hash's top bits pick the home entry.
    shift: u32,
    /// Entries of the current generation (counted where the table grows on demand).
    len: usize,
}

impl<E: Clone + Default> Stamped<E> {
    /// Empty the table, sized for `n` keys at most half full.
    fn reset(&mut self, n: usize) {
        let want = (2 * n).next_power_of_two().max(16);
        if want > self.entries.len() || self.generation == u32::MAX {
            self.entries = vec![E::default(); want.max(self.entries.len())];
            self.generation = 0;
            self.shift = 64 - self.entries.len().trailing_zeros();
        }
        self.generation += 1;
        self.len = 0;
    }
}

/// The hypothesis's tokens: exact byte-string keys (compared, not only hashed) to their
/// first positions.
type TokenTable = Stamped<TokenEntry>;

impl TokenTable {

    /// The entry of token `text[start..end]`: `Ok(index)` when present, `Err(index)` of
    /// the empty entry where it would go. `hyp` holds the tokens already in the table.
    #[inline(always)]
    fn find(&self, hyp: &[u8], text: &[u8], key: TokenKey, hash: u64, start: usize) -> Result<usize, usize> {
        let mask = self.entries.len() - 1;
        let mut i = (hash >> self.shift) as usize;
        loop {
            let e = &self.entries[i];
            if e.generation != self.generation {
                return Err(i);
            }
            if e.key == key
                && (key.len <= 16
                    || hyp[e.start as usize + 16..(e.start + key.len) as usize]
                        == text[start + 16..start + key.len as usize])
            {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// The first position of hypothesis token `hyp[start..end]`, which is `position`
    /// if the token is new. The table doubles when half full: it is sized for the
    /// distinct tokens, which a long text with a small vocabulary has few of.
    #[inline(always)]
    fn intern(&mut self, hyp: &[u8], start: usize, end: usize, position: u32) -> u32 {
        let (key, hash) = token_key(hyp, start, end);
        match self.find(hyp, hyp, key, hash, start) {
            Ok(i) => self.entries[i].first,
            Err(mut i) => {
                if 2 * (self.len + 1) > self.entries.len() {
                    self.grow(hyp);
                    i = self.find(hyp, hyp, key, hash, start).expect_err("a new token");
                }
                self.entries[i] = TokenEntry { key, start: start as u32, first: position, generation: self.generation };
                self.len += 1;
                position
            }
        }
    }

    /// Twice the entries, the current generation's moved over.
    #[cold]
    fn grow(&mut self, hyp: &[u8]) {
        let size = 2 * self.entries.len();
        let old = std::mem::replace(&mut self.entries, vec![TokenEntry::default(); size]);
        // New entries are of generation 0, never current (it starts at 1).
        self.shift -= 1;
        let mask = self.entries.len() - 1;
        for e in old.into_iter().filter(|e| e.generation == self.generation) {
            let start = e.start as usize;
            let (_, hash) = token_key(hyp, start, start + e.key.len as usize);
            let mut i = (hash >> self.shift) as usize;
            while self.entries[i].generation == self.generation {
                i = (i + 1) & mask;
            }
            self.entries[i] = e;
        }
    }

    /// The first position of token `text[start..end]` in the hypothesis, or [`ABSENT`].
    #[inline(always)]
    fn get(&self, hyp: &[u8], text: &[u8], start: usize, end: usize) -> u32 {
        let (key, hash) = token_key(text, start, end);
        match self.find(hyp, text, key, hash, start) {
            Ok(i) => self.entries[i].first,
            Err(_) => ABSENT,
        }
    }
}

/// Open addressing from n-gram keys to first positions: (key, value, generation).
type KeyTable = Stamped<(u64, u32, u32)>;

impl KeyTable {
    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(MUL) >> self.shift) as usize
    }

    /// The value of `key`, inserting `next` for a new key (doubling the table when half
    /// full: sized for the keys there are, not for the most there could be).
    #[inline]
    fn get_or_insert(&mut self, key: u64, next: u32) -> u32 {
        if 2 * (self.len + 1) > self.entries.len() {
            self.grow();
        }
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        loop {
            let e = &mut self.entries[i];
            if e.2 != self.generation {
                *e = (key, next, self.generation);
                self.len += 1;
                return next;
            }
            if e.0 == key {
                return e.1;
            }
            i = (i + 1) & mask;
        }
    }

    /// Twice the entries, the current generation's moved over (new ones are of
    /// generation 0, never current).
    #[cold]
    fn grow(&mut self) {
        let size = 2 * self.entries.len();
        let old = std::mem::replace(&mut self.entries, vec![(0, 0, 0); size]);
        self.shift -= 1;
        let mask = size - 1;
        for e in old.into_iter().filter(|e| e.2 == self.generation) {
            let mut i = self.home(e.0);
            while self.entries[i].2 == self.generation {
                i = (i + 1) & mask;
            }
            self.entries[i] = e;
        }
    }

    #[inline]
    fn get(&self, key: u64) -> Option<u32> {
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        loop {
            let e = &self.entries[i];
            if e.2 != self.generation {
                return None;
            }
            if e.0 == key {
                return Some(e.1);
            }
            i = (i + 1) & mask;
        }
    }
}

/// The key of an n-gram of order `k + 1` (k >= 1) whose prefix first occurs at `prefix`
/// and whose last token first occurs at `last` (both below [`MAX_LEN`]).
#[inline]
fn gram_key(k: usize, prefix: u32, last: u32) -> u64 {
    ((k as u64) << 58) | ((prefix as u64) << 29) | last as u64
}

#[derive(Default)]
pub struct Clipper {
    max_order: usize,
    /// Hypothesis length.
    len: usize,
    /// References scanned since the hypothesis was set.
    references: usize,
    vocab: TokenTable,
    /// Per hypothesis token, the position of its first occurrence.
    firsts: Vec<u32>,
    /// Per reference token, its first position in the hypothesis or [`ABSENT`].
    ref_firsts: Vec<u32>,
    /// First positions of the n-grams of the order being built, per position (two rows).
    starts: Vec<u32>,
    next_starts: Vec<u32>,
    /// `[k * len + p]`: the count of the order-`k + 1` n-gram first occurring at `p`
    /// (0 where none does), its largest count in any one reference so far, and its count
    /// in the reference being scanned (from the second reference on).
    hyp: Vec<u32>,
    best: Vec<u32>,
    cur: Vec<u32>,
    touched: Vec<u32>,
    /// The n-grams whose prefix repeats: [`gram_key`] to first position.
    index: KeyTable,
}

impl Clipper {
    /// Intern and count the n-grams of the hypothesis whose tokens are `spans` of `text`.
    /// Returns its length, or `None` when it or `max_order` is too large for this path.
    pub fn set_hypothesis(&mut self, text: &[u8], spans: &[Span], max_order: usize) -> Option<usize> {
        let len = spans.len();
        if max_order > PACK_MAX_ORDER || len >= MAX_LEN {
            return None;
        }
        self.max_order = max_order;
        self.len = len;
        self.references = 0;
        for v in [&mut self.hyp, &mut self.best] {
            v.clear();
            // Zeroed a block at a time: one huge hypothesis stays interruptible.
            for at in (0..max_order * len).step_by(1 << 20) {
                crate::interrupt::check();
                v.resize((at + (1 << 20)).min(max_order * len), 0);
            }
        }
        // Sized at a second reference: most segments have one.
        self.cur.clear();
        let Self { vocab, firsts, starts, next_starts, hyp, index, .. } = self;
        // Grown on demand: a long hypothesis may have few distinct tokens.
        vocab.reset(len.min(64));
        firsts.clear();
        for (i, &(s, e)) in spans.iter().enumerate() {
            crate::interrupt::check_every(i);
            let first = vocab.intern(text, s as usize, e as usize, i as u32);
            hyp[first as usize] += 1;
            firsts.push(first);
        }
        starts.clear();
        starts.extend_from_slice(firsts);
        // Grown on demand too: only n-grams with a repeated prefix go in.
        index.reset(16);
        for k in 1..max_order.min(len) {
            next_starts.clear();
            let (shorter, counts) = hyp.split_at_mut(k * len);
            let (shorter, counts) = (&shorter[(k - 1) * len..], &mut counts[..len]);
            for i in 0..len - k {
                crate::interrupt::check_every(i);
                let prefix = starts[i];
                let first = if shorter[prefix as usize] == 1 {
                    // A prefix that occurs once (here: prefix == i) has one extension.
                    i as u32
                } else {
                    index.get_or_insert(gram_key(k, prefix, firsts[i + k]), i as u32)
                };
                counts[first as usize] += 1;
                next_starts.push(first);
            }
            std::mem::swap(starts, next_starts);
        }
        Some(len)
    }

    /// Scan one reference whose tokens are `spans` of `text` (`hyp` is the text of the
    /// hypothesis set last); returns its length in tokens.
    pub fn add_reference(&mut self, hyp: &[u8], text: &[u8], spans: &[Span]) -> usize {
        self.ref_firsts.clear();
        let vocab = &self.vocab;
        self.ref_firsts.extend(spans.iter().map(|&(s, e)| vocab.get(hyp, text, s as usize, e as usize)));
        self.references += 1;
        let g = Grams { len: self.len, max_order: self.max_order, firsts: &self.firsts, hyp: &self.hyp, index: &self.index };
        if self.references == 1 {
            // The first reference's counts are the best so far.
            let best = &mut self.best;
            scan(&g, &self.ref_firsts, |at| best[at] += 1);
        } else {
            if self.references == 2 {
                self.cur.resize(self.best.len(), 0);
            }
            let (cur, touched) = (&mut self.cur, &mut self.touched);
            scan(&g, &self.ref_firsts, |at| {
                if cur[at] == 0 {
                    touched.push(at as u32);
                }
                cur[at] += 1;
            });
            for &at in &self.touched {
                let at = at as usize;
                self.best[at] = self.best[at].max(self.cur[at]);
                self.cur[at] = 0;
            }
            self.touched.clear();
        }
        spans.len()
    }

    /// Add the clipped matches per order (index n-1) to `correct`.
    pub fn matches_into(&self, correct: &mut [u64]) {
        for (k, (hyp, best)) in self.hyp.chunks(self.len.max(1)).zip(self.best.chunks(self.len.max(1))).enumerate() {
            correct[k] += hyp.iter().zip(best).map(|(&h, &b)| h.min(b) as u64).sum::<u64>();
        }
    }
}

/// What a reference scan reads of the hypothesis.
struct Grams<'a> {
    len: usize,
    max_order: usize,
    firsts: &'a [u32],
    hyp: &'a [u32],
    index: &'a KeyTable,
}

/// `seen(k * len + p)` for every n-gram of the reference whose tokens' first positions in
/// the hypothesis are `refs` that the hypothesis has, where `p` is its first position.
#[inline(always)]
fn scan(g: &Grams<'_>, refs: &[u32], mut seen: impl FnMut(usize)) {
    let len = g.len;
    for i in 0..refs.len() {
        crate::interrupt::check_every(i);
        let mut at = refs[i];
        if at == ABSENT {
            continue;
        }
        seen(at as usize);
        for k in 1..g.max_order.min(refs.len() - i) {
            let last = refs[i + k];
            if last == ABSENT {
                break;
            }
            if g.hyp[(k - 1) * len + at as usize] == 1 {
                // The prefix occurs once, at `at`: the n-gram is there or nowhere.
                let p = at as usize + k;
                if p >= len || g.firsts[p] != last {
                    break;
                }
            } else {
                match g.index.get(gram_key(k, at, last)) {
                    Some(first) => at = first,
                    None => break,
                }
            }
            seen(k * len + at as usize);
        }
    }
}

/// The whitespace-separated tokens of `text` (Python's `split()`) as spans.
pub fn py_token_spans(text: &str, spans: &mut Vec<Span>) {
    let base = text.as_ptr() as usize;
    spans.extend(crate::pystr::py_tokens(text).map(|t| {
        let s = (t.as_ptr() as usize - base) as u32;
        (s, s + t.len() as u32)
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<Span> {
        let mut v = vec![];
        py_token_spans(text, &mut v);
        v
    }

    fn clip(hyp: &str, refs: &[&str], order: usize) -> Vec<u64> {
        let mut c = Clipper::default();
        assert_eq!(c.set_hypothesis(hyp.as_bytes(), &spans(hyp), order), Some(spans(hyp).len()));
        for r in refs {
            assert_eq!(c.add_reference(hyp.as_bytes(), r.as_bytes(), &spans(r)), spans(r).len());
        }
        let mut m = vec![0u64; order];
        c.matches_into(&mut m);
        m
    }

    /// Clipped matches by counting every n-gram as a string (the definition).
    fn clip_naive(hyp: &str, refs: &[&str], order: usize) -> Vec<u64> {
        use std::collections::HashMap;
        fn counts(s: &str, n: usize) -> HashMap<Vec<&str>, u64> {
            let t: Vec<&str> = s.split_whitespace().collect();
            let mut c = HashMap::new();
            for w in t.windows(n) {
                *c.entry(w.to_vec()).or_insert(0) += 1;
            }
            c
        }
        (1..=order)
            .map(|n| {
                let h = counts(hyp, n);
                let rs: Vec<_> = refs.iter().map(|r| counts(r, n)).collect();
                h.iter().map(|(g, &c)| c.min(rs.iter().map(|r| r.get(g).copied().unwrap_or(0)).max().unwrap_or(0))).sum()
            })
            .collect()
    }

    #[test]
    fn clips_by_the_best_single_reference() {
        // unigrams: "the" min(3, 2) + "cat" 1; bigrams: "the cat" 1.
        assert_eq!(clip("the the the cat", &["the cat on the mat", "a dog"], 4), [3, 1, 0, 0]);
        assert_eq!(clip("the the the cat", &["a dog", "the cat on the mat"], 4), [3, 1, 0, 0]);
    }

    #[test]
    fn agrees_with_counting_strings() {
        // Tokens longer than 8 bytes that share their first 8, tokens at the very end of
        // their text (no 8-byte read past it), repeats, several references.
        let words = [
            "a", "ab", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefghiX", "b", "é", "éé", "x\u{0}", "x",
            "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyZ",
            "\u{0}", "\u{0}\u{0}",
        ];
        let mut seed = 0x1234_5678_9abc_def1u64;
        let text = |len: u64, seed: &mut u64| -> String {
            let mut s = String::new();
            for _ in 0..len {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                s.push_str(words[(*seed % words.len() as u64) as usize]);
                s.push(' ');
            }
            s.pop();
            s
        };
        for round in 0..3000 {
            let hyp = text(seed % 12, &mut seed);
            let refs: Vec<String> = (0..1 + round % 3).map(|_| text(seed % 14, &mut seed)).collect();
            let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
            for order in 1..=4 {
                assert_eq!(clip(&hyp, &refs, order), clip_naive(&hyp, &refs, order), "{hyp:?} {refs:?}");
            }
        }
    }

    #[test]
    fn tables_survive_growth_and_generations() {
        let mut t = KeyTable::default();
        for round in 0..50u64 {
            let n = 1 + (round as usize * 37) % 300;
            // Half the rounds from the smallest size: inserting grows the table.
            t.reset(if round % 2 == 0 { 1 } else { n });
            for k in 0..n as u64 {
                assert_eq!(t.get_or_insert(k * 65537 + round, k as u32), k as u32);
            }
            for k in 0..n as u64 {
                assert_eq!(t.get(k * 65537 + round), Some(k as u32));
                assert_eq!(t.get_or_insert(k * 65537 + round, 9999), k as u32);
            }
            assert_eq!(t.get(u64::MAX), None);
        }
        let mut v = TokenTable::default();
        for round in 0..40usize {
            let text: String = (0..1 + round * 13).map(|k| format!("w{}r{round} ", k * 7919)).collect();
            let sp = spans(&text);
            // From the smallest size: interning grows the table.
            v.reset(1);
            for (k, &(s, e)) in sp.iter().enumerate() {
                assert_eq!(v.intern(text.as_bytes(), s as usize, e as usize, k as u32), k as u32);
                assert_eq!(v.intern(text.as_bytes(), s as usize, e as usize, 9999), k as u32);
            }
            for (k, &(s, e)) in sp.iter().enumerate() {
                assert_eq!(v.get(text.as_bytes(), text.as_bytes(), s as usize, e as usize), k as u32);
            }
            assert_eq!(v.get(text.as_bytes(), b"zz", 0, 2), ABSENT);
        }
    }

    #[test]
    fn refuses_orders_it_cannot_pack() {
        let mut c = Clipper::default();
        assert_eq!(c.set_hypothesis(b"a b", &[(0, 1), (2, 3)], 5), None);
    }
}
