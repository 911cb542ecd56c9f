//! The work behind the loop: searches, `go perft` and `bench` run on a job thread of their
//! own, so the loop keeps reading stdin (`isready`, `stop`, `ponderhit`, `quit`) meanwhile.
//!
//! One job runs at a time. A search job prints its `info` lines as they come and exactly one
//! `bestmove`; when a `go infinite` or `go ponder` search ends by itself (a depth cap, a
//! mate), the job holds the `bestmove` until `stop` (or `ponderhit`) arrives, as UCI asks.

use super::Dialect;
use super::go::Go;
use super::options::{ELO_RANGE, Options};
use super::output::{InfoStyle, bestmove_line, info_line, send};
use crate::board::perft;
use crate::board::{Color, Move, Position};
use crate::eval::nnue::Network;
use crate::rng::Rng;
use crate::search::bench;
use crate::search::skill::Skill;
use crate::search::{Control, Info, SearchResult, Searcher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// Stack for the job thread: the search recurses up to MAX_PLY with sizeable frames.
const JOB_STACK: usize = 16 << 20;

/// What the job thread is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// A search that ends with `bestmove`.
    Search {
        /// `go infinite` or a `go` without limits: only `stop` ends it.
        unbounded: bool,
        /// `go ponder`: only `stop` or `ponderhit` ends it while it ponders.
        ponder: bool,
    },
    /// `go perft N` (ends by itself, or on `stop`).
    Perft,
    /// `bench` (ends by itself).
    Bench,
}

/// A wake-up call for a job that holds its `bestmove`: the flags live in `Control`; the
/// mutex only orders the check against the notification so no wake-up is lost.
#[derive(Default)]
struct Wake {
    lock: Mutex<()>,
    cv: Condvar,
}

impl Wake {
    fn notify(&self) {
        drop(lock(&self.lock));
        self.cv.notify_all();
    }

