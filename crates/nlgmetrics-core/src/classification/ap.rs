//! Average precision in named conventions.
//!
//! - `step` (scikit-learn `average_precision_score`): `AP = Σ_n (R_n − R_{n−1}) P_n` over
//!   the distinct thresholds, computed as `max(0, −np.sum(np.diff(recall) * precision[:-1]))`.
//!   Not interpolated.
//! - `voc11` (PASCAL VOC2007 devkit, `voc_ap(use_07_metric=True)`):
//!   `AP = Σ_{t ∈ {0, .1, …, 1}} max_{r ≥ t} P(r) / 11`, summed left to right.
//! - `voc` (VOC2010+, all-point): precision made monotone by a backward max, then the area
//!   over the recall change points.
//! - `coco` (pycocotools `COCOeval.accumulate`): the monotone precision sampled at the 101
//!   recall thresholds `linspace(0, 1, 101)` with `searchsorted(side='left')` (0 past the
//!   end), `pr = tp / (tp + fp + eps)`; AP is the mean of the 101 samples.
//!
//! The VOC and COCO programs rank detections one by one (no merging of tied scores);
//! ties keep input order, as pycocotools' stable mergesort does.

use super::curves::PrCurve;
use super::npsum;

/// scikit-learn's step-wise AP from its precision-recall curve.
pub fn step(pr: &PrCurve) -> f64 {
    let m = pr.recall.len();
    let terms: Vec<f64> = (0..m.saturating_sub(1)).map(|k| (pr.recall[k + 1] - pr.recall[k]) * pr.precision[k]).collect();
    let v = -npsum::sum(&terms);
    if v > 0.0 {
        v
    } else {
        0.0
    }
}

/// Per-sample cumulative (tp, fp) in stable descending score order: the point set of the
/// VOC and COCO programs.
pub fn ranked_counts(y: &[bool], order: &[usize]) -> (Vec<f64>, Vec<f64>) {
    let (mut tp, mut fp) = (0.0, 0.0);
    let mut tps = Vec::with_capacity(order.len());
    let mut fps = Vec::with_capacity(order.len());
    for &i in order {
        if y[i] {
            tp += 1.0;
        } else {
            fp += 1.0;
        }
        tps.push(tp);
        fps.push(fp);
    }
    (tps, fps)
}

/// VOC devkit recall and precision: `rec = tp / npos`, `prec = tp / max(tp + fp, eps)`.
fn voc_points(tps: &[f64], fps: &[f64], npos: f64) -> (Vec<f64>, Vec<f64>) {
    let rec = tps.iter().map(|t| t / npos).collect();
    let prec = tps.iter().zip(fps).map(|(t, f)| t / (t + f).max(f64::EPSILON)).collect();
    (rec, prec)
}

/// VOC2007 11-point interpolated AP (`npos` > 0).
pub fn voc11(tps: &[f64], fps: &[f64], npos: f64) -> f64 {
    let (rec, prec) = voc_points(tps, fps, npos);
    let mut ap = 0.0;
    for i in 0..11 {
        let t = 0.0 + i as f64 * 0.1; // np.arange(0., 1.1, 0.1)
        let p = rec
            .iter()
            .zip(&prec)
            .filter(|(r, _)| **r >= t)
            .map(|(_, p)| *p)
            .fold(f64::NEG_INFINITY, f64::max);
        let p = if p == f64::NEG_INFINITY { 0.0 } else { p };
        ap += p / 11.0;
    }
    ap
}

/// VOC2010+ all-point interpolated AP (`npos` > 0).
pub fn voc_all_point(tps: &[f64], fps: &[f64], npos: f64) -> f64 {
    let (rec, prec) = voc_points(tps, fps, npos);
    let mut mrec = vec![0.0];
    mrec.extend_from_slice(&rec);
    mrec.push(1.0);
    let mut mpre = vec![0.0];
    mpre.extend_from_slice(&prec);
    mpre.push(0.0);
    for i in (1..mpre.len()).rev() {
        mpre[i - 1] = mpre[i - 1].max(mpre[i]);
    }
    let terms: Vec<f64> = (0..mrec.len() - 1)
        .filter(|&i| mrec[i + 1] != mrec[i])
        .map(|i| (mrec[i + 1] - mrec[i]) * mpre[i + 1])
        .collect();
    npsum::sum(&terms)
}

/// The 101 recall thresholds of COCO: `np.linspace(0, 1, 101)`.
pub fn coco_recall_thresholds() -> Vec<f64> {
    let mut t: Vec<f64> = (0..101).map(|i| i as f64 * 0.01 + 0.0).collect();
    t[100] = 1.0;
    t
}

/// The 101 interpolated precisions of one class (pycocotools `accumulate`, `npig` > 0).
pub fn coco_precisions(tps: &[f64], fps: &[f64], npig: f64) -> Vec<f64> {
    let rc: Vec<f64> = tps.iter().map(|t| t / npig).collect();
    let eps = f64::EPSILON; // np.spacing(1)
    let mut pr: Vec<f64> = tps.iter().zip(fps).map(|(t, f)| t / (f + t + eps)).collect();
    for i in (1..pr.len()).rev() {
        if pr[i] > pr[i - 1] {
            pr[i - 1] = pr[i];
        }
    }
    coco_recall_thresholds()
        .iter()
        .map(|&t| {
            let pi = rc.partition_point(|&r| r < t); // searchsorted(side='left')
            if pi < pr.len() {
                pr[pi]
            } else {
                0.0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::curves::{binary_clf_curve, precision_recall};
    use super::*;

    #[test]
    fn step_ap_of_reference_semantics_example() {
        let y: Vec<bool> = [0, 0, 1, 1, 1, 0, 1].iter().map(|&v| v == 1).collect();
        let s = [0.1, 0.4, 0.35, 0.8, 0.8, 0.8, 0.05];
        let pr = precision_recall(&binary_clf_curve(&y, &s, None, 1).unwrap(), false);
        assert!((step(&pr) - 0.6261904761904762).abs() < 1e-15);
    }

    #[test]
    fn perfect_ranking_gives_one_in_every_convention() {
        let (tps, fps) = (vec![1.0, 2.0, 2.0], vec![0.0, 0.0, 1.0]);
        assert!((voc11(&tps, &fps, 2.0) - 1.0).abs() < 1e-15);
        assert_eq!(voc_all_point(&tps, &fps, 2.0), 1.0);
        assert!(coco_precisions(&tps, &fps, 2.0).iter().all(|&p| (p - 1.0).abs() < 1e-15));
    }

    #[test]
    fn hand_checked_values() {
        // ranking + - + : rec .5 .5 1, prec 1 .5 .667
        let (tps, fps) = (vec![1.0, 1.0, 2.0], vec![0.0, 1.0, 1.0]);
        // all-point: 0.5*1 + 0.5*(2/3)
        assert!((voc_all_point(&tps, &fps, 2.0) - (0.5 + 1.0 / 3.0)).abs() < 1e-15);
        // 11-point: t in 0..0.5 (6 points) -> 1, t in 0.6..1 (5 points) -> 2/3
        assert!((voc11(&tps, &fps, 2.0) - (6.0 + 5.0 * 2.0 / 3.0) / 11.0).abs() < 1e-15);
        // COCO: 51 thresholds (0..=0.5) -> 1, 50 -> 2/3
        let q = coco_precisions(&tps, &fps, 2.0);
        let ap = npsum::mean(&q);
        assert!((ap - (51.0 + 50.0 * 2.0 / 3.0) / 101.0).abs() < 1e-12);
    }
}
