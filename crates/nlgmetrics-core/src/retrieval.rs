//! Ranked-retrieval measures per query, as trec_eval 9 computes them (and pytrec_eval,
//! which runs trec_eval's own code): `map`, `recip_rank`, `ndcg`, `Rprec`, and at
//! cutoffs `P`, `recall`, `success`, `map_cut`, `ndcg_cut`, plus the counts `num_ret`,
//! `num_rel` and `num_rel_ret`.
//!
//! trec_eval's semantics, reproduced on purpose:
//! - scores are rounded to single precision first where trec_eval 9 keeps them in a C
//!   `float` (`TEXT_RESULTS.sim`; pytrec_eval too): scores equal as floats tie;
//! - a run's documents are ranked by score, descending; equal scores by document id in
//!   *descending* byte order (`comp_sim_docno` compares `strcmp(p2, p1)`); the rank
//!   column of a run file plays no part;
//! - a retrieved document absent from the judgments is "not in the pool" (relevance -1),
//!   one judged with a negative value is "unjudged in the pool" (-2): neither is relevant,
//!   neither adds gain, neither counts in `num_rel`;
//! - `num_rel` counts judged documents with relevance `>= relevance_level`; nDCG ignores
//!   the level and uses each positive relevance value as the gain, `gain / log2(rank + 1)`;
//! - with `judged_only` (trec_eval `-J`), documents without a non-negative judgment are
//!   dropped from the ranking before anything is measured (ranks close up);
//! - every float is summed in rank order from `0.0` and divided as trec_eval divides, so
//!   the values are the same doubles.

use crate::error::{Error, Result};
use crate::parallel;
use std::cmp::Ordering;
use rustc_hash::{FxHashMap, FxHashSet};

/// A retrieved document that has no judgment (trec_eval's `RELVALUE_NONPOOL`).
pub const NOT_IN_POOL: i64 = -1;
/// A retrieved document judged with a negative value (trec_eval's `RELVALUE_UNJUDGED`).
pub const UNJUDGED_IN_POOL: i64 = -2;

/// One per-query value; the cutoff variants carry their `k` (>= 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Map,
    RecipRank,
    Ndcg,
    Rprec,
    Precision(usize),
    Recall(usize),
    Success(usize),
    MapCut(usize),
    NdcgCut(usize),
}

impl Measure {
    /// From a kind name (`map`, `recip_rank`, `ndcg`, `Rprec`, `P`, `recall`, `success`,
    /// `map_cut`, `ndcg_cut`) and a cutoff (ignored by the measures without one).
    pub fn from_parts(kind: &str, k: usize) -> Result<Measure> {
        let cut = |m: fn(usize) -> Measure| {
            if k == 0 {
                Err(Error::InvalidOption(format!("{kind}: cutoffs must be positive")))
            } else {
                Ok(m(k))
            }
        };
        match kind {
            "map" => Ok(Measure::Map),
            "recip_rank" => Ok(Measure::RecipRank),
            "ndcg" => Ok(Measure::Ndcg),
            "Rprec" => Ok(Measure::Rprec),
            "P" => cut(Measure::Precision),
            "recall" => cut(Measure::Recall),
            "success" => cut(Measure::Success),
            "map_cut" => cut(Measure::MapCut),
            "ndcg_cut" => cut(Measure::NdcgCut),
            _ => Err(Error::InvalidOption(format!("unknown retrieval measure {kind:?}"))),
        }
    }
}

/// How documents are judged relevant and which are ranked.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Relevance values `>=` this are relevant (trec_eval `-l`, default 1).
    pub relevance_level: i64,
    /// Drop retrieved documents without a non-negative judgment (trec_eval `-J`).
    pub judged_only: bool,
    /// Round scores to `f32` before ranking, as trec_eval 9 and pytrec_eval store them
    /// (trec_eval 10 keeps doubles).
    pub single_precision: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { relevance_level: 1, judged_only: false, single_precision: true }
    }
}

/// One query's ranking reduced to what every measure reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    /// Relevance of each ranked document, best first (`NOT_IN_POOL` / `UNJUDGED_IN_POOL`
    /// for documents without a usable judgment).
    pub rels: Vec<i64>,
    /// Judged documents with relevance `>= relevance_level`, retrieved or not.
    pub num_rel: u64,
    /// Of those, the retrieved ones.
    pub num_rel_ret: u64,
    /// The positive relevance values of the judgments, highest first (the ideal ranking's
    /// gains, one entry per judged document).
    pub ideal: Vec<i64>,
}

