//! SARI (Xu et al. 2016), text simplification: n-grams (n = 1..4) that the system
//! adds, keeps and deletes relative to the source, scored against the references.
//!
//! Three flavours, each copying one implementation's arithmetic:
//! - `Easse`: EASSE `corpus_sari` (`get_corpus_sari_operation_scores`, defaults: macro
//!   averaging over n, F1 for deletion). Sources, outputs and references are normalised
//!   (lowercase, then a sacrebleu tokenizer) and split on whitespace. Statistics are 36
//!   integer counts per segment (9 counts × 4 orders), summed over the corpus before scoring.
//! - `Evaluate`: Hugging Face evaluate's `sari` (tensor2tensor's `SARIsent`: 0/0 = 1,
//!   the keep-recall fix), on 13a-tokenised, lowercased text split on `' '`.
//! - `Xu2016`: the original `SARI.py` (`SARIsent`: 0/0 = 0, keep recall as written),
//!   on raw text lowercased and split on `' '`.
//!
//! The last two are sentence scores: rows are `[keep, del, add, sari]` (0-1) and the
//! corpus value is the mean of `sari` (× 100), summed in segment order.

use crate::error::{Error, Result};
use crate::parallel::map_rows;
use crate::pystr::{py_lower_into, py_split};
use crate::tokenize::Tokenizer;
use rustc_hash::FxHasher;
use std::hash::Hasher;

pub const ORDER: usize = 4;
/// Integer statistics of one EASSE segment.
pub const EASSE_WIDTH: usize = 9 * ORDER;
/// Float statistics of one sentence-level segment: keep, del, add, sari.
pub const SENT_WIDTH: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    Easse,
    Evaluate,
    Xu2016,
}

impl Flavour {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "easse" => Ok(Flavour::Easse),
            "evaluate" => Ok(Flavour::Evaluate),
            "xu2016" => Ok(Flavour::Xu2016),
            _ => Err(Error::InvalidOption(format!("unknown SARI flavour {name:?}; known: easse, evaluate, xu2016"))),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct SariConfig {
    pub flavour: Flavour,
    /// EASSE's tokenizer (`None`, `Mteval13a`, `Intl`); ignored by the other flavours.
    pub tokenizer: Tokenizer,
    /// EASSE's `lowercase`; the other flavours always lowercase.
    pub lowercase: bool,
    /// EASSE's `legacy=True`: sources are not normalised (only split), nothing is lowercased.
    pub legacy: bool,
}

/// The text each flavour splits into tokens, into `out` (`tmp` a scratch buffer).
fn normalise_into(cfg: &SariConfig, s: &str, tmp: &mut String, out: &mut String) {
    match cfg.flavour {
        Flavour::Easse => {
            if cfg.lowercase && !cfg.legacy {
                py_lower_into(s, tmp);
                cfg.tokenizer.tokenize_into(tmp, out)
            } else {
                cfg.tokenizer.tokenize_into(s, out)
            }
        }
        Flavour::Evaluate => {
            py_lower_into(s, tmp);
            Tokenizer::Mteval13a.tokenize_into(tmp, out)
        }
        Flavour::Xu2016 => py_lower_into(s, out),
    }
}

/// An open-addressing map from (prefix id, token) keys to n-gram ids, emptied in O(1) by
/// bumping a generation stamp.
#[derive(Default)]
struct PairTable {
    /// (key, id, generation) slots.
    slots: Vec<(u64, u32, u32)>,
    gen: u32,
    shift: u32,
}

impl PairTable {
    /// Empty the table, ready for at most `n` keys.
    fn reset(&mut self, n: usize) {
        let want = (2 * n.max(8)).next_power_of_two();
        if self.slots.len() < want {
            self.slots = vec![(0, 0, 0); want];
            self.shift = 64 - want.trailing_zeros();
            self.gen = 0;
        }
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.slots.iter_mut().for_each(|s| s.2 = 0);
            self.gen = 1;
        }
    }

