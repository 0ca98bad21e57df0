//! The floor: the least work any implementation of a metric must do on the same data.
//!
//! `nlgmetrics-floor TASK FILE THREADS REPEAT` prints one JSON object with the median
//! wall seconds of REPEAT runs of TASK over FILE using THREADS threads:
//!
//! - `ngram[:N]` (FILE: `hyp\tref\tref...` lines): split every string on ASCII whitespace,
//!   hash each token once, count the hypothesis's n-grams of orders 1..=N (4) and clip them
//!   against each reference's (the core of BLEU, ROUGE-N, NIST, chrF's word part).
//! - `ngram-first[:N]`: `ngram`'s answer with less work: tokens and n-grams named by their
//!   first position in the hypothesis, a map lookup only for n-grams whose prefix repeats
//!   (the structure of nlgmetrics' BLEU once it beat `ngram`).
//! - `nist`: a corpus-wide hash count of every reference n-gram (orders 1..=5), then
//!   `ngram:5`: NIST's information weights need the whole table before any segment.
//! - `lcs`: split and hash as `ngram`, then one bit-parallel LCS length (Hyyrö 2004)
//!   per (hypothesis, reference) pair: the core of ROUGE-L.
//! - `rouge`: ROUGE-1/2/L as a rouge-score implementation must do it, each text read
//!   once: rouge-score's tokens (ASCII letters and digits, lowercased; found 64 bytes at a
//!   time from SWAR bit masks), each token packed into its key (up to 16 bytes) and
//!   numbered densely per pair in an open-addressing table emptied by a generation stamp;
//!   then unigram clipping over dense counts, bigram clipping in a stamped table, and
//!   one bit-parallel LCS over the dense ids per (hypothesis, reference) pair.
//! - `edit`: one bit-parallel Levenshtein distance (Myers 1999 / Hyyrö 2001) per pair over
//!   the tokens (WER) — `edit-chars` over the bytes (CER, ASCII data).
//! - `chars[:N]`: remove whitespace, pack every character n-gram of orders 1..=N (6, at
//!   most 8) of the hypothesis and of each reference into a u64 (bytes: ASCII data), count
//!   the hypothesis's in a stamped open-addressing table and clip each reference's against
//!   it in the same pass (the core of chrF; chrF++ adds `ngram:2`).
//! - `distinct` (FILE: one text a line): split, hash, insert every bigram's 64-bit hash
//!   into one hash set sized up front; the count is the answer (hash-exact only).
//! - `sort` (FILE: little-endian f64 scores): the descending order of the scores as 64-bit
//!   order-preserving keys without payloads (an unweighted ROC AUC needs only each
//!   distinct score's class counts, so the positives' and negatives' keys sort apart):
//!   one scatter by the top 16 bits, then an LSD byte radix sort of each bucket; the
//!   answer is the number of distinct scores.
//! - `read` (FILE: any): read the file into memory (a compiled table cache's load floor).
//! - `qa` (FILE: `prediction\tgold\tgold...` lines, ASCII): SQuAD's least work per
//!   question: lowercase, drop ASCII punctuation and the articles, split on whitespace,
//!   hash each token once, sort the hashes and count the shared tokens against each gold
//!   answer (exact match and F1 need nothing more).
//!
//! Reading the strings out of Python is not included (the data comes from a file read
//! before the clock starts); nlgmetrics' times include it.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// FxHash (the rustc hasher): one multiply per word.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;
type FxSet<K> = HashSet<K, BuildHasherDefault<Fx>>;

fn token_hash(t: &[u8]) -> u64 {
    let mut h = Fx(0);
    h.write(t);
    h.write_u64(t.len() as u64);
    h.0 | 1
}

fn tokens(s: &str, out: &mut Vec<u64>) {
    out.clear();
    out.extend(s.as_bytes().split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty()).map(token_hash));
}

fn gram_hashes(toks: &[u64], n: usize, out: &mut Vec<u64>) {
    out.clear();
    for w in toks.windows(n) {
        let mut h = Fx(n as u64);
        for &t in w {
            h.write_u64(t);
        }
        out.push(h.0);
    }
}

fn ngram_pair(hyp: &str, refs: &[&str], s: &mut Scratch) -> u64 {
    tokens(hyp, &mut s.hyp);
    let mut matched = 0u64;
    for r in refs {
        tokens(r, &mut s.r);
        for n in 1..=s.orders {
            s.counts.clear();
            gram_hashes(&s.r, n, &mut s.grams);
            for &g in &s.grams {
                *s.counts.entry(g).or_insert(0) += 1;
            }
            gram_hashes(&s.hyp, n, &mut s.grams);
            for &g in &s.grams {
                if let Some(c) = s.counts.get_mut(&g) {
                    if *c > 0 {
                        *c -= 1;
                        matched += 1;
                    }
                }
            }
        }
    }
    matched
}

