//! Texts of one rouge-score pair as small dense token ids.
//!
//! Tokenizing, stemming and numbering happen in one pass over the bytes. Ids are dense
//! per pair (`0..len`), so every kernel indexes plain arrays instead of hashing. A token
//! of up to 16 bytes is its own key (two words read straight from the text and
//! lowercased together), numbered in a small open-addressing table that a generation
//! stamp empties in O(1) between pairs (a few hundred slots, in L1 cache); only stemming
//! goes through a per-thread cache ([`StemCache`]), once per distinct word of a pair.

use crate::stem::porter_nltk;
use crate::tokenize::rouge::Tokens;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// A token of up to 16 bytes packed into an integer (tokens hold no NUL byte, so zero
/// padding cannot make two keys equal).
fn pack(b: &[u8]) -> Option<u128> {
    if b.len() > 16 {
        return None;
    }
    let mut k = [0u8; 16];
    k[..b.len()].copy_from_slice(b);
    Some(u128::from_le_bytes(k))
}

fn halves(k: u128) -> (u64, u64) {
    (k as u64, (k >> 64) as u64)
}

/// The bytes of a packed token of `len` bytes.
fn unpack(lo: u64, hi: u64, len: usize) -> ([u8; 16], usize) {
    let k = (lo as u128) | ((hi as u128) << 64);
    (k.to_le_bytes(), len)
}

/// A stem, packed when short.
#[derive(Clone)]
enum Form {
    Short(u128),
    Long(Box<[u8]>),
}

impl Form {
    fn of(b: &[u8]) -> Form {
        pack(b).map_or_else(|| Form::Long(b.into()), Form::Short)
    }
}

/// Porter stems of the words a thread has seen (NLTK_EXTENSIONS, rouge-score's).
#[derive(Default)]
pub struct StemCache {
    short: FxHashMap<u128, Form>,
    long: FxHashMap<Box<[u8]>, Form>,
}

/// Entries kept before the cache is emptied.
const MAX_ENTRIES: usize = 1 << 20;

impl StemCache {
    fn stem(&mut self, word: &[u8]) -> Form {
        let compute = || Form::of(porter_nltk::stem(std::str::from_utf8(word).expect("ASCII token")).as_bytes());
        match pack(word) {
            Some(k) => self.short.entry(k).or_insert_with(compute).clone(),
            None => self.long.entry(word.into()).or_insert_with(compute).clone(),
        }
    }

    fn trim(&mut self) {
        if self.short.len() + self.long.len() > MAX_ENTRIES {
            self.short.clear();
            self.long.clear();
        }
    }
}

thread_local! {
    static STEMS: RefCell<StemCache> = RefCell::new(StemCache::default());
}

/// Run `f` with this thread's stem cache.
pub fn with_stems<T>(f: impl FnOnce(&mut StemCache) -> T) -> T {
    STEMS.with(|cell| {
        let mut c = cell.borrow_mut();
        c.trim();
        f(&mut c)
    })
}

/// A key of a [`StampMap`]: copied, compared, and hashed to 64 bits whose top bits
/// pick the slot.
pub trait StampKey: Copy + Default + PartialEq {
    fn hash(self) -> u64;
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

impl StampKey for u64 {
    #[inline]
    fn hash(self) -> u64 {
        self.wrapping_mul(GOLDEN)
    }
}

impl StampKey for (u64, u64) {
    #[inline]
    fn hash(self) -> u64 {
        (self.0 ^ self.1.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31)).wrapping_mul(GOLDEN)
    }
}

#[derive(Clone, Copy, Default)]
struct Slot<K> {
    key: K,
    stamp: u32,
    val: u32,
}

/// Open-addressing map from small keys to `u32` (linear probing, at most half full).
/// Emptying it is O(1): a slot is live only while its stamp is the map's, so a pair's
/// few hundred tokens never pay for zeroing a table (16 bytes a slot for `u64` keys).
pub struct StampMap<K> {
    slots: Vec<Slot<K>>,
    stamp: u32,
    len: usize,
    shift: u32,
}

impl<K: StampKey> Default for StampMap<K> {
    fn default() -> Self {
        Self::with_bits(8)
    }
}

impl<K: StampKey> StampMap<K> {
    fn with_bits(bits: u32) -> Self {
        StampMap { slots: vec![Slot::default(); 1 << bits], stamp: 1, len: 0, shift: 64 - bits }
    }

