//! The official scripts' input files read in place: the dataset JSON, the predictions JSON
//! and evaluate-v2.0.py's no-answer probabilities JSON, parsed straight into the texts and
//! numbers the scores need (no per-answer objects elsewhere).
//!
//! Only the exact shapes are read: `{"version": str, "data": [{"paragraphs": [{"qas":
//! [{"id": str, "answers": [{"text": str}, ...]}]}]}]}` (other fields skipped), `{id: str}`
//! and `{id: number}`, strict UTF-8 through the whole file (a UTF-8 byte order mark is
//! skipped, as Python's `json.loads` of bytes does), standard JSON (no `NaN`/`Infinity`
//! literals; no lone surrogate escape in a text kept, where Python would keep it as it is). A key given twice in the predictions or probabilities keeps its last
//! value and its first place, as a Python dict; a field given twice in the dataset's objects,
//! any other shape or text, a question without a prediction or a probability, or (v1.1)
//! without a gold answer gives `None`, so that the caller's general path reads the files and
//! reports it. A probability is kept when Python reads it as the same number: a finite float
//! literal (parsed from its own text, correctly rounded), or an integer literal of magnitude
//! below 2^53 (larger integers go to the general path, where they stay Python ints).

use super::{batch_stats, IdPlaces, Version};
use crate::error::Result;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;

/// A JSON string, borrowed from the file when it has no escapes.
#[derive(PartialEq, Eq, Hash)]
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> std::result::Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

impl AsRef<str> for Text<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Text<'_> {
    fn borrow(&self) -> &str {
        &self.0
    }
}

/// The dataset's questions in file order: ids, the flat gold answer texts and the offsets
/// of each question's answers.
#[derive(Default)]
struct Questions<'a> {
    version: Option<Text<'a>>,
    ids: Ids,
    golds: Vec<Text<'a>>,
    starts: Vec<usize>,
}

/// Question ids side by side in one buffer: the id lookups that the predictions and the
/// probabilities files make then stay in cache (ids borrowed from the dataset file lie a
/// context apart, and comparing with them missed the cache on every lookup).
#[derive(Default)]
struct Ids {
    text: String,
    ends: Vec<usize>,
}

impl Ids {
    fn push(&mut self, id: &str) {
        self.text.push_str(id);
        self.ends.push(self.text.len());
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    fn iter(&self) -> impl ExactSizeIterator<Item = &str> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let id = &self.text[start..end];
            start = end;
            id
        })
    }
}

/// Implements the seed of an array whose items are read by the seed `$item`.
macro_rules! array_of {
    ($list:ident, $item:ident, $what:literal) => {
        struct $list<'q, 'a>(&'q mut Questions<'a>);

        impl<'de> DeserializeSeed<'de> for $list<'_, 'de> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
                d.deserialize_seq(self)
            }
        }

        impl<'de> Visitor<'de> for $list<'_, 'de> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str($what)
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> std::result::Result<(), S::Error> {
                while seq.next_element_seed($item(&mut *self.0))?.is_some() {}
                Ok(())
            }
        }
    };
}

/// Implements the seed of an object whose fields `visit_map` of `$name` reads.
macro_rules! object_seed {
    ($name:ident, $what:literal) => {
        struct $name<'q, 'a>(&'q mut Questions<'a>);

        impl<'de> DeserializeSeed<'de> for $name<'_, 'de> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
                d.deserialize_map(self)
            }
        }

        impl $name<'_, '_> {
            fn expecting_text(f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str($what)
            }
        }
    };
}

/// Takes field `name`'s value once (a second time is an error).
fn once<'de, A: MapAccess<'de>, T>(seen: &mut bool, name: &'static str, map: &mut A, read: impl FnOnce(&mut A) -> std::result::Result<T, A::Error>) -> std::result::Result<T, A::Error> {
    if std::mem::replace(seen, true) {
        return Err(de::Error::duplicate_field(name));
    }
    read(map)
}

