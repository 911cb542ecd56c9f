//! `sitke match`: an engine-vs-engine runner with Sittuyin adjudication, PGN output and
//! the SPRT, driven by a cutechess-cli command line.
//!
//! Workers (one per `-concurrency` slot) each own one process of each engine, reused
//! across games with `ucinewgame` and restarted when it dies. The main thread collects
//! finished games, prints cutechess-cli's lines, writes the PGN, keeps the statistics
//! (per game, and per game pair with `-repeat`) and stops the match once the SPRT decides.
//! With a ledger (`-ledger`), the statistics also count the match's earlier runs.

pub mod cli;
pub mod clock;
pub mod engine;
pub mod game;
pub mod ledger;
pub mod openings;
pub mod pgn;
pub mod record;
pub mod referee;
pub mod resume;
pub mod stats;
pub mod told;

use crate::board::Color;
use cli::MatchConfig;
use engine::Engine;
use game::{Adjudication, GameSpec};
use ledger::{Ledger, Run};
use openings::OpeningBook;
use record::GameRecord;
use resume::PlayedGame;
use stats::{EloEstimate, Pentanomial, Sample, SprtState, Wdl};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};

/// Consecutive failed restarts of one engine after which the match is given up.
const MAX_RESTART_FAILURES: u32 = 3;

/// What a worker tells the main thread.
enum Event {
    Started { number: u64, white: String, black: String },
    Finished(Box<GameRecord>),
    Fatal(String),
}

/// Writes a line of the match's report; a closed stdout (say, piped into `head`) is not
/// worth a panic, so write errors are ignored.
fn say(out: &mut dyn Write, line: &str) {
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// How the match went, for the caller.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Results from the first engine's point of view (with a ledger, of every run).
    pub wdl: Wdl,
    /// Completed game pairs (with `-repeat`; with a ledger, of every run).
    pub pairs: Pentanomial,
    /// The SPRT's verdict, if one ran.
    pub sprt: Option<SprtState>,
}

/// The running totals of a match.
struct Tally {
    first: String,
    second: String,
    total: Wdl,
    first_as: [Wdl; 2],
    white_view: Wdl,
    pairs: Pentanomial,
    pending: HashMap<u64, usize>,
    /// The earlier runs' games and pairs, from the ledger.
    earlier: (Wdl, Pentanomial),
}

impl Tally {
    fn add(&mut self, rec: &PlayedGame, paired: bool) {
        let half = rec.first_half_points;
        let bump = |w: &mut Wdl, half: usize| match half {
            2 => w.wins += 1,
            1 => w.draws += 1,
            _ => w.losses += 1,
        };
        bump(&mut self.total, half);
        let side = if rec.first_is_white { Color::White } else { Color::Black };
        bump(&mut self.first_as[side.index()], half);
        let white_half = if rec.first_is_white { half } else { 2 - half };
        bump(&mut self.white_view, white_half);
        if paired {
            let pair = (rec.number - 1) / 2;
            match self.pending.remove(&pair) {
                Some(other) => self.pairs.add(other + half),
                None => {
                    self.pending.insert(pair, half);
                }
            }
        }
    }

    fn score_line(label: &str, w: &Wdl) -> String {
        format!("{label}: {} - {} - {}  [{:.3}] {}", w.wins, w.losses, w.draws, w.score(), w.games())
    }

    /// This run's games and pairs with the earlier runs'.
    fn all(&self) -> (Wdl, Pentanomial) {
        let (mut wdl, mut pairs) = self.earlier;
        wdl.merge(&self.total);
        pairs.merge(&self.pairs);
        (wdl, pairs)
    }

    /// The sample the statistics work on, every run's: game pairs when openings are
    /// repeated.
    fn sample(&self, paired: bool) -> Sample {
        let (wdl, pairs) = self.all();
        if paired { pairs.sample() } else { wdl.sample() }
    }

    fn elo_line(&self, paired: bool) -> String {
        let (wdl, pairs) = self.all();
        // Until the first pair is complete, the single games are all there is to show.
        let paired = paired && pairs.pairs() > 0;
        let e = EloEstimate::from_sample(&self.sample(paired));
        let num = |x: f64| match format!("{x:.1}").to_lowercase() {
            // An even score is -400 * 0 = -0.0 in `score_to_elo`, and a hair under even
            // rounds to it: "-0.0" reads as a loss, so it prints as 0.0.
            s if s == "-0.0" => "0.0".to_string(),
            s => s,
        };
        format!(
            "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
            num(e.elo),
            num(e.margin),
            num(100.0 * e.los),
            num(100.0 * wdl.draw_ratio())
        )
    }
}

