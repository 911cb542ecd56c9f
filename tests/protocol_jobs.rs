//! Jobs run in order, as in Fairy-Stockfish: a `go` that arrives while a finite job runs
//! waits for it, the commands after it take effect in order, `quit` lets a perft finish,
//! and only a search that would run until `stop` is stopped by a new `go`. Where
//! Debian's `fairy-stockfish` has an answer, it gets the same input and must agree.

mod uci;

use std::time::Duration;
use uci::{Engine, bestmove, field, infos};

/// The script of issue 22: position / go perft pairs and a search, piped in at once.
const SCRIPT: &[&str] = &[
    "position fen 8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1",
    "go perft 3",
    "position fen 8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72",
    "go perft 4",
    "position fen 1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1",
    "go perft 5",
    "position startpos moves K@d2 K@d7",
    "go depth 6",
];

/// A perft that takes a while (about 20 million leaves), so later commands arrive during it.
const LONG_PERFT: &str = "position fen 8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72";
/// Its leaf count at depth 5, as fairy-stockfish counts it.
const LONG_PERFT_NODES: &str = "Nodes searched: 20279526";

/// Sitke or fairy-stockfish, on Sittuyin, ready.
fn engine(fairy: bool) -> Engine {
    if fairy {
        return Engine::fairy(false);
    }
    let mut e = Engine::sitke();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name UCI_Variant value sittuyin");
    e.sync();
    e
}

/// Sends every line at once, as a script piped in would.
fn send_all(e: &mut Engine, lines: &[&str]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    e.send_raw(text.as_bytes());
}

/// The `Nodes searched` lines in what was read.
fn counts(lines: &[String]) -> Vec<String> {
    lines.iter().filter(|l| l.starts_with("Nodes searched")).cloned().collect()
}

#[test]
fn the_issue_script_prints_every_result_like_fairy_stockfish() {
    let mut results = Vec::new();
    for fairy in [true, false] {
        let mut e = engine(fairy);
        send_all(&mut e, SCRIPT);
        let out = e.expect_prefix("bestmove", Duration::from_secs(120));
        assert!(!out.iter().any(|l| l.contains("stopped")), "{out:?}");
        let last = infos(&out).last().map(|l| field(l, "depth").unwrap_or_default().to_string());
        assert_eq!(last.as_deref(), Some("6"), "the search ran to its depth");
        results.push(counts(&out));
    }
    assert_eq!(results[0].len(), 3, "{:?}", results[0]);
    assert_eq!(results[1], results[0], "Sitke's counts against fairy-stockfish's");
}

#[test]
fn quit_lets_a_running_perft_finish() {
    for fairy in [true, false] {
        let mut e = engine(fairy);
        send_all(&mut e, &[LONG_PERFT, "go perft 5", "quit"]);
        let out = e.expect_prefix("Nodes searched", Duration::from_secs(300));
        assert_eq!(out.last().unwrap(), LONG_PERFT_NODES, "fairy={fairy}");
        assert!(e.exited_within(Duration::from_secs(5)), "fairy={fairy}");
    }
}

#[test]
fn a_go_waits_for_a_finite_search_and_isready_for_both() {
    for fairy in [true, false] {
        let mut e = engine(fairy);
        send_all(&mut e, &["position startpos moves K@d2 K@d7 R@a1 R@h8", "go depth 7", "go depth 2", "isready"]);
        let out = e.expect("readyok");
        // The first search was not cut short, and it ended before readyok; the second
        // search started before readyok and may end after it.
        let first = out.iter().position(|l| l.starts_with("bestmove")).expect("the first bestmove");
        let depths: Vec<&str> = infos(&out[..first]).iter().filter_map(|l| field(l, "depth")).collect();
        assert_eq!(depths.last(), Some(&"7"), "fairy={fairy}: {out:?}");
        // On a busy machine the second search may already have ended before readyok.
        let second_done = out[first + 1..].iter().any(|l| l.starts_with("bestmove"));
        let rest = if second_done { Vec::new() } else { e.expect_prefix("bestmove", Duration::from_secs(30)) };
        let after: Vec<&String> = out[first + 1..].iter().chain(&rest).collect();
        assert_eq!(after.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "fairy={fairy}: {out:?} {rest:?}");
        assert!(after.iter().all(|l| !l.starts_with("info string")), "{out:?}");
    }
}

#[test]
fn positions_after_a_waiting_go_apply_in_order() {
    for fairy in [true, false] {
        let mut e = engine(fairy);
        send_all(
            &mut e,
            &[SCRIPT[0], "go perft 3", "ucinewgame", SCRIPT[2], "go perft 3", SCRIPT[4], "d", "go perft 2"],
        );
        let mut out = e.expect_prefix("Checkers", Duration::from_secs(120));
        assert!(out.iter().any(|l| l == "Fen: 1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1"), "fairy={fairy}: {out:?}");
        out.extend(e.expect("Nodes searched: 130"));
        // The first perft's count, the second's (the position sent after its go did not
        // reach it), then the third's.
        assert_eq!(counts(&out), ["Nodes searched: 580096", "Nodes searched: 26596", "Nodes searched: 130"]);
    }
}

#[test]
fn stop_after_a_waiting_go_stops_that_job() {
    let mut e = engine(false);
    send_all(&mut e, &[SCRIPT[0], "go perft 3", LONG_PERFT, "go perft 7", "stop", "isready"]);
    let out = e.expect("readyok");
    assert_eq!(counts(&out), ["Nodes searched: 580096"], "the running perft finished: {out:?}");
    let out = e.expect_prefix("info string perft 7", Duration::from_secs(10));
    assert!(out.last().unwrap().contains("stopped before it finished"), "{out:?}");
}

#[test]
fn a_go_stops_a_search_that_waits_for_stop() {
    let mut e = engine(false);
    // go infinite, then go ponder: each is stopped by the next go, which says so.
    e.send("position startpos moves K@d2 K@d7");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("go ponder wtime 10000 btime 10000");
    let out = e.expect_prefix("bestmove", Duration::from_secs(5));
    assert!(out.iter().any(|l| l.starts_with("info string") && l.contains("stopping that search")), "{out:?}");
    std::thread::sleep(Duration::from_millis(200));
    e.send("go depth 3");
    let out = e.expect_prefix("bestmove", Duration::from_secs(5));
    assert!(out.iter().any(|l| l.starts_with("info string") && l.contains("stopping that search")), "{out:?}");
    let out = e.expect_prefix("bestmove", Duration::from_secs(30));
    assert!(!out.iter().any(|l| l.starts_with("info string")), "{out:?}");
    // After ponderhit a ponder search is on the clock: a go waits for it.
    e.send("go ponder wtime 3000 btime 3000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ponderhit");
    e.send("go depth 2");
    let out = e.expect_prefix("bestmove", Duration::from_secs(10));
    assert!(!out.iter().any(|l| l.starts_with("info string")), "{out:?}");
    e.expect_prefix("bestmove", Duration::from_secs(10));
    let best = bestmove(e.log.last().unwrap());
    assert!(!best.is_empty());
}

#[test]
fn quit_during_a_search_exits_at_once() {
    let mut e = engine(false);
    send_all(&mut e, &["position startpos", "go depth 40", "quit"]);
    let out = e.expect_prefix("bestmove", Duration::from_secs(2));
    assert!(!out.is_empty());
    assert!(e.exited_within(Duration::from_secs(2)));
}
