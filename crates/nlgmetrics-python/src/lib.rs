//! `nlgmetrics._core`: converts Python values to owned Rust values, releases the GIL,
//! calls nlgmetrics-core, converts back. No metric logic lives here.

use pyo3::prelude::*;

mod bleu;
mod convert;
mod edit;
mod nist;
mod tokenize;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    tokenize::register(m)?;
    bleu::register(m)?;
    edit::register(m)?;
    nist::register(m)?;
    Ok(())
}
