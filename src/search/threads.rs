//! The searcher: owns the transposition table and each thread's statistics, and runs a
//! Lazy SMP search: every thread searches the same root with the shared table and watches
//! the clock; the main thread reports progress and the threads' results are combined by a
//! vote.

use super::history::Histories;
use super::params::SearchParams;
use super::pvs::reduction_table;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::worker::{CacheLine, Shared, Worker};
use super::{Control, Info, Limits, Line, SearchResult, VALUE_INFINITE};
use crate::board::{Move, Position};
use crate::eval::nnue::Network;
use crate::host::Instant;
use crate::tb::Tablebases;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The engine's search: hash table, threads and options, kept between searches.
pub struct Searcher {
    tt: TranspositionTable,
    hash_mb: usize,
    histories: Vec<Histories>,
    /// Lines to search and report (MultiPV).
    pub multipv: usize,
    /// Time kept in reserve on every move for the host's latency.
    pub move_overhead: Duration,
    /// The endgame tablebases probed at nodes of four men or fewer.
    tb: Option<Arc<Tablebases>>,
    network: Option<Arc<Network>>,
    /// The settings (switches and constants) each search copies when it starts.
    pub params: SearchParams,
    /// Test builds: set to check the accumulators at every make, unmake and evaluation
    /// (`Worker::verify_accumulators`), counting the checks.
    #[cfg(test)]
    pub(super) accumulator_checks: Option<Arc<std::sync::atomic::AtomicU64>>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(16, 1)
    }
}

