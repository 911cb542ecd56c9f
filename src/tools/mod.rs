//! Command-line tools built on the engine: perft, bench, and the engine-vs-engine match runner.

pub mod bench;
pub mod r#match;
pub mod perft;
