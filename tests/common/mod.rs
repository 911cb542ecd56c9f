//! Helpers of the `sitke match` integration tests: run the real binary, read what it
//! printed, and referee every game of its PGN again with pyffish
//! (`tests/pyffish/check_games.py`).

#![allow(dead_code)]

use sitke::board::Position;
use sitke::tools::r#match::pgn;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

#[path = "../oracle/mod.rs"]
pub mod oracle;
// Not every test that uses these helpers needs an oracle.
#[allow(unused_imports)]
pub use oracle::Oracle::*;
#[allow(unused_imports)]
pub use oracle::{FSF, SJAAK, require};

/// What a `sitke match` run printed.
pub struct Run {
    /// Standard output: the games and the statistics.
    pub stdout: String,
    /// Standard error: the log.
    pub stderr: String,
    /// Whether it exited with status 0.
    pub success: bool,
    /// How long it took.
    pub elapsed: Duration,
}

/// Runs `sitke match` with these arguments.
pub fn sitke_match(args: &[String]) -> Run {
    let start = Instant::now();
    let out: Output = Command::new(env!("CARGO_BIN_EXE_sitke"))
        .arg("match")
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("the sitke binary runs");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
        elapsed: start.elapsed(),
    }
}

/// Splits a command line written as one string (no quoting needed in the tests).
pub fn args(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The misbehaving test engine, as `-engine` settings.
pub fn misbehaving(mode: &str, at: u32, extra: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.py");
    format!("cmd=python3 arg={} arg=--mode arg={mode} arg=--at arg={at} {extra}", script.display())
}

/// A game as the `Finished game` line reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The reason in braces.
    pub description: String,
}

/// The `Finished game N (W vs B): R {D}` lines, by game number.
pub fn finished_games(stdout: &str) -> BTreeMap<u64, Finished> {
    let mut games = BTreeMap::new();
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("Finished game ") else {
            continue;
        };
        let (number, rest) = rest.split_once(" (").expect("game number");
        let (players, rest) = rest.split_once("): ").expect("players");
        let (white, black) = players.split_once(" vs ").expect("white vs black");
        let (result, description) = rest.split_once(" {").expect("result and reason");
        games.insert(
            number.parse().expect("number"),
            Finished {
                white: white.to_string(),
                black: black.to_string(),
                result: result.to_string(),
                description: description.trim_end_matches('}').to_string(),
            },
        );
    }
    games
}

/// The final `Score of A vs B: W - L - D  [s] N` line's W, L, D.
pub fn final_score(stdout: &str) -> (u64, u64, u64) {
    let line = stdout.lines().rfind(|l| l.starts_with("Score of ")).expect("a Score line");
    let counts = line.split(": ").nth(1).expect("counts");
    let n: Vec<u64> = counts
        .split("  [")
        .next()
        .expect("W - L - D")
        .split(" - ")
        .map(|x| x.trim().parse().expect("a count"))
        .collect();
    (n[0], n[1], n[2])
}

/// How `sitke match` said a game ended, in the words check_games.py takes.
fn kind(description: &str) -> &'static str {
    match description {
        d if d.ends_with(" mates") => "mate",
        "Draw by stalemate" => "stalemate",
        "Draw by 3-fold repetition" => "repetition",
        "Draw by fifty moves rule" => "fifty",
        "Draw by counting rule" => "counting",
        "Draw by promotion stalemate" => "promotion",
        "Draw by insufficient mating material" => "insufficient",
        _ => "unfinished",
    }
}

/// Checks the PGN against the `Finished game` lines, and every game's SAN, result and
/// termination against pyffish. Returns how many games ended each way.
pub fn verify_with_pyffish(pgn_path: &Path, stdout: &str) -> BTreeMap<String, usize> {
    let finished = finished_games(stdout);
    let text = std::fs::read_to_string(pgn_path).expect("the PGN file");
    let games = pgn::read_games(&text);
    assert_eq!(games.len(), finished.len(), "one PGN game per finished game\n{stdout}");
    let mut requests = String::new();
    for g in &games {
        let number: u64 = g.tag("Round").expect("Round").parse().expect("a number");
        let f = &finished[&number];
        assert_eq!(g.tag("White"), Some(f.white.as_str()));
        assert_eq!(g.tag("Black"), Some(f.black.as_str()));
        assert_eq!(g.tag("Result"), Some(f.result.as_str()));
        assert_eq!(g.result.as_deref(), Some(f.result.as_str()));
        assert_eq!(g.tag("Variant"), Some("Sittuyin"));
        assert_eq!(g.tag("SetUp").is_some(), g.tag("FEN").is_some());
        for t in ["Event", "Site", "Date", "TimeControl", "Termination", "PlyCount"] {
            assert!(g.tag(t).is_some(), "game {number} lacks the {t} tag");
        }
        let (start, moves) = g.replay().unwrap_or_else(|e| panic!("game {number}: the PGN does not replay: {e}"));
        assert_eq!(g.tag("PlyCount"), Some(moves.len().to_string().as_str()));
        let normal = g.tag("Termination") == Some("normal");
        assert_eq!(normal, kind(&f.description) != "unfinished", "game {number}");
        let fen = if g.tag("FEN").is_some() { start.fen() } else { Position::startpos().fen() };
        let uci: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        requests.push_str(&format!(
            "{number}\t{fen}\t{}\t{}\t{}\t{}\n",
            uci.join(" "),
            g.moves.join(" "),
            f.result,
            kind(&f.description)
        ));
    }
    let mut child = oracle::pyffish_script("check_games.py");
    child.stdin.take().expect("stdin").write_all(requests.as_bytes()).expect("requests written");
    let out = child.wait_with_output().expect("check_games.py output");
    assert!(out.status.success(), "check_games.py failed: is pyffish installed?");
    let answers = String::from_utf8_lossy(&out.stdout).into_owned();
    let failures: Vec<&str> = answers.lines().filter(|l| l.contains(" FAIL ")).collect();
    assert!(failures.is_empty(), "pyffish disagrees:\n{}", failures.join("\n"));
    assert_eq!(answers.lines().count(), games.len(), "{answers}");
    let mut kinds = BTreeMap::new();
    for line in answers.lines() {
        let k = line.split(' ').nth(2).unwrap_or("?").to_string();
        *kinds.entry(k).or_insert(0) += 1;
    }
    kinds
}
