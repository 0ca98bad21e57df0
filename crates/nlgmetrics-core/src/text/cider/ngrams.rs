//! Images numbered in chunks: every distinct n-gram of a chunk of images gets a dense id
//! once, in order of first occurrence, so tf, idf and reference values live in arrays
//! indexed by that id instead of hash maps keyed by the packed n-gram. The chunk's
//! distinct n-grams are also filed by shard (see [`shard`]), with the number of its
//! images whose references hold each, ready for counting or looking up a table shard
//! by shard.

use super::docfreq::{shard, SHARDS};
use super::{CiderConfig, Flavour, MAX_ORDER};
use crate::parallel::{map_range, map_rows};
use rustc_hash::FxHashMap;

/// One distinct n-gram of a sentence: its id in the chunk and its count in the sentence.
#[derive(Debug, Clone, Copy)]
struct Gram {
    id: u32,
    tf: u32,
}

/// A sentence's grams: `grams[start..ends[0]]` are its unigrams, then each order up to
/// `ends[n - 1]`, each in order of first occurrence (the reference's order).
#[derive(Debug, Clone, Copy)]
struct Sent {
    start: u32,
    ends: [u32; MAX_ORDER],
}

/// A chunk's distinct n-grams filed by shard: shard `s` holds positions
/// `off[s]..off[s + 1]`.
#[derive(Debug, Default)]
pub(super) struct Filed {
    pub(super) keys: Vec<u128>,
    /// The id of each key in the chunk.
    pub(super) ids: Vec<u32>,
    /// How many of the chunk's images hold the key in a reference.
    pub(super) docs: Vec<u32>,
    off: Vec<usize>,
}

impl Filed {
    pub(super) fn shard(&self, s: usize) -> std::ops::Range<usize> {
        self.off[s]..self.off[s + 1]
    }
}

/// Images numbered together; an image's first sentence is its hypothesis when it is
/// to be scored.
#[derive(Debug, Default)]
pub(super) struct Chunk {
    /// How each id's n-gram is formed: 1 + its prefix's id (0 for a unigram) and its
    /// last word.
    links: Vec<(u32, u32)>,
    /// How many of the chunk's images hold each id's n-gram in a reference.
    docs: Vec<u32>,
    grams: Vec<Gram>,
    sents: Vec<Sent>,
    /// The first sentence of each image.
    images: Vec<usize>,
    /// Filled by [`Chunk::finish`].
    pub(super) filed: Filed,
}

/// Scratch space for numbering a chunk, kept from one chunk to the next. An n-gram is
/// numbered by its prefix's id and its last word, a u64 key: one probe of a small map
/// per n-gram occurrence, whose entry holds all the n-gram's bookkeeping.
#[derive(Debug, Default)]
pub(super) struct Numbering {
    index: FxHashMap<u64, Slot>,
    /// The ids of the previous order's n-grams of the sentence, by start position.
    prev: Vec<u32>,
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    id: u32,
    /// 1 + the position in `grams` where the n-gram was last counted (0: never).
    last: u32,
    /// 1 + the last image whose references counted it (0: none), and their number.
    last_doc: u32,
    docs: u32,
}

impl Chunk {
    /// Empty the chunk (and `num`) for a new run of images.
    pub(super) fn clear(&mut self, num: &mut Numbering) {
        num.index.clear();
        self.links.clear();
        self.docs.clear();
        self.grams.clear();
        self.sents.clear();
        self.images.clear();
    }

    /// The number of distinct n-grams (ids run from 0 to this).
    pub(super) fn n_ids(&self) -> usize {
        self.links.len()
    }

    pub(super) fn n_images(&self) -> usize {
        self.images.len()
    }

    pub(super) fn begin_image(&mut self) {
        self.images.push(self.sents.len());
    }

    fn sents_of(&self, i: usize) -> &[Sent] {
        &self.sents[self.images[i]..self.images.get(i + 1).map_or(self.sents.len(), |&s| s)]
    }

