//! Every kind of bad input gets an `info string` that names the problem, changes nothing it
//! should not, and the engine goes on answering.

mod uci;

use sitke::board::Position;
use std::time::Duration;
use uci::{Engine, bestmove};

/// The `Fen:` line of `d`.
fn fen_of(e: &mut Engine) -> String {
    e.send("d");
    let lines = e.expect_prefix("Checkers:", Duration::from_secs(5));
    lines.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("a Fen: line").to_string()
}

/// Sends `line`; returns the lines it produced (up to the next `readyok`).
fn answer(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.sync()
}

/// Asserts exactly one `info string` answer that contains every needle.
fn assert_names(lines: &[String], needles: &[&str]) {
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string "), "{lines:?}");
    for n in needles {
        assert!(lines[0].contains(n), "'{n}' not in {:?}", lines[0]);
    }
}

#[test]
fn malformed_fens_name_the_field_and_keep_the_position() {
    let mut e = Engine::sitke();
    e.send("position startpos moves R@a1");
    let kept = fen_of(&mut e);
    let cases: &[(&str, &[&str])] = &[
        ("position fen", &["FEN", "empty"]),
        ("position fen 8/8/8/8/8/8/8 w", &["board field", "7 ranks"]),
        ("position fen k8/8/8/8/8/8/8/K7[] w - - 0 1", &["board field", "rank 8", "9 squares"]),
        ("position fen k7/8/8/8/8/8/8/K6X[] w - - 0 1", &["board field", "'X'"]),
        ("position fen k7/8/8/8/8/8/8/K7[Q] w - - 0 1", &["pocket", "'Q'"]),
        ("position fen k7/8/8/8/8/8/8/K7[R w - - 0 1", &["pocket", "brackets"]),
        ("position fen k7/8/8/8/8/8/8/K7[] x - - 0 1", &["side to move", "'x'"]),
        ("position fen k7/8/8/8/8/8/8/K7[] w ? - 0 1", &["castling", "'?'"]),
        ("position fen k7/8/8/8/8/8/8/K7[] w - e3 0 1", &["counting limit", "'e3'"]),
        ("position fen k7/8/8/8/8/8/8/K7[] w - - -5 1", &["halfmove", "'-5'"]),
        ("position fen k7/8/8/8/8/8/8/K7[] w - - 0 99999999999999", &["move number"]),
        ("position fen k7/8/8/8/8/8/8/8[] w - - 0 1", &["White", "0 kings"]),
        ("position fen k7/R7/8/8/8/8/8/K7[] w - - 0 1", &["not to move is in check"]),
        ("position fen k7/8/8/8/8/8/8/K7[] w - - 0 1 7", &["7 fields"]),
        ("position sfen k7/8/8/8/8/8/8/K7 x - 1", &["SFEN side field", "'x'"]),
        ("position sfen k7/8/8/8/8/8/8/K7 b 3Z 1", &["SFEN hand field", "'3Z'"]),
        ("position sfen k7/8/8/8/8/8/8/K7 b - 0", &["SFEN move count", "'0'"]),
        ("position", &["expected 'startpos', 'fen' or 'sfen'"]),
        ("position somewhere", &["'somewhere'"]),
    ];
    for (line, needles) in cases {
        let out = answer(&mut e, line);
        assert_names(&out, needles);
        assert!(out[0].contains("position unchanged"), "{out:?}");
        assert_eq!(fen_of(&mut e), kept, "after {line}");
    }
}

#[test]
fn bad_moves_keep_the_position_after_the_last_legal_one() {
    let mut e = Engine::sitke();
    let cases: &[(&str, &[&str], &str)] = &[
        ("position startpos moves K@e2 K@d7 e2e9", &["move 3", "unparsable", "'e2e9'", "after move 2"], "K@e2 K@d7"),
        ("position startpos moves K@e2 K@d7 R@e4", &["move 3", "illegal", "'R@e4'"], "K@e2 K@d7"),
        ("position startpos moves k@e2 q@d7", &["move 2", "unparsable", "'q@d7'"], "K@e2"),
        ("position startpos moves e3e4", &["move 1", "illegal", "after move 0"], ""),
        ("position startpos moves K@e2 K@e2", &["move 2", "illegal"], "K@e2"),
    ];
    for (line, needles, applied) in cases {
        let out = answer(&mut e, line);
        assert_names(&out, needles);
        let mut pos = Position::startpos();
        for m in applied.split_whitespace() {
            pos.do_move(pos.parse_uci_move(m).unwrap());
        }
        assert_eq!(fen_of(&mut e), pos.fen(), "after {line}");
    }
    // Drop letters in either case are fine, and a search from the kept position works.
    assert!(answer(&mut e, "position startpos moves k@e2 r@a8 n@b2").is_empty());
    let out = e.go("depth 3");
    let fen = fen_of(&mut e);
    assert!(Position::from_fen(&fen).unwrap().parse_uci_move(&bestmove(out.last().unwrap())).is_ok());
    // USI notation is refused in UCI mode, with the move named.
    assert_names(&answer(&mut e, "position startpos moves K*2h"), &["'K*2h'"]);
}

