//! Quiet checks at the first ply of quiescence search.

use sitke::board::Position;
use sitke::search::params::SearchParams;
use sitke::search::{Control, Limits, Searcher};

/// The best move and value of a one-ply search.
fn depth_one(fen: &str, params: SearchParams) -> (String, i32) {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = Searcher::new(16, 1);
    searcher.params = params;
    let limits = Limits { depth: Some(1), ..Limits::default() };
    let r = searcher.search(&pos, &limits, &Control::new(), &mut |_| {});
    (r.best.to_string(), r.value)
}

#[test]
fn a_one_ply_search_sees_a_quiet_mating_check_behind_a_capture() {
    // White's rook can take the knight on e5, but then ...Rh1+ Re1 Rxe1 mates the king shut
    // in behind its own pawns. The mate starts with a quiet check, which only quiescence
    // search with checks plays after the one ply.
    let fen = "k7/8/7r/4n3/4R3/8/PP6/K7[] w - - 0 40";
    let (blind, blind_value) = depth_one(fen, SearchParams { USE_QS_CHECKS: false, ..SearchParams::default() });
    let (seen, seen_value) = depth_one(fen, SearchParams::default());
    // Without the checks the knight is simply won: the test position does what it claims.
    assert_eq!(blind, "e4e5", "value {blind_value}");
    assert!(blind_value > 150, "{blind_value}");
    assert_ne!(seen, "e4e5", "value {seen_value}");
    assert!(seen_value.abs() < 300, "a defence keeps the game level: {seen} {seen_value}");
}
