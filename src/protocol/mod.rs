//! The engine protocols spoken on stdin/stdout: UCI as Fairy-Stockfish speaks it for
//! Sittuyin, its USI mode, and CECP (XBoard protocol 2).
//!
//! One core, thin front-ends. `core` runs the loop: one input reader (`lines` reads lines
//! of bounded length), one engine state (the position, the options and what setting them
//! does) and the jobs (`engine` runs searches, perft and bench on a job thread). The core
//! writes no protocol text: it reports typed `notice`s, perft counts and bench results,
//! and each front-end words them. `uci` is the UCI/USI front-end (`output` its words: lines,
//! `info`, `bestmove`, `info string`; `usi` the USI notation and SFEN; `display` the `d`
//! diagram; `wdl` the win/draw/loss model); `xboard` is the CECP front-end, entered with
//! `xboard`, and `cecp` its words. `go` parses search limits, `options` holds the options.
//!
//! Modules depend on each other downward only, never in a circle:
//! ```text
//! lines, options, wdl                leaves
//! notice  <- options                 typed notices, their one message text
//! usi, go, display                   notation, `go` limits, the diagram
//! engine  <- go, notice, options     jobs
//! core    <- engine, lines, notice, options
//! output  <- engine, notice, usi, wdl              UCI words
//! uci     <- core, go, output, usi, display, ...   UCI front-end
//! cecp    <- core, notice, options, output         CECP words
//! xboard  <- core, cecp, engine, go, options, ...  CECP front-end
//! ```
//! Front-ends never import each other; `run` (here) is the only place that knows both.

pub mod cecp;
pub mod core;
pub mod display;
pub mod engine;
pub mod go;
pub mod lines;
pub mod notice;
pub mod options;
pub mod output;
pub mod uci;
pub mod usi;
pub mod wdl;
pub mod xboard;

/// Runs the protocol loop on stdin until `quit` or the end of input: UCI (or USI) until the
/// host says `xboard`, CECP from then on.
pub fn run() {
    core::run(core::Protocol::Uci, |protocol| -> Box<dyn core::Frontend> {
        match protocol {
            core::Protocol::Uci => Box::new(uci::Uci::default()),
            core::Protocol::Cecp => Box::new(xboard::Xboard::new()),
        }
    });
}

/// The dialect the host speaks: chosen by its first `uci` or `usi` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// UCI: algebraic squares, `R@a1` drops.
    #[default]
    Uci,
    /// USI: shogi-style squares, `R*8h` drops, SFEN.
    Usi,
}