    pub fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
    }

    /// Empty, with room for `items` keys before it grows.
    pub fn clear_for(&mut self, items: usize) {
        let want = (2 * items + 2).next_power_of_two().max(16);
        if self.slots.len() < want {
            *self = Self::with_bits(want.trailing_zeros());
        } else {
            self.clear();
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slot holding `key`, or the free slot where it would go.
    #[inline]
    fn find(&self, key: K) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (key.hash() >> self.shift) as usize;
        loop {
            let s = &self.slots[i];
            if s.stamp != self.stamp || s.key == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    pub fn get(&self, key: K) -> Option<u32> {
        let s = &self.slots[self.find(key)];
        (s.stamp == self.stamp).then_some(s.val)
    }

    /// The value of `key`, inserting `make()` first when absent.
    #[inline]
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> u32) -> u32 {
        let i = self.find(key);
        let stamp = self.stamp;
        let s = &mut self.slots[i];
        if s.stamp == stamp {
            return s.val;
        }
        let val = make();
        *s = Slot { key, stamp, val };
        self.inserted();
        val
    }

    /// Add one to the count of `key` (absent: 0).
    #[inline]
    pub fn add_one(&mut self, key: K) {
        let i = self.find(key);
        let stamp = self.stamp;
        let s = &mut self.slots[i];
        if s.stamp == stamp {
            s.val += 1;
        } else {
            *s = Slot { key, stamp, val: 1 };
            self.inserted();
        }
    }

    /// Take one from the count of `key`: whether it was positive.
    #[inline]
    pub fn take_one(&mut self, key: K) -> bool {
        let i = self.find(key);
        let s = &mut self.slots[i];
        let hit = s.stamp == self.stamp && s.val > 0;
        s.val -= hit as u32;
        hit
    }

    #[inline]
    fn inserted(&mut self) {
        self.len += 1;
        if 2 * self.len > self.slots.len() {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(self, Self::with_bits(bits));
        for s in old.slots.iter().filter(|s| s.stamp == old.stamp) {
            let val = s.val;
            self.get_or_insert_with(s.key, || val);
        }
    }
}

/// The dense numbering of one pair (or of one `pairwise` matrix).
#[derive(Default)]
pub struct Local {
    /// final form of up to 8 bytes -> id
    short: StampMap<u64>,
    /// final form of 9 to 16 bytes -> id
    medium: StampMap<(u64, u64)>,
    /// longer final forms -> id
    long: FxHashMap<Box<[u8]>, u32>,
    /// raw word of 4 to 16 bytes -> id, when stemming: stems once per distinct word
    raw: StampMap<(u64, u64)>,
    len: u32,
}

impl Local {
    /// Forget the previous numbering.
    pub fn reset(&mut self) {
        self.short.clear();
        if !self.medium.is_empty() {
            self.medium.clear();
        }
        if !self.long.is_empty() {
            self.long.clear();
        }
        if !self.raw.is_empty() {
            self.raw.clear();
        }
        self.len = 0;
    }

    /// Number of distinct tokens since the last reset (ids are `0..len`).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Id of a packed form (`hi` is zero exactly when the form has at most 8 bytes).
    #[inline(always)]
    fn key_id(&mut self, lo: u64, hi: u64) -> u32 {
        let len = &mut self.len;
        let next = || {
            *len += 1;
            *len - 1
        };
        if hi == 0 {
            self.short.get_or_insert_with(lo, next)
        } else {
            self.medium.get_or_insert_with((lo, hi), next)
        }
    }

    fn long_id(&mut self, b: &[u8]) -> u32 {
        if let Some(&i) = self.long.get(b) {
            return i;
        }
        let i = self.len;
        self.len += 1;
        self.long.insert(b.into(), i);
        i
    }

    fn form_id(&mut self, form: &Form) -> u32 {
        match form {
            Form::Short(k) => {
                let (lo, hi) = halves(*k);
                self.key_id(lo, hi)
            }
            Form::Long(b) => self.long_id(b),
        }
    }

    fn bytes_id(&mut self, b: &[u8]) -> u32 {
        match pack(b) {
            Some(k) => {
                let (lo, hi) = halves(k);
                self.key_id(lo, hi)
            }
            None => self.long_id(b),
        }
    }

    /// Id of the stem of a packed word of `len` (4 to 16) bytes.
    fn stemmed_key_id(&mut self, lo: u64, hi: u64, len: usize, stems: &mut StemCache) -> u32 {
        if let Some(i) = self.raw.get((lo, hi)) {
            return i;
        }
        let (bytes, len) = unpack(lo, hi, len);
        let id = self.form_id(&stems.stem(&bytes[..len]));
        self.raw.get_or_insert_with((lo, hi), || id);
        id
    }

    /// Id of a lowercased `[a-z0-9]+` word, stemmed first when `stems` is given and the
    /// word is longer than 3 bytes.
    fn word_id(&mut self, word: &[u8], stems: Option<&mut StemCache>) -> u32 {
        let Some(stems) = stems.filter(|_| word.len() > 3) else {
            return self.bytes_id(word);
        };
        match pack(word) {
            Some(k) => {
                let (lo, hi) = halves(k);
                self.stemmed_key_id(lo, hi, word.len(), stems)
            }
            None => self.form_id(&stems.stem(word)),
        }
    }
}

/// One text: token ids, and the token range of each non-empty line (for `rougeLsum`).
#[derive(Default, Clone)]
pub struct Doc {
    pub tokens: Vec<u32>,
    pub sents: Vec<(u32, u32)>,
}

impl Doc {
    pub fn sentence(&self, k: usize) -> &[u32] {
        let (a, b) = self.sents[k];
        &self.tokens[a as usize..b as usize]
    }
}

/// Bytes of rouge-score tokens: ASCII letters and digits (`[a-z0-9]` after lowercasing).
static WORD_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    t
};

/// An ASCII letter or digit `| 0x20` is its lowercase (digits have the bit already).
const LOWER: u64 = 0x2020_2020_2020_2020;

/// The two characters Python lowercases to an ASCII letter (of 1,114,112 code points,
/// Unicode 14): U+212A KELVIN SIGN -> `k` (a letter inside a word) and U+0130 -> `i`
/// + U+0307 (a letter, then a separator). `Some((letter, bytes, ends_word))`.
#[inline]
fn lowers_to_ascii(text: &[u8], i: usize) -> Option<(u8, usize, bool)> {
    match text[i] {
        0xE2 if text.get(i + 1) == Some(&0x84) && text.get(i + 2) == Some(&0xAA) => Some((b'k', 3, false)),
        0xC4 if text.get(i + 1) == Some(&0xB0) => Some((b'i', 2, true)),
        _ => None,
    }
}

/// Eight bytes of `text` from `at` (zeros past its end).
#[inline]
fn load8(text: &[u8], at: usize) -> u64 {
    match text.get(at..at + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().expect("8 bytes")),
        None => {
            let mut w = [0u8; 8];
            let tail = &text[at.min(text.len())..];
            w[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(w)
        }
    }
}

/// The low `k` bytes of a word (all of them from 8 on).
#[inline]
fn low_bytes(k: usize) -> u64 {
    if k >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * k)) - 1
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `m` gathered into 8 bits (byte i -> bit i).
#[inline]
fn gather_high_bits(m: u64) -> u64 {
    ((m >> 7) & ONES).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Per byte of `x`, the high bit set where the byte is an ASCII letter or digit, and
/// where it is `\n` (SWAR: no sum below crosses into the next byte).
#[inline]
fn classify8(x: u64) -> (u64, u64) {
    let low7 = x & !HIGH;
    let digit = (low7 + (0x80 - 0x30) * ONES) & !(low7 + (0x80 - 0x3A) * ONES);
    let lower = low7 | (0x20 * ONES);
    let letter = (lower + (0x80 - 0x61) * ONES) & !(lower + (0x80 - 0x7B) * ONES);
    let y = x ^ (u64::from(b'\n') * ONES);
    let nonzero = ((y & !HIGH) + !HIGH) | y;
    ((digit | letter) & !x & HIGH, !nonzero & HIGH)
}

/// Bit masks of 64 bytes: ASCII letters and digits, and `\n` (when `lines`); and
/// whether any byte is >= 0x80.
#[inline]
fn classify64(chunk: &[u8; 64], lines: bool) -> (u64, u64, bool) {
    let (mut word, mut newline, mut high) = (0u64, 0u64, 0u64);
    for (q, part) in chunk.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(part.try_into().expect("8 bytes"));
        let (w, nl) = classify8(x);
        word |= gather_high_bits(w) << (8 * q);
        if lines {
            newline |= gather_high_bits(nl) << (8 * q);
        }
        high |= x;
    }
    (word, newline, high & HIGH != 0)
}

