//! The per-example text-similarity numbers of the Chinese LLM fine-tuning toolchains.
//!
//! LLaMA-Factory 0.9.5 `ComputeSimilarity` (and its `scripts/eval_bleu_rouge.py`, ChatGLM's
//! `ptuning/main.py`), per (prediction, label):
//! - `rouge-1`, `rouge-2`, `rouge-l`: `rouge_chinese.Rouge().get_scores` F of the jieba
//!   words joined by spaces, or 0.0 when either side has no word;
//! - `bleu-4`: nltk `sentence_bleu([list(label)], list(pred), smoothing_function=
//!   SmoothingFunction().method3)` over characters;
//! each `round(value * 100, 4)`. The corpus value is a mean the caller takes.

use crate::error::{Error, Result};
use crate::parallel::map_rows;
use crate::text::bleu_nltk::{self, Alpha, Smoothing, Weights};
use crate::text::rouge_pltrdy::{self, Config, Kind, Variant};

/// `round(x, ndigits)` of CPython for a finite double and `0 <= ndigits <= 8`: the
/// exact decimal value rounded half to even at `ndigits` digits, then the nearest double.
pub fn py_round(x: f64, ndigits: u32) -> f64 {
    if !x.is_finite() || x == 0.0 || ndigits > 8 {
        return x;
    }
    let bits = x.to_bits();
    let neg = bits >> 63 == 1;
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp == 0 { (frac, -1074i64) } else { (frac | (1u64 << 52), exp - 1075) };
    if e >= 0 {
        return x; // an integer
    }
    let k = (-e) as u32;
    if k >= 120 {
        return if neg { -0.0 } else { 0.0 }; // |x| < 2^-67: rounds to zero at <= 8 digits
    }
    let scaled = (m as u128) * 10u128.pow(ndigits); // x * 10^nd = scaled / 2^k exactly
    let q = scaled >> k;
    let r = scaled - (q << k);
    let half = 1u128 << (k - 1);
    let q = if r > half || (r == half && q & 1 == 1) { q + 1 } else { q };
    let v = q as f64 / 10f64.powi(ndigits as i32);
    if neg {
        -v
    } else {
        v
    }
}

fn chars(s: &str) -> Vec<&str> {
    s.char_indices().map(|(i, c)| &s[i..i + c.len_utf8()]).collect()
}

/// Rows `[rouge-1, rouge-2, rouge-l, bleu-4]` (×100, rounded to 4 digits), one per pair.
/// `cut_*` are the jieba words joined by spaces, `raw_*` the texts.
pub fn llamafactory_rows<S: AsRef<str> + Sync>(raw_h: &[S], raw_r: &[S], cut_h: &[S], cut_r: &[S], n_threads: usize) -> Result<Vec<f64>> {
    let n = raw_h.len();
    for (what, len) in [("labels", raw_r.len()), ("segmented predictions", cut_h.len()), ("segmented labels", cut_r.len())] {
        if len != n {
            return Err(Error::LengthMismatch { what: format!("predictions and {what}"), left: n, right: len });
        }
    }
    let cfg = Config { variant: Variant::Chinese, kinds: vec![Kind::N(1), Kind::N(2), Kind::L], exclusive: true };
    let weights = [Weights { w: vec![0.25; 4], uniform4: true }];
    let smoothing = Smoothing { method: 3, epsilon: 0.1, alpha: Alpha::Int(5), k: 5.0 };
    let bw = bleu_nltk::width(4);
    map_rows(n, 4, n_threads, || (rouge_pltrdy::Scratch::default(), vec![0.0; cfg.width()], vec![0u64; bw]), |(s, rr, br), i, out| {
        rouge_pltrdy::segment_stats(cut_h[i].as_ref(), cut_r[i].as_ref(), &cfg, s, rr);
        let scored = rr[9] == 2.0;
        for k in 0..3 {
            out[k] = if scored { py_round(rr[3 * k + 2] * 100.0, 4) } else { 0.0 };
        }
        let h = chars(raw_h[i].as_ref());
        let r = vec![chars(raw_r[i].as_ref())];
        bleu_nltk::segment_stats(&h, &r, 4, br)?;
        let b = bleu_nltk::score_stats(br, 4, &weights, &smoothing, false)?;
        out[3] = py_round(b.scores[0] * 100.0, 4);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_half_even_on_exact_ties() {
        assert_eq!(py_round(0.00005, 4), 0.0001); // 0.00005 is above the tie in binary
        assert_eq!(py_round(2.5, 0), 2.0);
        assert_eq!(py_round(3.5, 0), 4.0);
        assert_eq!(py_round(12.34565, 4), 12.3456); // below the tie in binary
        assert_eq!(py_round(-1.23456789, 4), -1.2346);
        assert_eq!(py_round(100.0, 4), 100.0);
    }
}
