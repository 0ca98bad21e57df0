//! chrF's character n-grams as packed integer keys, counted and clipped in small tables
//! that are never cleared.
//!
//! A segment's characters (lowercased if asked, Python whitespace removed unless kept)
//! become dense ids `1..=D`, one per distinct character of the segment in order of first
//! appearance over the hypothesis and then the references (one alphabet for all sides),
//! read from a 128-entry array for ASCII and a hash map for the rest. With
//! `bits = bit_length(D)` bits an id, the n-gram of order `n` ending at a position is its
//! last `n` ids packed into a `u64`. Its top id is nonzero, so the key of an n-gram has
//! between `(n-1)·bits + 1` and `n·bits` bits: keys of different orders differ and the
//! packing is exact (injective) whenever `bits · char_order <= 64` (up to 1,023 distinct
//! characters a segment for chrF's 6 orders). A segment that does not pack is reported to
//! the caller, which takes the interning path (exact too, slower).
//!
//! All orders come out of one pass: a rolling window `w = (w << bits) | id` and a mask per
//! order. The hypothesis's n-grams are counted; a reference then walks its own n-grams
//! and takes one from the hypothesis count of each it finds: the c-th occurrence in the
//! reference matches while the hypothesis has at least c, so the number taken is
//! `Σ_g min(hyp_g, ref_g)` with no reference table and no second pass. Counts taken by
//! one reference are given back before the next (multi-reference).
//!
//! Keys below 2¹² (the low orders: with 6-bit ids, orders 1 and 2) index an array of
//! 4,096 counts directly; the others go to an open-addressing table (linear probing,
//! Fibonacci hashing). Neither is ever cleared: an entry belongs to the current segment
//! iff its generation stamp is the segment's. The table is sized for the segment up front
//! (eight slots per hashed hypothesis n-gram, so it cannot fill), grows only for a
//! larger segment than any before, and past 2¹⁶ positions doubles within a segment
//! whenever the distinct n-grams exceed half of it.

use crate::pystr::{is_py_space, is_py_space_byte, py_lower_into};
use rustc_hash::FxHashMap;

/// A slot of the open-addressing table.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    stamp: u32,
    count: u32,
}

/// An entry of the direct array (its index is the key).
#[derive(Clone, Copy, Default)]
struct Count {
    stamp: u32,
    count: u32,
}

/// Fibonacci hashing: the top bits of `key · 2⁶⁴/φ`.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Keys below `1 << DIRECT_BITS` are counted in the direct array.
const DIRECT_BITS: u32 = 12;
const DIRECT_LEN: usize = 1 << DIRECT_BITS;

/// Hashed hypothesis n-grams up to which the table is sized to hold them all up front
/// (at a load of at most 1/8); beyond, it starts at this size and grows as needed.
const PRESIZED: usize = 1 << 15;

/// A slot index in `taken` that refers to the direct array.
const DIRECT_TAG: u32 = 1 << 31;

/// Counts of packed n-gram keys for one segment at a time.
pub struct GramTable {
    direct: Box<[Count; DIRECT_LEN]>,
    slots: Vec<Slot>,
    stamp: u32,
    /// `64 - log2(slots.len())`
    shift: u32,
    /// live slots of the current stamp (counted on the growing path only)
    live: usize,
    /// entries whose count a reference took from (given back by [`GramTable::give_back`])
    taken: Vec<u32>,
}

impl Default for GramTable {
    fn default() -> Self {
        Self { direct: Box::new([Count::default(); DIRECT_LEN]), slots: vec![Slot::default(); 64], stamp: 0, shift: 64 - 6, live: 0, taken: Vec::new() }
    }
}

/// The tables of the current segment, borrowed into locals so that the hot loops keep
/// the stamp, the shift and the pointers in registers.
struct Segment<'a> {
    direct: &'a mut [Count; DIRECT_LEN],
    slots: &'a mut [Slot],
    stamp: u32,
    shift: u32,
    taken: &'a mut Vec<u32>,
}

