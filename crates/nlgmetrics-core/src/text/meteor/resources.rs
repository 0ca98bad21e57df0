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
        let mut by_first: FxHashMap<u32, (u32, u32)> = FxHashMap::default();
        for (k, e) in entries.iter().enumerate() {
            if e.1 > 0 {
                let r = by_first.entry(words[e.0 as usize]).or_insert((k as u32, k as u32));
                r.1 = k as u32 + 1;
            }
        }
        Ok(Paraphrases { vocab, words, entries, by_first })
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
