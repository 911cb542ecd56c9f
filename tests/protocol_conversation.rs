//! Whole conversations with the real binary: the cutechess sequence of docs/protocol.md, searches
//! by depth, nodes and clock, stop, ponder and ponderhit, go infinite, option changes between
//! games, MultiPV, WDL, mate scores, no legal move, quit and end of input.

mod uci;

use sitke::board::Position;
use std::time::{Duration, Instant};
use uci::{Engine, bestmove, field, infos};

/// Mate in two for White (Fairy-Stockfish: c6b6 a8b8 h1h8; Kc7 mates in two as well).
const MATE_IN_2: &str = "k7/8/2K5/8/8/8/8/7R[] w - - 0 1";
/// Mate in one for White: a1a8.
const MATE_IN_1: &str = "2k5/8/2K5/8/8/8/8/R7[] w - - 0 1";

/// Applies UCI moves to the start position.
fn after(moves: &[String]) -> Position {
    let mut pos = Position::startpos();
    for m in moves {
        let mv = pos.parse_uci_move(m).unwrap_or_else(|e| panic!("{e} after {moves:?}"));
        pos.do_move(mv);
    }
    pos
}

/// Checks an `info depth` line: docs/protocol.md's fields in its order.
fn check_info_line(line: &str) {
    let keys: Vec<&str> = line
        .split_whitespace()
        .filter(|w| {
            ["depth", "seldepth", "multipv", "score", "wdl", "nodes", "nps", "hashfull", "time", "pv"].contains(w)
        })
        .collect();
    let order = ["depth", "seldepth", "multipv", "score", "wdl", "nodes", "nps", "hashfull", "time", "pv"];
    let expected: Vec<&str> = order.iter().copied().filter(|k| keys.contains(k)).collect();
    assert_eq!(keys, expected, "{line}");
    for k in ["depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"] {
        assert!(keys.contains(&k), "missing {k}: {line}");
    }
    let score = field(line, "score").unwrap();
    assert!(score == "cp" || score == "mate", "{line}");
}

#[test]
fn cutechess_game_sequence() {
    let mut e = Engine::sitke();
    e.send("uci");
    let hello = e.expect("uciok");
    assert!(hello[0].starts_with("id name Sitke"));
    assert!(hello[1].starts_with("id author"));
    // Every option docs/protocol.md lists (this is the one place that checks the list).
    for name in [
        "UCI_Variant type combo default sittuyin var sittuyin",
        "Threads type spin",
        "Hash type spin",
        "Clear Hash type button",
        "Ponder type check",
        "MultiPV type spin",
        "Move Overhead type spin",
        "Skill Level type spin",
        "UCI_LimitStrength type check",
        "UCI_Elo type spin",
        "UCI_ShowWDL type check",
        "UCI_AnalyseMode type check",
        "TablebasePath type string default <empty>",
        "Use NNUE type check default true",
        "EvalFile type string default <empty>",
    ] {
        assert!(hello.iter().any(|l| l.starts_with(&format!("option name {name}"))), "{name}");
    }
    assert!(e.sync().is_empty());
    e.send("setoption name UCI_Variant value sittuyin");
    e.expect(
        "info string variant sittuyin files 8 ranks 8 pocket 6 template bughouse startpos \
         8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1",
    );
    e.send("debug on");
    e.send("ucinewgame");
    e.send("setoption name Ponder value false");
    e.send("position startpos");
    assert!(e.sync().is_empty(), "no output for the setup commands");
    // Play 24 plies (the whole setup and a few board moves) on cutechess's clock.
    let mut moves: Vec<String> = Vec::new();
    let (mut wtime, mut btime) = (2050i64, 2050i64);
    for ply in 0..24 {
        let start = Instant::now();
        let out = e.go(&format!("wtime {wtime} btime {btime} winc 50 binc 50"));
        let used = start.elapsed().as_millis() as i64;
        let best = bestmove(out.last().unwrap());
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
        for l in infos(&out) {
            check_info_line(l);
        }
        let pos = after(&moves);
        assert!(pos.parse_uci_move(&best).is_ok(), "illegal bestmove {best} at ply {ply}");
        // The clocks move as cutechess moves them; whether they suffice is the time-management
        // benchmark's question (scripts/tm_bench.py), not a timed test's.
        if ply % 2 == 0 {
            wtime = (wtime + 50 - used).max(1);
        } else {
            btime = (btime + 50 - used).max(1);
        }
        moves.push(best);
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        assert!(e.sync().is_empty());
    }
    // A host that answers each bestmove at once (no isready) never finds the engine busy.
    for _ in 0..20 {
        e.send("position startpos moves K@e2");
        e.go("depth 1");
    }
    let strays: Vec<&String> =
        e.log.iter().filter(|l| l.starts_with("info string") && !l.starts_with("info string variant")).collect();
    assert!(strays.is_empty(), "{strays:?}");
    e.send("quit");
    assert!(e.exited_within(Duration::from_secs(2)));
}

