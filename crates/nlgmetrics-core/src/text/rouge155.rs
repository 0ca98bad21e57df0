//! ROUGE as ROUGE-1.5.5.pl (Chin-Yew Lin, 2005) computes it, one evaluation at a time
//! (one peer summary against its model summaries), with the script's own text reading,
//! truncation, stemming, stopwords, multi-model formulas and per-evaluation rounding.
//!
//! Texts are read like the script's SPL format: one sentence per line (empty lines
//! skipped), ASCII-lowercased, then `-l`/`-b` truncation, then `s/-/ - /g`,
//! `s/[^A-Za-z0-9\-]/ /g`; a word is kept if it is not a stopword (`-s`) and starts with
//! `[a-z0-9$]`; words longer than 3 characters are stemmed with `-m` (WordNet-2.0
//! exception list first, then the Perl Porter stemmer).
//!
//! Scores per type (`ngramScore`, `skipBigramScore`, `lcs`, `wlcs`), multi-model
//! formula `-f A` (pool hits and counts over models) or `-f B` (the model with the best
//! recall, first on ties), `F = PR / ((1-α)P + αR)`. R, P and F are each rounded with
//! `sprintf("%7.5f")`, F from the rounded R and P, exactly as the script prints them.
//!
//! Segment statistics (f64): for each type, `[P, R, F]` (rounded).

use crate::error::{Error, Result};
use crate::parallel::map_rows;
use crate::stem::porter_rouge155;
use crate::text::rouge_lcs::{mark_lcs, mark_wlcs, SparseLcs};
use crate::tokenize::rouge::rouge155_words;
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum R155Type {
    /// ROUGE-N
    N(usize),
    /// ROUGE-L (summary-level union LCS)
    L,
    /// ROUGE-W with the configured weight
    W,
    /// ROUGE-S (skip bigrams, `skip` = max gap, None = unlimited), ROUGE-SU with unigrams
    S { skip: Option<usize>, unigrams: bool },
}

impl R155Type {
    /// Names: `rouge1`.., `rougeL`, `rougeW`, `rougeS4`, `rougeSU4`, `rougeS*`, `rougeSU*`.
    pub fn from_name(name: &str) -> Result<Self> {
        let bad = || {
            Error::InvalidOption(format!(
                "invalid ROUGE-1.5.5 type {name:?}; valid: rougeN (N >= 1), rougeL, rougeW, rougeS<d>, rougeSU<d>, rougeS*, rougeSU*"
            ))
        };
        let rest = name.strip_prefix("rouge").ok_or_else(bad)?;
        match rest {
            "L" => return Ok(R155Type::L),
            "W" => return Ok(R155Type::W),
            _ => {}
        }
        let (unigrams, gap) = if let Some(g) = rest.strip_prefix("SU") {
            (true, g)
        } else if let Some(g) = rest.strip_prefix('S') {
            (false, g)
        } else {
            let n: usize = rest.parse().map_err(|_| bad())?;
            if n == 0 || !rest.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            return Ok(R155Type::N(n));
        };
        if gap == "*" {
            return Ok(R155Type::S { skip: None, unigrams });
        }
        if gap.is_empty() || !gap.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        Ok(R155Type::S { skip: Some(gap.parse().map_err(|_| bad())?), unigrams })
    }

    fn needs_sentences(self) -> bool {
        matches!(self, R155Type::L | R155Type::W)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    None,
    /// `-l N`: the first N words of the peer and model texts
    Words(usize),
    /// `-b N`: the first N bytes
    Bytes(usize),
}

#[derive(Debug, Clone)]
pub struct R155Config {
    pub types: Vec<R155Type>,
    /// `-w`: the ROUGE-W weight (1.2 by convention)
    pub weight: f64,
    /// `-f B` when true, `-f A` otherwise
    pub best_model: bool,
    /// `-p`
    pub alpha: f64,
    /// `-m`
    pub stem: bool,
    /// `-s`: the stopword list, when stopwords are removed
    pub stopwords: Option<FxHashSet<Vec<u8>>>,
    /// WordNet-2.0 exceptions (inflected form -> base form), used with `-m`
    pub exceptions: FxHashMap<Vec<u8>, Vec<u8>>,
    pub limit: Limit,
    /// `-M`: stem the models only (ROUGE-S, the LCS tokens of ROUGE-L, the clipping
    /// counts of ROUGE-L and ROUGE-W; never ROUGE-N)
    pub stem_models_only: bool,
    /// `-t 1`/`-t 2`: rows are the raw `[model count, peer count, hit]` per type
    pub token_counts: bool,
}

impl R155Config {
    pub fn width(&self) -> usize {
        3 * self.types.len()
    }

