//! Searches with settings of their own: a switch flipped for one search touches no other,
//! so these tests share the library's test binary with every other test.

use super::params::SearchParams;
use super::{Control, Limits, Searcher};
use crate::board::Position;

/// A middlegame position with enough going on that every pruning rule comes into play.
const MIDDLEGAME: &str = "2rrn3/3k4/fss1Nppp/pp6/5PPP/PP1P3F/5N1K/3R1SR1[] b - - 0 16";

/// The best move, value and node count of a fixed-depth search with `params`, from scratch.
fn search(fen: &str, depth: u32, params: SearchParams) -> (String, i32, u64) {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = Searcher::new(16, 1);
    searcher.params = params;
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let r = searcher.search(&pos, &limits, &Control::new(), &mut |_| {});
    (r.best.to_string(), r.value, r.nodes)
}

#[test]
fn a_one_ply_search_sees_a_quiet_mating_check_behind_a_capture() {
    // White's rook can take the knight on e5, but then ...Rh1+ Re1 Rxe1 mates the king shut
    // in behind its own pawns. The mate starts with a quiet check, which only quiescence
    // search with checks plays after the one ply.
    let fen = "k7/8/7r/4n3/4R3/8/PP6/K7[] w - - 0 40";
    let without = SearchParams { USE_QS_CHECKS: false, ..SearchParams::default() };
    let (blind, blind_value, _) = search(fen, 1, without);
    let (seen, seen_value, _) = search(fen, 1, SearchParams::default());
    // Without the checks the knight is simply won: the test position does what it claims.
    assert_eq!(blind, "e4e5", "value {blind_value}");
    assert!(blind_value > 150, "{blind_value}");
    assert_ne!(seen, "e4e5", "value {seen_value}");
    assert!(seen_value.abs() < 300, "a defence keeps the game level: {seen} {seen_value}");
}

#[test]
fn settings_belong_to_one_search() {
    let depth = 7;
    let no_lmr = SearchParams { USE_LMR: false, ..SearchParams::default() };
    let base = search(MIDDLEGAME, depth, SearchParams::default());
    let ablated = search(MIDDLEGAME, depth, no_lmr);
    assert!(ablated.2 > base.2, "without reductions the tree grows: {} vs {}", ablated.2, base.2);
    assert_eq!(search(MIDDLEGAME, depth, SearchParams::default()), base, "the ablation left nothing behind");
    // Searches running at the same time with different settings each see only their own.
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| search(MIDDLEGAME, depth, SearchParams::default()));
        let b = s.spawn(|| search(MIDDLEGAME, depth, no_lmr));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!((a, b), (base, ablated));
}

#[test]
fn a_constant_changes_the_search_that_is_given_it() {
    // A constant read deep inside the tree, not only a switch: the reduction table's base.
    let depth = 7;
    let base = search(MIDDLEGAME, depth, SearchParams::default());
    let shallow = SearchParams { LMR_BASE: 200, ..SearchParams::default() };
    let reduced = search(MIDDLEGAME, depth, shallow);
    assert!(reduced.2 < base.2, "larger reductions, smaller tree: {} vs {}", reduced.2, base.2);
}
