//! Corpus mode: the document frequencies are counted over the scored references
//! themselves. Chunks of images are numbered in parallel; then each shard of the df is
//! counted from every chunk's keys of that shard and looked up for them while its map
//! is small and hot; then the chunks are scored in parallel.

use super::docfreq::{Counts, Shard, Vocab, SHARDS};
use super::ngrams::{Chunk, Numbering, ScoreScratch};
use super::CiderConfig;
use crate::parallel::map_range;
use super::CHUNK;
use crate::pystr::py_split;

/// Every sentence as word ids, flat; image `i` holds sentences `images[i]..images[i + 1]`.
pub(super) struct Corpus {
    ids: Vec<u32>,
    sent_ends: Vec<usize>,
    images: Vec<usize>,
}

impl Corpus {
    /// Intern the words of `hyps` (if any) and `refs`, image by image, hypothesis first.
    pub(super) fn new<H: AsRef<str>, R: AsRef<str>>(vocab: &mut Vocab, hyps: Option<&[H]>, refs: &[Vec<R>]) -> Self {
        let mut c = Corpus { ids: Vec::new(), sent_ends: vec![0], images: vec![0] };
        let mut add = |c: &mut Corpus, s: &str| {
            c.ids.extend(py_split(s).map(|t| vocab.intern(t)));
            c.sent_ends.push(c.ids.len());
        };
        for (i, rs) in refs.iter().enumerate() {
            if let Some(h) = hyps {
                add(&mut c, h[i].as_ref());
            }
            for r in rs {
                add(&mut c, r.as_ref());
            }
            c.images.push(c.sent_ends.len() - 1);
        }
        c
    }

    fn n_images(&self) -> usize {
        self.images.len() - 1
    }

    fn sentence(&self, j: usize) -> &[u32] {
        &self.ids[self.sent_ends[j]..self.sent_ends[j + 1]]
    }

    /// Number the images in chunks of [`CHUNK`]; the first sentence of each image is a
    /// reference unless `has_hyp`.
    pub(super) fn number(&self, max_order: usize, has_hyp: bool, n_threads: usize) -> Vec<Chunk> {
        map_range(self.n_images().div_ceil(CHUNK), n_threads, Numbering::default, |num, c| {
            let mut ch = Chunk::default();
            ch.clear(num);
            for i in c * CHUNK..((c + 1) * CHUNK).min(self.n_images()) {
                ch.begin_image();
                for j in self.images[i]..self.images[i + 1] {
                    ch.add_sentence(num, self.sentence(j), max_order, !has_hyp || j > self.images[i]);
                }
            }
            ch.finish(num);
            ch
        })
    }
}

/// Count shard `s` of the df over every chunk's keys of that shard.
fn count_shard(chunks: &[Chunk], s: usize) -> Shard {
    let mut map = Shard::default();
    map.reserve(chunks.iter().map(|c| c.filed.shard(s).len()).sum::<usize>() / 2);
    for c in chunks {
        let (f, r) = (&c.filed, c.filed.shard(s));
        for (k, &d) in f.keys[r.clone()].iter().zip(&f.docs[r]) {
            if d > 0 {
                *map.entry(*k).or_insert(0) += u64::from(d);
            }
        }
    }
    map
}

/// The document frequencies of the references of `chunks` (no hypotheses in them).
pub(super) fn fit_counts(chunks: &[Chunk], n_threads: usize) -> Counts {
    Counts(map_range(SHARDS, n_threads, || (), |_, s| count_shard(chunks, s)))
}

/// Per-image scores, the df counted over `chunks`' own references.
pub(super) fn scores(cfg: &CiderConfig, chunks: &[Chunk], n_images: usize, n_threads: usize) -> Vec<f64> {
    // ln(max(1, df)) for every df a corpus of n_images can have.
    let ln_df: Vec<f64> = (0..=n_images).map(|d| (d as f64).max(1.0).ln()).collect();
    let ref_len = (n_images as f64).ln();
    // w_by_shard[s][c][j]: the weight of key j of shard s of chunk c.
    let w_by_shard: Vec<Vec<Vec<f64>>> = map_range(SHARDS, n_threads, || (), |_, s| {
        let map = count_shard(chunks, s);
        let w = |k: &u128| ref_len - ln_df[map.get(k).map_or(0, |&d| d as usize)];
        chunks.iter().map(|c| c.filed.keys[c.filed.shard(s)].iter().map(w).collect()).collect()
    });
    let per_chunk = map_range(chunks.len(), n_threads, ScoreScratch::default, |scratch, c| {
        let ch = &chunks[c];
        let mut w = vec![0.0; ch.n_ids()];
        for (s, ws) in w_by_shard.iter().enumerate() {
            for (&v, &id) in ws[c].iter().zip(&ch.filed.ids[ch.filed.shard(s)]) {
                w[id as usize] = v;
            }
        }
        let mut out = vec![0.0; ch.n_images()];
        ch.scores(&w, cfg, scratch, &mut out);
        out
    });
    per_chunk.concat()
}
