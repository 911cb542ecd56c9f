//! CECP conversations with the real binary, as XBoard and cutechess hold them: features,
//! the variant's `setup` and `piece` lines (the same as Debian's `fairy-stockfish` sends),
//! a game on the clock with thinking output, drops and both kinds of promotion, pondering,
//! analysis, result claims, `ping` ordering, options, and every kind of error.

mod uci;

use sitke::board::{Outcome, Position};
use std::time::{Duration, Instant};
use uci::Engine;

/// Mate in one for White: a1a8.
const MATE_IN_1: &str = "2k5/8/2K5/8/8/8/8/R7[] w - - 0 1";

/// Sitke in CECP mode, features read.
fn xboard() -> (Engine, Vec<String>) {
    let mut e = Engine::sitke();
    e.send("xboard");
    e.send("protover 2");
    let features = e.expect("feature done=1");
    (e, features)
}

/// `ping N`, and every line before `pong N`.
fn sync(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let mut lines = e.expect(&format!("pong {n}"));
    lines.pop();
    lines
}

/// Reads up to the engine's `move` line; returns the lines and the move.
fn engine_move(e: &mut Engine, timeout: Duration) -> (Vec<String>, String) {
    let lines = e.expect_prefix("move ", timeout);
    let mv = lines.last().unwrap()["move ".len()..].to_string();
    (lines, mv)
}

/// Checks a thinking line: `ply score time nodes pv`.
fn check_thinking(line: &str, pos: &Position) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert!(words.len() >= 5, "{line}");
    for w in &words[..4] {
        assert!(w.parse::<i64>().is_ok(), "{line}");
    }
    let mut p = pos.clone();
    for m in &words[4..] {
        let mv = p.parse_uci_move(m).unwrap_or_else(|e| panic!("{e} in the PV of {line}"));
        p.do_move(mv);
    }
}

#[test]
fn features_and_the_variant_lines_match_fairy_stockfish() {
    let (mut e, features) = xboard();
    let all = features.join("\n");
    for f in [
        "variants=\"sittuyin,sittuyin-federation,sittuyin-club,sittuyin-pritchard\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "playother=1",
        "analyze=1",
        "memory=1",
        "smp=1",
        "sigint=0",
        "sigterm=0",
        "myname=\"Sitke",
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"Clear Hash -button\"",
    ] {
        assert!(all.contains(f), "{f} not in {all}");
    }
    assert!(features.iter().all(|l| l.starts_with("feature ")), "{features:?}");
    // XBoard answers each feature; those answers need no reply.
    for l in ["accepted setboard", "rejected highlight", "computer", "name Someone", "rating 2000 1800", "random"] {
        e.send(l);
    }
    assert!(sync(&mut e, 1).is_empty());
    // The lines that teach XBoard the variant: exactly what fairy-stockfish sends.
    let mut fairy = Engine::start(uci::FAIRY, &[]);
    for x in [&mut e, &mut fairy] {
        x.send("xboard");
        x.send("protover 2");
        x.send("new");
        x.send("variant sittuyin");
        x.send("ping 2");
    }
    let ours: Vec<String> = e.expect("pong 2").into_iter().filter(|l| !l.starts_with("feature")).collect();
    let theirs: Vec<String> =
        fairy.expect("pong 2").into_iter().filter(|l| l.starts_with("setup") || l.starts_with("piece")).collect();
    assert_eq!(ours[..ours.len() - 1], theirs[..], "setup and piece lines");
    assert_eq!(theirs.len(), 7);
    // And the highlight boards for the same lifts.
    for x in [&mut e, &mut fairy] {
        x.send("setboard 4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 40");
        for sq in ["d5", "e1", "a2", "e8", "b6"] {
            x.send(&format!("lift {sq}"));
        }
        x.send("ping 3");
    }
    let ours: Vec<String> = e.expect("pong 3").into_iter().filter(|l| l.starts_with("highlight")).collect();
    let theirs: Vec<String> = fairy.expect("pong 3").into_iter().filter(|l| l.starts_with("highlight")).collect();
    assert_eq!(ours.len(), 5);
    assert_eq!(ours, theirs);
}

