//! ROUGE as rouge-score 0.1.2 (Google) computes it.
//!
//! Per pair (target, prediction) and per rouge type, precision, recall and F1:
//! - `rougeN` (N = 1..9): clipped n-gram overlap `Σ_g min(cnt_t(g), cnt_p(g))`,
//!   `P = overlap / max(#pred n-grams, 1)`, `R = overlap / max(#target n-grams, 1)`;
//! - `rougeL`: LCS of the whole token lists, `P = lcs/|pred|`, `R = lcs/|target|`
//!   (all zero when either side is empty);
//! - `rougeLsum`: summary-level LCS over `\n`-separated sentences (empty lines
//!   dropped): for each target sentence the union of its LCS positions against every
//!   predicted sentence, each position a hit while both unigram budgets last;
//! - `F = 2PR/(P+R)`, or 0 when `P+R = 0`.
//!
//! With several targets, each rouge type independently takes the target with the
//! largest F (the first on ties), as `RougeScorer.score_multi` does.
//!
//! Segment statistics (f64): for each type in order, `[P, R, F]`.

use crate::error::{Error, Result};
use crate::parallel::map_rows;
use crate::text::rouge_doc::{with_stems, Doc, Local, Reader, StampMap, StemCache};
use crate::text::rouge_lcs::BitLcs;
use crate::tokenize::rouge::{rouge_score_tokens_into, unicode_tokens_into, Tokens};
use rustc_hash::FxHashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RougeType {
    N(usize),
    L,
    Lsum,
}

impl RougeType {
    /// rouge-score's names: `rouge1`..`rouge9` (`rouge[0-9]$`), `rougeL`, `rougeLsum`.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "rougeL" => return Ok(RougeType::L),
            "rougeLsum" => return Ok(RougeType::Lsum),
            _ => {}
        }
        if let Some(d) = name.strip_prefix("rouge") {
            if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() {
                let n = (d.as_bytes()[0] - b'0') as usize;
                if n == 0 {
                    return Err(Error::InvalidOption(format!("rougen requires positive n: {name}")));
                }
                return Ok(RougeType::N(n));
            }
        }
        Err(Error::InvalidOption(format!(
            "invalid rouge type {name:?}; valid: rouge1..rouge9, rougeL, rougeLsum"
        )))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RougeTokenizer {
    /// rouge-score's ASCII tokenizer (exact parity).
    RougeScore,
    /// Unicode-aware: CJK/Thai by character, other scripts by word.
    Unicode,
}

impl RougeTokenizer {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "rouge-score" | "default" => Ok(RougeTokenizer::RougeScore),
            "unicode" => Ok(RougeTokenizer::Unicode),
            _ => Err(Error::InvalidOption(format!(
                "unknown ROUGE tokenizer {name:?}; known: rouge-score, unicode"
            ))),
        }
    }

    /// Append the tokens of `text` to `out`.
    pub fn tokens_into(self, text: &str, stem: bool, out: &mut Tokens) {
        match self {
            RougeTokenizer::RougeScore => rouge_score_tokens_into(text, stem, out),
            RougeTokenizer::Unicode => unicode_tokens_into(text, stem, out),
        }
    }
}

#[derive(Debug, Clone)]
pub struct RougeConfig {
    pub types: Vec<RougeType>,
    pub stemmer: bool,
    pub tokenizer: RougeTokenizer,
}

impl RougeConfig {
    pub fn width(&self) -> usize {
        3 * self.types.len()
    }

    pub fn validate(&self) -> Result<()> {
        if self.types.is_empty() {
            return Err(Error::InvalidOption("at least one rouge type is needed".into()));
        }
        Ok(())
    }