    pub fn validate(&self) -> Result<()> {
        if self.types.is_empty() {
            return Err(Error::InvalidOption("at least one ROUGE type is needed".into()));
        }
        if !(self.weight > 0.0 && self.weight.is_finite()) {
            return Err(Error::InvalidOption(format!("ROUGE-W weight must be > 0, got {}", self.weight)));
        }
        if !(0.0..=1.0).contains(&self.alpha) {
            return Err(Error::InvalidOption(format!("alpha must be in [0, 1], got {}", self.alpha)));
        }
        if self.stem && self.stem_models_only {
            // The script clears -m after the first model it stems under -M, so later
            // evaluations lose stemming; that interplay is not reproduced.
            return Err(Error::InvalidOption("stem the models only (-M) or everything (-m), not both".into()));
        }
        if matches!(self.limit, Limit::Words(0) | Limit::Bytes(0)) {
            return Err(Error::InvalidOption("a length limit must be positive".into()));
        }
        Ok(())
    }
}

/// `sprintf("%7.5f", x)` read back as a number (C rounding of the exact binary value).
pub fn round5(x: f64) -> f64 {
    format!("{x:.5}").parse().expect("a formatted float parses")
}

/// Perl's `split(/\s+/, $s)`: a leading empty field when `s` starts with whitespace,
/// no trailing empty fields.
fn perl_split_ws(s: &[u8]) -> Vec<&[u8]> {
    let is_ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let mut out: Vec<&[u8]> = s.split(is_ws).collect();
    // split() gives empty pieces for each run; keep a leading one, drop the others.
    let lead = s.first().is_some_and(is_ws);
    let words: Vec<&[u8]> = out.drain(..).filter(|p| !p.is_empty()).collect();
    let mut fields: Vec<&[u8]> = Vec::new();
    // All-empty fields are all "trailing" and removed, the leading one included.
    if lead && !words.is_empty() {
        fields.push(&s[..0]);
    }
    fields.extend(words);
    fields
}

/// The non-empty lines of a text, ASCII-lowercased (`chomp`, `tr/A-Z/a-z/`).
fn sentences(text: &str) -> Vec<Vec<u8>> {
    text.split('\n').filter(|l| !l.is_empty()).map(|l| l.as_bytes().to_ascii_lowercase()).collect()
}

/// `readText`: the truncated text as one string.
fn read_text(sents: &[Vec<u8>], limit: Limit) -> Vec<u8> {
    let mut tmp: Vec<u8> = Vec::new();
    match limit {
        Limit::None => {
            for (i, s) in sents.iter().enumerate() {
                if i > 0 {
                    tmp.push(b' ');
                }
                tmp.extend_from_slice(s);
            }
        }
        Limit::Words(n) => {
            let mut len = 0;
            for s in sents {
                let toks = perl_split_ws(s);
                if len + toks.len() < n {
                    if len != 0 {
                        tmp.push(b' ');
                    }
                    tmp.extend_from_slice(s);
                    len += toks.len();
                } else {
                    if len > 0 {
                        tmp.push(b' ');
                    }
                    tmp.extend_from_slice(&toks[..n - len].join(&b' '));
                    break;
                }
            }
        }
        Limit::Bytes(n) => {
            let mut len = 0;
            for s in sents {
                if len + s.len() < n {
                    if len != 0 {
                        tmp.push(b' ');
                    }
                    tmp.extend_from_slice(s);
                    len += s.len();
                } else {
                    if len > 0 {
                        tmp.push(b' ');
                    }
                    tmp.extend_from_slice(&s[..n - len]);
                    break;
                }
            }
        }
    }
    tmp
}

/// `readText_LCS`: the truncated sentences. ⚠ With a byte limit the script never adds
/// to its running length, so every sentence shorter than the limit is kept whole and
/// the first longer one is cut to the limit; copied as is.
fn read_text_lcs(sents: &[Vec<u8>], limit: Limit) -> Vec<Vec<u8>> {
    match limit {
        Limit::None => sents.to_vec(),
        Limit::Words(n) => {
            let mut out = Vec::new();
            let mut len = 0;
            for s in sents {
                let toks = perl_split_ws(s);
                if len + toks.len() < n {
                    len += toks.len();
                    out.push(s.clone());
                } else {
                    out.push(toks[..n - len].join(&b' '));
                    break;
                }
            }
            out
        }
        Limit::Bytes(n) => {
            let mut out = Vec::new();
            for s in sents {
                if s.len() < n {
                    out.push(s.clone());
                } else {
                    out.push(s[..n].to_vec());
                    break;
                }
            }
            out
        }
    }
}

/// Interned tokens of one summary.
#[derive(Default)]
struct Summary {
    /// all tokens of `readText` (n-grams, skip-bigrams, unigram clipping budgets)
    tokens: Vec<u32>,
    /// per sentence tokens of `readText_LCS` (L, W)
    sents: Vec<Vec<u32>>,
}

#[derive(Default)]
struct Vocab {
    ids: FxHashMap<Vec<u8>, u32>,
}

impl Vocab {
    fn id(&mut self, w: &[u8]) -> u32 {
        if let Some(&i) = self.ids.get(w) {
            return i;
        }
        let i = self.ids.len() as u32;
        self.ids.insert(w.to_vec(), i);
        i
    }
}

/// `createNGram`'s word filter: stopwords, `^[a-z0-9$]`, then `MorphStem` for words
/// longer than 3 characters.
fn words_to_ids(cfg: &R155Config, stem: bool, text: &[u8], vocab: &mut Vocab, out: &mut Vec<u32>) {
    for w in rouge155_words(text) {
        if let Some(stop) = &cfg.stopwords {
            if stop.contains(w) {
                continue;
            }
        }
        if !matches!(w[0], b'a'..=b'z' | b'0'..=b'9' | b'$') {
            continue;
        }
        if stem && w.len() > 3 {
            if let Some(base) = cfg.exceptions.get(w) {
                out.push(vocab.id(base));
            } else {
                let s = porter_rouge155::stem(std::str::from_utf8(w).expect("ASCII word"));
                out.push(vocab.id(s.as_bytes()));
            }
        } else {
            out.push(vocab.id(w));
        }
    }
}

fn read_summary(cfg: &R155Config, stem: bool, text: &str, vocab: &mut Vocab, lcs: bool) -> Summary {
    let sents = sentences(text);
    let mut s = Summary::default();
    words_to_ids(cfg, stem, &read_text(&sents, cfg.limit), vocab, &mut s.tokens);
    if lcs {
        for sent in read_text_lcs(&sents, cfg.limit) {
            let mut ids = Vec::new();
            words_to_ids(cfg, stem, &sent, vocab, &mut ids);
            s.sents.push(ids);
        }
    }
    s
}

/// `createNGram`: counts of the n-grams (keyed by their id slices) and their number.
fn ngram_counts(tokens: &[u32], n: usize) -> (FxHashMap<&[u32], u32>, u64) {
    let mut g = FxHashMap::default();
    let mut count = 0u64;
    if tokens.len() >= n {
        for w in tokens.windows(n) {
            *g.entry(w).or_insert(0) += 1;
            count += 1;
        }
    }
    (g, count)
}

const UNIGRAM: u32 = u32::MAX;

/// `createSkipBigram`: pairs (i, j) with at most `skip` words between them; with
/// unigrams, the unigram of every token but the last (⚠ `$i < $#m_tokens`).
fn skip_bigrams(tokens: &[u32], skip: Option<usize>, unigrams: bool) -> (FxHashMap<(u32, u32), u32>, u64) {
    let mut g = FxHashMap::default();
    let mut count = 0u64;
    let n = tokens.len();
    for i in 0..n.saturating_sub(1) {
        if unigrams {
            *g.entry((tokens[i], UNIGRAM)).or_insert(0) += 1;
            count += 1;
        }
        let last = match skip {
            Some(d) => (i + d + 1).min(n - 1),
            None => n - 1,
        };
        for j in i + 1..=last {
            *g.entry((tokens[i], tokens[j])).or_insert(0) += 1;
            count += 1;
        }
    }
    (g, count)
}

fn clipped_hits<K: std::hash::Hash + Eq>(model: &FxHashMap<K, u32>, peer: &FxHashMap<K, u32>) -> u64 {
    model.iter().map(|(g, &c)| peer.get(g).map_or(0, |&p| p.min(c)) as u64).sum()
}

/// Totals of one evaluation: (hit, model count, peer count), f64 so that W fits.
#[derive(Default, Clone, Copy)]
struct Totals {
    hit: f64,
    model: f64,
    peer: f64,
}

/// Accumulate one model's result under `-f A` or `-f B` (`score` is what B compares).
fn combine(cfg: &R155Config, acc: &mut Totals, best: &mut f64, one: Totals, score: f64) {
    if cfg.best_model {
        if score > *best {
            *best = score;
            *acc = one;
        }
    } else {
        acc.hit += one.hit;
        acc.model += one.model;
        acc.peer += one.peer;
    }
}

/// The rounded (P, R, F) the script records for an evaluation.
fn finish(cfg: &R155Config, t: Totals, inverse_weight: Option<f64>) -> [f64; 3] {
    let ratio = |h: f64, c: f64| match inverse_weight {
        Some(w) => (h / c).powf(1.0 / w),
        None => h / c,
    };
    let r = if t.model != 0.0 { round5(ratio(t.hit, t.model)) } else { round5(0.0) };
    let p = if t.peer != 0.0 { round5(ratio(t.hit, t.peer)) } else { round5(0.0) };
    let a = cfg.alpha;
    let denom = (1.0 - a) * p + a * r;
    let f = if denom > 0.0 { round5((p * r) / denom) } else { round5(0.0) };
    [p, r, f]
}

/// `ngramScore`'s per-model score: the recall rounded with `%07.5f` (or 0).
fn rounded_recall(hit: u64, count: u64) -> f64 {
    if count != 0 {
        round5(hit as f64 / count as f64)
    } else {
        0.0
    }
}

/// Unigram budgets for the L/W clipping (`createNGram(..., 1)`).
fn unigram_counts(tokens: &[u32]) -> FxHashMap<u32, i64> {
    let mut c = FxHashMap::default();
    for &t in tokens {
        *c.entry(t).or_insert(0) += 1;
    }
    c
}

#[derive(Default)]
pub struct Scratch {
    lcs: SparseLcs,
    mask: Vec<bool>,
}

/// `lcs` (weight None) or `wlcs` of one model against the peer: (hit, base).
fn lcs_hits(model_sents: &[Vec<u32>], model_tokens: &[u32], peer: &Summary, weight: Option<f64>, s: &mut Scratch) -> (f64, f64) {
    let mut model_1 = unigram_counts(model_tokens);
    let mut peer_1 = unigram_counts(&peer.tokens);
    let f = |k: f64| match weight {
        Some(w) => k.powf(w),
        None => k,
    };
    let (mut hit, mut base) = (0.0, 0.0);
    for sent in model_sents {
        s.mask.clear();
        s.mask.resize(sent.len(), false);
        base += f(sent.len() as f64);
        for p in &peer.sents {
            match weight {
                Some(w) => mark_wlcs(sent, p, w, &mut s.mask),
                None => mark_lcs(sent, p, &mut s.mask, &mut s.lcs),
            }
        }
        let mut run = 0.0;
        for (j, &t) in sent.iter().enumerate() {
            if !s.mask[j] {
                continue;
            }
            let m = model_1.get(&t).copied().unwrap_or(0);
            let p = peer_1.get(&t).copied().unwrap_or(0);
            if m > 0 && p > 0 {
                match weight {
                    None => hit += 1.0,
                    Some(_) => {
                        // A run is flushed when the next mask bit is 0 or at the end of
                        // the sentence; a clipped-away masked word does not reset it.
                        run += 1.0;
                        if j + 1 < sent.len() && !s.mask[j + 1] {
                            hit += f(run);
                            run = 0.0;
                        } else if j + 1 == sent.len() {
                            hit += f(run);
                            run = 0.0;
                        }
                    }
                }
                *model_1.get_mut(&t).expect("present") -= 1;
                *peer_1.get_mut(&t).expect("present") -= 1;
            }
        }
    }
    (hit, base)
}

/// The models as each type reads them: under `-M` the stemmed reading where the script
/// stems models, the plain one elsewhere.
struct Models<'a> {
    plain: &'a [Summary],
    stemmed: &'a [Summary],
}

