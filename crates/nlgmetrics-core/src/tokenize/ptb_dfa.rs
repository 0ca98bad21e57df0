//! A small longest-match lexer engine with JFlex's semantics, over UTF-16 code units.
//!
//! Regular expressions ([`Re`]) over sets of code units compile into one Thompson NFA per
//! automaton; a [`Dfa`] builds its states lazily (subset construction on demand, cached
//! per thread) over equivalence classes of code units. A rule list compiles into one
//! automaton whose accepting states carry the earliest rule that accepts there, so running
//! it to the longest accepted prefix gives JFlex's choice: the longest match, the earlier
//! rule on a tie.

use std::collections::HashMap;

/// A set of UTF-16 code units: sorted, disjoint, inclusive ranges.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Set(pub Vec<(u16, u16)>);

impl Set {
    pub fn ranges(rs: &[(u16, u16)]) -> Set {
        let mut v = rs.to_vec();
        v.sort_unstable();
        let mut out: Vec<(u16, u16)> = Vec::with_capacity(v.len());
        for (a, b) in v {
            match out.last_mut() {
                Some(last) if a as u32 <= last.1 as u32 + 1 => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        Set(out)
    }
    pub fn chars(s: &str) -> Set {
        let v: Vec<(u16, u16)> = s.encode_utf16().map(|u| (u, u)).collect();
        Set::ranges(&v)
    }
    pub fn union(&self, o: &Set) -> Set {
        let mut v = self.0.clone();
        v.extend_from_slice(&o.0);
        Set::ranges(&v)
    }
    pub fn negate(&self) -> Set {
        let mut out = Vec::new();
        let mut next: u32 = 0;
        for &(a, b) in &self.0 {
            if (a as u32) > next {
                out.push((next as u16, a - 1));
            }
            next = b as u32 + 1;
        }
        if next <= 0xFFFF {
            out.push((next as u16, 0xFFFF));
        }
        Set(out)
    }
    pub fn contains(&self, u: u16) -> bool {
        match self.0.binary_search_by(|&(a, _)| a.cmp(&u)) {
            Ok(_) => true,
            Err(0) => false,
            Err(k) => u <= self.0[k - 1].1,
        }
    }
}

/// A regular expression over code units.
#[derive(Clone, Debug)]
pub enum Re {
    Set(Set),
    Seq(Vec<Re>),
    Alt(Vec<Re>),
    Star(Box<Re>),
}

impl Re {
    pub fn empty() -> Re {
        Re::Seq(Vec::new())
    }
    pub fn star(self) -> Re {
        Re::Star(Box::new(self))
    }
    pub fn plus(self) -> Re {
        Re::Seq(vec![self.clone(), self.star()])
    }
    pub fn opt(self) -> Re {
        Re::Alt(vec![self, Re::empty()])
    }
    /// `r{min,max}`.
    pub fn rep(self, min: usize, max: usize) -> Re {
        let mut v: Vec<Re> = (0..min).map(|_| self.clone()).collect();
        for _ in min..max {
            v.push(self.clone().opt());
        }
        Re::Seq(v)
    }
    /// The expression that matches the reversed strings.
    pub fn reversed(&self) -> Re {
        match self {
            Re::Set(s) => Re::Set(s.clone()),
            Re::Seq(v) => Re::Seq(v.iter().rev().map(Re::reversed).collect()),
            Re::Alt(v) => Re::Alt(v.iter().map(Re::reversed).collect()),
            Re::Star(r) => Re::Star(Box::new(r.reversed())),
        }
    }
    /// The length of every match, if all matches have the same length.
    pub fn fixed_len(&self) -> Option<usize> {
        match self {
            Re::Set(_) => Some(1),
            Re::Seq(v) => v.iter().try_fold(0, |n, r| Some(n + r.fixed_len()?)),
            Re::Alt(v) => {
                let first = v.first()?.fixed_len()?;
                v.iter().all(|r| r.fixed_len() == Some(first)).then_some(first)
            }
            Re::Star(_) => None,
        }
    }
    fn sets<'a>(&'a self, out: &mut Vec<&'a Set>) {
        match self {
            Re::Set(s) => out.push(s),
            Re::Seq(v) | Re::Alt(v) => v.iter().for_each(|r| r.sets(out)),
            Re::Star(r) => r.sets(out),
        }
    }
}

/// Code units grouped into classes that no set of the expressions tells apart.
pub struct Alphabet {
    class_of: Vec<u16>,
    pub n: usize,
}

impl Alphabet {
    pub fn new(res: &[&Re]) -> Alphabet {
        let mut sets = Vec::new();
        for r in res {
            r.sets(&mut sets);
        }
        let mut uniq: Vec<&Set> = Vec::new();
        {
            let mut seen = std::collections::HashSet::new();
            for s in sets {
                if seen.insert(s) {
                    uniq.push(s);
                }
            }
        }
        // Elementary intervals (no set boundary inside), then refine the partition of the
        // intervals set by set: a class splits into its part inside and outside the set.
        let mut cuts: Vec<u32> = vec![0, 0x10000];
        for s in &uniq {
            for &(a, b) in &s.0 {
                cuts.extend([a as u32, b as u32 + 1]);
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        let starts = &cuts[..cuts.len() - 1];
        let mut class = vec![0u32; starts.len()];
        let mut n = 1usize;
        for s in &uniq {
            let mut remap: HashMap<(u32, bool), u32> = HashMap::new();
            for (k, &lo) in starts.iter().enumerate() {
                let key = (class[k], s.contains(lo as u16));
                let next = remap.len() as u32;
                class[k] = *remap.entry(key).or_insert(next);
            }
            n = remap.len();
        }
        let mut class_of = vec![0u16; 0x10000];
        for (k, w) in cuts.windows(2).enumerate() {
            for u in w[0]..w[1] {
                class_of[u as usize] = class[k] as u16;
            }
        }
        Alphabet { class_of, n }
    }
    #[inline]
    pub fn class(&self, u: u16) -> usize {
        self.class_of[u as usize] as usize
    }
}

const NO_RULE: u32 = u32::MAX;

/// A Thompson NFA: each state has epsilon moves and at most one move on a class bitset.
pub struct Nfa {
    eps: Vec<Vec<u32>>,
    step: Vec<Option<(Vec<u64>, u32)>>,
    accept: Vec<u32>,
    start: u32,
    words: usize,
}

impl Nfa {
    /// One automaton for `rules` (rule `k` accepts with tag `k`).
    pub fn new(rules: &[&Re], alpha: &Alphabet) -> Nfa {
        let words = alpha.n.div_ceil(64);
        let mut nfa = Nfa { eps: Vec::new(), step: Vec::new(), accept: Vec::new(), start: 0, words };
        let start = nfa.add();
        nfa.start = start;
        for (k, r) in rules.iter().enumerate() {
            let (s, e) = nfa.build(r, alpha);
            nfa.eps[start as usize].push(s);
            nfa.accept[e as usize] = k as u32;
        }
        nfa
    }
    fn add(&mut self) -> u32 {
        self.eps.push(Vec::new());
        self.step.push(None);
        self.accept.push(NO_RULE);
        (self.eps.len() - 1) as u32
    }
    fn build(&mut self, r: &Re, alpha: &Alphabet) -> (u32, u32) {
        match r {
            Re::Set(set) => {
                let (s, e) = (self.add(), self.add());
                let mut bits = vec![0u64; self.words];
                let mut seen = vec![false; alpha.n];
                for &(a, b) in &set.0 {
                    for u in a..=b {
                        let c = alpha.class(u);
                        if !seen[c] {
                            seen[c] = true;
                            bits[c / 64] |= 1 << (c % 64);
                        }
                    }
                }
                self.step[s as usize] = Some((bits, e));
                (s, e)
            }
            Re::Seq(v) => {
                let s = self.add();
                let mut cur = s;
                for r in v {
                    let (a, b) = self.build(r, alpha);
                    self.eps[cur as usize].push(a);
                    cur = b;
                }
                (s, cur)
            }
            Re::Alt(v) => {
                let (s, e) = (self.add(), self.add());
                for r in v {
                    let (a, b) = self.build(r, alpha);
                    self.eps[s as usize].push(a);
                    self.eps[b as usize].push(e);
                }
                (s, e)
            }
            Re::Star(r) => {
                let (s, e) = (self.add(), self.add());
                let (a, b) = self.build(r, alpha);
                self.eps[s as usize].extend([a, e]);
                self.eps[b as usize].extend([a, e]);
                (s, e)
            }
        }
    }
    fn closure(&self, set: &mut Vec<u32>, mark: &mut [bool]) {
        let mut k = 0;
        while k < set.len() {
            let s = set[k] as usize;
            for &t in &self.eps[s] {
                if !mark[t as usize] {
                    mark[t as usize] = true;
                    set.push(t);
                }
            }
            k += 1;
        }
        for &s in set.iter() {
            mark[s as usize] = false;
        }
        // Keep only the states that matter for equality: those with a move or a tag.
        set.retain(|&s| self.step[s as usize].is_some() || self.accept[s as usize] != NO_RULE);
        set.sort_unstable();
    }
}

pub const DEAD: u32 = u32::MAX;
const UNKNOWN: u32 = u32::MAX - 1;

/// A lazily built DFA of an [`Nfa`] (state 0 is the start state).
pub struct Dfa {
    sets: Vec<Vec<u32>>,
    accept: Vec<u32>,
    trans: Vec<u32>,
    index: HashMap<Vec<u32>, u32>,
    n_classes: usize,
    mark: Vec<bool>,
}

impl Dfa {
    pub fn new(nfa: &Nfa, n_classes: usize) -> Dfa {
        let mut d = Dfa {
            sets: Vec::new(),
            accept: Vec::new(),
            trans: Vec::new(),
            index: HashMap::new(),
            n_classes,
            mark: vec![false; nfa.eps.len()],
        };
        let mut start = vec![nfa.start];
        d.mark[nfa.start as usize] = true;
        nfa.closure(&mut start, &mut d.mark);
        d.intern(nfa, start);
        d
    }
    fn intern(&mut self, nfa: &Nfa, set: Vec<u32>) -> u32 {
        if set.is_empty() {
            return DEAD;
        }
        if let Some(&id) = self.index.get(&set) {
            return id;
        }
        let id = self.sets.len() as u32;
        let acc = set.iter().map(|&s| nfa.accept[s as usize]).min().unwrap_or(NO_RULE);
        self.accept.push(acc);
        self.trans.extend(std::iter::repeat_n(UNKNOWN, self.n_classes));
        self.index.insert(set.clone(), id);
        self.sets.push(set);
        id
    }
    /// The number of states built so far.
    pub fn n_states(&self) -> usize {
        self.sets.len()
    }
    /// The earliest rule accepting in `state`, if any.
    #[inline]
    pub fn accepts(&self, state: u32) -> Option<u32> {
        let a = self.accept[state as usize];
        (a != NO_RULE).then_some(a)
    }
    #[inline]
    pub fn next(&mut self, nfa: &Nfa, state: u32, class: usize) -> u32 {
        let t = self.trans[state as usize * self.n_classes + class];
        if t != UNKNOWN {
            return t;
        }
        let mut out = Vec::new();
        let (w, bit) = (class / 64, 1u64 << (class % 64));
        for &s in &self.sets[state as usize] {
            if let Some((bits, to)) = &nfa.step[s as usize] {
                if bits[w] & bit != 0 && !self.mark[*to as usize] {
                    self.mark[*to as usize] = true;
                    out.push(*to);
                }
            }
        }
        nfa.closure(&mut out, &mut self.mark);
        let id = self.intern(nfa, out);
        self.trans[state as usize * self.n_classes + class] = id;
        id
    }
}