array_of!(ArticleList, Article, "the dataset's articles");
array_of!(ParagraphList, Paragraph, "an article's paragraphs");
array_of!(QaList, Qa, "a paragraph's questions");
array_of!(AnswerList, Answer, "a question's answers");
object_seed!(Dataset, "the dataset object");
object_seed!(Article, "an article object");
object_seed!(Paragraph, "a paragraph object");
object_seed!(Qa, "a question object");
object_seed!(Answer, "an answer object");

impl<'de> Visitor<'de> for Dataset<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        Self::expecting_text(f)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        let (mut version, mut data) = (false, false);
        while let Some(key) = map.next_key::<Text<'de>>()? {
            match key.0.as_ref() {
                "version" => self.0.version = Some(once(&mut version, "version", &mut map, |m| m.next_value())?),
                "data" => once(&mut data, "data", &mut map, |m| m.next_value_seed(ArticleList(&mut *self.0)))?,
                _ => map.next_value::<IgnoredAny>().map(|_| ())?,
            }
        }
        if !version {
            return Err(de::Error::missing_field("version"));
        }
        if !data {
            return Err(de::Error::missing_field("data"));
        }
        Ok(())
    }
}

/// An object with one field read by `$seed` (other fields skipped).
macro_rules! one_field {
    ($name:ident, $field:literal, $seed:ident) => {
        impl<'de> Visitor<'de> for $name<'_, 'de> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                Self::expecting_text(f)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
                let mut seen = false;
                while let Some(key) = map.next_key::<Text<'de>>()? {
                    if key.0 == $field {
                        once(&mut seen, $field, &mut map, |m| m.next_value_seed($seed(&mut *self.0)))?;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                if !seen {
                    return Err(de::Error::missing_field($field));
                }
                Ok(())
            }
        }
    };
}

one_field!(Article, "paragraphs", ParagraphList);
one_field!(Paragraph, "qas", QaList);

impl<'de> Visitor<'de> for Qa<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        Self::expecting_text(f)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        let (mut id, mut answers) = (None, false);
        let mut seen_id = false;
        while let Some(key) = map.next_key::<Text<'de>>()? {
            match key.0.as_ref() {
                "id" => id = Some(once(&mut seen_id, "id", &mut map, |m| m.next_value::<Text<'de>>())?),
                "answers" => once(&mut answers, "answers", &mut map, |m| m.next_value_seed(AnswerList(&mut *self.0)))?,
                _ => map.next_value::<IgnoredAny>().map(|_| ())?,
            }
        }
        let (Some(id), true) = (id, answers) else {
            return Err(de::Error::missing_field("id or answers"));
        };
        self.0.ids.push(&id.0);
        self.0.starts.push(self.0.golds.len());
        Ok(())
    }
}

impl<'de> Visitor<'de> for Answer<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        Self::expecting_text(f)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        let mut text = None;
        let mut seen = false;
        while let Some(key) = map.next_key::<Text<'de>>()? {
            if key.0 == "text" {
                text = Some(once(&mut seen, "text", &mut map, |m| m.next_value::<Text<'de>>())?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        self.0.golds.push(text.ok_or_else(|| de::Error::missing_field("text"))?);
        Ok(())
    }
}

/// A no-answer probability as Python's `json` reads it: the value, and whether it is an int.
#[derive(Clone, Copy)]
struct Probability(f64, bool);

/// Integers of smaller magnitude are exact in float64, so comparisons and sorting agree
/// with Python's int/float comparisons.
const EXACT_INT: u64 = 1 << 53;

impl Probability {
    /// The number a JSON literal stands for, as `json.loads` reads it: a literal with a
    /// fraction or an exponent is a float, correctly rounded (Rust's `f64` parsing is, as
    /// Python's `float`); one without is an int, kept when float64 holds it exactly (`-0` is
    /// the int 0). `None` for a larger int, a float out of range (Python's `inf`) or
    /// anything that is not a number: the general path reads those.
    fn of_literal(text: &str) -> Option<Probability> {
        let text = text.trim_matches(|c: char| c.is_ascii_whitespace());
        if !text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            return None;
        }
        if text.contains(['.', 'e', 'E']) {
            let v: f64 = text.parse().ok()?;
            return v.is_finite().then_some(Probability(v, false));
        }
        let v: i64 = text.parse().ok()?;
        (v.unsigned_abs() < EXACT_INT).then_some(Probability(v as f64, true))
    }
}

