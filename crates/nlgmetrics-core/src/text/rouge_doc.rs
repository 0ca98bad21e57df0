//! Texts of one rouge-score pair as small dense token ids.
//!
//! Tokenizing, stemming and numbering happen in one pass over the bytes. Ids are dense
//! per pair (`0..len`), so every kernel indexes plain arrays instead of hashing. The
//! numbering map is the pair's own (a few hundred entries, in L1 cache; tokens of up to
//! 16 bytes are the key itself, so no lookup follows a pointer); only stemming goes
//! through a per-thread cache ([`StemCache`]), once per distinct word of a pair.

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

/// The dense numbering of one pair (or of one `pairwise` matrix).
#[derive(Default)]
pub struct Local {
    /// final form -> id
    short: FxHashMap<u128, u32>,
    long: FxHashMap<Box<[u8]>, u32>,
    /// raw word (longer than 3 bytes) -> id, when stemming: stems once per distinct word
    raw: FxHashMap<u128, u32>,
    len: u32,
}

impl Local {
    /// Forget the previous numbering.
    pub fn reset(&mut self) {
        self.short.clear();
        self.long.clear();
        self.raw.clear();
        self.len = 0;
    }

    /// Number of distinct tokens since the last reset (ids are `0..len`).
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn next(len: &mut u32) -> u32 {
        *len += 1;
        *len - 1
    }

    fn form_id(&mut self, form: &Form) -> u32 {
        let len = &mut self.len;
        match form {
            Form::Short(k) => *self.short.entry(*k).or_insert_with(|| Self::next(len)),
            Form::Long(b) => {
                if let Some(&i) = self.long.get(b) {
                    return i;
                }
                let i = Self::next(len);
                self.long.insert(b.clone(), i);
                i
            }
        }
    }

    fn bytes_id(&mut self, b: &[u8]) -> u32 {
        match pack(b) {
            Some(k) => {
                let len = &mut self.len;
                *self.short.entry(k).or_insert_with(|| Self::next(len))
            }
            None => self.form_id(&Form::Long(b.into())),
        }
    }

    /// Id of a lowercased `[a-z0-9]+` word, stemmed first when `stems` is given and the
    /// word is longer than 3 bytes.
    fn word_id(&mut self, word: &[u8], stems: Option<&mut StemCache>) -> u32 {
        let Some(stems) = stems.filter(|_| word.len() > 3) else {
            return self.bytes_id(word);
        };
        let key = pack(word);
        if let Some(i) = key.and_then(|k| self.raw.get(&k)) {
            return *i;
        }
        let id = self.form_id(&stems.stem(word));
        if let Some(k) = key {
            self.raw.insert(k, id);
        }
        id
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

/// What a pair's texts are read with.
pub struct Reader<'a> {
    pub stems: Option<&'a mut StemCache>,
    pub local: &'a mut Local,
    pub word: &'a mut Vec<u8>,
    pub fallback: &'a mut Tokens,
}

impl Reader<'_> {
    /// rouge-score's tokenizer on an ASCII text, lines recorded when `lines`: lowercase,
    /// every byte outside `[a-z0-9]` a separator, stems of tokens longer than 3.
    pub fn ascii_doc(&mut self, text: &[u8], lines: bool, doc: &mut Doc) {
        doc.tokens.clear();
        doc.sents.clear();
        let mut line_start_tok = 0u32;
        let mut line_len = 0usize;
        self.word.clear();
        for &b in text {
            let l = b.to_ascii_lowercase();
            if l.is_ascii_alphanumeric() {
                self.word.push(l);
                line_len += 1;
                continue;
            }
            if !self.word.is_empty() {
                doc.tokens.push(self.local.word_id(self.word, self.stems.as_deref_mut()));
                self.word.clear();
            }
            if b == b'\n' {
                if lines && line_len > 0 {
                    doc.sents.push((line_start_tok, doc.tokens.len() as u32));
                }
                line_start_tok = doc.tokens.len() as u32;
                line_len = 0;
            } else {
                line_len += 1;
            }
        }
        if !self.word.is_empty() {
            doc.tokens.push(self.local.word_id(self.word, self.stems.as_deref_mut()));
            self.word.clear();
        }
        if lines && line_len > 0 {
            doc.sents.push((line_start_tok, doc.tokens.len() as u32));
        }
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
