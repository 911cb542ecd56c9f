//! The protocol loop: reads commands from stdin, one per line, and dispatches them. Searches,
//! `go perft` and `bench` run on the engine's job thread, so while one runs the loop answers
//! `isready`, `stop`, `ponderhit` and `quit` at once. `usi` switches to the USI dialect
//! (notation, SFEN, `usiok`), `uci` back.
//!
//! Jobs run in order, as in Fairy-Stockfish: a `go` (or `bench`, or `ucinewgame`) that
//! arrives while a job that ends by itself is running (perft, bench, a search with a depth,
//! node, mate or time limit) waits for it, and the loop reads nothing more meanwhile: the
//! commands after it stay in the pipe and take effect in order once it has started, so a
//! script of `position` / `go perft` pairs prints every count, and an `isready` behind a
//! waiting `go` is answered only when the engine has caught up. What waits is bounded by the
//! pipe, not by the engine's memory. Only a search that would run until `stop` (`go infinite`,
//! ponder) is stopped by a new `go`, with an `info string` saying so.
//!
//! Nothing on the input can end the loop but `quit` or the end of input: every malformed or
//! out-of-place command gets an `info string` that names the problem, and the state stays
//! as it was (a `position` keeps the moves that applied).

use super::Dialect;
use super::engine::{Engine, JobKind, UciOutput};
use super::go::parse_go;
use super::lines::{Line, LineReader};
use super::options::{Accepted, Id, OptionError, Options, VARIANT, variant_info};
use super::output::{InfoStyle, info_string, send};
use super::usi::{parse_move, parse_sfen};
use crate::board::Position;
use std::sync::Arc;

/// Engine name as sent in `id name`.
pub const ENGINE_NAME: &str = concat!("Sitke ", env!("CARGO_PKG_VERSION"));
/// The author line.
pub const ENGINE_AUTHOR: &str = "the Sitke developers";
/// Lines longer than this (bytes) are refused: no host sends them, and a runaway producer
/// must not make the engine hold gigabytes (the reader drops the excess as it arrives).
pub const MAX_LINE: usize = 1 << 20;

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received.
    Quit,
    /// `xboard` was received: the host speaks CECP from now on.
    Xboard,
}

/// The protocol's state: the position, the options, the dialect and the engine.
pub struct Session {
    pos: Position,
    options: Options,
    dialect: Dialect,
    engine: Engine,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session at the start position with default options, speaking UCI.
    pub fn new() -> Session {
        Session { pos: Position::startpos(), options: Options::default(), dialect: Dialect::Uci, engine: Engine::new() }
    }

