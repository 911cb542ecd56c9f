//! Command-line tools built on the engine: perft, and the engine-vs-engine match runner.

pub mod r#match;
pub mod perft;
