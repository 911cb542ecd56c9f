//! The work behind the loop: searches, `go perft` and `bench` run on a job thread of their
//! own, so the loop keeps reading stdin (`isready`, `stop`, `ponderhit`, `quit`) meanwhile.
//!
//! One job runs at a time. A search job reports its iterations as they come and exactly one
//! result to the `SearchOutput` its front-end gave it; when a `go infinite` or `go ponder`
//! search ends by itself (a depth cap, a mate), the job holds the result until `stop` (or
//! `ponderhit`) arrives, as UCI asks. Perft and bench hand their counts, as data, to the
//! front-end's callback. Nothing here writes protocol text: problems go to the `Report` as
//! typed `Notice`s.

use super::go::Go;
use super::notice::{Notice, Report};
use super::options::Options;
use crate::board::perft;
use crate::board::{Color, Move, Position, Rules};
use crate::eval::nnue::Network;
use crate::rng::Rng;
use crate::search::bench;
use crate::search::skill::Skill;
use crate::search::{Control, Info, SearchResult, Searcher};
use crate::tb::Tablebases;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
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
    /// Blocks until `done()` holds. On wasm nothing can notify: the signals are the host's,
    /// so it asks again after each pause (which the host ends early when one arrives).
    #[cfg(target_arch = "wasm32")]
    fn wait_until(&self, done: impl Fn() -> bool) {
        while !done() {
            crate::host::pause(Duration::from_millis(20));
        }
    }

    fn notify(&self) {
        drop(lock(&self.lock));
        self.cv.notify_all();
    }

    /// Blocks until `done()` holds (re-checked at least every 50 ms as a safety net).
    #[cfg(not(target_arch = "wasm32"))]
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
    /// The tables `TablebasePath` opened (their files are read when a search first needs
    /// them); None without a path.
    tablebases: Option<Arc<Tablebases>>,
    /// Where jobs report what goes wrong.
    report: Arc<dyn Report>,
}

/// What `go perft` counted: the nodes under each legal move, and their sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCount {
    /// Each root move and the leaf count below it, in generation order.
    pub divide: Vec<(Move, u64)>,
    /// The leaf count of the whole tree (1 at depth 0).
    pub total: u64,
}

impl Engine {
    /// An idle engine with the default options' searcher, reporting to `report`.
    pub fn new(report: Arc<dyn Report>) -> Engine {
        let o = Options::default();
        Engine {
            searcher: Arc::new(Mutex::new(Searcher::new(o.hash_mb, o.threads))),
            control: Arc::new(Control::new()),
            wake: Arc::new(Wake::default()),
            job: None,
            active: Arc::new(AtomicBool::new(false)),
            clear_pending: false,
            network: crate::eval::nnue::embedded::network(),
            tablebases: None,
            report,
        }
    }

    /// Sends later notices, jobs' included, to `report` (a new front-end took over).
    pub fn set_report(&mut self, report: Arc<dyn Report>) {
        self.report = report;
    }

