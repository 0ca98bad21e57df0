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

use crate::error::{Error, Result};
use crate::parallel::map_rows;
use crate::pystr::py_split;
use crate::tokenize::ptb::{tokenize_batch, CaptionTokenizer};
use rustc_hash::FxHashMap;

/// n-grams are packed into a u128 of four 32-bit token ids (ids start at 1).
pub const MAX_ORDER: usize = 4;

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

fn pack(ids: &[u32]) -> u128 {
    ids.iter().enumerate().fold(0u128, |k, (j, &id)| k | (u128::from(id) << (32 * j)))
}

/// A document-frequency table: for each n-gram, the number of documents (images) whose
/// references contain it, and the number of documents.
#[derive(Debug, Clone, Default)]
pub struct DocFreq {
    vocab: FxHashMap<Box<str>, u32>,
    words: Vec<Box<str>>,
    counts: FxHashMap<u128, u64>,
    n_docs: u64,
    max_order: usize,
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
        self.counts.is_empty()
    }

    fn intern(&mut self, tok: &str) -> u32 {
        if let Some(&id) = self.vocab.get(tok) {
            return id;
        }
        self.words.push(tok.into());
        let id = self.words.len() as u32;
        self.vocab.insert(tok.into(), id);
        id
    }

    /// Count one document: the set of n-grams over all of its (tokenized) sentences.
    pub fn add_document<S: AsRef<str>>(&mut self, sentences: &[S]) {
        let seqs: Vec<Vec<u32>> =
            sentences.iter().map(|s| py_split(s.as_ref()).map(|t| self.intern(t)).collect()).collect();
        self.add_document_ids(&seqs);
    }

    fn add_document_ids(&mut self, seqs: &[Vec<u32>]) {
        let mut seen = Vec::new();
        document_ngrams(seqs, self.max_order, &mut seen);
        self.add_ngram_set(&seen);
    }

    /// Count one document given as its distinct n-grams.
    fn add_ngram_set(&mut self, seen: &[u128]) {
        for &k in seen {
            *self.counts.entry(k).or_insert(0) += 1;
        }
        self.n_docs += 1;
    }

    /// Count documents given as token-id sequences (see [`IdText`]).
    pub fn add_document_token_ids(&mut self, seqs: &[Vec<i64>], text: &IdText) {
        let mut buf = String::new();
        let ids: Vec<Vec<u32>> = seqs
            .iter()
            .map(|s| text.truncate(s).iter().map(|&x| self.intern(text.word(x, &mut buf))).collect())
            .collect();
        self.add_document_ids(&ids);
    }

    fn key_text(&self, key: u128) -> String {
        let mut out = String::new();
        for j in 0..MAX_ORDER {
            let id = ((key >> (32 * j)) & 0xFFFF_FFFF) as usize;
            if id == 0 {
                break;
            }
            if j > 0 {
                out.push(' ');
            }
            out.push_str(&self.words[id - 1]);
        }
        out
    }

    /// Every n-gram (tokens joined by a space) and its count, sorted by n-gram.
    pub fn entries(&self) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = self.counts.iter().map(|(&k, &c)| (self.key_text(k), c)).collect();
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
            let ids: Vec<u32> = py_split(g.as_ref()).map(|t| df.intern(t)).collect();
            if ids.is_empty() || ids.len() > max_order {
                return Err(Error::InvalidInput(format!(
                    "document-frequency n-gram {:?} has {} tokens; expected 1..{max_order}",
                    truncate_for_message(g.as_ref()),
                    ids.len()
                )));
            }
            *df.counts.entry(pack(&ids)).or_insert(0) += c;
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
        let remap: Vec<u32> = other.words.iter().map(|w| out.intern(w)).collect();
        for (&k, &c) in &other.counts {
            let mut nk = 0u128;
            for j in 0..MAX_ORDER {
                let id = ((k >> (32 * j)) & 0xFFFF_FFFF) as usize;
                if id == 0 {
                    break;
                }
                nk |= u128::from(remap[id - 1]) << (32 * j);
            }
            *out.counts.entry(nk).or_insert(0) += c;
        }
        out.n_docs += other.n_docs;
        Ok(out)
    }

    pub fn get(&self, ngram: &str) -> u64 {
        let ids: Option<Vec<u32>> = py_split(ngram).map(|t| self.vocab.get(t).copied()).collect();
        match ids {
            Some(ids) if !ids.is_empty() && ids.len() <= MAX_ORDER => self.counts.get(&pack(&ids)).copied().unwrap_or(0),
            _ => 0,
        }
    }

    fn count(&self, key: u128) -> u64 {
        self.counts.get(&key).copied().unwrap_or(0)
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

/// Token ids of one image's sentences against a fixed table: known tokens keep the
/// table's ids, unknown ones get fresh ids (their n-grams have df 0).
struct LocalIds<'d> {
    df: &'d DocFreq,
    oov: FxHashMap<String, u32>,
}