#[test]
fn a_game_on_the_clock_as_cutechess_plays_it() {
    let (mut e, _) = xboard();
    for l in ["accepted done", "new", "variant sittuyin", "force", "level 0 0:10 0.1", "post", "easy"] {
        e.send(l);
    }
    let out = sync(&mut e, 1);
    assert_eq!(out.iter().filter(|l| l.starts_with("setup") || l.starts_with("piece")).count(), 7);
    let mut pos = Position::startpos();
    let (mut own, mut opp) = (1000i64, 1000i64);
    // Sitke plays both sides, 40 plies: `go` for its first move, then `usermove` for the
    // other side's, as cutechess sends them to each engine.
    e.send(&format!("time {own}"));
    e.send(&format!("otim {opp}"));
    e.send("go");
    for ply in 0..40 {
        let start = Instant::now();
        let (lines, mv) = engine_move(&mut e, Duration::from_secs(30));
        let used = start.elapsed().as_millis() as i64 / 10;
        for l in lines.iter().filter(|l| l.starts_with(|c: char| c.is_ascii_digit())) {
            check_thinking(l, &pos);
        }
        assert!(lines.iter().all(|l| !l.starts_with("Error") && !l.starts_with("Illegal")), "{lines:?}");
        let m = pos.parse_uci_move(&mv).unwrap_or_else(|err| panic!("ply {ply}: {err}"));
        pos.do_move(m);
        if pos.outcome().is_over() {
            break;
        }
        // The engine's next move is for the other side: it gets the move as a usermove
        // after `force` and a `go`, as a GUI would hand the other side to it.
        own = (own - used + 10).max(1);
        std::mem::swap(&mut own, &mut opp);
        e.send("force");
        e.send(&format!("time {own}"));
        e.send(&format!("otim {opp}"));
        e.send("go");
        if ply == 20 {
            // cutechess's `st` + `sd`: a fixed depth.
            e.send("sd 2");
        }
    }
    assert!(pos.game_ply() >= 20, "{}", pos.fen());
    assert!(pos.moves_played().any(|m| m.is_drop()) && pos.moves_played().any(|m| !m.is_drop()));
}

#[test]
fn usermoves_drops_and_promotions() {
    let (mut e, _) = xboard();
    e.send("new");
    e.send("force");
    // Drops in either case, as XBoard writes them.
    for m in ["K@e2", "k@d7", "R@a1", "r@h8"] {
        e.send(&format!("usermove {m}"));
    }
    assert!(sync(&mut e, 1).is_empty());
    // Promotion in place and by a diagonal step, then the engine (White) answers.
    e.send("setboard 4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 40");
    e.send("usermove d5d5f");
    e.send("usermove e8e7");
    e.send("undo");
    e.send("undo");
    e.send("usermove d5e6f");
    e.send("usermove e8e7");
    e.send("sd 4");
    e.send("go");
    let (_, mv) = engine_move(&mut e, Duration::from_secs(10));
    let mut pos = Position::from_fen("4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 40").unwrap();
    for m in ["d5e6f", "e8e7"] {
        pos.do_move(pos.parse_uci_move(m).unwrap());
    }
    assert!(pos.parse_uci_move(&mv).is_ok(), "{mv}");
    assert!(sync(&mut e, 2).iter().all(|l| !l.starts_with("Illegal")));
    // XBoard (which answers features with `accepted`) passes a promotion in place on as two
    // legs through an empty square; Black's comes in a mangled form of its own.
    e.send("accepted highlight");
    e.send("force");
    e.send("setboard 1r6/8/3p4/3P4/8/k7/8/K7[] w - - 0 70");
    e.send("usermove d5e6,e6d5f");
    e.send("setboard k7/8/K7/8/3p4/3P4/8/1R6[] b - - 0 70");
    e.send("usermove d4d4,e3c4");
    e.send("usermove d4e3,e3d4f");
    assert_eq!(sync(&mut e, 3), ["Illegal move: d4e3,e3d4f"], "White is to move now");
    // A bare position with few moves: the engine still answers with a legal one.
    e.send("force");
    e.send("setboard 8/8/8/8/8/1k6/8/K1R5[] w - - 0 60");
    e.send("go");
    let (_, mv) = engine_move(&mut e, Duration::from_secs(10));
    let p = Position::from_fen("8/8/8/8/8/1k6/8/K1R5[] w - - 0 60").unwrap();
    assert!(p.parse_uci_move(&mv).is_ok(), "{mv}");
}

