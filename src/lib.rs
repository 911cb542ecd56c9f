//! Sitke: a Sittuyin (Burmese chess) engine.
//!
//! Data flows one way: `board` <- `eval` / `tb` <- `search` <- `protocol` / `tools` (perft is
//! in `board`, bench in `search`, so the protocol runs them without `tools`); `rng`
//! depends on nothing and serves every layer that needs random numbers; `host` (the clock, and
//! on wasm32 what the page provides) likewise. `web` is the WebAssembly build's entry, as
//! `cli` is the binary's.

#![warn(missing_docs)]

pub mod board;
pub mod cli;
pub mod eval;
pub mod host;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod tb;
#[cfg(feature = "tools")]
pub mod tools;
#[cfg(target_arch = "wasm32")]
pub mod web;
