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
use crate::text::bleu_nltk;
#[cfg(test)]
use crate::text::bleu_nltk::{Alpha, Smoothing, Weights};
use crate::text::rouge_pltrdy::{self, Config, Kind, Variant};
use crate::tokenize::jieba::{Jieba, Mode, Scratch as JiebaScratch};

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

/// Each position's next five characters as one key (`code point + 1` in 22 bits a slot,
/// 0 past the end), sorted: every k-gram's occurrences (k <= 5) are then contiguous.
fn sorted_keys5(chars: &[u32], out: &mut Vec<u128>) {
    out.clear();
    out.extend((0..chars.len()).map(|i| {
        (0..5).fold(0u128, |acc, j| (acc << 22) | chars.get(i + j).map_or(0, |&c| c as u128 + 1))
    }));
    out.sort_unstable();
}

/// Clipped k-gram matches of two sorted key lists: the sum over k-grams of
/// `min(count_h, count_r)`. `prefix(key)` is the key's first k characters (sorted keys keep
/// equal prefixes together); `has_kth(key)` is false where the k-th slot is empty (no k-gram).
fn clipped_by<K: Copy + Ord>(h: &[K], r: &[K], prefix: impl Fn(K) -> K, has_kth: impl Fn(K) -> bool) -> u64 {
    let (mut i, mut j, mut n) = (0, 0, 0u64);
    loop {
        while i < h.len() && !has_kth(h[i]) {
            i += 1;
        }
        while j < r.len() && !has_kth(r[j]) {
            j += 1;
        }
        if i == h.len() || j == r.len() {
            return n;
        }
        let (a, b) = (prefix(h[i]), prefix(r[j]));
        if a < b {
            i += 1;
        } else if a > b {
            j += 1;
        } else {
            let (mut ca, mut cb) = (0u64, 0u64);
            while i < h.len() && prefix(h[i]) == a {
                ca += 1;
                i += 1;
            }
            while j < r.len() && prefix(r[j]) == a {
                cb += 1;
                j += 1;
            }
            n += ca.min(cb);
        }
    }
}

/// [`clipped_by`] of [`sorted_keys5`] lists (22 bits a character).
fn clipped(h: &[u128], r: &[u128], k: usize) -> u64 {
    let shift = 22 * (5 - k) as u32;
    clipped_by(h, r, |key| key >> shift, |key| (key >> shift) & ((1 << 22) - 1) != 0)
}

/// [`sorted_keys5`] for 4 characters of 16 bits (`code point + 1`): text whose code points
/// are all below U+FFFF.
fn sorted_keys4(chars: &[u32], out: &mut Vec<u64>) {
    out.clear();
    out.extend((0..chars.len()).map(|i| {
        (0..4).fold(0u64, |acc, j| (acc << 16) | chars.get(i + j).map_or(0, |&c| c as u64 + 1))
    }));
    out.sort_unstable();
}

/// [`clipped_by`] of [`sorted_keys4`] lists (16 bits a character).
fn clipped4(h: &[u64], r: &[u64], k: usize) -> u64 {
    let shift = 16 * (4 - k) as u32;
    clipped_by(h, r, |key| key >> shift, |key| (key >> shift) & 0xFFFF != 0)
}

/// Per-worker buffers of [`char_bleu_stats`].
#[derive(Default)]
pub struct CharScratch {
    h: Vec<u32>,
    r: Vec<u32>,
    kh: Vec<u128>,
    kr: Vec<u128>,
    sh: Vec<u64>,
    sr: Vec<u64>,
}

/// The first 10 columns of [`char_bleu_stats`] (lengths, then 4 orders of clipped matches
/// and counts): all that nltk's `method3` BLEU-4 reads; the 5-gram tail is left 0.
pub fn char_bleu_counts4(hyp: &str, reference: &str, s: &mut CharScratch, out: &mut [u64]) {
    s.h.clear();
    s.h.extend(hyp.chars().map(|c| c as u32));
    s.r.clear();
    s.r.extend(reference.chars().map(|c| c as u32));
    if !s.h.iter().chain(s.r.iter()).all(|&c| c < 0xFFFF) {
        char_bleu_stats(hyp, reference, s, out);
        return;
    }
    let (hl, rl) = (s.h.len(), s.r.len());
    let mut num = [0u64; 4];
    let mut cnt = [0u64; 4];
    if hl > 0 && rl > 0 {
        sorted_keys4(&s.h, &mut s.sh);
        sorted_keys4(&s.r, &mut s.sr);
    }
    for k in 1..=4 {
        if hl < k {
            break;
        }
        cnt[k - 1] = (hl - k + 1) as u64;
        if rl >= k && (k == 1 || num[k - 2] > 0) {
            num[k - 1] = clipped4(&s.sh, &s.sr, k);
        }
    }
    out.fill(0);
    out[0] = hl as u64;
    out[1] = rl as u64;
    for k in 0..4 {
        out[2 + k] = num[k];
        out[6 + k] = cnt[k].max(1);
    }
}