/// The evaluation's totals for one type after `-f A`/`-f B`, and the inverse weight of
/// ROUGE-W's ratios.
fn type_totals(cfg: &R155Config, t: R155Type, peer: &Summary, models: &Models, s: &mut Scratch) -> (Totals, Option<f64>) {
    let mut acc = Totals::default();
    let mut best = -1.0;
    match t {
        R155Type::N(n) => {
            let (pg, pc) = ngram_counts(&peer.tokens, n);
            for m in models.plain {
                let (mg, mc) = ngram_counts(&m.tokens, n);
                let hit = clipped_hits(&mg, &pg);
                let one = Totals { hit: hit as f64, model: mc as f64, peer: pc as f64 };
                combine(cfg, &mut acc, &mut best, one, rounded_recall(hit, mc));
            }
            (acc, None)
        }
        R155Type::S { skip, unigrams } => {
            let (pg, pc) = skip_bigrams(&peer.tokens, skip, unigrams);
            for m in models.stemmed {
                let (mg, mc) = skip_bigrams(&m.tokens, skip, unigrams);
                let hit = clipped_hits(&mg, &pg);
                let one = Totals { hit: hit as f64, model: mc as f64, peer: pc as f64 };
                combine(cfg, &mut acc, &mut best, one, rounded_recall(hit, mc));
            }
            (acc, None)
        }
        R155Type::L => {
            let peer_count = peer.tokens.len() as f64;
            for m in models.stemmed {
                let (hit, base) = lcs_hits(&m.sents, &m.tokens, peer, None, s);
                let score = if base > 0.0 { hit / base } else { 0.0 };
                combine(cfg, &mut acc, &mut best, Totals { hit, model: base, peer: peer_count }, score);
            }
            (acc, None)
        }
        R155Type::W => {
            let w = cfg.weight;
            let peer_count = (peer.tokens.len() as f64).powf(w);
            // ⚠ Under -M the script stems the clipping counts but not the LCS tokens.
            for (plain, stemmed) in models.plain.iter().zip(models.stemmed) {
                let (hit, base) = lcs_hits(&plain.sents, &stemmed.tokens, peer, Some(w), s);
                // The script dies on a model without words here (division by zero);
                // such a model scores 0.
                let score = if base > 0.0 { (hit / base).powf(1.0 / w) } else { 0.0 };
                combine(cfg, &mut acc, &mut best, Totals { hit, model: base.powf(w), peer: peer_count }, score);
            }
            (acc, Some(w))
        }
    }
}

