//! BLEU as nltk 3.10 `nltk.translate.bleu_score` computes it, bit for bit.
//!
//! Segment statistics (u64): `[hyp_len, ref_len, num_1..N, den_1..N, tail_len, tail_num5,
//! tail_den5]`, where `num_n` clips each hypothesis n-gram count by its largest count in
//! any one reference, `den_n = max(1, #hyp n-grams)` (nltk's `modified_precision`),
//! `ref_len` is the closest reference length (ties to the shorter) and the three *tail*
//! columns are what nltk's corpus smoothing reads from the **last** segment only
//! (`method5`/`method7` append the 5-gram precision of the last segment, `method6` counts
//! the n-grams of the last hypothesis). Tails are not summed: a corpus keeps the last one.
//!
//! Smoothing runs on Python numbers: nltk mixes exact `Fraction`s and floats, and the
//! result depends on which operation happens in which type, so [`Num`] copies Python's
//! promotion rules and converts rationals to floats with correct rounding (as CPython's
//! `int / int` does).

use crate::error::{Error, Result};
use crate::fsum::fsum;
use crate::ngram::{count_ngrams, Interner, NgramCounts};
use crate::parallel::map_rows;
use crate::pystr::py_split;
use crate::text::bleu::closest_ref_len;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use rustc_hash::FxHashMap;

/// The order of the extra precision nltk's `method5` appends (always 5-grams).
pub const TAIL_ORDER: usize = 5;
/// Columns after the per-order counts: `[tail_len, tail_num5, tail_den5]`.
pub const TAIL_WIDTH: usize = 3;
/// nltk has no limit; ours keeps `2**k` exact and the statistics small.
pub const MAX_ORDERS: usize = 64;

/// Columns of one statistics row for `n` orders (tail included).
pub fn width(n: usize) -> usize {
    2 + 2 * n + TAIL_WIDTH
}

/// A token sequence: a string split like Python's `str.split()`, or a list of tokens.
pub trait TokenSeq: Sync {
    fn tokens(&self) -> Vec<&str>;
}

impl TokenSeq for String {
    fn tokens(&self) -> Vec<&str> {
        py_split(self).collect()
    }
}

impl TokenSeq for &str {
    fn tokens(&self) -> Vec<&str> {
        py_split(self).collect()
    }
}

impl TokenSeq for Vec<String> {
    fn tokens(&self) -> Vec<&str> {
        self.iter().map(String::as_str).collect()
    }
}

fn check_orders(n: usize) -> Result<()> {
    if n == 0 || n > MAX_ORDERS {
        return Err(Error::InvalidOption(format!(
            "weights must have between 1 and {MAX_ORDERS} entries, got {n}"
        )));
    }
    Ok(())
}

/// Statistics of one segment into `out` (`width(n)` values).
pub fn segment_stats(hyp: &[&str], refs: &[Vec<&str>], n: usize, out: &mut [u64]) -> Result<()> {
    if refs.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    let top = n.max(TAIL_ORDER);
    let mut interner = Interner::new();
    let hyp_ids: Vec<u32> = hyp.iter().map(|t| interner.id(t)).collect();
    let ref_ids: Vec<Vec<u32>> = refs.iter().map(|r| r.iter().map(|t| interner.id(t)).collect()).collect();
    let mut hyp_counts = NgramCounts::default();
    count_ngrams(&hyp_ids, top, &mut hyp_counts);
    // Largest count of each hypothesis n-gram in any one reference.
    let mut ref_max: FxHashMap<&[u32], u32> = FxHashMap::default();
    let mut one = NgramCounts::default();
    for ids in &ref_ids {
        // Only n-grams the hypothesis has can clip anything: count just those.
        one.clear();
        for k in 1..=top.min(ids.len()) {
            for w in ids.windows(k) {
                if hyp_counts.contains_key(w) {
                    *one.entry(w).or_insert(0) += 1;
                }
            }
        }
        for (g, &c) in one.iter() {
            let e = ref_max.entry(g).or_insert(0);
            *e = (*e).max(c);
        }
    }
    out.fill(0);
    let mut num = vec![0u64; top];
    let mut cnt = vec![0u64; top];
    for (g, &c) in hyp_counts.iter() {
        let k = g.len() - 1;
        cnt[k] += c as u64;
        if let Some(&r) = ref_max.get(g) {
            num[k] += c.min(r) as u64;
        }
    }
    let ref_lens: Vec<usize> = ref_ids.iter().map(Vec::len).collect();
    out[0] = hyp_ids.len() as u64;
    out[1] = closest_ref_len(hyp_ids.len(), &ref_lens).unwrap_or(0) as u64;
    for k in 0..n {
        out[2 + k] = num[k];
        out[2 + n + k] = cnt[k].max(1);
    }
    let t = 2 + 2 * n;
    out[t] = hyp_ids.len() as u64;
    out[t + 1] = num[TAIL_ORDER - 1];
    out[t + 2] = cnt[TAIL_ORDER - 1].max(1);
    Ok(())
}

