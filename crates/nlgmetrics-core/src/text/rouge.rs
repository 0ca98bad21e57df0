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
use crate::text::rouge_lcs::{lcs_len, mark_lcs};
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

/// One text as interned token ids: all tokens and, when `rougeLsum` is asked for,
/// the tokens of each non-empty line.
#[derive(Default, Clone)]
pub struct Doc {
    pub tokens: Vec<u32>,
    pub sents: Vec<Vec<u32>>,
}

/// Token interning with owned keys (one per worker or per batch).
#[derive(Default)]
pub struct Vocab {
    ids: FxHashMap<String, u32>,
}

impl Vocab {
    pub fn clear(&mut self) {
        self.ids.clear();
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn id(&mut self, tok: &str) -> u32 {
        if let Some(&i) = self.ids.get(tok) {
            return i;
        }
        let i = self.ids.len() as u32;
        self.ids.insert(tok.to_string(), i);
        i
    }
}

/// Tokenize a text into a [`Doc`]. Lines are tokenized separately and concatenated:
/// `\n` separates tokens in both tokenizers, so this equals tokenizing the whole text.
pub fn make_doc(cfg: &RougeConfig, text: &str, vocab: &mut Vocab, buf: &mut Tokens, doc: &mut Doc) {
    doc.tokens.clear();
    doc.sents.clear();
    if !cfg.needs_sentences() {
        buf.clear();
        cfg.tokenizer.tokens_into(text, cfg.stemmer, buf);
        doc.tokens.extend(buf.iter().map(|t| vocab.id(t)));
        return;
    }
    for line in text.split('\n') {
        buf.clear();
        cfg.tokenizer.tokens_into(line, cfg.stemmer, buf);
        let ids: Vec<u32> = buf.iter().map(|t| vocab.id(t)).collect();
        doc.tokens.extend_from_slice(&ids);
        if !line.is_empty() {
            doc.sents.push(ids);
        }
    }
}

/// Reusable buffers.
#[derive(Default)]
pub struct Scratch {
    row: Vec<u32>,
    table: Vec<u32>,
    mask: Vec<bool>,
    counts: FxHashMap<u32, (u32, u32)>,
    vocab: Vocab,
    buf: Tokens,
    docs: Vec<Doc>,
}

fn score_ngrams(target: &[u32], pred: &[u32], n: usize) -> Prf {
    // One table: (target count, prediction count) of every target n-gram; prediction
    // n-grams absent from the target cannot overlap and are not stored.
    let mut c: FxHashMap<&[u32], (u32, u32)> = FxHashMap::default();
    if target.len() >= n {
        for w in target.windows(n) {
            c.entry(w).or_insert((0, 0)).0 += 1;
        }
    }
    if pred.len() >= n {
        for w in pred.windows(n) {
            if let Some(e) = c.get_mut(w) {
                e.1 += 1;
            }
        }
    }
    let overlap: u64 = c.values().map(|&(t, p)| t.min(p) as u64).sum();
    let t_total = (target.len() + 1).saturating_sub(n);
    let p_total = (pred.len() + 1).saturating_sub(n);
    prf(overlap as f64 / p_total.max(1) as f64, overlap as f64 / t_total.max(1) as f64)
}

fn score_lcs(target: &[u32], pred: &[u32], s: &mut Scratch) -> Prf {
    if target.is_empty() || pred.is_empty() {
        return Prf::default();
    }
    let lcs = lcs_len(target, pred, &mut s.row) as f64;
    prf(lcs / pred.len() as f64, lcs / target.len() as f64)
}

fn score_lsum(target: &[Vec<u32>], pred: &[Vec<u32>], s: &mut Scratch) -> Prf {
    if target.is_empty() || pred.is_empty() {
        return Prf::default();
    }
    let m: usize = target.iter().map(Vec::len).sum();
    let n: usize = pred.iter().map(Vec::len).sum();
    if m == 0 || n == 0 {
        return Prf::default();
    }
    // (reference budget, candidate budget) per token
    s.counts.clear();
    for t in target.iter().flatten() {
        s.counts.entry(*t).or_insert((0, 0)).0 += 1;
    }
    for t in pred.iter().flatten() {
        s.counts.entry(*t).or_insert((0, 0)).1 += 1;
    }
    let mut hits = 0u64;
    for r in target {
        s.mask.clear();
        s.mask.resize(r.len(), false);
        for c in pred {
            mark_lcs(r, c, &mut s.mask, &mut s.table);
        }
        for (k, &t) in r.iter().enumerate() {
            if s.mask[k] {
                let e = s.counts.get_mut(&t).expect("token counted");
                if e.0 > 0 && e.1 > 0 {
                    hits += 1;
                    e.0 -= 1;
                    e.1 -= 1;
                }
            }
        }
    }
    prf(hits as f64 / n as f64, hits as f64 / m as f64)
}

/// `RougeScorer.score(target, prediction)` for one type.
pub fn score_type(t: RougeType, target: &Doc, pred: &Doc, s: &mut Scratch) -> Prf {
    match t {
        RougeType::N(n) => score_ngrams(&target.tokens, &pred.tokens, n),
        RougeType::L => score_lcs(&target.tokens, &pred.tokens, s),
        RougeType::Lsum => score_lsum(&target.sents, &pred.sents, s),
    }
}

/// `score_multi`: per type, the target with the largest F (first on ties).
pub fn segment_stats<S: AsRef<str>>(cfg: &RougeConfig, pred: &str, targets: &[S], s: &mut Scratch, out: &mut [f64]) -> Result<()> {
    if targets.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    // The vocabulary persists across the segments of a worker's chunk: ids only need to
    // be consistent within a pair, and reusing it saves an allocation per token.
    if s.vocab.len() > 1 << 20 {
        s.vocab.clear();
    }
    let mut docs = std::mem::take(&mut s.docs);
    docs.resize_with(targets.len() + 1, Doc::default);
    make_doc(cfg, pred, &mut s.vocab, &mut s.buf, &mut docs[0]);
    for (k, t) in targets.iter().enumerate() {
        make_doc(cfg, t.as_ref(), &mut s.vocab, &mut s.buf, &mut docs[k + 1]);
    }
    for (ti, &t) in cfg.types.iter().enumerate() {
        let mut best: Option<Prf> = None;
        for k in 0..targets.len() {
            let sc = score_type(t, &docs[k + 1], &docs[0], s);
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

/// Statistics of a batch, row-major `n × 3T`.
pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(cfg: &RougeConfig, preds: &[H], refs: &[Vec<R>], n_threads: usize) -> Result<Vec<f64>> {
    cfg.validate()?;
    if preds.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: preds.len(), right: refs.len() });
    }
    map_rows(preds.len(), cfg.width(), n_threads, Scratch::default, |s, i, row| {
        segment_stats(cfg, preds[i].as_ref(), &refs[i], s, row).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            e => e,
        })
    })
}

/// F of `cfg.types[0]` for every candidate against every reference: `out[i*m + j]`.
pub fn pairwise<S: AsRef<str> + Sync>(cfg: &RougeConfig, cands: &[S], refs: &[S], n_threads: usize) -> Result<Vec<f64>> {
    cfg.validate()?;
    let mut vocab = Vocab::default();
    let mut buf = Tokens::default();
    let mut doc_of = |x: &S| {
        let mut d = Doc::default();
        make_doc(cfg, x.as_ref(), &mut vocab, &mut buf, &mut d);
        d
    };
    let cd: Vec<Doc> = cands.iter().map(&mut doc_of).collect();
    let rd: Vec<Doc> = refs.iter().map(&mut doc_of).collect();
    let t = cfg.types[0];
    map_rows(cands.len(), refs.len(), n_threads, Scratch::default, |s, i, row| {
        for (j, out) in row.iter_mut().enumerate() {
            *out = score_type(t, &rd[j], &cd[i], s).fmeasure;
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
