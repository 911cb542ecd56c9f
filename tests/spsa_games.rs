//! `sitke spsa` with real engine games: a two-iteration run at a tiny node budget plays its
//! games, saves its state, prints every step without burying them in warnings, continues
//! (here: finds nothing left to do) when rerun, and shows its result.
#![cfg(feature = "tools")]

mod common;

use common::*;
use std::process::Command;

/// Runs `sitke spsa` with these arguments; (stdout, stderr, success).
fn spsa(line: &str) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_sitke"))
        .arg("spsa")
        .args(args(line))
        .env_remove("RUST_LOG")
        .output()
        .expect("the sitke binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn plays_saves_continues_and_shows() {
    let dir = scratch("spsa-run");
    let (state, pgn) = (dir.join("run.spsa"), dir.join("games.pgn"));
    let line = format!(
        "--state {} --iterations 2 --pairs 1 --nodes 500 --concurrency 2 --params LMR_BASE,SE_MARGIN --pgn {}",
        state.display(),
        pgn.display()
    );
    let (stdout, stderr, ok) = spsa(&line);
    assert!(ok, "{stdout}\n{stderr}");
    // The runner's warning about every unlisted option, for every engine, is silenced.
    assert!(stderr.is_empty(), "{stderr}");
    assert!(
        stdout.contains("iteration 1/2: plus vs minus ") && stdout.contains("iteration 2/2: plus vs minus "),
        "{stdout}"
    );
    assert!(stdout.contains("spsa: 2 of 2 iterations played, 4 games"), "{stdout}");
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("\ndone 2\n") && saved.contains("\nparam LMR_BASE 0 200 10 80 "), "{saved}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[White \"plus\"]").count(), 2, "{games}");
    assert_eq!(games.matches("[White \"minus\"]").count(), 2, "{games}");
    assert!(!games.contains("illegal") && !games.contains("disconnect") && !games.contains("stall"), "{games}");

    let (again, stderr, ok) = spsa(&line);
    assert!(ok, "{again}\n{stderr}");
    assert!(again.starts_with(&format!("spsa: continuing {} after iteration 2\n", state.display())), "{again}");
    assert!(!again.contains("iteration 1/2"), "{again}");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), saved);

    let (shown, _, ok) = spsa(&format!("--state {} --show", state.display()));
    assert!(ok && stdout.ends_with(&shown), "{shown}");
    assert!(shown.contains("setoption name SE_MARGIN value "), "{shown}");
}
