//! METEOR 1.5's English resources, parsed from the files shipped in the jar and the
//! paraphrase table: function words, nonbreaking prefixes, WordNet synsets with the
//! irregular-form exceptions and WordNet's `morph` suffix rules, and the paraphrase
//! table as a phrase index.

use super::normalize::{java_lines, java_tokens, parse_prefixes, Nbp};
use crate::{Error, Result};
use rustc_hash::{FxHashMap, FxHashSet};

/// Everything the English aligner and normalizer read at run time.
pub struct Resources {
    pub function_words: FxHashSet<String>,
    pub prefixes: FxHashMap<String, Nbp>,
    pub synonyms: Synonyms,
    pub paraphrases: Option<Paraphrases>,
}

fn utf8<'a>(bytes: &'a [u8], what: &str) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| Error::InvalidInput(format!("METEOR resource {what} is not UTF-8: {e}")))
}

impl Resources {
    pub fn parse(
        function_words: &[u8],
        prefixes: &[u8],
        synsets: &[u8],
        exceptions: &[u8],
        paraphrases: Option<&[u8]>,
    ) -> Result<Self> {
        Ok(Resources {
            function_words: java_lines(utf8(function_words, "function words")?).map(str::to_string).collect(),
            prefixes: parse_prefixes(utf8(prefixes, "nonbreaking prefixes")?),
            synonyms: Synonyms::parse(utf8(synsets, "synsets")?, utf8(exceptions, "exceptions")?)?,
            paraphrases: paraphrases.map(|p| Paraphrases::parse(utf8(p, "paraphrase table")?)).transpose()?,
        })
    }
}

/// WordNet synonym sets (`synonym/english.synsets`) plus irregular forms
/// (`synonym/english.exceptions`).
pub struct Synonyms {
    word_to_bases: FxHashMap<String, Vec<String>>,
    word_to_synsets: FxHashMap<String, Vec<i32>>,
}

const MORPH_SUFFIX: [&str; 20] = [
    "s", "ses", "xes", "zes", "ches", "shes", "men", "ies", "s", "ies", "es", "es", "ed", "ed", "ing", "ing", "er", "est",
    "er", "est",
];
const MORPH_ENDING: [&str; 20] = ["", "s", "x", "z", "ch", "sh", "man", "y", "", "y", "e", "", "e", "", "e", "", "", "", "e", "e"];

impl Synonyms {
    fn parse(synsets: &str, exceptions: &str) -> Result<Self> {
        let mut word_to_bases: FxHashMap<String, Vec<String>> = FxHashMap::default();
        let mut lines = java_lines(exceptions);
        while let Some(base) = lines.next() {
            let forms = lines.next().unwrap_or("");
            for form in java_tokens(forms) {
                word_to_bases.entry(form.to_string()).or_default().push(base.to_string());
            }
        }
        let mut word_to_synsets = FxHashMap::default();
        let mut lines = java_lines(synsets);
        while let Some(word) = lines.next() {
            let ids = lines.next().unwrap_or("");
            let mut set = Vec::new();
            for t in java_tokens(ids) {
                set.push(t.parse::<i32>().map_err(|_| Error::InvalidInput(format!("bad synset id {t:?}")))?);
            }
            set.sort_unstable();
            set.dedup();
            word_to_synsets.insert(word.to_string(), set);
        }
        Ok(Synonyms { word_to_bases, word_to_synsets })
    }

    fn synsets(&self, word: &str) -> &[i32] {
        self.word_to_synsets.get(word).map(Vec::as_slice).unwrap_or(&[])
    }

