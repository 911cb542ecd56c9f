//! Short fixed-node matches of Sitke itself: against itself, against Fairy-Stockfish and
//! against Sjaak II. Sitke must finish every game without a forfeit (no illegal move, no
//! crash, no time loss), and every game must agree with pyffish. Needs `fairy-stockfish`,
//! `sjaakii`, `python3` and `pyffish`: ignored by a plain `cargo test`, run by
//! `bash scripts/test.sh` (which installs them) and CI.

mod common;

use common::*;

/// Sitke as an `-engine`: fixed nodes, and a clock so that a Sitke that never answers
/// loses on time quickly instead of stalling the test.
fn sitke(name: &str) -> String {
    format!("cmd={} name={name} nodes=5000 tc=20+0.2", env!("CARGO_BIN_EXE_sitke"))
}

fn play(test: &str, opponent: &str) {
    let dir = scratch(test);
    let pgn = dir.join("games.pgn");
    let run = sitke_match(&args(&format!(
        "-engine {} -engine {opponent} -games 2 -repeat -openings random plies=8 -srand 11 \
         -pgnout {}",
        sitke("Sitke"),
        pgn.display()
    )));
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    let games = finished_games(&run.stdout);
    assert_eq!(games.len(), 2, "{}", run.stdout);
    let kinds = verify_with_pyffish(&pgn, &run.stdout);
    // No adjudication is configured, so every game must end by the rules: anything else
    // is a forfeit (an illegal move, a crash, a time loss).
    for (n, g) in &games {
        assert!(
            !g.description.contains("illegal move")
                && !g.description.contains("disconnects")
                && !g.description.contains("on time")
                && !g.description.contains("stalls")
                && !g.description.contains("fails to start"),
            "game {n} ({} vs {}): {}\n{}",
            g.white,
            g.black,
            g.description,
            run.stderr
        );
    }
    assert!(!kinds.contains_key("unfinished"), "{kinds:?}");
    let (w, l, d) = final_score(&run.stdout);
    println!("{test}: Sitke {w}-{l}-{d} in {:.1} s, endings {kinds:?}", run.elapsed.as_secs_f64());
}

#[test]
#[ignore = "oracle test: needs pyffish; bash scripts/test.sh runs it"]
fn sitke_vs_sitke() {
    require(&[Pyffish]);
    play("sitke-vs-sitke", &sitke("Sitke2"));
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish and pyffish; bash scripts/test.sh runs it"]
fn sitke_vs_fairy_stockfish() {
    require(&[FairyStockfish, Pyffish]);
    play("sitke-vs-fsf", &format!("cmd={FSF} name=FSF nodes=2000 tc=20+0.2"));
}

#[test]
#[ignore = "oracle test: needs sjaakii and pyffish; bash scripts/test.sh runs it"]
fn sitke_vs_sjaakii() {
    require(&[Sjaakii, Pyffish]);
    play("sitke-vs-sjaak", &format!("cmd={SJAAK} arg=-uci name=Sjaak depth=2 tc=20+0.2"));
}
