//! Text: normalisation shared by name search and the full-text index.

pub mod normalize;
