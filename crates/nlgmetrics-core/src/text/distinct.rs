//! Distinct-n (Li, Galley, Brockett, Gao, Dolan, NAACL 2016): how many different n-grams
//! a set of generated responses uses.
//!
//! Per response (u64): `[tokens, ngrams, unique]` where `ngrams = max(0, tokens - n + 1)`
//! and `unique` counts the distinct n-grams of that response alone. The corpus needs the
//! union of the n-gram sets of all responses, which does not add up row by row: it is
//! kept either exactly ([`ngram_table`], keys that merge by set union) or as a
//! HyperLogLog sketch ([`hll_registers`], registers that merge by maximum).

use crate::error::{Error, Result};
use crate::ngram::Interner;
use crate::parallel::{map_rows, run};
use crate::pystr::{py_lower, py_rstrip};
use crate::tokenize::Tokenizer;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

pub const MAX_N: usize = 64;

#[derive(Debug, Clone, Copy)]
pub struct DistinctConfig {
    pub tokenizer: Tokenizer,
    pub lowercase: bool,
    pub n: usize,
}

impl DistinctConfig {
    pub fn validate(&self) -> Result<()> {
        if self.n == 0 || self.n > MAX_N {
            return Err(Error::InvalidOption(format!("n must be between 1 and {MAX_N}, got {}", self.n)));
        }
        Ok(())
    }

    /// Lowercase (Python `str.lower`), strip the right end, tokenize; tokens joined by ' '.
    pub fn tokenize(&self, text: &str) -> String {
        if self.lowercase {
            self.tokenizer.tokenize(py_rstrip(&py_lower(text)))
        } else {
            self.tokenizer.tokenize(py_rstrip(text))
        }
    }
}

/// Every text tokenized (in parallel; order kept).
pub fn tokenize_all<S: AsRef<str> + Sync>(texts: &[S], cfg: &DistinctConfig, n_threads: usize) -> Vec<String> {
    let watch = crate::interrupt::Watch::current();
    run(n_threads, || texts.par_iter().map(watch.each(|t: &S| cfg.tokenize(t.as_ref()))).collect())
}

fn split(tokenized: &str) -> impl Iterator<Item = &str> {
    tokenized.split(' ').filter(|t| !t.is_empty())
}

/// Per-response statistics `[tokens, ngrams, unique]`, row-major.
pub fn segment_stats<S: AsRef<str> + Sync>(texts: &[S], cfg: &DistinctConfig, n_threads: usize) -> Result<Vec<u64>> {
    cfg.validate()?;
    let n = cfg.n;
    map_rows(texts.len(), 3, n_threads, || (), |_, i, row| {
        let tok = cfg.tokenize(texts[i].as_ref());
        let toks: Vec<&str> = split(&tok).collect();
        let mut seen: FxHashSet<&[&str]> = FxHashSet::default();
        for w in toks.windows(n) {
            seen.insert(w);
        }
        row[0] = toks.len() as u64;
        row[1] = toks.len().saturating_sub(n - 1) as u64;
        row[2] = seen.len() as u64;
        Ok::<(), Error>(())
    })
}

/// Number of distinct n-grams over all texts (exact).
pub fn corpus_unique<S: AsRef<str> + Sync>(texts: &[S], cfg: &DistinctConfig, n_threads: usize) -> Result<u64> {
    cfg.validate()?;
    let toks = tokenize_all(texts, cfg, n_threads);
    let mut it = Interner::new();
    let ids: Vec<Vec<u32>> = toks.iter().map(|t| it.ids_of(t)).collect();
    let mut seen: FxHashSet<&[u32]> = FxHashSet::default();
    for s in &ids {
        for w in s.windows(cfg.n) {
            seen.insert(w);
        }
    }
    Ok(seen.len() as u64)
}

