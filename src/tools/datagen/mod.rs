//! `sitke datagen`: self-play games that produce training positions for `sitke tune` and
//! the network trainer.
//!
//! Every thread plays its own stream of games with a one-thread searcher and a small hash
//! table; games are numbered, and game `id` of a run seeded `seed` is the same game whatever
//! thread plays it (see `game::play_game`). Each finished game is appended to the output
//! file and flushed at once, so an interrupted run loses only the games being played. A
//! restart with the same output file counts what is there, cuts off a half-written last
//! game, and continues with game ids above every id in the file: fresh openings, never a
//! duplicated game. The position target counts the whole file, so rerunning the same
//! command finishes the job.
//!
//! Two formats: the binary one (`binary`, 32 bytes a position, the default for a new file)
//! and the text one (`format`, about 58 bytes a position, one FEN a line; the command line
//! picks it for `--text` or a name ending in `.txt`). An existing file is continued in its
//! own format. `data` reads either; `convert` turns text into
//! binary.

pub mod binary;
pub mod cli;
pub mod convert;
pub mod data;
pub mod format;
pub mod from_pgn;
pub mod game;

use crate::eval::nnue::Network;
use crate::search::Searcher;
pub use data::Format;
use format::Existing;
use game::{GameSettings, play_game};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
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
    /// The format of a new file (an existing one keeps its own).
    pub format: Format,
    /// The net the games are played with; None plays them with the classical evaluation.
    pub network: Option<Arc<Network>>,
}

/// What a run did.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    /// The format written.
    pub format: Format,
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
    let format = Format::of_file(&cfg.out)?.unwrap_or(cfg.format);
    if format != cfg.format {
        writeln!(
            progress,
            "datagen: {} is a {} data file; continuing it in that format",
            cfg.out.display(),
            format.name()
        )?;
    }
    let existing = match format {
        Format::Binary => binary::prepare_for_append(&cfg.out)?,
        Format::Text => format::prepare_for_append(&cfg.out)?,
    };
    if existing.truncated > 0 {
        writeln!(progress, "datagen: cut off {} bytes of an unfinished last game", existing.truncated)?;
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
    let mut summary = Summary { format, existing, games: 0, positions: 0, nodes: 0, elapsed: Duration::ZERO };
    if existing.positions >= cfg.positions {
        writeln!(progress, "datagen: target of {} positions already reached", cfg.positions)?;
        return Ok(summary);
    }
    let file = OpenOptions::new().append(true).open(&cfg.out)?;
    let writer = Mutex::new(BufWriter::with_capacity(1 << 16, file));
    {
        let g = &cfg.game;
        let a = &g.adjudication;
        let settings = format!(
            "seed={} nodes={} random={}..{} win={}x{} draw={}x{}@{} max={} first-game={}",
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
        );
        writeln!(progress, "datagen: {} format, {settings}", format.name())?;
        // The text format notes each run's settings in the file; the binary one keeps the
        // seed in every game block.
        if format == Format::Text {
            let mut w = writer.lock().expect("no thread holds the lock yet");
            writeln!(w, "# datagen {settings}")?;
            w.flush()?;
        }
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
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(|| worker(cfg, format, &shared, &writer))).collect();
        let mut last = (Instant::now(), existing.positions);
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            if last.0.elapsed() >= cfg.report_every {
                let recent = shared.total.load(Ordering::Relaxed).saturating_sub(last.1);
                let recent_rate = recent as f64 / last.0.elapsed().as_secs_f64();
                last = (Instant::now(), last.1 + recent);
                report(progress, cfg, &shared, existing.positions, start.elapsed(), threads, Some(recent_rate))?;
            }
        }
        workers.into_iter().try_for_each(|w| w.join().expect("datagen worker panicked"))
    });
    outcome?;
    summary.games = shared.games.load(Ordering::Relaxed);
    summary.positions = shared.total.load(Ordering::Relaxed) - existing.positions;
    summary.nodes = shared.nodes.load(Ordering::Relaxed);
    summary.elapsed = start.elapsed();
    report(progress, cfg, &shared, existing.positions, summary.elapsed, threads, None)?;
    Ok(summary)
}