#[test]
fn mate_scores_claims_and_ping_after_the_move() {
    let (mut e, _) = xboard();
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {MATE_IN_1}"));
    e.send("post");
    e.send("sd 6");
    e.send("go");
    e.send("ping 5");
    // pong only after the move; the mate is claimed right after it.
    let out = e.expect("pong 5");
    let mv = out.iter().position(|l| l == "move a1a8").expect("the mating move");
    assert_eq!(out[mv + 1], "1-0 {White mates}");
    let last_thinking = out[..mv].iter().rev().find(|l| l.starts_with(|c: char| c.is_ascii_digit())).unwrap();
    assert_eq!(last_thinking.split_whitespace().nth(1), Some("100001"), "mate in 1 as fairy-stockfish writes it");
    // The opponent's move ends the game: the engine claims it instead of moving.
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {MATE_IN_1}"));
    e.send("playother");
    e.send("usermove a1a8");
    let out = sync(&mut e, 6);
    assert_eq!(out, ["1-0 {White mates}"]);
    // Asked to move when stalemated, the engine claims the draw; in force mode nothing is
    // claimed.
    const STALEMATE: &str = "k7/2K5/1F6/8/8/8/8/8[] b - - 0 1";
    let stale = Position::from_fen(STALEMATE).unwrap();
    assert_eq!(stale.outcome(), Outcome::Draw(sitke::board::DrawReason::Stalemate));
    e.send("force");
    e.send(&format!("setboard {STALEMATE}"));
    assert!(sync(&mut e, 7).is_empty());
    e.send("go");
    assert_eq!(sync(&mut e, 8), ["1/2-1/2 {stalemate}"]);
}

#[test]
fn draws_by_rule_are_claimed_to_xboard_and_played_on_for_cutechess() {
    // Both rooks shuffle back and forth: the start position stands for the third time.
    const START: &str = "k6r/8/8/8/8/8/8/K6R[] w - - 0 60";
    const SHUFFLE: [&str; 8] = ["h1g1", "h8g8", "g1h1", "g8h8", "h1g1", "h8g8", "g1h1", "g8h8"];
    for (answer, xboard_host) in [("accepted highlight", true), ("rejected highlight", false)] {
        let (mut e, _) = xboard();
        e.send(answer);
        e.send("new");
        e.send("force");
        e.send(&format!("setboard {START}"));
        for m in SHUFFLE {
            e.send(&format!("usermove {m}"));
        }
        e.send("sd 4");
        e.send("go");
        let out = sync(&mut e, 1);
        if xboard_host {
            // XBoard, with legality testing off, ends the game on the engine's claim.
            assert_eq!(out, ["1/2-1/2 {threefold repetition}"]);
        } else {
            // cutechess knows no repetition draw in Sittuyin and forfeits a claim it does
            // not share: the engine plays on.
            let mv = out.iter().find_map(|l| l.strip_prefix("move ")).unwrap_or_else(|| panic!("{out:?}"));
            let mut pos = Position::from_fen(START).unwrap();
            for m in SHUFFLE {
                let m = pos.parse_uci_move(m).unwrap();
                pos.do_move(m);
            }
            assert!(pos.parse_uci_move(mv).is_ok(), "{mv}");
            assert!(!out.iter().any(|l| l.starts_with("1/2-1/2")), "{out:?}");
        }
    }
}

