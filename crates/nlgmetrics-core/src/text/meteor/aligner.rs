//! METEOR 1.5's aligner: candidate matches from each module in order (exact, stem,
//! synonym, paraphrase), unambiguous one-candidate matches fixed up front, then a beam
//! search (beam 40) over the reference positions that keeps the partial alignments
//! with the most (search-weighted) matched words, then fewest chunks, then the smallest
//! total position distance.
//!
//! Parity details copied on purpose: words are compared by Java `String.hashCode`;
//! the partial match totals are Java `int`s to which `length * weight` is added with a
//! truncating cast; the skip branch adds the new match's distance to the *skipping*
//! path; sorting is stable.

use super::resources::{intersects, Resources, UNKNOWN};
use super::stemmer;
use rustc_hash::FxHashMap;
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Module {
    Exact,
    Stem,
    Synonym,
    Paraphrase,
}

#[derive(Clone, Copy, Debug)]
struct Match {
    /// Position and length in the reference (line 2).
    start: usize,
    length: usize,
    /// Position and length in the hypothesis (line 1).
    match_start: usize,
    match_length: usize,
    /// Index of the module in the configured module list.
    stage: usize,
}

/// Java `String.hashCode`.
pub fn java_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// Per-stage counts of one alignment (indices follow the configured modules).
#[derive(Debug, Default, Clone)]
pub struct AlignCounts {
    pub test_function_words: usize,
    pub ref_function_words: usize,
    pub test_content: Vec<usize>,
    pub ref_content: Vec<usize>,
    pub test_function: Vec<usize>,
    pub ref_function: Vec<usize>,
    pub chunks: usize,
    pub test_matches: usize,
    pub ref_matches: usize,
}

/// The scalar state of a partial alignment: all the beam search compares and updates.
/// What the partial has *used* lives in [`Path`], shared between partials where it can be.
#[derive(Clone, Copy)]
struct Partial {
    matches1: i32,
    matches2: i32,
    chunks: i32,
    idx: usize,
    last_match_end: i64,
    distance: i32,
}

impl Partial {
    /// Account for taking match `m` (the reference's shared bookkeeping).
    fn take(&mut self, m: &Match, weights: &[f64]) {
        let w = weights[m.stage];
        // Java: int += double, a truncating narrowing conversion.
        self.matches1 = (self.matches1 as f64 + m.match_length as f64 * w) as i32;
        self.matches2 = (self.matches2 as f64 + m.length as f64 * w) as i32;
        if self.last_match_end != -1 && m.match_start as i64 != self.last_match_end {
            self.chunks += 1;
        }
        self.idx = m.start + m.length;
        self.last_match_end = (m.match_start + m.match_length) as i64;
    }
}

/// PARTIAL_COMPARE_TOTAL: more matches, then fewer chunks, then less distance.
fn compare(x: &Proposal, y: &Proposal) -> std::cmp::Ordering {
    let (x, y) = (&x.state, &y.state);
    ((y.matches1 + y.matches2).cmp(&(x.matches1 + x.matches2)))
        .then(x.chunks.cmp(&y.chunks))
        .then(x.distance.cmp(&y.distance))
}

/// The matches a path chose in the search, newest first (shared tails).
struct Chosen {
    m: Match,
    prev: Option<Rc<Chosen>>,
}

impl Drop for Chosen {
    // Iteratively: a chain as long as the reference would overflow the stack recursively.
    fn drop(&mut self) {
        let mut prev = self.prev.take();
        while let Some(node) = prev {
            prev = match Rc::try_unwrap(node) {
                Ok(mut unique) => unique.prev.take(),
                Err(_) => None,
            };
        }
    }
}

/// A partial alignment kept in the beam: its state, the hypothesis words it uses (a
/// bitset, copied only when a kept extension takes a match) and its chosen matches.
struct Path {
    state: Partial,
    used1: Rc<Vec<u64>>,
    chosen: Option<Rc<Chosen>>,
}

/// A candidate extension of kept path `parent`: its state and the match it takes, if
/// any. Extensions are ranked on their state alone and only the best `beam` become
/// paths, so memory is `O(beam * hypothesis length)` however many candidates a
/// reference word has (cloning every extension made it quadratic).
struct Proposal {
    state: Partial,
    parent: usize,
    take: Option<Match>,
}

fn bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

fn set_bits(bits: &mut [u64], from: usize, len: usize) {
    for i in from..from + len {
        bits[i / 64] |= 1 << (i % 64);
    }
}

