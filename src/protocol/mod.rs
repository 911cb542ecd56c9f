//! The engine protocols spoken on stdin/stdout: UCI as Fairy-Stockfish speaks it for
//! Sittuyin, its USI mode, and CECP (XBoard protocol 2).
//!
//! One core, thin front-ends. `core` runs the loop: one input reader (`lines` reads lines
//! of bounded length), one engine state (the position, the options and what setting them
//! does) and the jobs (`engine` runs searches, perft and bench on a job thread). The core
//! writes no protocol text: it reports typed `notice`s (each with the one message every
//! protocol gives), perft counts and bench results, and each front-end words them. `uci` is
//! the UCI/USI front-end, `output` its words (`info`, `bestmove`, `info string`, perft and
//! bench lines); `xboard` is the CECP front-end, entered with `xboard`, and `cecp` its
//! words. Shared by both: `wire` writes stdout, `options` holds the options, `go` parses
//! search limits, `usi` is the dialect (USI notation, SFEN), `display` the `d` diagram and
//! `wdl` the win/draw/loss model.
//!
//! Modules depend on each other downward only, never in a circle, and the front-ends never
//! on each other; only `run`, here, knows both:
//! ```text
//! lines, options, usi, wdl, wire        leaves
//! notice   <- options
//! go, display  <- usi
//! engine   <- go, notice, options
//! core     <- engine, lines, notice, options
//! session  <- core                 the loop fed line by line (wasm)
//! output   <- engine, notice, usi, wdl, wire                      UCI words
//! uci      <- core, display, engine, go, notice, options, output, usi, wire
//! cecp     <- core, notice, options, wire                          CECP words
//! xboard   <- cecp, core, engine, go, notice, options, wire
//! ```

pub mod cecp;
pub mod core;
pub mod display;
pub mod engine;
pub mod go;
pub mod lines;
pub mod notice;
pub mod options;
pub mod output;
pub mod session;
pub mod uci;
pub mod usi;
pub mod wdl;
pub mod wire;
pub mod xboard;

pub use usi::Dialect;

/// Runs the protocol loop on stdin until `quit` or the end of input: UCI (or USI) until the
/// host says `xboard`, CECP from then on.
pub fn run() {
    core::run(core::Protocol::Uci, frontend);
}

/// A session fed line by line (the WebAssembly build's loop): UCI (or USI) until the host
/// says `xboard`, CECP from then on, as under `run`.
pub fn session() -> session::Session {
    session::Session::new(core::Protocol::Uci, frontend)
}

/// The front-end for `protocol`.
fn frontend(protocol: core::Protocol) -> Box<dyn core::Frontend> {
    match protocol {
        core::Protocol::Uci => Box::new(uci::Uci::default()),
        core::Protocol::Cecp => Box::new(xboard::Xboard::new()),
    }
}
