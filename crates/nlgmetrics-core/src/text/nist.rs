//! NIST (Doddington 2002) in two flavours.
//!
//! Both weight matched n-grams by information gained from the *references of the whole
//! corpus*, `info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn))` (the prefix count of a
//! unigram is the number of reference words). That table is phase one; statistics are
//! phase two and depend on it.
//!
//! - `mteval` (mteval-v13a.pl): 13a tokenization as the script applies it to text read
//!   from escaped SGML (`tokenize::tokenize_mteval_sgml`: only a literal `&lt;`/`&gt;` is
//!   decoded, `<skipped>` stays, Perl's whitespace), ASCII lowercasing unless
//!   case-sensitive; per segment, hypothesis n-gram counts are clipped by their maximum
//!   count over all references. Statistics per segment: `info_1..N` (f64: Σ info·clip),
//!   `tst_1..N` (u64: hypothesis n-grams), `ref_words` (u64: words of all references),
//!   `n_refs` (u64: references of the segment).
//!   `NIST = Σ_n info_n / max(tst_n, 1) · BP(tst_1 / (ref_words / (Σ n_refs / #segments)))`:
//!   with the same number of references everywhere this is mteval-v13a's
//!   `ref_words / #refsets`; with a variable number it is mteval-v13a-sig's (the E2E
//!   challenge scorer's) average over the references actually present.
//! - `nltk` (nltk 3.10 `corpus_nist`): whitespace tokens; per order and segment, the
//!   reference with the largest `(precision, numerator, denominator, length)` tuple is
//!   chosen; lengths are accumulated once per order (so n-fold). Statistics: `num_1..N`
//!   (f64), `den_1..N`, `l_ref`, `l_sys` (u64). `NIST = Σ_i num_i / den_i · BP(l_ref, l_sys)`.

use crate::error::{Error, Result};
use crate::ngram::Interner;
use crate::parallel::map_rows;
use crate::pystr::py_lower;
use crate::tokenize::Tokenizer;
use rustc_hash::FxHashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    Mteval,
    Nltk,
}

impl Flavour {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "mteval" => Ok(Flavour::Mteval),
            "nltk" => Ok(Flavour::Nltk),
            _ => Err(Error::InvalidOption(format!("unknown NIST flavour {name:?}; known: mteval, nltk"))),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct NistConfig {
    pub flavour: Flavour,
    pub tokenizer: Tokenizer,
    /// mteval: lowercase ASCII letters (`tr/A-Z/a-z/`) unless case-sensitive; nltk: Python `lower()`.
    pub lowercase: bool,
    pub max_order: usize,
}

impl NistConfig {
    pub fn validate(&self) -> Result<()> {
        if self.max_order == 0 || self.max_order > 64 {
            return Err(Error::InvalidOption(format!("NIST n must be between 1 and 64, got {}", self.max_order)));
        }
        Ok(())
    }

    pub fn width(&self) -> (usize, usize) {
        match self.flavour {
            Flavour::Mteval => (self.max_order + 2, self.max_order),
            Flavour::Nltk => (self.max_order + 2, self.max_order),
        }
    }

    /// Tokens joined by single spaces.
    pub fn preprocess(&self, s: &str) -> String {
        match self.flavour {
            Flavour::Mteval => {
                let t = if self.tokenizer == Tokenizer::Mteval13a {
                    let mut t = String::new();
                    crate::tokenize::tokenize_mteval_sgml(s, &mut t);
                    t
                } else {
                    self.tokenizer.tokenize(s)
                };
                if self.lowercase {
                    t.to_ascii_lowercase()
                } else {
                    t
                }
            }
            Flavour::Nltk => {
                if self.lowercase {
                    self.tokenizer.tokenize(&py_lower(s))
                } else {
                    self.tokenizer.tokenize(s)
                }
            }
        }
    }
}

/// Reference n-gram counts of orders 1..=N keyed by the space-joined n-gram, and the
/// number of reference words: phase one, additive over shards.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InfoTable {
    pub counts: FxHashMap<String, u64>,
    pub total_words: u64,
}

impl InfoTable {
    pub fn build<R: AsRef<str>>(cfg: &NistConfig, refs: &[Vec<R>]) -> Self {
        let toks: Vec<String> = refs.iter().flatten().map(|r| cfg.preprocess(r.as_ref())).collect();
        // count id slices, then spell each distinct n-gram once
        let mut ids: FxHashMap<&str, u32> = FxHashMap::default();
        let mut words: Vec<&str> = Vec::new();
        let seqs: Vec<Vec<u32>> = toks
            .iter()
            .map(|s| {
                s.split(' ')
                    .filter(|t| !t.is_empty())
                    .map(|t| {
                        *ids.entry(t).or_insert_with(|| {
                            words.push(t);
                            (words.len() - 1) as u32
                        })
                    })
                    .collect()
            })
            .collect();
        let mut counts: FxHashMap<&[u32], u64> = FxHashMap::default();
        let total_words = count_refs(seqs.iter(), cfg.max_order, &mut counts);
        let mut out = InfoTable { counts: FxHashMap::default(), total_words };
        out.counts.reserve(counts.len());
        for (g, c) in counts {
            let key = g.iter().map(|&i| words[i as usize]).collect::<Vec<_>>().join(" ");
            out.counts.insert(key, c);
        }
        out
    }
}