/// Rounded `[P, R, F]` per type of one evaluation.
pub fn segment_stats<S: AsRef<str>>(cfg: &R155Config, peer: &str, models: &[S], s: &mut Scratch, out: &mut [f64]) -> Result<()> {
    if models.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    let lcs = cfg.types.iter().any(|t| t.needs_sentences());
    let mut vocab = Vocab::default();
    let p = read_summary(cfg, cfg.stem, peer, &mut vocab, lcs);
    let plain: Vec<Summary> = models.iter().map(|m| read_summary(cfg, cfg.stem, m.as_ref(), &mut vocab, lcs)).collect();
    let stemmed: Vec<Summary> = if cfg.stem_models_only {
        models.iter().map(|m| read_summary(cfg, true, m.as_ref(), &mut vocab, lcs)).collect()
    } else {
        Vec::new()
    };
    let ms = Models { plain: &plain, stemmed: if cfg.stem_models_only { &stemmed } else { &plain } };
    for (k, &t) in cfg.types.iter().enumerate() {
        let (tot, inverse_weight) = type_totals(cfg, t, &p, &ms, s);
        let row = if cfg.token_counts { [tot.model, tot.peer, tot.hit] } else { finish(cfg, tot, inverse_weight) };
        out[3 * k..3 * k + 3].copy_from_slice(&row);
    }
    Ok(())
}

pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(cfg: &R155Config, peers: &[H], models: &[Vec<R>], n_threads: usize) -> Result<Vec<f64>> {
    cfg.validate()?;
    if peers.len() != models.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: peers.len(), right: models.len() });
    }
    map_rows(peers.len(), cfg.width(), n_threads, Scratch::default, |s, i, row| {
        segment_stats(cfg, peers[i].as_ref(), &models[i], s, row).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            e => e,
        })
    })
}

/// Perl's `srand(seed)` / `rand()` (its own drand48 since Perl 5.20).
pub struct PerlRand(u64);

impl PerlRand {
    pub fn new(seed: u32) -> Self {
        PerlRand(0x330E + ((seed as u64) << 16))
    }

    pub fn next(&mut self) -> f64 {
        self.0 = (self.0.wrapping_mul(0x5_DEEC_E66D).wrapping_add(0xB)) & ((1u64 << 48) - 1);
        self.0 as f64 / (1u64 << 48) as f64
    }
}

/// What `computeAverages` prints for one type: `Average_X` and its confidence interval,
/// for X = R, P, F, from per-evaluation rows `[R, P, F]` in the script's instance order
/// (evaluation ids sorted as strings).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScriptAverage {
    pub average: [f64; 3],
    pub low: [f64; 3],
    pub high: [f64; 3],
}

