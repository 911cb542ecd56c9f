//! Command-line tools built on the engine: perft, bench, the engine-vs-engine match
//! runner, self-play data generation, evaluation tuning (Texel), search-constant tuning
//! (SPSA) and the NNUE trainer.

pub mod bench;
pub mod datagen;
pub mod r#match;
pub mod perft;
pub mod spsa;
pub mod train;
pub mod tune;
