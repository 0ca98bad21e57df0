//! jieba 0.42.1's segmentation (`jieba.cut`), built from a live dictionary.
//!
//! No dictionary ships here: the caller hands over jieba's own state (`Tokenizer.FREQ`
//! with its zero-frequency prefixes, `total`, `finalseg`'s start/transition/emission
//! log-probabilities and `Force_Split_Words`), so whatever the user loaded or changed is
//! segmented as jieba segments it. Every step copies jieba's Python:
//!
//! - `cut`: the text splits into runs of `[\u4E00-\u9FD5a-zA-Z0-9+#&._%-]` (segmented) and
//!   everything else, which is yielded one character at a time except `"\r\n"` (one token).
//! - `get_DAG`: from each position, extend while the fragment is a key of `FREQ`, keeping
//!   the ends whose frequency is non-zero (the position itself when none).
//! - `calc`: right to left, `max((log(freq or 1) - log(total) + route[x + 1], x))` over the
//!   DAG ends (ties go to the longer word, as Python's tuple comparison does).
//! - `__cut_DAG` (HMM): runs of one-character words are buffered; a buffer of two or more
//!   characters that is not a word of non-zero frequency goes to `finalseg.cut` (Viterbi
//!   over B/M/E/S on `[\u4E00-\u9FD5]+` runs, `[a-zA-Z0-9]+(?:\.\d+)?%?` pieces elsewhere),
//!   otherwise it is yielded character by character. `__cut_DAG_NO_HMM` buffers only
//!   single ASCII letters and digits.
//! - `cut_for_search`: before each word of more than two (three) characters, its 2-grams
//!   (3-grams) that are words of non-zero frequency.
//!
//! Logarithms are libm's `log` (what CPython's `math.log` calls) and sums keep jieba's order.

use rustc_hash::{FxHashMap, FxHashSet};

/// One of jieba's cutting modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `cut(text)`: accurate mode with the HMM for unknown words.
    Default,
    /// `cut(text, HMM=False)`.
    NoHmm,
    /// `cut_for_search(text)`.
    Search,
    /// `cut_for_search(text, HMM=False)`.
    SearchNoHmm,
}

impl Mode {
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "default" => Mode::Default,
            "no_hmm" => Mode::NoHmm,
            "search" => Mode::Search,
            "search_no_hmm" => Mode::SearchNoHmm,
            _ => return None,
        })
    }
    fn hmm(self) -> bool {
        matches!(self, Mode::Default | Mode::Search)
    }
}

// B, M, E, S: finalseg iterates the states in this order.
const B: usize = 0;
const M: usize = 1;
const E: usize = 2;
const S: usize = 3;
/// The states' letters (Python compares `(prob, state)` tuples, so ties go to the later letter).
const LETTER: [u8; 4] = [b'B', b'M', b'E', b'S'];
/// `finalseg.PrevStatus`.
const PREV: [[usize; 2]; 4] = [[E, S], [M, B], [B, M], [S, E]];

/// A trie edge with what the segmenter reads of the node it leads to (one memory access).
#[derive(Debug, Clone, Copy)]
struct Edge {
    /// `log(freq)` of the child when its frequency is non-zero.
    log_freq: f64,
    child: u32,
    /// 0: a prefix only; 1: a key of frequency 0; 2: a key of non-zero frequency.
    kind: u8,
}

const NO_EDGE: Edge = Edge { log_freq: 0.0, child: u32::MAX, kind: 0 };

#[derive(Debug, Clone, Copy)]
struct Node {
    /// The fragment is a key of `FREQ`.
    key: bool,
    freq: u64,
}

/// A segmenter built from one state of a jieba `Tokenizer` and its `finalseg` module.
pub struct Jieba {
    nodes: Vec<Node>,
    /// (parent node << 32 | char) -> child node: the trie of every key and its prefixes.
    edges: FxHashMap<u64, Edge>,
    /// The root's children below U+10000 by code point (`child == u32::MAX`: none).
    root: Vec<Edge>,
    log_total: f64,
    start: [f64; 4],
    trans: [[f64; 4]; 4],
    emit: FxHashMap<char, [f64; 4]>,
    min_float: f64,
    force_split: FxHashSet<String>,
}