/// Per-response rows `[tokens, ngrams, unique]` (as [`segment_stats`]) and the number of
/// distinct n-grams over all texts (as [`corpus_unique`]) in one pass. Tokens are
/// interned once; every distinct n-gram gets a number on first sight (n ≤ 2: the ids
/// packed into one u64 key; longer: the id slice), and a response's own distinct count
/// comes from remembering the last response that used each number, so no per-response
/// set is built and nothing is sorted.
pub fn stats_and_unique<S: AsRef<str> + Sync>(texts: &[S], cfg: &DistinctConfig, n_threads: usize) -> Result<(Vec<u64>, u64)> {
    cfg.validate()?;
    let n = cfg.n;
    if n <= 2 && cfg.tokenizer == Tokenizer::None && !cfg.lowercase {
        return Ok(plain_stats_and_unique(texts, n, n_threads));
    }
    let toks = tokenize_all(texts, cfg, n_threads);
    let mut vocab: FxHashMap<&str, u32> = FxHashMap::default();
    let mut ids: Vec<u32> = Vec::new();
    let mut ends: Vec<usize> = Vec::with_capacity(toks.len());
    for t in &toks {
        for w in split(t) {
            let next = vocab.len() as u32;
            ids.push(*vocab.entry(w).or_insert(next));
        }
        ends.push(ids.len());
    }
    let total_ngrams: usize = (0..ends.len())
        .map(|i| (ends[i] - if i == 0 { 0 } else { ends[i - 1] }).saturating_sub(n - 1))
        .sum();
    let mut rows = vec![0u64; 3 * toks.len()];
    // 1 + the last response that used each n-gram number
    let mut last_use: Vec<u32> = Vec::with_capacity(total_ngrams / 2);
    let mut number = |fresh: bool, g: u32, row: u32, unique: &mut u64| {
        if fresh {
            last_use.push(row);
            *unique += 1;
        } else if last_use[g as usize] != row {
            last_use[g as usize] = row;
            *unique += 1;
        }
    };
    let mut start = 0usize;
    if n <= 2 {
        let mut seen: FxHashMap<u64, u32> = FxHashMap::default();
        seen.reserve(total_ngrams / 2);
        for (i, &end) in ends.iter().enumerate() {
            let s = &ids[start..end];
            let mut unique = 0u64;
            for w in s.windows(n) {
                let key = if n == 1 { u64::from(w[0]) } else { (u64::from(w[0]) << 32) | u64::from(w[1]) };
                let next = seen.len() as u32;
                let g = *seen.entry(key).or_insert(next);
                number(g == next, g, i as u32 + 1, &mut unique);
            }
            rows[3 * i..3 * i + 3].copy_from_slice(&[s.len() as u64, s.len().saturating_sub(n - 1) as u64, unique]);
            start = end;
        }
        return Ok((rows, seen.len() as u64));
    }
    let mut seen: FxHashMap<&[u32], u32> = FxHashMap::default();
    seen.reserve(total_ngrams / 2);
    for (i, &end) in ends.iter().enumerate() {
        let s = &ids[start..end];
        let mut unique = 0u64;
        for w in s.windows(n) {
            let next = seen.len() as u32;
            let g = *seen.entry(w).or_insert(next);
            number(g == next, g, i as u32 + 1, &mut unique);
        }
        rows[3 * i..3 * i + 3].copy_from_slice(&[s.len() as u64, s.len().saturating_sub(n - 1) as u64, unique]);
        start = end;
    }
    Ok((rows, seen.len() as u64))
}

/// Texts per piece of [`plain_stats_and_unique`] (a fixed size: results never depend on
/// the number of threads).
const PIECE: usize = 8192;

/// One piece of texts read in place: its own vocabulary and token ids.
struct Piece<'a> {
    words: Vec<&'a str>,
    ids: Vec<u32>,
    ends: Vec<usize>,
}