    /// Tells the host through the current front-end.
    pub fn notice(&self, notice: Notice) {
        self.report.notice(&notice);
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

    /// Stops a running search or perft at once and waits for it (a search reports its
    /// result); `bench` cannot be interrupted and is waited for.
    pub fn stop_and_join(&mut self) {
        if self.busy().is_some() {
            self.stop();
        }
        self.join();
    }

    /// Applies the options that live in the searcher: at once when idle, else before the
    /// next search. Fails when the hash table cannot be allocated.
    pub fn configure(&mut self, options: &Options) -> Result<(), Notice> {
        if self.busy().is_some() {
            return Ok(());
        }
        let mut s = lock(&self.searcher);
        apply_sizes(&mut s, options)
    }

    /// Loads the net in `path` for the next searches (the built-in net for an empty path).
    /// On failure the net loaded before stays, and the notice names the file and the problem.
    pub fn load_network(&mut self, path: &str) -> Result<&Network, Notice> {
        if path.is_empty() {
            self.network = crate::eval::nnue::embedded::network();
            return Ok(&self.network);
        }
        let net = Network::from_file(path).map_err(|e| Notice::EvalFile {
            file: path.to_string(),
            error: e.to_string(),
            kept: self.network.name().to_string(),
        })?;
        self.network = Arc::new(net);
        Ok(&self.network)
    }

    /// Opens the tables of `rules` under the folder `path` for the next searches (none for
    /// an empty path) and says what it found: how many tables the rule set's folder holds,
    /// or why there are none or the folder cannot be read (play goes on without tables then).
    pub fn set_tablebases(&mut self, path: &str, rules: &'static Rules) -> Notice {
        self.tablebases = None;
        if path.is_empty() {
            return Notice::TablebasesOff;
        }
        if let Err(e) = std::fs::read_dir(path) {
            return Notice::TablebasePath { dir: path.to_string(), error: e.to_string() };
        }
        if let Err(why) = crate::tb::buildable(rules) {
            return Notice::TablebasesNotForRules { rules, why: why.to_string() };
        }
        let tbs = Tablebases::new(path, rules);
        let tables = tbs.files();
        let dir = tbs.dir().display().to_string();
        if tables == 0 && !rules.is_default() {
            let why =
                format!("none in {dir} (`sitke tb generate --rules {} --dir {path}` makes them)", rules.short_name());
            return Notice::TablebasesNotForRules { rules, why };
        }
        self.tablebases = Some(Arc::new(tbs));
        Notice::Tablebases { tables, dir }
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
    /// (whose search still reports its own result: one per search). Returns whether the
    /// search started (a thread that cannot start is reported).
    pub fn start_search(&mut self, pos: Position, go: Go, options: &Options, out: Arc<dyn SearchOutput>) -> bool {
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
            tablebases: self.tablebases.clone(),
            out,
            report: Arc::clone(&self.report),
            active: Arc::clone(&self.active),
        };
        self.spawn(kind, move || job.run(pos, go))
    }

    /// Starts `go perft depth` on the job thread; `stop` interrupts it (reported as a
    /// notice). The count goes to `done`.
    pub fn start_perft(
        &mut self,
        pos: Position,
        depth: u32,
        threads: usize,
        done: impl FnOnce(PerftCount) + Send + 'static,
    ) {
        self.stop_and_join();
        self.control.reset();
        let control = Arc::clone(&self.control);
        let active = Arc::clone(&self.active);
        let report = Arc::clone(&self.report);
        self.spawn(JobKind::Perft, move || {
            match perft::divide_parallel_until(&pos, depth, threads, &|| control.stopped())
                .inspect(|_| active.store(false, Ordering::SeqCst))
            {
                Some(divide) => {
                    let total: u64 = if depth == 0 { 1 } else { divide.iter().map(|(_, n)| n).sum() };
                    done(PerftCount { divide, total });
                }
                None => report.notice(&Notice::PerftStopped { depth }),
            }
        });
    }

    /// Starts `bench` on the job thread, with the evaluation the options choose; its
    /// result (what `sitke bench` prints) goes to `done`.
    pub fn start_bench(
        &mut self,
        depth: u32,
        threads: usize,
        hash_mb: usize,
        options: &Options,
        done: impl FnOnce(&bench::BenchResult) + Send + 'static,
    ) {
        self.stop_and_join();
        let active = Arc::clone(&self.active);
        let network = self.evaluation(options);
        self.spawn(JobKind::Bench, move || {
            let result = bench::run(depth, threads, hash_mb, network);
            active.store(false, Ordering::SeqCst);
            done(&result);
        });
    }

    /// Runs `f` as the job: on a thread of its own natively; on wasm, which has one thread,
    /// to its end before returning (the host delivers `stop` and `ponderhit` meanwhile).
    fn spawn(&mut self, kind: JobKind, f: impl FnOnce() + Send + 'static) -> bool {
        self.join();
        #[cfg(target_arch = "wasm32")]
        {
            let _ = kind;
            self.active.store(true, Ordering::SeqCst);
            f();
            self.active.store(false, Ordering::SeqCst);
            true
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.spawn_thread(kind, f)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn spawn_thread(&mut self, kind: JobKind, f: impl FnOnce() + Send + 'static) -> bool {
        self.active.store(true, Ordering::SeqCst);
        let name = format!("{kind:?}").to_lowercase();
        match std::thread::Builder::new().name(name).stack_size(JOB_STACK).spawn(f) {
            Ok(h) => {
                self.job = Some((kind, h));
                true
            }
            Err(e) => {
                self.active.store(false, Ordering::SeqCst);
                self.notice(Notice::NoThread(e.to_string()));
                false
            }
        }
    }
}

/// Sets the table size and the thread count, refusing a table the machine cannot hold.
fn apply_sizes(s: &mut Searcher, o: &Options) -> Result<(), Notice> {
    if s.threads() != o.threads {
        s.set_threads(o.threads);
    }
    if s.hash_mb() != o.hash_mb {
        // Allocating more than the machine has would get the process killed mid-game.
        if let Some(avail) = available_mb()
            && o.hash_mb as u64 > (avail + s.hash_mb() as u64).saturating_sub(256)
        {
            return Err(Notice::HashTooLarge { asked: o.hash_mb, available: avail, kept: s.hash_mb() });
        }
        s.set_hash(o.hash_mb);
    }
    Ok(())
}

/// What a wasm module may still allocate, in MiB: a failed allocation there is a trap that
/// ends the engine, so `Hash` must be refused before it.
#[cfg(target_arch = "wasm32")]
fn available_mb() -> Option<u64> {
    Some(crate::host::memory_left_mb())
}

/// Memory available to new allocations in MiB, where the system says (Linux).
#[cfg(not(target_arch = "wasm32"))]
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
    tablebases: Option<Arc<Tablebases>>,
    out: Arc<dyn SearchOutput>,
    report: Arc<dyn Report>,
    active: Arc<AtomicBool>,
}

impl SearchJob {
    fn run(self, pos: Position, go: Go) {
        let o = &self.options;
        let infinite = go.limits.infinite;
        // Analysis wants the engine's real opinion; a weakened player is for games.
        let skill =
            if infinite || o.analyse_mode { None } else { Skill::from_options(o.skill_level, o.limit_strength, o.elo) };
        let mut limits = go.limits;
        if let Some(sk) = skill {
            limits.nodes = Some(limits.nodes.map_or(sk.node_limit(), |n| n.min(sk.node_limit())));
        }
        let shown = o.multipv;
        let outcome = {
            let mut s = lock(&self.searcher);
            if let Err(e) = apply_sizes(&mut s, o) {
                self.report.notice(&e);
            }
            s.set_network(self.network);
            s.set_tablebases(self.tablebases);
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
                self.report.notice(&Notice::SearchFailed);
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