/// The probability tables of `jieba.finalseg` (state index order B, M, E, S).
pub struct Hmm {
    pub start: [f64; 4],
    /// `trans[from][to]`, `min_float` where jieba's table has no entry.
    pub trans: [[f64; 4]; 4],
    /// Per character its emission log-probability per state (`min_float` where absent).
    pub emit: FxHashMap<char, [f64; 4]>,
    pub min_float: f64,
    pub force_split: FxHashSet<String>,
}

#[inline]
fn is_han_default(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FD5}' | 'a'..='z' | 'A'..='Z' | '0'..='9' | '+' | '#' | '&' | '.' | '_' | '%' | '-')
}

#[inline]
fn is_han(c: char) -> bool {
    ('\u{4E00}'..='\u{9FD5}').contains(&c)
}

impl Jieba {
    /// An empty dictionary; add `FREQ`'s entries with [`Jieba::insert`].
    pub fn new(total: u64, hmm: Hmm) -> Self {
        let root = Node { key: false, freq: 0 };
        Jieba {
            nodes: vec![root],
            edges: FxHashMap::default(),
            root: vec![NO_EDGE; 0x10000],
            log_total: (total as f64).ln(),
            start: hmm.start,
            trans: hmm.trans,
            emit: hmm.emit,
            min_float: hmm.min_float,
            force_split: hmm.force_split,
        }
    }

    pub fn with_capacity(total: u64, hmm: Hmm, keys: usize) -> Self {
        let mut j = Self::new(total, hmm);
        j.nodes.reserve(keys + keys / 4);
        j.edges.reserve(keys + keys / 4);
        j
    }

    /// `FREQ[word] = freq` (the empty word is ignored: no fragment is empty).
    pub fn insert(&mut self, word: &str, freq: u64) {
        let mut node = 0u32;
        let mut last: Option<(u32, char)> = None;
        for c in word.chars() {
            last = Some((node, c));
            node = match self.child(node, c) {
                Some(e) => e.child,
                None => {
                    let n = self.nodes.len() as u32;
                    self.nodes.push(Node { key: false, freq: 0 });
                    *self.edge_mut(node, c) = Edge { log_freq: 0.0, child: n, kind: 0 };
                    n
                }
            };
        }
        if let Some((parent, c)) = last {
            let log_freq = if freq > 0 { (freq as f64).ln() } else { 0.0 };
            self.nodes[node as usize] = Node { key: true, freq };
            *self.edge_mut(parent, c) = Edge { log_freq, child: node, kind: if freq > 0 { 2 } else { 1 } };
        }
    }

    fn edge_mut(&mut self, node: u32, c: char) -> &mut Edge {
        if node == 0 && (c as u32) < 0x10000 {
            &mut self.root[c as usize]
        } else {
            self.edges.entry(((node as u64) << 32) | c as u64).or_insert(NO_EDGE)
        }
    }

    #[inline]
    fn child(&self, node: u32, c: char) -> Option<Edge> {
        if node == 0 && (c as u32) < 0x10000 {
            let e = self.root[c as usize];
            return (e.child != u32::MAX).then_some(e);
        }
        self.edges.get(&(((node as u64) << 32) | c as u64)).copied()
    }

    /// `FREQ.get(word)` (None when not a key).
    pub fn freq(&self, word: &str) -> Option<u64> {
        let mut node = 0u32;
        for c in word.chars() {
            node = self.child(node, c)?.child;
        }
        let n = &self.nodes[node as usize];
        (node != 0 && n.key).then_some(n.freq)
    }

    /// `bool(FREQ.get(word))` for the characters `chars` (not empty).
    fn has_freq(&self, chars: &[char]) -> bool {
        let mut node = 0u32;
        let mut kind = 0u8;
        for &c in chars {
            match self.child(node, c) {
                Some(e) => {
                    node = e.child;
                    kind = e.kind;
                }
                None => return false,
            }
        }
        kind == 2
    }

