//! Command-line tools built on the engine: the engine-vs-engine match runner, self-play
//! data generation, evaluation tuning (Texel), search-constant tuning (SPSA), the NNUE
//! trainer and the endgame tables' command. Each owns its command line (a `cli` module, or
//! `tb`). Perft and bench live in the engine (`board::perft`, `search::bench`), since the
//! protocol runs them. The whole layer is the cargo feature `tools` (on by default):
//! without it the library and the `sitke` binary are the engine alone.

pub mod datagen;
pub mod r#match;
pub mod spsa;
pub mod tb;
pub mod train;
pub mod tune;
