//! A UCI engine process: start and handshake, options, new games, and one search at a
//! time with a deadline. Its output is read by a thread of its own, so a silent or hung
//! engine never blocks the runner; the last lines it printed (stdout and stderr) are kept
//! for the log when it misbehaves.

use super::cli::EngineConfig;
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` and the first `isready`.
pub const INIT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to answer `isready` between moves and games.
pub const READY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a stopped search may take to send its `bestmove`.
const STOP_GRACE: Duration = Duration::from_secs(1);
/// How many lines of the engine's output are kept for the log.
const RECENT_LINES: usize = 12;
/// How long `quit` may take before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started (missing binary, no permission...).
    Spawn(String),
    /// The engine did not answer in time; the text says to what.
    Timeout(String),
    /// The engine closed its output (it crashed or quit).
    Disconnected(String),
    /// The engine answered something unusable (e.g. it lacks the variant).
    Protocol(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(s)
            | EngineError::Timeout(s)
            | EngineError::Disconnected(s)
            | EngineError::Protocol(s) => f.write_str(s),
        }
    }
}

/// A score as an engine reports it, from its own side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The score in centipawns, mates far beyond any material score.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

impl fmt::Display for Score {
    /// As cutechess writes it in PGN comments: `+0.35`, `-1.20`, `+M5`, `-M3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) if n > 0 => write!(f, "+M{n}"),
            Score::Mate(n) => write!(f, "-M{}", -n),
        }
    }
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move text after `bestmove`.
    pub bestmove: String,
    /// The last score it reported for its main line.
    pub score: Option<Score>,
    /// The depth of that report.
    pub depth: Option<u32>,
    /// Thinking time: from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// Why a search produced no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchFailure {
    /// No `bestmove` before the deadline; thought this long.
    Timeout(Duration),
    /// The process went away; the text describes how.
    Disconnected(String),
}

enum Event {
    Line(String, Instant),
    Closed,
}

/// A running UCI engine.
pub struct Engine {
    /// The configuration it was started from.
    pub config: EngineConfig,
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Event>,
    recent: Arc<Mutex<VecDeque<String>>>,
    /// Set once the stderr reader has read to the end (from the start when stderr is not
    /// piped), so that a crash's last words are in `recent` before they are logged.
    stderr_done: Arc<AtomicBool>,
    /// Whether the process must be replaced before its next game.
    broken: bool,
    closed: bool,
}

fn remember(recent: &Mutex<VecDeque<String>>, line: String) {
    if let Ok(mut r) = recent.lock() {
        if r.len() == RECENT_LINES {
            r.pop_front();
        }
        r.push_back(line);
    }
}

/// The option name of a UCI `option name <NAME> type ...` line.
fn option_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("option name ")?;
    Some(rest.split(" type ").next().unwrap_or(rest).trim())
}

