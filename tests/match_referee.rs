//! `sitke match` as a referee, with engines other than Sitke: a short Fairy-Stockfish vs
//! Sjaak II match from an opening file (with a bad line), the three misbehaving engines
//! (illegal move, crash, overrun time) each losing with the reason logged, the SPRT
//! stopping a match by itself, and clear errors for a missing binary, a mute engine and an
//! unsupported option. Every game's SAN, result and termination are checked against
//! pyffish. Needs `fairy-stockfish`, `sjaakii`, `python3` and `pyffish`: ignored by a plain
//! `cargo test`, run by `bash scripts/test.sh` (which installs them) and CI.
#![cfg(feature = "tools")]

mod common;

use common::*;

#[test]
#[ignore = "oracle test: needs fairy-stockfish, sjaakii and pyffish; bash scripts/test.sh runs it"]
fn fairy_stockfish_vs_sjaakii_is_refereed_like_pyffish() {
    require(&[FairyStockfish, Sjaakii, Pyffish]);
    let dir = scratch("fsf-vs-sjaak");
    let book = dir.join("book.epd");
    // The start, a bad line (skipped with a warning), a rook ending where the counting
    // rule runs, and a middlegame from the perft suite.
    std::fs::write(
        &book,
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1\n\
         not/a/fen w\n\
         4k3/8/8/8/8/8/7R/4K3[-] w - 0 0 40\n\
         8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72\n",
    )
    .unwrap();
    let pgn = dir.join("games.pgn");
    let run = sitke_match(&args(&format!(
        "-engine cmd={FSF} name=FSF nodes=1500 -engine cmd={SJAAK} arg=-uci name=Sjaak depth=2 \
         -each tc=30+0.3 -games 2 -rounds 3 -repeat -concurrency 2 \
         -openings file={} format=epd order=sequential -pgnout {} -ratinginterval 2",
        book.display(),
        pgn.display()
    )));
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("book.epd:2: skipping opening"), "the bad line is named: {}", run.stderr);
    let games = finished_games(&run.stdout);
    assert_eq!(games.len(), 6, "{}", run.stdout);
    let (w, l, d) = final_score(&run.stdout);
    assert_eq!(w + l + d, 6);
    for line in ["Elo difference: ", "...      FSF playing White: ", "Ptnml(0-2): ", "Finished match"] {
        assert!(run.stdout.contains(line), "no '{line}' in\n{}", run.stdout);
    }
    // Pairs: every opening with both colours.
    for n in [1u64, 3, 5] {
        assert_eq!(games[&n].white, games[&(n + 1)].black);
    }
    let kinds = verify_with_pyffish(&pgn, &run.stdout);
    println!("FSF vs Sjaak: {w}-{l}-{d} in {:.1} s, endings {kinds:?}", run.elapsed.as_secs_f64());
    assert!(!kinds.contains_key("unfinished"), "no forfeits expected: {kinds:?}");
}