/// [`classify64`] a byte at a time (the reference in tests).
#[cfg(test)]
fn classify64_bytes(chunk: &[u8; 64]) -> (u64, u64, u64) {
    let (mut word, mut high, mut newline) = (0u64, 0u64, 0u64);
    for (k, &b) in chunk.iter().enumerate() {
        word |= (WORD_BYTE[b as usize] as u64) << k;
        high |= ((b >> 7) as u64) << k;
        newline |= ((b == b'\n') as u64) << k;
    }
    (word, high, newline)
}

/// Per 64 bytes of `text` (and one more, all zero, after them): which bytes are word
/// bytes (`words`) and line ends (`newlines`). `false` when the text holds a character
/// that lowercases to an ASCII letter (those words are spelled out one byte at a time).
fn byte_masks(text: &[u8], lines: bool, words: &mut Vec<u64>, newlines: &mut Vec<u64>) -> bool {
    words.clear();
    newlines.clear();
    let mut high_seen = false;
    let mut chunks = text.chunks_exact(64);
    for c in &mut chunks {
        let (w, nl, h) = classify64(c.try_into().expect("64 bytes"), lines);
        words.push(w);
        newlines.push(nl);
        high_seen |= h;
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut c = [0u8; 64];
        c[..tail.len()].copy_from_slice(tail);
        let (w, nl, h) = classify64(&c, lines);
        words.push(w);
        newlines.push(nl);
        high_seen |= h;
    }
    words.push(0);
    newlines.push(0);
    // Both characters start with 0xC4 or 0xE2, bytes only a multi-byte character has.
    !high_seen || !text.iter().enumerate().any(|(i, &b)| (b == 0xC4 || b == 0xE2) && lowers_to_ascii(text, i).is_some())
}

