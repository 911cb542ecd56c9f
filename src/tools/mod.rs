//! Command-line tools built on the engine: perft.

pub mod perft;