pub fn script_average(rows: &[[f64; 3]], resamples: usize, confidence: f64) -> Result<ScriptAverage> {
    let n = rows.len();
    bootstrap_average(rows, resamples, confidence, |sum| if n > 0 { sum.map(|x| x / n as f64) } else { [0.0; 3] })
}

/// [`script_average`] under `-t 1`: rows are `[model count, peer count, hit]`, and each
/// resample is scored as one pooled evaluation, `R = ΣH/ΣM`, `P = ΣH/ΣP`,
/// `F = PR / ((1-α)P + αR)` (unrounded), before the mean and interval are taken.
pub fn script_average_counts(rows: &[[f64; 3]], resamples: usize, confidence: f64, alpha: f64) -> Result<ScriptAverage> {
    bootstrap_average(rows, resamples, confidence, |s| {
        let r = if s[0] > 0.0 { s[2] / s[0] } else { 0.0 };
        let p = if s[1] > 0.0 { s[2] / s[1] } else { 0.0 };
        let d = (1.0 - alpha) * p + alpha * r;
        [r, p, if d > 0.0 { (r * p) / d } else { 0.0 }]
    })
}

/// `computeAverages`' resampling: resample `i` seeds `srand(i)`, sums N drawn rows
/// (the first assigned, the others added), and `sample` turns the sum into [R, P, F].
fn bootstrap_average(rows: &[[f64; 3]], resamples: usize, confidence: f64, sample: impl Fn([f64; 3]) -> [f64; 3]) -> Result<ScriptAverage> {
    if resamples == 0 {
        return Err(Error::InvalidOption("the number of resamples must be positive".into()));
    }
    if !(0.0..=100.0).contains(&confidence) {
        return Err(Error::InvalidOption(format!("confidence must be in [0, 100], got {confidence}")));
    }
    let n = rows.len();
    let mut samples: [Vec<f64>; 3] = [Vec::with_capacity(resamples), Vec::with_capacity(resamples), Vec::with_capacity(resamples)];
    for i in 0..resamples {
        let mut rng = PerlRand::new(i as u32);
        let mut sum = [0.0f64; 3];
        for k in 0..n {
            let idx = (rng.next() * n as f64) as usize;
            let row = rows[idx.min(n - 1)];
            if k == 0 {
                sum = row;
            } else {
                for c in 0..3 {
                    sum[c] += row[c];
                }
            }
        }
        let one = sample(sum);
        for c in 0..3 {
            samples[c].push(one[c]);
        }
    }
    let r = resamples as f64;
    let delta = r * ((100.0 - confidence) / 2.0) / 100.0;
    let ci_ua = (r - delta - 1.0) as usize;
    let ci_la = delta as usize;
    let ci_r = r - delta - 1.0 - ci_ua as f64;
    let mut out = ScriptAverage { average: [0.0; 3], low: [0.0; 3], high: [0.0; 3] };
    for c in 0..3 {
        let v = &mut samples[c];
        v.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
        let mut total = 0.0;
        for x in v.iter() {
            total += x;
        }
        out.average[c] = round5(total / r);
        let at = |i: usize| v.get(i).copied().unwrap_or(0.0);
        out.low[c] = round5(at(ci_la) + (at(ci_la + 1) - at(ci_la)) * ci_r);
        out.high[c] = round5(at(ci_ua) + (at(ci_ua + 1) - at(ci_ua)) * ci_r);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(types: &[&str]) -> R155Config {
        R155Config {
            types: types.iter().map(|t| R155Type::from_name(t).unwrap()).collect(),
            weight: 1.2,
            best_model: false,
            alpha: 0.5,
            stem: false,
            stopwords: None,
            exceptions: FxHashMap::default(),
            limit: Limit::None,
            stem_models_only: false,
            token_counts: false,
        }
    }

    fn run(c: &R155Config, peer: &str, models: &[&str]) -> Vec<f64> {
        let mut out = vec![0.0; c.width()];
        segment_stats(c, peer, models, &mut Scratch::default(), &mut out).unwrap();
        out
    }

    #[test]
    fn worked_example_e1() {
        // reference-semantics §2.2: models/peer of e1 with -n 2 -w 1.2 -2 4 -u
        let c = cfg(&["rouge1", "rouge2", "rougeL", "rougeW", "rougeSU4"]);
        let o = run(
            &c,
            "The quick brown dog jumps on the log.\nIt is sunny today.",
            &["The quick brown fox jumps over the lazy dog.\nIt was sunny."],
        );
        assert_eq!(o[1], 0.66667);
        assert_eq!(o[4], 0.18182);
        assert_eq!(o[7], 0.58333);
        assert_eq!((o[9], o[10], o[11]), (0.45846, 0.31076, 0.37043));
        assert_eq!(o[13], 0.39286);
    }

    #[test]
    fn multi_model_formulas() {
        let mut c = cfg(&["rouge1", "rouge2", "rougeL"]);
        let models = ["the cat sat on the mat", "a dog ran"];
        let o = run(&c, "the dog ran", &models);
        assert_eq!(o, [0.5, 0.33333, 0.4, 0.25, 0.14286, 0.18182, 0.5, 0.33333, 0.4]);
        c.best_model = true;
        let o = run(&c, "the dog ran", &models);
        assert_eq!((o[1], o[4], o[7]), (0.66667, 0.5, 0.66667));
    }

    #[test]
    fn perl_split_keeps_a_leading_empty_field() {
        assert_eq!(perl_split_ws(b" a  b ").len(), 3);
        assert_eq!(perl_split_ws(b"a b").len(), 2);
        assert_eq!(perl_split_ws(b"   ").len(), 0);
    }

    #[test]
    fn names() {
        assert_eq!(R155Type::from_name("rougeSU4").unwrap(), R155Type::S { skip: Some(4), unigrams: true });
        assert_eq!(R155Type::from_name("rougeS*").unwrap(), R155Type::S { skip: None, unigrams: false });
        assert_eq!(R155Type::from_name("rouge12").unwrap(), R155Type::N(12));
        assert!(R155Type::from_name("rougeX").is_err());
        assert!(R155Type::from_name("rouge0").is_err());
    }
}
