//! METEOR 1.5 (Denkowski & Lavie, 2014), English, as the jar shipped with
//! pycocoevalcap computes it: normalization, the four-module aligner, function-word
//! weighted precision/recall, the fragmentation penalty, best-reference selection and
//! the corpus aggregate from summed statistics.
//!
//! Statistics row (u64, 24 columns): the 23 numbers of `MeteorStats.toString`
//! (`tstLen refLen tstFunc refFunc`, then per stage `tstContent refContent tstFunction
//! refFunction` for 4 stages, then `chunks tstWordMatches refWordMatches`) plus
//! `agg_chunks` = `chunks` unless the segment is a perfect match (every word matched in
//! one chunk), which is what `MeteorStats.addStats` adds to a corpus total.

pub mod aligner;
pub mod nltk;
pub mod normalize;
pub mod resources;
pub mod stemmer;

use crate::{parallel, Error, Result};
use aligner::{align, AlignerConfig, Module, WordCache, Words};
pub use resources::Resources;

pub const WIDTH: usize = 24;
pub const MAX_MODULES: usize = 4;
const CHUNKS: usize = 20;
const AGG_CHUNKS: usize = 23;

/// How text is prepared (`-norm`, `-lower`, `-noPunct`, or nothing).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Normalization {
    None,
    LowerOnly,
    KeepPunct,
    NoPunct,
}

impl Normalization {
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name {
            "none" => Normalization::None,
            "lower" => Normalization::LowerOnly,
            "norm" => Normalization::KeepPunct,
            "nopunct" => Normalization::NoPunct,
            _ => return Err(Error::InvalidOption(format!("unknown METEOR normalization {name:?}; known: none, lower, norm, nopunct"))),
        })
    }
}

/// Scoring parameters: alpha, beta, gamma, delta and one weight per module.
#[derive(Clone, Debug)]
pub struct Params {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
    pub delta: f64,
    pub weights: Vec<f64>,
}

pub struct MeteorConfig<'a> {
    pub modules: Vec<Module>,
    pub params: Params,
    pub normalization: Normalization,
    pub resources: &'a Resources,
}

impl Module {
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name {
            "exact" => Module::Exact,
            "stem" => Module::Stem,
            "synonym" => Module::Synonym,
            "paraphrase" => Module::Paraphrase,
            _ => return Err(Error::InvalidOption(format!("unknown METEOR module {name:?}"))),
        })
    }
}

impl<'a> MeteorConfig<'a> {
    pub fn validate(&self) -> Result<()> {
        if self.modules.is_empty() || self.modules.len() > MAX_MODULES {
            return Err(Error::InvalidOption(format!("METEOR needs 1 to {MAX_MODULES} modules")));
        }
        if self.params.weights.len() != self.modules.len() {
            return Err(Error::InvalidOption(format!(
                "METEOR needs one weight per module ({} modules, {} weights)",
                self.modules.len(),
                self.params.weights.len()
            )));
        }
        if self.modules.contains(&Module::Paraphrase) && self.resources.paraphrases.is_none() {
            return Err(Error::InvalidOption("the paraphrase module needs the paraphrase table".into()));
        }
        let p = &self.params;
        if ![p.alpha, p.beta, p.gamma, p.delta].iter().chain(&p.weights).all(|x| x.is_finite()) {
            return Err(Error::InvalidOption("METEOR parameters must be finite".into()));
        }
        Ok(())
    }

    /// The text METEOR aligns (normalized and/or lowercased as configured).
    pub fn prepare(&self, s: &str) -> String {
        match self.normalization {
            Normalization::None => s.to_string(),
            Normalization::LowerOnly => normalize::lowercase(s),
            Normalization::KeepPunct => normalize::lowercase(&normalize::normalize_en(s, &self.resources.prefixes, true)),
            Normalization::NoPunct => normalize::lowercase(&normalize::normalize_en(s, &self.resources.prefixes, false)),
        }
    }
}

fn words<'w>(acfg: &AlignerConfig<'_>, text: &'w str, cache: &mut WordCache) -> Words<'w> {
    Words::new(acfg, normalize::java_tokens(text).collect(), cache)
}

