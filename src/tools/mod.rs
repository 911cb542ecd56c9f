//! Command-line tools built on the engine: perft, bench, the engine-vs-engine match
//! runner, self-play data generation, evaluation tuning (Texel) and search-constant tuning
//! (SPSA).

pub mod bench;
pub mod datagen;
pub mod r#match;
pub mod perft;
pub mod spsa;
pub mod tune;