/// The information weight of an n-gram with count `c` whose prefix has count `prefix`.
#[inline]
fn weight(flavour: Flavour, c: u64, prefix: u64) -> f64 {
    match flavour {
        // mteval: - log(count/prefix) / log 2
        Flavour::Mteval => -(c as f64 / prefix as f64).ln() / 2f64.ln(),
        // nltk: math.log(prefix / count, 2)
        Flavour::Nltk => (prefix as f64 / c as f64).ln() / 2f64.ln(),
    }
}

fn count_refs<'a>(refs: impl Iterator<Item = &'a Vec<u32>>, n_max: usize, into: &mut FxHashMap<&'a [u32], u64>) -> u64 {
    let mut total = 0u64;
    for r in refs {
        total += r.len() as u64;
        for n in 1..=n_max.min(r.len()) {
            for w in r.windows(n) {
                *into.entry(w).or_insert(0) += 1;
            }
        }
    }
    total
}

const ROOT: u32 = u32::MAX;

/// Reference n-grams of every order numbered as one trie over the token ids: the n-gram
/// `g + [t]` is the node keyed `(node of g, t)`, so an n-gram's prefix is its parent
/// (read without hashing), a sentence's n-grams of all orders come from one walk per
/// start position with a u64 key per step, and counts live in a flat array. A node with
/// count 0 is a prefix or a batch n-gram that the weight table does not hold.
#[derive(Default)]
struct Trie {
    node: FxHashMap<u64, u32>,
    parent: Vec<u32>,
    count: Vec<u64>,
}

impl Trie {
    #[inline]
    fn key(parent: u32, tok: u32) -> u64 {
        (u64::from(parent) << 32) | u64::from(tok)
    }

    fn insert(&mut self, parent: u32, tok: u32) -> u32 {
        let next = self.parent.len() as u32;
        let id = *self.node.entry(Self::key(parent, tok)).or_insert(next);
        if id == next {
            self.parent.push(parent);
            self.count.push(0);
        }
        id
    }

    /// Add every n-gram (orders 1..=n_max) of `seq`, counted (`by` = 1) or only numbered (0).
    fn add(&mut self, seq: &[u32], n_max: usize, by: u64) {
        for s in 0..seq.len() {
            let mut p = ROOT;
            for &t in &seq[s..seq.len().min(s + n_max)] {
                p = self.insert(p, t);
                self.count[p as usize] += by;
            }
        }
    }

    /// [`Trie::add`], also appending the node of every n-gram to `nodes` in (start,
    /// order) order: the walk of `seq`, done while building (see [`fill_walk`]).
    /// With `first_only`, only the n-grams starting at `seq[0]`.
    fn add_recording(&mut self, seq: &[u32], n_max: usize, by: u64, nodes: &mut Vec<u32>, first_only: bool) {
        let starts = if first_only { seq.len().min(1) } else { seq.len() };
        for s in 0..starts {
            let mut p = ROOT;
            for &t in &seq[s..seq.len().min(s + n_max)] {
                p = self.insert(p, t);
                self.count[p as usize] += by;
                nodes.push(p);
            }
        }
    }

    fn add_path(&mut self, gram: &[u32], c: u64) {
        let mut p = ROOT;
        for &t in gram {
            p = self.insert(p, t);
        }
        self.count[p as usize] += c;
    }
}

/// [`Forest::walk`]'s output for a sequence of `len` tokens from the nodes that
/// [`Trie::add_recording`] recorded for it (every n-gram is in the trie).
fn fill_walk(nodes: &[u32], len: usize, n_max: usize, out: &mut Vec<Vec<Option<u32>>>) {
    out.resize_with(n_max, Vec::new);
    for (k, v) in out.iter_mut().enumerate() {
        v.clear();
        v.resize(len.saturating_sub(k), None);
    }
    let mut at = 0;
    for s in 0..len {
        for v in out.iter_mut().take(n_max.min(len - s)) {
            v[s] = Some(nodes[at]);
            at += 1;
        }
    }
}

/// The trie split into shards by an n-gram's first token, so that shards are built on
/// separate threads (an n-gram and all its prefixes start with the same token, so each
/// path lies in one shard). Node `id` is `local * shards + shard`: ids are identities
/// only (statistics never depend on their values), so results never depend on the
/// number of shards.
struct Forest {
    shards: Vec<Trie>,
}

#[inline]
fn shard_of(tok: u32, shards: usize) -> usize {
    if shards == 1 {
        0
    } else {
        ((u64::from(tok).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) % shards as u64) as usize
    }
}

impl Forest {
    fn new(shards: usize) -> Self {
        Forest { shards: (0..shards.max(1)).map(|_| Trie::default()).collect() }
    }

    #[inline]
    fn global(&self, sh: usize, local: u32) -> u32 {
        local * self.shards.len() as u32 + sh as u32
    }