    /// Handles one input line (CRLF and surrounding blanks allowed).
    pub fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else { return Flow::Continue };
        match cmd {
            "uci" => self.hello(Dialect::Uci),
            "usi" => self.hello(Dialect::Usi),
            "xboard" => return Flow::Xboard,
            "isready" => send("readyok"),
            "debug" => {}
            "setoption" => self.setoption(line.strip_prefix("setoption").unwrap_or_default()),
            "ucinewgame" | "usinewgame" => self.new_game(),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.engine.stop(),
            "ponderhit" => self.engine.ponderhit(),
            // USI: the game is over; a ponder search that is still running has no use.
            "gameover" => self.engine.stop(),
            "d" => send(&super::display::diagram(&self.pos, self.dialect)),
            "eval" => self.eval(),
            "bench" => self.bench(args),
            "quit" => return Flow::Quit,
            _ => info_string(&format!("error: unknown command '{}'", truncate(cmd))),
        }
        Flow::Continue
    }

    /// Ends the session. After `quit` a running search is stopped at once (it still prints
    /// its `bestmove`), a running perft finishes and prints its count (as in Fairy-Stockfish)
    /// and a bench is abandoned; at the end of input, jobs that end by themselves are waited
    /// for, so `echo "go depth 9" | sitke` prints its answer.
    pub fn close(&mut self, quit: bool) {
        match self.engine.busy() {
            Some(JobKind::Bench) if quit => {}
            Some(JobKind::Search { .. }) if quit => self.engine.stop_and_join(),
            Some(_) => {
                self.engine.finish();
            }
            None => {}
        }
    }

    /// Answers a line longer than `MAX_LINE` (already dropped by the reader).
    pub fn too_long(&self) {
        info_string(&format!("error: line longer than {MAX_LINE} bytes ignored"));
    }

    /// Readies the engine for a new job, as Fairy-Stockfish would: a job that ends by itself
    /// is waited for; a search that would wait for `stop` forever is stopped (`why` says
    /// what is starting, for the `info string`).
    fn make_room(&mut self, why: &str) {
        if self.engine.open_ended() {
            info_string(&format!("warning: {why} received during an open-ended search; stopping that search first"));
        }
        self.engine.finish();
    }

    fn hello(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        let ok = match dialect {
            Dialect::Uci => "uciok",
            Dialect::Usi => "usiok",
        };
        send(&format!("id name {ENGINE_NAME}\nid author {ENGINE_AUTHOR}\n\n{}{ok}", super::options::option_lines()));
    }

    fn setoption(&mut self, args: &str) {
        let before = self.options.clone();
        match self.options.set(args) {
            Ok(Accepted(Id::Variant)) => send(&variant_info()),
            Ok(Accepted(Id::Hash | Id::Threads)) => {
                if let Err(e) = self.engine.configure(&self.options) {
                    self.options = before;
                    info_string(&e);
                }
            }
            Ok(Accepted(Id::ClearHash)) => self.engine.clear(),
            Ok(Accepted(Id::TablebasePath)) => {
                info_string(&super::engine::tablebase_note(&self.options.tablebase_path))
            }
            Ok(Accepted(Id::EvalFile)) => match self.engine.load_network(&self.options.eval_file) {
                Ok(net) if self.options.eval_file.is_empty() => {
                    info_string(&format!("NNUE net {} (built in) loaded", net.name()))
                }
                Ok(net) => info_string(&format!("NNUE net {} loaded from {}", net.name(), self.options.eval_file)),
                Err(e) => {
                    self.options = before;
                    info_string(&format!("error: {e}"));
                }
            },
            Ok(_) => {}
            Err(OptionError::NotInList { name, value, .. }) if name == "UCI_Variant" => info_string(&format!(
                "error: variant '{}' is not supported, only {VARIANT}; staying on {VARIANT}",
                truncate(&value)
            )),
            Err(e) => info_string(&format!("error: {}", truncate(&e.to_string()))),
        }
    }

    /// `eval`: the classical breakdown, and below it the net's score.
    fn eval(&self) {
        let mut text = crate::eval::breakdown(&self.pos).to_string();
        let net = self.engine.network();
        let sign = self.pos.side_to_move().sign();
        let raw = net.evaluate(&self.pos);
        let scaled = crate::eval::net_score_with_rules(&self.pos, raw);
        let state = if self.options.use_nnue { "in use" } else { "not in use: Use NNUE is off" };
        text.push_str(&format!(
            "\nNNUE evaluation ({}, {state}): {} (White's view), {} after endgame scaling",
            net.name(),
            raw * sign,
            scaled * sign
        ));
        send(&text);
    }

    fn new_game(&mut self) {
        // Like Fairy-Stockfish, a new game waits for a job that ends by itself (a script's
        // perft keeps its count); a search that would run until `stop` is over.
        self.engine.finish();
        self.engine.clear();
    }

    /// `position startpos|fen <FEN>|sfen <SFEN> [moves ...]`.
    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&a| a == "moves").unwrap_or(args.len());
        let (head, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or_default());
        let parsed = match head.first().copied() {
            Some("startpos") => {
                if head.len() > 1 {
                    info_string(&format!(
                        "warning: position: ignoring '{}' after startpos",
                        truncate(&head[1..].join(" "))
                    ));
                }
                Ok(Position::startpos())
            }
            Some("fen") => Position::from_fen(&head[1..].join(" ")).map_err(|e| format!("invalid FEN: {e}")),
            Some("sfen") => parse_sfen(&head[1..].join(" ")).map_err(|e| format!("invalid SFEN: {e}")),
            Some(other) => Err(format!("expected 'startpos', 'fen' or 'sfen', got '{}'", truncate(other))),
            None => Err("expected 'startpos', 'fen' or 'sfen'".to_string()),
        };
        let mut pos = match parsed {
            Ok(p) => p,
            Err(e) => {
                info_string(&format!("error: position: {e}; position unchanged"));
                return;
            }
        };
        for (i, text) in moves.iter().enumerate() {
            match parse_move(&pos, text, self.dialect) {
                Ok(m) => pos.do_move(m),
                Err(e) => {
                    info_string(&format!(
                        "error: position: move {} of the list: {}; position kept after move {i}",
                        i + 1,
                        truncate(&e.to_string())
                    ));
                    break;
                }
            }
        }
        self.pos = pos;
    }

    fn go(&mut self, args: &[&str]) {
        let (go, warnings) = parse_go(args, &self.pos, self.dialect);
        for w in &warnings {
            info_string(&format!("warning: {}", truncate(w)));
        }
        // `go` during a running job waits for it (a stopped search prints its own bestmove:
        // one per go).
        self.make_room("go");
        match go.perft {
            Some(depth) => self.engine.start_perft(self.pos.clone(), depth, self.options.threads, self.dialect),
            None => {
                let out = UciOutput { style: InfoStyle { dialect: self.dialect, show_wdl: self.options.show_wdl } };
                self.engine.start_search(self.pos.clone(), go, &self.options, Arc::new(out));
            }
        }
    }

    /// `bench [depth] [threads] [hash]`, the arguments of the `sitke bench` subcommand.
    fn bench(&mut self, args: &[&str]) {
        let defaults = [crate::search::bench::DEFAULT_DEPTH as i64, 1, 16];
        // Bench cannot be interrupted (quit still ends the process), so its depth is capped.
        let limits = [(1, 20), (1, super::options::MAX_THREADS), (1, 4096)];
        let names = ["depth", "threads", "hash"];
        let mut values = defaults;
        for (i, text) in args.iter().enumerate() {
            if i >= 3 {
                info_string(&format!("warning: bench: ignoring '{}'", truncate(text)));
                break;
            }
            match text.parse::<i64>() {
                Ok(n) if (limits[i].0..=limits[i].1).contains(&n) => values[i] = n,
                _ => {
                    info_string(&format!(
                        "error: bench: {} '{}' is not a number in {}..{}; using {}",
                        names[i],
                        truncate(text),
                        limits[i].0,
                        limits[i].1,
                        defaults[i]
                    ));
                }
            }
        }
        self.make_room("bench");
        self.engine.start_bench(values[0] as u32, values[1] as usize, values[2] as usize, &self.options);
    }
}