    /// Add a sentence (word ids, from 1) to the image begun last; `num` must have been
    /// cleared with the chunk.
    pub(super) fn add_sentence(&mut self, num: &mut Numbering, words: &[u32], max_order: usize, is_ref: bool) {
        let image = self.images.len() as u32;
        let start = self.grams.len() as u32;
        let mut ends = [0u32; MAX_ORDER];
        let prev = &mut num.prev;
        for (n, end) in ends.iter_mut().enumerate() {
            if n < max_order && n < words.len() {
                for j in 0..words.len() - n {
                    let link = (if n == 0 { 0 } else { prev[j] + 1 }, words[j + n]);
                    let next = self.links.len() as u32;
                    let slot = num.index.entry(u64::from(link.0) << 32 | u64::from(link.1)).or_insert(Slot {
                        id: next,
                        last: 0,
                        last_doc: 0,
                        docs: 0,
                    });
                    if slot.id == next {
                        self.links.push(link);
                    }
                    // The n-gram at j extends the (n-1)-gram at j, needed no more.
                    if n == 0 {
                        prev.push(slot.id);
                    } else {
                        prev[j] = slot.id;
                    }
                    if is_ref && slot.last_doc != image {
                        slot.last_doc = image;
                        slot.docs += 1;
                    }
                    if slot.last > start {
                        self.grams[slot.last as usize - 1].tf += 1;
                    } else {
                        self.grams.push(Gram { id: slot.id, tf: 1 });
                        slot.last = self.grams.len() as u32;
                    }
                }
            }
            *end = self.grams.len() as u32;
        }
        prev.clear();
        self.sents.push(Sent { start, ends });
    }

    /// Give the image begun last (its hypothesis added) the references of the image
    /// before it, already numbered: in self-critical training several samples of an
    /// image share its references. Their documents are not counted again, so this is
    /// only for a fixed table.
    pub(super) fn repeat_refs(&mut self) {
        let n = self.images.len();
        self.sents.extend_from_within(self.images[n - 2] + 1..self.images[n - 1]);
    }

    /// Close the chunk's numbering (before `num` numbers another chunk).
    pub(super) fn seal(&mut self, num: &Numbering) {
        self.docs.resize(self.links.len(), 0);
        for slot in num.index.values() {
            self.docs[slot.id as usize] = slot.docs;
        }
    }

    /// Pack each id's n-gram, its words renamed by `rename[word - 1]` if given, and file
    /// them by shard (a counting sort).
    pub(super) fn finish(&mut self, rename: Option<&[u32]>) {
        let mut keys: Vec<u128> = Vec::with_capacity(self.links.len());
        let mut lane: Vec<u8> = Vec::with_capacity(self.links.len());
        for &(parent, word) in &self.links {
            let word = u128::from(rename.map_or(word, |r| r[word as usize - 1]));
            let (prefix, n) = if parent == 0 { (0, 0) } else { (keys[parent as usize - 1], lane[parent as usize - 1] + 1) };
            keys.push(prefix | word << (32 * u32::from(n)));
            lane.push(n);
        }
        let shards: Vec<u8> = keys.iter().map(|&k| shard(k) as u8).collect();
        let f = &mut self.filed;
        f.off = vec![0; SHARDS + 1];
        for &s in &shards {
            f.off[s as usize + 1] += 1;
        }
        for s in 0..SHARDS {
            f.off[s + 1] += f.off[s];
        }
        let n = keys.len();
        (f.keys, f.ids, f.docs) = (vec![0; n], vec![0; n], vec![0; n]);
        let mut next = f.off.clone();
        for (id, &s) in shards.iter().enumerate() {
            let p = next[s as usize];
            next[s as usize] += 1;
            f.keys[p] = keys[id];
            f.ids[p] = id as u32;
            f.docs[p] = self.docs[id];
        }
    }
}

/// A sentence's tf-idf values (by gram), norms per order and "length" (bigram count).
#[derive(Default)]
struct SentVals {
    val: Vec<f64>,
    norm: [f64; MAX_ORDER],
    length: f64,
}

impl SentVals {
    fn compute(&mut self, grams: &[Gram], s: &Sent, w: &[f64]) {
        self.val.clear();
        self.norm = [0.0; MAX_ORDER];
        let mut length = 0u64;
        let mut from = s.start as usize;
        for (n, &end) in s.ends.iter().enumerate() {
            for g in &grams[from..end as usize] {
                let v = f64::from(g.tf) * w[g.id as usize];
                self.val.push(v);
                self.norm[n] += v * v;
                if n == 1 {
                    length += u64::from(g.tf);
                }
            }
            from = end as usize;
        }
        for x in &mut self.norm {
            *x = x.sqrt();
        }
        self.length = length as f64;
    }
}

#[derive(Default)]
pub(super) struct ScoreScratch {
    hyp: SentVals,
    refv: SentVals,
    /// A reference's value of each id (0 where the reference lacks the n-gram).
    dense: Vec<f64>,
}