#[test]
fn bad_options_are_refused_with_a_reason() {
    let mut e = Engine::sitke();
    let cases: &[(&str, &[&str])] = &[
        ("setoption name Hash value -1", &["Hash", "-1", "outside 1..65536"]),
        ("setoption name Hash value 99999999999999999999999999", &["Hash", "outside"]),
        ("setoption name Threads value many", &["Threads", "'many'", "not an integer"]),
        ("setoption name MultiPV", &["MultiPV", "needs 'value"]),
        ("setoption name Ponder value yes", &["Ponder", "'yes'", "true"]),
        ("setoption name NoSuchOption value 1", &["no such option", "'NoSuchOption'"]),
        ("setoption value 5", &["setoption name <id>"]),
        ("setoption", &["setoption name <id>"]),
        ("setoption name UCI_Variant value chess", &["variant 'chess'", "staying on sittuyin"]),
        ("setoption name UCI_Variant value", &["UCI_Variant", "needs 'value"]),
        ("setoption name Skill Level value 21", &["Skill Level", "outside 0..20"]),
    ];
    for (line, needles) in cases {
        assert_names(&answer(&mut e, line), needles);
    }
    // Still on sittuyin with its options: a search works and MultiPV stayed at 1.
    e.send("position startpos");
    let out = e.go("depth 3");
    assert!(out.iter().filter(|l| l.starts_with("info depth")).all(|l| l.contains("multipv 1 ")));
}

#[test]
fn bad_go_values_still_search() {
    let mut e = Engine::sitke();
    e.send("position startpos");
    for (args, needle) in [
        ("wtime -500 btime -500", Some("'wtime -500' is below 0")),
        ("depth -3", Some("depth -3")),
        ("depth 99999999999999999999999 movetime 50", Some("too large")),
        ("nodes abc depth 2", Some("'nodes abc'")),
        ("movetime depth 2", Some("'movetime depth' is not a number")),
        ("depth 2 movetime", Some("'movetime' needs a value")),
        ("frobnicate 3 depth 2", Some("'frobnicate'")),
        ("searchmoves e2e4 depth 2", Some("e2e4")),
        ("wtime 100 btime 100 winc -5 binc 99999999999999 movestogo 0", Some("movestogo 0")),
    ] {
        let out = e.go(args);
        if let Some(n) = needle {
            assert!(out.iter().any(|l| l.starts_with("info string") && l.contains(n)), "{args}: {out:?}");
        }
        let best = bestmove(out.last().unwrap());
        assert!(Position::startpos().parse_uci_move(&best).is_ok(), "{args}: {best}");
    }
    // A huge perft depth is capped, and stop interrupts it.
    e.send("go perft 99");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let out = e.expect_prefix("info string perft", Duration::from_secs(5));
    assert!(out.iter().any(|l| l.contains("too large")), "{out:?}");
    assert!(out.last().unwrap().contains("stopped"));
}

#[test]
fn odd_lines_and_commands_out_of_order() {
    let mut e = Engine::sitke();
    // Before `uci`, searches and positions work all the same.
    e.send("position startpos moves K@e2");
    let out = e.go("depth 2");
    assert!(out.last().unwrap().starts_with("bestmove"));
    // stop and ponderhit with nothing running are ignored; so are empty and blank lines.
    for line in ["stop", "ponderhit", "", "   ", "\t", "debug on", "debug off", "gameover win"] {
        assert!(answer(&mut e, line).is_empty(), "{line:?}");
    }
    assert_names(&answer(&mut e, "frobnicate now"), &["unknown command 'frobnicate'"]);
    assert_names(&answer(&mut e, "GO depth 1"), &["unknown command 'GO'"]);
    // CRLF line ends, and tabs and runs of spaces between words.
    e.send_raw(b"position\tstartpos   moves K@e2\r\nisready\r\n");
    e.expect("readyok");
    assert_eq!(fen_of(&mut e), "8/8/4pppp/pppp4/4PPPP/PPPP4/4K3/8[SSFRRNNkssfrrnn] b - - 0 1");
    // Bytes that are not UTF-8, and control characters.
    e.send_raw(b"\xff\xfe\x00position\x01\n");
    let out = e.sync();
    assert!(out.len() == 1 && out[0].starts_with("info string error: unknown command"), "{out:?}");
    // A very long line is refused without being echoed in full; a long legal one works.
    let long = "x".repeat(2 << 20);
    let out = answer(&mut e, &long);
    assert!(out.len() == 1 && out[0].contains("ignored") && out[0].len() < 200, "{}", out.len());
    let mut moves = Vec::new();
    let mut pos = Position::startpos();
    for i in 0..300 {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.outcome().is_over() {
            break;
        }
        let m = legal.as_slice()[(i * 7919) % legal.len()];
        moves.push(m.to_string());
        pos.do_move(m);
    }
    assert!(answer(&mut e, &format!("position startpos moves {}", moves.join(" "))).is_empty());
    assert_eq!(fen_of(&mut e), pos.fen());
    let long_word = format!("position fen {}", "8/".repeat(100_000));
    let out = answer(&mut e, &long_word);
    assert_eq!(out.len(), 1);
    assert!(out[0].len() < 400, "echoes are cut: {} bytes", out[0].len());
    // setoption and go in the middle of a search: the option waits, the old search ends
    // with its own bestmove, then the new one runs; one bestmove per go.
    e.send("position startpos");
    e.send("go infinite");
    e.send("setoption name Hash value 4");
    e.send("setoption name Clear Hash");
    e.send("ucinewgame");
    e.send("go depth 3");
    e.send("isready");
    // The depth-3 search may finish before or after `readyok` (a loaded machine decides),
    // so read until both bestmoves and the readyok have come, in whatever order.
    let (mut ready, mut bestmoves) = (false, 0);
    let out = e.read_until(Duration::from_secs(20), |l| {
        ready |= l == "readyok";
        bestmoves += l.starts_with("bestmove") as usize;
        ready && bestmoves >= 2
    });
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 2, "{out:?}");
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")), "a third bestmove");
    // `uci` twice, `isready` many times in a row.
    e.send("uci");
    e.expect("uciok");
    for _ in 0..50 {
        e.send("isready");
    }
    for _ in 0..50 {
        e.expect("readyok");
    }
}