/// `bleu_nltk::segment_stats` of `list(hyp)` against the one reference `[list(reference)]`
/// for 4 orders (the same row, tail columns included), counted on sorted character n-grams.
pub fn char_bleu_stats(hyp: &str, reference: &str, s: &mut CharScratch, out: &mut [u64]) {
    const N: usize = 4;
    let top = N.max(bleu_nltk::TAIL_ORDER);
    debug_assert!(top <= 5);
    s.h.clear();
    s.h.extend(hyp.chars().map(|c| c as u32));
    s.r.clear();
    s.r.extend(reference.chars().map(|c| c as u32));
    let (hl, rl) = (s.h.len(), s.r.len());
    let mut num = [0u64; 8];
    let mut cnt = [0u64; 8];
    if hl > 0 && rl > 0 {
        sorted_keys5(&s.h, &mut s.kh);
        sorted_keys5(&s.r, &mut s.kr);
    }
    for k in 1..=top {
        if hl < k {
            break;
        }
        cnt[k - 1] = (hl - k + 1) as u64;
        // no (k-1)-gram in common: no k-gram either
        if rl >= k && (k == 1 || num[k - 2] > 0) {
            num[k - 1] = clipped(&s.kh, &s.kr, k);
        }
    }
    out.fill(0);
    out[0] = hl as u64;
    out[1] = rl as u64; // closest_ref_len of one reference
    for k in 0..N {
        out[2 + k] = num[k];
        out[2 + N + k] = cnt[k].max(1);
    }
    let t = 2 + 2 * N;
    out[t] = hl as u64;
    out[t + 1] = num[bleu_nltk::TAIL_ORDER - 1];
    out[t + 2] = cnt[bleu_nltk::TAIL_ORDER - 1].max(1);
}

/// nltk `sentence_bleu` with 4 uniform weights and `SmoothingFunction().method3` of one
/// statistics row, in floats: the same operations as `bleu_nltk::score_stats` takes for
/// this case (each precision `num / den` or `1 / (2**k * den)` correctly rounded: the
/// counts are far below 2**53), without its exact-rational machinery.
pub fn bleu4_method3(row: &[u64]) -> f64 {
    let (hyp_len, ref_len) = (row[0], row[1]);
    let (num, den) = (&row[2..6], &row[6..10]);
    if num[0] == 0 {
        return 0.0;
    }
    let bp = if hyp_len > ref_len { 1.0 } else { (1.0 - ref_len as f64 / hyp_len as f64).exp() };
    let mut terms = [0.0f64; 4];
    let mut incvnt = 0i32;
    for i in 0..4 {
        let p = if num[i] == 0 {
            incvnt += 1;
            1.0 / (den[i] as f64 * 2f64.powi(incvnt))
        } else {
            num[i] as f64 / den[i] as f64
        };
        terms[i] = 0.25 * p.ln();
    }
    bp * crate::fsum::fsum(terms).exp()
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
    rows_with(raw_h, raw_r, n_threads, |i, _, a, b| {
        a.push_str(cut_h[i].as_ref());
        b.push_str(cut_r[i].as_ref());
    })
}

/// [`llamafactory_rows`] segmenting both sides with `jieba` (`" ".join(jieba.cut(text))`).
pub fn llamafactory_rows_jieba<S: AsRef<str> + Sync>(raw_h: &[S], raw_r: &[S], jieba: &Jieba, n_threads: usize) -> Result<Vec<f64>> {
    let n = raw_h.len();
    if raw_r.len() != n {
        return Err(Error::LengthMismatch { what: "predictions and labels".into(), left: n, right: raw_r.len() });
    }
    rows_with(raw_h, raw_r, n_threads, |i, js, a, b| {
        for (text, out) in [(raw_h[i].as_ref(), a), (raw_r[i].as_ref(), b)] {
            let mut words: Vec<&str> = Vec::new();
            jieba.cut(text, Mode::Default, js, &mut words);
            for (k, w) in words.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                out.push_str(w);
            }
        }
    })
}

