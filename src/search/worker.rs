//! One search thread: its position, statistics and search stack, and the iterative
//! deepening loop with aspiration windows. Every thread watches `stop` and the clock; thread
//! 0 (the main thread) also applies the node limit, decides when to stop deepening and
//! reports progress.

use super::history::{Histories, PieceTo};
use super::params::SearchParams;
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable};
use super::{Control, Info, Limits, MATE_BOUND, MAX_PLY, VALUE_INFINITE, VALUE_MATE, VALUE_NONE};
use crate::board::{Move, Position};
use crate::eval::nnue::{AccumulatorStack, Network};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// What all threads of one search share.
pub(super) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub limits: &'a Limits,
    pub time: TimeManager,
    /// Set when any stop condition is met; every thread polls it at every node, so it has
    /// a cache line of its own that nothing writes until the search ends.
    pub abort: CacheLine<AtomicBool>,
    /// Nodes searched, one counter per thread, each on its own line.
    pub nodes: Vec<CacheLine<AtomicU64>>,
    pub multipv: usize,
    /// More search threads than the machine has cores.
    pub oversubscribed: bool,
    /// The endgame tablebases, if any.
    pub tb: Option<&'a crate::tb::Tablebases>,
    /// Nodes answered by the tablebases (off the line of `abort`: every thread adds to it).
    pub tbhits: CacheLine<AtomicU64>,
    /// The net to evaluate with, or None for the classical evaluation.
    pub network: Option<Arc<Network>>,
    /// The settings of this search, copied when it started.
    pub params: SearchParams,
    /// Test builds: when set, every make, unmake and evaluation asserts that the
    /// accumulators equal a refresh (`Worker::verify_accumulators`) and counts here.
    #[cfg(test)]
    pub accumulator_checks: Option<Arc<AtomicU64>>,
}

/// A value alone on its cache line, so that threads writing their neighbours' values do
/// not invalidate it (false sharing).
#[repr(align(64))]
#[derive(Default)]
pub(super) struct CacheLine<T>(pub T);

impl<T> std::ops::Deref for CacheLine<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
    }

    /// Root move `rm` as line `multipv` of an iteration of `depth`, for the host.
    pub fn line_info(&self, rm: &RootMove, multipv: usize, depth: i32, value: i32, bound: Bound, nodes: u64) -> Info {
        Info {
            depth: depth as u32,
            seldepth: rm.sel_depth.max(1) as u32,
            multipv,
            value,
            bound,
            nodes,
            time: self.time.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tbhits.load(Ordering::Relaxed),
            pv: rm.pv.clone(),
        }
    }
}

/// A root move with the results of its latest search.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    pub value: i32,
    pub prev_value: i32,
    pub sel_depth: usize,
    pub pv: Vec<Move>,
}

/// Per-ply state of the search.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub static_eval: i32,
    pub killers: [Move; 2],
    pub piece_to: Option<PieceTo>,
    pub excluded: Move,
}

impl Default for Frame {
    fn default() -> Self {
        Frame { static_eval: VALUE_NONE, killers: [Move::NONE; 2], piece_to: None, excluded: Move::NONE }
    }
}

/// Counts of root events over one search: how often an aspiration window failed and the
/// best move changed. They show where a helper's table entries make the main thread search
/// again (`RUST_LOG=sitke::search=debug`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RootStats {
    /// Iterations searched again because the value reached beta.
    pub fail_highs: u32,
    /// Iterations searched again because the value fell to alpha.
    pub fail_lows: u32,
    /// Times a later root move beat the first one searched.
    pub best_changes: u32,
}

/// Offset of ply 0 in the stack, so that ply - 2 is always a valid index.
pub(super) const STACK_OFFSET: usize = 2;

