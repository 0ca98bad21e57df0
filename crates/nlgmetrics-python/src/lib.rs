//! `nlgmetrics._core`: converts Python values to owned Rust values, releases the GIL,
//! calls nlgmetrics-core, converts back. No metric logic lives here.

use pyo3::prelude::*;

mod bleu;
mod rouge;
mod classification;
mod cider;
mod coco;
mod bleu_nltk;
mod diversity;
mod chrf;
mod ter;
mod convert;
mod significance;
mod meteor;
mod edit;
mod nist;
mod tokenize;
mod parent;
mod signals;
mod qa;
mod rouge_pltrdy;
mod sari;
mod jieba;
mod copied;
mod retrieval;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    signals::init(m.py())?;
    tokenize::register(m)?;
    bleu::register(m)?;
    rouge::register(m)?;
    significance::register(m)?;
    classification::register(m)?;
    cider::register(m)?;
    coco::register(m)?;
    bleu_nltk::register(m)?;
    diversity::register(m)?;
    chrf::register(m)?;
    ter::register(m)?;
    meteor::register(m)?;
    edit::register(m)?;
    nist::register(m)?;
    parent::register(m)?;
    qa::register(m)?;
    rouge_pltrdy::register(m)?;
    rouge_pltrdy::register_presets(m)?;
    rouge_pltrdy::register_depths(m)?;
    sari::register(m)?;
    jieba::register(m)?;
    retrieval::register(m)?;
    Ok(())
}
