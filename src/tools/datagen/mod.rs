//! `sitke datagen`: self-play games that produce training positions for `sitke tune`.
//!
//! Every thread plays its own stream of games with a one-thread searcher and a small hash
//! table; games are numbered, and game `id` of a run seeded `seed` is the same game whatever
//! thread plays it (see `game::play_game`). Each finished game is appended to the output
//! file and flushed at once, so an interrupted run loses only the games being played. A
//! restart with the same output file counts what is there, cuts off a half-written last
//! line, and continues with game ids above every id in the file: fresh openings, never a
//! duplicated game. The position target counts the whole file, so rerunning the same
//! command finishes the job.

pub mod binary;
pub mod format;
pub mod from_pgn;
pub mod game;

use crate::search::Searcher;
use format::{Existing, write_game};
use game::{GameSettings, play_game};
use std::fs::OpenOptions;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Everything a data-generation run needs.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// The data file (appended to).
    pub out: PathBuf,
    /// Stop once the file holds this many positions.
    pub positions: u64,
    /// Game streams played at once.
    pub threads: usize,
    /// Hash table per stream, MiB.
    pub hash_mb: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// How each game is played.
    pub game: GameSettings,
    /// Interval between progress lines.
    pub report_every: Duration,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    /// What the file held before.
    pub existing: Existing,
    /// Games played by this run.
    pub games: u64,
    /// Positions written by this run.
    pub positions: u64,
    /// Nodes searched by this run.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl Summary {
    /// Positions written per second.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

struct Shared {
    next_game: AtomicU64,
    total: AtomicU64,
    games: AtomicU64,
    nodes: AtomicU64,
    failed: AtomicBool,
}

/// Runs data generation until the file holds `cfg.positions` positions, writing progress
/// lines to `progress`.
pub fn run(cfg: &DatagenConfig, progress: &mut dyn Write) -> io::Result<Summary> {
    let existing = format::prepare_for_append(&cfg.out)?;
    if existing.truncated > 0 {
        writeln!(progress, "datagen: cut off {} bytes of an unfinished last line", existing.truncated)?;
    }
    if existing.positions > 0 || existing.games > 0 {
        writeln!(
            progress,
            "datagen: {} holds {} positions from {} games; continuing with game {}",
            cfg.out.display(),
            existing.positions,
            existing.games,
            existing.next_game
        )?;
    }
    let mut summary = Summary { existing, ..Summary::default() };
    if existing.positions >= cfg.positions {
        writeln!(progress, "datagen: target of {} positions already reached", cfg.positions)?;
        return Ok(summary);
    }
    let file = OpenOptions::new().append(true).open(&cfg.out)?;
    let writer = Mutex::new(BufWriter::with_capacity(1 << 16, file));
    {
        let g = &cfg.game;
        let a = &g.adjudication;
        let mut w = writer.lock().expect("no thread holds the lock yet");
        writeln!(
            w,
            "# datagen seed={} nodes={} random={}..{} win={}x{} draw={}x{}@{} max={} first-game={}",
            cfg.seed,
            g.nodes,
            g.random_min,
            g.random_max,
            a.win_score,
            a.win_plies,
            a.draw_score,
            a.draw_plies,
            a.draw_after,
            a.max_plies,
            existing.next_game
        )?;
        w.flush()?;
    }
    let shared = Shared {
        next_game: AtomicU64::new(existing.next_game),
        total: AtomicU64::new(existing.positions),
        games: AtomicU64::new(0),
        nodes: AtomicU64::new(0),
        failed: AtomicBool::new(false),
    };
    let start = Instant::now();
    let threads = cfg.threads.max(1);
    let outcome: io::Result<()> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(|| worker(cfg, &shared, &writer))).collect();
        let mut last = Instant::now();
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() >= cfg.report_every {
                last = Instant::now();
                report(progress, cfg, &shared, existing.positions, start.elapsed(), threads)?;
            }
        }
        workers.into_iter().try_for_each(|w| w.join().expect("datagen worker panicked"))
    });
    outcome?;
    summary.games = shared.games.load(Ordering::Relaxed);
    summary.positions = shared.total.load(Ordering::Relaxed) - existing.positions;
    summary.nodes = shared.nodes.load(Ordering::Relaxed);
    summary.elapsed = start.elapsed();
    report(progress, cfg, &shared, existing.positions, summary.elapsed, threads)?;
    Ok(summary)
}