fn sprt_line(sprt: &stats::Sprt, llr: f64, state: SprtState) -> String {
    let (lower, upper) = (sprt.lower_bound(), sprt.upper_bound());
    // The share of the way to the bound the LLR is heading for.
    let percent = if llr >= 0.0 { 100.0 * llr / upper } else { -100.0 * llr / lower };
    let verdict = match state {
        SprtState::Continue => "",
        SprtState::AcceptH0 => " - H0 was accepted",
        SprtState::AcceptH1 => " - H1 was accepted",
    };
    format!("SPRT: llr {llr:.3} ({percent:.1}%), lbound {lower:.2}, ubound {upper:.2}{verdict}")
}

/// Plays games on one worker until the schedule runs out or the match stops.
struct Worker<'a> {
    cfg: &'a MatchConfig,
    book: &'a OpeningBook,
    /// The indices of the games still to play, taken in order through `next`.
    schedule: &'a [u64],
    next: &'a AtomicU64,
    stop: &'a AtomicBool,
    restart_failures: &'a [AtomicU32; 2],
    events: Sender<Event>,
}

impl Worker<'_> {
    fn run(&self, mut engines: [Option<Engine>; 2]) {
        let rules = Adjudication { resign: self.cfg.resign, draw: self.cfg.draw, maxmoves: self.cfg.maxmoves };
        let mut played = 0u64;
        while !self.stop.load(Ordering::Relaxed) {
            let Some(&index) = self.schedule.get(self.next.fetch_add(1, Ordering::Relaxed) as usize) else {
                break;
            };
            // Colours alternate; with -repeat both games of a pair share the opening.
            let first_is_white = index.is_multiple_of(2);
            let opening = self.book.get(if self.cfg.repeat { index / 2 } else { index });
            let spec = GameSpec { number: index + 1, opening: &opening, first_is_white, rules: self.cfg.rules };
            let [w, b] = if first_is_white { [0, 1] } else { [1, 0] };
            if let Some(k) = self.ensure_running(&mut engines, played) {
                let loser = if k == w { Color::White } else { Color::Black };
                let (wc, bc) = (&self.cfg.engines[w], &self.cfg.engines[b]);
                let rec = game::unplayed(&spec, wc, bc, loser);
                let _ = self.events.send(Event::Finished(Box::new(rec)));
                continue;
            }
            let [e0, e1] = &mut engines;
            let (Some(e0), Some(e1)) = (e0.as_mut(), e1.as_mut()) else {
                break;
            };
            let (white, black) = if first_is_white { (e0, e1) } else { (e1, e0) };
            let _ = self.events.send(Event::Started {
                number: spec.number,
                white: white.config.name.clone(),
                black: black.config.name.clone(),
            });
            match game::play(&spec, white, black, &rules, self.stop) {
                Some(rec) => {
                    let _ = self.events.send(Event::Finished(Box::new(rec)));
                }
                None => break,
            }
            played += 1;
            if !self.cfg.wait.is_zero() {
                std::thread::sleep(self.cfg.wait);
            }
        }
        for e in engines.into_iter().flatten() {
            e.quit();
        }
    }

    /// Restarts engines that died (or all, with `restart=on`, after the first game).
    /// Returns the index of an engine that could not be started.
    fn ensure_running(&self, engines: &mut [Option<Engine>; 2], played: u64) -> Option<usize> {
        for (k, slot) in engines.iter_mut().enumerate() {
            let cfg = &self.cfg.engines[k];
            let fresh = match slot {
                Some(e) => e.is_usable() && !(cfg.restart && played > 0),
                None => false,
            };
            if fresh {
                continue;
            }
            if let Some(old) = slot.take() {
                old.quit();
            }
            match Engine::start(cfg, &self.cfg.variant) {
                Ok(e) => {
                    *slot = Some(e);
                    self.restart_failures[k].store(0, Ordering::Relaxed);
                }
                Err(e) => {
                    let n = self.restart_failures[k].fetch_add(1, Ordering::Relaxed) + 1;
                    log::error!("could not restart engine '{}': {e}", cfg.name);
                    if n >= MAX_RESTART_FAILURES {
                        let _ = self.events.send(Event::Fatal(format!(
                            "engine '{}' failed to restart {n} times in a row: {e}",
                            cfg.name
                        )));
                        self.stop.store(true, Ordering::Relaxed);
                    }
                    return Some(k);
                }
            }
        }
        None
    }
}