    #[inline]
    fn local(&self, id: u32) -> (&Trie, usize) {
        let n = self.shards.len() as u32;
        (&self.shards[(id % n) as usize], (id / n) as usize)
    }

    fn count(&self, id: u32) -> u64 {
        let (t, l) = self.local(id);
        t.count[l]
    }

    /// The node's parent (`ROOT` for a unigram).
    fn parent(&self, id: u32) -> u32 {
        let n = self.shards.len() as u32;
        let (t, l) = self.local(id);
        match t.parent[l] {
            ROOT => ROOT,
            p => p * n + id % n,
        }
    }

    fn unigram(&self, tok: u32) -> Option<u32> {
        let sh = shard_of(tok, self.shards.len());
        self.shards[sh].node.get(&Trie::key(ROOT, tok)).map(|&l| self.global(sh, l))
    }

    fn add_path(&mut self, gram: &[u32], c: u64) {
        if let Some(&first) = gram.first() {
            let sh = shard_of(first, self.shards.len());
            self.shards[sh].add_path(gram, c);
        }
    }

    /// Add every n-gram (orders 1..=n_max) of every sequence, counted by `by`, each shard
    /// on its own thread; the node of every n-gram of each sequence in (start, order)
    /// order, as [`fill_walk`] reads them.
    fn add_all(&mut self, seqs: &[&Vec<u32>], n_max: usize, by: u64, n_threads: usize) -> Vec<Vec<u32>> {
        use rayon::prelude::*;
        let shards = self.shards.len();
        let watch = crate::interrupt::Watch::current();
        // each shard's local nodes, in the order its n-grams occur in the sequences
        let streams: Vec<Vec<u32>> = crate::parallel::run(n_threads, || {
            self.shards
                .par_iter_mut()
                .enumerate()
                .map(watch.each(|(sh, trie): (usize, &mut Trie)| {
                    let mut stream = Vec::new();
                    for (i, seq) in seqs.iter().enumerate() {
                        crate::interrupt::check_every(i);
                        for s in 0..seq.len() {
                            if shard_of(seq[s], shards) == sh {
                                trie.add_recording(&seq[s..seq.len().min(s + n_max)], n_max, by, &mut stream, true);
                            }
                        }
                    }
                    stream
                }))
                .collect()
        });
        let mut at = vec![0usize; shards];
        seqs.iter()
            .map(|seq| {
                let mut nodes = Vec::with_capacity(seq.len() * n_max);
                for s in 0..seq.len() {
                    let sh = shard_of(seq[s], shards);
                    let m = n_max.min(seq.len() - s);
                    nodes.extend(streams[sh][at[sh]..at[sh] + m].iter().map(|&l| self.global(sh, l)));
                    at[sh] += m;
                }
                nodes
            })
            .collect()
    }

    /// The nodes of `seq`'s n-grams by order: `out[k][s]` is the (k+1)-gram at `s`, or
    /// `None` when the trie lacks it (then no reference of the batch holds it).
    fn walk(&self, seq: &[u32], n_max: usize, out: &mut Vec<Vec<Option<u32>>>) {
        out.resize_with(n_max, Vec::new);
        for (k, v) in out.iter_mut().enumerate() {
            v.clear();
            v.resize(seq.len().saturating_sub(k), None);
        }
        for s in 0..seq.len() {
            let sh = shard_of(seq[s], self.shards.len());
            let trie = &self.shards[sh];
            let mut p = ROOT;
            for (k, &t) in seq[s..seq.len().min(s + n_max)].iter().enumerate() {
                match trie.node.get(&Trie::key(p, t)) {
                    Some(&id) => {
                        out[k][s] = Some(self.global(sh, id));
                        p = id;
                    }
                    None => break,
                }
            }
        }
    }
}

/// Information weights from the trie's counts. `zero` is the node of the unigram "0":
/// mteval-v13a tests the prefix string for truth (`$mgram ? ... : ...`), and Perl's "0"
/// is false, so a bigram starting with the token "0" gets a unigram's prefix count (the
/// number of reference words). The mteval flavour copies that quirk.
struct Weights<'t> {
    flavour: Flavour,
    trie: &'t Forest,
    total_words: u64,
    zero: Option<u32>,
}

impl Weights<'_> {
    /// The weight of node `id`, or `None` when the table does not hold that n-gram.
    #[inline]
    fn get(&self, id: u32) -> Option<f64> {
        let c = self.trie.count(id);
        if c == 0 {
            return None;
        }
        let p = self.trie.parent(id);
        let prefix = if p == ROOT || (self.flavour == Flavour::Mteval && Some(p) == self.zero) {
            self.total_words
        } else {
            match self.trie.count(p) {
                0 => self.total_words,
                pc => pc,
            }
        };
        Some(weight(self.flavour, c, prefix))
    }
}