/// [`stats_and_unique`] for unigrams and bigrams of `str.split()` tokens, in parallel:
/// pieces of texts are split in place (no tokenized copy) and interned into their own
/// vocabularies; the vocabularies merge into one (each piece's distinct words, in piece
/// order); each n-gram becomes one u64 (the global ids packed), each response's distinct
/// count comes from sorting its few keys, and the corpus union is counted in hash
/// shards, one set per thread (each set sees only its shard's keys, so the sizes add).
fn plain_stats_and_unique<S: AsRef<str> + Sync>(texts: &[S], n: usize, n_threads: usize) -> (Vec<u64>, u64) {
    let watch = crate::interrupt::Watch::current();
    let pieces: Vec<Piece<'_>> = run(n_threads, || {
        texts
            .par_chunks(PIECE)
            .map(watch.each(|chunk: &[S]| {
                let mut vocab: FxHashMap<&str, u32> = FxHashMap::default();
                let mut p = Piece { words: Vec::new(), ids: Vec::new(), ends: Vec::with_capacity(chunk.len()) };
                for t in chunk {
                    for w in crate::pystr::py_tokens(t.as_ref()) {
                        let next = p.words.len() as u32;
                        let id = *vocab.entry(w).or_insert(next);
                        if id == next {
                            p.words.push(w);
                        }
                        p.ids.push(id);
                    }
                    p.ends.push(p.ids.len());
                }
                p
            }))
            .collect()
    });
    let mut vocab: FxHashMap<&str, u32> = FxHashMap::default();
    let remaps: Vec<Vec<u32>> = pieces
        .iter()
        .map(|p| {
            p.words
                .iter()
                .map(|&w| {
                    let next = vocab.len() as u32;
                    *vocab.entry(w).or_insert(next)
                })
                .collect()
        })
        .collect();
    drop(vocab);
    // per piece: rows and the n-gram keys
    let done: Vec<(Vec<u64>, Vec<u64>)> = run(n_threads, || {
        pieces
            .par_iter()
            .zip(remaps.par_iter())
            .map(watch.each(|(p, remap): (&Piece<'_>, &Vec<u32>)| {
                let mut rows = Vec::with_capacity(3 * p.ends.len());
                let mut keys: Vec<u64> = Vec::with_capacity(p.ids.len());
                let mut own: Vec<u64> = Vec::new();
                let mut start = 0;
                for &end in &p.ends {
                    let s = &p.ids[start..end];
                    own.clear();
                    own.extend(s.windows(n).map(|w| {
                        let a = u64::from(remap[w[0] as usize]);
                        if n == 1 {
                            a
                        } else {
                            (a << 32) | u64::from(remap[w[1] as usize])
                        }
                    }));
                    keys.extend_from_slice(&own);
                    own.sort_unstable();
                    own.dedup();
                    rows.extend_from_slice(&[s.len() as u64, s.len().saturating_sub(n - 1) as u64, own.len() as u64]);
                    start = end;
                }
                (rows, keys)
            }))
            .collect()
    });
    let shards = crate::parallel::effective_threads(n_threads).max(1) as u64;
    let total: usize = done.iter().map(|d| d.1.len()).sum();
    // a fixed mix of the key (its top bits pick the shard)
    let shard_of = |k: u64| ((k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) % shards) as usize;
    let unique: u64 = run(n_threads, || {
        (0..shards as usize)
            .into_par_iter()
            .map(watch.each(|sh: usize| {
                let mut seen: FxHashSet<u64> = FxHashSet::default();
                seen.reserve(total / shards as usize / 2);
                for (_, keys) in &done {
                    for &k in keys {
                        if shards == 1 || shard_of(k) == sh {
                            seen.insert(k);
                        }
                    }
                }
                seen.len() as u64
            }))
            .sum()
    });
    let mut rows = Vec::with_capacity(3 * texts.len());
    for (r, _) in done {
        rows.extend(r);
    }
    (rows, unique)
}