impl<'d> LocalIds<'d> {
    fn new(df: &'d DocFreq) -> Self {
        Self { df, oov: FxHashMap::default() }
    }
    fn id(&mut self, tok: &str) -> u32 {
        if let Some(&id) = self.df.vocab.get(tok) {
            return id;
        }
        let next = (self.df.words.len() + 1 + self.oov.len()) as u32;
        *self.oov.entry(tok.to_owned()).or_insert(next)
    }
    fn clear(&mut self) {
        self.oov.clear();
    }
}

/// A sentence's tf-idf vector in the reference's order, its norms and its "length".
#[derive(Default)]
struct SentVec {
    keys: Vec<u128>,
    order: Vec<u8>,
    val: Vec<f64>,
    norm: [f64; MAX_ORDER],
    length: f64,
    index: FxHashMap<u128, usize>,
    tf: Vec<u32>,
}

/// `ln(max(1, df))` of the n-grams met in one image: its sentences share most n-grams,
/// and each miss is a cache-missing lookup in the (large) table plus a logarithm.
#[derive(Default)]
struct IdfCache {
    ln_df: FxHashMap<u128, f64>,
}

impl IdfCache {
    fn get(&mut self, df: &DocFreq, k: u128) -> f64 {
        *self.ln_df.entry(k).or_insert_with(|| (df.count(k) as f64).max(1.0).ln())
    }
}

impl SentVec {
    fn build(&mut self, ids: &[u32], max_order: usize, df: &DocFreq, idf: &mut IdfCache, ref_len: f64) {
        self.keys.clear();
        self.order.clear();
        self.val.clear();
        self.index.clear();
        self.norm = [0.0; MAX_ORDER];
        let tf = &mut self.tf;
        tf.clear();
        for n in 1..=max_order.min(ids.len()) {
            for w in ids.windows(n) {
                let k = pack(w);
                match self.index.get(&k) {
                    Some(&p) => tf[p] += 1,
                    None => {
                        self.index.insert(k, self.keys.len());
                        self.keys.push(k);
                        self.order.push(n as u8);
                        tf.push(1);
                    }
                }
            }
        }
        let mut length = 0u64;
        for (p, &k) in self.keys.iter().enumerate() {
            let dfv = idf.get(df, k);
            let v = f64::from(tf[p]) * (ref_len - dfv);
            self.val.push(v);
            let n = self.order[p] as usize - 1;
            self.norm[n] += v * v;
            if n == 1 {
                length += u64::from(tf[p]);
            }
        }
        for x in &mut self.norm {
            *x = x.sqrt();
        }
        self.length = length as f64;
    }

    fn get(&self, k: u128) -> f64 {
        self.index.get(&k).map_or(0.0, |&p| self.val[p])
    }
}

#[derive(Default)]
pub struct Scratch {
    hyp: SentVec,
    refv: SentVec,
    idf: IdfCache,
    hyp_ids: Vec<u32>,
    ref_ids: Vec<Vec<u32>>,
}

