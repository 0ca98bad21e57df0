//! One module per metric family: statistics extraction and scoring.

pub mod bleu;
pub mod rouge;
pub mod rouge155;
pub mod rouge_coco;
pub mod rouge_pltrdy;
pub mod llm_presets;
pub mod rouge_lcs;
pub mod rouge_doc;
pub mod bleu_coco;
pub mod cider;
pub mod bleu_nltk;
pub mod distinct;
pub mod chrf;
pub mod chrf_chars;
pub mod ter;
pub mod meteor;
pub mod edit;
pub mod nist;
mod nist_grams;
pub mod per;
pub mod parent;
pub mod py_word;
pub mod qa;
pub mod sari;

/// Checks the offsets of references given as one flat slice (segment `i`'s references are
/// `refs[starts[i]..starts[i + 1]]`, `n_hyps + 1` offsets), as the bindings read them.
pub fn check_flat_references(n_hyps: usize, n_refs: usize, starts: &[usize]) -> crate::error::Result<()> {
    let segments = starts.len().saturating_sub(1);
    if n_hyps != segments {
        return Err(crate::error::Error::LengthMismatch { what: "predictions and references".into(), left: n_hyps, right: segments });
    }
    if starts.windows(2).any(|w| w[0] > w[1]) || starts.last().is_some_and(|&e| e > n_refs) {
        return Err(crate::error::Error::InvalidInput("reference offsets out of order or out of range".into()));
    }
    Ok(())
}