    fn needs_sentences(&self) -> bool {
        self.types.contains(&RougeType::Lsum)
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Prf {
    pub precision: f64,
    pub recall: f64,
    pub fmeasure: f64,
}

/// rouge-score `scoring.fmeasure`.
pub fn fmeasure(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

fn prf(p: f64, r: f64) -> Prf {
    Prf { precision: p, recall: r, fmeasure: fmeasure(p, r) }
}

/// Reusable buffers of one thread.
#[derive(Default)]
pub struct Scratch {
    local: Local,
    word: Vec<u8>,
    fallback: Tokens,
    masks: (Vec<u64>, Vec<u64>),
    docs: Vec<Doc>,
    bits: BitLcs,
    mask: Vec<bool>,
    /// per token id: (reference budget, candidate budget) of `rougeLsum`
    budget: Vec<(u32, u32)>,
    /// per token id: the target's unigram counts (zero between calls)
    counts: Vec<u32>,
    grams: StampMap<u64>,
}

/// Tokenize `text` into `doc` with this pair's numbering (`stems` given when stemming).
fn read_doc(cfg: &RougeConfig, text: &str, stems: Option<&mut StemCache>, s: &mut Scratch, doc: &mut Doc) {
    let lines = cfg.needs_sentences();
    let (stem, tok) = (cfg.stemmer, cfg.tokenizer);
    let mut r = Reader { stems, local: &mut s.local, word: &mut s.word, fallback: &mut s.fallback, masks: &mut s.masks };
    match tok {
        RougeTokenizer::RougeScore => r.rouge_score_doc(text.as_bytes(), lines, doc),
        RougeTokenizer::Unicode => r.doc_with(text, lines, doc, |part, out| tok.tokens_into(part, stem, out)),
    }
}

/// Read the prediction into `docs[0]` and the targets after it, in one numbering.
fn read_pair<S: AsRef<str>>(cfg: &RougeConfig, pred: &str, targets: &[S], s: &mut Scratch, docs: &mut [Doc]) {
    let mut read = |stems: Option<&mut StemCache>, s: &mut Scratch| {
        let mut stems = stems;
        read_doc(cfg, pred, stems.as_deref_mut(), s, &mut docs[0]);
        for (k, t) in targets.iter().enumerate() {
            read_doc(cfg, t.as_ref(), stems.as_deref_mut(), s, &mut docs[k + 1]);
        }
    };
    if cfg.stemmer {
        with_stems(|it| read(Some(it), s));
    } else {
        read(None, s);
    }
}

/// Clipped overlap of packed n-gram keys: the target's counted, the prediction's consumed.
fn keyed_overlap(target: impl Iterator<Item = u64>, pred: impl Iterator<Item = u64>, t_total: usize, counts: &mut StampMap<u64>) -> u64 {
    counts.clear_for(t_total);
    for k in target {
        counts.add_one(k);
    }
    pred.map(|k| counts.take_one(k) as u64).sum()
}

/// Clipped n-gram overlap by packing each n-gram into one key (ids < 2^bits, n * bits <= 64).
fn packed_overlap(target: &[u32], pred: &[u32], n: usize, bits: u32, s: &mut Scratch) -> u64 {
    let t_total = target.len() + 1 - n;
    if n == 2 {
        let pair = |w: &[u32]| ((w[0] as u64) << 32) | w[1] as u64;
        return keyed_overlap(target.windows(2).map(pair), pred.windows(2).map(pair), t_total, &mut s.grams);
    }
    let pack = |w: &[u32]| w.iter().fold(0u64, |k, &t| (k << bits) | t as u64);
    keyed_overlap(target.windows(n).map(pack), pred.windows(n).map(pack), t_total, &mut s.grams)
}

/// Clipped unigram overlap with dense counts (no branch per token).
fn unigram_overlap(target: &[u32], pred: &[u32], n_ids: usize, s: &mut Scratch) -> u64 {
    if s.counts.len() < n_ids {
        s.counts.resize(n_ids, 0);
    }
    let counts = &mut s.counts[..n_ids];
    for &t in target {
        counts[t as usize] += 1;
    }
    let mut overlap = 0u64;
    for &t in pred {
        let c = &mut counts[t as usize];
        let hit = (*c > 0) as u32;
        *c -= hit;
        overlap += hit as u64;
    }
    for &t in target {
        counts[t as usize] = 0;
    }
    overlap
}

/// Budgets are all zero between calls; each call zeroes what it touched, so its cost
/// follows the pair's length, not the number of ids (large in `pairwise`).
fn grow_budget(budget: &mut Vec<(u32, u32)>, n_ids: usize) {
    if budget.len() < n_ids {
        budget.resize(n_ids, (0, 0));
    }
}

/// Clipped overlap by hashing the n-gram slices (any n, any number of ids).
fn hashed_overlap(target: &[u32], pred: &[u32], n: usize) -> u64 {
    let mut c: FxHashMap<&[u32], (u32, u32)> = FxHashMap::default();
    for w in target.windows(n) {
        c.entry(w).or_insert((0, 0)).0 += 1;
    }
    for w in pred.windows(n) {
        if let Some(e) = c.get_mut(w) {
            e.1 += 1;
        }
    }
    c.values().map(|&(t, p)| t.min(p) as u64).sum()
}

fn score_ngrams(target: &[u32], pred: &[u32], n: usize, n_ids: usize, s: &mut Scratch) -> Prf {
    let t_total = (target.len() + 1).saturating_sub(n);
    let p_total = (pred.len() + 1).saturating_sub(n);
    let overlap = if t_total == 0 || p_total == 0 {
        0
    } else if n == 1 {
        unigram_overlap(target, pred, n_ids, s)
    } else {
        let bits = usize::BITS - n_ids.max(2).saturating_sub(1).leading_zeros();
        if n as u32 * bits <= 64 {
            packed_overlap(target, pred, n, bits, s)
        } else {
            hashed_overlap(target, pred, n)
        }
    };
    prf(overlap as f64 / p_total.max(1) as f64, overlap as f64 / t_total.max(1) as f64)
}

fn score_lcs(target: &[u32], pred: &[u32], n_ids: usize, s: &mut Scratch) -> Prf {
    if target.is_empty() || pred.is_empty() {
        return Prf::default();
    }
    let lcs = s.bits.len(target, pred, n_ids) as f64;
    prf(lcs / pred.len() as f64, lcs / target.len() as f64)
}

fn score_lsum(target: &Doc, pred: &Doc, n_ids: usize, s: &mut Scratch) -> Prf {
    if target.sents.is_empty() || pred.sents.is_empty() {
        return Prf::default();
    }
    let sent_tokens = |d: &Doc| d.sents.iter().map(|&(a, b)| (b - a) as usize).sum::<usize>();
    let (m, n) = (sent_tokens(target), sent_tokens(pred));
    if m == 0 || n == 0 {
        return Prf::default();
    }
    // (reference budget, candidate budget) per token
    grow_budget(&mut s.budget, n_ids);
    for k in 0..target.sents.len() {
        for &t in target.sentence(k) {
            s.budget[t as usize].0 += 1;
        }
    }
    for k in 0..pred.sents.len() {
        for &t in pred.sentence(k) {
            s.budget[t as usize].1 += 1;
        }
    }
    // Marks of every reference sentence, each candidate sentence's masks loaded once;
    // the budgets are then consumed in the reference's order, as rouge-score does.
    s.mask.clear();
    s.mask.resize(target.tokens.len(), false);
    for c in 0..pred.sents.len() {
        let cand = pred.sentence(c);
        s.bits.load_peer(cand, n_ids);
        for &(a, b) in &target.sents {
            let (a, b) = (a as usize, b as usize);
            s.bits.mark_loaded(&target.tokens[a..b], cand, &mut s.mask[a..b]);
        }
        s.bits.unload_peer(cand);
    }
    let mut hits = 0u64;
    for &(a, b) in &target.sents {
        for q in a as usize..b as usize {
            if s.mask[q] {
                let e = &mut s.budget[target.tokens[q] as usize];
                if e.0 > 0 && e.1 > 0 {
                    hits += 1;
                    e.0 -= 1;
                    e.1 -= 1;
                }
            }
        }
    }
    for d in [target, pred] {
        for k in 0..d.sents.len() {
            for &t in d.sentence(k) {
                s.budget[t as usize] = (0, 0);
            }
        }
    }
    prf(hits as f64 / n as f64, hits as f64 / m as f64)
}

/// `RougeScorer.score(target, prediction)` for one type; `n_ids` bounds the pair's ids.
pub fn score_type(t: RougeType, target: &Doc, pred: &Doc, n_ids: usize, s: &mut Scratch) -> Prf {
    match t {
        RougeType::N(n) => score_ngrams(&target.tokens, &pred.tokens, n, n_ids, s),
        RougeType::L => score_lcs(&target.tokens, &pred.tokens, n_ids, s),
        RougeType::Lsum => score_lsum(target, pred, n_ids, s),
    }
}

/// `score_multi`: per type, the target with the largest F (first on ties).
pub fn segment_stats<S: AsRef<str>>(cfg: &RougeConfig, pred: &str, targets: &[S], s: &mut Scratch, out: &mut [f64]) -> Result<()> {
    if targets.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    let mut docs = std::mem::take(&mut s.docs);
    if docs.len() < targets.len() + 1 {
        docs.resize_with(targets.len() + 1, Doc::default);
    }
    s.local.reset();
    read_pair(cfg, pred, targets, s, &mut docs);
    let n_ids = s.local.len();
    for (ti, &t) in cfg.types.iter().enumerate() {
        let mut best: Option<Prf> = None;
        for k in 0..targets.len() {
            let sc = score_type(t, &docs[k + 1], &docs[0], n_ids, s);
            if best.map_or(true, |b| sc.fmeasure > b.fmeasure) {
                best = Some(sc);
            }
        }
        let b = best.expect("at least one target");
        out[3 * ti..3 * ti + 3].copy_from_slice(&[b.precision, b.recall, b.fmeasure]);
    }
    s.docs = docs;
    Ok(())
}

/// Statistics of `n` pairs, row-major `n × 3T`; `targets(i)` the references of pair `i`.
fn stats_rows<'a, H: AsRef<str> + Sync, R: AsRef<str> + Sync + 'a>(cfg: &RougeConfig, preds: &[H], targets: impl Fn(usize) -> &'a [R] + Sync + Send, n_threads: usize) -> Result<Vec<f64>> {
    cfg.validate()?;
    map_rows(preds.len(), cfg.width(), n_threads, Scratch::default, |s, i, row| {
        segment_stats(cfg, preds[i].as_ref(), targets(i), s, row).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            e => e,
        })
    })
}

/// Statistics of a batch, row-major `n × 3T`.
pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(cfg: &RougeConfig, preds: &[H], refs: &[Vec<R>], n_threads: usize) -> Result<Vec<f64>> {
    if preds.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: preds.len(), right: refs.len() });
    }
    stats_rows(cfg, preds, |i| refs[i].as_slice(), n_threads)
}