#[test]
fn fixed_depth_and_nodes() {
    let mut e = Engine::sitke();
    e.send("position startpos moves K@e2 K@d7 R@a1 R@h8");
    let out = e.go("depth 6");
    let last = infos(&out).last().copied().unwrap().clone();
    assert_eq!(field(&last, "depth"), Some("6"));
    assert!(infos(&out).iter().all(|l| field(l, "depth").unwrap().parse::<u32>().unwrap() <= 6));
    let out = e.go("nodes 3000");
    let nodes: u64 = field(infos(&out).last().unwrap(), "nodes").unwrap().parse().unwrap();
    // The limit is checked every 1024 nodes, so the count may pass it by about that much.
    assert!(nodes <= 3000 + 2048, "{nodes}");
    let pos = Position::from_fen("8/8/4pppp/pppp4/4PPPP/PPPP4/4K3/R7[SSFRNNkssfrrnn] b - - 0 2").unwrap();
    e.send(&format!("position fen {}", pos.fen()));
    let out = e.go("depth 3 searchmoves N@a6 n@b6");
    let best = bestmove(out.last().unwrap());
    assert!(best == "N@a6" || best == "N@b6", "{best}");
    let start = Instant::now();
    e.go("movetime 300");
    let t = start.elapsed();
    assert!(t >= Duration::from_millis(250) && t < Duration::from_millis(1500), "{t:?}");
}

