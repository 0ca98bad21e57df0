use super::*;

fn cfg(flavour: Flavour) -> CiderConfig {
    CiderConfig { flavour, max_order: 4, sigma: 6.0 }
}

fn example() -> (Vec<&'static str>, Vec<Vec<&'static str>>) {
    (
        vec!["a man riding a horse on the beach", "a cat sitting on a couch", "two dogs playing in the snow"],
        vec![
            vec!["a man rides a horse along the beach", "a person on a horse at the beach"],
            vec!["a cat lies on the sofa", "a cat sitting on a couch in a living room"],
            vec!["two dogs play in the snow", "dogs running through snow"],
        ],
    )
}

#[test]
fn single_image_corpus_is_zero() {
    let s = scores(&cfg(Flavour::CiderD), &["a b c"], &[vec!["a b c"]], CaptionTokenizer::Split, None, 1).unwrap();
    assert_eq!(s, [0.0]);
}

#[test]
fn fixed_df_equal_to_fitted_gives_same_scores() {
    let (h, r) = example();
    let a = scores(&cfg(Flavour::CiderD), &h, &r, CaptionTokenizer::Split, None, 1).unwrap();
    let df = fit(&r, 4);
    let b = scores(&cfg(Flavour::CiderD), &h, &r, CaptionTokenizer::Split, Some(&df), 1).unwrap();
    assert_eq!(a, b);
    assert!(a.iter().all(|&x| x > 0.0));
}

#[test]
fn merge_equals_fit_of_union_and_round_trips() {
    let (_, r) = example();
    let whole = fit(&r, 4);
    let merged = fit(&r[..1], 4).merge(&fit(&r[1..], 4)).unwrap();
    assert_eq!(whole.entries(), merged.entries());
    assert_eq!(merged.n_docs(), 3);
    let (g, c): (Vec<String>, Vec<u64>) = whole.entries().into_iter().unzip();
    let back = DocFreq::from_entries(&g, &c, 3, 4).unwrap();
    assert_eq!(back.entries(), whole.entries());
    assert_eq!(back.get("a cat"), 1);
    assert_eq!(back.get("the"), 3);
    assert_eq!(back.get("zebra"), 0);
}

#[test]
fn token_ids_match_strings() {
    let text = IdText { eos: Some(0), include_eos: true };
    let refs_s = vec![vec!["5 6 7 0", "5 8 0"], vec!["9 6 0", "9 9 7 0"]];
    let refs_i: Vec<Vec<Vec<i64>>> = vec![vec![vec![5, 6, 7, 0, 0], vec![5, 8, 0]], vec![vec![9, 6, 0], vec![9, 9, 7, 0, 0, 0]]];
    let mut df = DocFreq::new(4);
    for rs in &refs_i {
        df.add_document_token_ids(rs, &text);
    }
    let hyps_i = vec![vec![5, 6, 0, 0], vec![9, 7, 0, 3]];
    let a = scores_token_ids(&cfg(Flavour::CiderD), &hyps_i, &refs_i, text, &df, 1).unwrap();
    let b = scores(&cfg(Flavour::CiderD), &["5 6 0", "9 7 0"], &refs_s, CaptionTokenizer::Split, Some(&df), 1).unwrap();
    assert_eq!(a, b);
}

#[test]
fn unclipped_is_at_least_clipped_without_penalty_effects() {
    let (h, r) = example();
    let d = scores(&cfg(Flavour::CiderD), &h, &r, CaptionTokenizer::Split, None, 1).unwrap();
    let c = scores(&cfg(Flavour::Cider), &h, &r, CaptionTokenizer::Split, None, 1).unwrap();
    for (x, y) in d.iter().zip(&c) {
        assert!(y >= x);
    }
}

#[test]
fn errors() {
    let e = scores(&cfg(Flavour::CiderD), &["a"], &[Vec::<&str>::new()], CaptionTokenizer::Split, None, 1).unwrap_err();
    assert_eq!(e, Error::MissingReference { index: 0 });
    let bad = CiderConfig { flavour: Flavour::CiderD, max_order: 5, sigma: 6.0 };
    assert!(bad.validate().is_err());
}

