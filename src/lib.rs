//! Sitke: a Sittuyin (Burmese chess) engine.
//!
//! Data flows one way: `board` <- `eval` <- `search` <- `protocol` / `tools`.

pub mod board;
pub mod eval;
pub mod protocol;
pub mod search;
pub mod tools;