#[test]
fn infinite_waits_for_stop_and_isready_answers_meanwhile() {
    let mut e = Engine::sitke();
    // A mate in 2: the search reaches its depth cap almost at once, and must still wait.
    e.send(&format!("position fen {MATE_IN_2}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.expect("readyok");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    e.no_bestmove_within(Duration::from_millis(200));
    e.send("stop");
    e.expect_prefix("bestmove", Duration::from_secs(2));
    let last_info = e.log.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
    assert_eq!(field(last_info, "mate"), Some("2"), "{last_info}");
    // A long search in a rich position stops promptly too.
    e.send("position startpos moves K@e2 K@d7");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    e.send("stop");
    e.expect_prefix("bestmove", Duration::from_secs(2));
    assert!(start.elapsed() < Duration::from_millis(500));
    // Nothing more: one bestmove per go.
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut e = Engine::sitke();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves K@e2 K@d7");
    e.send("go ponder wtime 10000 btime 10000 winc 100 binc 100");
    // Pondering: no clock applies, so nothing comes however long it takes.
    e.no_bestmove_within(Duration::from_millis(600));
    let start = Instant::now();
    e.send("ponderhit");
    let out = e.expect_prefix("bestmove", Duration::from_secs(10));
    // After ponderhit the clock rules: the move comes within the budget of 10 s + 0.1 s.
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    // A ponder search that ends by itself (mate found) holds its move until ponderhit.
    e.send(&format!("position fen {MATE_IN_2}"));
    e.send("go ponder depth 3");
    e.read_until(Duration::from_secs(2), |l| l.starts_with("info depth 3"));
    e.no_bestmove_within(Duration::from_millis(400));
    e.send("ponderhit");
    let out = e.expect_prefix("bestmove", Duration::from_secs(2));
    assert!(Position::from_fen(MATE_IN_2).unwrap().parse_uci_move(&bestmove(out.last().unwrap())).is_ok());
    // A ponder miss: the host sends stop, and gets exactly one bestmove.
    e.send("position startpos moves K@e2 K@d7 N@a1");
    e.send("go ponder wtime 10000 btime 10000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.expect_prefix("bestmove", Duration::from_secs(2));
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn multipv_lines_and_option_changes_between_games() {
    let mut e = Engine::sitke();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves K@e2 K@d7 R@a1 R@h8");
    let out = e.go("depth 5");
    let last_depth: Vec<&String> = infos(&out).into_iter().filter(|l| field(l, "depth") == Some("5")).collect();
    let pvs: Vec<&str> = last_depth.iter().map(|l| field(l, "multipv").unwrap()).collect();
    assert_eq!(pvs, ["1", "2", "3"]);
    let firsts: std::collections::HashSet<&str> = last_depth.iter().map(|l| field(l, "pv").unwrap()).collect();
    assert_eq!(firsts.len(), 3, "three different first moves: {last_depth:?}");
    let best = bestmove(out.last().unwrap());
    assert_eq!(Some(best.as_str()), field(last_depth[0], "pv"));
    // A new game with other options: smaller table, two threads, WDL shown, one line.
    e.send("ucinewgame");
    e.send("setoption name Hash value 1");
    e.send("setoption name Threads value 2");
    e.send("setoption name MultiPV value 1");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name Clear Hash");
    e.send("position startpos");
    assert!(e.sync().is_empty());
    let out = e.go("depth 5");
    for l in infos(&out) {
        check_info_line(l);
        assert_eq!(field(l, "multipv"), Some("1"));
        let words: Vec<&str> = l.split_whitespace().collect();
        let i = words.iter().position(|&w| w == "wdl").expect("wdl shown");
        let sum: u32 = words[i + 1..i + 4].iter().map(|w| w.parse::<u32>().unwrap()).sum();
        assert_eq!(sum, 1000, "{l}");
    }
    assert!(after(&[]).parse_uci_move(&bestmove(out.last().unwrap())).is_ok());
    // And a weak player: Skill Level 0 still answers with legal moves, quickly.
    e.send("ucinewgame");
    e.send("setoption name Threads value 1");
    e.send("setoption name Skill Level value 0");
    e.send("setoption name UCI_ShowWDL value false");
    let mut moves = Vec::new();
    for _ in 0..20 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let out = e.go("wtime 60000 btime 60000");
        let best = bestmove(out.last().unwrap());
        assert!(after(&moves).parse_uci_move(&best).is_ok(), "{best}");
        assert!(infos(&out).iter().all(|l| !l.contains(" wdl ") && field(l, "multipv") == Some("1")));
        moves.push(best);
    }
}

#[test]
fn mate_scores_and_positions_without_moves() {
    let mut e = Engine::sitke();
    e.send(&format!("position fen {MATE_IN_2}"));
    let out = e.go("depth 12");
    let mate: i32 = field(infos(&out).last().unwrap(), "mate").expect("a mate score").parse().unwrap();
    assert!((2..=5).contains(&mate), "{out:?}");
    e.send(&format!("position fen {MATE_IN_1}"));
    let out = e.go("mate 1");
    assert_eq!(field(infos(&out).last().unwrap(), "mate"), Some("1"));
    assert_eq!(bestmove(out.last().unwrap()), "a1a8");
    // Checkmated and stalemated: no move to play.
    e.send(&format!("position fen {MATE_IN_1} moves a1a8"));
    let out = e.go("depth 5");
    assert_eq!(out, ["info depth 0 score mate 0", "bestmove (none)"]);
    e.send("position fen k7/1R6/1K6/8/8/8/8/8[] b - - 0 1");
    let out = e.go("wtime 1000 btime 1000");
    assert_eq!(out, ["info depth 0 score cp 0", "bestmove (none)"]);
}

#[test]
fn display_eval_bench_and_perft() {
    let mut e = Engine::sitke();
    e.send("position startpos moves R@a1");
    e.send("d");
    let d = e.expect_prefix("Checkers:", Duration::from_secs(5));
    assert!(d.contains(&"Fen: 8/8/4pppp/pppp4/4PPPP/PPPP4/8/R7[KSSFRNNkssfrrnn] b - - 0 1".to_string()));
    assert!(d.iter().any(|l| l.starts_with("Key: ") && l.len() == 5 + 16));
    e.send("eval");
    let ev = e.expect_prefix("Final evaluation", Duration::from_secs(5));
    assert!(ev.iter().any(|l| l.contains("MATERIAL")));
    e.send("bench 4");
    let b = e.expect_prefix("Nodes/second", Duration::from_secs(60));
    let nodes = b.iter().find(|l| l.starts_with("Nodes searched  : ")).unwrap().clone();
    let cli = std::process::Command::new(uci::SITKE).args(["bench", "4"]).output().unwrap();
    let cli = String::from_utf8(cli.stdout).unwrap();
    assert!(cli.lines().any(|l| l == nodes), "the same signature as `sitke bench 4`: {nodes} vs {cli}");
    e.send("position startpos");
    e.send("go perft 2");
    let p = e.expect_prefix("Nodes searched:", Duration::from_secs(10));
    assert_eq!(p.last().unwrap(), "Nodes searched: 7744");
    assert_eq!(p.iter().filter(|l| l.ends_with(": 88")).count(), 88);
}

#[test]
fn quit_mid_search_and_end_of_input() {
    let mut e = Engine::sitke();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    e.send("quit");
    assert!(e.exited_within(Duration::from_secs(1)));
    assert!(start.elapsed() < Duration::from_millis(500));
    // At the end of input a bounded search still finishes and prints its move.
    let mut e = Engine::sitke();
    e.send("position startpos");
    e.send("go depth 4");
    e.close_stdin();
    let out = e.expect_prefix("bestmove", Duration::from_secs(10));
    assert_eq!(field(infos(&out).last().unwrap(), "depth"), Some("4"));
    assert!(e.exited_within(Duration::from_secs(2)));
}

#[test]
fn usi_mode() {
    let mut e = Engine::sitke();
    e.send("usi");
    let hello = e.expect("usiok");
    assert!(hello.iter().any(|l| l.starts_with("option name UCI_Variant type combo default sittuyin")));
    e.send("setoption name UCI_Variant value sittuyin");
    e.expect_prefix("info string variant sittuyin", Duration::from_secs(2));
    e.send("setoption name USI_Hash value 8");
    e.send("usinewgame");
    e.send("position startpos moves K*2h k*5b");
    e.send("d");
    let d = e.expect_prefix("Checkers:", Duration::from_secs(5));
    // K*2h is K@g1 and k*5b is K@d7.
    assert!(d.contains(&"Sfen: 8/3k4/4pppp/pppp4/4PPPP/PPPP4/8/6K1 b 2SF2R2N2sf2r2n 3".to_string()), "{d:?}");
    let out = e.go("btime 2000 wtime 2000 byoyomi 100");
    let best = bestmove(out.last().unwrap());
    let mut pos = Position::startpos();
    for m in ["K@g1", "K@d7"] {
        pos.do_move(pos.parse_uci_move(m).unwrap());
    }
    let m = sitke::protocol::usi::parse_move(&pos, &best, sitke::protocol::Dialect::Usi);
    assert!(m.is_ok(), "USI bestmove {best}");
    assert!(infos(&out).iter().all(|l| !l.contains('@')), "PVs in USI notation");
    // SFEN in, checkmated side: resign.
    e.send("position sfen 2k5/8/2K5/8/8/8/8/R7 b - 1 moves 8h8a");
    let out = e.go("depth 3");
    assert_eq!(out.last().unwrap(), "bestmove resign");
    // Back to UCI on request.
    e.send("uci");
    e.expect("uciok");
    e.send("position startpos moves K@g1");
    e.go("depth 2");
}

#[test]
fn debug_log_shows_the_traffic_on_stderr_only() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(uci::SITKE)
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"isready\nposition startpos\ngo depth 2\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stdout.starts_with("readyok\n") && stdout.contains("bestmove "), "{stdout}");
    for needle in ["<< isready", ">> readyok", "<< go depth 2", ">> bestmove "] {
        assert!(stderr.contains(needle), "{needle} not in {stderr}");
    }
    assert!(!stdout.contains("<<") && !stdout.contains(">>"));
}

#[test]
fn search_constants_apply_from_the_next_go() {
    // A fixed-depth search on one thread after `ucinewgame` is repeatable to the node, so the
    // node count shows which settings a search ran with.
    let fen = "2f1rsr1/k2n1n1s/4pppp/pppp4/4PPPP/PPPP1N2/4NF1S/2SRKR2[] w - - 0 9";
    let mut e = Engine::sitke();
    let nodes = |e: &mut Engine, before_go: &[&str], during: &[&str]| -> u64 {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        for line in before_go {
            e.send(line);
        }
        // Deep enough (tens of thousands of nodes) that a line sent after `go` lands mid-search.
        e.send("go depth 10");
        for line in during {
            e.send(line);
        }
        let out = e.expect_prefix("bestmove", Duration::from_secs(60));
        let last = infos(&out).last().copied().cloned().expect("an info line");
        field(&last, "nodes").unwrap().parse().unwrap()
    };
    let default = nodes(&mut e, &[], &[]);
    // A switch set while a search runs waits for the next one.
    assert_eq!(nodes(&mut e, &[], &["setoption name USE_LMR value 0"]), default);
    let ablated = nodes(&mut e, &[], &[]);
    assert!(ablated > default, "without reductions the tree grows: {ablated} vs {default}");
    assert_eq!(nodes(&mut e, &["setoption name use_lmr value 1"], &[]), default);
}

/// The built-in net evaluates by default; `EvalFile` swaps nets, a bad file is refused with
/// the reason and the net in use stays, an empty path brings the built-in net back, and
/// `Use NNUE` false goes back to the classical evaluation.
#[test]
fn the_built_in_net_and_eval_file() {
    let built_in = sitke::eval::nnue::embedded::NAME;
    let net_line = |lines: &[String]| -> String {
        lines.iter().find(|l| l.starts_with("NNUE evaluation")).cloned().unwrap_or_else(|| panic!("{lines:?}"))
    };
    let mut e = Engine::sitke();
    e.send("uci");
    e.expect("uciok");
    e.send("position fen 2rrn3/3k4/fss1Nppp/pp6/5PPP/PP1P3F/5N1K/3R1SR1[] b - - 0 16");
    e.send("eval");
    let first = net_line(&e.sync());
    assert!(first.contains(&format!("({built_in}, in use)")), "{first}");

    let dir = std::env::temp_dir().join(format!("sitke-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.nnue");
    std::fs::write(&bad, b"SITKENNU but not a net").unwrap();
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    let refused = e.sync();
    assert!(
        refused
            .iter()
            .any(|l| l.starts_with("info string error: EvalFile") && l.contains(&format!("keeping {built_in}"))),
        "{refused:?}"
    );
    e.send("eval");
    assert_eq!(net_line(&e.sync()), first, "the net in use stays after a bad file");

    // Another net: the built-in one's own bytes, under another name, loads under the same name.
    let copy = dir.join("copy.nnue");
    std::fs::copy(format!("{}/nets/{built_in}.nnue", env!("CARGO_MANIFEST_DIR")), &copy).unwrap();
    e.send(&format!("setoption name EvalFile value {}", copy.display()));
    let loaded = e.sync();
    assert!(
        loaded.iter().any(|l| l == &format!("info string NNUE net {built_in} loaded from {}", copy.display())),
        "{loaded:?}"
    );
    e.send("setoption name EvalFile value");
    let back = e.sync();
    assert!(back.iter().any(|l| l == &format!("info string NNUE net {built_in} (built in) loaded")), "{back:?}");

    e.send("setoption name Use NNUE value false");
    e.send("eval");
    let off = net_line(&e.sync());
    assert!(off.contains("not in use: Use NNUE is off"), "{off}");
    let out = e.go("depth 4");
    assert!(bestmove(out.last().unwrap()).len() >= 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Setting the rules already in force keeps the position (hosts send `UCI_Variant sittuyin`
/// at any time, cutechess before every game); other rules start it again under them.
#[test]
fn setting_the_same_rules_keeps_the_position() {
    let mut e = Engine::sitke();
    e.send("position startpos moves K@g2");
    e.send("setoption name UCI_Variant value sittuyin");
    e.send("setoption name Rules value variant");
    e.send("d");
    let out = e.expect_prefix("Checkers", Duration::from_secs(10));
    assert!(out.iter().any(|l| l.starts_with("Fen: ") && l.contains("6K1/8[") && l.contains(" b ")), "{out:?}");
    e.send("setoption name UCI_Variant value sittuyin-club");
    e.send("d");
    let out = e.expect_prefix("Checkers", Duration::from_secs(10));
    let fen = out.iter().find(|l| l.starts_with("Fen: ")).unwrap();
    assert_eq!(fen.trim_start_matches("Fen: "), "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1");
}