/// Statistics of a batch, row-major `len × width(n)`.
pub fn batch_stats<H: TokenSeq, R: TokenSeq>(
    hyps: &[H],
    refs: &[Vec<R>],
    n: usize,
    n_threads: usize,
) -> Result<Vec<u64>> {
    check_orders(n)?;
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch {
            what: "predictions and references".into(),
            left: hyps.len(),
            right: refs.len(),
        });
    }
    map_rows(hyps.len(), width(n), n_threads, || (), |_, i, row| {
        let h = hyps[i].tokens();
        let r: Vec<Vec<&str>> = refs[i].iter().map(TokenSeq::tokens).collect();
        segment_stats(&h, &r, n, row).map_err(|e| match e {
            Error::MissingReference { .. } => Error::MissingReference { index: i },
            e => e,
        })
    })
}

// ---------------------------------------------------------------------------------------
// Python numbers

/// `2.0**e` exactly, for `e` in the normal range.
fn pow2(e: i64) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `n / d` rounded to nearest-even, as CPython's `int / int` (`long_true_divide`).
pub fn ratio_to_f64(n: &BigInt, d: &BigInt) -> f64 {
    let neg = n.is_negative() != d.is_negative();
    let (a, b) = (n.magnitude(), d.magnitude());
    if a.is_zero() {
        return if neg { -0.0 } else { 0.0 };
    }
    let mag = if a.bits() <= 53 && b.bits() <= 53 {
        a.to_f64().unwrap_or(f64::NAN) / b.to_f64().unwrap_or(f64::NAN)
    } else {
        big_ratio_to_f64(a, b)
    };
    if neg {
        -mag
    } else {
        mag
    }
}

fn big_ratio_to_f64(a: &BigUint, b: &BigUint) -> f64 {
    const MANT: i64 = 53;
    const MIN_EXP: i64 = -1021;
    let diff = a.bits() as i64 - b.bits() as i64;
    if diff > 1024 {
        return f64::INFINITY;
    }
    if diff < MIN_EXP - MANT - 1 {
        return 0.0;
    }
    let shift = diff.max(MIN_EXP) - MANT - 2;
    let (x, rem) = if shift <= 0 {
        (a << ((-shift) as usize)).div_rem(b)
    } else {
        a.div_rem(&(b << (shift as usize)))
    };
    // x has at most 56 bits; round it to 53 (fewer when subnormal), half to even,
    // with the remainder as a sticky bit.
    let x_bits = x.bits() as i64;
    let extra = x_bits.max(MIN_EXP - shift) - MANT;
    let mut v = x.to_u64().unwrap_or(0) | u64::from(!rem.is_zero());
    let mask = 1u64 << (extra - 1);
    if v & mask != 0 && v & (3 * mask - 1) != 0 {
        v += mask;
    }
    v &= !(2 * mask - 1);
    let dx = v as f64;
    if shift >= -1000 {
        dx * pow2(shift)
    } else {
        dx * pow2(-1000) * pow2(shift + 1000)
    }
}

