//! WER, CER, MER, WIL and WIP as jiwer 4.0 computes them.
//!
//! Segment statistics: `[hits, substitutions, deletions, insertions]` (u64) of the
//! alignment RapidFuzz picks (see `edit_distance`), with the reference as the source
//! sequence. Corpus measures pool the counts (jiwer sums them over sentences).

use crate::edit_distance::{editops, opcodes, EditKind, OpTag};
use crate::error::{Error, Result};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use crate::parallel::map_rows;
use crate::pystr::{is_py_space, py_lower, py_strip};

/// jiwer's named transform chains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transform {
    /// `wer_default`: RemoveMultipleSpaces, Strip, ReduceToListOfListOfWords.
    WerDefault,
    /// `wer_standardize`: ToLowerCase, ExpandCommonEnglishContractions,
    /// RemoveKaldiNonWords, RemoveWhiteSpace(replace_by_space=True), then `wer_default`.
    WerStandardize,
    /// `cer_default`: Strip, ReduceToListOfListOfChars (every code point, spaces too).
    CerDefault,
}

impl Transform {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "default" | "wer_default" => Ok(Transform::WerDefault),
            "standardize" | "wer_standardize" => Ok(Transform::WerStandardize),
            "cer_default" | "chars" => Ok(Transform::CerDefault),
            _ => Err(Error::InvalidOption(format!(
                "unknown transform {name:?}; known: default, standardize, cer_default"
            ))),
        }
    }
}

/// How several references of one segment are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiRef {
    /// More than one reference is an error (jiwer takes one).
    Error,
    /// The reference with the fewest errors (S+D+I); ties go to the first.
    Best,
}

impl MultiRef {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "error" => Ok(MultiRef::Error),
            "best" => Ok(MultiRef::Best),
            _ => Err(Error::InvalidOption(format!("unknown multi_ref {name:?}; known: error, best"))),
        }
    }
}

/// `re.sub(r"\s\s+", " ", s)`: runs of two or more whitespace characters become one
/// space; a single tab or newline stays as it is.
fn remove_multiple_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut run = String::new();
    for c in s.chars() {
        if is_py_space(c) {
            run.push(c);
        } else {
            flush_run(&mut run, &mut out);
            out.push(c);
        }
    }
    flush_run(&mut run, &mut out);
    out
}

fn flush_run(run: &mut String, out: &mut String) {
    if run.chars().nth(1).is_some() {
        out.push(' ');
    } else {
        out.push_str(run);
    }
    run.clear();
}

fn has_whitespace_run(s: &str) -> bool {
    let mut prev = false;
    for c in s.chars() {
        let sp = is_py_space(c);
        if sp && prev {
            return true;
        }
        prev = sp;
    }
    false
}