impl Searcher {
    /// A searcher with a `hash_mb` MiB table and `threads` threads that evaluates with the
    /// built-in net, as the engine does unless told otherwise (`Use NNUE` is on by default).
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        let mut s = Searcher::classical(hash_mb, threads);
        s.network = Some(crate::eval::nnue::embedded::network());
        s
    }

    /// A searcher like `new` that evaluates classically: the engine's fallback, used with
    /// `Use NNUE` off, `bench --classical` and `datagen --classical`.
    pub fn classical(hash_mb: usize, threads: usize) -> Searcher {
        let mut s = Searcher {
            tt: TranspositionTable::new(hash_mb),
            hash_mb,
            histories: Vec::new(),
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            tb: None,
            network: None,
            params: SearchParams::default(),
            #[cfg(test)]
            accumulator_checks: None,
        };
        s.set_threads(threads);
        s
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash(&mut self, mb: usize) {
        if mb != self.hash_mb {
            self.tt = TranspositionTable::new(mb);
            self.hash_mb = mb;
        }
    }

    /// The table size in MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Sets the number of search threads (at least 1; exactly 1 where the platform has no
    /// threads, as on wasm32).
    pub fn set_threads(&mut self, n: usize) {
        let n = if cfg!(target_arch = "wasm32") { 1 } else { n.max(1) };
        self.histories.resize_with(n, Histories::default);
    }

    /// Evaluates with `net` from the next search on, or classically with None. The table
    /// is cleared: it holds static evaluations of the other kind.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        let same = match (&self.network, &net) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.network = net;
            self.tt.clear();
        }
    }

    /// The net the search evaluates with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.histories.len()
    }

    /// Forgets everything learned: the table and the move-ordering statistics.
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in self.histories.iter_mut() {
            h.clear();
        }
    }

    /// Uses these endgame tablebases from the next search on (None: none).
    pub fn set_tablebases(&mut self, tb: Option<Arc<Tablebases>>) {
        self.tb = tb;
    }

    /// The endgame tablebases in use.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tb.as_ref()
    }

    /// Permille of the table used by the latest search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` within `limits`; progress goes to `report` from the calling thread.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let legal = pos.legal_moves();
        let mut root: Vec<Move> = legal.iter().copied().filter(|m| limits.searchmoves.contains(m)).collect();
        if root.is_empty() {
            root = legal.to_vec();
        }
        if let Some(tb) = &self.tb {
            super::tbprobe::filter_root(tb, pos, &mut root);
        }
        if root.is_empty() {
            return SearchResult {
                best: Move::NONE,
                ponder: Move::NONE,
                value: if pos.in_check() { -super::VALUE_MATE } else { 0 },
                depth: 0,
                nodes: 0,
                lines: Vec::new(),
            };
        }
        self.tt.new_search();
        let params = self.params;
        let reductions = reduction_table(&params);
        let threads = self.histories.len();
        let shared = Shared {
            tt: &self.tt,
            control,
            limits,
            time: TimeManager::new(limits, pos.side_to_move(), pos.game_ply(), self.move_overhead, start),
            abort: CacheLine(AtomicBool::new(false)),
            nodes: (0..threads).map(|_| CacheLine::default()).collect(),
            multipv: self.multipv.max(1),
            oversubscribed: threads > machine_cores(),
            tb: self.tb.as_deref(),
            tbhits: CacheLine::default(),
            network: self.network.clone(),
            params,
            #[cfg(test)]
            accumulator_checks: self.accumulator_checks.clone(),
        };
        let (main_hist, helper_hists) = self.histories.split_first_mut().expect("at least one thread");
        let mut last_reported = None;
        let outcomes: Vec<(Vec<super::worker::RootMove>, i32)> = std::thread::scope(|scope| {
            let handles: Vec<_> = helper_hists
                .iter_mut()
                .enumerate()
                .map(|(i, hist)| {
                    let (shared, reductions, root, pos) = (&shared, &reductions, root.clone(), pos.clone());
                    scope.spawn(move || {
                        let mut w = Worker::new(i + 1, pos, hist, shared, root, reductions);
                        w.iterate(&mut |_| {});
                        (w.root_moves, w.completed_depth)
                    })
                })
                .collect();
            let mut main = Worker::new(0, pos.clone(), main_hist, &shared, root.clone(), &reductions);
            main.iterate(&mut |info: &Info| {
                if info.multipv == 1 {
                    last_reported = info.pv.first().copied();
                }
                report(info)
            });
            let main_done = start.elapsed();
            let mut all = vec![(main.root_moves, main.completed_depth)];
            for h in handles {
                // A helper that panicked must not take the engine down: its result is dropped.
                if let Ok(r) = h.join() {
                    all.push(r);
                }
            }
            log::debug!(
                "search of {threads} threads: main thread done at {main_done:?}, helpers joined at {:?}",
                start.elapsed()
            );
            all
        });
        let best_idx = vote(&outcomes);
        let (rms, depth) = &outcomes[best_idx];
        let multipv = self.multipv.max(1).min(rms.len());
        // The host's last `info` must show the line behind `bestmove`: when the vote chose
        // a helper, or a stopped iteration changed the main thread's move, the lines go out
        // again.
        if last_reported != Some(rms[0].mv) {
            for (i, rm) in rms.iter().take(multipv).enumerate().filter(|(_, rm)| rm.value != -VALUE_INFINITE) {
                report(&shared.line_info(rm, i + 1, *depth, rm.value, super::Bound::Exact, shared.total_nodes()));
            }
        }
        let best = &rms[0];
        let mut ponder = best.pv.get(1).copied().unwrap_or(Move::NONE);
        if ponder == Move::NONE {
            ponder = self.ponder_from_tt(pos, best.mv);
        }
        SearchResult {
            best: best.mv,
            ponder,
            value: best.value,
            depth: *depth as u32,
            nodes: shared.total_nodes(),
            lines: rms
                .iter()
                .take(multipv)
                .filter(|rm| rm.value != -VALUE_INFINITE)
                .map(|rm| Line { value: rm.value, pv: rm.pv.clone() })
                .collect(),
        }
    }

    /// A reply to expect after `best`, from the table, when the PV stops at one move.
    fn ponder_from_tt(&self, pos: &Position, best: Move) -> Move {
        let mut p = pos.clone();
        p.do_move(best);
        match self.tt.probe(p.key(), 1) {
            Some(e) if p.is_legal(e.mv) => e.mv,
            _ => Move::NONE,
        }
    }
}

/// The cores this process may use, asked once: the answer reads the cgroup's files, which
/// `go` need not do every move.
fn machine_cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Picks the thread whose best move has the most support: each thread votes for its move
/// with a weight that grows with its depth and score.
fn vote(outcomes: &[(Vec<super::worker::RootMove>, i32)]) -> usize {
    if outcomes.len() == 1 {
        return 0;
    }
    let min_value = outcomes.iter().map(|(rm, _)| rm[0].value).filter(|&v| v != -VALUE_INFINITE).min().unwrap_or(0);
    let weight = |(rm, depth): &(Vec<super::worker::RootMove>, i32)| -> i64 {
        if rm[0].value == -VALUE_INFINITE || *depth == 0 {
            return 0;
        }
        (rm[0].value - min_value + 14) as i64 * *depth as i64
    };
    let mut best = 0;
    let mut best_votes = i64::MIN;
    for (i, o) in outcomes.iter().enumerate() {
        if o.1 == 0 {
            continue;
        }
        let votes: i64 = outcomes.iter().filter(|p| p.0[0].mv == o.0[0].mv).map(weight).sum();
        if votes > best_votes || (votes == best_votes && o.1 > outcomes[best].1) {
            best_votes = votes;
            best = i;
        }
    }
    best
}