/// Makes user text safe to echo: control characters become `?` (a host's parser must never
/// see them) and long text is cut so one bad line cannot flood the host's log.
pub(super) fn truncate(s: &str) -> String {
    const MAX: usize = 200;
    let clean = |c: char| if c.is_control() { '?' } else { c };
    let mut out: String = s.chars().take(MAX).map(clean).collect();
    if s.chars().count() > MAX {
        out.push_str("...");
    }
    out
}

/// Runs the protocol loop on stdin until `quit` or the end of input.
pub fn run() {
    let mut session = Session::new();
    let mut input = LineReader::new(std::io::stdin().lock(), MAX_LINE);
    let mut flow = Flow::Continue;
    while let Some(line) = input.next_line() {
        // Bytes that are not UTF-8 became U+FFFD and end up in an "unknown" message.
        let Line::Text(line) = line else {
            session.too_long();
            continue;
        };
        log::debug!("<< {}", line.trim_end());
        flow = session.handle(&line);
        if flow != Flow::Continue {
            break;
        }
    }
    session.close(flow != Flow::Continue);
    if flow == Flow::Xboard {
        // The CECP session reads stdin itself; what this reader holds is a line at most,
        // and it has none now (each line is taken whole).
        drop(input);
        super::xboard::run();
    }
}
