//! The perft suite under every rule set. Move generation differs only under Pritchard's
//! rules (sequential setup, stalemating moves illegal, no last-pawn promotion anywhere), so:
//! - under the federation's and the club's rules every count is the suite's (Fairy-Stockfish's);
//! - the club's counts also come from an oracle: Fairy-Stockfish 11.1 loaded with
//!   `tests/pyffish/club.ini` (`sittuyin` with `countingRule = none`);
//! - under Pritchard's rules, from a position past the setup, every legal move is one of
//!   Fairy-Stockfish's, so each count is at most the suite's; where it is less, a stalemating
//!   move or a last-pawn promotion was cut somewhere in the tree.

use sitke::board::perft::{PerftCase, parse_epd, perft};
use sitke::board::{Position, Rules};
use std::io::Write;
use std::process::{Command, Stdio};

/// Leaves per count, to keep the test short; the suite's perft test runs the deep ones.
const BUDGET: u64 = 2_000_000;

fn suite() -> Vec<PerftCase> {
    let path = format!("{}/perft/sittuyin.epd", env!("CARGO_MANIFEST_DIR"));
    parse_epd(&std::fs::read_to_string(&path).expect("the perft suite")).expect("suite parses")
}

/// (case, depth, suite count) for every count within the budget.
fn counts(cases: &[PerftCase]) -> Vec<(&PerftCase, u32, u64)> {
    cases.iter().flat_map(|c| c.counts.iter().filter(|&&(_, n)| n <= BUDGET).map(move |&(d, n)| (c, d, n))).collect()
}

fn perft_under(fen: &str, rules: &'static Rules, depth: u32) -> u64 {
    let mut pos = Position::from_fen_with(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
    perft(&mut pos, depth)
}

#[test]
fn federation_and_club_counts_are_the_suites() {
    let cases = suite();
    for (case, depth, expected) in counts(&cases) {
        for rules in [&Rules::FEDERATION, &Rules::CLUB] {
            assert_eq!(
                perft_under(&case.fen, rules, depth),
                expected,
                "{} {} depth {depth}",
                rules.short_name(),
                case.fen
            );
        }
    }
}

#[test]
fn pritchard_counts_are_at_most_the_suites_past_the_setup() {
    let cases = suite();
    let (mut checked, mut fewer) = (0, 0);
    for (case, depth, expected) in counts(&cases) {
        if Position::from_fen(&case.fen).unwrap().in_setup() {
            continue;
        }
        let n = perft_under(&case.fen, &Rules::PRITCHARD, depth);
        assert!(n <= expected, "pritchard {} depth {depth}: {n} > {expected}", case.fen);
        checked += 1;
        fewer += (n < expected) as usize;
    }
    println!("pritchard: {checked} counts past the setup, {fewer} below the suite's");
    // The suite holds last pawns off the diagonals and stalemating moves: some counts must
    // fall, or the rules are not in force.
    assert!(checked > 50 && fewer > 0, "{checked} checked, {fewer} fewer");
}

/// Fairy-Stockfish 11.1 with the club's variant file, as the club's oracle: each count of
/// the suite within the budget, at depths up to 3.
#[test]
#[ignore = "needs /usr/games/fairy-stockfish (scripts/test.sh installs it)"]
fn club_counts_agree_with_fairy_stockfish_without_counting() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = suite();
    let asked: Vec<_> = counts(&cases).into_iter().filter(|&(_, d, _)| d <= 3).collect();
    let mut input = format!(
        "uci\nsetoption name VariantPath value {root}/tests/pyffish/club.ini\nsetoption name UCI_Variant value sittuyin-club\n"
    );
    for (case, depth, _) in &asked {
        input.push_str(&format!("position fen {}\ngo perft {depth}\n", case.fen));
    }
    input.push_str("quit\n");
    let mut child = Command::new("/usr/games/fairy-stockfish")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("/usr/games/fairy-stockfish runs (apt-get install fairy-stockfish)");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert!(out.contains("variant sittuyin-club"), "the club's variant file did not load:\n{out}");
    let oracle: Vec<u64> =
        out.lines().filter_map(|l| l.strip_prefix("Nodes searched: ")).map(|n| n.trim().parse().unwrap()).collect();
    assert_eq!(oracle.len(), asked.len());
    for ((case, depth, _), want) in asked.iter().zip(oracle) {
        assert_eq!(perft_under(&case.fen, &Rules::CLUB, *depth), want, "club {} depth {depth}", case.fen);
    }
    println!("club: {} counts equal to Fairy-Stockfish's with countingRule = none", asked.len());
}