/// The first set bit at or after `from` (`usize::MAX` if none).
fn next_set_bit(masks: &[u64], from: usize) -> usize {
    let mut at = from / 64;
    if at >= masks.len() {
        return usize::MAX;
    }
    let mut m = masks[at] & (u64::MAX << (from % 64));
    while m == 0 {
        at += 1;
        if at == masks.len() {
            return usize::MAX;
        }
        m = masks[at];
    }
    64 * at + m.trailing_zeros() as usize
}

/// What a pair's texts are read with.
pub struct Reader<'a> {
    pub stems: Option<&'a mut StemCache>,
    pub local: &'a mut Local,
    pub word: &'a mut Vec<u8>,
    pub fallback: &'a mut Tokens,
    /// per 64 bytes of a text: word bytes, line ends
    pub masks: &'a mut (Vec<u64>, Vec<u64>),
}

impl Reader<'_> {
    /// rouge-score's tokenizer (Python `str.lower()`, every character outside `[a-z0-9]`
    /// a separator, stems of tokens longer than 3) on any text, lines recorded when
    /// `lines` (`text.split("\n")`, empty lines dropped). Words are found 64 bytes at a
    /// time from bit masks (no branch per byte).
    pub fn rouge_score_doc(&mut self, text: &[u8], lines: bool, doc: &mut Doc) {
        let (words, newlines) = &mut *self.masks;
        if !byte_masks(text, lines, words, newlines) {
            return self.rouge_score_doc_bytes(text, lines, doc);
        }
        doc.tokens.clear();
        doc.sents.clear();
        let words = std::mem::take(words);
        let (mut line_start, mut line_tok) = (0usize, 0u32);
        let mut next_newline = if lines { next_set_bit(&self.masks.1, 0) } else { usize::MAX };
        let mut at = 0usize;
        let mut cur = words[0];
        'tokens: loop {
            while cur == 0 {
                at += 1;
                if at == words.len() {
                    break 'tokens;
                }
                cur = words[at];
            }
            let start_bit = cur.trailing_zeros() as usize;
            let start = 64 * at + start_bit;
            let mut end_bit = start_bit + (cur >> start_bit).trailing_ones() as usize;
            while end_bit == 64 {
                // the last mask is zero, so every run ends
                at += 1;
                cur = words[at];
                end_bit = cur.trailing_ones() as usize;
            }
            cur &= u64::MAX << end_bit;
            while next_newline < start {
                if next_newline > line_start {
                    doc.sents.push((line_tok, doc.tokens.len() as u32));
                }
                line_start = next_newline + 1;
                line_tok = doc.tokens.len() as u32;
                next_newline = next_set_bit(&self.masks.1, next_newline + 1);
            }
            let id = self.ascii_word(text, start, 64 * at + end_bit - start);
            doc.tokens.push(id);
        }
        self.masks.0 = words;
        if lines {
            let n = text.len();
            while next_newline < n {
                if next_newline > line_start {
                    doc.sents.push((line_tok, doc.tokens.len() as u32));
                }
                line_start = next_newline + 1;
                line_tok = doc.tokens.len() as u32;
                next_newline = next_set_bit(&self.masks.1, next_newline + 1);
            }
            if n > line_start {
                doc.sents.push((line_tok, doc.tokens.len() as u32));
            }
        }
    }

    /// [`Reader::rouge_score_doc`] one byte at a time, spelling out the characters that
    /// lowercase to an ASCII letter.
    pub fn rouge_score_doc_bytes(&mut self, text: &[u8], lines: bool, doc: &mut Doc) {
        doc.tokens.clear();
        doc.sents.clear();
        let n = text.len();
        let (mut i, mut line_start, mut line_tok) = (0usize, 0usize, 0u32);
        while i < n {
            let b = text[i];
            if WORD_BYTE[b as usize] {
                let s = i;
                i += 1;
                while i < n && WORD_BYTE[text[i] as usize] {
                    i += 1;
                }
                if i < n && text[i] >= 0x80 && lowers_to_ascii(text, i).is_some() {
                    i = self.spelled_word(text, s, i, doc);
                } else {
                    let id = self.ascii_word(text, s, i - s);
                    doc.tokens.push(id);
                }
                continue;
            }
            if b < 0x80 {
                if b == b'\n' && lines {
                    if i > line_start {
                        doc.sents.push((line_tok, doc.tokens.len() as u32));
                    }
                    line_start = i + 1;
                    line_tok = doc.tokens.len() as u32;
                }
                i += 1;
            } else if lowers_to_ascii(text, i).is_some() {
                i = self.spelled_word(text, i, i, doc);
            } else {
                i += 1;
            }
        }
        if lines && n > line_start {
            doc.sents.push((line_tok, doc.tokens.len() as u32));
        }
    }

    /// The id of the ASCII word `text[s..s + len]`, read as its packed key when short.
    #[inline(always)]
    fn ascii_word(&mut self, text: &[u8], s: usize, len: usize) -> u32 {
        if len > 16 {
            self.word.clear();
            self.word.extend(text[s..s + len].iter().map(|b| b | 0x20));
            return self.local.word_id(self.word, self.stems.as_deref_mut());
        }
        let lo = (load8(text, s) | LOWER) & low_bytes(len);
        let hi = if len > 8 { (load8(text, s + 8) | LOWER) & low_bytes(len - 8) } else { 0 };
        match self.stems.as_deref_mut() {
            Some(stems) if len > 3 => self.local.stemmed_key_id(lo, hi, len, stems),
            _ => self.local.key_id(lo, hi),
        }
    }

    /// A word that holds a character lowercasing to an ASCII letter: ASCII letters and
    /// digits from `s` (those before `i` already checked) and such characters, spelled
    /// out; returns where reading continues.
    #[cold]
    fn spelled_word(&mut self, text: &[u8], s: usize, mut i: usize, doc: &mut Doc) -> usize {
        self.word.clear();
        self.word.extend(text[s..i].iter().map(|b| b | 0x20));
        while i < text.len() {
            if WORD_BYTE[text[i] as usize] {
                self.word.push(text[i] | 0x20);
                i += 1;
            } else if let Some((letter, bytes, ends)) = lowers_to_ascii(text, i) {
                self.word.push(letter);
                i += bytes;
                if ends {
                    break;
                }
            } else {
                break;
            }
        }
        doc.tokens.push(self.local.word_id(self.word, self.stems.as_deref_mut()));
        i
    }

    /// Any text through a token function (`f` appends the final tokens of one line).
    pub fn doc_with(&mut self, text: &str, lines: bool, doc: &mut Doc, f: impl Fn(&str, &mut Tokens)) {
        doc.tokens.clear();
        doc.sents.clear();
        let add = |part: &str, this: &mut Self, doc: &mut Doc| {
            this.fallback.clear();
            f(part, this.fallback);
            for t in this.fallback.iter() {
                doc.tokens.push(this.local.bytes_id(t.as_bytes()));
            }
        };
        if !lines {
            add(text, self, doc);
            return;
        }
        for line in text.split('\n') {
            let start = doc.tokens.len() as u32;
            add(line, self, doc);
            if !line.is_empty() {
                doc.sents.push((start, doc.tokens.len() as u32));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::rouge::rouge_score_tokens_into;

    /// Texts built from pieces that probe every path: 64-byte mask boundaries, keys of
    /// 8/9/16/17 bytes, the two characters that lowercase to ASCII letters, other
    /// characters sharing their first bytes, digits, case, line ends.
    fn texts() -> Vec<String> {
        let pieces = [
            "a", "Ab", "the", "THE", "x9", "0123", "abcdefgh", "abcdefghi", "ABCDEFGHIJKLMNOP", "abcdefghijklmnopq",
            "running", "\u{212A}elvin", "\u{130}stanbul", "İ", "K", "Ā", "ı", "€", "’", "℃", "é", "你好", " ", "  ", ",", ".", "-", "\n",
            "\n\n", "\t", "\r\n", "''",
        ];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |k: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % k as u64) as usize
        };
        let mut out = vec![String::new(), "a".repeat(64), "a".repeat(63) + " b", format!("{}K{}", "a".repeat(62), "b".repeat(70))];
        for _ in 0..400 {
            let n = next(90);
            let mut s = String::new();
            for _ in 0..n {
                s.push_str(pieces[next(pieces.len())]);
                if next(3) > 0 {
                    s.push(' ');
                }
            }
            out.push(s);
        }
        out
    }

    /// `f` with a fresh reader (its own numbering), stemming when `stem`.
    fn with_reader(stem: bool, f: impl FnOnce(&mut Reader, &mut Doc)) -> Doc {
        let (mut local, mut word, mut fallback, mut masks, mut stems) =
            (Local::default(), Vec::new(), Tokens::default(), (Vec::new(), Vec::new()), StemCache::default());
        let mut r = Reader { stems: stem.then_some(&mut stems), local: &mut local, word: &mut word, fallback: &mut fallback, masks: &mut masks };
        let mut doc = Doc::default();
        f(&mut r, &mut doc);
        doc
    }

    fn read(text: &str, lines: bool, stem: bool, bytes_path: bool) -> Doc {
        with_reader(stem, |r, doc| {
            if bytes_path {
                r.rouge_score_doc_bytes(text.as_bytes(), lines, doc)
            } else {
                r.rouge_score_doc(text.as_bytes(), lines, doc)
            }
        })
    }

    /// The reference tokenizer's tokens (stemmed by it), numbered in order of first appearance.
    fn reference(text: &str, lines: bool, stem: bool) -> Doc {
        with_reader(false, |r, doc| r.doc_with(text, lines, doc, |part, out| rouge_score_tokens_into(part, stem, out)))
    }

    #[test]
    fn masks_equal_a_byte_at_a_time() {
        let mut x = 7u64;
        for _ in 0..2000 {
            let mut c = [0u8; 64];
            for b in c.iter_mut() {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *b = (x >> 56) as u8;
            }
            let (w, h, nl) = classify64_bytes(&c);
            for lines in [false, true] {
                assert_eq!(classify64(&c, lines), (w, if lines { nl } else { 0 }, h != 0));
            }
        }
        for b in 0..=255u8 {
            let c = [b; 64];
            let (w, _, nl) = classify64_bytes(&c);
            assert_eq!(classify64(&c, true).0, w, "byte {b:#x}");
            assert_eq!(classify64(&c, true).1, nl, "byte {b:#x}");
        }
    }

    #[test]
    fn every_path_tokenizes_as_the_reference() {
        for text in texts() {
            for lines in [false, true] {
                for stem in [false, true] {
                    let want = reference(&text, lines, stem);
                    for bytes_path in [false, true] {
                        let got = read(&text, lines, stem, bytes_path);
                        assert_eq!((&got.tokens, &got.sents), (&want.tokens, &want.sents), "{text:?} lines={lines} stem={stem} bytes={bytes_path}");
                    }
                }
            }
        }
    }

    #[test]
    fn numbering_survives_resets_growth_and_stamp_wrap() {
        let mut local = Local::default();
        for round in 0..3u64 {
            local.reset();
            // more distinct keys than the first table holds: it grows
            let ids: Vec<u32> = (0..1000u64).map(|k| local.key_id(k * 7919 + round + 1, 0)).collect();
            assert_eq!(ids, (0..1000).collect::<Vec<u32>>());
            assert_eq!(local.key_id(7919 + round + 1, 0), 1);
            assert_eq!(local.len(), 1000);
        }
        let mut m: StampMap<u64> = StampMap::default();
        m.stamp = u32::MAX - 1;
        for k in 0..4u64 {
            m.clear();
            assert!(m.get(5).is_none(), "a stale entry survived clear {k}");
            m.add_one(5);
            m.add_one(5);
            assert!(m.take_one(5) && m.take_one(5) && !m.take_one(5) && !m.take_one(6));
        }
    }
}