    /// The id of `key`, a fresh one (`*next`, then incremented) if it is new.
    #[inline]
    fn id(&mut self, key: u64, next: &mut u32) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let slot = &mut self.slots[i];
            if slot.2 != self.gen {
                *slot = (key, *next, self.gen);
                *next += 1;
                return slot.1;
            }
            if slot.0 == key {
                return slot.1;
            }
            i = (i + 1) & mask;
        }
    }
}

/// Per-thread scratch of the n-gram counting, reused from segment to segment.
///
/// Every distinct n-gram of a segment (all orders) gets a dense id: a unigram's id is its
/// token id, an n-gram's id is looked up from the pair (id of its first n-1 tokens, last
/// token), which identifies it exactly. Counts are then plain arrays indexed by id.
#[derive(Default)]
struct Work {
    pairs: PairTable,
    /// `ids[text][order]`: the gram id at each position (text 0 the source, 1 the system,
    /// then the references).
    ids: Vec<[Vec<u32>; ORDER]>,
    src_c: Vec<u32>,
    sys_c: Vec<u32>,
    ref_c: Vec<u32>,
    /// Distinct grams of the current order in first-occurrence order.
    src_order: Vec<u32>,
    sys_order: Vec<u32>,
    ref_order: Vec<u32>,
    n_texts: usize,
    /// The normalised texts of the segment and the token table over them: a token id's
    /// (text, start, end) in `spans`, slots (hash, id, generation).
    texts: Vec<String>,
    tmp: String,
    spans: Vec<(u32, u32, u32)>,
    tok_slots: Vec<(u64, u32, u32)>,
    tok_gen: u32,
    vocab: u32,
}

impl Work {
    /// Normalise and split the segment's texts; token ids (0..vocab) into `ids[t][0]`.
    fn prepare<S: AsRef<str>>(&mut self, cfg: &SariConfig, src: &str, sys: &str, refs: &[S]) {
        let n_texts = 2 + refs.len();
        if self.ids.len() < n_texts {
            self.ids.resize_with(n_texts, Default::default);
        }
        self.n_texts = n_texts;
        if self.texts.len() < n_texts {
            self.texts.resize_with(n_texts, String::new);
        }
        for (t, text) in [src, sys].into_iter().chain(refs.iter().map(|r| r.as_ref())).enumerate() {
            normalise_into(cfg, text, &mut self.tmp, &mut self.texts[t]);
        }
        if cfg.flavour == Flavour::Easse && cfg.legacy {
            self.texts[0].clear();
            self.texts[0].push_str(src);
        }
        // at most one token per byte plus one per text
        let bound = self.texts[..n_texts].iter().map(|t| t.len() + 1).sum::<usize>();
        let want = (2 * bound.max(8)).next_power_of_two();
        if self.tok_slots.len() < want {
            self.tok_slots = vec![(0, 0, 0); want];
            self.tok_gen = 0;
        }
        self.tok_gen = self.tok_gen.wrapping_add(1);
        if self.tok_gen == 0 {
            self.tok_slots.iter_mut().for_each(|s| s.2 = 0);
            self.tok_gen = 1;
        }
        self.spans.clear();
        let Work { texts, spans, tok_slots, tok_gen, ids, .. } = self;
        let (gen, mask) = (*tok_gen, tok_slots.len() - 1);
        let easse = cfg.flavour == Flavour::Easse;
        for (t, text) in texts[..n_texts].iter().enumerate() {
            let out = &mut ids[t][0];
            out.clear();
            let base = text.as_ptr() as usize;
            let mut put = |tok: &str| {
                let mut h = FxHasher::default();
                h.write(tok.as_bytes());
                let h = h.finish();
                let mut i = (h as usize) & mask;
                let id = loop {
                    let slot = &mut tok_slots[i];
                    if slot.2 != gen {
                        let id = spans.len() as u32;
                        let start = tok.as_ptr() as usize - base;
                        spans.push((t as u32, start as u32, (start + tok.len()) as u32));
                        *slot = (h, id, gen);
                        break id;
                    }
                    if slot.0 == h {
                        let (tt, a, b) = spans[slot.1 as usize];
                        if &texts[tt as usize].as_bytes()[a as usize..b as usize] == tok.as_bytes() {
                            break slot.1;
                        }
                    }
                    i = (i + 1) & mask;
                };
                out.push(id);
            };
            if easse {
                py_split(text).for_each(&mut put);
            } else {
                text.split(' ').for_each(&mut put);
            }
        }
        self.vocab = self.spans.len() as u32;
    }