/// `ngram` with the least work found so far, the same answer: each token hashed once and
/// named by its first position in the hypothesis; an n-gram is named by its first
/// position too, found by comparing one token when its prefix occurs once (most do) and
/// through a map only when its prefix repeats; each reference scanned with lookups alone.
fn ngram_first_pair(hyp: &str, refs: &[&str], s: &mut Scratch) -> u64 {
    tokens(hyp, &mut s.hyp);
    let (len, orders) = (s.hyp.len(), s.orders);
    s.first.clear();
    s.firsts.clear();
    s.hyp_counts.clear();
    s.hyp_counts.resize(orders * len, 0);
    for (i, &t) in s.hyp.iter().enumerate() {
        let f = *s.first.entry(t).or_insert(i as u32);
        s.hyp_counts[f as usize] += 1;
        s.firsts.push(f);
    }
    s.starts.clear();
    s.starts.extend_from_slice(&s.firsts);
    s.gram_firsts.clear();
    for k in 1..orders.min(len) {
        s.next_starts.clear();
        for i in 0..len - k {
            let prefix = s.starts[i];
            let f = if s.hyp_counts[(k - 1) * len + prefix as usize] == 1 {
                i as u32
            } else {
                *s.gram_firsts.entry((k, prefix, s.firsts[i + k])).or_insert(i as u32)
            };
            s.hyp_counts[k * len + f as usize] += 1;
            s.next_starts.push(f);
        }
        std::mem::swap(&mut s.starts, &mut s.next_starts);
    }
    let mut matched = 0u64;
    for r in refs {
        tokens(r, &mut s.r);
        s.ref_counts.clear();
        s.ref_counts.resize(orders * len, 0);
        for i in 0..s.r.len() {
            let Some(&a) = s.first.get(&s.r[i]) else { continue };
            let mut at = a;
            s.ref_counts[at as usize] += 1;
            for k in 1..orders.min(s.r.len() - i) {
                let Some(&last) = s.first.get(&s.r[i + k]) else { break };
                if s.hyp_counts[(k - 1) * len + at as usize] == 1 {
                    let p = at as usize + k;
                    if p >= len || s.firsts[p] != last {
                        break;
                    }
                } else {
                    match s.gram_firsts.get(&(k, at, last)) {
                        Some(&f) => at = f,
                        None => break,
                    }
                }
                s.ref_counts[k * len + at as usize] += 1;
            }
        }
        matched += s.hyp_counts.iter().zip(&s.ref_counts).map(|(&h, &c)| h.min(c) as u64).sum::<u64>();
    }
    matched
}

/// Match masks of `a` (bit i of token t's mask: a[i] == t), `words` u64s per token.
fn build_masks(a: &[u64], words: usize, s: &mut Scratch) {
    s.peq.clear();
    s.masks.clear();
    for (i, &t) in a.iter().enumerate() {
        let next = s.masks.len() as u32;
        let at = *s.peq.entry(t).or_insert(next) as usize;
        if at == next as usize {
            s.masks.resize(at + words, 0);
        }
        s.masks[at + i / 64] |= 1 << (i % 64);
    }
    // a shared all-zero mask for tokens of `b` that `a` lacks
    s.masks.resize(s.masks.len() + words, 0);
}

/// Hyyrö's bit-parallel LCS length, 64-bit blocks over `a`.
fn lcs(a: &[u64], b: &[u64], s: &mut Scratch) -> u64 {
    let words = a.len().div_ceil(64).max(1);
    build_masks(a, words, s);
    let zero = s.masks.len() - words;
    s.v.clear();
    s.v.resize(words, !0u64);
    for t in b {
        let at = s.peq.get(t).map_or(zero, |&o| o as usize);
        let m = &s.masks[at..at + words];
        let mut carry = 0u64;
        for k in 0..words {
            let u = s.v[k] & m[k];
            let (sum, c1) = s.v[k].overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(carry);
            carry = u64::from(c1 || c2);
            s.v[k] = sum | (s.v[k] & !m[k]);
        }
    }
    // zeros among the rows of `a` only (carries also clear padding bits)
    (0..words)
        .map(|k| {
            let rows = a.len().saturating_sub(64 * k).min(64);
            let mask = if rows == 64 { !0u64 } else { (1u64 << rows) - 1 };
            u64::from((!s.v[k] & mask).count_ones())
        })
        .sum()
}