/// Present n-grams of one order in first-occurrence order with their counts (Python
/// `Counter` order), and the number of all n-grams of that order.
fn ordered_nodes(nodes: &[Option<u32>], pos: &mut FxHashMap<u32, usize>, out: &mut Vec<(u32, u32, u32)>) {
    pos.clear();
    out.clear();
    for (s, g) in nodes.iter().enumerate() {
        let Some(g) = *g else { continue };
        match pos.get(&g) {
            Some(&k) => out[k].1 += 1,
            None => {
                pos.insert(g, out.len());
                out.push((g, 1, s as u32));
            }
        }
    }
}

/// The weight of the hypothesis n-gram of order `n + 1` at position `s` (node `g`).
enum HypWeights<'a> {
    /// From the trie's counts.
    Trie(Weights<'a>),
    /// From the breadth-first numbering's counts of the hypothesis at flat position `at`.
    Numbered { flavour: Flavour, refs: &'a [Vec<u32>], toks: &'a [u32], at: usize, total_words: u64, zero_tok: u32 },
}

impl HypWeights<'_> {
    #[inline]
    fn get(&self, n: usize, s: usize, g: u32) -> Option<f64> {
        match self {
            HypWeights::Trie(w) => w.get(g),
            HypWeights::Numbered { flavour, refs, toks, at, total_words, zero_tok } => {
                let p = at + s;
                let c = u64::from(refs[n][p]);
                if c == 0 {
                    return None;
                }
                // the prefix of a unigram, and (mteval) of a bigram after the token "0"
                // (Perl's "0" is false): every reference word
                let prefix = if n == 0 || (*flavour == Flavour::Mteval && n == 1 && toks[p] == *zero_tok) {
                    *total_words
                } else {
                    match refs[n - 1][p] {
                        0 => *total_words,
                        pc => u64::from(pc),
                    }
                };
                Some(weight(*flavour, c, prefix))
            }
        }
    }
}

#[derive(Default)]
struct RowScratch {
    hyp: Vec<Vec<Option<u32>>>,
    refs: Vec<Vec<Vec<Option<u32>>>>,
    pos: FxHashMap<u32, usize>,
    grams: Vec<(u32, u32, u32)>,
    info: Vec<f64>,
    rc: FxHashMap<u32, u32>,
    one: FxHashMap<u32, u32>,
}

fn mteval_row(hyp_len: usize, ref_lens: &[usize], w: &HypWeights<'_>, n_max: usize, sc: &mut RowScratch, out_c: &mut [u64], out_s: &mut [f64]) {
    let nr = ref_lens.len();
    for n in 0..n_max {
        out_c[n] = hyp_len.saturating_sub(n) as u64;
        out_s[n] = 0.0;
        // clip by the maximum count over the references
        sc.rc.clear();
        for r in &sc.refs[..nr] {
            sc.one.clear();
            for &g in r[n].iter().flatten() {
                *sc.one.entry(g).or_insert(0) += 1;
            }
            for (&g, &c) in &sc.one {
                let e = sc.rc.entry(g).or_insert(0);
                *e = (*e).max(c);
            }
        }
        ordered_nodes(&sc.hyp[n], &mut sc.pos, &mut sc.grams);
        for &(g, c, at) in &sc.grams {
            if let Some(&r) = sc.rc.get(&g) {
                // an n-gram missing from a fixed table weighs 0 (Perl's undefined value)
                out_s[n] += w.get(n, at as usize, g).unwrap_or(0.0) * c.min(r) as f64;
            }
        }
    }
    out_c[n_max] = ref_lens.iter().map(|&l| l as u64).sum();
    out_c[n_max + 1] = nr as u64;
}

fn nltk_row(hyp_len: usize, ref_lens: &[usize], w: &HypWeights<'_>, n_max: usize, sc: &mut RowScratch, out_c: &mut [u64], out_s: &mut [f64]) {
    let (mut l_ref, mut l_sys) = (0u64, 0u64);
    for i in 1..=n_max {
        ordered_nodes(&sc.hyp[i - 1], &mut sc.pos, &mut sc.grams);
        let denominator = hyp_len.saturating_sub(i - 1) as u64;
        // weighed once per hypothesis n-gram, not once per reference
        sc.info.clear();
        sc.info.extend(sc.grams.iter().map(|&(g, _, at)| w.get(i - 1, at as usize, g).unwrap_or(0.0)));
        // (precision, numerator, denominator, ref_len): max by tuple order, first max kept
        let mut best: Option<(f64, f64, u64, u64)> = None;
        for (r, &rl) in sc.refs.iter().zip(ref_lens) {
            sc.rc.clear();
            for &g in r[i - 1].iter().flatten() {
                *sc.rc.entry(g).or_insert(0) += 1;
            }
            // Python's sum() of floats, in the hypothesis n-grams' first-occurrence order
            let mut numerator = 0.0f64;
            for (&(g, c, _), &info) in sc.grams.iter().zip(&sc.info) {
                if let Some(&k) = sc.rc.get(&g) {
                    numerator += info * c.min(k) as f64;
                }
            }
            let precision = if denominator == 0 { 0.0 } else { numerator / denominator as f64 };
            let cand = (precision, numerator, denominator, rl as u64);
            let better = match best {
                None => true,
                Some(b) => cand.partial_cmp(&b) == Some(std::cmp::Ordering::Greater),
            };
            if better {
                best = Some(cand);
            }
        }
        let (_, num, den, rl) = best.expect("one reference");
        out_s[i - 1] = num;
        out_c[i - 1] = den;
        l_ref += rl;
        l_sys += hyp_len as u64;
    }
    out_c[n_max] = l_ref;
    out_c[n_max + 1] = l_sys;
}