#[test]
fn pondering_hits_and_misses() {
    let (mut e, _) = xboard();
    for l in ["new", "variant sittuyin", "hard", "level 0 1 0", "time 6000", "otim 6000"] {
        e.send(l);
    }
    let mut pos = Position::startpos();
    let mut moves = 0;
    for round in 0..6 {
        // The opponent (this test) plays the engine's hint half of the time: a ponder hit.
        e.send("hint");
        let out = sync(&mut e, 100 + round);
        let hint = out.iter().find_map(|l| l.strip_prefix("Hint: ")).map(str::to_string);
        let reply = match hint {
            Some(h) if round % 2 == 0 => h,
            _ => pos.legal_moves().iter().next().unwrap().to_string(),
        };
        let m = pos.parse_uci_move(&reply).unwrap();
        pos.do_move(m);
        e.send(&format!("usermove {reply}"));
        let (_, mv) = engine_move(&mut e, Duration::from_secs(20));
        let m = pos.parse_uci_move(&mv).unwrap_or_else(|err| panic!("round {round}: {err}"));
        pos.do_move(m);
        moves += 1;
    }
    assert_eq!(moves, 6);
    e.send("easy");
    e.send("force");
    assert!(sync(&mut e, 200).iter().all(|l| !l.starts_with("move")));
}

#[test]
fn analysis_follows_the_position_until_exit() {
    let (mut e, _) = xboard();
    e.send("new");
    e.send("post");
    e.send("analyze");
    e.read_until(Duration::from_secs(10), |l| l.starts_with("3 "));
    e.send("usermove K@e2");
    e.send("ping 1");
    e.expect("pong 1");
    // The analysis goes on in the new position (every line after the pong is from it):
    // Black's moves now.
    let mut after = Position::startpos();
    after.do_move(after.parse_uci_move("K@e2").unwrap());
    let line = e.read_until(Duration::from_secs(20), |l| l.starts_with(|c: char| c.is_ascii_digit())).pop().unwrap();
    check_thinking(&line, &after);
    e.send("undo");
    e.send("exit");
    let out = sync(&mut e, 2);
    assert!(out.iter().all(|l| !l.starts_with("move")), "{out:?}");
    // Nothing runs after exit.
    assert!(e.lines_within(Duration::from_millis(300)).is_empty());
}

#[test]
fn errors_never_stop_the_session() {
    let (mut e, _) = xboard();
    e.send("new");
    e.send("force");
    let cases: &[(&str, &str)] = &[
        ("usermove e2e9", "Illegal move: e2e9"),
        ("usermove e3e4", "Illegal move: e3e4"),
        ("usermove", "Illegal move: "),
        ("b2b3", "Error (unknown command): b2b3"),
        ("frobnicate now", "Error (unknown command): frobnicate now"),
        ("variant chess", "Error (unsupported variant): chess"),
        ("level 40 x 0", "Error (bad argument: base time 'x'): level 40 x 0"),
        ("time soon", "Error (bad argument): time soon"),
        ("sd 0", "Error (bad argument): sd 0"),
        ("undo", "Error (command not legal now): undo"),
        ("option NoSuch=3", "Error (bad option): setoption: no such option 'NoSuch'"),
        ("option Skill Level=99", "Error (bad option): setoption: option 'Skill Level': 99 is outside 0..20"),
    ];
    for (i, (line, answer)) in cases.iter().enumerate() {
        e.send(line);
        assert_eq!(sync(&mut e, i as u32), [answer.to_string()], "{line}");
    }
    e.send("setboard 8/8/8/8/8/8/8/K7[] w - - 0 1");
    let out = sync(&mut e, 50);
    assert!(out.len() == 1 && out[0].starts_with("tellusererror Illegal position"), "{out:?}");
    // Accepted silently: options, memory, cores, and the rest.
    for line in ["option Skill Level=10", "option UCI_LimitStrength=0", "option Clear Hash", "memory 32", "cores 1"] {
        e.send(line);
    }
    for line in [".", "hover e4", "put e4", "random", "computer", "rating 1 2", "name X Y", "accepted ping", "nopost"] {
        e.send(line);
    }
    assert!(sync(&mut e, 51).is_empty());
    // A line too long, and then a search still works (cutechess's FEN dialect).
    let long = "x".repeat(2 << 20);
    e.send(&long);
    let out = sync(&mut e, 52);
    assert!(out.len() == 1 && out[0].starts_with("Error (line too long)"), "{out:?}");
    e.send("setboard 4k3/8/8/8/8/8/7R/4K3[-] w - 0 0 1");
    e.send("sd 3");
    e.send("go");
    let (_, mv) = engine_move(&mut e, Duration::from_secs(10));
    assert!(Position::from_fen("4k3/8/8/8/8/8/7R/4K3[] w - - 0 1").unwrap().parse_uci_move(&mv).is_ok());
    e.send("quit");
    assert!(e.exited_within(Duration::from_secs(2)));
}