/// pycocoevalcap's computation written plainly (strings, per-sentence ordered maps), to
/// check the numbered implementation against, bit for bit.
mod plain {
    use super::super::{CiderConfig, Flavour};
    use std::collections::{HashMap, HashSet};

    /// A sentence's n-grams with their counts, by order then first occurrence.
    fn cook(s: &str, n: usize) -> Vec<(Vec<&str>, u32)> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let mut out: Vec<(Vec<&str>, u32)> = Vec::new();
        let mut at: HashMap<Vec<&str>, usize> = HashMap::new();
        for k in 1..=n {
            for g in words.windows(k) {
                match at.get(g) {
                    Some(&p) => out[p].1 += 1,
                    None => {
                        at.insert(g.to_vec(), out.len());
                        out.push((g.to_vec(), 1));
                    }
                }
            }
        }
        out
    }

    pub fn doc_freq<'a>(refs: &[Vec<&'a str>], n: usize) -> HashMap<Vec<&'a str>, u64> {
        let mut df = HashMap::new();
        for rs in refs {
            let set: HashSet<Vec<&str>> = rs.iter().flat_map(|r| cook(r, n)).map(|(g, _)| g).collect();
            for g in set {
                *df.entry(g).or_insert(0) += 1;
            }
        }
        df
    }

    struct Vec2<'a> {
        vals: Vec<(Vec<&'a str>, f64)>,
        norm: Vec<f64>,
        length: f64,
    }

    fn vectorize<'a>(s: &'a str, n: usize, df: &HashMap<Vec<&str>, u64>, ref_len: f64) -> Vec2<'a> {
        let (mut vals, mut norm, mut length) = (Vec::new(), vec![0.0f64; n], 0u64);
        for (g, tf) in cook(s, n) {
            let d = (df.get(&g).copied().unwrap_or(0) as f64).max(1.0).ln();
            let v = f64::from(tf) * (ref_len - d);
            norm[g.len() - 1] += v * v;
            if g.len() == 2 {
                length += u64::from(tf);
            }
            vals.push((g, v));
        }
        Vec2 { vals, norm: norm.into_iter().map(f64::sqrt).collect(), length: length as f64 }
    }

    pub fn scores(cfg: &CiderConfig, hyps: &[&str], refs: &[Vec<&str>], df: &HashMap<Vec<&str>, u64>, n_docs: u64) -> Vec<f64> {
        let (n, ref_len) = (cfg.max_order, (n_docs as f64).ln());
        hyps.iter()
            .zip(refs)
            .map(|(h, rs)| {
                let hv = vectorize(h, n, df, ref_len);
                let mut score = vec![0.0f64; n];
                for r in rs {
                    let rv = vectorize(r, n, df, ref_len);
                    let rmap: HashMap<&Vec<&str>, f64> = rv.vals.iter().map(|(g, v)| (g, *v)).collect();
                    let delta = hv.length - rv.length;
                    let mut val = vec![0.0f64; n];
                    for (g, vh) in &hv.vals {
                        let vr = rmap.get(g).copied().unwrap_or(0.0);
                        val[g.len() - 1] += match cfg.flavour {
                            Flavour::CiderD => vh.min(vr) * vr,
                            Flavour::Cider => vh * vr,
                        };
                    }
                    for k in 0..n {
                        if hv.norm[k] != 0.0 && rv.norm[k] != 0.0 {
                            val[k] /= hv.norm[k] * rv.norm[k];
                        }
                        if cfg.flavour == Flavour::CiderD {
                            val[k] *= std::f64::consts::E.powf(-(delta.powf(2.0)) / (2.0 * cfg.sigma.powf(2.0)));
                        }
                        score[k] += val[k];
                    }
                }
                let mut mean = 0.0;
                for v in &score {
                    mean += v;
                }
                mean / n as f64 / rs.len() as f64 * 10.0
            })
            .collect()
    }
}

