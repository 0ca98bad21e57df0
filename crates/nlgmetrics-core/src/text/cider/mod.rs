//! CIDEr-D (pycocoevalcap 1.2 `cider_scorer.py`) and the original CIDEr
//! (vrama91/cider `pyciderevalcap/cider`), with the document frequencies either taken
//! from the evaluated references ("corpus" mode) or from a fixed table (self-critical
//! training with a training-set df).
//!
//! For each sentence, n-grams of orders 1..N (raw counts `tf`) get the weight
//! `tf · (ln(n_docs) − ln(max(1, df)))`; `length` is the number of bigrams (as the
//! reference computes it). For each order n and reference r:
//! - CIDEr-D: `Σ_g min(h_g, r_g)·r_g / (‖h‖·‖r‖) · e^(−(len_h − len_r)² / (2σ²))`;
//! - CIDEr:   `Σ_g h_g·r_g / (‖h‖·‖r‖)`;
//!
//! (the division only when both norms are non-zero), summed over references, averaged
//! over orders, divided by the number of references and multiplied by 10. Every sum runs
//! in the reference's order (n-grams by order, then by first occurrence).
//!
//! Layout: `docfreq` (the table, sharded by key hash), `ngrams` (a chunk of images whose
//! distinct n-grams are numbered once, and its scores from per-n-gram weights), `corpus`
//! (the passes over chunks). Results never depend on the number of threads: chunks are
//! fixed runs of images, and counts are exact.

mod corpus;
mod docfreq;
mod ngrams;

pub use docfreq::DocFreq;

use crate::error::{Error, Result};
use crate::parallel::map_range;
use crate::pystr::py_split;
use crate::tokenize::ptb::{tokenize_batch, CaptionTokenizer};
use docfreq::Vocab;
use ngrams::{Chunk, Numbering};
use rustc_hash::FxHashMap;

pub const MAX_ORDER: usize = 4;

/// Images numbered together: enough that their n-grams repeat (each is looked up in the
/// df once per chunk), few enough that the numbering map stays in the L2 cache.
const CHUNK: usize = 128;

/// The threads for `n_images`: one chunk is not worth handing to the thread pool.
fn threads_for(n_images: usize, n_threads: usize) -> usize {
    if n_images <= CHUNK {
        1
    } else {
        n_threads
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// pycocoevalcap `Cider`: clipping and a Gaussian length penalty.
    CiderD,
    /// vrama91 `cider`: plain cosine similarity of tf-idf vectors.
    Cider,
}

impl Flavour {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "cider-d" => Ok(Self::CiderD),
            "cider" => Ok(Self::Cider),
            _ => Err(Error::InvalidOption(format!("unknown CIDEr flavour {name:?}; known: cider-d, cider"))),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct CiderConfig {
    pub flavour: Flavour,
    pub max_order: usize,
    pub sigma: f64,
}

impl CiderConfig {
    pub fn validate(&self) -> Result<()> {
        if self.max_order == 0 || self.max_order > MAX_ORDER {
            return Err(Error::InvalidOption(format!("CIDEr n must be between 1 and {MAX_ORDER}, got {}", self.max_order)));
        }
        if !(self.sigma.is_finite() && self.sigma > 0.0) {
            return Err(Error::InvalidOption(format!("sigma must be a positive finite number, got {}", self.sigma)));
        }
        Ok(())
    }
}

fn truncate_for_message(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Token-id sentences (self-critical training): ids are read up to the first `eos`
/// (included when `include_eos`, as ruotianluo/self-critical.pytorch's `array_to_str`
/// does), and each id stands for the token spelled by its decimal digits.
#[derive(Debug, Clone, Copy)]
pub struct IdText {
    pub eos: Option<i64>,
    pub include_eos: bool,
}

impl IdText {
    pub fn truncate<'a>(&self, seq: &'a [i64]) -> &'a [i64] {
        match self.eos.and_then(|e| seq.iter().position(|&x| x == e)) {
            Some(p) => &seq[..if self.include_eos { p + 1 } else { p }],
            None => seq,
        }
    }

    fn word<'b>(&self, x: i64, buf: &'b mut String) -> &'b str {
        use std::fmt::Write;
        buf.clear();
        let _ = write!(buf, "{x}");
        buf
    }
}

/// Word ids of a chunk's sentences against a fixed table: known words keep the table's
/// ids, unknown ones get fresh ids (their n-grams have df 0).
struct LocalIds<'d> {
    df: &'d DocFreq,
    oov: FxHashMap<String, u32>,
}