    /// WordNet's `morph`: the first suffix rule giving a known word (the reference
    /// never appends the `ful` it sets aside, and returns "" when nothing applies).
    fn morph<'a>(&self, word: &'a str) -> std::borrow::Cow<'a, str> {
        if word.ends_with("ss") || word.encode_utf16().count() <= 2 {
            return word.into();
        }
        for (suffix, ending) in MORPH_SUFFIX.iter().zip(MORPH_ENDING) {
            if let Some(stem) = word.strip_suffix(suffix) {
                let candidate = format!("{stem}{ending}");
                if self.word_to_synsets.contains_key(&candidate) {
                    return candidate.into();
                }
            }
        }
        "".into()
    }

    /// Sorted, deduplicated synset ids of a word and of its base forms.
    pub fn all_synsets(&self, word: &str) -> Vec<i32> {
        let mut out: Vec<i32> = self.synsets(word).to_vec();
        if let Some(bases) = self.word_to_bases.get(word) {
            for b in bases {
                out.extend_from_slice(self.synsets(b));
            }
        } else {
            out.extend_from_slice(self.synsets(&self.morph(word)));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Whether two sorted id lists share an element.
pub fn intersects(a: &[i32], b: &[i32]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// The paraphrase table (`paraphrase-en.gz`, decompressed): records of three lines
/// (probability, phrase, paraphrase). Phrases are interned word ids; entries are
/// sorted by phrase (stable, so equal phrases keep file order, as the reference's
/// trie emits them).
pub struct Paraphrases {
    vocab: FxHashMap<String, u32>,
    words: Vec<u32>,
    /// (phrase start, phrase len, paraphrase start, paraphrase len) into `words`.
    entries: Vec<(u32, u32, u32, u32)>,
    /// Range of `entries` whose phrase starts with a given word.
    by_first: FxHashMap<u32, (u32, u32)>,
}

pub const UNKNOWN: u32 = u32::MAX;

impl Paraphrases {
    fn parse(text: &str) -> Result<Self> {
        let mut vocab: FxHashMap<String, u32> = FxHashMap::default();
        let mut words: Vec<u32> = Vec::with_capacity(text.len() / 6);
        let mut entries = Vec::with_capacity(text.len() / 50);
        let mut lines = java_lines(text);
        let intern = |w: &str, vocab: &mut FxHashMap<String, u32>| -> u32 {
            if let Some(&id) = vocab.get(w) {
                return id;
            }
            let id = vocab.len() as u32;
            vocab.insert(w.to_string(), id);
            id
        };
        while lines.next().is_some() {
            let (Some(phrase), Some(para)) = (lines.next(), lines.next()) else {
                return Err(Error::InvalidInput("truncated METEOR paraphrase table".into()));
            };
            let ps = words.len();
            for t in java_tokens(phrase) {
                let id = intern(t, &mut vocab);
                words.push(id);
            }
            let pl = words.len() - ps;
            let qs = words.len();
            for t in java_tokens(para) {
                let id = intern(t, &mut vocab);
                words.push(id);
            }
            let ql = words.len() - qs;
            entries.push((ps as u32, pl as u32, qs as u32, ql as u32));
        }
        let w = &words;
        use rayon::slice::ParallelSliceMut;
        // Stable, so entries with equal phrases keep the file's order.
        entries.par_sort_by(|a, b| w[a.0 as usize..(a.0 + a.1) as usize].cmp(&w[b.0 as usize..(b.0 + b.1) as usize]));
        Ok(Self::indexed(vocab, words, entries))
    }

    /// The table over entries already sorted by phrase: index the first words.
    fn indexed(vocab: FxHashMap<String, u32>, words: Vec<u32>, entries: Vec<(u32, u32, u32, u32)>) -> Self {
        let mut by_first: FxHashMap<u32, (u32, u32)> = FxHashMap::default();
        for (k, e) in entries.iter().enumerate() {
            if e.1 > 0 {
                let r = by_first.entry(words[e.0 as usize]).or_insert((k as u32, k as u32));
                r.1 = k as u32 + 1;
            }
        }
        Paraphrases { vocab, words, entries, by_first }
    }

    pub fn translate(&self, word: &str) -> u32 {
        self.vocab.get(word).copied().unwrap_or(UNKNOWN)
    }

    fn phrase(&self, e: &(u32, u32, u32, u32)) -> &[u32] {
        &self.words[e.0 as usize..(e.0 + e.1) as usize]
    }

    pub fn paraphrase(&self, idx: usize) -> &[u32] {
        let e = &self.entries[idx];
        &self.words[e.2 as usize..(e.2 + e.3) as usize]
    }

    /// The reference trie walk from `start`: for each phrase length 1, 2, ... that is
    /// a prefix of some table phrase, the (length, entry) pairs whose phrase is exactly
    /// `line[start..start+length]`; stops at the first length that is no prefix.
    pub fn paths(&self, line: &[u32], start: usize, out: &mut Vec<(usize, usize)>) {
        out.clear();
        let Some(&(lo, hi)) = self.by_first.get(&line[start]) else { return };
        let (mut lo, mut hi) = (lo as usize, hi as usize);
        for len in 1..=line.len() - start {
            let key = &line[start..start + len];
            if key[len - 1] == UNKNOWN {
                break;
            }
            // Narrow [lo, hi) to entries whose phrase starts with `key`.
            let first = lo + self.entries[lo..hi].partition_point(|e| {
                let p = self.phrase(e);
                p[..p.len().min(len)] < *key
            });
            let last = first + self.entries[first..hi].partition_point(|e| {
                let p = self.phrase(e);
                p.len() >= len && p[..len] == *key
            });
            if first == last {
                break;
            }
            // Exact phrases sort before their extensions.
            for idx in first..last {
                if self.phrase(&self.entries[idx]).len() == len {
                    out.push((len, idx));
                } else {
                    break;
                }
            }
            lo = first;
            hi = last;
        }
    }
}

// ---------------------------------------------------------------------------------------
// The compiled cache: every parsed table in one flat little-endian file, so a later
// process reads it in one go instead of unzipping, decompressing and parsing the sources
// (the paraphrase table alone is 272 MB of text). Strings are (u32 length, UTF-8 bytes);
// arrays are (u32 count, items). The hash maps are rebuilt on load; the phrase index
// keeps its sorted order, so nothing is sorted again.

const CACHE_MAGIC: &[u8; 8] = b"NLGMETR\0";
/// Bump whenever the layout or the parsing of any table changes.
pub const CACHE_FORMAT: u32 = 1;

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).expect("METEOR tables hold fewer than 2^32 items"));
    }
    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }
    fn u32s(&mut self, xs: impl ExactSizeIterator<Item = u32>) {
        self.len(xs.len());
        self.0.reserve(4 * xs.len());
        for x in xs {
            self.u32(x);
        }
    }
}

struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

fn corrupt() -> Error {
    Error::InvalidInput("the METEOR table cache is truncated or corrupt".into())
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.buf.len()).ok_or_else(corrupt)?;
        let out = &self.buf[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.bytes(4)?.try_into().expect("4 bytes")))
    }
    fn len(&mut self) -> Result<usize> {
        Ok(self.u32()? as usize)
    }
    fn str(&mut self) -> Result<&'a str> {
        let n = self.len()?;
        std::str::from_utf8(self.bytes(n)?).map_err(|_| corrupt())
    }
    fn u32s(&mut self) -> Result<Vec<u32>> {
        let n = self.len()?;
        let raw = self.bytes(n.checked_mul(4).ok_or_else(corrupt)?)?;
        Ok(raw.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect())
    }
}

impl Resources {
    /// The compiled cache of these tables (see [`Resources::from_cache`]).
    pub fn to_cache(&self) -> Vec<u8> {
        let mut w = Writer(CACHE_MAGIC.to_vec());
        w.u32(CACHE_FORMAT);
        w.len(self.function_words.len());
        for s in &self.function_words {
            w.str(s);
        }
        w.len(self.prefixes.len());
        for (s, kind) in &self.prefixes {
            w.str(s);
            w.u32(match kind {
                Nbp::Any => 0,
                Nbp::NumericOnly => 1,
            });
        }
        let syn = &self.synonyms;
        w.len(syn.word_to_bases.len());
        for (word, bases) in &syn.word_to_bases {
            w.str(word);
            w.len(bases.len());
            for b in bases {
                w.str(b);
            }
        }
        w.len(syn.word_to_synsets.len());
        for (word, ids) in &syn.word_to_synsets {
            w.str(word);
            w.u32s(ids.iter().map(|&i| i as u32));
        }
        match &self.paraphrases {
            None => w.u32(0),
            Some(p) => {
                w.u32(1);
                let mut by_id: Vec<&str> = vec![""; p.vocab.len()];
                for (word, &id) in &p.vocab {
                    by_id[id as usize] = word;
                }
                w.len(by_id.len());
                for s in by_id {
                    w.str(s);
                }
                w.u32s(p.words.iter().copied());
                let flat: Vec<u32> = p.entries.iter().flat_map(|e| [e.0, e.1, e.2, e.3]).collect();
                w.u32s(flat.into_iter());
            }
        }
        w.0
    }