/// Runs a match from `sitke match` arguments; prints the games and statistics to stdout.
pub fn run(args: &[String]) -> Result<Summary, String> {
    if args.iter().any(|a| a == "-referee") {
        referee::run_referee(args)?;
        return Ok(Summary::default());
    }
    let cfg = cli::parse(args)?;
    play(&cfg, &mut std::io::stdout())
}

/// Plays a match and writes cutechess-cli's lines to `out` (a sink silences them, as SPSA
/// does for its many small matches).
pub fn play(cfg: &MatchConfig, out: &mut dyn Write) -> Result<Summary, String> {
    let seed = cfg.srand.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.map_or(0, |d| d.as_nanos() as u64)
    });
    log::info!("seed {seed} (repeat the openings with -srand {seed})");
    log::info!("refereeing by the {} rules ({})", cfg.rules.short_name(), cfg.rules.title);
    let ledger = match &cfg.ledger {
        Some(path) => Some(Ledger::open(path, &cfg.setup)?),
        None => None,
    };
    // A run the ledger holds already is counted there: it plays nothing more.
    let counted = ledger.as_ref().is_some_and(|l| l.find(seed).is_some());
    let book = OpeningBook::load(&cfg.openings, seed, cfg.rules)?;
    let mut pgn_file = match &cfg.pgnout {
        Some((path, _)) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open PGN file {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let resumed = if cfg.resume && !counted { resume::load(cfg, &book)? } else { Vec::new() };
    let schedule: Vec<u64> = {
        let done: std::collections::HashSet<u64> = resumed.iter().map(|g| g.number - 1).collect();
        (0..cfg.total_games()).filter(|i| !done.contains(i) && !counted).collect()
    };
    let paired = cfg.repeat;
    let (first, second) = (cfg.engines[0].name.clone(), cfg.engines[1].name.clone());
    let mut tally = Tally {
        first: first.clone(),
        second: second.clone(),
        total: Wdl::default(),
        first_as: [Wdl::default(); 2],
        white_view: Wdl::default(),
        pairs: Pentanomial::default(),
        pending: HashMap::new(),
        earlier: ledger.as_ref().map(Ledger::totals).unwrap_or_default(),
    };
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let restart_failures = [AtomicU32::new(0), AtomicU32::new(0)];
    let mut sprt_state = None;
    if let (Some(l), Some(path)) = (&ledger, &cfg.ledger) {
        let file = path.display();
        let line = if counted {
            format!("Ledger {file} holds the run with -srand {seed} already: nothing to play")
        } else {
            format!("Ledger {file}: {} earlier runs, {} games", l.runs.len(), tally.earlier.0.games())
        };
        say(out, &line);
    }
    if !resumed.is_empty() {
        resumed.iter().for_each(|g| tally.add(g, paired));
        let file = cfg.pgnout.as_ref().map(|(p, _)| p.display().to_string()).unwrap_or_default();
        say(out, &format!("Resumed {} finished games from {file}", resumed.len()));
        say(out, &Tally::score_line(&format!("Score of {first} vs {second}"), &tally.total));
    }
    // A test that had decided before the cut (or in the ledger's runs) plays no more games.
    if (!resumed.is_empty() || tally.earlier.0.games() > 0)
        && let Some(sprt) = &cfg.sprt
    {
        let llr = sprt.llr(&tally.sample(paired));
        let state = sprt.state(llr);
        if state != SprtState::Continue {
            sprt_state = Some(state);
            stop.store(true, Ordering::Relaxed);
        }
    }
    // A test decided before this run (by the games resumed or the ledger's) starts no engine.
    let workers = if stop.load(Ordering::Relaxed) { 0 } else { cfg.concurrency.min(schedule.len()) };
    let mut sets = Vec::new();
    for _ in 0..workers {
        let mut set = [None, None];
        for (k, e) in cfg.engines.iter().enumerate() {
            set[k] = Some(Engine::start(e, &cfg.variant).map_err(|e| e.to_string())?);
        }
        sets.push(set);
    }
    let mut fatal = None;
    let (tx, rx) = channel();
    std::thread::scope(|scope| {
        for set in sets {
            let worker = Worker {
                cfg,
                book: &book,
                schedule: &schedule,
                next: &next,
                stop: &stop,
                restart_failures: &restart_failures,
                events: tx.clone(),
            };
            scope.spawn(move || worker.run(set));
        }
        drop(tx);
        let total = cfg.total_games();
        for event in rx {
            match event {
                Event::Started { number, white, black } => {
                    say(out, &format!("Started game {number} of {total} ({white} vs {black})"))
                }
                Event::Fatal(msg) => {
                    log::error!("{msg}");
                    fatal = Some(msg);
                    stop.store(true, Ordering::Relaxed);
                }
                Event::Finished(rec) => {
                    say(
                        out,
                        &format!(
                            "Finished game {} ({} vs {}): {} {{{}}}",
                            rec.number,
                            rec.white,
                            rec.black,
                            rec.result.result_str(),
                            rec.result.description()
                        ),
                    );
                    if let (Some(file), Some((path, minimal))) = (&mut pgn_file, &cfg.pgnout) {
                        let text = pgn::format_game(&rec, &cfg.event, &cfg.site, *minimal);
                        if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
                            log::error!("cannot write PGN file {}: {e}", path.display());
                        }
                    }
                    tally.add(&PlayedGame::of(&rec), paired);
                    let label = format!("Score of {} vs {}", tally.first, tally.second);
                    say(out, &Tally::score_line(&label, &tally.total));
                    let played = tally.total.games();
                    let mut lines = Vec::new();
                    if let Some(sprt) = &cfg.sprt
                        && sprt_state.is_none()
                    {
                        let llr = sprt.llr(&tally.sample(paired));
                        let state = sprt.state(llr);
                        if state != SprtState::Continue {
                            sprt_state = Some(state);
                            stop.store(true, Ordering::Relaxed);
                        }
                        lines.push(sprt_line(sprt, llr, state));
                    }
                    let interval = cfg.rating_interval as u64;
                    if interval > 0 && played.is_multiple_of(interval) && played < total {
                        say(out, &tally.elo_line(paired));
                        lines.iter().for_each(|l| say(out, l));
                        if paired {
                            say(out, &format!("Ptnml(0-2): {:?}", tally.all().1.0));
                        }
                    }
                }
            }
        }
    });

    // A run the ledger held already played nothing: an empty tally of it would read like a
    // run that failed, so only the ledger's lines follow.
    if !counted {
        let w = &tally.total;
        say(out, &Tally::score_line(&format!("Score of {first} vs {second}"), w));
        say(out, &Tally::score_line(&format!("...      {first} playing White"), &tally.first_as[Color::White.index()]));
        say(out, &Tally::score_line(&format!("...      {first} playing Black"), &tally.first_as[Color::Black.index()]));
        say(out, &Tally::score_line("...      White vs Black", &tally.white_view));
    }
    let (all_wdl, all_pairs) = tally.all();
    if let Some(l) = &ledger {
        // This run is one of them once it is written down: finished, with games, no error.
        let runs = l.runs.len() + usize::from(!counted && fatal.is_none() && tally.total.games() > 0);
        say(out, &Tally::score_line(&format!("All {runs} runs of the ledger, {first} vs {second}"), &all_wdl));
    }
    say(out, &tally.elo_line(paired));
    if let Some(sprt) = &cfg.sprt {
        let llr = sprt.llr(&tally.sample(paired));
        say(out, &sprt_line(sprt, llr, sprt_state.unwrap_or(SprtState::Continue)));
    }
    if paired {
        say(out, &format!("Ptnml(0-2): {:?}", all_pairs.0));
    }
    // A run cut off by a fatal error is not finished: it goes on with -resume.
    if let Some(path) = &cfg.ledger
        && fatal.is_none()
        && tally.total.games() > 0
    {
        Ledger::append(path, &cfg.setup, &Run { srand: seed, wdl: tally.total, pairs: tally.pairs })?;
    }
    say(out, "Finished match");
    match fatal {
        Some(msg) => Err(msg),
        None => Ok(Summary {
            wdl: all_wdl,
            pairs: all_pairs,
            sprt: cfg.sprt.map(|_| sprt_state.unwrap_or(SprtState::Continue)),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_prints_as_zero_not_minus_zero() {
        let tally = Tally {
            first: "A".into(),
            second: "B".into(),
            total: Wdl { wins: 3, draws: 4, losses: 3 },
            first_as: [Wdl::default(); 2],
            white_view: Wdl::default(),
            pairs: Pentanomial::default(),
            pending: HashMap::new(),
            earlier: (Wdl::default(), Pentanomial::default()),
        };
        let line = tally.elo_line(false);
        assert!(line.starts_with("Elo difference: 0.0 +/- "), "{line}");
    }
}
