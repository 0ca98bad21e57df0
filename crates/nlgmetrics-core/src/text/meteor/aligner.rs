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

#[derive(Clone)]
struct Partial {
    matches: Vec<Option<Match>>,
    matches1: i32,
    matches2: i32,
    chunks: i32,
    idx: usize,
    last_match_end: i64,
    distance: i32,
    used1: Vec<bool>,
    used2: Vec<bool>,
}

impl Partial {
    fn is_used(&self, m: &Match) -> bool {
        self.used2[m.start..m.start + m.length].iter().any(|&u| u)
            || self.used1[m.match_start..m.match_start + m.match_length].iter().any(|&u| u)
    }

    fn set_used(&mut self, m: &Match) {
        self.used2[m.start..m.start + m.length].fill(true);
        self.used1[m.match_start..m.match_start + m.match_length].fill(true);
    }

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
fn compare(x: &Partial, y: &Partial) -> std::cmp::Ordering {
    ((y.matches1 + y.matches2).cmp(&(x.matches1 + x.matches2)))
        .then(x.chunks.cmp(&y.chunks))
        .then(x.distance.cmp(&y.distance))
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
    let mut initial = Partial {
        matches: vec![None; n2],
        matches1: 0,
        matches2: 0,
        chunks: 0,
        idx: 0,
        last_match_end: -1,
        distance: 0,
        used1: vec![false; n1],
        used2: vec![false; n2],
    };
    for (i, c) in cand.iter().enumerate() {
        if c.len() == 1 {
            let m = c[0];
            let overlap = (0..m.length).any(|j| cov2[i + j] != 1) || (0..m.match_length).any(|j| cov1[m.match_start + j] != 1);
            if !overlap {
                initial.matches[i] = Some(m);
                initial.set_used(&m);
            }
        }
    }
    let best = resolve(cfg, &cand, initial);
    counts(cfg, a, b, &best.matches)
}

fn resolve(cfg: &AlignerConfig<'_>, cand: &[Vec<Match>], start: Partial) -> Partial {
    let w = &cfg.search_weights;
    let mut next: Vec<Partial> = vec![start];
    for current in 0..=cand.len() {
        let mut paths = std::mem::take(&mut next);
        paths.sort_by(compare);
        paths.truncate(cfg.beam);
        let mut first_dropped: Option<Partial> = None;
        for (rank, mut path) in paths.into_iter().enumerate() {
            if current == cand.len() {
                if path.last_match_end != -1 {
                    path.chunks += 1;
                }
                next.push(path);
                continue;
            }
            if path.used2[current] {
                if current < path.idx {
                    next.push(path);
                } else if let Some(m) = path.matches.get(path.idx).copied().flatten() {
                    path.take(&m, w);
                    path.distance += (m.start as i32 - m.match_start as i32).abs();
                    next.push(path);
                } else if rank == 0 {
                    first_dropped = Some(path);
                }
                continue;
            }
            for m in &cand[current] {
                if path.is_used(m) {
                    continue;
                }
                let mut np = path.clone();
                np.set_used(m);
                np.matches[current] = Some(*m);
                np.take(m, w);
                // The reference adds this distance to the path that skips the match.
                path.distance += (m.start as i32 - m.match_start as i32).abs();
                next.push(np);
            }
            if path.last_match_end != -1 {
                path.chunks += 1;
                path.last_match_end = -1;
            }
            path.idx += 1;
            next.push(path);
        }
        if next.is_empty() {
            if let Some(p) = first_dropped {
                next.push(p);
            }
        }
    }
    next.sort_by(compare);
    next.swap_remove(0)
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