impl<'d> LocalIds<'d> {
    fn new(df: &'d DocFreq) -> Self {
        Self { df, oov: FxHashMap::default() }
    }
    fn id(&mut self, tok: &str) -> u32 {
        if let Some(id) = self.df.vocab.get(tok) {
            return id;
        }
        let next = (self.df.vocab.len() + 1 + self.oov.len()) as u32;
        *self.oov.entry(tok.to_owned()).or_insert(next)
    }
    fn clear(&mut self) {
        self.oov.clear();
    }
}

/// Scores against a fixed table, image `i` numbered by `fill(state, ids, chunk,
/// numbering, i)`.
fn fixed_df_scores<'d, S>(
    cfg: &CiderConfig,
    df: &'d DocFreq,
    n: usize,
    n_threads: usize,
    init: impl Fn() -> S + Sync + Send,
    fill: impl Fn(&mut S, &mut LocalIds<'d>, &mut Chunk, &mut Numbering, usize) + Sync + Send,
) -> Result<Vec<f64>> {
    let ref_len = check_df(cfg, df)?;
    let n_threads = threads_for(n, n_threads);
    let init = || (init(), LocalIds::new(df), Numbering::default());
    let chunks = map_range(n.div_ceil(CHUNK), n_threads, init, |(st, ids, num), c| {
        let mut ch = Chunk::default();
        ch.clear(num);
        ids.clear();
        for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
            ch.begin_image();
            fill(st, ids, &mut ch, num, i);
        }
        ch.seal(num);
        ch.finish(None);
        ch
    });
    Ok(corpus::scores(cfg, &chunks, ref_len, Some(&df.counts), n_threads))
}

fn check_refs<T>(n_hyps: usize, refs: &[Vec<T>]) -> Result<()> {
    if n_hyps != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: n_hyps, right: refs.len() });
    }
    if let Some(i) = refs.iter().position(Vec::is_empty) {
        return Err(Error::MissingReference { index: i });
    }
    Ok(())
}

fn check_df(cfg: &CiderConfig, df: &DocFreq) -> Result<f64> {
    if df.max_order != cfg.max_order {
        return Err(Error::InvalidOption(format!(
            "the document frequencies were counted for n={}, not n={}",
            df.max_order, cfg.max_order
        )));
    }
    if df.n_docs == 0 {
        return Err(Error::InvalidInput("the document-frequency table counts no documents".into()));
    }
    Ok((df.n_docs as f64).ln())
}

/// Fit a table on tokenized references, one document per image.
pub fn fit<S: AsRef<str> + Sync>(refs: &[Vec<S>], max_order: usize) -> DocFreq {
    fit_threads(refs, max_order, 0)
}

/// [`fit`] on `n_threads` threads: words are interned in order, each image's n-grams are
/// numbered in parallel, and the shards of the table are counted in parallel.
pub fn fit_threads<S: AsRef<str> + Sync>(refs: &[Vec<S>], max_order: usize, n_threads: usize) -> DocFreq {
    let mut df = DocFreq::new(max_order);
    let n_threads = threads_for(refs.len(), n_threads);
    let chunks = corpus::number::<S, S>(&mut df.vocab, None, refs, max_order, n_threads);
    df.counts = corpus::fit_counts(&chunks, n_threads);
    df.n_docs = refs.len() as u64;
    df
}

/// Per-image scores. `df = None` fits the table on these references (pycocoevalcap);
/// otherwise the given table is used as is.
pub fn scores<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    cfg: &CiderConfig,
    hyps: &[H],
    refs: &[Vec<R>],
    tokenizer: CaptionTokenizer,
    df: Option<&DocFreq>,
    n_threads: usize,
) -> Result<Vec<f64>> {
    cfg.validate()?;
    check_refs(hyps.len(), refs)?;
    match tokenizer {
        CaptionTokenizer::Split => scores_tokenized(cfg, hyps, refs, df, n_threads),
        CaptionTokenizer::Ptb => {
            let (h, r) = tokenize_batch(tokenizer, hyps, refs, n_threads);
            scores_tokenized(cfg, &h, &r, df, n_threads)
        }
    }
}

