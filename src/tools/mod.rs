//! Command-line tools built on the engine: perft, bench, self-play data generation and
//! tuning.

pub mod bench;
pub mod datagen;
pub mod perft;
pub mod rng;
pub mod tune;