/// [`batch_stats`] with the references flat: pair `i`'s are `refs[starts[i]..starts[i + 1]]`.
pub fn batch_stats_flat<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(cfg: &RougeConfig, preds: &[H], refs: &[R], starts: &[usize], n_threads: usize) -> Result<Vec<f64>> {
    if starts.len() != preds.len() + 1 || starts.last() != Some(&refs.len()) || starts.windows(2).any(|w| w[0] > w[1]) {
        return Err(Error::InvalidInput("reference offsets do not match the predictions".into()));
    }
    stats_rows(cfg, preds, |i| &refs[starts[i]..starts[i + 1]], n_threads)
}

/// F of `cfg.types[0]` for every candidate against every reference: `out[i*m + j]`.
pub fn pairwise<S: AsRef<str> + Sync>(cfg: &RougeConfig, cands: &[S], refs: &[S], n_threads: usize) -> Result<Vec<f64>> {
    cfg.validate()?;
    // One numbering for the whole matrix, so every document is read once.
    let mut s = Scratch::default();
    s.local.reset();
    let read_all = |xs: &[S], s: &mut Scratch| -> Vec<Doc> {
        let mut read = |mut stems: Option<&mut StemCache>| {
            xs.iter()
                .map(|x| {
                    let mut d = Doc::default();
                    read_doc(cfg, x.as_ref(), stems.as_deref_mut(), s, &mut d);
                    d
                })
                .collect()
        };
        if cfg.stemmer {
            with_stems(|it| read(Some(it)))
        } else {
            read(None)
        }
    };
    let cd = read_all(cands, &mut s);
    let rd = read_all(refs, &mut s);
    let n_ids = s.local.len();
    let t = cfg.types[0];
    map_rows(cands.len(), refs.len(), n_threads, Scratch::default, |s, i, row| {
        for (j, out) in row.iter_mut().enumerate() {
            *out = score_type(t, &rd[j], &cd[i], n_ids, s).fmeasure;
        }
        Ok::<(), Error>(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(types: &[&str], stem: bool) -> RougeConfig {
        RougeConfig {
            types: types.iter().map(|t| RougeType::from_name(t).unwrap()).collect(),
            stemmer: stem,
            tokenizer: RougeTokenizer::RougeScore,
        }
    }

    fn one(c: &RougeConfig, pred: &str, targets: &[&str]) -> Vec<f64> {
        let mut out = vec![0.0; c.width()];
        segment_stats(c, pred, targets, &mut Scratch::default(), &mut out).unwrap();
        out
    }

    #[test]
    fn worked_example_of_the_spec() {
        let c = cfg(&["rouge1", "rouge2", "rougeL", "rougeLsum"], false);
        let o = one(
            &c,
            "The quick brown dog jumps on the log.\nIt is sunny today.",
            &["The quick brown fox jumps over the lazy dog.\nIt was sunny."],
        );
        assert!((o[2] - 0.666_666_666_666_666_6).abs() < 1e-12);
        assert!((o[5] - 0.181_818_181_818_181_8).abs() < 1e-12);
        assert!((o[8] - 0.583_333_333_333_333_4).abs() < 1e-12);
        assert!((o[11] - 0.583_333_333_333_333_4).abs() < 1e-12);
    }

    #[test]
    fn stemming_and_multi() {
        let o = one(&cfg(&["rouge1"], true), "the runner ran quick", &["The runners were running quickly"]);
        assert_eq!((o[0], o[1]), (0.5, 0.4));
        let o = one(&cfg(&["rouge1", "rouge2"], false), "the dog ran", &["the cat sat", "a dog ran"]);
        assert!((o[2] - 2.0 / 3.0).abs() < 1e-15 && o[5] == 0.5);
    }

    #[test]
    fn cjk_is_zero_under_rouge_score_but_not_unicode() {
        let mut c = cfg(&["rouge1"], false);
        assert_eq!(one(&c, "我爱北京天安门", &["我爱北京天安门"])[2], 0.0);
        c.tokenizer = RougeTokenizer::Unicode;
        assert_eq!(one(&c, "我爱北京天安门", &["我爱北京天安门"])[2], 1.0);
    }

    #[test]
    fn type_names() {
        assert!(RougeType::from_name("rouge10").is_err());
        assert!(RougeType::from_name("rouge0").is_err());
        assert_eq!(RougeType::from_name("rouge9").unwrap(), RougeType::N(9));
    }
}