    /// Blocks until `done()` holds (re-checked at least every 50 ms as a safety net).
    fn wait_until(&self, done: impl Fn() -> bool) {
        let mut guard = lock(&self.lock);
        while !done() {
            guard = match self.cv.wait_timeout(guard, Duration::from_millis(50)) {
                Ok((g, _)) => g,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

/// Locks a mutex even if a panicking thread poisoned it: the data behind our mutexes stays
/// valid (a search that panicked leaves the table usable), and refusing service is worse.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The searcher and the job thread.
pub struct Engine {
    searcher: Arc<Mutex<Searcher>>,
    control: Arc<Control>,
    wake: Arc<Wake>,
    job: Option<(JobKind, JoinHandle<()>)>,
    /// True while a job has work to do; a job clears it just before its last line, so a
    /// host that answers that line at once (the next `go`) never finds the engine busy.
    active: Arc<AtomicBool>,
    /// Set by `Clear Hash` or `ucinewgame` while a job runs: the next search clears first.
    clear_pending: bool,
    /// The net: the built-in one, or the one `EvalFile` loaded; used while `Use NNUE` is on.
    network: Arc<Network>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An idle engine with the default options' searcher.
    pub fn new() -> Engine {
        let o = Options::default();
        Engine {
            searcher: Arc::new(Mutex::new(Searcher::new(o.hash_mb, o.threads))),
            control: Arc::new(Control::new()),
            wake: Arc::new(Wake::default()),
            job: None,
            active: Arc::new(AtomicBool::new(false)),
            clear_pending: false,
            network: crate::eval::nnue::embedded::network(),
        }
    }

    /// The running job, if any (a finished one is reaped).
    pub fn busy(&mut self) -> Option<JobKind> {
        if let Some((_, h)) = &self.job
            && (h.is_finished() || !self.active.load(Ordering::SeqCst))
        {
            self.join();
        }
        self.job.as_ref().map(|(k, _)| *k)
    }

    /// Waits for the running job to end.
    pub fn join(&mut self) {
        if let Some((_, h)) = self.job.take() {
            // A job that panicked has already reported what it could; the loop goes on.
            let _ = h.join();
        }
    }

    /// Asks a running search to stop; it prints its `bestmove` shortly.
    pub fn stop(&self) {
        self.control.stop();
        self.wake.notify();
    }

    /// The opponent played the expected move: the ponder search goes on under the clock.
    pub fn ponderhit(&self) {
        self.control.set_pondering(false);
        self.wake.notify();
    }

    /// Whether the running job would wait for `stop` forever: `go infinite`, a `go` without
    /// limits, or a ponder search before `ponderhit` (after it the clock ends it).
    pub fn open_ended(&mut self) -> bool {
        match self.busy() {
            Some(JobKind::Search { unbounded, ponder }) => unbounded || (ponder && self.control.pondering()),
            _ => false,
        }
    }

    /// Waits for the running job to end by itself; a search that would wait for `stop`
    /// forever is stopped first. Returns whether it stopped one.
    pub fn finish(&mut self) -> bool {
        let open = self.open_ended();
        if open {
            self.stop();
        }
        self.join();
        open
    }

    /// Stops a running search or perft at once and waits for it (a search prints its
    /// `bestmove`); `bench` cannot be interrupted and is waited for.
    pub fn stop_and_join(&mut self) {
        if self.busy().is_some() {
            self.stop();
        }
        self.join();
    }

    /// Applies the options that live in the searcher: at once when idle, else before the
    /// next search. Returns an error message when the hash table cannot be allocated.
    pub fn configure(&mut self, options: &Options) -> Result<(), String> {
        if self.busy().is_some() {
            return Ok(());
        }
        let mut s = lock(&self.searcher);
        apply_sizes(&mut s, options)
    }

    /// Loads the net in `path` for the next searches (the built-in net for an empty path).
    /// On failure the net loaded before stays, and the error names the file and the problem.
    pub fn load_network(&mut self, path: &str) -> Result<&Network, String> {
        if path.is_empty() {
            self.network = crate::eval::nnue::embedded::network();
            return Ok(&self.network);
        }
        let kept = format!("keeping {}", self.network.name());
        let net = Network::from_file(path).map_err(|e| format!("EvalFile {path}: {e}; {kept}"))?;
        self.network = Arc::new(net);
        Ok(&self.network)
    }

    /// The net in use while `Use NNUE` is on.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The evaluation `options` choose for a search: the net while `Use NNUE` is on, else
    /// None (the classical evaluation).
    fn evaluation(&self, options: &Options) -> Option<Arc<Network>> {
        options.use_nnue.then(|| Arc::clone(&self.network))
    }

    /// Clears the hash table and the search statistics (now, or before the next search).
    pub fn clear(&mut self) {
        if self.busy().is_some() {
            self.clear_pending = true;
        } else {
            lock(&self.searcher).clear();
            self.clear_pending = false;
        }
    }

    /// Starts a search of `pos` that reports to `out`, first stopping any running job
    /// (whose search still reports its own result: one per search).
    pub fn start_search(&mut self, pos: Position, go: Go, options: &Options, out: Arc<dyn SearchOutput>) {
        // The control is shared with the running search: it must be over before a reset.
        self.stop_and_join();
        self.control.reset();
        let l = &go.limits;
        // A `go` with no limit runs until `stop` as surely as `go infinite` does; so does one
        // that gives only the other side's clock (the time manager plans with ours).
        let own_clock = match pos.side_to_move() {
            Color::White => l.wtime,
            Color::Black => l.btime,
        };
        let bounded = l.movetime.is_some() || own_clock.is_some() || l.depth.is_some() || l.nodes.is_some();
        let kind = JobKind::Search { unbounded: l.infinite || !(bounded || l.mate.is_some()), ponder: go.ponder };
        self.control.set_pondering(go.ponder);
        let job = SearchJob {
            searcher: Arc::clone(&self.searcher),
            control: Arc::clone(&self.control),
            wake: Arc::clone(&self.wake),
            options: options.clone(),
            clear_first: std::mem::take(&mut self.clear_pending),
            network: self.evaluation(options),
            out,
            active: Arc::clone(&self.active),
        };
        self.spawn(kind, move || job.run(pos, go));
    }

    /// Starts `go perft depth` on the job thread; `stop` interrupts it.
    pub fn start_perft(&mut self, pos: Position, depth: u32, threads: usize, dialect: Dialect) {
        self.stop_and_join();
        self.control.reset();
        let control = Arc::clone(&self.control);
        let active = Arc::clone(&self.active);
        self.spawn(JobKind::Perft, move || {
            match perft::divide_parallel_until(&pos, depth, threads, &|| control.stopped())
                .inspect(|_| active.store(false, Ordering::SeqCst))
            {
                Some(results) => {
                    let mut text = String::new();
                    for (m, n) in &results {
                        text.push_str(&format!("{}: {n}\n", super::usi::move_text(*m, dialect)));
                    }
                    let total: u64 = if depth == 0 { 1 } else { results.iter().map(|(_, n)| n).sum() };
                    text.push_str(&format!("\nNodes searched: {total}\n"));
                    send(&text);
                }
                None => super::output::info_string(&format!("perft {depth} stopped before it finished")),
            }
        });
    }

    /// Starts `bench` on the job thread, with the evaluation the options choose; it prints
    /// what `sitke bench` prints.
    pub fn start_bench(&mut self, depth: u32, threads: usize, hash_mb: usize, options: &Options) {
        self.stop_and_join();
        let active = Arc::clone(&self.active);
        let network = self.evaluation(options);
        self.spawn(JobKind::Bench, move || {
            let report = bench_report(&bench::run(depth, threads, hash_mb, network));
            active.store(false, Ordering::SeqCst);
            send(&report);
        });
    }

    fn spawn(&mut self, kind: JobKind, f: impl FnOnce() + Send + 'static) {
        self.join();
        self.active.store(true, Ordering::SeqCst);
        let name = format!("{kind:?}").to_lowercase();
        match std::thread::Builder::new().name(name).stack_size(JOB_STACK).spawn(f) {
            Ok(h) => self.job = Some((kind, h)),
            Err(e) => {
                self.active.store(false, Ordering::SeqCst);
                super::output::info_string(&format!("error: cannot start a thread: {e}"));
            }
        }
    }
}

/// The lines `bench` prints, the same as the `sitke bench` subcommand's.
pub fn bench_report(r: &bench::BenchResult) -> String {
    format!("Total time (ms) : {}\nNodes searched  : {}\nNodes/second    : {}\n", r.time.as_millis(), r.nodes, r.nps())
}

/// Sets the table size and the thread count, refusing a table the machine cannot hold.
fn apply_sizes(s: &mut Searcher, o: &Options) -> Result<(), String> {
    if s.threads() != o.threads {
        s.set_threads(o.threads);
    }
    if s.hash_mb() != o.hash_mb {
        // Allocating more than the machine has would get the process killed mid-game.
        if let Some(avail) = available_mb()
            && o.hash_mb as u64 > (avail + s.hash_mb() as u64).saturating_sub(256)
        {
            return Err(format!(
                "error: Hash {} MiB does not fit in memory ({avail} MiB available); keeping {} MiB",
                o.hash_mb,
                s.hash_mb()
            ));
        }
        s.set_hash(o.hash_mb);
    }
    Ok(())
}

/// Opens the tablebases at `path` for the searcher when the path changed; the files are read
/// when a search first needs them.
fn apply_tablebases(s: &mut Searcher, path: &str) {
    let current = s.tablebases().map(|t| t.dir().to_path_buf());
    if current.as_deref() != Some(std::path::Path::new(path)) && !(path.is_empty() && current.is_none()) {
        let tb = (!path.is_empty()).then(|| Arc::new(crate::tb::Tablebases::new(path)));
        s.set_tablebases(tb);
    }
}

/// What `setoption name TablebasePath` reports: how many tables the folder holds, or why
/// it cannot be used (play goes on without tablebases then).
pub fn tablebase_note(path: &str) -> String {
    if path.is_empty() {
        return "tablebases off".to_string();
    }
    match std::fs::read_dir(path) {
        Ok(entries) => {
            let ext = format!(".{}", crate::tb::file::EXTENSION);
            let n = entries.filter_map(|e| e.ok()).filter(|e| e.file_name().to_string_lossy().ends_with(&ext)).count();
            format!("tablebases: {n} tables in {path} (each read when first needed)")
        }
        Err(e) => format!("error: TablebasePath {path}: {e}; playing without tablebases"),
    }
}

/// Memory available to new allocations in MiB, where the system says (Linux).
fn available_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Everything a search job needs, moved onto the job thread.
struct SearchJob {
    searcher: Arc<Mutex<Searcher>>,
    control: Arc<Control>,
    wake: Arc<Wake>,
    options: Options,
    clear_first: bool,
    network: Option<Arc<Network>>,
    out: Arc<dyn SearchOutput>,
    active: Arc<AtomicBool>,
}

impl SearchJob {
    fn run(self, pos: Position, go: Go) {
        let o = &self.options;
        let infinite = go.limits.infinite;
        // Analysis wants the engine's real opinion; a weakened player is for games.
        let skill = if infinite || o.analyse_mode {
            None
        } else {
            Skill::from_options(o.skill_level, o.limit_strength, o.elo, ELO_RANGE)
        };
        let mut limits = go.limits;
        if let Some(sk) = skill {
            limits.nodes = Some(limits.nodes.map_or(sk.node_limit(), |n| n.min(sk.node_limit())));
        }
        let shown = o.multipv;
        let outcome = {
            let mut s = lock(&self.searcher);
            if let Err(e) = apply_sizes(&mut s, o) {
                super::output::info_string(&e);
            }
            s.set_network(self.network);
            apply_tablebases(&mut s, &o.tablebase_path);
            if self.clear_first {
                s.clear();
            }
            s.multipv = skill.map_or(o.multipv, |sk| sk.multipv().max(o.multipv));
            s.move_overhead = Duration::from_millis(o.move_overhead_ms);
            s.params = o.search;
            let control: &Control = &self.control;
            let mut report = |info: &Info| {
                // Lines searched only for the weak player's choice are not the host's business.
                if info.multipv <= shown {
                    self.out.info(info);
                }
            };
            catch_unwind(AssertUnwindSafe(|| s.search(&pos, &limits, control, &mut report)))
        };
        let (best, ponder) = match outcome {
            Ok(result) => choose(&result, skill),
            Err(_) => {
                // A bug in the search must not leave the host waiting for a move forever.
                super::output::info_string("error: the search failed; playing the first legal move");
                (pos.legal_moves().iter().next().copied().unwrap_or(Move::NONE), Move::NONE)
            }
        };
        // UCI: after `go infinite` or `go ponder` the move waits for `stop` (or `ponderhit`).
        let control = &self.control;
        self.wake.wait_until(|| control.stopped() || (!infinite && !control.pondering()));
        self.active.store(false, Ordering::SeqCst);
        self.out.done(&pos, best, ponder);
    }
}

/// Where a search job's results go: each protocol writes them in its own words.
pub trait SearchOutput: Send + Sync {
    /// One iteration's result for one of the lines the host asked for.
    fn info(&self, info: &Info);
    /// The search is over: the move to play (`Move::NONE` when `pos` has none) and the
    /// reply expected (or `Move::NONE`).
    fn done(&self, pos: &Position, best: Move, ponder: Move);
}

/// UCI's (and USI's) `info` and `bestmove` lines.
pub struct UciOutput {
    /// The notation and whether `wdl` is shown.
    pub style: InfoStyle,
}

impl SearchOutput for UciOutput {
    fn info(&self, info: &Info) {
        send(&info_line(info, self.style));
    }

    fn done(&self, pos: &Position, best: Move, ponder: Move) {
        if !best.is_some() {
            let score = if pos.in_check() { "mate 0" } else { "cp 0" };
            send(&format!("info depth 0 score {score}"));
        }
        send(&bestmove_line(best, ponder, self.style.dialect));
    }
}

/// The move to play and the reply to ponder on: the best line, or the weak player's pick.
fn choose(result: &SearchResult, skill: Option<Skill>) -> (Move, Move) {
    if let Some(sk) = skill
        && !result.lines.is_empty()
    {
        let i = sk.pick(&result.lines, Rng::from_clock().unit());
        let pv = &result.lines[i].pv;
        if let Some(&m) = pv.first() {
            return (m, pv.get(1).copied().unwrap_or(Move::NONE));
        }
    }
    (result.best, result.ponder)
}
