//! Document-frequency tables: words interned to ids, n-grams packed into a u128 of four
//! 32-bit word ids (ids start at 1, so a zero lane ends the n-gram).

use super::{truncate_for_message, IdText, MAX_ORDER};
use crate::error::{Error, Result};
use crate::pystr::py_split;
use rustc_hash::FxHashMap;

pub(super) fn pack(ids: &[u32]) -> u128 {
    ids.iter().enumerate().fold(0u128, |k, (j, &id)| k | (u128::from(id) << (32 * j)))
}

fn unpack(key: u128) -> impl Iterator<Item = usize> {
    (0..MAX_ORDER).map(move |j| ((key >> (32 * j)) & 0xFFFF_FFFF) as usize).take_while(|&id| id != 0)
}

/// Words and their ids, in order of first appearance.
#[derive(Debug, Clone, Default)]
pub(super) struct Vocab {
    ids: FxHashMap<Box<str>, u32>,
    words: Vec<Box<str>>,
}

impl Vocab {
    pub(super) fn intern(&mut self, tok: &str) -> u32 {
        if let Some(&id) = self.ids.get(tok) {
            return id;
        }
        self.words.push(tok.into());
        let id = self.words.len() as u32;
        self.ids.insert(tok.into(), id);
        id
    }

    pub(super) fn get(&self, tok: &str) -> Option<u32> {
        self.ids.get(tok).copied()
    }

    pub(super) fn len(&self) -> usize {
        self.words.len()
    }

    fn word(&self, id: usize) -> &str {
        &self.words[id - 1]
    }
}

/// Counts are split into this many hash maps by a hash of the key, so that a fit counts
/// the shards in parallel and each shard's map stays small enough for the L1/L2 cache.
pub(super) const SHARDS: usize = 256;

/// The shard of a key: a multiplicative hash unrelated to Fx's, so that the keys of one
/// shard still spread over its map's buckets and control bytes.
#[inline]
pub(super) fn shard(key: u128) -> usize {
    let x = (key as u64) ^ ((key >> 64) as u64).rotate_left(23);
    (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SHARDS.trailing_zeros())) as usize
}

pub(super) type Shard = FxHashMap<u128, u64>;

#[derive(Debug, Clone)]
pub(super) struct Counts(pub(super) Vec<Shard>);

impl Default for Counts {
    fn default() -> Self {
        Self((0..SHARDS).map(|_| Shard::default()).collect())
    }
}

impl Counts {
    #[inline]
    pub(super) fn get(&self, key: u128) -> u64 {
        self.0[shard(key)].get(&key).copied().unwrap_or(0)
    }

    fn add(&mut self, key: u128, c: u64) {
        *self.0[shard(key)].entry(key).or_insert(0) += c;
    }

    fn len(&self) -> usize {
        self.0.iter().map(Shard::len).sum()
    }

    fn iter(&self) -> impl Iterator<Item = (u128, u64)> + '_ {
        self.0.iter().flat_map(|m| m.iter().map(|(&k, &c)| (k, c)))
    }
}

/// A document-frequency table: for each n-gram, the number of documents (images) whose
/// references contain it, and the number of documents.
#[derive(Debug, Clone, Default)]
pub struct DocFreq {
    pub(super) vocab: Vocab,
    pub(super) counts: Counts,
    pub(super) n_docs: u64,
    pub(super) max_order: usize,
}

impl DocFreq {
    pub fn new(max_order: usize) -> Self {
        Self { max_order, ..Self::default() }
    }

    pub fn n_docs(&self) -> u64 {
        self.n_docs
    }

    pub fn max_order(&self) -> usize {
        self.max_order
    }

    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Count one document: the set of n-grams over all of its (tokenized) sentences.
    pub fn add_document<S: AsRef<str>>(&mut self, sentences: &[S]) {
        let seqs: Vec<Vec<u32>> =
            sentences.iter().map(|s| py_split(s.as_ref()).map(|t| self.vocab.intern(t)).collect()).collect();
        self.add_document_ids(&seqs);
    }

    fn add_document_ids(&mut self, seqs: &[Vec<u32>]) {
        let mut seen = Vec::new();
        for ids in seqs {
            for n in 1..=self.max_order.min(ids.len()) {
                seen.extend(ids.windows(n).map(pack));
            }
        }
        seen.sort_unstable();
        seen.dedup();
        for k in seen {
            self.counts.add(k, 1);
        }
        self.n_docs += 1;
    }

    /// Count documents given as token-id sequences (see [`IdText`]).
    pub fn add_document_token_ids(&mut self, seqs: &[Vec<i64>], text: &IdText) {
        let mut buf = String::new();
        let ids: Vec<Vec<u32>> = seqs
            .iter()
            .map(|s| text.truncate(s).iter().map(|&x| self.vocab.intern(text.word(x, &mut buf))).collect())
            .collect();
        self.add_document_ids(&ids);
    }

    fn key_text(&self, key: u128) -> String {
        let words: Vec<&str> = unpack(key).map(|id| self.vocab.word(id)).collect();
        words.join(" ")
    }

    /// Every n-gram (tokens joined by a space) and its count, sorted by n-gram.
    pub fn entries(&self) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = self.counts.iter().map(|(k, c)| (self.key_text(k), c)).collect();
        v.sort_unstable();
        v
    }

    pub fn from_entries<S: AsRef<str>>(ngrams: &[S], counts: &[u64], n_docs: u64, max_order: usize) -> Result<Self> {
        if ngrams.len() != counts.len() {
            return Err(Error::LengthMismatch { what: "n-grams and counts".into(), left: ngrams.len(), right: counts.len() });
        }
        if max_order == 0 || max_order > MAX_ORDER {
            return Err(Error::InvalidOption(format!("CIDEr n must be between 1 and {MAX_ORDER}, got {max_order}")));
        }
        let mut df = DocFreq::new(max_order);
        df.n_docs = n_docs;
        for (g, &c) in ngrams.iter().zip(counts) {
            let ids: Vec<u32> = py_split(g.as_ref()).map(|t| df.vocab.intern(t)).collect();
            if ids.is_empty() || ids.len() > max_order {
                return Err(Error::InvalidInput(format!(
                    "document-frequency n-gram {:?} has {} tokens; expected 1..{max_order}",
                    truncate_for_message(g.as_ref()),
                    ids.len()
                )));
            }
            df.counts.add(pack(&ids), c);
        }
        Ok(df)
    }

    /// Key-wise sum of two tables (and of their document counts).
    pub fn merge(&self, other: &DocFreq) -> Result<DocFreq> {
        if self.max_order != other.max_order {
            return Err(Error::InvalidInput(format!(
                "cannot merge document frequencies of n={} and n={}",
                self.max_order, other.max_order
            )));
        }
        let mut out = self.clone();
        let remap: Vec<u32> = other.vocab.words.iter().map(|w| out.vocab.intern(w)).collect();
        for (k, c) in other.counts.iter() {
            let ids: Vec<u32> = unpack(k).map(|id| remap[id - 1]).collect();
            out.counts.add(pack(&ids), c);
        }
        out.n_docs += other.n_docs;
        Ok(out)
    }

    pub fn get(&self, ngram: &str) -> u64 {
        let ids: Option<Vec<u32>> = py_split(ngram).map(|t| self.vocab.get(t)).collect();
        match ids {
            Some(ids) if !ids.is_empty() && ids.len() <= MAX_ORDER => self.counts.get(pack(&ids)),
            _ => 0,
        }
    }
}