fn rows_with<S: AsRef<str> + Sync>(
    raw_h: &[S],
    raw_r: &[S],
    n_threads: usize,
    cut: impl Fn(usize, &mut JiebaScratch, &mut String, &mut String) + Sync + Send,
) -> Result<Vec<f64>> {
    let cfg = Config { variant: Variant::Chinese, kinds: vec![Kind::N(1), Kind::N(2), Kind::L], exclusive: true };
    let bw = bleu_nltk::width(4);
    let init = || {
        (
            rouge_pltrdy::Scratch::default(),
            vec![0.0; cfg.width()],
            vec![0u64; bw],
            CharScratch::default(),
            JiebaScratch::default(),
            String::new(),
            String::new(),
        )
    };
    map_rows(raw_h.len(), 4, n_threads, init, |(s, rr, br, cs, js, ch, cr), i, out| {
        ch.clear();
        cr.clear();
        cut(i, js, ch, cr);
        rouge_pltrdy::segment_stats(ch, cr, &cfg, s, rr);
        let scored = rr[9] == 2.0;
        for k in 0..3 {
            out[k] = if scored { py_round(rr[3 * k + 2] * 100.0, 4) } else { 0.0 };
        }
        char_bleu_counts4(raw_h[i].as_ref(), raw_r[i].as_ref(), cs, br);
        out[3] = py_round(bleu4_method3(br) * 100.0, 4);
        Ok::<(), Error>(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_bleu_stats_equal_the_general_ones() {
        let mut texts: Vec<String> = ["", "a", "ab", "😀a😀a😀a😀", "aa😀aa😀aa", "今天天气很好", "今天天气不错", "aaaa", "aaaaaa", "abab abab", "😀😀x😀😀", "好好好好好好", "\u{0}\u{0}a\u{0}", "\u{10FFFF}\u{0}\u{10FFFF}\u{0}"].iter().map(|t| t.to_string()).collect();
        let alphabet = ['a', 'b', '中', '\u{0}', '😀', '\u{FFFE}', '\u{FFFF}'];
        let mut x = 99u64;
        for round in 0..300 {
            let mut t = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // half the texts without U+FFFF and astral characters (the 16-bit path)
            let m = if round % 2 == 0 { 4 } else { 7 };
            for j in 0..(x % 14) {
                t.push(alphabet[((x >> (4 + 3 * j)) % m) as usize]);
            }
            texts.push(t);
        }
        let mut cs = CharScratch::default();
        for h in &texts {
            for r in &texts {
                let (h, r) = (h.as_str(), r.as_str());
                let hc: Vec<String> = h.chars().map(String::from).collect();
                let rc: Vec<String> = r.chars().map(String::from).collect();
                let hv: Vec<&str> = hc.iter().map(String::as_str).collect();
                let rv: Vec<&str> = rc.iter().map(String::as_str).collect();
                let mut want = vec![0u64; bleu_nltk::width(4)];
                bleu_nltk::segment_stats(&hv, &[rv], 4, &mut want).unwrap();
                let mut got = vec![0u64; bleu_nltk::width(4)];
                char_bleu_stats(h, r, &mut cs, &mut got);
                assert_eq!(got, want, "{h:?} {r:?}");
                char_bleu_counts4(h, r, &mut cs, &mut got);
                assert_eq!(got[..10], want[..10], "{h:?} {r:?}");
            }
        }
    }

    #[test]
    fn bleu4_method3_equals_score_stats() {
        let weights = [Weights { w: vec![0.25; 4], uniform4: true }];
        let smoothing = Smoothing { method: 3, epsilon: 0.1, alpha: Alpha::Int(5), k: 5.0 };
        let mut x = 12345u64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for _ in 0..200_000 {
            let hl = next(300);
            let rl = next(300);
            let mut row = vec![0u64; bleu_nltk::width(4)];
            row[0] = hl;
            row[1] = rl;
            for k in 0..4 {
                let cnt = hl.saturating_sub(k as u64);
                let num = if cnt == 0 || next(3) == 0 { 0 } else { next(cnt + 1) };
                row[2 + k] = num;
                row[6 + k] = cnt.max(1);
            }
            let want = bleu_nltk::score_stats(&row, 4, &weights, &smoothing, false).unwrap().scores[0];
            assert_eq!(bleu4_method3(&row).to_bits(), want.to_bits(), "{row:?}");
        }
    }

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