impl<'de> Deserialize<'de> for Probability {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        // the literal's own text: serde_json's numbers would lose whether it was an int, and
        // its integers past 64 bits
        let raw = <&serde_json::value::RawValue>::deserialize(d)?;
        Probability::of_literal(raw.get()).ok_or_else(|| de::Error::custom("not a number read exactly"))
    }
}

/// The dataset's distinct question ids ([`IdPlaces`]) and the ids themselves, for the
/// in-order lookups of [`ById`].
struct Slots<'a> {
    ids: &'a Ids,
    places: IdPlaces<'a>,
}

impl<'a> Slots<'a> {
    fn new(ids: &'a Ids) -> Self {
        Slots { ids, places: IdPlaces::new(ids.iter()) }
    }
}

/// Reads a JSON object `{id: value}` keeping, for each dataset id, what `keep(slot, value,
/// place)` makes of its value (`place`: the key's position in the file); other keys' values
/// are read and dropped.
struct ById<'s, 'a, V, F> {
    slots: &'s Slots<'a>,
    keep: F,
    value: std::marker::PhantomData<V>,
}

impl<'de, V: Deserialize<'de>, F: FnMut(usize, V, usize)> Visitor<'de> for ById<'_, '_, V, F> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object keyed by question id")
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> std::result::Result<(), A::Error> {
        let mut place = 0;
        while let Some(key) = map.next_key::<Text<'de>>()? {
            let value: V = map.next_value()?;
            // files usually list the questions in the dataset's order: no hash lookup then
            let slots = self.slots;
            let in_order = slots.places.first.get(place).is_some_and(|&i| slots.ids.get(i) == key.0.as_ref());
            if let Some(slot) = if in_order { Some(place) } else { slots.places.of_id.get(key.0.as_ref()).copied() } {
                (self.keep)(slot, value, place);
            }
            place += 1;
        }
        Ok(())
    }
}

fn read_by_id<'de, V: Deserialize<'de>>(bytes: &'de str, slots: &Slots<'_>, keep: impl FnMut(usize, V, usize)) -> Option<()> {
    let mut de = serde_json::Deserializer::from_str(bytes);
    de.deserialize_map(ById { slots, keep, value: std::marker::PhantomData }).ok()?;
    de.end().ok()
}

/// The file's text: strict UTF-8 (checked once for the whole file, so that the parser need
/// not check each string), without a UTF-8 byte order mark.
fn utf8(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(strip_bom(bytes)).ok()
}

/// The no-answer probabilities of the scored questions (dataset order) and the order of
/// evaluate-v2.0.py's threshold search over them: its stable sort of the file's keys by
/// probability.
#[derive(Debug)]
pub struct NaColumn {
    pub values: Vec<f64>,
    pub is_int: Vec<bool>,
    pub order: Vec<usize>,
}

/// What the files give: the script followed, the dataset's `version` field, the
/// per-question rows and F1 of [`batch_stats`] (v2.0: each id once, at its first place,
/// with its last answers; v1.1: every question), the gold answer counts and, given a
/// probabilities file, its column.
#[derive(Debug)]
pub struct FileStats {
    pub version: Version,
    pub version_field: String,
    pub rows: Vec<u64>,
    pub f1: Vec<f64>,
    pub counts: Vec<i64>,
    pub na: Option<NaColumn>,
}

fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(b"\xef\xbb\xbf".as_slice()).unwrap_or(b)
}

/// The script a dataset's `version` field names (`"1.1"`, `"v2.0"`, ...), as the
/// Python side's `dataset_version`.
pub fn version_of(field: &str) -> Option<Version> {
    let v = field.strip_prefix('v').unwrap_or(field);
    if v == "1.1" || v == "1.0" {
        Some(Version::V1)
    } else if v.starts_with('2') {
        Some(Version::V2)
    } else {
        None
    }
}