pub struct AlignerConfig<'a> {
    pub modules: &'a [Module],
    /// Weights used only to rank partial alignments (1.0 exact, 0.5 otherwise).
    pub search_weights: Vec<f64>,
    pub beam: usize,
    pub resources: &'a Resources,
}

pub const BEAM_SIZE: usize = 40;

impl<'a> AlignerConfig<'a> {
    pub fn new(modules: &'a [Module], resources: &'a Resources) -> Self {
        let search_weights = modules.iter().map(|m| if *m == Module::Exact { 1.0 } else { 0.5 }).collect();
        AlignerConfig { modules, search_weights, beam: BEAM_SIZE, resources }
    }
}

/// One side of an alignment with everything the modules compare, computed once per
/// sentence (a hypothesis is aligned against each of its references).
pub struct Words<'w> {
    pub words: Vec<&'w str>,
    hash: Vec<i32>,
    stem: Vec<i32>,
    syn: Vec<Rc<[i32]>>,
    para: Vec<u32>,
    function: Vec<bool>,
}

/// What the modules need to know about one word type.
struct WordInfo {
    hash: i32,
    stem: i32,
    syn: Rc<[i32]>,
    para: u32,
    function: bool,
}

/// Per-worker memo of word types (captions repeat a small vocabulary).
#[derive(Default)]
pub struct WordCache {
    map: FxHashMap<String, WordInfo>,
}

impl WordCache {
    fn info(&mut self, cfg: &AlignerConfig<'_>, w: &str) -> &WordInfo {
        if !self.map.contains_key(w) {
            let res = cfg.resources;
            let has = |m: Module| cfg.modules.contains(&m);
            let info = WordInfo {
                hash: java_hash(w),
                stem: if has(Module::Stem) { java_hash(&stemmer::stem(w)) } else { 0 },
                syn: if has(Module::Synonym) { res.synonyms.all_synsets(w).into() } else { Rc::from(Vec::new()) },
                para: match (&res.paraphrases, has(Module::Paraphrase)) {
                    (Some(pt), true) => pt.translate(w),
                    _ => UNKNOWN,
                },
                function: res.function_words.contains(&w.to_lowercase()),
            };
            if self.map.len() > 1 << 20 {
                self.map.clear();
            }
            self.map.insert(w.to_string(), info);
        }
        &self.map[w]
    }
}