/// One game stream: plays games until the target is reached, appending each one whole.
fn worker(cfg: &DatagenConfig, shared: &Shared, writer: &Mutex<BufWriter<std::fs::File>>) -> io::Result<()> {
    let mut searcher = Searcher::new(cfg.hash_mb, 1);
    while shared.total.load(Ordering::Relaxed) < cfg.positions && !shared.failed.load(Ordering::Relaxed) {
        let id = shared.next_game.fetch_add(1, Ordering::Relaxed);
        let g = play_game(id, cfg.seed, &cfg.game, &mut searcher);
        let written = {
            let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
            write_game(&mut *w, &g.header, &g.records).and_then(|_| w.flush())
        };
        if let Err(e) = written {
            shared.failed.store(true, Ordering::Relaxed);
            return Err(e);
        }
        shared.total.fetch_add(g.records.len() as u64, Ordering::Relaxed);
        shared.games.fetch_add(1, Ordering::Relaxed);
        shared.nodes.fetch_add(g.nodes, Ordering::Relaxed);
    }
    Ok(())
}

fn report(
    out: &mut dyn Write,
    cfg: &DatagenConfig,
    shared: &Shared,
    before: u64,
    elapsed: Duration,
    threads: usize,
) -> io::Result<()> {
    let total = shared.total.load(Ordering::Relaxed);
    let games = shared.games.load(Ordering::Relaxed);
    let secs = elapsed.as_secs_f64().max(1e-9);
    let rate = (total - before) as f64 / secs;
    let eta = if rate > 0.0 {
        format_duration(Duration::from_secs_f64(cfg.positions.saturating_sub(total) as f64 / rate))
    } else {
        "-".to_string()
    };
    writeln!(
        out,
        "datagen: {total}/{} positions, {games} games, {rate:.0} positions/s, {:.0} knps on {threads} threads, \
         {:.1} positions/game, elapsed {}, ETA {eta}",
        cfg.positions,
        shared.nodes.load(Ordering::Relaxed) as f64 / secs / 1000.0,
        (total - before) as f64 / games.max(1) as f64,
        format_duration(elapsed),
    )
}

/// `1h02m03s`, `4m05s` or `6s`.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, m, sec) => format!("{m}m{sec:02}s"),
        (h, m, sec) => format!("{h}h{m:02}m{sec:02}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn durations_read_well() {
        assert_eq!(format_duration(Duration::from_secs(6)), "6s");
        assert_eq!(format_duration(Duration::from_secs(245)), "4m05s");
        assert_eq!(format_duration(Duration::from_secs(3723)), "1h02m03s");
    }

    #[test]
    fn a_run_resumes_without_duplicating_games() {
        let dir = std::env::temp_dir().join(format!("sitke-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("data.txt");
        let _ = std::fs::remove_file(&out);
        let mut cfg = DatagenConfig {
            out: out.clone(),
            positions: 40,
            threads: 2,
            hash_mb: 1,
            seed: 9,
            game: GameSettings { nodes: 200, ..GameSettings::default() },
            report_every: Duration::from_secs(3600),
        };
        let mut log = Vec::new();
        let first = run(&cfg, &mut log).unwrap();
        assert!(first.positions >= 40 && first.games >= 1);
        // An interrupted write leaves half a line; the next run cuts it off and goes on.
        let mut f = OpenOptions::new().append(true).open(&out).unwrap();
        f.write_all(b"8/8/8/8/8/8/8/K6k[] w - - 0 1;1").unwrap();
        drop(f);
        cfg.positions = first.positions + 40;
        let second = run(&cfg, &mut log).unwrap();
        assert_eq!(second.existing.positions, first.positions);
        assert!(second.existing.truncated > 0);
        let entries = format::read_path(&out).unwrap();
        assert_eq!(entries.len() as u64, first.positions + second.positions);
        let text = std::fs::read_to_string(&out).unwrap();
        let ids: Vec<u64> = text.lines().filter_map(format::parse_header).map(|h| h.unwrap().id).collect();
        assert_eq!(ids.len() as u64, first.games + second.games);
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len(), "a game id repeats: {ids:?}");
        // Different games start from different openings: no position line repeats at the
        // first searched ply of two games.
        let firsts: HashSet<&str> = text
            .lines()
            .zip(text.lines().skip(1))
            .filter(|(h, _)| h.starts_with("#game"))
            .filter_map(|(_, p)| (!p.starts_with('#')).then_some(p))
            .collect();
        assert!(firsts.len() >= 2);
        let third = run(&cfg, &mut log).unwrap();
        assert_eq!(third.games, 0, "the target is already reached");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