    /// The ids of the higher-order grams, and zeroed counts.
    fn load(&mut self) {
        let n_texts = self.n_texts;
        let positions = self.ids[..n_texts].iter().map(|i| i[0].len()).sum::<usize>();
        self.pairs.reset(positions * (ORDER - 1));
        let mut next = self.vocab;
        for t in 0..n_texts {
            let ids = &mut self.ids[t];
            let (first, rest) = ids.split_at_mut(1);
            let toks = &first[0];
            for k in 1..ORDER {
                let (lo, hi) = rest.split_at_mut(k - 1);
                let prev = if k == 1 { toks } else { &lo[k - 2] };
                let cur = &mut hi[0];
                cur.clear();
                for (i, &p) in prev.iter().enumerate().take(toks.len().saturating_sub(k)) {
                    let key = (u64::from(p) << 32) | u64::from(toks[i + k]);
                    cur.push(self.pairs.id(key, &mut next));
                }
            }
        }
        let total = next as usize;
        for c in [&mut self.src_c, &mut self.sys_c, &mut self.ref_c] {
            c.clear();
            c.resize(total, 0);
        }
    }

    /// Counts and first-occurrence lists of order index `n` (0-based).
    fn count(&mut self, n: usize) {
        let tally = |ids: &[u32], c: &mut [u32], order: &mut Vec<u32>| {
            for &g in ids {
                let x = &mut c[g as usize];
                if *x == 0 {
                    order.push(g);
                }
                *x += 1;
            }
        };
        self.src_order.clear();
        self.sys_order.clear();
        self.ref_order.clear();
        tally(&self.ids[0][n], &mut self.src_c, &mut self.src_order);
        tally(&self.ids[1][n], &mut self.sys_c, &mut self.sys_order);
        for t in 2..self.n_texts {
            tally(&self.ids[t][n], &mut self.ref_c, &mut self.ref_order);
        }
    }
}

/// EASSE `compute_ngram_stats` of one segment: `out[stat * 4 + n]` with stats
/// add (correct, sys total, ref total), keep (same), del (same).
fn easse_row(w: &mut Work, out: &mut [u64]) {
    let r_n = (w.n_texts - 2) as u64;
    w.load();
    for n in 0..ORDER {
        w.count(n);
        let (o, s, r) = (&w.src_c, &w.sys_c, &w.ref_c);
        // ADD (sets)
        let (mut add_c, mut add_t, mut add_r) = (0u64, 0u64, 0u64);
        for &g in &w.sys_order {
            if o[g as usize] == 0 {
                add_t += 1;
                if r[g as usize] > 0 {
                    add_c += 1;
                }
            }
        }
        for &g in &w.ref_order {
            if o[g as usize] == 0 {
                add_r += 1;
            }
        }
        // KEEP and DELETE (counts weighted by the number of references)
        let (mut keep_c, mut keep_t, mut keep_r) = (0u64, 0u64, 0u64);
        let (mut del_c, mut del_t, mut del_r) = (0u64, 0u64, 0u64);
        for &g in &w.src_order {
            let g = g as usize;
            let oc = u64::from(o[g]) * r_n;
            let sc = u64::from(s[g]) * r_n;
            let rc = u64::from(r[g]);
            let ks = oc.min(sc);
            let kr = oc.min(rc);
            keep_t += ks;
            keep_r += kr;
            keep_c += ks.min(kr);
            let ds = oc.saturating_sub(sc);
            let dr = oc.saturating_sub(rc);
            del_t += ds;
            del_r += dr;
            del_c += ds.min(dr);
        }
        for (k, v) in [add_c, add_t, add_r, keep_c, keep_t, keep_r, del_c, del_t, del_r].into_iter().enumerate() {
            out[k * ORDER + n] = v;
        }
    }
}