/// The batch's n-grams numbered breadth first (`nist_grams`), references then
/// hypotheses laid end to end, and where each sequence starts.
struct BatchGrams {
    grams: crate::text::nist_grams::Numbered,
    toks: Vec<u32>,
    ref_end: usize,
    ref_at: Vec<usize>,
    hyp_at: Vec<usize>,
    /// Index in `ref_at` of each segment's first reference.
    seg_refs: Vec<usize>,
}

impl BatchGrams {
    fn new(refs: &[Vec<Vec<u32>>], hyps: &[Vec<u32>], n_max: usize) -> Self {
        let flat_refs: Vec<&Vec<u32>> = refs.iter().flatten().collect();
        let mut seg_refs = Vec::with_capacity(refs.len());
        let mut at = 0;
        for rs in refs {
            seg_refs.push(at);
            at += rs.len();
        }
        let positions = flat_refs.iter().map(|r| r.len()).sum::<usize>() + hyps.iter().map(|h| h.len()).sum::<usize>();
        let (mut toks, mut rem) = (Vec::with_capacity(positions), Vec::with_capacity(positions));
        fn lay(seq: &[u32], toks: &mut Vec<u32>, rem: &mut Vec<u8>) -> usize {
            let at = toks.len();
            toks.extend_from_slice(seq);
            rem.extend((0..seq.len()).map(|i| (seq.len() - i).min(255) as u8));
            at
        }
        let ref_at: Vec<usize> = flat_refs.iter().map(|r| lay(r, &mut toks, &mut rem)).collect();
        let ref_end = toks.len();
        let hyp_at: Vec<usize> = hyps.iter().map(|h| lay(h, &mut toks, &mut rem)).collect();
        let grams = crate::text::nist_grams::number(&toks, &rem, ref_end, n_max);
        BatchGrams { grams, toks, ref_end, ref_at, hyp_at, seg_refs }
    }

    /// [`Forest::walk`]'s output for the sequence at flat position `at`; with
    /// `present_only`, `None` for n-grams that no reference holds.
    fn fill(&self, at: usize, len: usize, n_max: usize, present_only: bool, out: &mut Vec<Vec<Option<u32>>>) {
        out.resize_with(n_max, Vec::new);
        for (k, v) in out.iter_mut().enumerate() {
            v.clear();
            let (ids, refs) = (&self.grams.ids[k], &self.grams.refs[k]);
            v.extend((at..at + len.saturating_sub(k)).map(|p| (!present_only || refs[p] > 0).then(|| ids[p])));
        }
    }
}

/// Which information weights the statistics use.
pub enum Weighting<'t> {
    /// A fixed table (from `InfoTable::build` over a corpus, possibly merged from shards).
    Table(&'t InfoTable),
    /// The table of all references of this batch (corpus semantics).
    Batch,
    /// Each segment's own references (nltk `sentence_nist`).
    OwnReferences,
}

