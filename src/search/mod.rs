//! The search: iterative deepening with aspiration windows around a principal variation
//! search, a shared lock-free transposition table and Lazy SMP threads.
//!
//! The protocol drives it through `Searcher::search` with `Limits` and a shared `Control`
//! (stop, ponder), and receives progress as `Info` values; the search knows nothing of
//! UCI text.

pub mod bench;
pub mod history;
pub mod movepick;
#[cfg(test)]
mod nnue_tests;
pub mod params;
mod pvs;
pub mod see;
pub mod skill;
pub mod tbprobe;
#[cfg(test)]
mod tests;
mod threads;
pub mod time;
pub mod tt;
mod worker;

pub use threads::Searcher;
pub use tt::Bound;

use crate::board::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// The score of delivering mate now.
pub const VALUE_MATE: i32 = 32_000;
/// Larger than any score.
pub const VALUE_INFINITE: i32 = 32_001;
/// Marks a missing score.
pub const VALUE_NONE: i32 = 32_002;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = VALUE_MATE - MAX_PLY as i32;

/// Mate in `ply` plies from the root, for the side to move.
#[inline(always)]
pub const fn mate_in(ply: usize) -> i32 {
    VALUE_MATE - ply as i32
}

/// Being mated in `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> i32 {
    -VALUE_MATE + ply as i32
}

/// What limits a search; everything unset means search until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// White's remaining time.
    pub wtime: Option<Duration>,
    /// Black's remaining time.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Exactly this long.
    pub movetime: Option<Duration>,
    /// At most this many plies.
    pub depth: Option<u32>,
    /// At most this many nodes.
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Whether the clock (or a fixed move time) decides when to stop.
    pub fn uses_time(&self) -> bool {
        !self.infinite && (self.movetime.is_some() || self.wtime.is_some() || self.btime.is_some())
    }
}

/// Signals from the protocol to a running search, shared by reference.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Control {
    /// A control with no stop requested and no pondering.
    pub fn new() -> Control {
        Control::default()
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        // On wasm the search runs on the host's only engine thread, so `stop` cannot arrive
        // through `Control::stop`: the host holds it, and this is where the search looks.
        #[cfg(target_arch = "wasm32")]
        if crate::host::interrupted() {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.stop.load(Ordering::Relaxed)
    }

    /// Marks the search as pondering (the clock does not stop it) or not (ponderhit).
    pub fn set_pondering(&self, on: bool) {
        self.pondering.store(on, Ordering::SeqCst);
    }

    /// Whether the search is pondering.
    #[inline(always)]
    pub fn pondering(&self) -> bool {
        // As for `stop` in `stopped`: on wasm the host holds a `ponderhit` sent meanwhile.
        #[cfg(target_arch = "wasm32")]
        if self.pondering.load(Ordering::Relaxed) && crate::host::ponderhit_arrived() {
            self.pondering.store(false, Ordering::Relaxed);
        }
        self.pondering.load(Ordering::Relaxed)
    }

    /// Clears both flags for a new search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
    }
}

/// A score as reported: centipawns, or mate in N moves (negative: being mated).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative when the side to move gets mated).
    Mate(i32),
}

impl Score {
    /// The reported form of an internal search value.
    pub fn from_value(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((VALUE_MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(VALUE_MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// Progress of a search, one principal variation of one iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Which line (1 = best) when several are searched.
    pub multipv: usize,
    /// The line's internal value (use `Score::from_value` to report it).
    pub value: i32,
    /// Whether the value is exact or a bound from a failed aspiration window.
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Positions found in the endgame tablebases.
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// One root move with its latest score, as a line of a MultiPV search.
#[derive(Clone, Debug)]
pub struct Line {
    /// The value of the line.
    pub value: i32,
    /// The moves of the line, starting with the root move.
    pub pv: Vec<Move>,
}

/// The answer of a finished search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; NONE when there is no legal move.
    pub best: Move,
    /// The expected reply, or NONE.
    pub ponder: Move,
    /// The value of the best move.
    pub value: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The best lines, best first (as many as MultiPV asked for).
    pub lines: Vec<Line>,
}