/// `SARIngram` of evaluate (`t2t = true`) or of the original script: (keep, del, add),
/// on the counts `w.count(n)` left.
fn sari_ngram(w: &Work, numref: u64, t2t: bool) -> (f64, f64, f64) {
    let (s, c, r) = (&w.src_c, &w.sys_c, &w.ref_c);
    let empty = if t2t { 1.0 } else { 0.0 };
    // KEEP: iterate the source's n-grams in first-occurrence order (Counter & keeps it)
    let (mut keep_len, mut keepall_len, mut keepall_sum) = (0u64, 0u64, 0u64);
    let (mut tmp1, mut tmp2f, mut tmp2i) = (0.0f64, 0.0f64, 0u64);
    // DELETION
    let (mut del_len, mut dtmp1) = (0u64, 0.0f64);
    for &g in &w.src_order {
        let g = g as usize;
        let s_rep = u64::from(s[g]) * numref;
        let c_rep = u64::from(c[g]) * numref;
        let rc = u64::from(r[g]);
        let keep = s_rep.min(c_rep);
        let all = s_rep.min(rc);
        if all > 0 {
            keepall_len += 1;
            keepall_sum += all;
        }
        if keep > 0 {
            keep_len += 1;
            let good = keep.min(rc);
            if good > 0 {
                tmp1 += good as f64 / keep as f64;
                if t2t {
                    tmp2i += good;
                } else {
                    tmp2f += good as f64 / all as f64;
                }
            }
        }
        let del = s_rep.saturating_sub(c_rep);
        if del > 0 {
            del_len += 1;
            let good = del.saturating_sub(rc);
            if good > 0 {
                dtmp1 += good as f64 / del as f64;
            }
        }
    }
    let mut keep_p = empty;
    let mut keep_r = empty;
    if keep_len > 0 {
        keep_p = tmp1 / keep_len as f64;
    }
    if keepall_len > 0 {
        keep_r = if t2t { tmp2i as f64 / keepall_sum as f64 } else { tmp2f / keepall_len as f64 };
    }
    let keep = if keep_p > 0.0 || keep_r > 0.0 { 2.0 * keep_p * keep_r / (keep_p + keep_r) } else { 0.0 };
    let mut del_p = empty;
    if del_len > 0 {
        del_p = dtmp1 / del_len as f64;
    }
    // ADDITION (sets)
    let (mut add_len, mut add_good) = (0u64, 0u64);
    for &g in &w.sys_order {
        if s[g as usize] == 0 {
            add_len += 1;
            if r[g as usize] > 0 {
                add_good += 1;
            }
        }
    }
    let add_all = w.ref_order.iter().filter(|&&g| s[g as usize] == 0).count() as u64;
    let mut add_p = empty;
    let mut add_r = empty;
    if add_len > 0 {
        add_p = add_good as f64 / add_len as f64;
    }
    if add_all > 0 {
        add_r = add_good as f64 / add_all as f64;
    }
    let add = if add_p > 0.0 || add_r > 0.0 { 2.0 * add_p * add_r / (add_p + add_r) } else { 0.0 };
    (keep, del_p, add)
}

/// `SARIsent`: `[avg keep, avg del, avg add, sari]`, all in 0-1.
fn sent_row(w: &mut Work, t2t: bool) -> [f64; SENT_WIDTH] {
    let (mut k, mut d, mut a) = ([0.0; ORDER], [0.0; ORDER], [0.0; ORDER]);
    w.load();
    let numref = (w.n_texts - 2) as u64;
    for n in 0..ORDER {
        w.count(n);
        (k[n], d[n], a[n]) = sari_ngram(w, numref, t2t);
    }
    let avg = |v: [f64; ORDER]| (((v[0] + v[1]) + v[2]) + v[3]) / 4.0;
    let (k, d, a) = (avg(k), avg(d), avg(a));
    [k, d, a, (k + d + a) / 3.0]
}