/// Rank one query's run against its judgments (`judged`: document id and relevance).
pub fn rank(docs: &[&str], scores: &[f64], judged: &[(&str, i64)], config: &Config) -> Result<Ranked> {
    if docs.len() != scores.len() {
        return Err(Error::LengthMismatch { what: "run documents and scores".into(), left: docs.len(), right: scores.len() });
    }
    let mut judgments: FxHashMap<&str, i64> = FxHashMap::default();
    judgments.reserve(judged.len());
    for &(doc, rel) in judged {
        if judgments.insert(doc, rel).is_some() {
            return Err(Error::InvalidInput(format!("document {doc:?} is judged twice")));
        }
    }
    if let Some(d) = docs.iter().chain(judged.iter().map(|(d, _)| d)).find(|d| d.contains('\0')) {
        return Err(Error::InvalidInput(format!("document id {d:?} holds a NUL character (trec_eval would cut it there)")));
    }
    if let Some(i) = scores.iter().position(|s| s.is_nan()) {
        return Err(Error::InvalidInput(format!("document {:?} has a NaN score (no rank)", docs[i])));
    }
    let rounded: Vec<f64>;
    let scores = if config.single_precision {
        rounded = scores.iter().map(|&s| s as f32 as f64).collect();
        &rounded[..]
    } else {
        scores
    };
    let mut order: Vec<usize> = (0..docs.len()).collect();
    // score descending, then document id descending (trec_eval's comp_sim_docno)
    order.sort_unstable_by(|&a, &b| match scores[b].partial_cmp(&scores[a]) {
        Some(Ordering::Equal) | None => docs[b].as_bytes().cmp(docs[a].as_bytes()),
        Some(o) => o,
    });
    if docs.len() > 1 {
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        seen.reserve(docs.len());
        if let Some(d) = docs.iter().find(|d| !seen.insert(**d)) {
            return Err(Error::InvalidInput(format!("document {d:?} is retrieved twice")));
        }
    }
    let level = config.relevance_level;
    let mut rels = Vec::with_capacity(docs.len());
    let mut num_rel_ret = 0u64;
    for &i in &order {
        let rel = match judgments.get(docs[i]) {
            None => NOT_IN_POOL,
            Some(&r) if r < 0 => UNJUDGED_IN_POOL,
            Some(&r) => r,
        };
        if config.judged_only && rel < 0 {
            continue;
        }
        if rel >= 0 && rel >= level {
            num_rel_ret += 1;
        }
        rels.push(rel);
    }
    let num_rel = judged.iter().filter(|&&(_, r)| r >= 0 && r >= level).count() as u64;
    let mut ideal: Vec<i64> = judged.iter().map(|&(_, r)| r).filter(|&r| r > 0).collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    Ok(Ranked { rels, num_rel, num_rel_ret, ideal })
}

/// Running sums over the first `n` positions, kept for every prefix length.
struct Prefixes {
    relevant: Vec<u64>,
    precision_sum: Vec<f64>,
    dcg: Vec<f64>,
}

fn prefixes(rels: &[i64], level: i64) -> Prefixes {
    let n = rels.len();
    let mut p = Prefixes { relevant: Vec::with_capacity(n + 1), precision_sum: Vec::with_capacity(n + 1), dcg: Vec::with_capacity(n + 1) };
    let (mut found, mut sum, mut dcg) = (0u64, 0.0f64, 0.0f64);
    p.relevant.push(0);
    p.precision_sum.push(0.0);
    p.dcg.push(0.0);
    for (i, &rel) in rels.iter().enumerate() {
        if rel >= level {
            found += 1;
            sum += found as f64 / (i + 1) as f64;
        }
        if rel > 0 {
            dcg += rel as f64 / ((i + 2) as f64).log2();
        }
        p.relevant.push(found);
        p.precision_sum.push(sum);
        p.dcg.push(dcg);
    }
    p
}

/// The ideal DCG over the first `k` positions (all of them when `k` is past the end).
fn ideal_dcg(ideal: &[i64], k: usize) -> f64 {
    let mut sum = 0.0f64;
    for (i, &g) in ideal.iter().take(k).enumerate() {
        sum += g as f64 / ((i + 2) as f64).log2();
    }
    sum
}