/// splitmix64: a reproducible stream of pseudo-random numbers.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Captions over a small vocabulary (so n-grams repeat within and across images),
/// including empty ones and runs of one word.
fn random_corpus(rng: &mut Rng, n_images: usize, words: &[&str]) -> (Vec<String>, Vec<Vec<String>>) {
    let sentence = |rng: &mut Rng| -> String {
        let len = rng.below(14);
        let w: Vec<&str> = (0..len).map(|_| if rng.below(5) == 0 { words[0] } else { words[rng.below(words.len())] }).collect();
        w.join(" ")
    };
    let hyps = (0..n_images).map(|_| sentence(rng)).collect();
    let refs = (0..n_images).map(|_| (0..1 + rng.below(5)).map(|_| sentence(rng)).collect()).collect();
    (hyps, refs)
}

fn as_strs(h: &[String], r: &[Vec<String>]) -> (Vec<&'static str>, Vec<Vec<&'static str>>) {
    let leak = |s: &String| -> &'static str { Box::leak(s.clone().into_boxed_str()) };
    (h.iter().map(leak).collect(), r.iter().map(|rs| rs.iter().map(leak).collect()).collect())
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn corpus_mode_matches_plain_reference_bit_for_bit() {
    let words = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];
    let mut rng = Rng(7);
    for round in 0..6 {
        // More images than a chunk, so that n-grams are counted across chunks.
        let (h, r) = random_corpus(&mut rng, [3, 130, 300, 1, 257, 40][round], &words[..(4 + 2 * round).min(12)]);
        let (hs, rs) = as_strs(&h, &r);
        for n in 1..=MAX_ORDER {
            for flavour in [Flavour::CiderD, Flavour::Cider] {
                let c = CiderConfig { flavour, max_order: n, sigma: [6.0, 2.5][round % 2] };
                let df = plain::doc_freq(&rs, n);
                if df.is_empty() {
                    assert!(scores(&c, &h, &r, CaptionTokenizer::Split, None, 1).is_err());
                    continue;
                }
                let want = plain::scores(&c, &hs, &rs, &df, hs.len() as u64);
                for threads in [1, 2, 3] {
                    let got = scores(&c, &h, &r, CaptionTokenizer::Split, None, threads).unwrap();
                    assert_eq!(bits(&got), bits(&want), "round {round}, n={n}, {flavour:?}, {threads} threads");
                }
            }
        }
    }
}

#[test]
fn fixed_df_matches_plain_reference_bit_for_bit() {
    let words = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut rng = Rng(11);
    let (_, train) = random_corpus(&mut rng, 400, &words[..6]);
    // Words 6 and 7 are unknown to the table.
    let (h, r) = random_corpus(&mut rng, 300, &words);
    let (_, train_s) = as_strs(&[], &train);
    let (hs, rs) = as_strs(&h, &r);
    for n in 1..=MAX_ORDER {
        let df = fit(&train, n);
        let want_df = plain::doc_freq(&train_s, n);
        assert_eq!(df.len(), want_df.len());
        for flavour in [Flavour::CiderD, Flavour::Cider] {
            let c = CiderConfig { flavour, max_order: n, sigma: 6.0 };
            let want = plain::scores(&c, &hs, &rs, &want_df, 400);
            for threads in [1, 2, 3] {
                let got = scores(&c, &h, &r, CaptionTokenizer::Split, Some(&df), threads).unwrap();
                assert_eq!(bits(&got), bits(&want), "n={n}, {flavour:?}, {threads} threads");
            }
        }
    }
}

#[test]
fn fit_counts_every_image_once_whatever_the_threads() {
    let words = ["a", "b", "c", "d", "e"];
    let (_, r) = random_corpus(&mut Rng(3), 333, &words);
    let mut one_by_one = DocFreq::new(3);
    for rs in &r {
        one_by_one.add_document(rs);
    }
    let (_, rs) = as_strs(&[], &r);
    let mut want: Vec<(String, u64)> = plain::doc_freq(&rs, 3).into_iter().map(|(g, c)| (g.join(" "), c)).collect();
    want.sort_unstable();
    assert_eq!(one_by_one.entries(), want);
    for threads in [1, 2, 3] {
        let df = fit_threads(&r, 3, threads);
        assert_eq!(df.entries(), want);
        assert_eq!(df.n_docs(), 333);
    }
}

