//! Command-line tools built on the engine: perft, bench, the engine-vs-engine match
//! runner, self-play data generation and tuning.

pub mod bench;
pub mod datagen;
pub mod r#match;
pub mod perft;
pub mod rng;
pub mod tune;