/// Every measure of `measures` for one ranked query, in that order.
pub fn measures_of(r: &Ranked, measures: &[Measure], config: &Config) -> Vec<f64> {
    let level = config.relevance_level;
    let n = r.rels.len();
    let p = prefixes(&r.rels, level);
    let num_rel = r.num_rel as f64;
    let at = |k: usize| k.min(n);
    let ndcg = |k: usize| {
        let ideal = ideal_dcg(&r.ideal, k);
        if ideal > 0.0 {
            p.dcg[at(k)] / ideal
        } else {
            p.dcg[at(k)]
        }
    };
    measures
        .iter()
        .map(|&m| match m {
            Measure::Map => {
                if p.relevant[n] > 0 {
                    p.precision_sum[n] / num_rel
                } else {
                    0.0
                }
            }
            Measure::RecipRank => match r.rels.iter().position(|&rel| rel >= level) {
                Some(i) => 1.0 / (i + 1) as f64,
                None => 0.0,
            },
            Measure::Ndcg => ndcg(usize::MAX),
            Measure::Rprec => {
                if r.num_rel > 0 {
                    p.relevant[at(r.num_rel as usize)] as f64 / num_rel
                } else {
                    0.0
                }
            }
            Measure::Precision(k) => p.relevant[at(k)] as f64 / k as f64,
            Measure::Recall(k) => {
                if r.num_rel > 0 {
                    p.relevant[at(k)] as f64 / num_rel
                } else {
                    0.0
                }
            }
            Measure::Success(k) => {
                if p.relevant[at(k)] > 0 {
                    1.0
                } else {
                    0.0
                }
            }
            Measure::MapCut(k) => {
                if r.num_rel > 0 {
                    p.precision_sum[at(k)] / num_rel
                } else {
                    0.0
                }
            }
            Measure::NdcgCut(k) => ndcg(k),
        })
        .collect()
}

/// The columns of [`batch`]'s count table.
pub const COUNT_FIELDS: [&str; 3] = ["num_ret", "num_rel", "num_rel_ret"];