/// Myers's bit-parallel Levenshtein distance (Myers 1999, blocks of 64 rows of `a`
/// chained through the horizontal delta of each block's last row).
fn levenshtein(a: &[u64], b: &[u64], s: &mut Scratch) -> u64 {
    if a.is_empty() {
        return b.len() as u64;
    }
    let words = a.len().div_ceil(64);
    build_masks(a, words, s);
    let zero = s.masks.len() - words;
    let mut pv = vec![!0u64; words];
    let mut mv = vec![0u64; words];
    let last = 1u64 << ((a.len() - 1) % 64);
    let mut dist = a.len() as i64;
    for t in b {
        let at = s.peq.get(t).map_or(zero, |&o| o as usize);
        let eqs = &s.masks[at..at + words];
        let mut h_in: i64 = 1;
        for k in 0..words {
            let top = if k == words - 1 { last } else { 1 << 63 };
            let mut eq = eqs[k];
            let xv = eq | mv[k];
            if h_in < 0 {
                eq |= 1;
            }
            let xh = ((eq & pv[k]).wrapping_add(pv[k]) ^ pv[k]) | eq;
            let mut ph = mv[k] | !(xh | pv[k]);
            let mut mh = pv[k] & xh;
            let h_out = if ph & top != 0 {
                1
            } else if mh & top != 0 {
                -1
            } else {
                0
            };
            ph <<= 1;
            mh <<= 1;
            if h_in < 0 {
                mh |= 1;
            } else if h_in > 0 {
                ph |= 1;
            }
            pv[k] = mh | !(xv | ph);
            mv[k] = ph & xv;
            h_in = h_out;
        }
        dist += h_in;
    }
    dist as u64
}

#[derive(Default)]
struct Scratch {
    hyp: Vec<u64>,
    r: Vec<u64>,
    grams: Vec<u64>,
    counts: FxMap<u64, u32>,
    /// token -> offset of its match mask in `masks` (`words` u64s each)
    peq: FxMap<u64, u32>,
    masks: Vec<u64>,
    v: Vec<u64>,
    orders: usize,
    /// `ngram-first`: first positions of tokens and n-grams, counts per (order, position).
    first: FxMap<u64, u32>,
    firsts: Vec<u32>,
    starts: Vec<u32>,
    next_starts: Vec<u32>,
    gram_firsts: FxMap<(usize, u32, u32), u32>,
    hyp_counts: Vec<u32>,
    ref_counts: Vec<u32>,
}

/// The highest n-gram order of the `ngram` task (`ngram:N`, default 4).
static ORDERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(4);

fn per_pair(lines: &[String], threads: usize, f: fn(&str, &[&str], &mut Scratch) -> u64) -> u64 {
    let orders = ORDERS.load(std::sync::atomic::Ordering::Relaxed);
    let run = move |part: &[String]| {
        let mut s = Scratch { orders, ..Scratch::default() };
        let mut total = 0u64;
        for l in part {
            let mut fields = l.split('\t');
            let hyp = fields.next().unwrap_or("");
            let refs: Vec<&str> = fields.collect();
            total += f(hyp, &refs, &mut s);
        }
        total
    };
    if threads <= 1 {
        return run(lines);
    }
    let chunk = lines.len().div_ceil(threads).max(1);
    std::thread::scope(|sc| {
        let handles: Vec<_> = lines.chunks(chunk).map(|part| sc.spawn(move || run(part))).collect();
        handles.into_iter().map(|h| h.join().expect("worker")).sum()
    })
}

/// Sorted hashes of a text's SQuAD tokens (ASCII): lowercased, punctuation dropped,
/// articles dropped.
fn qa_hashes(text: &str, out: &mut Vec<u64>) {
    out.clear();
    let mut h = Fx::default();
    let mut word = [0u8; 3];
    let mut len = 0usize;
    let flush = |h: &mut Fx, len: &mut usize, word: &[u8; 3], out: &mut Vec<u64>| {
        if *len > 0 && !matches!(&word[..(*len).min(3)], b"a" | b"an" | b"the" if *len <= 3) {
            out.push(h.finish());
        }
        *h = Fx::default();
        *len = 0;
    };
    for &b in text.as_bytes() {
        if b.is_ascii_whitespace() {
            flush(&mut h, &mut len, &word, out);
        } else if !b.is_ascii_punctuation() {
            let c = b.to_ascii_lowercase();
            if len < 3 {
                word[len] = c;
            }
            len += 1;
            h.write_u8(c);
        }
    }
    flush(&mut h, &mut len, &word, out);
    out.sort_unstable();
}

