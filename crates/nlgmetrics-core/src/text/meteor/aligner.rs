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

/// One candidate match, packed (16 bytes): repeated words make candidates the bulk of an
/// alignment's memory.
#[derive(Clone, Copy, Debug)]
struct Match {
    /// Position and length in the reference (line 2).
    start: u32,
    length: u16,
    /// Position and length in the hypothesis (line 1).
    match_start: u32,
    match_length: u16,
    /// Index of the module in the configured module list.
    stage: u8,
}

impl Match {
    fn new(start: usize, length: usize, match_start: usize, match_length: usize, stage: usize) -> Self {
        Match { start: start as u32, length: length as u16, match_start: match_start as u32, match_length: match_length as u16, stage: stage as u8 }
    }
    fn start(&self) -> usize {
        self.start as usize
    }
    fn length(&self) -> usize {
        self.length as usize
    }
    fn match_start(&self) -> usize {
        self.match_start as usize
    }
    fn match_length(&self) -> usize {
        self.match_length as usize
    }
    fn stage(&self) -> usize {
        self.stage as usize
    }
    /// `Math.abs(m.start - m.matchStart)` on Java ints.
    fn distance(&self) -> i32 {
        (self.start as i32).wrapping_sub(self.match_start as i32).wrapping_abs()
    }
}

/// Most candidate matches one alignment may have (16 bytes each, 320 MB). Every
/// repetition of a word in the hypothesis matches every repetition in the reference, so
/// long repetitive pairs have quadratically many; past this the pair is refused
/// (`ResourceLimitError`) before the candidates are built. The METEOR 1.5 jar has no such
/// check: with pycocoevalcap's 2 GB heap it runs out of memory (or, copying its partial
/// alignments per candidate, does not finish) long before.
pub const MAX_CANDIDATES: usize = 20_000_000;

fn refuse_candidates(n1: usize, n2: usize, at_least: u64) -> ! {
    crate::memory::refuse(format!(
        "METEOR's alignment of a {n1}-word hypothesis with a {n2}-word reference has at least {at_least} candidate word matches \
         (each repetition of a word matches each repetition in the other text), more than the {MAX_CANDIDATES} one alignment \
         may hold; split the text into shorter segments"
    ))
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
        let w = weights[m.stage()];
        // Java: int += double, a truncating narrowing conversion.
        self.matches1 = (self.matches1 as f64 + m.match_length() as f64 * w) as i32;
        self.matches2 = (self.matches2 as f64 + m.length() as f64 * w) as i32;
        if self.last_match_end != -1 && m.match_start() as i64 != self.last_match_end {
            self.chunks = self.chunks.wrapping_add(1);
        }
        self.idx = m.start() + m.length();
        self.last_match_end = (m.match_start() + m.match_length()) as i64;
    }
}