impl Segment<'_> {
    /// Count one occurrence of a key below 2¹².
    #[inline(always)]
    fn add_direct(&mut self, key: u64) {
        let e = &mut self.direct[key as usize & (DIRECT_LEN - 1)];
        let count = if e.stamp == self.stamp { e.count } else { 0 };
        *e = Count { stamp: self.stamp, count: count + 1 };
    }

    /// The slot of `key`: the one holding it, or the free one where it would go, and
    /// whether it is live (holds `key`). One branch a probe, taken unless the slot holds
    /// another key (rare at a load of at most 1/8).
    #[inline(always)]
    fn find(&self, key: u64) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(GOLDEN) >> self.shift) as usize;
        loop {
            let s = &self.slots[i];
            let live = s.stamp == self.stamp;
            if !live || s.key == key {
                return (i, live);
            }
            i = (i + 1) & mask;
        }
    }

    /// Count one occurrence of `key`; whether it is new to the segment.
    #[inline(always)]
    fn add(&mut self, key: u64) -> bool {
        let (i, live) = self.find(key);
        let s = &mut self.slots[i];
        // new or not is a select, not a branch
        let count = if live { s.count } else { 0 };
        *s = Slot { key, stamp: self.stamp, count: count + 1 };
        !live
    }

    /// Take one occurrence of a key below 2¹² if any is left (1 if taken); `REMEMBER`:
    /// note it for [`GramTable::give_back`].
    #[inline(always)]
    fn take_direct<const REMEMBER: bool>(&mut self, key: u64) -> u64 {
        let i = key as usize & (DIRECT_LEN - 1);
        let e = &mut self.direct[i];
        let count = if e.stamp == self.stamp { e.count } else { 0 };
        let took = count > 0;
        e.count = count - took as u32;
        if REMEMBER && took {
            self.taken.push(i as u32 | DIRECT_TAG);
        }
        took as u64
    }

    /// Take one occurrence of `key` if any is left (1 if taken); `REMEMBER` as
    /// [`Segment::take_direct`].
    #[inline(always)]
    fn take<const REMEMBER: bool>(&mut self, key: u64) -> u64 {
        let (i, live) = self.find(key);
        let s = &mut self.slots[i];
        // found, or absent (a free slot: writing its count changes nothing)
        let took = live && s.count > 0;
        s.count -= took as u32;
        if REMEMBER && took {
            self.taken.push(i as u32);
        }
        took as u64
    }
}

impl GramTable {
    /// Start a segment expecting up to `keys` distinct hashed keys: every entry becomes free.
    pub fn begin(&mut self, keys: usize) {
        let want = (keys.max(16) * 8).next_power_of_two();
        if want > self.slots.len() {
            self.slots = vec![Slot::default(); want];
            self.shift = 64 - want.trailing_zeros();
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // 2³² segments later: old stamps could collide, so forget them once
            self.slots.fill(Slot::default());
            self.direct.fill(Count::default());
            self.stamp = 1;
        }
        self.live = 0;
        self.taken.clear();
    }