/// Plays two games (colours swapped) of a misbehaving engine against Fairy-Stockfish and
/// checks that it lost both for the expected reason, logged with its output.
fn misbehaving_engine_loses(mode: &str, extra: &str, tc: &str, reason: &str, logged: &str) {
    let dir = scratch(&format!("misbehave-{mode}"));
    let pgn = dir.join("games.pgn");
    let run = sitke_match(&args(&format!(
        "-engine {} name=Bad -engine cmd={FSF} name=FSF -each nodes=800 tc={tc} \
         -games 2 -repeat -openings random plies=4 -srand 3 -pgnout {}",
        misbehaving(mode, 4, extra),
        pgn.display()
    )));
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    let games = finished_games(&run.stdout);
    assert_eq!(games.len(), 2, "{}", run.stdout);
    for (n, g) in &games {
        let bad = if g.white == "Bad" { "White" } else { "Black" };
        assert_eq!(g.description, format!("{bad} {reason}"), "game {n}: {}", run.stdout);
        assert_eq!(g.result, if bad == "White" { "0-1" } else { "1-0" });
    }
    assert_eq!(final_score(&run.stdout), (0, 2, 0));
    assert_eq!(run.stderr.matches("its last output:").count(), 2, "{}", run.stderr);
    assert!(run.stderr.contains(logged), "'{logged}' not logged:\n{}", run.stderr);
    let kinds = verify_with_pyffish(&pgn, &run.stdout);
    assert_eq!(kinds.get("unfinished"), Some(&2));
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish, python3 and pyffish; bash scripts/test.sh runs it"]
fn an_illegal_move_loses() {
    require(&[FairyStockfish, Python3, Pyffish]);
    let fragment = "a1h8";
    misbehaving_engine_loses("illegal", "", "10+0.1", "makes an illegal move: a1h8", fragment);
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish, python3 and pyffish; bash scripts/test.sh runs it"]
fn a_crash_loses() {
    require(&[FairyStockfish, Python3, Pyffish]);
    misbehaving_engine_loses("crash", "", "10+0.1", "disconnects", "misbehave.py: crashing on purpose");
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish, python3 and pyffish; bash scripts/test.sh runs it"]
fn overrunning_the_clock_loses() {
    require(&[FairyStockfish, Python3, Pyffish]);
    misbehaving_engine_loses("slow", "arg=--delay arg=4", "1+0.1", "loses on time", "gave no move within");
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish and python3; bash scripts/test.sh runs it"]
fn the_sprt_stops_the_match_by_itself() {
    require(&[FairyStockfish, Python3]);
    // An engine that loses every game at its first move: with elo0=-50 elo1=50 the
    // pentanomial LLR falls by 0.288 per lost pair and crosses -2.944 at the 11th pair.
    let run = sitke_match(&args(&format!(
        "-engine {} name=Bad -engine cmd={FSF} name=FSF -each nodes=200 tc=10+0.1 \
         -games 2 -rounds 100 -repeat -sprt elo0=-50 elo1=50 -ratinginterval 0",
        misbehaving("illegal", 1, "")
    )));
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    let games = finished_games(&run.stdout);
    assert_eq!(games.len(), 22, "{}", run.stdout);
    assert!(run.stdout.contains("- H0 was accepted"), "{}", run.stdout);
    assert!(run.stdout.contains("Ptnml(0-2): [11, 0, 0, 0, 0]"), "{}", run.stdout);
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish and python3; bash scripts/test.sh runs it"]
fn startup_errors_are_clear() {
    require(&[FairyStockfish, Python3]);
    let run =
        sitke_match(&args(&format!("-engine cmd=/nonexistent/engine name=Ghost -engine cmd={FSF} -each nodes=100")));
    assert!(!run.success);
    assert!(run.stderr.contains("cannot start engine 'Ghost': command '/nonexistent/engine'"), "{}", run.stderr);

    let run = sitke_match(&args(&format!(
        "-engine {} name=Mute -engine cmd={FSF} -each nodes=100",
        misbehaving("mute", 1, "")
    )));
    assert!(!run.success);
    assert!(run.stderr.contains("engine 'Mute' did not answer 'uci' with 'uciok' within 10 s"), "{}", run.stderr);

    let run = sitke_match(&args(&format!("-engine cmd={FSF} -engine cmd={FSF} -each nodes=100 -tb /syzygy")));
    assert!(!run.success);
    assert!(run.stderr.contains("option -tb is not supported by sitke match"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "no game was started: {}", run.stdout);
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish and pyffish; bash scripts/test.sh runs it"]
fn score_adjudication_and_the_move_limit_end_games_early() {
    require(&[FairyStockfish, Pyffish]);
    let dir = scratch("adjudication");
    let fsf = |name: &str, nodes: u32| format!("-engine cmd={FSF} name={name} nodes={nodes}");
    let pgn_of = |name: &str| dir.join(format!("{name}.pgn"));
    let matches = [
        // Both engines agree for three moves that the weak side is lost.
        ("resign", format!("{} {} -resign movecount=3 score=500 -srand 5", fsf("Strong", 4000), fsf("Weak", 100))),
        // Two close engines see a level game from move 20 on. Not every opening leads there
        // (some end in mate); seed 2 gives two that do.
        ("draw", format!("{} {} -draw movenumber=20 movecount=3 score=15 -srand 2", fsf("A", 3000), fsf("B", 2500))),
        ("maxmoves", format!("{} {} -maxmoves 10 -srand 1", fsf("A", 500), fsf("B", 500))),
    ];
    for (name, engines) in &matches {
        let run = sitke_match(&args(&format!(
            "{engines} -each tc=30+0.3 -games 2 -repeat -openings random plies=8 -pgnout {}",
            pgn_of(name).display()
        )));
        assert!(run.success, "{}\n{}", run.stdout, run.stderr);
        let games = finished_games(&run.stdout);
        assert_eq!(games.len(), 2, "{}", run.stdout);
        // pyffish confirms that no adjudicated game had ended by the rules.
        let kinds = verify_with_pyffish(&pgn_of(name), &run.stdout);
        let text = std::fs::read_to_string(pgn_of(name)).unwrap();
        let plies: Vec<usize> = sitke::tools::r#match::pgn::read_games(&text).iter().map(|g| g.moves.len()).collect();
        let descriptions: Vec<&str> = games.values().map(|g| g.description.as_str()).collect();
        match *name {
            "resign" => {
                assert_eq!(final_score(&run.stdout), (2, 0, 0), "{}", run.stdout);
                assert!(descriptions.iter().all(|d| d.ends_with("wins by adjudication")), "{descriptions:?}");
            }
            "draw" => {
                assert_eq!(kinds.get("unfinished"), Some(&2), "{descriptions:?}");
                assert!(descriptions.iter().all(|d| *d == "Draw by adjudication"), "{descriptions:?}");
                // Counting starts after move 20 and needs 3 moves of each side.
                assert!(plies.iter().all(|&p| p >= 45), "{plies:?}");
            }
            _ => {
                assert!(descriptions.iter().all(|d| *d == "Draw by adjudication: move limit"), "{descriptions:?}");
                assert_eq!(plies, [20, 20]);
            }
        }
    }
}