/// The score of one image (hypothesis token ids against its references' token ids).
fn image_score(cfg: &CiderConfig, df: &DocFreq, ref_len: f64, hyp: &[u32], refs: &[Vec<u32>], s: &mut Scratch) -> f64 {
    let n_max = cfg.max_order;
    s.idf.ln_df.clear();
    s.hyp.build(hyp, n_max, df, &mut s.idf, ref_len);
    let mut score = [0.0f64; MAX_ORDER];
    for r in refs {
        s.refv.build(r, n_max, df, &mut s.idf, ref_len);
        let delta = s.hyp.length - s.refv.length;
        let mut val = [0.0f64; MAX_ORDER];
        for (p, &k) in s.hyp.keys.iter().enumerate() {
            let n = s.hyp.order[p] as usize - 1;
            let vh = s.hyp.val[p];
            let vr = s.refv.get(k);
            val[n] += match cfg.flavour {
                Flavour::CiderD => vh.min(vr) * vr,
                Flavour::Cider => vh * vr,
            };
        }
        for n in 0..n_max {
            if s.hyp.norm[n] != 0.0 && s.refv.norm[n] != 0.0 {
                val[n] /= s.hyp.norm[n] * s.refv.norm[n];
            }
            if cfg.flavour == Flavour::CiderD {
                val[n] *= std::f64::consts::E.powf(-(delta.powf(2.0)) / (2.0 * cfg.sigma.powf(2.0)));
            }
            score[n] += val[n];
        }
    }
    let mut mean = 0.0;
    for v in &score[..n_max] {
        mean += v;
    }
    mean /= n_max as f64;
    mean /= refs.len() as f64;
    mean * 10.0
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

/// The distinct n-grams (orders 1..=max_order) of one document's sentences, sorted.
fn document_ngrams(seqs: &[Vec<u32>], max_order: usize, seen: &mut Vec<u128>) {
    seen.clear();
    for ids in seqs {
        for n in 1..=max_order.min(ids.len()) {
            seen.extend(ids.windows(n).map(pack));
        }
    }
    seen.sort_unstable();
    seen.dedup();
}

/// Fit a table on tokenized references, one document per image.
pub fn fit<S: AsRef<str> + Sync>(refs: &[Vec<S>], max_order: usize) -> DocFreq {
    fit_threads(refs, max_order, 0)
}

/// [`fit`] on `n_threads` threads: words are interned in order (ids do not depend on
/// the threads), each document's n-gram set is extracted in parallel, and the sets are
/// counted in document order.
pub fn fit_threads<S: AsRef<str> + Sync>(refs: &[Vec<S>], max_order: usize, n_threads: usize) -> DocFreq {
    let mut df = DocFreq::new(max_order);
    let docs: Vec<Vec<Vec<u32>>> =
        refs.iter().map(|rs| rs.iter().map(|s| py_split(s.as_ref()).map(|t| df.intern(t)).collect()).collect()).collect();
    let sets: Vec<Vec<u128>> = crate::parallel::run(n_threads, || {
        use rayon::prelude::*;
        docs.par_iter()
            .with_min_len(64)
            .map(|seqs| {
                let mut seen = Vec::new();
                document_ngrams(seqs, max_order, &mut seen);
                seen
            })
            .collect()
    });
    df.counts.reserve(sets.iter().map(Vec::len).sum::<usize>() / 2);
    for seen in &sets {
        df.add_ngram_set(seen);
    }
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
    h: &[H],
    r: &[Vec<R>],
    df: Option<&DocFreq>,
    n_threads: usize,
) -> Result<Vec<f64>> {
    let hyps = h;
    let fitted;
    let df = match df {
        Some(d) => d,
        None => {
            fitted = fit_threads(r, cfg.max_order, n_threads);
            if fitted.is_empty() && !hyps.is_empty() {
                // pycocoevalcap fails here too (max() of an empty df); say why instead.
                return Err(Error::InvalidInput(
                    "CIDEr: the references hold no words at all, so there are no document frequencies".into(),
                ));
            }
            &fitted
        }
    };
    if hyps.is_empty() {
        return Ok(Vec::new());
    }
    let ref_len = check_df(cfg, df)?;
    map_rows(h.len(), 1, n_threads, || (Scratch::default(), LocalIds::new(df)), |(s, ids), i, row| {
        ids.clear();
        let (mut hyp, mut rs) = (std::mem::take(&mut s.hyp_ids), std::mem::take(&mut s.ref_ids));
        hyp.clear();
        hyp.extend(py_split(h[i].as_ref()).map(|t| ids.id(t)));
        rs.resize_with(r[i].len(), Vec::new);
        for (dst, x) in rs.iter_mut().zip(&r[i]) {
            dst.clear();
            dst.extend(py_split(x.as_ref()).map(|t| ids.id(t)));
        }
        row[0] = image_score(cfg, df, ref_len, &hyp, &rs, s);
        (s.hyp_ids, s.ref_ids) = (hyp, rs);
        Ok(())
    })
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
    let ref_len = check_df(cfg, df)?;
    // Token ids the table knows keep one word id for the whole batch: look each up once
    // per worker instead of formatting and hashing its decimal spelling every time.
    let init = || (Scratch::default(), LocalIds::new(df), String::new(), FxHashMap::<i64, u32>::default());
    map_rows(hyps.len(), 1, n_threads, init, |(s, ids, buf, known), i, row| {
        ids.clear();
        let mut conv = |seq: &[i64]| -> Vec<u32> {
            text.truncate(seq)
                .iter()
                .map(|&x| {
                    if let Some(&w) = known.get(&x) {
                        return w;
                    }
                    match df.vocab.get(text.word(x, buf)) {
                        Some(&w) => {
                            known.insert(x, w);
                            w
                        }
                        None => ids.id(text.word(x, buf)),
                    }
                })
                .collect()
        };
        let hyp = conv(&hyps[i]);
        let rs: Vec<Vec<u32>> = refs[i].iter().map(|x| conv(x)).collect();
        row[0] = image_score(cfg, df, ref_len, &hyp, &rs, s);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(flavour: Flavour) -> CiderConfig {
        CiderConfig { flavour, max_order: 4, sigma: 6.0 }
    }

    fn example() -> (Vec<&'static str>, Vec<Vec<&'static str>>) {
        (
            vec!["a man riding a horse on the beach", "a cat sitting on a couch", "two dogs playing in the snow"],
            vec![
                vec!["a man rides a horse along the beach", "a person on a horse at the beach"],
                vec!["a cat lies on the sofa", "a cat sitting on a couch in a living room"],
                vec!["two dogs play in the snow", "dogs running through snow"],
            ],
        )
    }

    #[test]
    fn single_image_corpus_is_zero() {
        let s = scores(&cfg(Flavour::CiderD), &["a b c"], &[vec!["a b c"]], CaptionTokenizer::Split, None, 1).unwrap();
        assert_eq!(s, [0.0]);
    }

    #[test]
    fn fixed_df_equal_to_fitted_gives_same_scores() {
        let (h, r) = example();
        let a = scores(&cfg(Flavour::CiderD), &h, &r, CaptionTokenizer::Split, None, 1).unwrap();
        let df = fit(&r, 4);
        let b = scores(&cfg(Flavour::CiderD), &h, &r, CaptionTokenizer::Split, Some(&df), 1).unwrap();
        assert_eq!(a, b);
        assert!(a.iter().all(|&x| x > 0.0));
    }

    #[test]
    fn merge_equals_fit_of_union_and_round_trips() {
        let (_, r) = example();
        let whole = fit(&r, 4);
        let merged = fit(&r[..1], 4).merge(&fit(&r[1..], 4)).unwrap();
        assert_eq!(whole.entries(), merged.entries());
        assert_eq!(merged.n_docs(), 3);
        let (g, c): (Vec<String>, Vec<u64>) = whole.entries().into_iter().unzip();
        let back = DocFreq::from_entries(&g, &c, 3, 4).unwrap();
        assert_eq!(back.entries(), whole.entries());
        assert_eq!(back.get("a cat"), 1);
        assert_eq!(back.get("the"), 3);
        assert_eq!(back.get("zebra"), 0);
    }

    #[test]
    fn token_ids_match_strings() {
        let text = IdText { eos: Some(0), include_eos: true };
        let refs_s = vec![vec!["5 6 7 0", "5 8 0"], vec!["9 6 0", "9 9 7 0"]];
        let refs_i: Vec<Vec<Vec<i64>>> = vec![vec![vec![5, 6, 7, 0, 0], vec![5, 8, 0]], vec![vec![9, 6, 0], vec![9, 9, 7, 0, 0, 0]]];
        let mut df = DocFreq::new(4);
        for rs in &refs_i {
            df.add_document_token_ids(rs, &text);
        }
        let hyps_i = vec![vec![5, 6, 0, 0], vec![9, 7, 0, 3]];
        let a = scores_token_ids(&cfg(Flavour::CiderD), &hyps_i, &refs_i, text, &df, 1).unwrap();
        let b = scores(&cfg(Flavour::CiderD), &["5 6 0", "9 7 0"], &refs_s, CaptionTokenizer::Split, Some(&df), 1).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn unclipped_is_at_least_clipped_without_penalty_effects() {
        let (h, r) = example();
        let d = scores(&cfg(Flavour::CiderD), &h, &r, CaptionTokenizer::Split, None, 1).unwrap();
        let c = scores(&cfg(Flavour::Cider), &h, &r, CaptionTokenizer::Split, None, 1).unwrap();
        for (x, y) in d.iter().zip(&c) {
            assert!(y >= x);
        }
    }

    #[test]
    fn errors() {
        let e = scores(&cfg(Flavour::CiderD), &["a"], &[Vec::<&str>::new()], CaptionTokenizer::Split, None, 1).unwrap_err();
        assert_eq!(e, Error::MissingReference { index: 0 });
        let bad = CiderConfig { flavour: Flavour::CiderD, max_order: 5, sigma: 6.0 };
        assert!(bad.validate().is_err());
    }
}