/// A Python number as nltk's smoothing sees it: an exact `Fraction` or a `float`.
#[derive(Clone, Debug)]
pub enum Num {
    Frac(BigRational),
    Float(f64),
}

impl Num {
    pub fn frac(n: u64, d: u64) -> Num {
        Num::Frac(BigRational::new_raw(BigInt::from(n), BigInt::from(d)))
    }

    /// `float(x)`.
    pub fn to_f64(&self) -> f64 {
        match self {
            Num::Frac(r) => ratio_to_f64(r.numer(), r.denom()),
            Num::Float(f) => *f,
        }
    }

    /// `x > 0`.
    pub fn is_positive(&self) -> bool {
        match self {
            Num::Frac(r) => r.numer().is_positive() == r.denom().is_positive() && !r.numer().is_zero(),
            Num::Float(f) => *f > 0.0,
        }
    }

    /// `x == 0`.
    pub fn is_zero(&self) -> bool {
        match self {
            Num::Frac(r) => r.numer().is_zero(),
            Num::Float(f) => *f == 0.0,
        }
    }

    /// `self + other`: exact for two fractions, otherwise both as floats.
    pub fn add(&self, other: &Num) -> Num {
        match (self, other) {
            (Num::Frac(a), Num::Frac(b)) => Num::Frac(a + b),
            _ => Num::Float(self.to_f64() + other.to_f64()),
        }
    }

    pub fn add_int(&self, k: i64) -> Num {
        match self {
            Num::Frac(a) => Num::Frac(a + BigRational::from_integer(BigInt::from(k))),
            Num::Float(f) => Num::Float(f + k as f64),
        }
    }

    /// `self / other`.
    pub fn div(&self, other: &Num) -> Num {
        match (self, other) {
            (Num::Frac(a), Num::Frac(b)) => Num::Frac(a / b),
            _ => Num::Float(self.to_f64() / other.to_f64()),
        }
    }

    pub fn div_int(&self, k: i64) -> Num {
        match self {
            Num::Frac(a) => Num::Frac(a / BigRational::from_integer(BigInt::from(k))),
            Num::Float(f) => Num::Float(f / k as f64),
        }
    }

    /// `self ** 2` (CPython calls `pow(x, 2.0)` for floats).
    pub fn square(&self) -> Num {
        match self {
            Num::Frac(a) => Num::Frac(a * a),
            Num::Float(f) => Num::Float(f.powf(2.0)),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Smoothing

/// `SmoothingFunction.alpha` keeps its Python type: an int keeps method6 exact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Alpha {
    Int(i64),
    Float(f64),
}

/// `SmoothingFunction(epsilon, alpha, k).method<method>`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Smoothing {
    pub method: u8,
    pub epsilon: f64,
    pub alpha: Alpha,
    pub k: f64,
}

impl Smoothing {
    pub fn validate(&self) -> Result<()> {
        if self.method > 7 {
            return Err(Error::InvalidOption(format!(
                "unknown smoothing method{}; known: method0 .. method7",
                self.method
            )));
        }
        let alpha = match self.alpha {
            Alpha::Int(a) => a as f64,
            Alpha::Float(a) => a,
        };
        if !(self.epsilon.is_finite() && self.epsilon >= 0.0) {
            return Err(Error::InvalidOption(format!("epsilon must be finite and >= 0, got {}", self.epsilon)));
        }
        if !(alpha.is_finite() && alpha > 0.0) {
            return Err(Error::InvalidOption(format!("alpha must be finite and > 0, got {alpha}")));
        }
        if !(self.k.is_finite() && self.k > 0.0) {
            return Err(Error::InvalidOption(format!("k must be finite and > 0, got {}", self.k)));
        }
        Ok(())
    }
}

/// Inputs of nltk's smoothing beyond `p_n`: the corpus hypothesis length and the tail.
struct Context<'a> {
    num: &'a [u64],
    hyp_len: u64,
    tail_len: u64,
    tail_num5: u64,
    tail_den5: u64,
}