    /// The words of `text` in `mode`, as slices of `text`, appended to `out`.
    pub fn cut<'a>(&self, text: &'a str, mode: Mode, scratch: &mut Scratch, out: &mut Vec<&'a str>) {
        match mode {
            Mode::Default | Mode::NoHmm => self.cut_plain(text, mode.hmm(), scratch, out),
            Mode::Search | Mode::SearchNoHmm => {
                let mut local: Vec<&'a str> = Vec::new();
                self.cut_plain(text, mode.hmm(), scratch, &mut local);
                let chars = &mut scratch.words;
                let offs = &mut scratch.word_offs;
                for w in local {
                    chars.clear();
                    offs.clear();
                    for (i, c) in w.char_indices() {
                        chars.push(c);
                        offs.push(i);
                    }
                    offs.push(w.len());
                    let l = chars.len();
                    for g in [2usize, 3] {
                        if l > g {
                            for i in 0..=l - g {
                                if self.has_freq(&chars[i..i + g]) {
                                    out.push(&w[offs[i]..offs[i + g]]);
                                }
                            }
                        }
                    }
                    out.push(w);
                }
            }
        }
    }

    fn cut_plain<'a>(&self, text: &'a str, hmm: bool, scratch: &mut Scratch, out: &mut Vec<&'a str>) {
        let bytes = text.as_bytes();
        let mut it = text.char_indices().peekable();
        while let Some(&(start, c)) = it.peek() {
            if is_han_default(c) {
                let mut end = start;
                while let Some(&(i, c)) = it.peek() {
                    if !is_han_default(c) {
                        break;
                    }
                    end = i + c.len_utf8();
                    it.next();
                }
                self.cut_block(&text[start..end], hmm, scratch, out);
            } else {
                it.next();
                let mut end = start + c.len_utf8();
                if c == '\r' && bytes.get(end) == Some(&b'\n') {
                    it.next();
                    end += 1;
                }
                out.push(&text[start..end]);
            }
        }
    }

    /// `get_DAG` + `calc` of one block: `route[i]` = the end (inclusive) of the best word at `i`.
    fn route(&self, chars: &[char], scratch: &mut Scratch) {
        let n = chars.len();
        let logp = &mut scratch.logp;
        let route = &mut scratch.route;
        logp.clear();
        logp.resize(n + 1, 0.0);
        route.clear();
        route.resize(n + 1, 0);
        for idx in (0..n).rev() {
            // DAG ends of idx in increasing order; the first maximum stays unless a later
            // (longer) end is greater or equal.
            let mut best_p = 0.0f64;
            let mut best_x = usize::MAX;
            let mut node = 0u32;
            let mut i = idx;
            while i < n {
                let Some(e) = self.child(node, chars[i]) else { break };
                if e.kind == 0 {
                    break;
                }
                if e.kind == 2 {
                    let p = e.log_freq - self.log_total + logp[i + 1];
                    if best_x == usize::MAX || p >= best_p {
                        best_p = p;
                        best_x = i;
                    }
                }
                node = e.child;
                i += 1;
            }
            if best_x == usize::MAX {
                // DAG[idx] = [idx]: FREQ.get(char) is absent or 0, so log(1).
                best_p = 0.0 - self.log_total + logp[idx + 1];
                best_x = idx;
            }
            logp[idx] = best_p;
            route[idx] = best_x;
        }
    }

    fn cut_block<'a>(&self, block: &'a str, hmm: bool, scratch: &mut Scratch, out: &mut Vec<&'a str>) {
        let mut chars = std::mem::take(&mut scratch.chars);
        let mut offs = std::mem::take(&mut scratch.offs);
        chars.clear();
        offs.clear();
        for (i, c) in block.char_indices() {
            chars.push(c);
            offs.push(i);
        }
        offs.push(block.len());
        self.route(&chars, scratch);
        let n = chars.len();
        let mut x = 0;
        let mut buf_start = 0;
        let mut buf_len = 0usize;
        if hmm {
            while x < n {
                let y = scratch.route[x] + 1;
                if y - x == 1 {
                    if buf_len == 0 {
                        buf_start = x;
                    }
                    buf_len += 1;
                } else {
                    if buf_len > 0 {
                        self.flush(block, &chars, &offs, buf_start, x, scratch, out);
                        buf_len = 0;
                    }
                    out.push(&block[offs[x]..offs[y]]);
                }
                x = y;
            }
            if buf_len > 0 {
                self.flush(block, &chars, &offs, buf_start, n, scratch, out);
            }
        } else {
            while x < n {
                let y = scratch.route[x] + 1;
                if y - x == 1 && chars[x].is_ascii_alphanumeric() {
                    if buf_len == 0 {
                        buf_start = x;
                    }
                    buf_len += 1;
                } else {
                    if buf_len > 0 {
                        out.push(&block[offs[buf_start]..offs[x]]);
                        buf_len = 0;
                    }
                    out.push(&block[offs[x]..offs[y]]);
                }
                x = y;
            }
            if buf_len > 0 {
                out.push(&block[offs[buf_start]..offs[n]]);
            }
        }
        scratch.chars = chars;
        scratch.offs = offs;
    }

    /// `__cut_DAG`'s buffer of one-character words `chars[a..b]`.
    #[allow(clippy::too_many_arguments)]
    fn flush<'a>(&self, block: &'a str, chars: &[char], offs: &[usize], a: usize, b: usize, scratch: &mut Scratch, out: &mut Vec<&'a str>) {
        if b - a == 1 {
            out.push(&block[offs[a]..offs[b]]);
        } else if !self.has_freq(&chars[a..b]) {
            self.finalseg(block, chars, offs, a, b, scratch, out);
        } else {
            for i in a..b {
                out.push(&block[offs[i]..offs[i + 1]]);
            }
        }
    }

    /// `finalseg.cut` of `chars[a..b]`.
    #[allow(clippy::too_many_arguments)]
    fn finalseg<'a>(&self, block: &'a str, chars: &[char], offs: &[usize], a: usize, b: usize, scratch: &mut Scratch, out: &mut Vec<&'a str>) {
        let mut i = a;
        while i < b {
            if is_han(chars[i]) {
                let mut j = i;
                while j < b && is_han(chars[j]) {
                    j += 1;
                }
                self.hmm_cut(block, chars, offs, i, j, scratch, out);
                i = j;
            } else {
                // re_skip = ([a-zA-Z0-9]+(?:\.\d+)?%?) splits the non-han run; the pieces
                // between matches are yielded whole.
                let mut j = i;
                while j < b && !is_han(chars[j]) {
                    j += 1;
                }
                let mut gap = i;
                let mut k = i;
                while k < j {
                    if chars[k].is_ascii_alphanumeric() {
                        let mut e = k;
                        while e < j && chars[e].is_ascii_alphanumeric() {
                            e += 1;
                        }
                        if e + 1 < j && chars[e] == '.' && chars[e + 1].is_ascii_digit() {
                            e += 1;
                            while e < j && chars[e].is_ascii_digit() {
                                e += 1;
                            }
                        }
                        if e < j && chars[e] == '%' {
                            e += 1;
                        }
                        if gap < k {
                            out.push(&block[offs[gap]..offs[k]]);
                        }
                        out.push(&block[offs[k]..offs[e]]);
                        k = e;
                        gap = e;
                    } else {
                        k += 1;
                    }
                }
                if gap < j {
                    out.push(&block[offs[gap]..offs[j]]);
                }
                i = j;
            }
        }
    }

    /// `finalseg.__cut` (Viterbi) of the han characters `chars[a..b]`, then
    /// `Force_Split_Words`.
    #[allow(clippy::too_many_arguments)]
    fn hmm_cut<'a>(&self, block: &'a str, chars: &[char], offs: &[usize], a: usize, b: usize, scratch: &mut Scratch, out: &mut Vec<&'a str>) {
        let obs = &chars[a..b];
        let n = obs.len();
        let mf = self.min_float;
        let none = [mf; 4];
        let back = &mut scratch.back;
        back.clear();
        back.resize(n, [0u8; 4]);
        let em0 = self.emit.get(&obs[0]).unwrap_or(&none);
        let mut v = [0.0f64; 4];
        for y in 0..4 {
            v[y] = self.start[y] + em0[y];
        }
        for t in 1..n {
            let em = self.emit.get(&obs[t]).unwrap_or(&none);
            let mut nv = [0.0f64; 4];
            for y in 0..4 {
                let em_p = em[y];
                let [p0, p1] = PREV[y];
                let c0 = v[p0] + self.trans[p0][y] + em_p;
                let c1 = v[p1] + self.trans[p1][y] + em_p;
                // max([(c0, p0), (c1, p1)]): the second wins if greater, or equal with a later letter
                let second = c1 > c0 || (c1 == c0 && LETTER[p1] > LETTER[p0]);
                if second {
                    nv[y] = c1;
                    back[t][y] = p1 as u8;
                } else {
                    nv[y] = c0;
                    back[t][y] = p0 as u8;
                }
            }
            v = nv;
        }
        // max((V[-1][y], y) for y in 'ES')
        let mut state = if v[S] >= v[E] { S } else { E };
        let pos = &mut scratch.pos;
        pos.clear();
        pos.resize(n, 0u8);
        for t in (0..n).rev() {
            pos[t] = state as u8;
            if t > 0 {
                state = back[t][state] as usize;
            }
        }
        let mut begin = 0usize;
        let mut nexti = 0usize;
        for i in 0..n {
            match pos[i] as usize {
                B => begin = i,
                E => {
                    self.emit_word(block, offs, a + begin, a + i + 1, out);
                    nexti = i + 1;
                }
                S => {
                    self.emit_word(block, offs, a + i, a + i + 1, out);
                    nexti = i + 1;
                }
                _ => {}
            }
        }
        if nexti < n {
            self.emit_word(block, offs, a + nexti, b, out);
        }
    }

    fn emit_word<'a>(&self, block: &'a str, offs: &[usize], a: usize, b: usize, out: &mut Vec<&'a str>) {
        let w = &block[offs[a]..offs[b]];
        if !self.force_split.is_empty() && self.force_split.contains(w) {
            for i in a..b {
                out.push(&block[offs[i]..offs[i + 1]]);
            }
        } else {
            out.push(w);
        }
    }
}

