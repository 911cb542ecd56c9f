//! Command-line tools built on the engine: the engine-vs-engine match runner, self-play
//! data generation, evaluation tuning (Texel), search-constant tuning (SPSA) and the NNUE
//! trainer. Perft and bench live in the engine (`board::perft`, `search::bench`), since the
//! protocol runs them.

pub mod datagen;
pub mod r#match;
pub mod spsa;
pub mod train;
pub mod tune;