fn method0(p: &mut [Num], c: &Context) {
    for (i, x) in p.iter_mut().enumerate() {
        if c.num[i] == 0 {
            *x = Num::Float(f64::MIN_POSITIVE);
        }
    }
}

fn method1(p: &mut [Num], c: &Context, den: &[u64], eps: f64) {
    for (i, x) in p.iter_mut().enumerate() {
        if c.num[i] == 0 {
            *x = Num::Float((0.0 + eps) / den[i] as f64);
        }
    }
}

fn method2(p: &mut [Num], c: &Context, den: &[u64]) {
    for i in 1..p.len() {
        p[i] = Num::frac(c.num[i] + 1, den[i] + 1);
    }
}

fn method3(p: &mut [Num], c: &Context, den: &[u64]) {
    let mut incvnt = 1;
    for (i, x) in p.iter_mut().enumerate() {
        if c.num[i] == 0 {
            // `1 / (2**incvnt * den)`: the divisor is exact as a float.
            *x = Num::Float(1.0 / (den[i] as f64 * pow2(incvnt)));
            incvnt += 1;
        }
    }
}

fn method4(p: &mut [Num], c: &Context, den: &[u64], k: f64) {
    let mut incvnt = 1;
    let log_len = (c.hyp_len as f64).ln();
    for (i, x) in p.iter_mut().enumerate() {
        if c.num[i] == 0 && c.hyp_len > 1 {
            let numerator = 1.0 / (pow2(incvnt) * k / log_len);
            *x = Num::Float(numerator / den[i] as f64);
            incvnt += 1;
        }
    }
}

fn method5(p: &mut [Num], c: &Context) {
    let mut plus1: Vec<Num> = p.to_vec();
    plus1.push(Num::frac(c.tail_num5, c.tail_den5));
    let mut prev = p[0].add_int(1);
    for i in 0..p.len() {
        let v = prev.add(&p[i]).add(&plus1[i + 1]).div_int(3);
        p[i] = v.clone();
        prev = v;
    }
}

fn method6(p: &mut [Num], c: &Context, alpha: Alpha) -> Result<()> {
    if p.len() < 3 {
        return Err(Error::InvalidOption(
            "smoothing method6 needs at least 3 n-gram orders (nltk raises IndexError)".into(),
        ));
    }
    if c.num[2] == 0 {
        return Err(Error::InvalidInput(
            "smoothing method6 needs a non-zero trigram precision (nltk raises AssertionError)".into(),
        ));
    }
    for i in 2..p.len() {
        let m = c.num[i];
        let l = c.tail_len.saturating_sub(i as u64);
        let pi0 = if p[i - 2].is_zero() { None } else { Some(p[i - 1].square().div(&p[i - 2])) };
        p[i] = match (alpha, pi0) {
            (Alpha::Int(a), None) => Num::Float(ratio_to_f64(&BigInt::from(m), &(BigInt::from(l) + a))),
            (Alpha::Int(a), Some(Num::Frac(r))) => {
                let top = BigRational::from_integer(BigInt::from(m)) + r * BigInt::from(a);
                Num::Frac(top / (BigInt::from(l) + a))
            }
            (Alpha::Int(a), Some(Num::Float(f))) => {
                Num::Float((m as f64 + a as f64 * f) / (l as i64 + a) as f64)
            }
            (Alpha::Float(a), x) => {
                let ap = x.map_or(0.0, |x| a * x.to_f64());
                Num::Float((m as f64 + ap) / (l as f64 + a))
            }
        };
    }
    Ok(())
}

fn smooth(p: &mut [Num], c: &Context, den: &[u64], s: &Smoothing) -> Result<()> {
    match s.method {
        0 => method0(p, c),
        1 => method1(p, c, den, s.epsilon),
        2 => method2(p, c, den),
        3 => method3(p, c, den),
        4 => method4(p, c, den, s.k),
        5 => method5(p, c),
        6 => method6(p, c, s.alpha)?,
        7 => {
            method4(p, c, den, s.k);
            method5(p, c);
        }
        m => return Err(Error::InvalidOption(format!("unknown smoothing method{m}"))),
    }
    Ok(())
}