/// Reusable buffers of one worker.
#[derive(Default)]
pub struct Scratch {
    chars: Vec<char>,
    offs: Vec<usize>,
    logp: Vec<f64>,
    route: Vec<usize>,
    back: Vec<[u8; 4]>,
    pos: Vec<u8>,
    words: Vec<char>,
    word_offs: Vec<usize>,
}

impl Jieba {
    /// `sep.join(cut(text))` of every text.
    /// `skip_space` drops the words that are whitespace (`str.isspace()`).
    pub fn join_all(&self, texts: &[&str], mode: Mode, sep: &str, skip_space: bool, n_threads: usize) -> Vec<String> {
        crate::parallel::map_range(
            texts.len(),
            n_threads,
            Scratch::default,
            |scratch, i| {
                let mut ws: Vec<&str> = Vec::new();
                self.cut(texts[i], mode, scratch, &mut ws);
                if skip_space {
                    ws.retain(|w| !w.chars().all(crate::pystr::is_py_space));
                }
                ws.join(sep)
            },
        )
    }

    /// Byte spans of the words of every text.
    pub fn spans_all(&self, texts: &[&str], mode: Mode, n_threads: usize) -> Vec<Vec<(usize, usize)>> {
        crate::parallel::map_range(texts.len(), n_threads, Scratch::default, |scratch, i| {
            let t = texts[i];
            let mut ws: Vec<&str> = Vec::new();
            self.cut(t, mode, scratch, &mut ws);
            let base = t.as_ptr() as usize;
            ws.iter().map(|w| (w.as_ptr() as usize - base, w.as_ptr() as usize - base + w.len())).collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> Jieba {
        let hmm = Hmm {
            start: [-0.26, -3.14e100, -3.14e100, -1.46],
            trans: [[-3.14e100, -0.9, -0.5, -3.14e100], [-3.14e100, -1.2, -0.3, -3.14e100], [-0.6, -3.14e100, -3.14e100, -0.8], [-0.7, -3.14e100, -3.14e100, -0.7]],
            emit: FxHashMap::default(),
            min_float: -3.14e100,
            force_split: FxHashSet::default(),
        };
        let mut j = Jieba::new(100, hmm);
        for (w, f) in [("中", 5), ("中国", 10), ("国", 3), ("人", 4), ("中国人", 0)] {
            j.insert(w, f);
        }
        j
    }

    #[test]
    fn words_and_skips() {
        let j = toy();
        let mut s = Scratch::default();
        let mut out = Vec::new();
        j.cut("中国人 a\r\nb", Mode::NoHmm, &mut s, &mut out);
        assert_eq!(out, vec!["中国", "人", " ", "a", "\r\n", "b"]);
        assert_eq!(j.freq("中国人"), Some(0));
        assert_eq!(j.freq("中国x"), None);
    }
}