impl Engine {
    /// Starts the engine, runs the UCI handshake, sets its options and the variant.
    pub fn start(config: &EngineConfig, variant: &str) -> Result<Engine, EngineError> {
        let mut cmd = Command::new(&config.cmd);
        cmd.args(&config.args).stdin(Stdio::piped()).stdout(Stdio::piped());
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        match &config.stderr {
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| EngineError::Spawn(format!("cannot open stderr file {}: {e}", path.display())))?;
                cmd.stderr(Stdio::from(file));
            }
            None => {
                cmd.stderr(Stdio::piped());
            }
        }
        let mut child = cmd.spawn().map_err(|e| {
            EngineError::Spawn(format!("cannot start engine '{}': command '{}': {e}", config.name, config.cmd))
        })?;
        let recent = Arc::new(Mutex::new(VecDeque::new()));
        let (tx, events) = channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        let name = config.name.clone();
        let seen = recent.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let line = line.trim_end().to_string();
                log::debug!(target: "engine", "{name} > {line}");
                remember(&seen, line.clone());
                if tx.send(Event::Line(line, Instant::now())).is_err() {
                    return;
                }
            }
            let _ = tx.send(Event::Closed);
        });
        let stderr_done = Arc::new(AtomicBool::new(child.stderr.is_none()));
        if let Some(stderr) = child.stderr.take() {
            let name = config.name.clone();
            let seen = recent.clone();
            let done = stderr_done.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    log::debug!(target: "engine", "{name} stderr: {line}");
                    remember(&seen, format!("(stderr) {line}"));
                }
                done.store(true, Ordering::Release);
            });
        }
        let stdin = child.stdin.take().expect("stdin is piped");
        let mut engine =
            Engine { config: config.clone(), child, stdin, events, recent, stderr_done, broken: false, closed: false };
        engine.handshake(variant).inspect_err(|_| engine.kill())?;
        Ok(engine)
    }

    fn handshake(&mut self, variant: &str) -> Result<(), EngineError> {
        let name = self.config.name.clone();
        self.send("uci")?;
        let deadline = Instant::now() + INIT_TIMEOUT;
        let mut options = Vec::new();
        let mut variants: Option<Vec<String>> = None;
        loop {
            let line = self.next_line(deadline).map_err(|closed| {
                if closed {
                    EngineError::Disconnected(self.gone("exited during the UCI handshake"))
                } else {
                    EngineError::Timeout(format!(
                        "engine '{name}' did not answer 'uci' with 'uciok' within {} s",
                        INIT_TIMEOUT.as_secs()
                    ))
                }
            })?;
            if line == "uciok" {
                break;
            }
            if let Some(opt) = option_name(&line) {
                if opt == "UCI_Variant" {
                    variants = Some(
                        line.split_whitespace()
                            .collect::<Vec<_>>()
                            .windows(2)
                            .filter(|w| w[0] == "var")
                            .map(|w| w[1].to_string())
                            .collect(),
                    );
                }
                options.push(opt.to_string());
            }
        }
        match &variants {
            Some(vars) if vars.iter().any(|v| v == variant) => {}
            Some(vars) => {
                return Err(EngineError::Protocol(format!(
                    "engine '{name}' does not play {variant} (its UCI_Variant offers: {})",
                    vars.join(" ")
                )));
            }
            None => {
                return Err(EngineError::Protocol(format!(
                    "engine '{name}' has no UCI_Variant option, so it cannot be told to play \
                     {variant}"
                )));
            }
        }
        for (opt, value) in self.config.options.clone() {
            if !options.iter().any(|o| o.eq_ignore_ascii_case(&opt)) {
                log::warn!("engine '{name}' declares no option '{opt}'; setting it anyway");
            }
            self.send(&format!("setoption name {opt} value {value}"))?;
        }
        self.send(&format!("setoption name UCI_Variant value {variant}"))?;
        self.sync(INIT_TIMEOUT)
    }

    /// Writes one line to the engine.
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!(target: "engine", "{} < {line}", self.config.name);
        let ok = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        ok.map_err(|e| {
            self.broken = true;
            EngineError::Disconnected(self.gone(&format!("stopped reading its input ({e})")))
        })
    }

    /// The next line of output before `deadline`; Err(true) if the engine closed its
    /// output, Err(false) on timeout.
    fn next_line(&mut self, deadline: Instant) -> Result<String, bool> {
        self.next_line_at(deadline).map(|(l, _)| l)
    }

    fn next_line_at(&mut self, deadline: Instant) -> Result<(String, Instant), bool> {
        if self.closed {
            return Err(true);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(Event::Line(l, at)) => Ok((l, at)),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                self.broken = true;
                Err(true)
            }
            Err(RecvTimeoutError::Timeout) => Err(false),
        }
    }

    /// Sends `isready` and waits for `readyok`, dropping whatever comes before it (such as
    /// the `bestmove` of a search that was stopped).
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.next_line(deadline) {
                Ok(l) if l == "readyok" => return Ok(()),
                Ok(_) => {}
                Err(true) => {
                    return Err(EngineError::Disconnected(self.gone("disconnected")));
                }
                Err(false) => {
                    self.broken = true;
                    return Err(EngineError::Timeout(format!(
                        "engine '{}' did not answer 'isready' within {} s",
                        self.config.name,
                        timeout.as_secs()
                    )));
                }
            }
        }
    }

    /// Prepares the engine for a new game.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync(READY_TIMEOUT)
    }

    /// Sets the position, waits until the engine is ready, then searches with `go_args`
    /// and waits for `bestmove` until `allowance` has passed since `go` was sent.
    pub fn search(&mut self, position: &str, go_args: &str, allowance: Duration) -> Result<Reply, SearchFailure> {
        let disconnected = |e: EngineError| SearchFailure::Disconnected(e.to_string());
        self.send(position).map_err(disconnected)?;
        // Waiting for readyok first keeps the engine's setup work off its clock, as
        // cutechess does.
        self.sync(READY_TIMEOUT).map_err(disconnected)?;
        self.send(&format!("go {go_args}")).map_err(disconnected)?;
        let started = Instant::now();
        let deadline = started + allowance;
        let (mut score, mut depth) = (None, None);
        loop {
            match self.next_line_at(deadline) {
                Ok((line, at)) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("bestmove") => {
                            return Ok(Reply {
                                bestmove: words.next().unwrap_or("").to_string(),
                                score,
                                depth,
                                elapsed: at.saturating_duration_since(started),
                            });
                        }
                        Some("info") => {
                            if let Some((s, d)) = parse_info(&line) {
                                score = Some(s);
                                depth = d.or(depth);
                            }
                        }
                        _ => {}
                    }
                }
                Err(true) => {
                    return Err(SearchFailure::Disconnected(self.gone("disconnected while thinking")));
                }
                Err(false) => {
                    let elapsed = started.elapsed();
                    self.abandon_search();
                    return Err(SearchFailure::Timeout(elapsed));
                }
            }
        }
    }

    /// Stops a search that ran out of time; an engine that does not then answer within
    /// a grace period is marked for replacement, so a late `bestmove` cannot leak into the
    /// next game.
    fn abandon_search(&mut self) {
        if self.send("stop").is_err() {
            return;
        }
        let deadline = Instant::now() + STOP_GRACE;
        loop {
            match self.next_line(deadline) {
                Ok(l) if l.starts_with("bestmove") => return,
                Ok(_) => {}
                Err(_) => {
                    self.broken = true;
                    return;
                }
            }
        }
    }

    /// Whether the process can play another game.
    pub fn is_usable(&mut self) -> bool {
        !self.broken && !self.closed && matches!(self.child.try_wait(), Ok(None))
    }

    /// The last lines the engine printed, oldest first.
    pub fn recent_output(&self) -> Vec<String> {
        // A crashed engine's stdout and stderr close together, but their readers race: give
        // the stderr reader a moment to take in the last lines (on a loaded machine the
        // crash message was missing from the log).
        if self.closed {
            for _ in 0..100 {
                if self.stderr_done.load(Ordering::Acquire) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.recent.lock().map(|r| r.iter().cloned().collect()).unwrap_or_default()
    }

    /// "engine 'NAME' WHAT (exit status: N)", the status once the process has ended.
    fn gone(&mut self, what: &str) -> String {
        let note = self.exit_note();
        format!("engine '{}' {what}{note}", self.config.name)
    }

    /// " (exit status: N)" once the process has ended, else empty.
    fn exit_note(&mut self) -> String {
        // The output can close an instant before the process is reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!(" ({status})");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        String::new()
    }

    /// Asks the engine to quit, and kills it if it does not.
    pub fn quit(mut self) {
        if !self.closed && self.send("quit").is_ok() {
            let deadline = Instant::now() + QUIT_GRACE;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Never leave a process behind, whatever path ended the engine's use.
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// The score and depth of an `info` line about the main line (multipv 1), if it has a
/// score.
fn parse_info(line: &str) -> Option<(Score, Option<u32>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let value_of = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1));
    if value_of("multipv").is_some_and(|m| *m != "1") {
        return None;
    }
    let i = words.iter().position(|w| *w == "score")?;
    let n: i32 = words.get(i + 2)?.parse().ok()?;
    let score = match *words.get(i + 1)? {
        "cp" => Score::Cp(n),
        "mate" => Score::Mate(n),
        _ => return None,
    };
    Some((score, value_of("depth").and_then(|d| d.parse().ok())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scores_from_info_lines() {
        assert_eq!(
            parse_info("info depth 12 seldepth 18 multipv 1 score cp -35 nodes 100 pv e3e4"),
            Some((Score::Cp(-35), Some(12)))
        );
        assert_eq!(parse_info("info depth 7 score mate -3 upperbound nodes 5"), Some((Score::Mate(-3), Some(7))));
        assert_eq!(parse_info("info depth 7 multipv 2 score cp 10"), None);
        assert_eq!(parse_info("info string hello"), None);
        assert_eq!(parse_info("info depth 3 score wdl 1"), None);
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Mate(-3).to_string(), "-M3");
        assert!(Score::Mate(2).as_cp() > Score::Mate(5).as_cp());
        assert!(Score::Mate(-2).as_cp() < Score::Cp(-5000).as_cp());
    }

    #[test]
    fn a_missing_binary_is_a_clear_error() {
        let cfg = super::super::cli::parse(
            &["-engine", "cmd=/nonexistent/engine", "name=Ghost", "nodes=1", "-engine", "cmd=x", "nodes=1"]
                .map(String::from),
        )
        .unwrap();
        match Engine::start(&cfg.engines[0], "sittuyin") {
            Err(EngineError::Spawn(msg)) => {
                assert!(msg.contains("Ghost") && msg.contains("/nonexistent/engine"), "{msg}")
            }
            other => panic!("expected a spawn error, got {:?}", other.err()),
        }
    }
}