/// One weight tuple; `uniform4` says it equals nltk's `(0.25, 0.25, 0.25, 0.25)` tuple,
/// the only weights `auto_reweigh` replaces.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    pub w: Vec<f64>,
    pub uniform4: bool,
}

/// A corpus (or sentence) score: one value per weight tuple, plus the breakdown.
#[derive(Debug, Clone, PartialEq)]
pub struct NltkBleu {
    pub scores: Vec<f64>,
    /// The precisions after smoothing, as floats (nltk's `p_n`).
    pub precisions: Vec<f64>,
    pub bp: f64,
    pub hyp_len: u64,
    pub ref_len: u64,
}

/// nltk `corpus_bleu` from a (summed) statistics row of `n` orders.
pub fn score_stats(
    row: &[u64],
    n: usize,
    weights: &[Weights],
    smoothing: &Smoothing,
    auto_reweigh: bool,
) -> Result<NltkBleu> {
    check_orders(n)?;
    if row.len() != width(n) {
        return Err(Error::InvalidInput(format!(
            "nltk BLEU statistics need {} columns for {n} orders, got {}",
            width(n),
            row.len()
        )));
    }
    let (hyp_len, ref_len) = (row[0], row[1]);
    let num = &row[2..2 + n];
    let den = &row[2 + n..2 + 2 * n];
    let t = 2 + 2 * n;
    let bp = if hyp_len > ref_len {
        1.0
    } else if hyp_len == 0 {
        0.0
    } else {
        (1.0 - ref_len as f64 / hyp_len as f64).exp()
    };
    let mut p: Vec<Num> = num.iter().zip(den).map(|(&a, &b)| Num::frac(a, b.max(1))).collect();
    let mut out = NltkBleu { scores: vec![0.0; weights.len()], precisions: vec![], bp, hyp_len, ref_len };
    if num[0] == 0 {
        out.precisions = p.iter().map(Num::to_f64).collect();
        return Ok(out);
    }
    let ctx = Context { num, hyp_len, tail_len: row[t], tail_num5: row[t + 1], tail_den5: row[t + 2].max(1) };
    let den1: Vec<u64> = den.iter().map(|&d| d.max(1)).collect();
    smooth(&mut p, &ctx, &den1, smoothing)?;
    let logs: Vec<Option<f64>> = p.iter().map(|x| x.is_positive().then(|| x.to_f64().ln())).collect();
    for (slot, weight) in out.scores.iter_mut().zip(weights) {
        let reweighed;
        let w: &[f64] = if auto_reweigh && hyp_len < 4 && weight.uniform4 {
            reweighed = vec![1.0 / hyp_len as f64; hyp_len as usize];
            &reweighed
        } else {
            &weight.w
        };
        let s = fsum(w.iter().zip(&logs).filter_map(|(wi, l)| l.map(|l| wi * l)));
        let v = bp * s.exp();
        if !v.is_finite() {
            return Err(Error::InvalidInput(format!(
                "nltk BLEU overflows (exp of {s}); nltk raises OverflowError for these weights"
            )));
        }
        *slot = v;
    }
    out.precisions = p.iter().map(Num::to_f64).collect();
    Ok(out)
}