/// PARTIAL_COMPARE_TOTAL: more matches, then fewer chunks, then less distance.
fn compare(x: &Proposal, y: &Proposal) -> std::cmp::Ordering {
    let (x, y) = (&x.state, &y.state);
    (y.matches1.wrapping_add(y.matches2).cmp(&x.matches1.wrapping_add(x.matches2)))
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

/// Positions of each known word id in a line longer than a few hundred words, ascending.
fn positions_if_long(line: &[u32]) -> Option<FxHashMap<u32, Vec<u32>>> {
    if line.len() < 256 {
        return None;
    }
    let mut out: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for (i, &w) in line.iter().enumerate() {
        if w != UNKNOWN {
            out.entry(w).or_default().push(i as u32);
        }
    }
    Some(out)
}

/// How many one-word candidates the exact, stem and synonym modules will make, counted
/// over pairs of distinct words (times their repetitions) before any is built.
fn single_word_candidates(modules: &[Module], a: &Words<'_>, b: &Words<'_>) -> u64 {
    fn types(w: &Words<'_>) -> Vec<(usize, u64)> {
        let mut at: FxHashMap<&str, usize> = FxHashMap::default();
        let mut out: Vec<(usize, u64)> = Vec::new();
        for (i, word) in w.words.iter().enumerate() {
            let k = *at.entry(word).or_insert_with(|| {
                out.push((i, 0));
                out.len() - 1
            });
            out[k].1 += 1;
        }
        out
    }
    let (t1, t2) = (types(a), types(b));
    let has = |m: Module| modules.contains(&m);
    let (exact, stem, syn) = (has(Module::Exact), has(Module::Stem), has(Module::Synonym));
    let mut total = 0u64;
    for &(j, c2) in &t2 {
        crate::interrupt::check();
        for &(i, c1) in &t1 {
            let same = a.hash[i] == b.hash[j];
            let n = u64::from(exact && same)
                + u64::from(stem && !same && a.stem[i] == b.stem[j])
                + u64::from(syn && !same && intersects(&a.syn[i], &b.syn[j]));
            total = total.saturating_add(n.saturating_mul(c1.saturating_mul(c2)));
        }
    }
    total
}

/// Align hypothesis `a` (line 1) with reference `b` (line 2).
pub fn align(cfg: &AlignerConfig<'_>, a: &Words<'_>, b: &Words<'_>) -> AlignCounts {
    let n1 = a.len();
    let n2 = b.len();
    let (h1, h2) = (&a.hash, &b.hash);
    if n1 > u32::MAX as usize / 2 || n2 > u32::MAX as usize / 2 {
        refuse_candidates(n1, n2, (n1 as u64).saturating_mul(n2 as u64));
    }
    let mods_used = if n1 == n2 && h1 == h2 { 1.min(cfg.modules.len()) } else { cfg.modules.len() };
    // Each one-word module makes at most one candidate per word pair: count them only
    // when the pair could exceed the cap.
    if (n1 as u64) * (n2 as u64) * (mods_used.min(3) as u64) > MAX_CANDIDATES as u64 {
        let single_word = single_word_candidates(&cfg.modules[..mods_used], a, b);
        if single_word > MAX_CANDIDATES as u64 {
            refuse_candidates(n1, n2, single_word);
        }
    }
    let mut cand: Vec<Vec<Match>> = vec![Vec::new(); n2];
    let mut cov1 = vec![0u32; n1];
    let mut cov2 = vec![0u32; n2];
    let mut total = 0usize;
    let mut add = |cand: &mut Vec<Vec<Match>>, m: Match| {
        total += 1;
        if total > MAX_CANDIDATES {
            refuse_candidates(n1, n2, total as u64);
        }
        for k in 0..m.match_length() {
            cov1[m.match_start() + k] += 1;
        }
        for k in 0..m.length() {
            cov2[m.start() + k] += 1;
        }
        cand[m.start()].push(m);
    };
    let one = |j: usize, i: usize, stage: usize| Match::new(j, 1, i, 1, stage);
    let res = cfg.resources;
    for (stage, module) in cfg.modules.iter().enumerate().take(mods_used) {
        crate::interrupt::check();
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
                    if y2[j].is_empty() {
                        continue;
                    }
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
                // Long lines index where each word occurs; short ones are scanned.
                let (at1, at2) = (positions_if_long(l1), positions_if_long(l2));
                let occurs = |line: &[u32], at: usize, words: &[u32]| {
                    words.iter().enumerate().all(|(k, &w)| at + k < line.len() && line[at + k] == w && w != UNKNOWN)
                };
                // Where a paraphrase may start in `line`, ascending: the places of its first
                // word (every place for an empty paraphrase, which occurs everywhere).
                let starts = |at: &Option<FxHashMap<u32, Vec<u32>>>, line: &[u32], words: &[u32]| -> Vec<usize> {
                    match (words.first(), at) {
                        (None, _) => (0..line.len()).collect(),
                        (Some(w), Some(at)) => at.get(w).map(|v| v.iter().map(|&i| i as usize).collect()).unwrap_or_default(),
                        (Some(w), None) => (0..line.len()).filter(|&i| line[i] == *w).collect(),
                    }
                };
                let mut paths = Vec::new();
                for j in 0..n2 {
                    pt.paths(l2, j, &mut paths);
                    for &(len, idx) in &paths {
                        let words = pt.paraphrase(idx);
                        for i in starts(&at1, l1, words) {
                            if occurs(l1, i, words) {
                                add(&mut cand, Match::new(j, len, i, words.len(), stage));
                            }
                        }
                    }
                }
                for i in 0..n1 {
                    pt.paths(l1, i, &mut paths);
                    for &(len, idx) in &paths {
                        let words = pt.paraphrase(idx);
                        for j in starts(&at2, l2, words) {
                            if occurs(l2, j, words) {
                                add(&mut cand, Match::new(j, words.len(), i, len, stage));
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
            let overlap =
                (0..m.length()).any(|j| cov2[i + j] != 1) || (0..m.match_length()).any(|j| cov1[m.match_start() + j] != 1);
            if !overlap {
                fixed[i] = Some(m);
                used2[m.start()..m.start() + m.length()].fill(true);
                set_bits(&mut used1, m.match_start(), m.match_length());
            }
        }
    }
    let mut matches = fixed.clone();
    let mut chosen = resolve(cfg, &cand, &fixed, &used2, used1);
    while let Some(node) = chosen {
        matches[node.m.start()] = Some(node.m);
        chosen = node.prev.clone();
    }
    counts(cfg, a, b, &matches)
}

/// The `beam` best proposals of one step in the order a stable sort by [`compare`] would
/// give them, kept as they arrive (a bounded max-heap on (rank, arrival)): a step with
/// millions of candidate extensions holds `beam` of them, not all.
struct Best {
    beam: usize,
    arrived: usize,
    heap: std::collections::BinaryHeap<Ranked>,
}

struct Ranked {
    proposal: Proposal,
    arrival: usize,
}

impl Ranked {
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        compare(&self.proposal, &other.proposal).then(self.arrival.cmp(&other.arrival))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.order(other).is_eq()
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.order(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.order(other)
    }
}

impl Best {
    fn new(beam: usize) -> Self {
        Best { beam, arrived: 0, heap: std::collections::BinaryHeap::with_capacity(beam + 1) }
    }

    fn push(&mut self, proposal: Proposal) {
        let r = Ranked { proposal, arrival: self.arrived };
        self.arrived += 1;
        if self.heap.len() == self.beam {
            match self.heap.peek() {
                Some(worst) if r.order(worst).is_lt() => {
                    self.heap.pop();
                }
                _ => return,
            }
        }
        if self.beam > 0 {
            self.heap.push(r);
        }
    }

    fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// The kept proposals, best first; the structure is emptied for the next step.
    fn take(&mut self) -> Vec<Proposal> {
        self.arrived = 0;
        std::mem::take(&mut self.heap).into_sorted_vec().into_iter().map(|r| r.proposal).collect()
    }
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
    let mut next = Best::new(cfg.beam);
    next.push(Proposal { state: start, parent: 0, take: None });
    for current in 0..=cand.len() {
        crate::interrupt::check();
        kept = materialize(next.take(), kept);
        let mut first_dropped: Option<Proposal> = None;
        for (rank, path) in kept.iter().enumerate() {
            let mut state = path.state;
            let keep = |state| Proposal { state, parent: rank, take: None };
            if current == cand.len() {
                if state.last_match_end != -1 {
                    state.chunks = state.chunks.wrapping_add(1);
                }
                next.push(keep(state));
                continue;
            }
            if current < state.idx || used2[current] {
                if current < state.idx {
                    next.push(keep(state));
                } else if let Some(m) = fixed.get(state.idx).copied().flatten() {
                    state.take(&m, w);
                    state.distance = state.distance.wrapping_add(m.distance());
                    next.push(keep(state));
                } else if rank == 0 {
                    first_dropped = Some(keep(state));
                }
                continue;
            }
            for m in &cand[current] {
                let used = used2[m.start()..m.start() + m.length()].iter().any(|&u| u)
                    || (m.match_start()..m.match_start() + m.match_length()).any(|i| bit(&path.used1, i));
                if used {
                    continue;
                }
                let mut taken = state;
                taken.take(m, w);
                // The reference adds this distance to the path that skips the match.
                state.distance = state.distance.wrapping_add(m.distance());
                next.push(Proposal { state: taken, parent: rank, take: Some(*m) });
            }
            if state.last_match_end != -1 {
                state.chunks = state.chunks.wrapping_add(1);
                state.last_match_end = -1;
            }
            state.idx += 1;
            next.push(keep(state));
        }
        if next.is_empty() {
            if let Some(p) = first_dropped {
                next.push(p);
            }
        }
    }
    let mut best = next.take();
    best.truncate(1);
    materialize(best, kept).pop().and_then(|p| p.chosen)
}

/// Turn the kept proposals into paths, consuming their parents: a parent's bitset is
/// moved to its last kept extension and copied only for the others that take a match.
fn materialize(proposals: Vec<Proposal>, parents: Vec<Path>) -> Vec<Path> {
    let mut uses = vec![0usize; parents.len()];
    for p in proposals.iter() {
        uses[p.parent] += 1;
    }
    let mut parents: Vec<Option<Path>> = parents.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(proposals.len());
    for p in proposals {
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
                set_bits(Rc::make_mut(&mut used1).as_mut_slice(), m.match_start(), m.match_length());
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
        for j in 0..m.match_length() {
            if f1[m.match_start() + j] {
                c.test_function[m.stage()] += 1;
            } else {
                c.test_content[m.stage()] += 1;
            }
        }
        for j in 0..m.length() {
            if f2[m.start() + j] {
                c.ref_function[m.stage()] += 1;
            } else {
                c.ref_content[m.stage()] += 1;
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
                c.test_matches += m.match_length();
                c.ref_matches += m.length();
                if last_end != -1 && m.match_start() as i64 != last_end {
                    chunks += 1;
                }
                idx = m.start() + m.length();
                last_end = (m.match_start() + m.match_length()) as i64;
            }
        }
    }
    if last_end != -1 {
        chunks += 1;
    }
    c.chunks = chunks;
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proposal(m: i32, c: i32, d: i32, parent: usize) -> Proposal {
        Proposal {
            state: Partial { matches1: m, matches2: 0, chunks: c, idx: 0, last_match_end: -1, distance: d },
            parent,
            take: None,
        }
    }

    #[test]
    fn best_keeps_what_a_stable_sort_and_truncate_keeps() {
        // Many ties (small key ranges), so arrival order decides as a stable sort would.
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as i32
        };
        for round in 0..200 {
            let n = (round * 7) % 300;
            let all: Vec<Proposal> = (0..n).map(|k| proposal(next() % 4, next() % 3, next() % 5, k)).collect();
            let mut best = Best::new(BEAM_SIZE);
            for p in &all {
                best.push(Proposal { state: p.state, parent: p.parent, take: None });
            }
            let mut sorted: Vec<&Proposal> = all.iter().collect();
            sorted.sort_by(|x, y| compare(x, y));
            sorted.truncate(BEAM_SIZE);
            let kept: Vec<usize> = best.take().iter().map(|p| p.parent).collect();
            assert_eq!(kept, sorted.iter().map(|p| p.parent).collect::<Vec<_>>(), "round {round}");
        }
    }
}
