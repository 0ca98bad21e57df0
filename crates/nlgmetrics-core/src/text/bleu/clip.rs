//! Clipped n-gram matches of one hypothesis against its references (orders <= 4).
//!
//! Only hypothesis n-grams can match, so only the hypothesis is interned and counted.
//! Each reference is then scanned with lookups alone: a reference token the hypothesis
//! lacks ends every n-gram through it, and an n-gram the hypothesis lacks ends its
//! extensions too (every prefix of a hypothesis n-gram is a hypothesis n-gram). Keys
//! are the exact packed u64 of `ngram` (16 bits per token id + 1). All buffers are
//! reused from segment to segment.

use crate::ngram::{PACK_MAX_ORDER, PACK_MAX_VOCAB};
use rustc_hash::FxHashMap;

/// Id of a reference token that the hypothesis does not contain.
const ABSENT: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Slot {
    order: u8,
    hyp: u32,
    /// Largest count in any one reference so far.
    best: u32,
    /// Count in the reference being scanned.
    cur: u32,
}

/// Token interner of one hypothesis: dense ids in first-seen order.
pub type Vocab<'t> = FxHashMap<&'t str, u32>;

/// Open addressing from packed keys to slot numbers, emptied in O(1) per segment by
/// moving to a new generation (a hypothesis has few n-grams; clearing a map would cost
/// more than filling it).
#[derive(Default)]
struct KeyTable {
    /// (key, slot, generation)
    entries: Vec<(u64, u32, u32)>,
    generation: u32,
    shift: u32,
}

impl KeyTable {
    /// Empty the table, sized for `n` keys at most half full.
    fn reset(&mut self, n: usize) {
        let want = (2 * n).next_power_of_two().max(16);
        if want > self.entries.len() || self.generation == u32::MAX {
            self.entries = vec![(0, 0, 0); want.max(self.entries.len())];
            self.generation = 0;
            self.shift = 64 - self.entries.len().trailing_zeros();
        }
        self.generation += 1;
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// The slot of `key`, inserting `next` for a new key.
    #[inline]
    fn get_or_insert(&mut self, key: u64, next: u32) -> u32 {
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        loop {
            let e = &mut self.entries[i];
            if e.2 != self.generation {
                *e = (key, next, self.generation);
                return next;
            }
            if e.0 == key {
                return e.1;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn get(&self, key: u64) -> Option<u32> {
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        loop {
            let e = &self.entries[i];
            if e.2 != self.generation {
                return None;
            }
            if e.0 == key {
                return Some(e.1);
            }
            i = (i + 1) & mask;
        }
    }
}

#[derive(Default)]
pub struct Clipper {
    max_order: usize,
    index: KeyTable,
    slots: Vec<Slot>,
    touched: Vec<u32>,
    ids: Vec<u32>,
}

impl Clipper {
    /// Intern and count the hypothesis n-grams. Returns the hypothesis length, or `None`
    /// when its vocabulary or `max_order` is too large for packed keys.
    pub fn set_hypothesis<'t>(
        &mut self,
        vocab: &mut Vocab<'t>,
        tokens: impl Iterator<Item = &'t str>,
        max_order: usize,
    ) -> Option<usize> {
        if max_order > PACK_MAX_ORDER {
            return None;
        }
        self.max_order = max_order;
        self.ids.clear();
        for (i, t) in tokens.enumerate() {
            crate::interrupt::check_every(i);
            let next = vocab.len() as u32;
            self.ids.push(*vocab.entry(t).or_insert(next));
        }
        if vocab.len() > PACK_MAX_VOCAB {
            return None;
        }
        self.index.reset(self.ids.len() * max_order);
        self.slots.clear();
        let ids = &self.ids;
        for i in 0..ids.len() {
            crate::interrupt::check_every(i);
            let mut key = 0u64;
            for n in 0..max_order.min(ids.len() - i) {
                key |= ((ids[i + n] + 1) as u64) << (16 * n);
                let next = self.slots.len() as u32;
                let slot = self.index.get_or_insert(key, next);
                if slot == next {
                    self.slots.push(Slot { order: n as u8, hyp: 0, best: 0, cur: 0 });
                }
                self.slots[slot as usize].hyp += 1;
            }
        }
        Some(ids.len())
    }

    /// Scan one reference; returns its length in tokens.
    pub fn add_reference<'t>(&mut self, vocab: &Vocab<'t>, tokens: impl Iterator<Item = &'t str>) -> usize {
        self.ids.clear();
        self.ids.extend(tokens.map(|t| vocab.get(t).copied().unwrap_or(ABSENT)));
        let ids = &self.ids;
        for i in 0..ids.len() {
            crate::interrupt::check_every(i);
            let mut key = 0u64;
            for n in 0..self.max_order.min(ids.len() - i) {
                let id = ids[i + n];
                if id == ABSENT {
                    break;
                }
                key |= ((id + 1) as u64) << (16 * n);
                let Some(slot) = self.index.get(key) else { break };
                let s = &mut self.slots[slot as usize];
                if s.cur == 0 {
                    self.touched.push(slot);
                }
                s.cur += 1;
            }
        }
        for &slot in &self.touched {
            let s = &mut self.slots[slot as usize];
            s.best = s.best.max(s.cur);
            s.cur = 0;
        }
        self.touched.clear();
        ids.len()
    }

    /// Add the clipped matches per order (index n-1) to `correct`.
    pub fn matches_into(&self, correct: &mut [u64]) {
        for s in &self.slots {
            correct[s.order as usize] += s.hyp.min(s.best) as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_by_the_best_single_reference() {
        let mut c = Clipper::default();
        let mut vocab = Vocab::default();
        let hyp = "the the the cat";
        assert_eq!(c.set_hypothesis(&mut vocab, hyp.split(' '), 4), Some(4));
        assert_eq!(c.add_reference(&vocab, "the cat on the mat".split(' ')), 5);
        assert_eq!(c.add_reference(&vocab, "a dog".split(' ')), 2);
        let mut m = [0u64; 4];
        c.matches_into(&mut m);
        // unigrams: "the" min(3, 2) + "cat" 1; bigrams: "the cat" 1.
        assert_eq!(m, [3, 1, 0, 0]);
    }

    #[test]
    fn key_table_survives_growth_and_generations() {
        let mut t = KeyTable::default();
        for round in 0..50u64 {
            let n = 1 + (round as usize * 37) % 300;
            t.reset(n);
            for k in 0..n as u64 {
                assert_eq!(t.get_or_insert(k * 65537 + round, k as u32), k as u32);
            }
            for k in 0..n as u64 {
                assert_eq!(t.get(k * 65537 + round), Some(k as u32));
                assert_eq!(t.get_or_insert(k * 65537 + round, 9999), k as u32);
            }
            assert_eq!(t.get(u64::MAX), None);
        }
    }

    #[test]
    fn refuses_orders_it_cannot_pack() {
        let mut c = Clipper::default();
        assert_eq!(c.set_hypothesis(&mut Vocab::default(), "a b".split(' '), 5), None);
    }
}
