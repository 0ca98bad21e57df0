//! sacrebleu 2.6's BLEU of float32 resampled totals, as it runs under NumPy ≥ 2.
//!
//! sacrebleu's bootstrap passes `np.float32` totals to `BLEU.compute_bleu`. Under NumPy 2's
//! promotion rules (NEP 50) a Python float times a `float32` stays `float32`, so each
//! precision `100. * correct / total` (and the `exp`/`floor` smoothing terms) is computed
//! in single precision before `math.log` widens it; lengths go through `int()`, the brevity
//! penalty and the log-average stay in double precision. This module repeats those
//! operations so that `method="sacrebleu"` reproduces sacrebleu's resample scores bit for bit.

use crate::text::bleu::Smoothing;

fn my_log(x: f64) -> f64 {
    if x == 0.0 {
        -9_999_999_999.0
    } else {
        x.ln()
    }
}

/// `BLEU.compute_bleu(correct, total, int(sys_len), int(ref_len), ...)` with float32
/// `correct`/`total`; `stats = [hyp_len, ref_len, correct_1..N, total_1..N]`.
pub fn bleu_score_f32(stats: &[f32], max_order: usize, smooth: Smoothing, effective_order: bool) -> f64 {
    let sys_len = stats[0] as u64;
    let ref_len = stats[1] as u64;
    let mut correct = stats[2..2 + max_order].to_vec();
    let mut total = stats[2 + max_order..2 + 2 * max_order].to_vec();
    let mut bp = 1.0f64;
    if sys_len < ref_len {
        bp = if sys_len > 0 { (1.0 - ref_len as f64 / sys_len as f64).exp() } else { 0.0 };
    }
    if correct.iter().all(|&c| c == 0.0) {
        return 0.0;
    }
    let mut precisions = vec![0.0f64; max_order];
    let mut smooth_mteval = 1.0f64;
    let mut eff_order = max_order;
    for n in 1..=max_order {
        if let Smoothing::AddK(k) = smooth {
            if n > 1 {
                correct[n - 1] += k as f32;
                total[n - 1] += k as f32;
            }
        }
        if total[n - 1] == 0.0 {
            break;
        }
        if effective_order {
            eff_order = n;
        }
        if correct[n - 1] == 0.0 {
            match smooth {
                Smoothing::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n - 1] = (100.0f32 / (smooth_mteval as f32 * total[n - 1])) as f64;
                }
                // `100. * smooth_value` is a Python float product, then cast to float32.
                Smoothing::Floor(v) => precisions[n - 1] = ((100.0 * v) as f32 / total[n - 1]) as f64,
                _ => {}
            }
        } else {
            precisions[n - 1] = ((100.0f32 * correct[n - 1]) / total[n - 1]) as f64;
        }
    }
    let mut s = 0.0;
    for &p in &precisions[..eff_order] {
        s += my_log(p);
    }
    bp * (s / eff_order as f64).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::bleu::score_stats;

    #[test]
    fn close_to_the_double_precision_score() {
        let stats = [1000u64, 1100, 700, 400, 250, 150, 1000, 990, 980, 970];
        let f: Vec<f32> = stats.iter().map(|&x| x as f32).collect();
        let a = bleu_score_f32(&f, 4, Smoothing::Exp, false);
        let b = score_stats(&stats, 4, Smoothing::Exp, false).score;
        assert!((a - b).abs() < 1e-5 * b, "{a} vs {b}");
        assert_eq!(bleu_score_f32(&[3.0, 3.0, 0.0, 0.0, 0.0, 0.0, 3.0, 2.0, 1.0, 0.0], 4, Smoothing::Exp, false), 0.0);
    }
}
