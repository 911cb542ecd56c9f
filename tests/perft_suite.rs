//! Every perft suite in `perft/` against its reference counts (Fairy-Stockfish's).
//!
//! Depths are run while the expected count stays within a node budget that keeps CI short;
//! `SITKE_PERFT_FULL=1` runs every listed depth. The test build checks the position after
//! every make and unmake (`Position::check`), so the budget also exercises those checks.

use sitke::board::Position;
use sitke::board::perft::{divide, parse_epd, perft, perft_threads};

fn budget() -> u64 {
    if std::env::var("SITKE_PERFT_FULL").is_ok_and(|v| v == "1") { u64::MAX } else { 5_000_000 }
}

fn run_suite(file: &str) {
    let path = format!("{}/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = parse_epd(&text).expect("suite parses");
    assert!(!cases.is_empty());
    let (mut checked, mut nodes) = (0, 0);
    for case in &cases {
        let mut pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for &(depth, expected) in &case.counts {
            if expected > budget() {
                continue;
            }
            assert_eq!(perft(&mut pos, depth), expected, "{} ({}) depth {depth}", case.name, case.fen);
            assert_eq!(pos.fen(), Position::from_fen(&case.fen).unwrap().fen(), "make/unmake restored {}", case.name);
            checked += 1;
            nodes += expected;
        }
    }
    println!("{file}: {} positions, {checked} depths, {nodes} leaves", cases.len());
    assert!(checked >= cases.len(), "every position is checked at least at depth 1");
}

#[test]
fn fairy_stockfish_suite() {
    run_suite("sittuyin.epd");
}

#[test]
fn named_edge_cases() {
    run_suite("edge_cases.epd");
}

#[test]
fn divide_and_parallel_agree_with_plain_perft() {
    let pos = Position::from_fen("8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72").unwrap();
    let plain = perft(&mut pos.clone(), 4);
    assert_eq!(plain, 652_686);
    let by_move: u64 = divide(&mut pos.clone(), 4).iter().map(|(_, n)| n).sum();
    assert_eq!(by_move, plain);
    assert_eq!(perft_threads(&pos, 4, 2), plain);
}