/// Statistics of one (prepared) hypothesis against one (prepared) reference.
pub fn pair_stats(acfg: &AlignerConfig<'_>, w1: &Words<'_>, w2: &Words<'_>) -> [u64; WIDTH] {
    let a = align(acfg, w1, w2);
    let mut row = [0u64; WIDTH];
    row[0] = w1.len() as u64;
    row[1] = w2.len() as u64;
    row[2] = a.test_function_words as u64;
    row[3] = a.ref_function_words as u64;
    for s in 0..acfg.modules.len() {
        row[4 + 4 * s] = a.test_content[s] as u64;
        row[5 + 4 * s] = a.ref_content[s] as u64;
        row[6 + 4 * s] = a.test_function[s] as u64;
        row[7 + 4 * s] = a.ref_function[s] as u64;
    }
    row[CHUNKS] = a.chunks as u64;
    row[21] = a.test_matches as u64;
    row[22] = a.ref_matches as u64;
    row[AGG_CHUNKS] = if is_perfect(&row, a.chunks as f64) { 0 } else { a.chunks as u64 };
    row
}

fn totals(row: &[u64]) -> (f64, f64) {
    let mut t = 0.0;
    let mut r = 0.0;
    for s in 0..MAX_MODULES {
        t += row[4 + 4 * s] as f64 + row[6 + 4 * s] as f64;
        r += row[5 + 4 * s] as f64 + row[7 + 4 * s] as f64;
    }
    (t, r)
}

fn is_perfect(row: &[u64], chunks: f64) -> bool {
    let (t, r) = totals(row);
    t == row[0] as f64 && r == row[1] as f64 && chunks == 1.0
}

/// Statistics of a hypothesis against its references: those of the reference with the
/// highest segment score (the first one on ties).
pub fn segment_stats(cfg: &MeteorConfig<'_>, hyp: &str, refs: &[String], cache: &mut WordCache) -> [u64; WIDTH] {
    let acfg = AlignerConfig::new(&cfg.modules, cfg.resources);
    let hyp = cfg.prepare(hyp);
    let w1 = words(&acfg, &hyp, cache);
    let mut best = [0u64; WIDTH];
    let mut best_score = -1.0;
    for r in refs {
        let r = cfg.prepare(r);
        let w2 = words(&acfg, &r, cache);
        let row = pair_stats(&acfg, &w1, &w2);
        let s = score(&cfg.params, &row).score;
        if s > best_score {
            best_score = s;
            best = row;
        }
    }
    best
}

/// Per-segment statistics, row-major (n × 24).
pub fn batch_stats(cfg: &MeteorConfig<'_>, hyps: &[String], refs: &[Vec<String>], n_threads: usize) -> Result<Vec<u64>> {
    cfg.validate()?;
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions vs references".into(), left: hyps.len(), right: refs.len() });
    }
    if let Some(index) = refs.iter().position(|r| r.is_empty()) {
        return Err(Error::MissingReference { index });
    }
    parallel::map_rows(hyps.len(), WIDTH, n_threads, WordCache::default, |cache, i, row: &mut [u64]| {
        row.copy_from_slice(&segment_stats(cfg, &hyps[i], &refs[i], cache));
        Ok::<(), Error>(())
    })
}

/// Statistics of every hypothesis against every reference alone, row-major (n·m × 24).
pub fn pairwise_stats(cfg: &MeteorConfig<'_>, cands: &[String], refs: &[String], n_threads: usize) -> Result<Vec<u64>> {
    cfg.validate()?;
    let acfg = AlignerConfig::new(&cfg.modules, cfg.resources);
    let c: Vec<String> = cands.iter().map(|s| cfg.prepare(s)).collect();
    let r: Vec<String> = refs.iter().map(|s| cfg.prepare(s)).collect();
    let m = r.len();
    // Word data is per worker (not shared across threads), so each worker prepares
    // the sentences it meets.
    parallel::map_rows(c.len() * m, WIDTH, n_threads, WordCache::default, |cache, k, row: &mut [u64]| {
        let cw = words(&acfg, &c[k / m], cache);
        let rw = words(&acfg, &r[k % m], cache);
        row.copy_from_slice(&pair_stats(&acfg, &cw, &rw));
        Ok::<(), Error>(())
    })
}

#[derive(Clone, Copy, Debug, Default)]
pub struct MeteorScore {
    pub score: f64,
    pub precision: f64,
    pub recall: f64,
    pub fmean: f64,
    pub frag_penalty: f64,
}

