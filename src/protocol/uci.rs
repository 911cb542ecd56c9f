//! The UCI front-end (and its USI dialect): reads UCI commands, acts on the core, and words
//! what comes back as UCI text. Searches, `go perft` and `bench` run on the engine's job
//! thread, so while one runs the loop answers `isready`, `stop`, `ponderhit` and `quit` at
//! once. `usi` switches to the USI dialect (notation, SFEN, `usiok`), `uci` back, and
//! `xboard` hands the session to the CECP front-end.
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

use super::core::{Core, ENGINE_AUTHOR, ENGINE_NAME, Ending, Flow, Frontend, MAX_LINE, Protocol, truncate};
use super::go::parse_go;
use super::notice::Report;
use super::output::{InfoStyle, UciOutput, UciReport, bench_report, info_string, perft_text};
use super::usi::{Dialect, parse_move, parse_sfen};
use super::wire::send;
use crate::board::Position;
use std::sync::Arc;

/// The UCI front-end's own state: the dialect it speaks.
#[derive(Default)]
pub struct Uci {
    dialect: Dialect,
}

impl Frontend for Uci {
    fn report(&self) -> Arc<dyn Report> {
        Arc::new(UciReport)
    }

    fn start(&mut self, _core: &mut Core) {}

    fn command(&mut self, core: &mut Core, line: &str) -> Flow {
        let line = line.trim();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else { return Flow::Continue };
        match cmd {
            "uci" => self.hello(Dialect::Uci),
            "usi" => self.hello(Dialect::Usi),
            "xboard" => return Flow::Switch(Protocol::Cecp),
            "isready" => send("readyok"),
            "debug" => {}
            "setoption" => {
                core.set_option(line.strip_prefix("setoption").unwrap_or_default());
            }
            "ucinewgame" | "usinewgame" => core.new_game(),
            "position" => self.position(core, args),
            "go" => self.go(core, args),
            "stop" => core.engine.stop(),
            "ponderhit" => core.engine.ponderhit(),
            // USI: the game is over; a ponder search that is still running has no use.
            "gameover" => core.engine.stop(),
            "d" => send(&super::display::diagram(&core.pos, self.dialect)),
            "eval" => eval(core),
            "bench" => bench(core, args),
            "quit" => return Flow::Quit,
            _ => info_string(&format!("error: unknown command '{}'", truncate(cmd))),
        }
        Flow::Continue
    }

    fn too_long(&mut self, _core: &mut Core) {
        info_string(&format!("error: line longer than {MAX_LINE} bytes ignored"));
    }

    fn close(&mut self, core: &mut Core, ending: Ending) {
        core.end_jobs(ending);
    }
}

impl Uci {
    fn hello(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        let ok = match dialect {
            Dialect::Uci => "uciok",
            Dialect::Usi => "usiok",
        };
        send(&format!("id name {ENGINE_NAME}\nid author {ENGINE_AUTHOR}\n\n{}{ok}", super::options::option_lines()));
    }

    /// `position startpos|fen <FEN>|sfen <SFEN> [moves ...]`.
    fn position(&self, core: &mut Core, args: &[&str]) {
        let moves_at = args.iter().position(|&a| a == "moves").unwrap_or(args.len());
        let (head, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or_default());
        let rules = core.options.rules();
        let parsed = match head.first().copied() {
            Some("startpos") => {
                if head.len() > 1 {
                    info_string(&format!(
                        "warning: position: ignoring '{}' after startpos",
                        truncate(&head[1..].join(" "))
                    ));
                }
                Ok(Position::startpos_with(rules))
            }
            Some("fen") => {
                Position::from_fen_with(&head[1..].join(" "), rules).map_err(|e| format!("invalid FEN: {e}"))
            }
            Some("sfen") => {
                parse_sfen(&head[1..].join(" ")).map(|p| p.with_rules(rules)).map_err(|e| format!("invalid SFEN: {e}"))
            }
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
        core.pos = pos;
    }

    fn go(&self, core: &mut Core, args: &[&str]) {
        let (go, warnings) = parse_go(args, &core.pos, self.dialect);
        for w in &warnings {
            info_string(&format!("warning: {}", truncate(w)));
        }
        // `go` during a running job waits for it (a stopped search prints its own bestmove:
        // one per go).
        core.make_room("go");
        let dialect = self.dialect;
        match go.perft {
            Some(depth) => {
                let done = move |count: super::engine::PerftCount| send(&perft_text(&count, dialect));
                core.engine.start_perft(core.pos.clone(), depth, core.options.threads, done);
            }
            None => {
                let out = UciOutput { style: InfoStyle { dialect, show_wdl: core.options.show_wdl } };
                core.engine.start_search(core.pos.clone(), go, &core.options, Arc::new(out));
            }
        }
    }
}

/// `eval`: the classical breakdown, and below it the net's score.
fn eval(core: &Core) {
    let mut text = crate::eval::breakdown(&core.pos).to_string();
    let net = core.engine.network();
    let sign = core.pos.side_to_move().sign();
    let raw = net.evaluate(&core.pos);
    let scaled = crate::eval::net_score_with_rules(&core.pos, raw);
    let state = if core.options.use_nnue { "in use" } else { "not in use: Use NNUE is off" };
    text.push_str(&format!(
        "\nNNUE evaluation ({}, {state}): {} (White's view), {} after endgame scaling",
        net.name(),
        raw * sign,
        scaled * sign
    ));
    send(&text);
}

/// `bench [depth] [threads] [hash]`, the arguments of the `sitke bench` subcommand.
fn bench(core: &mut Core, args: &[&str]) {
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
    core.make_room("bench");
    let done = |r: &crate::search::bench::BenchResult| send(&bench_report(r));
    core.engine.start_bench(values[0] as u32, values[1] as usize, values[2] as usize, &core.options, done);
}