/// An injective key for an n-gram: tokens joined by U+001F, with U+001E escaping any
/// U+001E/U+001F inside a token (tokenizers never leave them, but keys stay exact).
pub fn ngram_key(gram: &[&str]) -> String {
    let mut key = String::with_capacity(gram.iter().map(|t| t.len() + 1).sum());
    for (j, t) in gram.iter().enumerate() {
        if j > 0 {
            key.push('\u{1f}');
        }
        if t.contains(['\u{1e}', '\u{1f}']) {
            for c in t.chars() {
                if c == '\u{1e}' || c == '\u{1f}' {
                    key.push('\u{1e}');
                }
                key.push(c);
            }
        } else {
            key.push_str(t);
        }
    }
    key
}

/// Occurrence counts of every n-gram of the texts, by [`ngram_key`]. Tables of two
/// shards merge by key-wise addition; the distinct count is the number of keys.
pub fn ngram_table<S: AsRef<str> + Sync>(
    texts: &[S],
    cfg: &DistinctConfig,
    n_threads: usize,
) -> Result<FxHashMap<String, u64>> {
    cfg.validate()?;
    let toks = tokenize_all(texts, cfg, n_threads);
    let mut table: FxHashMap<String, u64> = FxHashMap::default();
    let mut counts: FxHashMap<Vec<&str>, u64> = FxHashMap::default();
    for t in &toks {
        let v: Vec<&str> = split(t).collect();
        for w in v.windows(cfg.n) {
            *counts.entry(w.to_vec()).or_insert(0) += 1;
        }
    }
    table.reserve(counts.len());
    for (g, c) in counts {
        table.insert(ngram_key(&g), c);
    }
    Ok(table)
}

/// The exact union as one compact value: the sorted distinct [`ngram_key`]s joined by
/// `\n` (keys never contain it: tokens hold no whitespace), and their number. Two such
/// lists merge with [`key_list_union`]; no per-n-gram object ever reaches Python.
pub fn key_list<S: AsRef<str> + Sync>(texts: &[S], cfg: &DistinctConfig, n_threads: usize) -> Result<(Vec<u8>, u64)> {
    cfg.validate()?;
    let toks = tokenize_all(texts, cfg, n_threads);
    let split: Vec<Vec<&str>> = toks.iter().map(|t| split(t).collect()).collect();
    let mut seen: FxHashSet<&[&str]> = FxHashSet::default();
    for s in &split {
        for w in s.windows(cfg.n) {
            seen.insert(w);
        }
    }
    let mut keys: Vec<String> = seen.into_iter().map(ngram_key).collect();
    keys.sort_unstable();
    Ok((keys.join("\n").into_bytes(), keys.len() as u64))
}

fn lines(blob: &[u8]) -> impl Iterator<Item = &[u8]> {
    blob.split(|&b| b == b'\n').filter(|l| !l.is_empty())
}

/// Merge two sorted key lists of [`key_list`] into their sorted union.
pub fn key_list_union(a: &[u8], b: &[u8]) -> (Vec<u8>, u64) {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let mut n = 0u64;
    let (mut x, mut y) = (lines(a).peekable(), lines(b).peekable());
    loop {
        let next = match (x.peek(), y.peek()) {
            (None, None) => break,
            (Some(_), None) => x.next(),
            (None, Some(_)) => y.next(),
            (Some(p), Some(q)) => match p.cmp(q) {
                std::cmp::Ordering::Less => x.next(),
                std::cmp::Ordering::Greater => y.next(),
                std::cmp::Ordering::Equal => {
                    y.next();
                    x.next()
                }
            },
        };
        if let Some(k) = next {
            if n > 0 {
                out.push(b'\n');
            }
            out.extend_from_slice(k);
            n += 1;
        }
    }
    (out, n)
}

// ---------------------------------------------------------------------------------------
// HyperLogLog (Flajolet, Fusy, Gandouet, Meunier 2007)

pub const HLL_MIN_P: u32 = 4;
pub const HLL_MAX_P: u32 = 18;

/// MurmurHash3's 64-bit finaliser: a fixed bijection with full avalanche.
fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// A fixed 64-bit hash of a token (FNV-1a, then finalised). Fixed across versions and
/// platforms, so sketches built in different processes merge.
fn token_hash(t: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in t.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    fmix64(h)
}

