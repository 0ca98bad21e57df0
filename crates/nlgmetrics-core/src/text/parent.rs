//! PARENT (Dhingra et al. 2019) with the word-overlap entailment model, as
//! `language/table_text_eval/table_text_eval.py` (google-research) computes it.
//!
//! Per segment and per reference: for n = 1..=max_order, an entailment-weighted n-gram
//! precision of the prediction (an n-gram counts if the reference has it, else with the
//! probability that the table entails it: the share of its tokens among the table's
//! values) and an entailment-weighted recall of the reference; their geometric means
//! (orders >= 2 that are 0 replaced by `smoothing`, the unigram order never is); a table
//! recall (mean over entries of LCS(value, prediction) / |value|); the recall
//! `ref_rec^(1-λ) · table_rec^λ` with a fixed λ or, when none is given, λ = 1 − the
//! reference's own table recall; and F = 2PR / (P + R + 1e-8). The reference with the
//! best F (first maximum) gives the segment's row. Sums run in the reference's order
//! (n-grams in order of first occurrence, entries as listed), so rows are bit-identical.
//!
//! A table is a list of entries of two members (attribute, value) or three (head,
//! relation, tail); the kind is that of the first entry, as in the reference, and all
//! entries must share it. A value (head + tail for triples) is what texts are matched on.

use crate::error::{Error, Result};
use crate::fsum::fsum;
use crate::parallel::map_rows;
use crate::pystr::{py_lower, py_split};
use rustc_hash::{FxHashMap, FxHashSet};

/// Values per segment: precision, recall, F, reference recall, table recall.
pub const WIDTH: usize = 5;

/// The options of the reference's `parent(...)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParentConfig {
    /// Weight of the table recall; `None` uses 1 − the reference's table recall.
    pub lambda_weight: Option<f64>,
    /// Stands in for a zero precision/recall (orders >= 2) and a zero table recall.
    pub smoothing: f64,
    pub max_order: usize,
    /// Lowercase texts and tables first (the reference's file readers do).
    pub lowercase: bool,
}

impl Default for ParentConfig {
    fn default() -> Self {
        Self { lambda_weight: Some(0.5), smoothing: 0.00001, max_order: 4, lowercase: true }
    }
}

impl ParentConfig {
    pub fn validate(&self) -> Result<()> {
        if self.max_order == 0 || self.max_order > 64 {
            return Err(Error::InvalidOption(format!("max_order must be in 1..=64, got {}", self.max_order)));
        }
        if let Some(l) = self.lambda_weight {
            if !(0.0..=1.0).contains(&l) {
                return Err(Error::InvalidOption(format!("lambda_weight must be in [0, 1] or None, got {l}")));
            }
        }
        if !(self.smoothing.is_finite() && self.smoothing >= 0.0) {
            return Err(Error::InvalidOption(format!("smoothing must be a finite number >= 0, got {}", self.smoothing)));
        }
        Ok(())
    }
}

/// A tokenized table: the matched part of every entry, and the set of value tokens.
struct Table<'a> {
    values: Vec<Vec<&'a str>>,
    vocabulary: FxHashSet<&'a str>,
}

fn tokens<'a>(text: &'a str) -> Vec<&'a str> {
    py_split(text).collect()
}

fn build_table<'a>(entries: &'a [Vec<String>], index: usize) -> Result<Table<'a>> {
    let arity = match entries.first() {
        None => return Err(Error::InvalidInput(format!("tables[{index}] is empty: PARENT needs at least one entry"))),
        Some(e) => e.len(),
    };
    let mut values = Vec::with_capacity(entries.len());
    for (j, entry) in entries.iter().enumerate() {
        if entry.len() != arity || !(arity == 2 || arity == 3) {
            return Err(Error::InvalidInput(format!(
                "tables[{index}][{j}] has {} members; every entry of a table must be an (attribute, value) pair or every one a (head, relation, tail) triple",
                entry.len()
            )));
        }
        let value: Vec<&str> = if arity == 2 {
            tokens(&entry[1])
        } else {
            tokens(&entry[0]).into_iter().chain(tokens(&entry[2])).collect()
        };
        if value.is_empty() {
            return Err(Error::InvalidInput(format!(
                "tables[{index}][{j}] has an empty value: its mention probability is undefined"
            )));
        }
        values.push(value);
    }
    let vocabulary = values.iter().flatten().copied().collect();
    Ok(Table { values, vocabulary })
}