/// Per-segment statistics: `(counts, sums)`, row-major.
pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    cfg: &NistConfig,
    hyps: &[H],
    refs: &[Vec<R>],
    weighting: Weighting<'_>,
    n_threads: usize,
) -> Result<(Vec<u64>, Vec<f64>)> {
    cfg.validate()?;
    if hyps.len() != refs.len() {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: hyps.len(), right: refs.len() });
    }
    for (i, r) in refs.iter().enumerate() {
        if r.is_empty() {
            return Err(Error::MissingReference { index: i });
        }
    }
    let n_max = cfg.max_order;
    let watch = crate::interrupt::Watch::current();
    let (hyp_tok, ref_tok): (Vec<String>, Vec<Vec<String>>) = crate::parallel::run(n_threads, || {
        use rayon::prelude::*;
        let h = hyps.par_iter().map(watch.each(|x: &H| cfg.preprocess(x.as_ref()))).collect();
        let r = refs.par_iter().map(watch.each(|rs: &Vec<R>| rs.iter().map(|x| cfg.preprocess(x.as_ref())).collect())).collect();
        (h, r)
    });
    // one vocabulary for the batch (and the fixed table), so n-grams compare as trie nodes
    let mut it = Interner::new();
    let zero_tok = it.id("0");
    let hyp_ids: Vec<Vec<u32>> = hyp_tok.iter().map(|s| it.ids_of(s)).collect();
    let ref_ids: Vec<Vec<Vec<u32>>> = ref_tok.iter().map(|rs| rs.iter().map(|s| it.ids_of(s)).collect()).collect();
    // with a shared trie, every reference's n-gram nodes are recorded while it is built
    // (`ref_nodes`, one list per reference): rows read them instead of walking again
    let flat_refs: Vec<&Vec<u32>> = ref_ids.iter().flatten().collect();
    let shards = crate::parallel::effective_threads(n_threads);
    let record = |forest: &mut Forest, by: u64| -> Vec<Vec<Vec<u32>>> {
        let mut nodes = forest.add_all(&flat_refs, n_max, by, n_threads).into_iter();
        ref_ids.iter().map(|rs| nodes.by_ref().take(rs.len()).collect()).collect()
    };
    let positions = flat_refs.iter().map(|r| r.len()).sum::<usize>() + hyp_ids.iter().map(|h| h.len()).sum::<usize>();
    let (shared, ref_nodes): (Option<(Forest, u64)>, Vec<Vec<Vec<u32>>>) = match &weighting {
        Weighting::Table(t) => {
            let mut forest = Forest::new(shards);
            for (k, &c) in t.counts.iter() {
                let ids: Vec<u32> = k.split(' ').filter(|x| !x.is_empty()).map(|x| it.id(x)).collect();
                forest.add_path(&ids, c);
            }
            // the batch's reference n-grams get nodes (count 0: weight 0) so they match
            let nodes = record(&mut forest, 0);
            (Some((forest, t.total_words)), nodes)
        }
        // flat positions are numbered as u32: past that, the trie (never in practice)
        Weighting::Batch if positions < u32::MAX as usize => (None, Vec::new()),
        Weighting::Batch => {
            let mut forest = Forest::new(shards);
            for t in forest.shards.iter_mut() {
                t.node.reserve(positions * n_max / 4 / shards.max(1));
            }
            let total = flat_refs.iter().map(|r| r.len() as u64).sum();
            let nodes = record(&mut forest, 1);
            (Some((forest, total)), nodes)
        }
        Weighting::OwnReferences => (None, Vec::new()),
    };
    let batch = (matches!(weighting, Weighting::Batch) && shared.is_none()).then(|| BatchGrams::new(&ref_ids, &hyp_ids, n_max));
    let (wc, ws) = cfg.width();
    let rows = map_rows(hyps.len(), 1, n_threads, RowScratch::default, |sc, i, row: &mut [Option<(Vec<u64>, Vec<f64>)>]| {
        let (mut c, mut s) = (vec![0u64; wc], vec![0f64; ws]);
        if let Some(b) = &batch {
            let hyp_len = hyp_ids[i].len();
            b.fill(b.hyp_at[i], hyp_len, n_max, true, &mut sc.hyp);
            let nr = ref_ids[i].len();
            sc.refs.resize_with(sc.refs.len().max(nr), Vec::new);
            let lens: Vec<usize> = ref_ids[i].iter().map(|r| r.len()).collect();
            for (k, &len) in lens.iter().enumerate() {
                b.fill(b.ref_at[b.seg_refs[i] + k], len, n_max, false, &mut sc.refs[k]);
            }
            let g = &b.grams;
            let w = HypWeights::Numbered { flavour: cfg.flavour, refs: &g.refs, toks: &b.toks, at: b.hyp_at[i], total_words: b.ref_end as u64, zero_tok };
            match cfg.flavour {
                Flavour::Mteval => mteval_row(hyp_len, &lens, &w, n_max, sc, &mut c, &mut s),
                Flavour::Nltk => nltk_row(hyp_len, &lens, &w, n_max, sc, &mut c, &mut s),
            }
            row[0] = Some((c, s));
            return Ok(());
        }
        let own;
        let (trie, total) = match &shared {
            Some((t, total)) => (t, *total),
            None => {
                let mut t = Forest::new(1);
                let mut total = 0u64;
                for r in &ref_ids[i] {
                    total += r.len() as u64;
                    t.shards[0].add(r, n_max, 1);
                }
                own = t;
                (&own, total)
            }
        };
        let zero = trie.unigram(zero_tok);
        let w = HypWeights::Trie(Weights { flavour: cfg.flavour, trie, total_words: total, zero });
        trie.walk(&hyp_ids[i], n_max, &mut sc.hyp);
        let nr = ref_ids[i].len();
        sc.refs.resize_with(sc.refs.len().max(nr), Vec::new);
        let mut lens = Vec::with_capacity(nr);
        for (k, r) in ref_ids[i].iter().enumerate() {
            match ref_nodes.get(i) {
                Some(nodes) => fill_walk(&nodes[k], r.len(), n_max, &mut sc.refs[k]),
                None => trie.walk(r, n_max, &mut sc.refs[k]),
            }
            lens.push(r.len());
        }
        let hyp_len = hyp_ids[i].len();
        match cfg.flavour {
            Flavour::Mteval => mteval_row(hyp_len, &lens, &w, n_max, sc, &mut c, &mut s),
            Flavour::Nltk => nltk_row(hyp_len, &lens, &w, n_max, sc, &mut c, &mut s),
        }
        row[0] = Some((c, s));
        Ok::<(), Error>(())
    })?;
    let mut counts_out = Vec::with_capacity(rows.len() * wc);
    let mut sums_out = Vec::with_capacity(rows.len() * ws);
    for (c, s) in rows.into_iter().map(|x| x.expect("filled")) {
        counts_out.extend(c);
        sums_out.extend(s);
    }
    Ok((counts_out, sums_out))
}