impl<'w> Words<'w> {
    pub fn new(cfg: &AlignerConfig<'_>, words: Vec<&'w str>, cache: &mut WordCache) -> Self {
        let n = words.len();
        let mut x = Words {
            words: Vec::new(),
            hash: Vec::with_capacity(n),
            stem: Vec::with_capacity(n),
            syn: Vec::with_capacity(n),
            para: Vec::with_capacity(n),
            function: Vec::with_capacity(n),
        };
        for w in &words {
            let i = cache.info(cfg, w);
            x.hash.push(i.hash);
            x.stem.push(i.stem);
            x.syn.push(i.syn.clone());
            x.para.push(i.para);
            x.function.push(i.function);
        }
        x.words = words;
        x
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    pub fn function_words(&self) -> usize {
        self.function.iter().filter(|&&b| b).count()
    }
}

/// Align hypothesis `a` (line 1) with reference `b` (line 2).
pub fn align(cfg: &AlignerConfig<'_>, a: &Words<'_>, b: &Words<'_>) -> AlignCounts {
    let n1 = a.len();
    let n2 = b.len();
    let (h1, h2) = (&a.hash, &b.hash);
    let mut cand: Vec<Vec<Match>> = vec![Vec::new(); n2];
    let mut cov1 = vec![0u32; n1];
    let mut cov2 = vec![0u32; n2];
    let mut add = |cand: &mut Vec<Vec<Match>>, m: Match| {
        for k in 0..m.match_length {
            cov1[m.match_start + k] += 1;
        }
        for k in 0..m.length {
            cov2[m.start + k] += 1;
        }
        cand[m.start].push(m);
    };
    let one = |j: usize, i: usize, stage: usize| Match { start: j, length: 1, match_start: i, match_length: 1, stage };
    let mods_used = if n1 == n2 && h1 == h2 { 1.min(cfg.modules.len()) } else { cfg.modules.len() };
    let res = cfg.resources;
    for (stage, module) in cfg.modules.iter().enumerate().take(mods_used) {
        match module {
            Module::Exact => {
                for j in 0..n2 {
                    for i in 0..n1 {
                        if h1[i] == h2[j] {
                            add(&mut cand, one(j, i, stage));
                        }
                    }
                }
            }
            Module::Stem => {
                let (s1, s2) = (&a.stem, &b.stem);
                for j in 0..n2 {
                    for i in 0..n1 {
                        if s1[i] == s2[j] && h1[i] != h2[j] {
                            add(&mut cand, one(j, i, stage));
                        }
                    }
                }
            }
            Module::Synonym => {
                let (y1, y2) = (&a.syn, &b.syn);
                for j in 0..n2 {
                    for i in 0..n1 {
                        if h1[i] != h2[j] && intersects(&y1[i], &y2[j]) {
                            add(&mut cand, one(j, i, stage));
                        }
                    }
                }
            }
            Module::Paraphrase => {
                let Some(pt) = res.paraphrases.as_ref() else { continue };
                let (l1, l2) = (&a.para, &b.para);
                let occurs = |line: &[u32], at: usize, words: &[u32]| {
                    words.iter().enumerate().all(|(k, &w)| at + k < line.len() && line[at + k] == w && w != UNKNOWN)
                };
                let mut paths = Vec::new();
                for j in 0..n2 {
                    pt.paths(l2, j, &mut paths);
                    for &(len, idx) in &paths {
                        let words = pt.paraphrase(idx);
                        // Skipping a paraphrase that cannot occur keeps the candidate order.
                        if words.first().is_some_and(|w| !l1.contains(w)) {
                            continue;
                        }
                        for i in 0..n1 {
                            if occurs(l1, i, words) {
                                add(&mut cand, Match { start: j, length: len, match_start: i, match_length: words.len(), stage });
                            }
                        }
                    }
                }
                for i in 0..n1 {
                    pt.paths(l1, i, &mut paths);
                    for &(len, idx) in &paths {
                        let words = pt.paraphrase(idx);
                        if words.first().is_some_and(|w| !l2.contains(w)) {
                            continue;
                        }
                        for j in 0..n2 {
                            if occurs(l2, j, words) {
                                add(&mut cand, Match { start: j, length: words.len(), match_start: i, match_length: len, stage });
                            }
                        }
                    }
                }
            }
        }
    }
    // Fix the matches that are the only candidate for every word they cover.
    let mut fixed: Vec<Option<Match>> = vec![None; n2];
    let mut used1 = vec![0u64; n1.div_ceil(64)];
    let mut used2 = vec![false; n2];
    for (i, c) in cand.iter().enumerate() {
        if c.len() == 1 {
            let m = c[0];
            let overlap = (0..m.length).any(|j| cov2[i + j] != 1) || (0..m.match_length).any(|j| cov1[m.match_start + j] != 1);
            if !overlap {
                fixed[i] = Some(m);
                used2[m.start..m.start + m.length].fill(true);
                set_bits(&mut used1, m.match_start, m.match_length);
            }
        }
    }
    let mut matches = fixed.clone();
    let mut chosen = resolve(cfg, &cand, &fixed, &used2, used1);
    while let Some(node) = chosen {
        matches[node.m.start] = Some(node.m);
        chosen = node.prev.clone();
    }
    counts(cfg, a, b, &matches)
}

/// The beam search over reference positions; returns the best path's chosen matches.
///
/// A kept path at position `current` has `idx >= current`, and every reference word in
/// `current..idx` is covered by its last match, while its chosen matches cover only words
/// before `idx`; so "reference word `p >= current` is used" is `p < idx || used2[p]`
/// with `used2` the fixed matches alone. Only the hypothesis side needs a per-path set.
fn resolve(cfg: &AlignerConfig<'_>, cand: &[Vec<Match>], fixed: &[Option<Match>], used2: &[bool], used1: Vec<u64>) -> Option<Rc<Chosen>> {
    let w = &cfg.search_weights;
    let start = Partial { matches1: 0, matches2: 0, chunks: 0, idx: 0, last_match_end: -1, distance: 0 };
    let mut kept = vec![Path { state: start, used1: Rc::new(used1), chosen: None }];
    let mut next = vec![Proposal { state: start, parent: 0, take: None }];
    for current in 0..=cand.len() {
        crate::interrupt::check();
        next.sort_by(compare);
        next.truncate(cfg.beam);
        kept = materialize(&mut next, kept);
        let mut first_dropped: Option<Proposal> = None;
        for (rank, path) in kept.iter().enumerate() {
            let mut state = path.state;
            let keep = |state| Proposal { state, parent: rank, take: None };
            if current == cand.len() {
                if state.last_match_end != -1 {
                    state.chunks += 1;
                }
                next.push(keep(state));
                continue;
            }
            if current < state.idx || used2[current] {
                if current < state.idx {
                    next.push(keep(state));
                } else if let Some(m) = fixed.get(state.idx).copied().flatten() {
                    state.take(&m, w);
                    state.distance += (m.start as i32 - m.match_start as i32).abs();
                    next.push(keep(state));
                } else if rank == 0 {
                    first_dropped = Some(keep(state));
                }
                continue;
            }
            for m in &cand[current] {
                let used = used2[m.start..m.start + m.length].iter().any(|&u| u)
                    || (m.match_start..m.match_start + m.match_length).any(|i| bit(&path.used1, i));
                if used {
                    continue;
                }
                let mut taken = state;
                taken.take(m, w);
                // The reference adds this distance to the path that skips the match.
                state.distance += (m.start as i32 - m.match_start as i32).abs();
                next.push(Proposal { state: taken, parent: rank, take: Some(*m) });
            }
            if state.last_match_end != -1 {
                state.chunks += 1;
                state.last_match_end = -1;
            }
            state.idx += 1;
            next.push(keep(state));
        }
        if next.is_empty() {
            next.extend(first_dropped);
        }
    }
    next.sort_by(compare);
    next.truncate(1);
    materialize(&mut next, kept).pop().and_then(|p| p.chosen)
}

/// Turn the kept proposals into paths, consuming their parents: a parent's bitset is
/// moved to its last kept extension and copied only for the others that take a match.
fn materialize(proposals: &mut Vec<Proposal>, parents: Vec<Path>) -> Vec<Path> {
    let mut uses = vec![0usize; parents.len()];
    for p in proposals.iter() {
        uses[p.parent] += 1;
    }
    let mut parents: Vec<Option<Path>> = parents.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(proposals.len());
    for p in proposals.drain(..) {
        uses[p.parent] -= 1;
        let (used1, chosen) = if uses[p.parent] == 0 {
            let parent = parents[p.parent].take().expect("parent consumed once");
            (parent.used1, parent.chosen)
        } else {
            let parent = parents[p.parent].as_ref().expect("parent alive");
            (parent.used1.clone(), parent.chosen.clone())
        };
        let path = match p.take {
            None => Path { state: p.state, used1, chosen },
            Some(m) => {
                let mut used1 = used1;
                set_bits(Rc::make_mut(&mut used1).as_mut_slice(), m.match_start, m.match_length);
                Path { state: p.state, used1, chosen: Some(Rc::new(Chosen { m, prev: chosen })) }
            }
        };
        out.push(path);
    }
    out
}

fn counts(cfg: &AlignerConfig<'_>, a: &Words<'_>, b: &Words<'_>, matches: &[Option<Match>]) -> AlignCounts {
    let k = cfg.modules.len();
    let (f1, f2) = (&a.function, &b.function);
    let mut c = AlignCounts {
        test_function_words: a.function_words(),
        ref_function_words: b.function_words(),
        test_content: vec![0; k],
        ref_content: vec![0; k],
        test_function: vec![0; k],
        ref_function: vec![0; k],
        ..Default::default()
    };
    for m in matches.iter().flatten() {
        for j in 0..m.match_length {
            if f1[m.match_start + j] {
                c.test_function[m.stage] += 1;
            } else {
                c.test_content[m.stage] += 1;
            }
        }
        for j in 0..m.length {
            if f2[m.start + j] {
                c.ref_function[m.stage] += 1;
            } else {
                c.ref_content[m.stage] += 1;
            }
        }
    }
    // Count and chunks, walking the reference positions as the reference does.
    let (mut idx, mut last_end, mut chunks) = (0usize, -1i64, 0usize);
    while idx < matches.len() {
        match matches[idx] {
            None => {
                if last_end != -1 {
                    chunks += 1;
                    last_end = -1;
                }
                idx += 1;
            }
            Some(m) => {
                c.test_matches += m.match_length;
                c.ref_matches += m.length;
                if last_end != -1 && m.match_start as i64 != last_end {
                    chunks += 1;
                }
                idx = m.start + m.length;
                last_end = (m.match_start + m.match_length) as i64;
            }
        }
    }
    if last_end != -1 {
        chunks += 1;
    }
    c.chunks = chunks;
    c
}