/// Hash of an n-gram from its token hashes (order-sensitive).
fn gram_hash(hashes: &[u64]) -> u64 {
    let mut h = hashes.len() as u64;
    for &t in hashes {
        h = fmix64(h.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ t);
    }
    h
}

fn check_precision(p: u32) -> Result<()> {
    if !(HLL_MIN_P..=HLL_MAX_P).contains(&p) {
        return Err(Error::InvalidOption(format!(
            "HyperLogLog precision must be between {HLL_MIN_P} and {HLL_MAX_P}, got {p}"
        )));
    }
    Ok(())
}

/// The `2**p` HyperLogLog registers of the texts' n-grams (rank = leading zeros + 1 of
/// the bits after the register index). Sketches merge by element-wise maximum.
pub fn hll_registers<S: AsRef<str> + Sync>(texts: &[S], cfg: &DistinctConfig, p: u32, n_threads: usize) -> Result<Vec<u8>> {
    cfg.validate()?;
    check_precision(p)?;
    let m = 1usize << p;
    let toks = tokenize_all(texts, cfg, n_threads);
    let watch = crate::interrupt::Watch::current();
    let merge = |mut a: Vec<u8>, b: Vec<u8>| {
        for (x, y) in a.iter_mut().zip(b) {
            *x = (*x).max(y);
        }
        a
    };
    let regs = run(n_threads, || {
        toks.par_chunks(1024)
            .map(watch.each(|chunk: &[String]| {
                let mut regs = vec![0u8; m];
                let mut hs: Vec<u64> = Vec::new();
                for t in chunk {
                    hs.clear();
                    hs.extend(split(t).map(token_hash));
                    for w in hs.windows(cfg.n) {
                        let h = gram_hash(w);
                        let idx = (h >> (64 - p)) as usize;
                        let rank = ((h << p).leading_zeros() + 1).min(64 - p + 1) as u8;
                        regs[idx] = regs[idx].max(rank);
                    }
                }
                regs
            }))
            .reduce(|| vec![0u8; m], merge)
    });
    Ok(regs)
}