fn check(n_src: usize, n_sys: usize, n_refs: usize) -> Result<()> {
    if n_src != n_sys {
        return Err(Error::LengthMismatch { what: "sources and predictions".into(), left: n_src, right: n_sys });
    }
    if n_refs != n_sys {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: n_sys, right: n_refs });
    }
    Ok(())
}

/// EASSE statistics, row-major (n × 36 u64).
pub fn easse_stats<S: AsRef<str> + Sync>(cfg: &SariConfig, srcs: &[S], syss: &[S], refs: &[Vec<S>], n_threads: usize) -> Result<Vec<u64>> {
    check(srcs.len(), syss.len(), refs.len())?;
    map_rows(syss.len(), EASSE_WIDTH, n_threads, Work::default, |w, i, row: &mut [u64]| {
        w.prepare(cfg, srcs[i].as_ref(), syss[i].as_ref(), &refs[i]);
        easse_row(w, row);
        Ok::<(), Error>(())
    })
}

/// Sentence-level statistics of evaluate / xu2016, row-major (n × 4 f64).
pub fn sent_stats<S: AsRef<str> + Sync>(cfg: &SariConfig, srcs: &[S], syss: &[S], refs: &[Vec<S>], n_threads: usize) -> Result<Vec<f64>> {
    check(srcs.len(), syss.len(), refs.len())?;
    let t2t = match cfg.flavour {
        Flavour::Evaluate => true,
        Flavour::Xu2016 => false,
        Flavour::Easse => return Err(Error::InvalidOption("EASSE SARI has integer statistics (easse_stats)".into())),
    };
    map_rows(syss.len(), SENT_WIDTH, n_threads, Work::default, |w, i, row: &mut [f64]| {
        w.prepare(cfg, srcs[i].as_ref(), syss[i].as_ref(), &refs[i]);
        row.copy_from_slice(&sent_row(w, t2t));
        Ok::<(), Error>(())
    })
}

/// EASSE `compute_macro_sari` (F1 for deletion) × 100 of one summed row:
/// `[sari, add, keep, del]`.
pub fn easse_score(row: &[u64]) -> [f64; 4] {
    let prf = |c: u64, t: u64, r: u64| -> f64 {
        let p = if t > 0 { c as f64 / t as f64 } else { 0.0 };
        let rr = if r > 0 { c as f64 / r as f64 } else { 0.0 };
        if p > 0.0 && rr > 0.0 {
            2.0 * p * rr / (p + rr)
        } else {
            0.0
        }
    };
    let (mut add, mut keep, mut del) = (0.0f64, 0.0f64, 0.0f64);
    let at = |stat: usize, n: usize| row[stat * ORDER + n];
    for n in 0..ORDER {
        add += prf(at(0, n), at(1, n), at(2, n)) / ORDER as f64;
        keep += prf(at(3, n), at(4, n), at(5, n)) / ORDER as f64;
        del += prf(at(6, n), at(7, n), at(8, n)) / ORDER as f64;
    }
    let (add, keep, del) = (100.0 * add, 100.0 * keep, 100.0 * del);
    [(add + keep + del) / 3.0, add, keep, del]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(f: Flavour) -> SariConfig {
        SariConfig { flavour: f, tokenizer: Tokenizer::Mteval13a, lowercase: true, legacy: false }
    }

    #[test]
    fn evaluate_docstring_example() {
        let refs = vec![vec!["About 95 species are currently known .", "About 95 species are now accepted .", "95 species are now accepted ."]];
        let v = sent_stats(&cfg(Flavour::Evaluate), &["About 95 species are currently accepted ."], &["About 95 you now get in ."], &refs, 1).unwrap();
        assert_eq!(100.0 * v[3], 26.953601953601954);
    }

    #[test]
    fn lengths_checked() {
        let refs: Vec<Vec<&str>> = vec![vec!["a"]];
        assert!(easse_stats(&cfg(Flavour::Easse), &["a", "b"], &["a"], &refs, 1).is_err());
    }
}
