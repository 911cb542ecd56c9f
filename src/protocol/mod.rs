//! The engine protocols spoken on stdin/stdout: UCI as Fairy-Stockfish speaks it for
//! Sittuyin, its USI mode, and CECP (XBoard protocol 2).
//!
//! `uci` runs the loop and dispatches commands; `lines` reads input lines of bounded length;
//! `engine` runs searches, perft and bench on a job thread; `go` parses search limits;
//! `options` holds the options; `output` writes lines and formats `info`/`bestmove`; `wdl` is
//! the win/draw/loss model; `usi` is USI notation and SFEN; `display` is the `d` diagram;
//! `xboard` is the CECP session (entered with `xboard`) and `cecp` its words.

pub mod cecp;
pub mod display;
pub mod engine;
pub mod go;
pub mod lines;
pub mod options;
pub mod output;
pub mod uci;
pub mod usi;
pub mod wdl;
pub mod xboard;

/// The dialect the host speaks: chosen by its first `uci` or `usi` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// UCI: algebraic squares, `R@a1` drops.
    #[default]
    Uci,
    /// USI: shogi-style squares, `R*8h` drops, SFEN.
    Usi,
}