/// One game stream: plays games until the target is reached, appending each one whole.
fn worker(cfg: &DatagenConfig, format: Format, shared: &Shared, writer: &Mutex<BufWriter<File>>) -> io::Result<()> {
    let mut searcher = Searcher::new(cfg.hash_mb, 1);
    searcher.set_network(cfg.network.clone());
    while shared.total.load(Ordering::Relaxed) < cfg.positions && !shared.failed.load(Ordering::Relaxed) {
        let id = shared.next_game.fetch_add(1, Ordering::Relaxed);
        let g = play_game(id, cfg.seed, &cfg.game, &mut searcher);
        let written = {
            let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
            match format {
                Format::Binary => binary::write_game(&mut *w, &g.game_info(cfg.seed), &g.packed_records()),
                Format::Text => format::write_game(&mut *w, &g.text_header(), &g.text_records()),
            }
            .and_then(|_| w.flush())
        };
        if let Err(e) = written {
            shared.failed.store(true, Ordering::Relaxed);
            return Err(e);
        }
        shared.total.fetch_add(g.positions.len() as u64, Ordering::Relaxed);
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
    recent_rate: Option<f64>,
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
    // The rate since the last line too: on a shared machine the average lags behind.
    let recent = recent_rate.map_or(String::new(), |r| format!(" ({r:.0} lately)"));
    writeln!(
        out,
        "datagen: {total}/{} positions, {games} games, {rate:.0} positions/s{recent}, {:.0} knps on {threads} \
         threads, {:.1} positions/game, elapsed {}, ETA {eta}",
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

    fn config(out: &std::path::Path, format: Format) -> DatagenConfig {
        DatagenConfig {
            out: out.to_path_buf(),
            positions: 40,
            threads: 2,
            hash_mb: 1,
            seed: 9,
            game: GameSettings { nodes: 200, ..GameSettings::default() },
            report_every: Duration::from_secs(3600),
            format,
            network: None,
        }
    }

    #[test]
    fn a_text_run_resumes_without_duplicating_games() {
        let dir = std::env::temp_dir().join(format!("sitke-datagen-text-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("data.txt");
        let _ = std::fs::remove_file(&out);
        let mut cfg = config(&out, Format::Text);
        let mut log = Vec::new();
        let first = run(&cfg, &mut log).unwrap();
        assert!(first.positions >= 40 && first.games >= 1);
        // An interrupted write leaves half a line; the next run cuts it off and goes on.
        let mut f = OpenOptions::new().append(true).open(&out).unwrap();
        f.write_all(b"8/8/8/8/8/8/8/K6k[] w - - 0 1;1").unwrap();
        drop(f);
        cfg.positions = first.positions + 40;
        // Asked for binary, the run continues the file in its own format.
        cfg.format = Format::Binary;
        let second = run(&cfg, &mut log).unwrap();
        assert_eq!(second.format, Format::Text);
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

    #[test]
    fn a_binary_run_resumes_after_a_truncated_game() {
        let dir = std::env::temp_dir().join(format!("sitke-datagen-bin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("data.bin");
        let _ = std::fs::remove_file(&out);
        let mut cfg = config(&out, Format::Binary);
        let mut log = Vec::new();
        let first = run(&cfg, &mut log).unwrap();
        assert_eq!(first.format, Format::Binary);
        assert!(first.positions >= 40 && first.games >= 1);
        let whole = std::fs::metadata(&out).unwrap().len();
        assert_eq!(whole, 16 + 32 * (first.games + first.positions));
        // An interrupted write leaves part of a game: a block announcing 50 records and 3.
        let file = binary::read_file(&out).unwrap();
        let partial = binary::GameInfo { id: 1000, positions: 50, ..file.games[0] };
        let mut bytes = partial.to_bytes().to_vec();
        for r in &file.records[..3] {
            bytes.extend_from_slice(&r.to_bytes());
        }
        OpenOptions::new().append(true).open(&out).unwrap().write_all(&bytes).unwrap();
        cfg.positions = first.positions + 40;
        let second = run(&cfg, &mut log).unwrap();
        assert_eq!(second.existing.positions, first.positions);
        assert_eq!(second.existing.truncated, bytes.len() as u64);
        let file = binary::read_file(&out).unwrap();
        assert_eq!(file.records.len() as u64, first.positions + second.positions);
        let ids: Vec<u64> = file.games.iter().map(|g| g.id).collect();
        assert_eq!(ids.len() as u64, first.games + second.games);
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len(), "a game id repeats: {ids:?}");
        assert!(!ids.contains(&1000), "the cut-off game is gone");
        assert!(file.games.iter().all(|g| g.seed == 9 && g.positions > 0 && g.plies > 0));
        // The records decode to positions, and the data reader gives the same.
        for (_, r) in file.iter() {
            assert!(r.to_position().is_ok());
        }
        let via_reader = data::read_path(&out).unwrap();
        assert_eq!(via_reader, file.iter().map(|(id, r)| (id, *r)).collect::<Vec<_>>());
        let third = run(&cfg, &mut log).unwrap();
        assert_eq!(third.games, 0, "the target is already reached");
        let log = String::from_utf8(log).unwrap();
        assert!(log.contains("positions/s") && log.contains("ETA"), "{log}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