    fn segment(&mut self) -> Segment<'_> {
        Segment { direct: &mut self.direct, slots: &mut self.slots, stamp: self.stamp, shift: self.shift, taken: &mut self.taken }
    }

    /// Count one occurrence of `key`, doubling the table when its load passes 1/2 (for
    /// segments larger than the table is sized for up front).
    fn add_growing(&mut self, key: u64) {
        if self.segment().add(key) {
            self.live += 1;
            if self.live * 2 > self.slots.len() {
                self.grow();
            }
        }
    }

    /// Give back every occurrence taken with `remember` since the last call.
    fn give_back(&mut self) {
        for &i in &self.taken {
            if i & DIRECT_TAG != 0 {
                self.direct[(i & !DIRECT_TAG) as usize & (DIRECT_LEN - 1)].count += 1;
            } else {
                self.slots[i as usize].count += 1;
            }
        }
        self.taken.clear();
    }

    /// Double the table within a segment, keeping its live slots.
    #[cold]
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let stamp = self.stamp;
        self.slots = vec![Slot::default(); old.len() * 2];
        self.shift -= 1;
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.stamp == stamp) {
            let mut i = (s.key.wrapping_mul(GOLDEN) >> self.shift) as usize;
            while self.slots[i].stamp == stamp {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

/// The dense ids of one segment's characters.
struct Alphabet {
    /// per ASCII byte of the input: its character's id after lowercasing (as asked), 0
    /// for whitespace that is removed, [`Alphabet::UNSEEN`] before its first appearance
    ascii: [u32; 128],
    /// the ids of the other characters (after lowercasing)
    others: FxHashMap<char, u32>,
    /// ids given so far (the largest id)
    distinct: u32,
    lowercase: bool,
    keep_space: bool,
}

impl Alphabet {
    const UNSEEN: u32 = u32::MAX;

    fn new() -> Self {
        Self { ascii: [Self::UNSEEN; 128], others: FxHashMap::default(), distinct: 0, lowercase: false, keep_space: false }
    }

    fn reset(&mut self, lowercase: bool, keep_space: bool) {
        self.ascii = [Self::UNSEEN; 128];
        if !self.others.is_empty() {
            self.others.clear();
        }
        self.distinct = 0;
        self.lowercase = lowercase;
        self.keep_space = keep_space;
    }

    /// The id of ASCII byte `b` of the input, given at its first appearance.
    #[inline(always)]
    fn ascii_id(&mut self, b: u8) -> u32 {
        let id = self.ascii[b as usize & 127];
        if id != Self::UNSEEN {
            return id;
        }
        self.first_ascii(b)
    }

    #[cold]
    fn first_ascii(&mut self, b: u8) -> u32 {
        let id = if !self.keep_space && is_py_space_byte(b) {
            0
        } else if self.lowercase && b.is_ascii_uppercase() {
            // the same id as its lowercase letter
            self.ascii_id(b.to_ascii_lowercase())
        } else {
            self.distinct += 1;
            self.distinct
        };
        self.ascii[b as usize & 127] = id;
        id
    }

    /// The id of a character of already lowercased text without removed whitespace.
    fn id(&mut self, c: char) -> u32 {
        if c.is_ascii() {
            return self.ascii_id(c as u8);
        }
        let next = self.distinct + 1;
        let id = *self.others.entry(c).or_insert(next);
        if id == next {
            self.distinct = next;
        }
        id
    }
}

/// Reusable state of one worker for the character orders of chrF.
pub struct CharGrams {
    table: GramTable,
    /// ids of the hypothesis, then of each reference
    codes: Vec<u32>,
    /// end offset in `codes` of each side
    ends: Vec<usize>,
    lowered: String,
    alphabet: Alphabet,
    masks: Vec<u64>,
}

impl Default for CharGrams {
    fn default() -> Self {
        Self { table: GramTable::default(), codes: Vec::new(), ends: Vec::new(), lowered: String::new(), alphabet: Alphabet::new(), masks: Vec::new() }
    }
}

/// The number of bits of `x` (0 for 0).
fn bit_length(x: u32) -> u32 {
    32 - x.leading_zeros()
}

impl CharGrams {
    /// Append the ids of `text`'s characters, lowercased and without Python whitespace
    /// as the alphabet was reset for.
    fn push_codes(&mut self, text: &str) {
        let alphabet = &mut self.alphabet;
        if text.is_ascii() {
            let bytes = text.as_bytes();
            let start = self.codes.len();
            self.codes.resize(start + bytes.len(), 0);
            let out = &mut self.codes[start..];
            let mut k = 0usize;
            for &b in bytes {
                let id = alphabet.ascii_id(b);
                // written always, kept by advancing: no branch on whitespace (id 0)
                out[k] = id;
                k += (id != 0) as usize;
            }
            self.codes.truncate(start + k);
            return;
        }
        let text = if alphabet.lowercase {
            py_lower_into(text, &mut self.lowered);
            self.lowered.as_str()
        } else {
            text
        };
        for c in text.chars() {
            if alphabet.keep_space || !is_py_space(c) {
                self.codes.push(alphabet.id(c));
            }
        }
    }

    /// Statistics `[n_hyp, n_ref, n_match]` of the character orders `1..=order` of `hyp`
    /// against each reference, one row of `3 · order` values per reference appended to
    /// `rows`; `false` (nothing appended) when the segment's n-grams cannot be packed
    /// into 64 bits (too many distinct characters for the order).
    pub fn rows<S: AsRef<str>>(&mut self, order: usize, lowercase: bool, keep_space: bool, hyp: &str, refs: &[S], rows: &mut Vec<u64>) -> bool {
        if order == 0 || order > 64 {
            return order == 0;
        }
        self.codes.clear();
        self.ends.clear();
        self.alphabet.reset(lowercase, keep_space);
        self.push_codes(hyp);
        self.ends.push(self.codes.len());
        for r in refs {
            self.push_codes(r.as_ref());
            self.ends.push(self.codes.len());
        }
        let bits = bit_length(self.alphabet.distinct).max(1) as usize;
        if bits * order > 64 {
            return false;
        }
        self.masks.clear();
        self.masks.extend((1..=order).map(|n| if bits * n >= 64 { !0 } else { (1u64 << (bits * n)) - 1 }));
        // the orders whose keys index the direct array
        let direct = order.min(DIRECT_BITS as usize / bits);
        match order {
            1 => self.count_and_take::<1>(order, bits as u32, direct, refs.len(), rows),
            2 => self.count_and_take::<2>(order, bits as u32, direct, refs.len(), rows),
            3 => self.count_and_take::<3>(order, bits as u32, direct, refs.len(), rows),
            4 => self.count_and_take::<4>(order, bits as u32, direct, refs.len(), rows),
            5 => self.count_and_take::<5>(order, bits as u32, direct, refs.len(), rows),
            6 => self.count_and_take::<6>(order, bits as u32, direct, refs.len(), rows),
            7 => self.count_and_take::<7>(order, bits as u32, direct, refs.len(), rows),
            8 => self.count_and_take::<8>(order, bits as u32, direct, refs.len(), rows),
            _ => self.count_and_take::<0>(order, bits as u32, direct, refs.len(), rows),
        }
        true
    }

    /// [`CharGrams::rows`] once the ids are in `codes`: `N` is the order (0: given at
    /// run time), `direct` the number of orders counted in the direct array.
    fn count_and_take<const N: usize>(&mut self, order: usize, bits: u32, direct: usize, n_refs: usize, rows: &mut Vec<u64>) {
        let masks = &self.masks[..];
        let table = &mut self.table;
        let hyp_len = self.ends[0];
        let hashed = hyp_len * (order - direct);
        table.begin(hashed.min(PRESIZED));
        let hyp = &self.codes[..hyp_len];
        if hashed <= PRESIZED {
            // the table holds every hashed n-gram of the hypothesis: no growth to check
            let mut seg = table.segment();
            walk::<N>(hyp, bits, masks, |n, key| {
                if n < direct {
                    seg.add_direct(key)
                } else {
                    seg.add(key);
                }
            });
        } else {
            walk::<N>(hyp, bits, masks, |n, key| if n < direct { table.segment().add_direct(key) } else { table.add_growing(key) });
        }
        let mut matched = [0u64; 64];
        for j in 0..n_refs {
            let (start, end) = (self.ends[j], self.ends[j + 1]);
            matched[..order].fill(0);
            let mut seg = table.segment();
            let ids = &self.codes[start..end];
            if n_refs == 1 {
                walk::<N>(ids, bits, masks, |n, key| matched[n] += if n < direct { seg.take_direct::<false>(key) } else { seg.take::<false>(key) });
            } else {
                // several references: what one takes is given back for the next
                walk::<N>(ids, bits, masks, |n, key| matched[n] += if n < direct { seg.take_direct::<true>(key) } else { seg.take::<true>(key) });
                table.give_back();
            }
            let ref_len = end - start;
            for (n, &m) in matched[..order].iter().enumerate() {
                let ref_grams = ref_len.saturating_sub(n) as u64;
                let hyp_grams = hyp_len.saturating_sub(n) as u64;
                // sacrebleu: `hyp_count if ref_ngrams else 0`
                rows.extend_from_slice(&[if ref_grams == 0 { 0 } else { hyp_grams }, ref_grams, m]);
            }
        }
    }
}

/// `f(n - 1, key)` for every n-gram of `ids` of orders `1..=masks.len()`, by end
/// position, shortest first. `N`: the order known at compile time (0: `masks.len()`).
#[inline(always)]
fn walk<const N: usize>(ids: &[u32], bits: u32, masks: &[u64], mut f: impl FnMut(usize, u64)) {
    let order = if N > 0 { N } else { masks.len() };
    let masks = &masks[..order];
    let mut w = 0u64;
    let head = ids.len().min(order - 1);
    for (p, &c) in ids[..head].iter().enumerate() {
        w = (w << bits) | c as u64;
        for (n, &m) in masks[..=p].iter().enumerate() {
            f(n, w & m);
        }
    }
    for (p, &c) in ids[head..].iter().enumerate() {
        crate::interrupt::check_every(p);
        w = (w << bits) | c as u64;
        if N > 0 && N <= 8 {
            // unrolled: the masks stay in registers and each order has its own branches
            macro_rules! orders {
                ($($n:literal)*) => { $( if $n < N { f($n, w & masks[$n]); } )* };
            }
            orders!(0 1 2 3 4 5 6 7);
        } else {
            for (n, &m) in masks.iter().enumerate() {
                f(n, w & m);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statistics by counting n-gram strings, sacrebleu's way.
    fn naive(order: usize, lowercase: bool, keep_space: bool, hyp: &str, refs: &[&str]) -> Vec<u64> {
        let prep = |t: &str| -> Vec<char> {
            let t = if lowercase { crate::pystr::py_lower(t) } else { t.to_string() };
            t.chars().filter(|&c| keep_space || !is_py_space(c)).collect()
        };
        let count = |cs: &[char], n: usize| {
            let mut m: std::collections::HashMap<Vec<char>, u64> = Default::default();
            for w in cs.windows(n) {
                *m.entry(w.to_vec()).or_default() += 1;
            }
            m
        };
        let h = prep(hyp);
        let mut out = vec![];
        for r in refs {
            let r = prep(r);
            for n in 1..=order {
                let (hc, rc) = (count(&h, n), count(&r, n));
                let matched: u64 = rc.iter().map(|(g, &c)| c.min(*hc.get(g).unwrap_or(&0))).sum();
                let ref_n: u64 = rc.values().sum();
                let hyp_n: u64 = hc.values().sum();
                out.extend([if ref_n == 0 { 0 } else { hyp_n }, ref_n, matched]);
            }
        }
        out
    }

    fn fast(g: &mut CharGrams, order: usize, lowercase: bool, keep_space: bool, hyp: &str, refs: &[&str]) -> Option<Vec<u64>> {
        let mut rows = vec![];
        g.rows(order, lowercase, keep_space, hyp, refs, &mut rows).then_some(rows)
    }

    #[test]
    fn equals_counting_strings() {
        let texts = [
            "", " ", "a", "ab", "abcdef", "abcdefg", "aaaaaaaa", "The cat sat on the mat.", "the CAT\tsat\u{3000}on",
            "é\u{301}e\u{301}é", "日本語の日本語", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝔘𝔫", "İΣς ΟΔΟΣ", "a\x1cb\x1fc\u{85}d\u{a0}e", "\0\0a\0", "x\u{10FFFF}y",
        ];
        let mut g = CharGrams::default();
        for order in [1, 2, 3, 6, 7, 8, 9, 12] {
            for &(lc, ws) in &[(false, false), (true, false), (false, true), (true, true)] {
                for h in texts {
                    for refs in [&texts[..1], &texts[3..4], &texts[6..9], &texts[9..13], &texts[..]] {
                        let want = naive(order, lc, ws, h, refs);
                        if let Some(got) = fast(&mut g, order, lc, ws, h, refs) {
                            assert_eq!(got, want, "{order} {lc} {ws} {h:?} {refs:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn packing_limits() {
        let mut g = CharGrams::default();
        // 3 distinct characters: 2 bits an id, up to order 32
        for order in [9, 10, 21, 32] {
            assert_eq!(fast(&mut g, order, false, false, "abcabc", &["abba"]).unwrap(), naive(order, false, false, "abcabc", &["abba"]));
        }
        assert!(fast(&mut g, 33, false, false, "abcabc", &["abba"]).is_none());
        // astral characters get small ids like any other
        assert_eq!(fast(&mut g, 6, false, false, "𝔘𝔫𝔘", &["𝔫𝔘"]).unwrap(), naive(6, false, false, "𝔘𝔫𝔘", &["𝔫𝔘"]));
        // 1,100 distinct characters need 11 bits: order 5 packs, order 6 does not
        let many: String = (0..1100u32).map(|i| char::from_u32(0x4E00 + i).unwrap()).collect();
        assert!(fast(&mut g, 5, false, false, &many, &[&many[..30]]).is_some());
        assert!(fast(&mut g, 6, false, false, &many, &[&many[..30]]).is_none());
        // whitespace removed gets no id: 1,023 others and every kind of space still pack
        let spaced: String = (0..1023u32).map(|i| char::from_u32(0x4E00 + i).unwrap()).chain(" \t\u{3000}\u{a0}\x1c".chars()).collect();
        let first = "\u{4E00}";
        assert!(fast(&mut g, 6, false, false, &spaced, &[first]).is_some());
        assert!(fast(&mut g, 6, false, true, &spaced, &[first]).is_none());
    }

    #[test]
    fn table_grows_and_stamps_forget() {
        let mut t = GramTable::default();
        t.begin(4);
        for k in 1..=10_000u64 {
            t.add_growing(k * 7);
            t.add_growing(k * 7);
        }
        assert!(t.slots.len() >= 20_000 && t.live == 10_000);
        for k in 1..=10_000u64 {
            assert_eq!(t.segment().take::<true>(k * 7), 1);
            assert_eq!(t.segment().take::<false>(k * 7), 1);
            assert_eq!(t.segment().take::<false>(k * 7), 0);
        }
        t.segment().add_direct(5);
        assert_eq!(t.segment().take_direct::<true>(5), 1);
        assert_eq!(t.segment().take_direct::<true>(5), 0);
        t.give_back();
        assert_eq!((t.segment().take::<false>(7), t.segment().take::<false>(7)), (1, 0));
        assert_eq!((t.segment().take_direct::<false>(5), t.segment().take_direct::<false>(5)), (1, 0));
        t.begin(4);
        assert_eq!(t.segment().take::<false>(14), 0);
        assert_eq!(t.segment().take_direct::<false>(5), 0);
        // the stamp wraps: every entry is forgotten once
        t.stamp = u32::MAX;
        t.segment().add(3);
        t.segment().add_direct(3);
        t.begin(4);
        assert_eq!(t.stamp, 1);
        assert_eq!(t.segment().take::<false>(3), 0);
        assert_eq!(t.segment().take_direct::<false>(3), 0);
    }

    #[test]
    fn long_segment() {
        let h: String = (0..50_000).map(|i| char::from(b'a' + (i * 7 % 26) as u8)).collect();
        let r: String = (0..40_000).map(|i| char::from(b'a' + (i * 11 % 26) as u8)).collect();
        let mut g = CharGrams::default();
        assert_eq!(fast(&mut g, 6, false, false, &h, &[&r, &h]).unwrap(), naive(6, false, false, &h, &[&r, &h]));
    }
}