impl Chunk {
    /// The scores of the chunk's images given `w[id] = ln(n_docs) − ln(max(1, df))`.
    pub(super) fn scores(&self, w: &[f64], cfg: &CiderConfig, s: &mut ScoreScratch, out: &mut [f64]) {
        s.dense.clear();
        s.dense.resize(w.len(), 0.0);
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.score(i, w, cfg, s);
        }
    }

    fn score(&self, i: usize, w: &[f64], cfg: &CiderConfig, s: &mut ScoreScratch) -> f64 {
        let (hyp, refs) = self.sents_of(i).split_first().expect("an image holds its hypothesis");
        s.hyp.compute(&self.grams, hyp, w);
        let mut score = [0.0f64; MAX_ORDER];
        for r in refs {
            s.refv.compute(&self.grams, r, w);
            self.add_reference(hyp, &s.hyp, r, &s.refv, cfg, &mut s.dense, &mut score);
        }
        final_score(&score, cfg.max_order, refs.len())
    }

    /// Add reference `r`'s term of each order to `score`, for hypothesis `hyp`; `dense`
    /// (one slot per id) is all zeros before and after.
    #[allow(clippy::too_many_arguments)]
    fn add_reference(
        &self,
        hyp: &Sent,
        hv: &SentVals,
        r: &Sent,
        rv: &SentVals,
        cfg: &CiderConfig,
        dense: &mut [f64],
        score: &mut [f64; MAX_ORDER],
    ) {
        let ref_grams = &self.grams[r.start as usize..r.ends[MAX_ORDER - 1] as usize];
        for (g, &v) in ref_grams.iter().zip(&rv.val) {
            dense[g.id as usize] = v;
        }
        let delta = hv.length - rv.length;
        let penalty = std::f64::consts::E.powf(-(delta.powf(2.0)) / (2.0 * cfg.sigma.powf(2.0)));
        let mut from = hyp.start as usize;
        let mut p = 0;
        for (n, total) in score.iter_mut().enumerate().take(cfg.max_order) {
            let end = hyp.ends[n] as usize;
            let mut val = 0.0f64;
            for g in &self.grams[from..end] {
                let (vh, vr) = (hv.val[p], dense[g.id as usize]);
                val += match cfg.flavour {
                    Flavour::CiderD => vh.min(vr) * vr,
                    Flavour::Cider => vh * vr,
                };
                p += 1;
            }
            from = end;
            if hv.norm[n] != 0.0 && rv.norm[n] != 0.0 {
                val /= hv.norm[n] * rv.norm[n];
            }
            if cfg.flavour == Flavour::CiderD {
                val *= penalty;
            }
            *total += val;
        }
        for g in ref_grams {
            dense[g.id as usize] = 0.0;
        }
    }

    /// MBR: the score of each of the first `n_hyps` sentences of the chunk (one image)
    /// against each later sentence as its only reference, row-major. Each sentence's
    /// values are computed once; a pair costs one sparse dot product per order.
    pub(super) fn pair_scores(&self, w: &[f64], cfg: &CiderConfig, n_hyps: usize, n_threads: usize) -> Vec<f64> {
        let vals: Vec<SentVals> = map_range(self.sents.len(), n_threads, || (), |_, i| {
            let mut v = SentVals::default();
            v.compute(&self.grams, &self.sents[i], w);
            v
        });
        let (hyps, refs) = self.sents.split_at(n_hyps);
        let (hv, rv) = vals.split_at(n_hyps);
        let rows = map_rows(hyps.len(), refs.len(), n_threads, || vec![0.0; w.len()], |dense, i, row: &mut [f64]| {
            for (j, out) in row.iter_mut().enumerate() {
                let mut score = [0.0f64; MAX_ORDER];
                self.add_reference(&hyps[i], &hv[i], &refs[j], &rv[j], cfg, dense, &mut score);
                *out = final_score(&score, cfg.max_order, 1);
            }
            Ok::<(), std::convert::Infallible>(())
        });
        match rows {
            Ok(v) => v,
            Err(never) => match never {},
        }
    }
}

/// The mean over orders of the summed reference terms, per reference, times 10.
fn final_score(score: &[f64; MAX_ORDER], n_max: usize, n_refs: usize) -> f64 {
    let mut mean = 0.0;
    for v in &score[..n_max] {
        mean += v;
    }
    mean /= n_max as f64;
    mean /= n_refs as f64;
    mean * 10.0
}