fn scores_tokenized<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    cfg: &CiderConfig,
    hyps: &[H],
    refs: &[Vec<R>],
    df: Option<&DocFreq>,
    n_threads: usize,
) -> Result<Vec<f64>> {
    let Some(df) = df else {
        if hyps.is_empty() {
            return Ok(Vec::new());
        }
        if !refs.iter().flatten().any(|r| py_split(r.as_ref()).next().is_some()) {
            // pycocoevalcap fails here too (max() of an empty df); say why instead.
            return Err(Error::InvalidInput(
                "CIDEr: the references hold no words at all, so there are no document frequencies".into(),
            ));
        }
        let n_threads = threads_for(hyps.len(), n_threads);
        let chunks = corpus::number(&mut Vocab::default(), Some(hyps), refs, cfg.max_order, n_threads);
        return Ok(corpus::scores(cfg, &chunks, (hyps.len() as f64).ln(), None, n_threads));
    };
    if hyps.is_empty() {
        return Ok(Vec::new());
    }
    fixed_df_scores(cfg, df, hyps.len(), n_threads, Vec::new, |buf, ids, ch, num, i| {
        let texts = |i: usize| refs[i].iter().map(AsRef::as_ref);
        let repeat = ch.n_images() > 1 && texts(i).eq(texts(i - 1));
        // A repeat adds the hypothesis only.
        let sents = std::iter::once(hyps[i].as_ref()).chain(texts(i)).take(if repeat { 1 } else { usize::MAX });
        for (j, sent) in sents.enumerate() {
            buf.clear();
            buf.extend(py_split(sent).map(|t| ids.id(t)));
            ch.add_sentence(num, buf, cfg.max_order, j > 0);
        }
        if repeat {
            ch.repeat_refs();
        }
    })
}

/// MBR: CIDEr(-D) of every candidate against every pseudo-reference, each pair scored
/// as an image with that one reference against the fixed table `df` (row-major, equal
/// to [`scores`] of the pair). All sentences are numbered together once.
pub fn pairwise<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    cfg: &CiderConfig,
    cands: &[H],
    refs: &[R],
    tokenizer: CaptionTokenizer,
    df: &DocFreq,
    n_threads: usize,
) -> Result<Vec<f64>> {
    cfg.validate()?;
    let ref_len = check_df(cfg, df)?;
    if cands.is_empty() || refs.is_empty() {
        return Ok(Vec::new());
    }
    let (c, r);
    let sents: Vec<&str> = match tokenizer {
        CaptionTokenizer::Split => cands.iter().map(AsRef::as_ref).chain(refs.iter().map(AsRef::as_ref)).collect(),
        CaptionTokenizer::Ptb => {
            let nested = [refs.iter().map(AsRef::as_ref).collect::<Vec<&str>>()];
            (c, r) = tokenize_batch(tokenizer, cands, &nested, n_threads);
            c.iter().chain(&r[0]).map(String::as_str).collect()
        }
    };
    let (mut num, mut ch, mut ids, mut buf) = (Numbering::default(), Chunk::default(), LocalIds::new(df), Vec::new());
    ch.clear(&mut num);
    ch.begin_image();
    for sent in sents {
        buf.clear();
        buf.extend(py_split(sent).map(|t| ids.id(t)));
        ch.add_sentence(&mut num, &buf, cfg.max_order, false);
    }
    ch.seal(&num);
    ch.finish(None);
    let chunks = [ch];
    let w = corpus::weights(&chunks, ref_len, Some(&df.counts), n_threads);
    Ok(chunks[0].pair_scores(&w[0], cfg, cands.len(), n_threads))
}

/// Per-sample scores of token-id sequences against a fixed table (the training reward).
pub fn scores_token_ids(
    cfg: &CiderConfig,
    hyps: &[Vec<i64>],
    refs: &[Vec<Vec<i64>>],
    text: IdText,
    df: &DocFreq,
    n_threads: usize,
) -> Result<Vec<f64>> {
    cfg.validate()?;
    check_refs(hyps.len(), refs)?;
    if hyps.is_empty() {
        return Ok(Vec::new());
    }
    // Token ids the table knows keep one word id for the whole batch: look each up once
    // per worker instead of formatting and hashing its decimal spelling every time.
    let init = || (String::new(), FxHashMap::<i64, u32>::default(), Vec::new());
    fixed_df_scores(cfg, df, hyps.len(), n_threads, init, |(buf, known, seq), ids, ch, num, i| {
        let repeat = ch.n_images() > 1 && refs[i] == refs[i - 1];
        let sents = std::iter::once(&hyps[i]).chain(&refs[i]).take(if repeat { 1 } else { usize::MAX });
        for (j, x) in sents.enumerate() {
            seq.clear();
            seq.extend(text.truncate(x).iter().map(|&x| {
                if let Some(&w) = known.get(&x) {
                    return w;
                }
                match df.vocab.get(text.word(x, buf)) {
                    Some(w) => {
                        known.insert(x, w);
                        w
                    }
                    None => ids.id(text.word(x, buf)),
                }
            }));
            ch.add_sentence(num, seq, cfg.max_order, j > 0);
        }
        if repeat {
            ch.repeat_refs();
        }
    })
}

#[cfg(test)]
mod tests;