/// One search thread.
pub(super) struct Worker<'a> {
    pub id: usize,
    pub pos: Position,
    pub hist: &'a mut Histories,
    pub shared: &'a Shared<'a>,
    pub stack: Vec<Frame>,
    pub pv: Vec<[Move; MAX_PLY + 1]>,
    pub pv_len: Vec<usize>,
    pub ply: usize,
    pub nodes: u64,
    pub seldepth: usize,
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    pub root_depth: i32,
    pub completed_depth: i32,
    /// A decaying count of best-move changes at the root; the main thread's time
    /// management gives itself more time while it is high.
    pub best_move_changes: f64,
    /// What this search did at the root, for the debug log (issue 32's diagnosis).
    pub root_stats: RootStats,
    pub reductions: &'a [[i32; 64]; 64],
    /// This thread's copy of the search's settings, read at every node (a copy of its own
    /// sits next to the rest of the thread's hot data).
    pub params: SearchParams,
    /// Move picker buffers lent to the nodes on the current path (last in, first out).
    /// Boxed so that lending one moves a pointer, not two kilobytes.
    #[allow(clippy::vec_box)]
    pub pick_pool: Vec<Box<super::movepick::PickBuffers>>,
    /// The net's accumulators along the current path, when the net evaluates.
    pub nnue: Option<AccumulatorStack>,
}

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        pos: Position,
        hist: &'a mut Histories,
        shared: &'a Shared<'a>,
        root_moves: Vec<Move>,
        reductions: &'a [[i32; 64]; 64],
    ) -> Worker<'a> {
        let nnue = shared.network.as_ref().map(|net| {
            let mut acc = AccumulatorStack::new(net.clone(), MAX_PLY + 4);
            acc.reset(&pos);
            acc
        });
        Worker {
            nnue,
            id,
            pos,
            hist,
            shared,
            stack: vec![Frame::default(); MAX_PLY + STACK_OFFSET + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            ply: 0,
            nodes: 0,
            seldepth: 0,
            root_moves: root_moves
                .into_iter()
                .map(|mv| RootMove {
                    mv,
                    value: -VALUE_INFINITE,
                    prev_value: -VALUE_INFINITE,
                    sel_depth: 0,
                    pv: vec![mv],
                })
                .collect(),
            pv_idx: 0,
            root_depth: 0,
            completed_depth: 0,
            best_move_changes: 0.0,
            root_stats: RootStats::default(),
            reductions,
            params: shared.params,
            pick_pool: Vec::with_capacity(MAX_PLY),
        }
    }

    /// The static evaluation of the current position, from the side to move's view: the
    /// net's when one is loaded, else the classical one.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        self.evaluate_by(crate::eval::evaluate_net, crate::eval::evaluate)
    }

    /// `evaluate` before the counting and 50-move clocks fade it: what the table keeps, to
    /// be faded by `clock_fade` at whatever node reads it back.
    #[inline]
    pub fn evaluate_unclocked(&self) -> i32 {
        self.evaluate_by(crate::eval::evaluate_net_unclocked, crate::eval::evaluate_unclocked)
    }

    /// Evaluates with `net` when a net is loaded (its accumulators checked first), else
    /// with `classical`.
    #[inline(always)]
    fn evaluate_by(&self, net: fn(&Position, &AccumulatorStack) -> i32, classical: fn(&Position) -> i32) -> i32 {
        match &self.nnue {
            Some(acc) => {
                self.verify_accumulators();
                debug_assert!(acc.matches_refresh(&self.pos), "accumulators out of step at {}", self.pos.fen());
                net(&self.pos, acc)
            }
            None => classical(&self.pos),
        }
    }

    /// Fades an unclocked evaluation by the current position's clocks.
    #[inline]
    pub fn clock_fade(&self, unclocked: i32) -> i32 {
        crate::eval::clock_fade(&self.pos, unclocked)
    }

    /// In test builds asked to (`Shared::accumulator_checks`), asserts in every profile
    /// that the accumulators equal a refresh of the current position, and counts the check;
    /// otherwise nothing (the debug check in `evaluate` stays for debug builds).
    #[inline(always)]
    pub fn verify_accumulators(&self) {
        #[cfg(test)]
        if let (Some(checks), Some(acc)) = (&self.shared.accumulator_checks, &self.nnue) {
            assert!(acc.matches_refresh(&self.pos), "accumulators out of step at {}", self.pos.fen());
            checks.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The frame of the current ply (or `back` plies before it).
    #[inline(always)]
    pub fn frame(&mut self, back: usize) -> &mut Frame {
        &mut self.stack[self.ply + STACK_OFFSET - back]
    }

    /// Whether this thread should unwind now. Every thread watches the stop command and
    /// the clock: with more threads than cores the main thread may wait a long time for a
    /// core, and the search must still stop on time.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            self.shared.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
            self.check_limits();
            // With more threads than cores, a thread that wakes (the input reader, the
            // protocol loop, a search thread that has seen `stop`) would wait for a core
            // behind all the searching ones: at 64 threads on 2 cores, `stop` took 124 ms
            // (median) to answer. Giving the core up every 1024 nodes brought it to 25 ms.
            if self.shared.oversubscribed {
                std::thread::yield_now();
            }
        }
        self.halted()
    }

    /// Whether the search is stopped, so the current iteration must unwind.
    #[inline(always)]
    pub fn halted(&self) -> bool {
        self.shared.abort.load(Ordering::Relaxed)
    }

    fn check_limits(&self) {
        let sh = self.shared;
        // The clock stops the search even before an iteration has finished: a move from a
        // partial first iteration (or the first legal move) beats a loss on time. It never
        // stops a search that is pondering.
        if sh.control.stopped() || (!sh.control.pondering() && sh.time.hard_limit_reached()) {
            sh.abort.store(true, Ordering::Relaxed);
            return;
        }
        // The node limit is the main thread's, once an iteration is done, so that `go nodes`
        // at one thread gives the same search every time.
        if self.id == 0
            && let Some(n) = sh.limits.nodes
            && self.completed_depth >= 1
            && self.node_total() >= n
        {
            sh.abort.store(true, Ordering::Relaxed);
        }
    }

    fn node_total(&self) -> u64 {
        if self.shared.nodes.len() == 1 { self.nodes } else { self.shared.total_nodes() }
    }

    /// Iterative deepening; `report` receives progress (main thread only).
    pub fn iterate(&mut self, report: &mut dyn FnMut(&Info)) {
        // A depth limit is the main thread's: a helper that reached it first and stopped
        // would leave its core idle while the main thread finishes; going deeper, it fills
        // the table with what the main thread is about to need.
        let max_depth = match self.shared.limits.depth {
            Some(d) if self.id == 0 => (d as i32).clamp(1, MAX_PLY as i32 - 4),
            _ => MAX_PLY as i32 - 4,
        };
        let multipv = self.shared.multipv.min(self.root_moves.len()).max(1);
        let mut last_best = Move::NONE;
        let mut stable_iterations = 0;
        for depth in 1..=max_depth {
            self.root_depth = depth;
            self.best_move_changes *= 0.5;
            for rm in self.root_moves.iter_mut() {
                rm.prev_value = rm.value;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                if !self.aspiration(depth, report) {
                    break;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.value));
            }
            if self.shared.abort.load(Ordering::Relaxed) {
                break;
            }
            self.completed_depth = depth;
            if self.id == 0 {
                self.report_lines(depth, Bound::Exact, report);
                if self.main_thread_done(depth, &mut last_best, &mut stable_iterations) {
                    break;
                }
            }
        }
        self.shared.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
        let st = self.root_stats;
        log::debug!(
            "thread {}: completed depth {}, nodes {}, aspiration fail-highs {}, fail-lows {}, best-move changes {}",
            self.id,
            self.completed_depth,
            self.nodes,
            st.fail_highs,
            st.fail_lows,
            st.best_changes
        );
        if self.id == 0 {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
    }

    /// One iteration for the current MultiPV line; false if the search was stopped.
    fn aspiration(&mut self, depth: i32, report: &mut dyn FnMut(&Info)) -> bool {
        let prev = self.root_moves[self.pv_idx].prev_value;
        let mut delta = self.params.ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-VALUE_INFINITE), (prev + delta).min(VALUE_INFINITE))
        } else {
            (-VALUE_INFINITE, VALUE_INFINITE)
        };
        loop {
            let value = self.search_root(alpha, beta, depth);
            // Stable sort keeps earlier lines in place when values tie.
            self.root_moves[self.pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.value));
            if self.halted() {
                return false;
            }
            if value <= alpha {
                self.root_stats.fail_lows += 1;
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-VALUE_INFINITE);
                if self.id == 0 && self.shared.time.elapsed() > Duration::from_secs(3) {
                    self.report_lines(depth, Bound::Upper, report);
                }
            } else if value >= beta {
                self.root_stats.fail_highs += 1;
                beta = (value + delta).min(VALUE_INFINITE);
                if self.id == 0 && self.shared.time.elapsed() > Duration::from_secs(3) {
                    self.report_lines(depth, Bound::Lower, report);
                }
            } else {
                return true;
            }
            delta += delta / 2;
        }
    }

    /// After an iteration: whether the main thread should stop deepening.
    fn main_thread_done(&mut self, depth: i32, last_best: &mut Move, stable: &mut i32) -> bool {
        let sh = self.shared;
        let best = &self.root_moves[0];
        if let Some(mate) = sh.limits.mate
            && best.value >= MATE_BOUND
            && (VALUE_MATE - best.value + 1) / 2 <= mate as i32
        {
            return true;
        }
        if sh.control.pondering() || !sh.limits.uses_time() {
            return false;
        }
        if sh.limits.movetime.is_some() {
            return false;
        }
        if best.mv == *last_best {
            *stable = (*stable + 1).min(10);
        } else {
            *stable = 0;
            *last_best = best.mv;
        }
        // A best move that keeps changing earns more time, a settled one less; so does a
        // falling score.
        let instability = 1.0 + self.best_move_changes;
        let stability = 1.3 - 0.06 * *stable as f64;
        let drop = (best.prev_value - best.value).clamp(0, 100) as f64 / 200.0;
        let factor = (instability * stability * (1.0 + drop)).clamp(0.4, 2.5);
        depth >= 2 && self.root_moves.len() == 1 || sh.time.soft_limit_reached(factor)
    }

    /// Sends the current lines to `report`.
    pub fn report_lines(&self, depth: i32, bound: Bound, report: &mut dyn FnMut(&Info)) {
        let sh = self.shared;
        let multipv = sh.multipv.min(self.root_moves.len()).max(1);
        let nodes = sh.total_nodes().max(self.nodes);
        for (i, rm) in self.root_moves.iter().take(multipv).enumerate() {
            let searched = i <= self.pv_idx || bound == Bound::Exact;
            let value = if rm.value == -VALUE_INFINITE || !searched { rm.prev_value } else { rm.value };
            if value == -VALUE_INFINITE {
                continue;
            }
            let line_bound = if i == self.pv_idx { bound } else { Bound::Exact };
            report(&sh.line_info(rm, i + 1, depth, value, line_bound, nodes));
        }
    }
}
