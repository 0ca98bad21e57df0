//! Scoring in three parallel passes: number the images chunk by chunk; read each shard
//! of the df for every chunk's n-grams of that shard at once, while the shard's map is
//! small and in cache (in corpus mode the shard is first counted from the chunks' own
//! references); score the chunks. A fit is the first pass and the counting.

use super::docfreq::{Counts, Shard, Vocab, SHARDS};
use super::ngrams::{Chunk, Numbering, ScoreScratch};
use super::{CiderConfig, CHUNK};
use crate::parallel::{for_each_mut, map_range};
use crate::pystr::py_split;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

/// A chunk's own vocabulary: its words numbered from 1 in order of first appearance.
#[derive(Default)]
struct LocalVocab<'a> {
    ids: FxHashMap<&'a str, u32>,
    words: Vec<&'a str>,
}

impl<'a> LocalVocab<'a> {
    fn id(&mut self, w: &'a str) -> u32 {
        if let Some(&id) = self.ids.get(w) {
            return id;
        }
        self.words.push(w);
        self.ids.insert(w, self.words.len() as u32);
        self.words.len() as u32
    }
}

/// Number the images (hypothesis first when `hyps` are given, then the references) in
/// chunks of [`CHUNK`], all in parallel: each chunk numbers its words itself, then
/// `vocab` interns the chunks' words chunk after chunk, which gives every word the id
/// of a serial pass in image order, and each chunk renames its words to those ids.
pub(super) fn number<H, R>(vocab: &mut Vocab, hyps: Option<&[H]>, refs: &[Vec<R>], max_order: usize, n_threads: usize) -> Vec<Chunk>
where
    H: AsRef<str> + Sync,
    R: AsRef<str> + Sync,
{
    let n = refs.len();
    let init = || (Numbering::default(), LocalVocab::default(), Vec::new());
    let parts: Vec<(Chunk, Vec<&str>)> = map_range(n.div_ceil(CHUNK), n_threads, init, |(num, lv, buf), c| {
        let mut ch = Chunk::default();
        ch.clear(num);
        lv.ids.clear();
        for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
            ch.begin_image();
            let hyp = hyps.map(|h| h[i].as_ref());
            for (j, sent) in hyp.into_iter().chain(refs[i].iter().map(AsRef::as_ref)).enumerate() {
                buf.clear();
                buf.extend(py_split(sent).map(|t| lv.id(t)));
                ch.add_sentence(num, buf, max_order, hyp.is_none() || j > 0);
            }
        }
        ch.seal(num);
        (ch, std::mem::take(&mut lv.words))
    });
    let mut chunks: Vec<(Chunk, Vec<u32>)> =
        parts.into_iter().map(|(ch, words)| {
            crate::interrupt::check();
            (ch, words.iter().map(|w| vocab.intern(w)).collect())
        }).collect();
    for_each_mut(&mut chunks, n_threads, |(ch, rename)| ch.finish(Some(rename)));
    chunks.into_iter().map(|(ch, _)| ch).collect()
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

/// `ln(max(1, d))`, from a table for the small counts that make up most lookups.
fn ln_df(d: u64) -> f64 {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..1u32 << 16).map(|d| f64::from(d).max(1.0).ln()).collect());
    table.get(d as usize).copied().unwrap_or_else(|| (d as f64).ln())
}

/// The weight `ln(n_docs) − ln(max(1, df))` of each chunk's n-grams, by id, with
/// `ref_len = ln(n_docs)` and the df of `table`, or counted over the chunks' own
/// references if `None`. Each shard's df is read for every chunk at once, while the
/// shard's map is in cache.
pub(super) fn weights(chunks: &[Chunk], ref_len: f64, table: Option<&Counts>, n_threads: usize) -> Vec<Vec<f64>> {
    // Filed order: each shard's task writes its own ranges (f64 bits; relaxed atomics
    // are plain loads and stores).
    let filed: Vec<Vec<AtomicU64>> = chunks.iter().map(|c| (0..c.n_ids()).map(|_| AtomicU64::new(0)).collect()).collect();
    map_range(SHARDS, n_threads, || (), |_, s| {
        // One chunk's own counts are the df already.
        let counted = (table.is_none() && chunks.len() > 1).then(|| count_shard(chunks, s));
        for (c, w) in chunks.iter().zip(&filed) {
            let f = &c.filed;
            for p in f.shard(s) {
                let df = match (table, &counted) {
                    (Some(t), _) => t.0[s].get(&f.keys[p]).copied().unwrap_or(0),
                    (None, Some(m)) => m.get(&f.keys[p]).copied().unwrap_or(0),
                    (None, None) => u64::from(f.docs[p]),
                };
                w[p].store((ref_len - ln_df(df)).to_bits(), Relaxed);
            }
        }
    });
    map_range(chunks.len(), n_threads, || (), |_, c| {
        let mut w = vec![0.0; chunks[c].n_ids()];
        for (x, &id) in filed[c].iter().zip(&chunks[c].filed.ids) {
            w[id as usize] = f64::from_bits(x.load(Relaxed));
        }
        w
    })
}

/// Per-image scores of `chunks` (numbered and finished), weighted as [`weights`] says.
pub(super) fn scores(cfg: &CiderConfig, chunks: &[Chunk], ref_len: f64, table: Option<&Counts>, n_threads: usize) -> Vec<f64> {
    let weights = weights(chunks, ref_len, table, n_threads);
    let per_chunk = map_range(chunks.len(), n_threads, ScoreScratch::default, |scratch, c| {
        let mut out = vec![0.0; chunks[c].n_images()];
        chunks[c].scores(&weights[c], cfg, scratch, &mut out);
        out
    });
    per_chunk.concat()
}