/// `re.sub(r"[<\[][^>\]]*[>\]]", "", s)`: a match runs from an opener to the first closer.
fn remove_kaldi_non_words(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find(['<', '[']) {
        match rest[open + 1..].find(['>', ']']) {
            Some(close) => {
                out.push_str(&rest[..open]);
                rest = &rest[open + 1 + close + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

const CONTRACTIONS: [(&str, &str); 11] = [
    ("won't", "will not"),
    ("can't", "can not"),
    ("let's", "let us"),
    ("n't", " not"),
    ("'re", " are"),
    ("'s", " is"),
    ("'d", " would"),
    ("'ll", " will"),
    ("'t", " not"),
    ("'ve", " have"),
    ("'m", " am"),
];

fn standardize(s: &str) -> String {
    let mut t = py_lower(s);
    for (from, to) in CONTRACTIONS {
        if t.contains(from) {
            t = t.replace(from, to);
        }
    }
    let t = remove_kaldi_non_words(&t);
    // RemoveWhiteSpace(replace_by_space=True) replaces string.whitespace (ASCII only).
    t.replace([' ', '\t', '\n', '\r', '\x0b', '\x0c'], " ")
}

/// The text a transform splits (words on single spaces, or code points): borrowed when
/// nothing needs rewriting, as in most input.
fn prepared(transform: Transform, text: &str) -> Cow<'_, str> {
    match transform {
        Transform::CerDefault => Cow::Borrowed(py_strip(text)),
        Transform::WerDefault if !has_whitespace_run(text) => Cow::Borrowed(py_strip(text)),
        Transform::WerDefault => Cow::Owned(py_strip(&remove_multiple_spaces(text)).to_owned()),
        Transform::WerStandardize => Cow::Owned(py_strip(&remove_multiple_spaces(&standardize(text))).to_owned()),
    }
}

/// Word ids shared by the texts of one segment (only equality matters to the alignment),
/// keyed by the words themselves: no allocation per word.
pub type Vocab<'t> = FxHashMap<&'t str, u32>;

/// The token ids of one prepared text: word ids, or code points for CER.
fn token_ids<'t>(transform: Transform, text: &'t str, vocab: &mut Vocab<'t>) -> Vec<u32> {
    if transform == Transform::CerDefault {
        return text.chars().map(|c| c as u32).collect();
    }
    let mut out = Vec::with_capacity(text.len() / 4 + 1);
    for w in text.split(' ').filter(|w| !w.is_empty()) {
        let next = vocab.len() as u32;
        out.push(*vocab.entry(w).or_insert(next));
    }
    out
}

/// The token ids of one text after the transform (a vocabulary of its own).
pub fn tokens(transform: Transform, text: &str) -> Vec<u32> {
    let text = prepared(transform, text);
    token_ids(transform, &text, &mut Vocab::default())
}

fn count(ops: &[crate::edit_distance::EditOp], ref_len: usize) -> [u64; 4] {
    let (mut s, mut d, mut i) = (0u64, 0u64, 0u64);
    for op in ops {
        match op.kind {
            EditKind::Replace => s += 1,
            EditKind::Delete => d += 1,
            EditKind::Insert => i += 1,
        }
    }
    [ref_len as u64 - s - d, s, d, i]
}

/// Choose the reference per `multi_ref`; returns (index, ref ids, hyp ids).
fn pick<S: AsRef<str>>(
    transform: Transform,
    multi: MultiRef,
    hyp: &str,
    refs: &[S],
) -> Result<(usize, Vec<u32>, Vec<u32>, Vec<crate::edit_distance::EditOp>)> {
    if refs.is_empty() {
        return Err(Error::MissingReference { index: 0 });
    }
    if refs.len() > 1 && multi == MultiRef::Error {
        return Err(Error::InvalidInput(format!(
            "{} references given for one segment; jiwer-style measures take one (pass multi_ref=\"best\" to use the closest)",
            refs.len()
        )));
    }
    // Every text is prepared first, so the vocabulary can borrow its words from them.
    let texts: Vec<Cow<'_, str>> = std::iter::once(hyp).chain(refs.iter().map(|r| r.as_ref())).map(|t| prepared(transform, t)).collect();
    let mut vocab = Vocab::with_capacity_and_hasher(if transform == Transform::CerDefault { 0 } else { 64 }, Default::default());
    let h = token_ids(transform, &texts[0], &mut vocab);
    let mut best: Option<(usize, Vec<u32>, Vec<crate::edit_distance::EditOp>)> = None;
    for (k, r) in texts[1..].iter().enumerate() {
        let rid = token_ids(transform, r, &mut vocab);
        let ops = editops(&rid, &h);
        if best.as_ref().is_none_or(|b| ops.len() < b.2.len()) {
            best = Some((k, rid, ops));
        }
    }
    let (k, rid, ops) = best.expect("at least one reference");
    Ok((k, rid, h, ops))
}

fn check_lengths(n: usize, m: usize) -> Result<()> {
    if n != m {
        return Err(Error::LengthMismatch { what: "predictions and references".into(), left: n, right: m });
    }
    Ok(())
}

/// `[hits, substitutions, deletions, insertions]` per segment, row-major `n × 4`.
pub fn batch_stats<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    transform: Transform,
    multi: MultiRef,
    hyps: &[H],
    refs: &[Vec<R>],
    n_threads: usize,
) -> Result<Vec<u64>> {
    check_lengths(hyps.len(), refs.len())?;
    map_rows(hyps.len(), 4, n_threads, || (), |_, i, row| {
        let (_, rid, _, ops) = pick(transform, multi, hyps[i].as_ref(), &refs[i]).map_err(|e| at(e, i))?;
        row.copy_from_slice(&count(&ops, rid.len()));
        Ok(())
    })
}

/// [`batch_stats`] with the references of every segment in one flat slice: segment `i`'s
/// are `refs[starts[i]..starts[i + 1]]` (`n + 1` offsets), as read in place from Python.
pub fn batch_stats_flat<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    transform: Transform,
    multi: MultiRef,
    hyps: &[H],
    refs: &[R],
    starts: &[usize],
    n_threads: usize,
) -> Result<Vec<u64>> {
    super::check_flat_references(hyps.len(), refs.len(), starts)?;
    map_rows(hyps.len(), 4, n_threads, || (), |_, i, row| {
        let (_, rid, _, ops) = pick(transform, multi, hyps[i].as_ref(), &refs[starts[i]..starts[i + 1]]).map_err(|e| at(e, i))?;
        row.copy_from_slice(&count(&ops, rid.len()));
        Ok(())
    })
}

fn at(e: Error, i: usize) -> Error {
    match e {
        Error::MissingReference { .. } => Error::MissingReference { index: i },
        Error::InvalidInput(m) => Error::InvalidInput(format!("segment {i}: {m}")),
        e => e,
    }
}

/// The alignment of every segment as opcode rows
/// `[segment, tag, ref_start, ref_end, hyp_start, hyp_end]` (tag 0 equal, 1 substitute,
/// 2 insert, 3 delete), plus the index of the reference used per segment.
pub fn batch_alignments<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    transform: Transform,
    multi: MultiRef,
    hyps: &[H],
    refs: &[Vec<R>],
) -> Result<(Vec<u64>, Vec<u64>)> {
    check_lengths(hyps.len(), refs.len())?;
    let mut rows = Vec::new();
    let mut chosen = Vec::with_capacity(hyps.len());
    for i in 0..hyps.len() {
        let (k, rid, h, ops) = pick(transform, multi, hyps[i].as_ref(), &refs[i]).map_err(|e| at(e, i))?;
        chosen.push(k as u64);
        for oc in opcodes(&ops, rid.len(), h.len()) {
            let tag = match oc.tag {
                OpTag::Equal => 0,
                OpTag::Replace => 1,
                OpTag::Insert => 2,
                OpTag::Delete => 3,
            };
            rows.extend_from_slice(&[i as u64, tag, oc.src_start as u64, oc.src_end as u64, oc.dest_start as u64, oc.dest_end as u64]);
        }
    }
    Ok((rows, chosen))
}