/// Sentence scores: every row scored alone (its own tail), row-major `rows × weights`.
pub fn batch_scores(
    stats: &[u64],
    n: usize,
    weights: &[Weights],
    smoothing: &Smoothing,
    auto_reweigh: bool,
    n_threads: usize,
) -> Result<Vec<f64>> {
    check_orders(n)?;
    smoothing.validate()?;
    let w = width(n);
    if stats.len() % w != 0 {
        return Err(Error::InvalidInput(format!("nltk BLEU statistics need {w} columns for {n} orders")));
    }
    let rows = stats.len() / w;
    map_rows(rows, weights.len(), n_threads, || (), |_, i, out| {
        let s = score_stats(&stats[i * w..(i + 1) * w], n, weights, smoothing, auto_reweigh).map_err(|e| match e {
            Error::InvalidInput(m) => Error::InvalidInput(format!("segment {i}: {m}")),
            e => e,
        })?;
        out.copy_from_slice(&s.scores);
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------
// Self-BLEU

/// Largest and second-largest count of one n-gram over the sentences, with the owner of
/// the largest, so "max over every sentence but i" is O(1).
#[derive(Clone, Copy)]
struct Top2 {
    first: u32,
    owner: u32,
    second: u32,
}

/// Self-BLEU statistics (Zhu et al. 2018, Texygen): each sentence is a hypothesis whose
/// references are the other sentences (`exclude_self`) or all of them including itself.
/// Rows as [`batch_stats`]; `tail` also computes the 5-gram tail columns.
pub fn self_bleu_stats(sents: &[Vec<u32>], n: usize, exclude_self: bool, n_threads: usize) -> Result<Vec<u64>> {
    check_orders(n)?;
    let min_refs = if exclude_self { 2 } else { 1 };
    if sents.len() < min_refs {
        return Err(Error::InvalidInput(format!(
            "Self-BLEU needs at least {min_refs} sentences, got {}",
            sents.len()
        )));
    }
    let top = n.max(TAIL_ORDER);
    let mut best: FxHashMap<&[u32], Top2> = FxHashMap::default();
    let mut local = NgramCounts::default();
    for (i, ids) in sents.iter().enumerate() {
        local.clear();
        count_ngrams(ids, top, &mut local);
        for (g, &c) in local.iter() {
            let e = best.entry(g).or_insert(Top2 { first: 0, owner: u32::MAX, second: 0 });
            if c > e.first {
                e.second = e.first;
                e.first = c;
                e.owner = i as u32;
            } else if c > e.second {
                e.second = c;
            }
        }
    }
    let mut lens: Vec<usize> = sents.iter().map(Vec::len).collect();
    lens.sort_unstable();
    map_rows(sents.len(), width(n), n_threads, NgramCounts::default, |counts, i, out| {
        let ids = &sents[i];
        counts.clear();
        count_ngrams(ids, top, counts);
        let mut num = vec![0u64; top];
        let mut cnt = vec![0u64; top];
        for (g, &c) in counts.iter() {
            let k = g.len() - 1;
            cnt[k] += c as u64;
            let b = best[g];
            let r = if exclude_self && b.owner == i as u32 { b.second } else { b.first };
            num[k] += c.min(r) as u64;
        }
        out.fill(0);
        out[0] = ids.len() as u64;
        out[1] = closest_other_len(&lens, ids.len(), exclude_self) as u64;
        for k in 0..n {
            out[2 + k] = num[k];
            out[2 + n + k] = cnt[k].max(1);
        }
        let t = 2 + 2 * n;
        out[t] = ids.len() as u64;
        out[t + 1] = num[TAIL_ORDER - 1];
        out[t + 2] = cnt[TAIL_ORDER - 1].max(1);
        Ok::<(), Error>(())
    })
}

/// Closest length in the sorted multiset `lens` to `h` (ties to the shorter), leaving out
/// one copy of `h` itself when `exclude_self`.
fn closest_other_len(lens: &[usize], h: usize, exclude_self: bool) -> usize {
    let lo = lens.partition_point(|&x| x < h);
    let hi = lens.partition_point(|&x| x <= h);
    let copies = hi - lo;
    if copies > usize::from(exclude_self) {
        return h;
    }
    let below = lo.checked_sub(1).map(|j| lens[j]);
    let above = lens.get(hi).copied();
    match (below, above) {
        (Some(b), Some(a)) => {
            if h - b <= a - h {
                b
            } else {
                a
            }
        }
        (Some(b), None) => b,
        (None, Some(a)) => a,
        (None, None) => h,
    }
}

/// Intern every sentence's tokens with one shared interner.
pub fn intern_all(sents: &[Vec<&str>]) -> Vec<Vec<u32>> {
    let mut it = Interner::new();
    sents.iter().map(|s| s.iter().map(|t| it.id(t)).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sm(method: u8) -> Smoothing {
        Smoothing { method, epsilon: 0.1, alpha: Alpha::Int(5), k: 5.0 }
    }

    fn w4() -> Vec<Weights> {
        vec![Weights { w: vec![0.25; 4], uniform4: true }]
    }

    fn sentence(h: &str, refs: &[&str], method: u8) -> f64 {
        let r: Vec<Vec<&str>> = vec![refs.iter().map(|s| *s).collect()];
        let stats = batch_stats(&[h], &r, 4, 1).unwrap();
        score_stats(&stats, 4, &w4(), &sm(method), false).unwrap().scores[0]
    }

    #[test]
    fn worked_examples_of_the_specification() {
        // reference-semantics §1.2, "the cat sat on the mat" row.
        let refs = ["the cat is on the mat", "there is a cat on the mat"];
        let want = [0.254066, 0.485492, 0.379918, 0.293946, 0.380398, 0.387488, 0.410107];
        for (m, w) in (1..=7).zip(want) {
            let s = sentence("the cat sat on the mat", &refs, m);
            assert!((s - w).abs() < 5e-7, "method{m}: {s}");
        }
        assert!(sentence("the cat sat on the mat", &refs, 0) < 1e-70);
    }

    #[test]
    fn method6_without_trigram_is_an_error() {
        let r: Vec<Vec<&str>> = vec![vec!["hello there world", "hello world !"]];
        let stats = batch_stats(&["hello world"], &r, 4, 1).unwrap();
        assert!(matches!(score_stats(&stats, 4, &w4(), &sm(6), false), Err(Error::InvalidInput(_))));
    }

    #[test]
    fn auto_reweigh_short_identical() {
        let r: Vec<Vec<&str>> = vec![vec!["hello world"]];
        let stats = batch_stats(&["hello world"], &r, 4, 1).unwrap();
        assert_eq!(score_stats(&stats, 4, &w4(), &sm(0), true).unwrap().scores[0], 1.0);
    }

    #[test]
    fn correctly_rounded_division() {
        let big = |s: &str| s.parse::<BigInt>().unwrap();
        // 1/3 with huge operands equals the small-operand quotient.
        let n = big("1000000000000000000000000000000");
        let d = big("3000000000000000000000000000000");
        assert_eq!(ratio_to_f64(&n, &d), 1.0 / 3.0);
        // 2**60 + 1 over 2**60 rounds to 1.0 (ties/sticky handled).
        let two60 = BigInt::from(1u64 << 60);
        assert_eq!(ratio_to_f64(&(two60.clone() + 1), &two60), 1.0);
        let x = BigInt::from((1u64 << 53) + 1) * BigInt::from(1u64 << 20);
        assert_eq!(ratio_to_f64(&x, &BigInt::from(1u64 << 20)), 9007199254740992.0);
        assert_eq!(ratio_to_f64(&BigInt::from(7), &big("10000000000000000000000000")), 7e-25);
    }

    #[test]
    fn closest_other_length() {
        let lens = [1, 3, 3, 7];
        assert_eq!(closest_other_len(&lens, 3, true), 3);
        assert_eq!(closest_other_len(&lens, 7, true), 3);
        assert_eq!(closest_other_len(&lens, 1, true), 3);
        assert_eq!(closest_other_len(&[2, 4, 3], 3, true), 2);
        assert_eq!(closest_other_len(&lens, 7, false), 7);
    }

    #[test]
    fn self_bleu_matches_explicit_references() {
        let texts = ["a b c d", "a b c e", "b c d e f", "x y"];
        let toks: Vec<Vec<&str>> = texts.iter().map(|t| t.split(' ').collect()).collect();
        let ids = intern_all(&toks);
        let rows = self_bleu_stats(&ids, 4, true, 1).unwrap();
        let w = width(4);
        for i in 0..texts.len() {
            let others: Vec<&str> = texts.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, t)| *t).collect();
            let direct = batch_stats(&[texts[i]], &[others], 4, 1).unwrap();
            assert_eq!(&rows[i * w..(i + 1) * w], &direct[..], "sentence {i}");
        }
    }
}