#[test]
fn move_now_remove_and_result() {
    let (mut e, _) = xboard();
    e.send("new");
    e.send("st 1000");
    e.send("usermove K@e2");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    e.send("?");
    let (_, mv) = engine_move(&mut e, Duration::from_secs(5));
    assert!(start.elapsed() < Duration::from_secs(2));
    let mut pos = Position::startpos();
    pos.do_move(pos.parse_uci_move("K@e2").unwrap());
    assert!(pos.parse_uci_move(&mv).is_ok());
    // remove takes back both moves: the same first move is legal again.
    e.send("remove");
    e.send("force");
    e.send("usermove K@e2");
    e.send(&format!("usermove {mv}"));
    assert!(sync(&mut e, 1).is_empty());
    e.send("result 1/2-1/2 {adjourned}");
    e.send("usermove N@a1");
    assert!(sync(&mut e, 2).is_empty(), "no move after result");
}

/// Every line the engine writes once its input is closed after `script`, until it exits.
fn output_after_end_of_input(script: &[&str]) -> Vec<String> {
    let mut e = Engine::sitke();
    for line in script {
        e.send(line);
    }
    e.close_stdin();
    let mut out = Vec::new();
    while let Some(line) = e.next_line(Duration::from_secs(20)) {
        out.push(line);
    }
    assert!(e.exited_within(Duration::from_secs(2)), "{out:?}");
    out
}

/// The engine's move in `out`, checked legal after `moves` from the start position.
fn legal_move_in(out: &[String], moves: &[&str]) -> String {
    let mv = out.iter().find_map(|l| l.strip_prefix("move ")).unwrap_or_else(|| panic!("no move in {out:?}"));
    let mut pos = Position::startpos();
    for m in moves {
        pos.do_move(pos.parse_uci_move(m).unwrap());
    }
    assert!(pos.parse_uci_move(mv).is_ok(), "{mv} after {moves:?}");
    mv.to_string()
}

#[test]
fn a_move_being_thought_about_is_sent_at_the_end_of_input() {
    // As `echo "go depth 9" | sitke` prints its bestmove: a depth limit, ...
    let out = output_after_end_of_input(&["xboard", "protover 2", "new", "sd 4", "go"]);
    legal_move_in(&out, &[]);
    // ... after the host's moves in force mode, ...
    let out = output_after_end_of_input(&["xboard", "new", "force", "usermove K@e2", "sd 3", "go"]);
    legal_move_in(&out, &["K@e2"]);
    // ... and on a clock the search cannot have used up before the input ended; `ping`
    // waits for the move, and pondering on the reply does not keep the engine alive.
    let out = output_after_end_of_input(&["xboard", "new", "hard", "st 1", "usermove K@e2", "ping 7"]);
    let at = out.iter().position(|l| l.starts_with("move ")).unwrap_or_else(|| panic!("{out:?}"));
    legal_move_in(&out, &["K@e2"]);
    assert_eq!(out.get(at + 1).map(String::as_str), Some("pong 7"), "{out:?}");
    // Analysis runs until stopped: it ends with the input, and no move is sent.
    let out = output_after_end_of_input(&["xboard", "new", "post", "analyze"]);
    assert!(!out.iter().any(|l| l.starts_with("move")), "{out:?}");
}