fn questions(data: &str) -> Option<Questions<'_>> {
    let mut q = Questions { starts: vec![0], ..Default::default() };
    // a guess of the sizes, to save regrowing (answers about 200 bytes apart in SQuAD files)
    q.ids.ends.reserve(data.len() / 512);
    q.golds.reserve(data.len() / 256);
    q.starts.reserve(data.len() / 512);
    let mut de = serde_json::Deserializer::from_str(data);
    Dataset(&mut q).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(q)
}

/// The statistics of the script `version` (`None`: the dataset's) from the files' bytes
/// (`na_probs`: evaluate-v2.0.py's probabilities file), or `Ok(None)` when they are not
/// exactly the regular shapes (see the module).
pub fn file_stats(data: &[u8], preds: &[u8], na_probs: Option<&[u8]>, version: Option<Version>, n_threads: usize) -> Result<Option<FileStats>> {
    let (Some(data), Some(preds)) = (utf8(data), utf8(preds)) else {
        return Ok(None);
    };
    let Some(q) = questions(data) else {
        return Ok(None);
    };
    let Some(version_field) = q.version.as_ref() else {
        return Ok(None);
    };
    let Some(version) = version.or_else(|| version_of(&version_field.0)) else {
        return Ok(None);
    };
    if q.ids.is_empty() || (version == Version::V1 && q.starts.windows(2).any(|w| w[0] == w[1])) {
        return Ok(None);
    }
    let slots = Slots::new(&q.ids);
    let mut by_slot: Vec<Option<Text>> = (0..slots.places.first.len()).map(|_| None).collect();
    if read_by_id(preds, &slots, |slot, text: Text, _| by_slot[slot] = Some(text)).is_none() {
        return Ok(None);
    }
    let Some(by_slot) = by_slot.into_iter().collect::<Option<Vec<Text>>>() else {
        return Ok(None); // a question without a prediction
    };
    let na = match na_probs {
        None => None,
        Some(bytes) => match utf8(bytes).and_then(|text| na_column(text, &slots)) {
            Some(column) => Some(column),
            None => return Ok(None),
        },
    };
    // the questions as the script keys them: v2.0 one entry per id at its first place,
    // holding its last answers; v1.1 every question. Without a repeated id, both are the
    // dataset's questions as they are.
    let (rows, f1, starts) = if slots.places.first.len() == q.ids.len() {
        let (rows, f1) = batch_stats(version, &by_slot, &q.golds, &q.starts, n_threads)?;
        (rows, f1, q.starts)
    } else if version == Version::V1 {
        let p: Vec<&str> = slots.places.slot.iter().map(|&s| by_slot[s].0.as_ref()).collect();
        let (rows, f1) = batch_stats(version, &p, &q.golds, &q.starts, n_threads)?;
        (rows, f1, q.starts)
    } else {
        let (answers, starts) = slots.places.last_answers(&q.starts);
        let g: Vec<&str> = answers.iter().map(|&k| q.golds[k].0.as_ref()).collect();
        let (rows, f1) = batch_stats(version, &by_slot, &g, &starts, n_threads)?;
        (rows, f1, starts)
    };
    let counts = starts.windows(2).map(|w| (w[1] - w[0]) as i64).collect();
    Ok(Some(FileStats { version, version_field: version_field.0.to_string(), rows, f1, counts, na }))
}

