//! Command-line tools built on the engine: perft and bench.

pub mod bench;
pub mod perft;