/// The HyperLogLog cardinality estimate with linear counting for small cardinalities;
/// relative standard error about `1.04 / sqrt(2**p)`.
pub fn hll_estimate(regs: &[u8]) -> Result<f64> {
    let m = regs.len();
    if !m.is_power_of_two() || !(1 << HLL_MIN_P..=1 << HLL_MAX_P).contains(&m) {
        return Err(Error::InvalidInput(format!("a HyperLogLog sketch has 2**p registers (p in 4..18), got {m}")));
    }
    let mf = m as f64;
    let alpha = match m {
        16 => 0.673,
        32 => 0.697,
        64 => 0.709,
        _ => 0.7213 / (1.0 + 1.079 / mf),
    };
    let mut sum = 0.0;
    let mut zeros = 0usize;
    for &r in regs {
        sum += f64::from_bits(((1023 - i64::from(r)) as u64) << 52);
        zeros += usize::from(r == 0);
    }
    let raw = alpha * mf * mf / sum;
    if raw <= 2.5 * mf && zeros > 0 {
        return Ok(mf * (mf / zeros as f64).ln());
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(n: usize) -> DistinctConfig {
        DistinctConfig { tokenizer: Tokenizer::None, lowercase: false, n }
    }

    #[test]
    fn worked_example_of_the_specification() {
        let hyps = ["i do not know", "i do not know", "i like cats a lot"];
        let rows = segment_stats(&hyps, &cfg(2), 1).unwrap();
        assert_eq!(rows, vec![4, 3, 3, 4, 3, 3, 5, 4, 4]);
        assert_eq!(corpus_unique(&hyps, &cfg(2), 1).unwrap(), 7);
        assert_eq!(corpus_unique(&hyps, &cfg(1), 1).unwrap(), 8);
        let t = ngram_table(&hyps, &cfg(2), 1).unwrap();
        assert_eq!(t.len(), 7);
        assert_eq!(t["i\u{1f}do"], 2);
    }

    #[test]
    fn one_pass_equals_rows_and_union() {
        let mut state = 7u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let texts: Vec<String> = (0..3000)
            .map(|_| (0..next() % 12).map(|_| format!("w{}", next() % 40)).collect::<Vec<_>>().join(" "))
            .collect();
        for n in [1, 2, 3, 5] {
            let (rows, unique) = stats_and_unique(&texts, &cfg(n), 1).unwrap();
            assert_eq!(rows, segment_stats(&texts, &cfg(n), 1).unwrap());
            assert_eq!(unique, corpus_unique(&texts, &cfg(n), 1).unwrap());
            assert_eq!(unique, key_list(&texts, &cfg(n), 1).unwrap().1);
        }
        assert_eq!(stats_and_unique(&["", "a"], &cfg(2), 1).unwrap(), (vec![0, 0, 0, 1, 0, 0], 0));
        // the in-place path (n <= 2, whitespace tokens) across pieces and threads, with
        // Python's whitespace (\x1c, U+3000) and tokens repeated across pieces
        let texts: Vec<String> = (0..20_000)
            .map(|i| {
                let sep = ["  ", "\x1c", "\u{3000}", "\t"][i % 4];
                (0..next() % 14).map(|_| format!("w{}", next() % 300)).collect::<Vec<_>>().join(sep)
            })
            .collect();
        for n in [1, 2] {
            let want = (segment_stats(&texts, &cfg(n), 1).unwrap(), corpus_unique(&texts, &cfg(n), 1).unwrap());
            for threads in [1, 2, 3] {
                assert_eq!(stats_and_unique(&texts, &cfg(n), threads).unwrap(), want);
            }
        }
    }

    #[test]
    fn keys_are_injective() {
        assert_ne!(ngram_key(&["a\u{1f}b", "c"]), ngram_key(&["a", "b\u{1f}c"]));
        assert_ne!(ngram_key(&["a\u{1e}", "c"]), ngram_key(&["a", "\u{1e}c"]));
    }

    #[test]
    fn short_and_empty_responses() {
        let rows = segment_stats(&["", "a", "a b"], &cfg(3), 1).unwrap();
        assert_eq!(rows, vec![0, 0, 0, 1, 0, 0, 2, 0, 0]);
    }

    #[test]
    fn hll_is_close_and_threads_do_not_matter() {
        let texts: Vec<String> = (0..20000).map(|i| format!("w{} w{} w{}", i, i * 7 % 1000, i % 13)).collect();
        let exact = corpus_unique(&texts, &cfg(2), 1).unwrap() as f64;
        let a = hll_registers(&texts, &cfg(2), 14, 1).unwrap();
        let b = hll_registers(&texts, &cfg(2), 14, 2).unwrap();
        assert_eq!(a, b);
        let est = hll_estimate(&a).unwrap();
        assert!((est - exact).abs() / exact < 0.03, "{est} vs {exact}");
        assert!(hll_registers(&texts, &cfg(2), 3, 1).is_err());
    }

    #[test]
    fn key_lists_merge_to_the_union() {
        let all = ["a b c", "b c d", "a b", "x"];
        let (whole, n) = key_list(&all, &cfg(2), 1).unwrap();
        let (a, _) = key_list(&all[..2], &cfg(2), 1).unwrap();
        let (b, _) = key_list(&all[2..], &cfg(2), 1).unwrap();
        assert_eq!(key_list_union(&a, &b), (whole.clone(), n));
        assert_eq!(key_list_union(&b, &a), (whole.clone(), n));
        assert_eq!(n, 3);
        assert_eq!(key_list_union(&[], &whole), (whole, 3));
        assert_eq!(key_list_union(&[], &[]), (vec![], 0));
    }
}