/// `MeteorScorer.computeMetrics` on a (summed) statistics row; the chunk count used is
/// `agg_chunks` (equal to `chunks` for a single non-perfect segment, and giving the
/// same score for a perfect one).
pub fn score(p: &Params, row: &[u64]) -> MeteorScore {
    let f = |i: usize| row[i] as f64;
    let (delta, alpha) = (p.delta, p.alpha);
    let t_len = f(0);
    let r_len = f(1);
    let t_fw = f(2);
    let r_fw = f(3);
    let t_wlen = (delta * (t_len - t_fw)) + ((1.0 - delta) * t_fw);
    let r_wlen = (delta * (r_len - r_fw)) + ((1.0 - delta) * r_fw);
    let mut t_wm = 0.0;
    let mut r_wm = 0.0;
    for (i, w) in p.weights.iter().enumerate() {
        t_wm += f(4 + 4 * i) * w * delta;
    }
    for (i, w) in p.weights.iter().enumerate() {
        r_wm += f(5 + 4 * i) * w * delta;
    }
    for (i, w) in p.weights.iter().enumerate() {
        t_wm += f(6 + 4 * i) * w * (1.0 - delta);
    }
    for (i, w) in p.weights.iter().enumerate() {
        r_wm += f(7 + 4 * i) * w * (1.0 - delta);
    }
    let precision = t_wm / t_wlen;
    let recall = r_wm / r_wlen;
    let fmean = 1.0 / (((1.0 - alpha) / precision) + (alpha / recall));
    let chunks = f(AGG_CHUNKS);
    let frag = if is_perfect(row, chunks) { 0.0 } else { chunks / ((f(21) + f(22)) / 2.0) };
    let frag_penalty = p.gamma * frag.powf(p.beta);
    let s = fmean * (1.0 - frag_penalty);
    let score = if s.is_nan() || s <= 0.0 { 0.0 } else { s };
    MeteorScore { score, precision, recall, fmean, frag_penalty }
}

/// Segment scores of every row of a statistics matrix.
pub fn scores(p: &Params, rows: &[u64]) -> Vec<f64> {
    rows.chunks(WIDTH).map(|r| score(p, r).score).collect()
}

/// Parameters and module weights of a METEOR 1.5 task for English
/// (`Constants.PARAM_*` / `WEIGHT_*`), and the task's module list.
pub fn task_en(task: &str) -> Result<(Vec<Module>, Params)> {
    use Module::*;
    let all = vec![Exact, Stem, Synonym, Paraphrase];
    let (modules, a, w): (Vec<Module>, [f64; 4], Vec<f64>) = match task {
        "rank" | "default" => (all, [0.85, 0.20, 0.60, 0.75], vec![1.0, 0.6, 0.8, 0.6]),
        "adq" => (all, [0.75, 1.40, 0.45, 0.70], vec![1.0, 1.0, 0.6, 0.8]),
        "hter" => (all, [0.40, 1.50, 0.35, 0.55], vec![1.0, 0.2, 0.6, 0.8]),
        "li" => (all, [0.75, 1.40, 0.70, 0.50], vec![1.0, 0.5, 0.5, 0.5]),
        "tune" => (all, [0.5, 1.0, 0.5, 0.5], vec![1.0, 0.5, 0.5, 0.5]),
        "universal" => (vec![Exact, Paraphrase], [0.70, 1.40, 0.30, 0.70], vec![1.0, 0.6]),
        "util" => {
            return Err(Error::InvalidOption(
                "METEOR task 'util' is character-based and not supported; use rank, adq, hter, li, tune or universal".into(),
            ))
        }
        _ => return Err(Error::InvalidOption(format!("unknown METEOR task {task:?}"))),
    };
    Ok((modules, Params { alpha: a[0], beta: a[1], gamma: a[2], delta: a[3], weights: w }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_from_the_spec() {
        // "a man riding a horse" vs "a man is riding a horse" (exact matches only).
        let (_, p) = task_en("rank").unwrap();
        let mut row = [0u64; WIDTH];
        row[0] = 5;
        row[1] = 6;
        row[2] = 2;
        row[3] = 3;
        row[4] = 3;
        row[5] = 3;
        row[6] = 2;
        row[7] = 2;
        row[20] = 2;
        row[21] = 5;
        row[22] = 5;
        row[23] = 2;
        assert_eq!(score(&p, &row).score, 0.4645695216158345);
    }
}