    /// Tables from [`Resources::to_cache`]; an error (never a panic) for a file of another
    /// format version or a damaged one, so the caller rebuilds from the sources.
    pub fn from_cache(buf: &[u8]) -> Result<Self> {
        let mut r = Reader { buf, at: 0 };
        if r.bytes(8)? != CACHE_MAGIC || r.u32()? != CACHE_FORMAT {
            return Err(Error::InvalidInput("not a METEOR table cache of this format version".into()));
        }
        let n = r.len()?;
        let mut function_words = FxHashSet::default();
        function_words.reserve(n);
        for _ in 0..n {
            function_words.insert(r.str()?.to_string());
        }
        let n = r.len()?;
        let mut prefixes = FxHashMap::default();
        for _ in 0..n {
            let s = r.str()?.to_string();
            let kind = match r.u32()? {
                0 => Nbp::Any,
                1 => Nbp::NumericOnly,
                _ => return Err(corrupt()),
            };
            prefixes.insert(s, kind);
        }
        let n = r.len()?;
        let mut word_to_bases: FxHashMap<String, Vec<String>> = FxHashMap::default();
        word_to_bases.reserve(n);
        for _ in 0..n {
            let word = r.str()?.to_string();
            let k = r.len()?;
            let bases = (0..k).map(|_| r.str().map(str::to_string)).collect::<Result<Vec<_>>>()?;
            word_to_bases.insert(word, bases);
        }
        let n = r.len()?;
        let mut word_to_synsets: FxHashMap<String, Vec<i32>> = FxHashMap::default();
        word_to_synsets.reserve(n);
        for _ in 0..n {
            let word = r.str()?.to_string();
            word_to_synsets.insert(word, r.u32s()?.into_iter().map(|i| i as i32).collect());
        }
        let paraphrases = match r.u32()? {
            0 => None,
            1 => {
                let n = r.len()?;
                let mut vocab: FxHashMap<String, u32> = FxHashMap::default();
                vocab.reserve(n);
                for id in 0..n {
                    vocab.insert(r.str()?.to_string(), id as u32);
                }
                let words = r.u32s()?;
                let flat = r.u32s()?;
                if flat.len() % 4 != 0 {
                    return Err(corrupt());
                }
                let entries: Vec<(u32, u32, u32, u32)> = flat.chunks_exact(4).map(|e| (e[0], e[1], e[2], e[3])).collect();
                let in_words = |s: u32, l: u32| (s as usize).checked_add(l as usize).is_some_and(|e| e <= words.len());
                if !entries.iter().all(|e| in_words(e.0, e.1) && in_words(e.2, e.3)) {
                    return Err(corrupt());
                }
                if words.iter().any(|&w| w as usize >= n) {
                    return Err(corrupt());
                }
                Some(Paraphrases::indexed(vocab, words, entries))
            }
            _ => return Err(corrupt()),
        };
        if r.at != buf.len() {
            return Err(corrupt());
        }
        Ok(Resources { function_words, prefixes, synonyms: Synonyms { word_to_bases, word_to_synsets }, paraphrases })
    }
}

#[cfg(test)]
mod cache_tests {
    use super::*;

    fn sample(paraphrases: bool) -> Resources {
        let para = "0.5\nthe cat\na cat\n0.25\ncat\nfeline\n0.125\nthe\nthis\n0.5\nthe cat sat\ncat sat\n";
        Resources::parse(
            b"the\nof\na\n",
            b"Mr\nNo #NUMERIC_ONLY#\n",
            b"cat\n1 2\nfeline\n2\nrun\n3\n",
            b"ran\nrun\n",
            paraphrases.then_some(para.as_bytes()),
        )
        .unwrap()
    }

    #[test]
    fn round_trip_keeps_every_table() {
        for with_para in [true, false] {
            let a = sample(with_para);
            let blob = a.to_cache();
            let b = Resources::from_cache(&blob).unwrap();
            assert_eq!(a.function_words, b.function_words);
            assert_eq!(a.prefixes, b.prefixes);
            assert_eq!(a.synonyms.word_to_bases, b.synonyms.word_to_bases);
            assert_eq!(a.synonyms.word_to_synsets, b.synonyms.word_to_synsets);
            assert_eq!(a.paraphrases.is_some(), b.paraphrases.is_some());
            if let (Some(p), Some(q)) = (&a.paraphrases, &b.paraphrases) {
                assert_eq!((&p.vocab, &p.words, &p.entries, &p.by_first), (&q.vocab, &q.words, &q.entries, &q.by_first));
            }
            assert_eq!(b.to_cache().len(), blob.len());
        }
    }

    #[test]
    fn damaged_or_foreign_files_are_errors() {
        let blob = sample(true).to_cache();
        for cut in [0, 7, 12, blob.len() / 2, blob.len() - 1] {
            assert!(Resources::from_cache(&blob[..cut]).is_err(), "cut at {cut}");
        }
        let mut other = blob.clone();
        other[8] ^= 1;
        assert!(Resources::from_cache(&other).is_err());
        let mut longer = blob;
        longer.push(0);
        assert!(Resources::from_cache(&longer).is_err());
    }
}
