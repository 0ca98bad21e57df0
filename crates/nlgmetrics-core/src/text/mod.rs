//! One module per metric family: statistics extraction and scoring.

pub mod bleu;
pub mod rouge;
pub mod rouge155;
pub mod rouge_coco;
pub mod rouge_lcs;
pub mod rouge_doc;
pub mod bleu_coco;
pub mod cider;
pub mod bleu_nltk;
pub mod distinct;
pub mod chrf;
pub mod ter;
pub mod meteor;
pub mod edit;
pub mod nist;
pub mod per;
pub mod parent;