fn qa_pair(hyp: &str, refs: &[&str], _s: &mut Scratch) -> u64 {
    thread_local! {
        static BUF: std::cell::RefCell<(Vec<u64>, Vec<u64>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
    }
    BUF.with(|b| {
        let (p, g) = &mut *b.borrow_mut();
        qa_hashes(hyp, p);
        let mut total = 0u64;
        for r in refs {
            qa_hashes(r, g);
            let (mut i, mut j) = (0, 0);
            while i < p.len() && j < g.len() {
                match p[i].cmp(&g[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        total += 1;
                        i += 1;
                        j += 1;
                    }
                }
            }
        }
        total
    })
}

fn lcs_pair(hyp: &str, refs: &[&str], s: &mut Scratch) -> u64 {
    let mut h = Vec::new();
    tokens(hyp, &mut h);
    let mut total = 0;
    for r in refs {
        let mut t = Vec::new();
        tokens(r, &mut t);
        total += lcs(&t, &h, s);
    }
    total
}

/// A key of [`Stamped`], hashed by one multiply.
trait StampKey: Copy + Default + PartialEq {
    fn hash(self) -> u64;
}

impl StampKey for u64 {
    #[inline]
    fn hash(self) -> u64 {
        self.wrapping_mul(GOLDEN)
    }
}

impl StampKey for (u64, u64) {
    #[inline]
    fn hash(self) -> u64 {
        (self.0 ^ self.1.rotate_left(31)).wrapping_mul(GOLDEN)
    }
}

/// An open-addressing map to `u32` values for one pair (at most half full), emptied in
/// O(1) by bumping its stamp (a slot is live only while its stamp is the map's).
struct Stamped<K> {
    slots: Vec<(K, u32, u32)>,
    stamp: u32,
    len: usize,
    shift: u32,
}

impl<K: StampKey> Default for Stamped<K> {
    fn default() -> Self {
        Self::new(8)
    }
}

impl<K: StampKey> Stamped<K> {
    fn new(bits: u32) -> Self {
        Stamped { slots: vec![(K::default(), 0, 0); 1 << bits], stamp: 1, len: 0, shift: 64 - bits }
    }

    /// Empty, with room for `items` keys at most half full.
    fn clear_for(&mut self, items: usize) {
        let want = (2 * items + 2).next_power_of_two().max(16);
        if self.slots.len() < want {
            *self = Self::new(want.trailing_zeros());
        } else {
            self.len = 0;
            self.stamp += 1;
        }
    }

    /// The slot of `key`, or the free slot where it would go.
    #[inline]
    fn find(&self, key: K) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (key.hash() >> self.shift) as usize;
        while self.slots[i].1 == self.stamp && self.slots[i].0 != key {
            i = (i + 1) & mask;
        }
        i
    }

    /// The value of `key`, inserting `make()` when absent (growing past half full).
    #[inline]
    fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> u32) -> u32 {
        let i = self.find(key);
        if self.slots[i].1 == self.stamp {
            return self.slots[i].2;
        }
        let val = make();
        self.slots[i] = (key, self.stamp, val);
        self.len += 1;
        if 2 * self.len > self.slots.len() {
            let old = std::mem::replace(self, Self::new(64 - self.shift + 1));
            for &(k, stamp, v) in &old.slots {
                if stamp == old.stamp {
                    let j = self.find(k);
                    self.slots[j] = (k, self.stamp, v);
                    self.len += 1;
                }
            }
        }
        val
    }
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bit i: byte i of the 8 is an ASCII letter or digit (SWAR range tests, then the high
/// bits gathered by one multiply).
#[inline]
fn word_bits8(x: u64) -> u64 {
    let low7 = x & !HIGH;
    let digit = (low7 + (0x80 - 0x30) * ONES) & !(low7 + (0x80 - 0x3A) * ONES);
    let lower = low7 | (0x20 * ONES);
    let letter = (lower + (0x80 - 0x61) * ONES) & !(lower + (0x80 - 0x7B) * ONES);
    ((((digit | letter) & !x & HIGH) >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

#[derive(Default)]
struct RougeScratch {
    masks: Vec<u64>,
    hyp: Vec<u32>,
    r: Vec<u32>,
    short: Stamped<u64>,
    medium: Stamped<(u64, u64)>,
    long: FxMap<Vec<u8>, u32>,
    n_ids: u32,
    counts: Vec<u32>,
    grams: Stamped<u64>,
    peq: Vec<u64>,
    rows: Vec<u64>,
}

impl RougeScratch {
    /// rouge-score's tokens of `text` as this pair's dense ids.
    fn read(&mut self, text: &[u8], out: &mut Vec<u32>) {
        out.clear();
        self.masks.clear();
        let (mut m, mut q) = (0u64, 0);
        let mut words = text.chunks_exact(8);
        for w in &mut words {
            m |= word_bits8(u64::from_le_bytes(w.try_into().expect("8 bytes"))) << (8 * q);
            q += 1;
            if q == 8 {
                self.masks.push(m);
                (m, q) = (0, 0);
            }
        }
        let mut w = [0u8; 8];
        w[..words.remainder().len()].copy_from_slice(words.remainder());
        m |= word_bits8(u64::from_le_bytes(w)) << (8 * q);
        self.masks.push(m);
        self.masks.push(0);
        let load = |at: usize| {
            let w = match text.get(at..at + 8) {
                Some(w) => w.try_into().expect("8 bytes"),
                None => {
                    let mut w = [0u8; 8];
                    let part = &text[at.min(text.len())..];
                    w[..part.len()].copy_from_slice(part);
                    w
                }
            };
            u64::from_le_bytes(w) | 0x2020_2020_2020_2020
        };
        let keep = |k: usize| if k >= 8 { u64::MAX } else { (1u64 << (8 * k)) - 1 };
        let (mut at, mut cur) = (0usize, self.masks[0]);
        loop {
            while cur == 0 {
                at += 1;
                if at == self.masks.len() {
                    return;
                }
                cur = self.masks[at];
            }
            let start_bit = cur.trailing_zeros() as usize;
            let start = 64 * at + start_bit;
            let mut end_bit = start_bit + (cur >> start_bit).trailing_ones() as usize;
            while end_bit == 64 {
                at += 1;
                cur = self.masks[at];
                end_bit = cur.trailing_ones() as usize;
            }
            cur &= u64::MAX << end_bit;
            let len = 64 * at + end_bit - start;
            let n_ids = &mut self.n_ids;
            let next = || {
                *n_ids += 1;
                *n_ids - 1
            };
            let id = if len <= 8 {
                self.short.get_or_insert_with(load(start) & keep(len), next)
            } else if len <= 16 {
                self.medium.get_or_insert_with((load(start), load(start + 8) & keep(len - 8)), next)
            } else {
                let word: Vec<u8> = text[start..start + len].iter().map(|b| b | 0x20).collect();
                *self.long.entry(word).or_insert_with(next)
            };
            out.push(id);
        }
    }

    fn unigram_overlap(&mut self, t: &[u32], h: &[u32]) -> u64 {
        self.counts.resize(self.counts.len().max(self.n_ids as usize), 0);
        for &x in t {
            self.counts[x as usize] += 1;
        }
        let mut hits = 0u64;
        for &x in h {
            let c = &mut self.counts[x as usize];
            let hit = (*c > 0) as u32;
            *c -= hit;
            hits += hit as u64;
        }
        for &x in t {
            self.counts[x as usize] = 0;
        }
        hits
    }

    fn bigram_overlap(&mut self, t: &[u32], h: &[u32]) -> u64 {
        let g = &mut self.grams;
        g.clear_for(t.len());
        let key = |w: &[u32]| ((w[0] as u64) << 32) | w[1] as u64;
        for w in t.windows(2) {
            let k = key(w);
            let i = g.find(k);
            if g.slots[i].1 == g.stamp {
                g.slots[i].2 += 1;
            } else {
                g.slots[i] = (k, g.stamp, 1);
            }
        }
        let mut hits = 0u64;
        for w in h.windows(2) {
            let k = key(w);
            let i = g.find(k);
            let hit = g.slots[i].1 == g.stamp && g.slots[i].2 > 0;
            g.slots[i].2 -= hit as u32;
            hits += hit as u64;
        }
        hits
    }

    /// Hyyrö's bit-parallel LCS with dense per-id match masks (`words` u64s per id).
    fn lcs(&mut self, a: &[u32], b: &[u32]) -> u64 {
        let (long, short) = if a.len() < b.len() { (b, a) } else { (a, b) };
        if short.is_empty() {
            return 0;
        }
        let words = short.len().div_ceil(64);
        self.peq.resize(self.peq.len().max(self.n_ids as usize * words), 0);
        for (i, &x) in short.iter().enumerate() {
            self.peq[x as usize * words + i / 64] |= 1 << (i % 64);
        }
        self.rows.clear();
        self.rows.resize(words, !0u64);
        for &y in long {
            let pm = &self.peq[y as usize * words..(y as usize + 1) * words];
            let mut carry = 0u64;
            for k in 0..words {
                let v = self.rows[k];
                let u = v & pm[k];
                let (s1, c1) = v.overflowing_add(u);
                let (s2, c2) = s1.overflowing_add(carry);
                carry = u64::from(c1 | c2);
                self.rows[k] = s2 | (v - u);
            }
        }
        for &x in short {
            self.peq[x as usize * words..(x as usize + 1) * words].fill(0);
        }
        let m = short.len();
        (0..words)
            .map(|k| {
                let rows = (m - 64 * k).min(64);
                let mask = if rows == 64 { !0u64 } else { (1u64 << rows) - 1 };
                u64::from((!self.rows[k] & mask).count_ones())
            })
            .sum()
    }
}

thread_local! {
    static ROUGE: std::cell::RefCell<RougeScratch> = std::cell::RefCell::new(RougeScratch::default());
}

fn rouge_pair(hyp: &str, refs: &[&str], _: &mut Scratch) -> u64 {
    ROUGE.with(|cell| {
        let s = &mut *cell.borrow_mut();
        let mut total = 0;
        for r in refs {
            s.n_ids = 0;
            s.short.clear_for(0);
            s.medium.clear_for(0);
            s.long.clear();
            let (mut h, mut t) = (std::mem::take(&mut s.hyp), std::mem::take(&mut s.r));
            s.read(hyp.as_bytes(), &mut h);
            s.read(r.as_bytes(), &mut t);
            total += s.unigram_overlap(&t, &h) + s.bigram_overlap(&t, &h) + s.lcs(&t, &h);
            (s.hyp, s.r) = (h, t);
        }
        total
    })
}

fn edit_pair(hyp: &str, refs: &[&str], s: &mut Scratch) -> u64 {
    let mut h = Vec::new();
    tokens(hyp, &mut h);
    let mut t = Vec::new();
    tokens(refs.first().copied().unwrap_or(""), &mut t);
    levenshtein(&t, &h, s)
}

fn edit_chars_pair(hyp: &str, refs: &[&str], s: &mut Scratch) -> u64 {
    let h: Vec<u64> = hyp.bytes().map(u64::from).collect();
    let t: Vec<u64> = refs.first().copied().unwrap_or("").bytes().map(u64::from).collect();
    levenshtein(&t, &h, s)
}

/// chrF's least work: the non-whitespace bytes (ASCII data) of the pair numbered densely
/// (1..=D, shared by the hypothesis and its references), each n-gram packed at
/// `bit_length(D)` bits a character into one rolling `u64` (exact: ids are nonzero and
/// `bits × order ≤ 64` on this data; all orders in one pass), keys below 2^12 counted in a
/// direct array and the rest in an open-addressing table, both stamped per pair (never
/// cleared), and each reference's n-grams taking from the hypothesis's counts
/// (`Σ min(hyp, ref)` without a reference table). No allocation per pair.
#[derive(Default)]
struct StampedTable {
    slots: Vec<(u64, u32, u32)>,
    direct: Vec<(u32, u32)>,
    stamp: u32,
    shift: u32,
    ids: Vec<(u32, u8)>,
    next_id: u8,
    hyp: Vec<u8>,
    refs: Vec<u8>,
    ref_ends: Vec<usize>,
    taken: Vec<u32>,
}

const DIRECT_KEYS: u64 = 1 << 12;

impl StampedTable {
    fn begin(&mut self, keys: usize) {
        let want = (keys.max(16) * 8).next_power_of_two();
        if want > self.slots.len() {
            self.slots = vec![(0, 0, 0); want];
            self.shift = 64 - want.trailing_zeros();
        }
        if self.direct.is_empty() {
            self.direct = vec![(0, 0); DIRECT_KEYS as usize];
            self.ids = vec![(0, 0); 256];
        }
        self.stamp += 1;
        self.next_id = 0;
    }

    fn id(&mut self, byte: u8) -> u8 {
        let e = &mut self.ids[byte as usize];
        if e.0 != self.stamp {
            self.next_id += 1;
            *e = (self.stamp, self.next_id);
        }
        e.1
    }

    fn squeeze_into(&mut self, text: &str, hyp: bool) {
        for b in text.bytes() {
            if !b.is_ascii_whitespace() {
                let id = self.id(b);
                if hyp { self.hyp.push(id) } else { self.refs.push(id) }
            }
        }
    }

    fn slot(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        while self.slots[i].1 == self.stamp && self.slots[i].0 != key {
            i = (i + 1) & mask;
        }
        i
    }
}

fn packed_grams(chars: &[u8], order: usize, bits: u32, mut f: impl FnMut(u64)) {
    let mut w = 0u64;
    for (p, &c) in chars.iter().enumerate() {
        w = (w << bits) | u64::from(c);
        for n in 1..=order.min(p + 1) {
            let width = bits as usize * n;
            f(if width >= 64 { w } else { w & ((1u64 << width) - 1) });
        }
    }
}

thread_local! {
    static CHAR_TABLE: std::cell::RefCell<StampedTable> = std::cell::RefCell::new(StampedTable::default());
}

fn chars_pair(hyp: &str, refs: &[&str], s: &mut Scratch) -> u64 {
    let order = s.orders.min(8);
    CHAR_TABLE.with(|t| {
        let t = &mut *t.borrow_mut();
        let (mut h, mut rs, mut ends, mut taken) = (
            std::mem::take(&mut t.hyp),
            std::mem::take(&mut t.refs),
            std::mem::take(&mut t.ref_ends),
            std::mem::take(&mut t.taken),
        );
        h.clear();
        rs.clear();
        ends.clear();
        t.begin(hyp.len() * order);
        (t.hyp, t.refs) = (h, rs);
        t.squeeze_into(hyp, true);
        for r in refs {
            t.squeeze_into(r, false);
            ends.push(t.refs.len());
        }
        (h, rs) = (std::mem::take(&mut t.hyp), std::mem::take(&mut t.refs));
        let bits = 32 - u32::from(t.next_id).leading_zeros();
        let stamp = t.stamp;
        packed_grams(&h, order, bits, |key| {
            if key < DIRECT_KEYS {
                let e = &mut t.direct[key as usize];
                *e = (stamp, if e.0 == stamp { e.1 + 1 } else { 1 });
            } else {
                let i = t.slot(key);
                let e = &mut t.slots[i];
                *e = (key, stamp, if e.1 == stamp { e.2 + 1 } else { 1 });
            }
        });
        let mut matched = 0u64;
        let mut start = 0;
        for &end in &ends {
            taken.clear();
            packed_grams(&rs[start..end], order, bits, |key| {
                if key < DIRECT_KEYS {
                    let e = &mut t.direct[key as usize];
                    if e.0 == stamp && e.1 > 0 {
                        e.1 -= 1;
                        taken.push(key as u32 | 1 << 31);
                        matched += 1;
                    }
                } else {
                    let i = t.slot(key);
                    if t.slots[i].1 == stamp && t.slots[i].2 > 0 {
                        t.slots[i].2 -= 1;
                        taken.push(i as u32);
                        matched += 1;
                    }
                }
            });
            for &i in &taken {
                if i >> 31 == 1 {
                    t.direct[(i & !(1 << 31)) as usize].1 += 1;
                } else {
                    t.slots[i as usize].2 += 1;
                }
            }
            start = end;
        }
        (t.hyp, t.refs, t.ref_ends, t.taken) = (h, rs, ends, taken);
        matched
    })
}

fn distinct(lines: &[String]) -> u64 {
    let total: usize = lines.iter().map(|l| l.len() / 4).sum();
    let mut seen: FxSet<u64> = FxSet::default();
    seen.reserve(total / 2);
    let (mut toks, mut grams) = (Vec::new(), Vec::new());
    for l in lines {
        tokens(l, &mut toks);
        gram_hashes(&toks, 2, &mut grams);
        seen.extend(grams.iter().copied());
    }
    seen.len() as u64
}

/// NIST's least work: one corpus-wide count of every reference n-gram (orders 1..=5, by
/// 64-bit hash, in a table sized up front), then the per-pair clipping of `ngram:5`.
fn nist(lines: &[String]) -> u64 {
    let words: usize = lines.iter().map(|l| l.len() / 5).sum();
    let mut table: FxMap<u64, u32> = FxMap::default();
    table.reserve(words * 5 / 2);
    let (mut toks, mut grams) = (Vec::new(), Vec::new());
    for l in lines {
        for r in l.split('\t').skip(1) {
            tokens(r, &mut toks);
            for n in 1..=5 {
                gram_hashes(&toks, n, &mut grams);
                for &g in &grams {
                    *table.entry(g).or_insert(0) += 1;
                }
            }
        }
    }
    ORDERS.store(5, std::sync::atomic::Ordering::Relaxed);
    table.len() as u64 + per_pair(lines, 1, ngram_pair)
}

fn descending_key(x: f64) -> u64 {
    let x = if x == 0.0 { 0.0 } else { x };
    let bits = x.to_bits();
    !(if bits >> 63 == 1 { !bits } else { bits | (1 << 63) })
}

/// The keys sorted: a scatter by the top 16 bits, then each bucket by an LSD radix
/// sort on its low 48 bits (one byte a pass, skipping bytes all its keys share).
fn radix_order(scores: &[f64]) -> Vec<u64> {
    let keys: Vec<u64> = scores.iter().map(|&s| descending_key(s)).collect();
    let mut start = vec![0usize; (1 << 16) + 1];
    for &k in &keys {
        start[(k >> 48) as usize + 1] += 1;
    }
    for b in 0..1 << 16 {
        start[b + 1] += start[b];
    }
    let mut out = vec![0u64; keys.len()];
    let mut next = start.clone();
    for &k in &keys {
        let b = (k >> 48) as usize;
        out[next[b]] = k;
        next[b] += 1;
    }
    let mut scratch = Vec::new();
    for b in 0..1 << 16 {
        let s = &mut out[start[b]..start[b + 1]];
        if s.len() <= 256 {
            s.sort_unstable();
            continue;
        }
        let mut counts = [[0usize; 256]; 6];
        for &k in s.iter() {
            for (d, c) in counts.iter_mut().enumerate() {
                c[((k >> (8 * d)) & 0xff) as usize] += 1;
            }
        }
        scratch.clear();
        scratch.resize(s.len(), 0);
        let mut in_s = true;
        for (d, c) in counts.iter_mut().enumerate() {
            if c.iter().any(|&x| x == s.len()) {
                continue;
            }
            let mut sum = 0;
            for x in c.iter_mut() {
                let v = *x;
                *x = sum;
                sum += v;
            }
            let (src, dst): (&[u64], &mut [u64]) = if in_s { (&*s, &mut scratch[..]) } else { (&scratch[..], &mut *s) };
            for &k in src {
                let i = ((k >> (8 * d)) & 0xff) as usize;
                dst[c[i]] = k;
                c[i] += 1;
            }
            in_s = !in_s;
        }
        if !in_s {
            s.copy_from_slice(&scratch);
        }
    }
    out
}

/// CPU time of the calling thread (Linux `/proc/thread-self/schedstat`), 0 elsewhere.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: nlgmetrics-floor ngram[:N]|ngram-first[:N]|lcs|rouge|chars[:N]|edit|edit-chars|distinct|nist|sort|read|qa FILE THREADS REPEAT");
        std::process::exit(2);
    }
    let (task, path) = match args[1].split_once(':') {
        Some((t, n)) => {
            ORDERS.store(n.parse().expect("ngram:N"), std::sync::atomic::Ordering::Relaxed);
            (t, &args[2])
        }
        None => (args[1].as_str(), &args[2]),
    };
    let threads: usize = args[3].parse().expect("THREADS");
    let repeat: usize = args[4].parse().expect("REPEAT");
    let bytes = std::fs::read(path).expect("FILE");
    let lines: Vec<String> = if matches!(task, "sort" | "read") {
        Vec::new()
    } else {
        String::from_utf8(bytes.clone()).expect("UTF-8").lines().map(str::to_string).collect()
    };
    let scores: Vec<f64> = if task == "sort" {
        bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).collect()
    } else {
        Vec::new()
    };
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    let mut answer = 0u64;
    for _ in 0..repeat {
        let c = thread_cpu_ns();
        let t = Instant::now();
        answer = match task {
            "ngram" => per_pair(&lines, threads, ngram_pair),
            "ngram-first" => per_pair(&lines, threads, ngram_first_pair),
            "lcs" => per_pair(&lines, threads, lcs_pair),
            "rouge" => per_pair(&lines, threads, rouge_pair),
            "chars" => per_pair(&lines, threads, chars_pair),
            "edit" => per_pair(&lines, threads, edit_pair),
            "edit-chars" => per_pair(&lines, threads, edit_chars_pair),
            "qa" => per_pair(&lines, threads, qa_pair),
            "distinct" => distinct(&lines),
            "nist" => nist(&lines),
            "sort" => {
                let keys = radix_order(&scores);
                keys.len().min(1) as u64 + keys.windows(2).filter(|w| w[0] != w[1]).count() as u64
            }
            "read" => std::fs::read(path).expect("FILE").len() as u64,
            _ => {
                eprintln!("unknown task {task}");
                std::process::exit(2);
            }
        };
        times.push(t.elapsed().as_secs_f64());
        cpu.push((thread_cpu_ns() - c) as f64 * 1e-9);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
        v[v.len() / 2]
    };
    // cpu_seconds: the main thread's CPU time (meaningful with THREADS = 1; a loaded
    // machine inflates wall time, not CPU time)
    println!(
        "{{\"task\": \"{task}\", \"threads\": {threads}, \"seconds\": {}, \"cpu_seconds\": {}, \"answer\": {answer}}}",
        median(&mut times),
        median(&mut cpu)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_lev(a: &[u64], b: &[u64]) -> u64 {
        let mut prev: Vec<u64> = (0..=b.len() as u64).collect();
        for (i, x) in a.iter().enumerate() {
            let mut cur = vec![i as u64 + 1];
            for (j, y) in b.iter().enumerate() {
                cur.push((prev[j] + u64::from(x != y)).min(prev[j + 1] + 1).min(cur[j] + 1));
            }
            prev = cur;
        }
        prev[b.len()]
    }

    fn naive_lcs(a: &[u64], b: &[u64]) -> u64 {
        let mut prev = vec![0u64; b.len() + 1];
        for x in a {
            let mut cur = vec![0u64];
            for (j, y) in b.iter().enumerate() {
                cur.push(if x == y { prev[j] + 1 } else { prev[j + 1].max(cur[j]) });
            }
            prev = cur;
        }
        prev[b.len()]
    }

    #[test]
    fn rouge_task_counts_like_rouge_score() {
        let mut s = Scratch::default();
        // unigrams the x2, cat, on, mat; bigrams the-cat, on-the, the-mat; LCS 5
        assert_eq!(rouge_pair("The cat, sat on THE mat.", &["the cat is on the mat"], &mut s), 5 + 3 + 5);
        // past one LCS word and a 64-byte mask, keys of 8/9/16/17 bytes
        let words = ["a", "bb", "abcdefgh", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnopq"];
        let mut state = 5u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 6) as usize
        };
        let h: Vec<&str> = (0..150).map(|_| words[next()]).collect();
        let r: Vec<&str> = (0..90).map(|_| words[next()]).collect();
        let ids = |t: &[&str]| t.iter().map(|w| words.iter().position(|x| x == w).unwrap() as u64).collect::<Vec<_>>();
        let (hi, ri) = (ids(&h), ids(&r));
        let clipped = |a: Vec<Vec<u64>>, b: Vec<Vec<u64>>| {
            let mut left = b;
            a.iter().filter(|g| left.iter().position(|x| x == *g).map(|i| left.remove(i)).is_some()).count() as u64
        };
        let grams = |t: &[u64], n: usize| t.windows(n).map(|w| w.to_vec()).collect::<Vec<_>>();
        let want = clipped(grams(&hi, 1), grams(&ri, 1)) + clipped(grams(&hi, 2), grams(&ri, 2)) + naive_lcs(&ri, &hi);
        assert_eq!(rouge_pair(&h.join(" "), &[&r.join(" - ")], &mut s), want);
    }

    #[test]
    fn bit_parallel_passes_equal_the_tables() {
        let mut state = 99u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut s = Scratch::default();
        for _ in 0..300 {
            let (la, lb) = ((next() % 150) as usize, (next() % 150) as usize);
            let a: Vec<u64> = (0..la).map(|_| next() % 5).collect();
            let b: Vec<u64> = (0..lb).map(|_| next() % 5).collect();
            assert_eq!(levenshtein(&a, &b, &mut s), naive_lev(&a, &b));
            assert_eq!(lcs(&a, &b, &mut s), naive_lcs(&a, &b));
        }
    }
}
