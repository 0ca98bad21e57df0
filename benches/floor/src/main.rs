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
//! - `edit`: one bit-parallel Levenshtein distance (Myers 1999 / Hyyrö 2001) per pair over
//!   the tokens (WER) — `edit-chars` over the bytes (CER, ASCII data).
//! - `chars[:N]`: remove whitespace, hash every character n-gram of orders 1..=N (6) of
//!   the hypothesis and of each reference (bytes: ASCII data), count and clip them (the
//!   core of chrF; chrF++ adds `ngram:2`).
//! - `distinct` (FILE: one text a line): split, hash, insert every bigram's 64-bit hash
//!   into one hash set sized up front; the count is the answer (hash-exact only).
//! - `sort` (FILE: little-endian f64 scores): the stable descending order of the scores by
//!   an LSD radix sort of 64-bit order-preserving keys with their indices (ROC AUC's sort).
//! - `read` (FILE: any): read the file into memory (a compiled table cache's load floor).
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

/// Character n-gram hashes of `chars` (whitespace removed), orders 1..=n.
fn char_gram_hashes(chars: &[u8], n: usize, out: &mut Vec<u64>) {
    out.clear();
    for w in chars.windows(n) {
        let mut h = Fx(n as u64);
        h.write(w);
        out.push(h.0);
    }
}

fn chars_pair(hyp: &str, refs: &[&str], s: &mut Scratch) -> u64 {
    let squeeze = |t: &str| -> Vec<u8> { t.bytes().filter(|b| !b.is_ascii_whitespace()).collect() };
    let h = squeeze(hyp);
    let mut matched = 0u64;
    for r in refs {
        let r = squeeze(r);
        for n in 1..=s.orders {
            s.counts.clear();
            char_gram_hashes(&r, n, &mut s.grams);
            for &g in &s.grams {
                *s.counts.entry(g).or_insert(0) += 1;
            }
            char_gram_hashes(&h, n, &mut s.grams);
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

/// LSD radix sort of (key, index) by key, 16-bit digits, skipping digits all keys share.
fn radix_order(scores: &[f64]) -> Vec<u32> {
    let mut a: Vec<(u64, u32)> = scores.iter().enumerate().map(|(i, &s)| (descending_key(s), i as u32)).collect();
    let mut b = vec![(0u64, 0u32); a.len()];
    for shift in (0..64).step_by(16) {
        let mut count = vec![0usize; 1 << 16];
        for &(k, _) in &a {
            count[((k >> shift) & 0xffff) as usize] += 1;
        }
        if count.iter().any(|&c| c == a.len()) {
            continue;
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            let x = *c;
            *c = sum;
            sum += x;
        }
        for &p in &a {
            let d = ((p.0 >> shift) & 0xffff) as usize;
            b[count[d]] = p;
            count[d] += 1;
        }
        std::mem::swap(&mut a, &mut b);
    }
    a.into_iter().map(|p| p.1).collect()
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
        eprintln!("usage: nlgmetrics-floor ngram[:N]|ngram-first[:N]|lcs|chars[:N]|edit|edit-chars|distinct|nist|sort|read FILE THREADS REPEAT");
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
            "chars" => per_pair(&lines, threads, chars_pair),
            "edit" => per_pair(&lines, threads, edit_pair),
            "edit-chars" => per_pair(&lines, threads, edit_chars_pair),
            "distinct" => distinct(&lines),
            "nist" => nist(&lines),
            "sort" => u64::from(radix_order(&scores).first().copied().unwrap_or(0)),
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