/// N-gram counts in order of first occurrence (a Python `Counter`'s iteration order).
struct Counts<'a> {
    order: Vec<(&'a [&'a str], u64)>,
    index: FxHashMap<&'a [&'a str], usize>,
}

impl<'a> Counts<'a> {
    fn of(seq: &'a [&'a str], n: usize) -> Self {
        let mut c = Counts { order: Vec::new(), index: FxHashMap::default() };
        if seq.len() >= n {
            for g in seq.windows(n) {
                match c.index.get(g) {
                    Some(&i) => c.order[i].1 += 1,
                    None => {
                        c.index.insert(g, c.order.len());
                        c.order.push((g, 1));
                    }
                }
            }
        }
        c
    }

    fn get(&self, g: &[&str]) -> u64 {
        self.index.get(g).map_or(0, |&i| self.order[i].1)
    }
}

/// `overlap_probability`: the share of the n-gram's tokens among the table's values.
fn entailment(g: &[&str], table: &Table) -> f64 {
    let overlap = g.iter().filter(|t| table.vocabulary.contains(*t)).count();
    overlap as f64 / g.len() as f64
}

fn lcs_len(x: &[&str], y: &[&str]) -> usize {
    let mut prev = vec![0usize; y.len() + 1];
    let mut cur = vec![0usize; y.len() + 1];
    let mut budget = crate::interrupt::Budget::default();
    for xi in x {
        budget.spend(y.len());
        for (j, yj) in y.iter().enumerate() {
            cur[j + 1] = if xi == yj { prev[j] + 1 } else { prev[j + 1].max(cur[j]) };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[y.len()]
}

/// Mean over entries of `_mention_probability(entry, text)`, summed left to right.
fn table_recall(table: &Table, text: &[&str]) -> f64 {
    let mut s = 0.0;
    for v in &table.values {
        s += lcs_len(v, text) as f64 / v.len() as f64;
    }
    s / table.values.len() as f64
}

fn precision_recall(pred: &Counts, reference: &Counts, table: &Table) -> (f64, f64) {
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for &(g, count) in &pred.order {
        den += count as f64;
        let in_ref = (reference.get(g) as f64 / count as f64).min(1.0);
        num += count as f64 * (in_ref + (1.0 - in_ref) * entailment(g, table));
    }
    let precision = if den == 0.0 { 0.0 } else { num / den };
    let (mut num, mut den) = (0.0f64, 0.0f64);
    for &(g, count) in &reference.order {
        let in_pred = (pred.get(g) as f64 / count as f64).min(1.0);
        let w = entailment(g, table);
        den += count as f64 * w;
        num += count as f64 * w * in_pred;
    }
    let recall = if den == 0.0 { 1.0 } else { num / den };
    (precision, recall)
}

fn geometric_mean(values: &[f64]) -> f64 {
    let w = 1.0 / values.len() as f64;
    fsum(values.iter().map(|v| w * v.ln())).exp()
}

/// `[precision, recall, F, reference recall, table recall]` of one reference.
fn against_reference(cfg: &ParentConfig, pred: &[&str], reference: &[&str], table: &Table) -> [f64; WIDTH] {
    let mut prec = Vec::with_capacity(cfg.max_order);
    let mut rec = Vec::with_capacity(cfg.max_order);
    for n in 1..=cfg.max_order {
        let (p, r) = precision_recall(&Counts::of(pred, n), &Counts::of(reference, n), table);
        prec.push(p);
        rec.push(r);
    }
    let mut table_rec = table_recall(table, pred);
    for k in 1..cfg.max_order {
        if prec[k] == 0.0 {
            prec[k] = cfg.smoothing;
        }
        if rec[k] == 0.0 {
            rec[k] = cfg.smoothing;
        }
    }
    let precision = if prec.iter().any(|&p| p == 0.0) { 0.0 } else { geometric_mean(&prec) };
    let ref_rec = if rec.iter().any(|&r| r == 0.0) { cfg.smoothing } else { geometric_mean(&rec) };
    if table_rec == 0.0 {
        table_rec = cfg.smoothing;
    }
    let recall = if ref_rec == 0.0 || table_rec == 0.0 {
        0.0
    } else {
        let lw = match cfg.lambda_weight {
            Some(l) => l,
            None => 1.0 - table_recall(table, reference),
        };
        ((1.0 - lw) * ref_rec.ln() + lw * table_rec.ln()).exp()
    };
    let f = (2.0 * precision * recall) / (precision + recall + 1e-8);
    [precision, recall, f, ref_rec, table_rec]
}

/// One segment: the row of the reference with the best F (first maximum).
pub fn segment_stats(cfg: &ParentConfig, pred: &str, refs: &[String], table: &[Vec<String>], index: usize) -> Result<[f64; WIDTH]> {
    if refs.is_empty() {
        return Err(Error::MissingReference { index });
    }
    let lower = |s: &str| if cfg.lowercase { py_lower(s) } else { s.to_string() };
    let lowered: Vec<Vec<String>> = table.iter().map(|e| e.iter().map(|m| lower(m)).collect()).collect();
    let table = build_table(&lowered, index)?;
    let pred = lower(pred);
    let pred = tokens(&pred);
    let mut best: Option<[f64; WIDTH]> = None;
    for r in refs {
        let r = lower(r);
        let row = against_reference(cfg, &pred, &tokens(&r), &table);
        if best.is_none_or(|b| row[2] > b[2]) {
            best = Some(row);
        }
    }
    Ok(best.expect("at least one reference"))
}

/// Rows of `WIDTH` values, one per segment (see the module docs).
pub fn batch_stats(
    cfg: &ParentConfig,
    preds: &[String],
    refs: &[Vec<String>],
    tables: &[Vec<Vec<String>>],
    n_threads: usize,
) -> Result<Vec<f64>> {
    cfg.validate()?;
    if refs.len() != preds.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: preds.len(), right: refs.len() });
    }
    if tables.len() != preds.len() {
        return Err(Error::LengthMismatch { what: "predictions and tables".into(), left: preds.len(), right: tables.len() });
    }
    map_rows(preds.len(), WIDTH, n_threads, || (), |_, i, row| {
        row.copy_from_slice(&segment_stats(cfg, &preds[i], &refs[i], &tables[i], i)?);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn exact_copy_of_the_table_scores_high() {
        let table = vec![s(&["name", "michael dahlquist"]), s(&["occupation", "drummer"])];
        let cfg = ParentConfig { max_order: 3, ..ParentConfig::default() };
        let row = segment_stats(&cfg, "michael dahlquist drummer", &s(&["michael dahlquist was a drummer"]), &table, 0).unwrap();
        assert_eq!(row[0], 1.0); // every n-gram is entailed by the table
        assert_eq!(row[4], 1.0); // every value is mentioned
        assert!(row[1] > 0.0 && row[1] < 1.0);
    }

    #[test]
    fn unigram_zero_is_not_smoothed() {
        let table = vec![s(&["a", "x"])];
        let row = segment_stats(&ParentConfig::default(), "q", &s(&["r"]), &table, 0).unwrap();
        assert_eq!(row[0], 0.0);
        assert_eq!(row[3], 1.0); // no reference n-gram is entailed: every order's recall is 1
        assert_eq!(row[4], 0.00001);
        assert_eq!(row[2], 0.0);
    }

    #[test]
    fn short_prediction_is_smoothed_at_missing_orders() {
        // three tokens have no 4-gram: that order's precision is 0, replaced by smoothing
        let table = vec![s(&["name", "a b c"])];
        let row = segment_stats(&ParentConfig::default(), "a b c", &s(&["a b c"]), &table, 0).unwrap();
        assert_eq!(row[0], (0.25f64 * 0.00001f64.ln()).exp());
    }

    #[test]
    fn lcs() {
        assert_eq!(lcs_len(&["a", "b", "c"], &["a", "x", "c", "b"]), 2);
        assert_eq!(lcs_len(&[], &["a"]), 0);
    }

    #[test]
    fn errors() {
        let cfg = ParentConfig::default();
        assert!(segment_stats(&cfg, "a", &[], &[s(&["a", "b"])], 0).is_err());
        assert!(segment_stats(&cfg, "a", &s(&["a"]), &[], 0).is_err());
        assert!(segment_stats(&cfg, "a", &s(&["a"]), &[s(&["a", "b"]), s(&["a", "b", "c"])], 0).is_err());
        assert!(segment_stats(&cfg, "a", &s(&["a"]), &[s(&["a", " "])], 0).is_err());
        assert!(segment_stats(&cfg, "a", &s(&["a"]), &[s(&["a"])], 0).is_err());
        assert!(ParentConfig { max_order: 0, ..cfg }.validate().is_err());
        assert!(ParentConfig { lambda_weight: Some(1.5), ..cfg }.validate().is_err());
    }
}