/// The five jiwer measures of (summed) counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measures {
    pub wer: f64,
    pub mer: f64,
    pub wil: f64,
    pub wip: f64,
}

/// jiwer `process_words`' formulas, including its empty-reference rule: when the
/// reference has no words at all, `wer` is the number of insertions (a count).
pub fn measures(stats: &[u64]) -> Measures {
    let (h, s, d, i) = (stats[0], stats[1], stats[2], stats[3]);
    let n_ref = h + s + d;
    let n_hyp = h + s + i;
    let (wer, mer, wip);
    if n_ref == 0 {
        wer = i as f64;
        if n_hyp == 0 {
            mer = 0.0;
            wip = 1.0;
        } else {
            mer = 1.0;
            wip = 0.0;
        }
    } else {
        wer = (s + d + i) as f64 / (h + s + d) as f64;
        mer = (s + d + i) as f64 / (h + s + d + i) as f64;
        wip = if n_hyp >= 1 { (h as f64 / n_ref as f64) * (h as f64 / n_hyp as f64) } else { 0.0 };
    }
    Measures { wer, mer, wil: 1.0 - wip, wip }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    Wer,
    Mer,
    Wil,
    Wip,
}

impl Measure {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "wer" | "cer" => Ok(Measure::Wer),
            "mer" => Ok(Measure::Mer),
            "wil" => Ok(Measure::Wil),
            "wip" => Ok(Measure::Wip),
            _ => Err(Error::InvalidOption(format!("unknown measure {name:?}; known: wer, cer, mer, wil, wip"))),
        }
    }

    pub fn of(self, stats: &[u64]) -> f64 {
        let m = measures(stats);
        match self {
            Measure::Wer => m.wer,
            Measure::Mer => m.mer,
            Measure::Wil => m.wil,
            Measure::Wip => m.wip,
        }
    }
}

/// `out[i * refs.len() + j]`: the measure of `cands[i]` against `refs[j]` alone.
pub fn pairwise<S: AsRef<str> + Sync>(transform: Transform, measure: Measure, cands: &[S], refs: &[S], n_threads: usize) -> Result<Vec<f64>> {
    let m = refs.len();
    map_rows(cands.len(), m, n_threads, || (), |_, i, row| {
        for (j, out) in row.iter_mut().enumerate() {
            let (_, rid, _, ops) = pick(transform, MultiRef::Error, cands[i].as_ref(), &refs[j..j + 1])?;
            *out = measure.of(&count(&ops, rid.len()));
        }
        Ok::<(), Error>(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(t: Transform, hyps: &[&str], refs: &[&str]) -> [u64; 4] {
        let r: Vec<Vec<&str>> = refs.iter().map(|x| vec![*x]).collect();
        let rows = batch_stats(t, MultiRef::Error, hyps, &r, 1).unwrap();
        let mut s = [0u64; 4];
        for row in rows.chunks(4) {
            for k in 0..4 {
                s[k] += row[k];
            }
        }
        s
    }

    #[test]
    fn spec_example() {
        let s = corpus(
            Transform::WerDefault,
            &["the cat sit on mat", "hello big world"],
            &["the cat sat on the mat", "hello world"],
        );
        assert_eq!(s, [6, 1, 1, 1]);
        let m = measures(&s);
        assert_eq!(m.wer, 0.375);
        assert!((m.wip - 0.5625).abs() < 1e-15);
    }

    #[test]
    fn cer_counts_inner_spaces() {
        let s = corpus(Transform::CerDefault, &["ab cd"], &[" ab  cd "]);
        assert_eq!(measures(&s).wer, 1.0 / 6.0);
    }

    #[test]
    fn empty_reference_rule() {
        let s = corpus(Transform::WerDefault, &["x y z"], &[""]);
        assert_eq!(measures(&s).wer, 3.0);
        assert_eq!(measures(&[0, 0, 0, 0]).wip, 1.0);
    }

    #[test]
    fn transforms() {
        assert_eq!(remove_multiple_spaces("a\tb  c \t d"), "a\tb c d");
        assert_eq!(remove_kaldi_non_words("a <unk> b [noise] c <x"), "a  b  c <x");
        assert_eq!(standardize("I can't do it, <noise> we're\tok"), "i can not do it,  we are ok");
    }
}