/// mteval's `nist_length_penalty` (β chosen so that a 2/3 length ratio gives 0.5).
pub fn mteval_penalty(ratio: f64) -> f64 {
    if ratio >= 1.0 {
        return 1.0;
    }
    if ratio <= 0.0 {
        return 0.0;
    }
    let (ratio_x, score_x) = (1.5f64, 0.5f64);
    let beta = -score_x.ln() / ratio_x.ln() / ratio_x.ln();
    (-beta * ratio.ln() * ratio.ln()).exp()
}

/// nltk's `nist_length_penalty(ref_len, hyp_len)`.
pub fn nltk_penalty(ref_len: f64, hyp_len: f64) -> f64 {
    let ratio = hyp_len / ref_len;
    if 0.0 < ratio && ratio < 1.0 {
        let (ratio_x, score_x) = (1.5f64, 0.5f64);
        let beta = score_x.ln() / (ratio_x.ln() * ratio_x.ln());
        let l = ratio.ln();
        (beta * (l * l)).exp()
    } else {
        ratio.min(1.0).max(0.0)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct NistScore {
    pub score: f64,
    /// Per-order precisions (information per n-gram), before the length penalty.
    pub precisions: Vec<f64>,
    pub penalty: f64,
    pub hyp_len: f64,
    pub ref_len: f64,
}

/// mteval: `counts = [tst_1..N, ref_words, n_refs]` summed over `n_segments` segments.
pub fn score_mteval(info: &[f64], counts: &[u64], n_segments: u64) -> Result<NistScore> {
    let n = info.len();
    let tst_words = counts[0] as f64;
    let (ref_words, n_refs) = (counts[n], counts[n + 1]);
    if ref_words == 0 || n_segments == 0 {
        return Err(Error::InvalidInput(
            "NIST: the references have no words (mteval-v13a stops with a division by zero)".into(),
        ));
    }
    // Perl: $tst / ($ref_words / ($ref_count / $seg_count))
    let nsys = n_refs as f64 / n_segments as f64;
    let ref_len = ref_words as f64 / nsys;
    let penalty = mteval_penalty(tst_words / ref_len);
    let mut score = 0.0;
    let mut precisions = Vec::with_capacity(n);
    for k in 0..n {
        let p = info[k] / (counts[k].max(1)) as f64;
        precisions.push(p);
        score += p;
    }
    Ok(NistScore { score: score * penalty, precisions, penalty, hyp_len: tst_words, ref_len })
}

/// nltk: `counts = [den_1..N, l_ref, l_sys]`. Where nltk raises ZeroDivisionError (an
/// order without hypothesis n-grams, or no reference words), `lenient` scores that
/// order's precision as 0 (and the penalty as 0) instead of failing.
pub fn score_nltk(num: &[f64], counts: &[u64], lenient: bool) -> Result<NistScore> {
    let n = num.len();
    let (l_ref, l_sys) = (counts[n] as f64, counts[n + 1] as f64);
    let mut total = 0.0f64;
    let mut precisions = Vec::with_capacity(n);
    for k in 0..n {
        if counts[k] == 0 {
            if !lenient {
                return Err(Error::InvalidInput(format!(
                    "NIST (nltk): no hypothesis {}-grams in the corpus, so the {}-gram precision is 0/0 \
                     (nltk raises ZeroDivisionError); use a smaller n or zero_division=\"zero\"",
                    k + 1,
                    k + 1
                )));
            }
            precisions.push(0.0);
            continue;
        }
        let p = num[k] / counts[k] as f64;
        precisions.push(p);
        total += p;
    }
    let penalty = if l_ref == 0.0 {
        if !lenient {
            return Err(Error::InvalidInput(
                "NIST (nltk): the chosen references have no words (nltk raises ZeroDivisionError); use zero_division=\"zero\"".into(),
            ));
        }
        0.0
    } else {
        nltk_penalty(l_ref, l_sys)
    };
    Ok(NistScore { score: total * penalty, precisions, penalty, hyp_len: l_sys, ref_len: l_ref })
}

/// Tokens of one text as a space-joined string (for the table of a text stream).
pub fn tokenized(cfg: &NistConfig, s: &str) -> String {
    cfg.preprocess(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(flavour: Flavour, hyps: &[&str], refs: &[Vec<&str>]) -> f64 {
        let cfg = NistConfig { flavour, tokenizer: Tokenizer::None, lowercase: false, max_order: 5 };
        let refs: Vec<Vec<String>> = refs.iter().map(|r| r.iter().map(|x| x.to_string()).collect()).collect();
        let table = InfoTable::build(&cfg, &refs);
        let (c, s) = batch_stats(&cfg, hyps, &refs, Weighting::Table(&table), 1).unwrap();
        let (wc, ws) = cfg.width();
        let mut cs = vec![0u64; wc];
        let mut ss = vec![0f64; ws];
        for row in c.chunks(wc) {
            for k in 0..wc {
                cs[k] += row[k];
            }
        }
        for row in s.chunks(ws) {
            for k in 0..ws {
                ss[k] += row[k];
            }
        }
        match flavour {
            Flavour::Mteval => score_mteval(&ss, &cs, hyps.len() as u64).unwrap().score,
            Flavour::Nltk => score_nltk(&ss, &cs, false).unwrap().score,
        }
    }

    #[test]
    fn recorded_nodes_equal_the_walk() {
        let seqs: Vec<Vec<u32>> = vec![vec![], vec![1], vec![1, 2, 1, 2, 1, 3], vec![4, 4, 4, 4, 4, 4, 4], vec![2, 1]];
        for n_max in [1, 2, 5, 9] {
            let mut forest = Forest::new(1);
            let trie = &mut forest.shards[0];
            let recs: Vec<Vec<u32>> = seqs
                .iter()
                .map(|s| {
                    let mut nodes = Vec::new();
                    trie.add_recording(s, n_max, 1, &mut nodes, false);
                    nodes
                })
                .collect();
            for (s, rec) in seqs.iter().zip(&recs) {
                let (mut walked, mut filled) = (Vec::new(), Vec::new());
                forest.walk(s, n_max, &mut walked);
                fill_walk(rec, s.len(), n_max, &mut filled);
                assert_eq!(walked, filled);
            }
        }
    }

    #[test]
    fn statistics_do_not_depend_on_threads_or_shards() {
        let mut state = 17u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut sentence = |len: u64| (0..len).map(|_| format!("w{}", next() % 30)).collect::<Vec<_>>().join(" ");
        let hyps: Vec<String> = (0..300).map(|i| if i % 50 == 0 { "0 w1 w2".to_string() } else { sentence(i % 13) }).collect();
        let refs: Vec<Vec<String>> = (0..300).map(|i| vec![sentence(1 + i % 11), format!("0 {}", sentence(i % 7))]).collect();
        for flavour in [Flavour::Nltk, Flavour::Mteval] {
            let cfg = NistConfig { flavour, tokenizer: Tokenizer::None, lowercase: false, max_order: 5 };
            let table = InfoTable::build(&cfg, &refs[..150]);
            for weighting in 0..3 {
                let run = |threads: usize| {
                    let w = match weighting {
                        0 => Weighting::Batch,
                        1 => Weighting::Table(&table),
                        _ => Weighting::OwnReferences,
                    };
                    let (c, s) = batch_stats(&cfg, &hyps, &refs, w, threads).unwrap();
                    (c, s.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
                };
                let one = run(1);
                assert_eq!(run(2), one, "{flavour:?} weighting {weighting}");
                assert_eq!(run(3), one, "{flavour:?} weighting {weighting}");
            }
        }
    }

    #[test]
    fn penalty_is_half_at_two_thirds() {
        assert!((mteval_penalty(2.0 / 3.0) - 0.5).abs() < 1e-12);
        assert!((nltk_penalty(3.0, 2.0) - 0.5).abs() < 1e-12);
        assert_eq!(mteval_penalty(1.2), 1.0);
        assert_eq!(nltk_penalty(3.0, 0.0), 0.0);
    }

    #[test]
    fn identical_single_segment() {
        // One segment, hyp == ref: every n-gram's info is log2 of its prefix ratio.
        let s = corpus(Flavour::Mteval, &["a b c"], &[vec!["a b c"]]);
        // unigrams: 3 * log2(3) / 3, bigrams: log2(1)=0 ...
        assert!((s - 3f64.log2()).abs() < 1e-12, "{s}");
        let t = corpus(Flavour::Nltk, &["a b c d e"], &[vec!["a b c d e"]]);
        assert!((t - 5f64.log2()).abs() < 1e-12, "{t}");
    }

    #[test]
    fn mteval_perl_false_prefix_quirk() {
        // the bigram "0 a" is weighted against all reference words (Perl's "0" is false)
        let cfg = NistConfig { flavour: Flavour::Mteval, tokenizer: Tokenizer::None, lowercase: false, max_order: 2 };
        let refs = vec![vec!["0 a b".to_string()], vec!["0 c".to_string()]];
        let (_, s) = batch_stats(&cfg, &["0 a"], &refs[..1], Weighting::Table(&InfoTable::build(&cfg, &refs)), 1).unwrap();
        // unigrams: log2(5/2) + log2(5/1); bigram "0 a": log2(5/1) instead of log2(2/1)
        let want = (2.5f64).log2() + 5f64.log2();
        assert!((s[0] - want).abs() < 1e-12, "{}", s[0]);
        assert!((s[1] - 5f64.log2()).abs() < 1e-12, "{}", s[1]);
    }

    #[test]
    fn nltk_zero_division_is_an_error() {
        let err = score_nltk(&[1.0, 0.0], &[2, 0, 4, 4], false).unwrap_err();
        assert!(matches!(err, Error::InvalidInput(_)));
        assert!(score_nltk(&[1.0, 0.0], &[2, 0, 4, 4], true).is_ok());
    }
}