/// Many queries at once. Query `q`'s run is `run_docs[run_starts[q]..run_starts[q + 1]]`
/// (with the matching scores), its judgments `judged_docs[judged_starts[q]..judged_starts[q + 1]]`.
/// Returns the counts (`COUNT_FIELDS` per query, row-major) and the measures (one row of
/// `measures.len()` per query). An error names the query by `qids[q]`.
#[allow(clippy::too_many_arguments)]
pub fn batch(
    qids: &[&str],
    run_docs: &[&str],
    run_scores: &[f64],
    run_starts: &[usize],
    judged_docs: &[&str],
    judged_rels: &[i64],
    judged_starts: &[usize],
    measures: &[Measure],
    config: &Config,
    n_threads: usize,
) -> Result<(Vec<u64>, Vec<f64>)> {
    let nq = qids.len();
    let starts_ok = |s: &[usize], len: usize| s.len() == nq + 1 && s[0] == 0 && s[nq] == len && s.windows(2).all(|w| w[0] <= w[1]);
    if run_docs.len() != run_scores.len() || judged_docs.len() != judged_rels.len() || !starts_ok(run_starts, run_docs.len()) || !starts_ok(judged_starts, judged_docs.len()) {
        return Err(Error::InvalidInput("retrieval: inconsistent query offsets".into()));
    }
    let width = measures.len();
    let per_query = parallel::map_range(nq, n_threads, || (), |_, q| -> Result<(Vec<u64>, Vec<f64>)> {
        let (a, b) = (run_starts[q], run_starts[q + 1]);
        let (c, d) = (judged_starts[q], judged_starts[q + 1]);
        let judged: Vec<(&str, i64)> = judged_docs[c..d].iter().copied().zip(judged_rels[c..d].iter().copied()).collect();
        let ranked = rank(&run_docs[a..b], &run_scores[a..b], &judged, config)
            .map_err(|e| Error::InvalidInput(format!("query {:?}: {e}", qids[q])))?;
        let counts = vec![ranked.rels.len() as u64, ranked.num_rel, ranked.num_rel_ret];
        Ok((counts, measures_of(&ranked, measures, config)))
    });
    let mut counts = Vec::with_capacity(nq * 3);
    let mut values = Vec::with_capacity(nq * width);
    for row in per_query {
        let (c, v) = row?;
        counts.extend(c);
        values.extend(v);
    }
    Ok((counts, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(docs: &[&str], scores: &[f64], judged: &[(&str, i64)]) -> Ranked {
        rank(docs, scores, judged, &Config::default()).unwrap()
    }

    #[test]
    fn ties_break_by_descending_document_id() {
        // b > a, so b ranks first at equal score; c (higher score) before both
        let r = ranked(&["a", "b", "c"], &[1.0, 1.0, 2.0], &[("a", 1), ("b", 0)]);
        assert_eq!(r.rels, vec![NOT_IN_POOL, 0, 1]);
        assert_eq!((r.num_rel, r.num_rel_ret), (1, 1));
        let v = measures_of(&r, &[Measure::RecipRank, Measure::Map, Measure::Precision(2)], &Config::default());
        assert_eq!(v, vec![1.0 / 3.0, 1.0 / 3.0, 0.0]);
    }

    #[test]
    fn negative_judgments_are_unjudged_and_add_nothing() {
        let r = ranked(&["x", "y"], &[2.0, 1.0], &[("x", -1), ("y", 2)]);
        assert_eq!(r.rels, vec![UNJUDGED_IN_POOL, 2]);
        assert_eq!(r.ideal, vec![2]);
        let v = measures_of(&r, &[Measure::Ndcg, Measure::NdcgCut(1)], &Config::default());
        // dcg = 2/log2(3), ideal = 2/log2(2) = 2
        assert_eq!(v, vec![(2.0 / 3f64.log2()) / 2.0, 0.0]);
    }

    #[test]
    fn judged_only_closes_ranks() {
        let cfg = Config { relevance_level: 1, judged_only: true, single_precision: true };
        let r = rank(&["u", "v"], &[2.0, 1.0], &[("v", 1)], &cfg).unwrap();
        assert_eq!(r.rels, vec![1]);
        assert_eq!(measures_of(&r, &[Measure::RecipRank], &cfg), vec![1.0]);
    }

    #[test]
    fn cutoffs_past_the_run_pad_with_nonrelevant() {
        let r = ranked(&["a"], &[0.5], &[("a", 1), ("b", 1)]);
        let v = measures_of(&r, &[Measure::Precision(5), Measure::Recall(5), Measure::Success(1), Measure::MapCut(10), Measure::Rprec], &Config::default());
        assert_eq!(v, vec![0.2, 0.5, 1.0, 0.5, 0.5]);
    }

    #[test]
    fn relevance_level_moves_binary_measures_not_gains() {
        let cfg = Config { relevance_level: 2, judged_only: false, single_precision: true };
        let r = rank(&["a", "b"], &[2.0, 1.0], &[("a", 1), ("b", 2)], &cfg).unwrap();
        assert_eq!((r.num_rel, r.num_rel_ret), (1, 1));
        let v = measures_of(&r, &[Measure::Map, Measure::Ndcg], &cfg);
        let ideal = 2.0 + 1.0 / 3f64.log2();
        assert_eq!(v, vec![0.5, (1.0 + 2.0 / 3f64.log2()) / ideal]);
    }

    #[test]
    fn single_precision_scores_tie_as_trec_eval_9() {
        // 1 + 1e-9 and 1 are one f32: the tie goes to the larger id ("b")
        let docs = ["b", "a"];
        let scores = [1.0, 1.0 + 1e-9];
        let judged = [("a", 1)];
        assert_eq!(rank(&docs, &scores, &judged, &Config::default()).unwrap().rels, vec![NOT_IN_POOL, 1]);
        let doubles = Config { single_precision: false, ..Config::default() };
        assert_eq!(rank(&docs, &scores, &judged, &doubles).unwrap().rels, vec![1, NOT_IN_POOL]);
    }

    #[test]
    fn bad_rankings_are_errors() {
        assert!(rank(&["a", "a"], &[1.0, 2.0], &[], &Config::default()).is_err());
        assert!(rank(&["a"], &[f64::NAN], &[], &Config::default()).is_err());
        assert!(rank(&["a"], &[1.0], &[("b", 1), ("b", 0)], &Config::default()).is_err());
        assert!(Measure::from_parts("P", 0).is_err());
        assert!(Measure::from_parts("bogus", 1).is_err());
    }

    #[test]
    fn batch_rows_follow_queries() {
        let (counts, values) = batch(
            &["q1", "q2"],
            &["a", "b", "c"],
            &[1.0, 2.0, 1.0],
            &[0, 2, 3],
            &["a", "c"],
            &[1, 1],
            &[0, 1, 2],
            &[Measure::RecipRank],
            &Config::default(),
            1,
        )
        .unwrap();
        assert_eq!(counts, vec![2, 1, 1, 1, 1, 1]);
        assert_eq!(values, vec![0.5, 1.0]);
        let err = batch(&["q1"], &["a", "a"], &[1.0, 1.0], &[0, 2], &[], &[], &[0, 0], &[Measure::Map], &Config::default(), 1);
        assert!(format!("{:?}", err.unwrap_err()).contains("q1"));
    }
}