/// A float's bits as an unsigned integer in the numbers' order (`-0.0` as `0.0`: they are
/// equal, so they tie). Not for NaN, which JSON cannot hold.
fn ordered_bits(v: f64) -> u64 {
    let bits = (v + 0.0).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// The probabilities of the distinct questions, or `None` when the file is not `{id:
/// number}` read exactly or a question has none. A key given twice keeps its last value
/// and its first place, as a Python dict.
fn na_column(text: &str, slots: &Slots<'_>) -> Option<NaColumn> {
    let n = slots.places.first.len();
    let mut got: Vec<Option<(Probability, usize)>> = vec![None; n];
    read_by_id(text, slots, |slot, p: Probability, place| {
        got[slot] = Some((p, got[slot].map_or(place, |(_, first)| first)));
    })?;
    let got: Vec<(Probability, usize)> = got.into_iter().collect::<Option<_>>()?;
    let values: Vec<f64> = got.iter().map(|(p, _)| p.0).collect();
    // the script's sorted(na_probs, key=...): by probability, ties in the file's key order;
    // one integer key per question (value bits ordered as the numbers, place, question)
    let mut keys: Vec<(u64, u64)> = got.iter().enumerate().map(|(i, &(p, place))| (ordered_bits(p.0), ((place as u64) << 32) | i as u64)).collect();
    if n > u32::MAX as usize || keys.iter().any(|k| k.1 >> 32 > u32::MAX as u64) {
        return None;
    }
    keys.sort_unstable();
    let order = keys.into_iter().map(|(_, k)| (k & u64::from(u32::MAX)) as usize).collect();
    Some(NaColumn { is_int: got.iter().map(|(p, _)| p.1).collect(), values, order })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATA: &str = r#"{"version": "v2.0", "data": [{"title": "t", "paragraphs": [{"context": "c", "qas": [
        {"question": "?", "id": "a", "answers": [{"text": "the Cat", "answer_start": 0}]},
        {"id": "b", "answers": []},
        {"id": "c", "answers": [{"text": "x"}, {"text": "y z"}]}]}]}]}"#;

    fn stats(data: &str, preds: &str, na: Option<&str>) -> Option<FileStats> {
        file_stats(data.as_bytes(), preds.as_bytes(), na.map(str::as_bytes), None, 1).unwrap()
    }

    #[test]
    fn regular_files() {
        let got = stats(DATA, r#"{"c": "y", "a": "cat", "b": "", "zz": "ignored"}"#, Some(r#"{"b": 1, "c": 0.5, "a": 0.5}"#)).unwrap();
        assert_eq!(got.version, Version::V2);
        assert_eq!(got.version_field, "v2.0");
        assert_eq!(got.counts, vec![1, 0, 2]);
        assert_eq!(got.rows.chunks(5).map(|r| r[0]).collect::<Vec<_>>(), vec![1, 1, 0]);
        let na = got.na.unwrap();
        assert_eq!(na.values, vec![0.5, 1.0, 0.5]);
        assert_eq!(na.is_int, vec![false, true, false]);
        assert_eq!(na.order, vec![2, 0, 1]); // 0.5 ties in the file's order: c before a
    }

    #[test]
    fn a_key_twice_keeps_its_last_value_at_its_first_place() {
        let got = stats(DATA, r#"{"a": "dog", "b": "", "c": "", "\u0061": "cat"}"#, Some(r#"{"c": 0.2, "a": 0.9, "b": 0, "c": 0.9}"#)).unwrap();
        assert_eq!(got.rows[0], 1); // "cat" == "the Cat"
        let na = got.na.unwrap();
        assert_eq!(na.values, vec![0.9, 0.0, 0.9]);
        assert_eq!(na.order, vec![1, 2, 0]); // c (first place 0) ties with a (place 1)
    }

    #[test]
    fn irregular_files_are_left_to_the_general_path() {
        let preds = r#"{"a": "", "b": "", "c": ""}"#;
        assert!(stats(DATA, r#"{"a": "", "b": ""}"#, None).is_none()); // c unanswered
        assert!(stats(DATA, r#"{"a": "", "b": "", "c": 1}"#, None).is_none());
        assert!(stats(&DATA.replace(r#""id": "b""#, r#""id": "b", "id": "d""#), preds, None).is_none());
        assert!(stats(&DATA.replace(r#"{"id": "b", "answers": []}"#, r#"["b", []]"#), preds, None).is_none());
        // a raw control character is not JSON, wherever it is (Python's json refuses it too)
        assert!(stats(&DATA.replace(r#""context": "c""#, "\"context\": \"\u{1}\""), preds, None).is_none());
        // a lone surrogate escape in a skipped field is read past, as Python's json reads it
        assert!(stats(&DATA.replace(r#""context": "c""#, r#""context": "\ud800""#), preds, None).is_some());
        assert!(file_stats(&[DATA.as_bytes(), b"\xff"].concat(), preds.as_bytes(), None, None, 1).unwrap().is_none());
        for literal in ["9007199254740992", "-9007199254740992", "123456789012345678901234567890", "1e400", "NaN", "Infinity", "true", "null", "\"0\"", "[0]"] {
            assert!(stats(DATA, preds, Some(&format!(r#"{{"a": 0, "b": {literal}, "c": 0}}"#))).is_none(), "{literal}");
        }
        assert!(stats(DATA, preds, Some(r#"{"a": 0, "b": 0}"#)).is_none()); // c without a probability
        for literal in ["0", "-0", "-0.0", "-1", "9007199254740991", "1e16", "9007199254740993.0", "1.5e-320", "0.30000000000000004", "1e-400"] {
            assert!(stats(DATA, preds, Some(&format!(r#"{{"a": 0, "b": {literal}, "c": 0}}"#))).is_some(), "{literal}");
        }
    }

    #[test]
    fn literals_are_read_as_python_reads_them() {
        let read = |t: &str| Probability::of_literal(t).map(|p| (p.0.to_bits(), p.1));
        // correctly rounded: the issue's pair, a decimal midpoint (ties to even) and one a hair above
        assert_eq!(read("0.22323896460701453"), Some((0.22323896460701453f64.to_bits(), false)));
        assert_eq!(read("0.2232389646070145"), Some((0.2232389646070145f64.to_bits(), false)));
        let two_53 = (1u64 << 53) as f64;
        assert_eq!(read("9007199254740993.0"), Some((two_53.to_bits(), false)));
        assert_eq!(read("9007199254740993.0000000000000001"), Some(((two_53 + 2.0).to_bits(), false)));
        assert_eq!(read("-0"), Some((0, true))); // Python's int 0
        assert_eq!(read("-0.0"), Some(((-0.0f64).to_bits(), false)));
        assert_eq!(read("9007199254740991"), Some((9007199254740991f64.to_bits(), true)));
        assert_eq!(read("9007199254740992"), None);
        assert_eq!(read("1e400"), None);
    }

    #[test]
    fn ordered_bits_orders_as_the_numbers() {
        let xs = [-1e300, -1.0, -5e-324, -0.0, 0.0, 5e-324, 0.5, 1.0, 1e300];
        for w in xs.windows(2) {
            assert!(ordered_bits(w[0]) <= ordered_bits(w[1]));
            assert_eq!(ordered_bits(w[0]) == ordered_bits(w[1]), w[0] == w[1]);
        }
    }
}

#[cfg(test)]
mod timing {
    /// `SQ_DIR=DIR cargo test --release -p nlgmetrics-core --lib qa::files::timing -- --ignored
    /// --nocapture`, DIR holding v2.json, pred.json and na.json (as benches/bench_qa.py writes).
    #[test]
    #[ignore]
    fn time_files() {
        let Ok(dir) = std::env::var("SQ_DIR") else { return };
        let read = |name: &str| std::fs::read(format!("{dir}/{name}")).unwrap();
        let (data, preds, na) = (read("v2.json"), read("pred.json"), read("na.json"));
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let q = super::questions(std::str::from_utf8(&data).unwrap()).unwrap();
            let parse = t.elapsed();
            let t = std::time::Instant::now();
            let slots = super::Slots::new(&q.ids);
            let ids = t.elapsed();
            let t = std::time::Instant::now();
            let _ = super::na_column(std::str::from_utf8(&na).unwrap(), &slots).unwrap();
            let probs = t.elapsed();
            let t = std::time::Instant::now();
            let r = super::file_stats(&data, &preds, Some(&na), None, 1).unwrap().unwrap();
            eprintln!("dataset {parse:?} ids {ids:?} probabilities {probs:?} whole {:?} ({} questions)", t.elapsed(), r.counts.len());
        }
    }
}
