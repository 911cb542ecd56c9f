//! The engine protocols spoken on stdin/stdout.

pub mod uci;