#[test]
fn shared_references_of_consecutive_samples_score_as_if_numbered_again() {
    // Self-critical training scores several samples per image, each with the image's
    // references: consecutive rows share them, which the numbering reuses.
    let words = ["a", "b", "c", "d", "e", "f"];
    let mut rng = Rng(5);
    let (_, train) = random_corpus(&mut rng, 50, &words[..5]);
    let (h, r) = random_corpus(&mut rng, 400, &words);
    let r: Vec<Vec<String>> = r.iter().enumerate().map(|(i, _)| r[i - i % (1 + i % 4)].clone()).collect();
    let df = fit(&train, 4);
    let (_, train_s) = as_strs(&[], &train);
    let (hs, rs) = as_strs(&h, &r);
    let want = plain::scores(&cfg(Flavour::CiderD), &hs, &rs, &plain::doc_freq(&train_s, 4), 50);
    for threads in [1, 2] {
        let got = scores(&cfg(Flavour::CiderD), &h, &r, CaptionTokenizer::Split, Some(&df), threads).unwrap();
        assert_eq!(bits(&got), bits(&want));
    }
    // The same captions as token ids ("a" is 1, ...; 0 ends a caption), and as the
    // strings those ids stand for.
    let text = IdText { eos: Some(0), include_eos: false };
    let ids = |s: &String| -> Vec<i64> { s.split_whitespace().map(|w| i64::from(w.as_bytes()[0] - b'a' + 1)).chain([0, 0]).collect() };
    let spelled = |s: &String| -> String { ids(s).iter().take_while(|&&x| x != 0).map(i64::to_string).collect::<Vec<_>>().join(" ") };
    let mut df_ids = DocFreq::new(4);
    for rs in &train {
        df_ids.add_document_token_ids(&rs.iter().map(ids).collect::<Vec<_>>(), &text);
    }
    let hi: Vec<Vec<i64>> = h.iter().map(ids).collect();
    let ri: Vec<Vec<Vec<i64>>> = r.iter().map(|rs| rs.iter().map(ids).collect()).collect();
    let hd: Vec<String> = h.iter().map(spelled).collect();
    let rd: Vec<Vec<String>> = r.iter().map(|rs| rs.iter().map(spelled).collect()).collect();
    let want_ids = scores(&cfg(Flavour::CiderD), &hd, &rd, CaptionTokenizer::Split, Some(&df_ids), 1).unwrap();
    assert_eq!(bits(&want_ids), bits(&want));
    for threads in [1, 2] {
        let got = scores_token_ids(&cfg(Flavour::CiderD), &hi, &ri, text, &df_ids, threads).unwrap();
        assert_eq!(bits(&got), bits(&want));
    }
}

#[test]
fn pairwise_equals_each_pair_scored_alone() {
    let words = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut rng = Rng(23);
    let (_, train) = random_corpus(&mut rng, 200, &words[..6]);
    // Words 6 and 7 are unknown to the table; some sentences are empty.
    let (cands, pseudo) = random_corpus(&mut rng, 37, &words);
    let refs: Vec<String> = pseudo.into_iter().flatten().take(29).collect();
    for n in [1, 2, 4] {
        let df = fit(&train, n);
        for flavour in [Flavour::CiderD, Flavour::Cider] {
            let c = CiderConfig { flavour, max_order: n, sigma: 6.0 };
            let pairs: Vec<&String> = cands.iter().flat_map(|h| refs.iter().map(move |_| h)).collect();
            let alone: Vec<Vec<&String>> = cands.iter().flat_map(|_| refs.iter().map(|r| vec![r])).collect();
            for tok in [CaptionTokenizer::Split, CaptionTokenizer::Ptb] {
                let want = scores(&c, &pairs, &alone, tok, Some(&df), 1).unwrap();
                for threads in [1, 2, 3] {
                    let got = pairwise(&c, &cands, &refs, tok, &df, threads).unwrap();
                    assert_eq!(bits(&got), bits(&want), "n={n}, {flavour:?}, {tok:?}, {threads} threads");
                }
            }
        }
    }
    let df = fit(&train, 4);
    assert!(pairwise(&cfg(Flavour::CiderD), &cands, &[] as &[&str], CaptionTokenizer::Split, &df, 1).unwrap().is_empty());
    assert!(pairwise(&cfg(Flavour::CiderD), &cands, &refs, CaptionTokenizer::Split, &fit(&train, 2), 1).is_err());
}
