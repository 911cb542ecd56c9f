//! Named, hand-checked positions for the rules no oracle here can play: Pritchard's
//! sequential setup, his stalemate ban, promotion and centre count; the Myanmar federation's
//! rules as cutechess referees them (no repetition, its count, material and promotion); and
//! the club's (no count, bare kings). Each test quotes the rule it checks; docs/rules.md
//! ("Rule sets") quotes the same texts and explains the expected numbers.

use sitke::board::perft::perft;
use sitke::board::{DrawReason, Move, Outcome, Position, Rules, START_FEN};

fn at(fen: &str, rules: &'static Rules) -> Position {
    Position::from_fen_with(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let m: Move = pos.parse_uci_move(text).unwrap_or_else(|e| panic!("{text}: {e} at {}", pos.fen()));
        pos.do_move(m);
    }
}

fn sorted_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

// ---- Pritchard ---------------------------------------------------------------------------

/// "White places all its men, then Black places all of its own."
#[test]
fn pritchard_white_places_all_eight_men_then_black() {
    let mut pos = Position::startpos_with(&Rules::PRITCHARD);
    let white = ["K@e1", "F@d1", "R@a1", "R@h1", "S@c1", "S@f1", "N@b1", "N@g1"];
    for (i, m) in white.iter().enumerate() {
        assert_eq!(pos.side_to_move(), sitke::board::Color::White, "White keeps the move for drop {}", i + 1);
        assert!(pos.legal_moves().iter().all(|m| m.is_drop()), "only drops while placing");
        play(&mut pos, m);
    }
    assert_eq!(pos.side_to_move(), sitke::board::Color::Black, "Black places after White's eighth man");
    for m in ["k@e8", "f@d8", "r@a8", "r@h8", "s@c8", "s@f8", "n@b8", "n@g8"] {
        assert_eq!(pos.side_to_move(), sitke::board::Color::Black);
        play(&mut pos, m);
    }
    assert_eq!(pos.side_to_move(), sitke::board::Color::White);
    assert!(!pos.in_setup());
    // 16 plies, White to move: move 9, as after the alternating setup.
    assert_eq!(pos.fen(), "rnsfksnr/8/4pppp/pppp4/4PPPP/PPPP4/8/RNSFKSNR[] w - - 0 9");
    for _ in 0..16 {
        pos.undo_move();
    }
    assert_eq!(pos.fen(), Position::startpos().fen(), "undo gives back the side to move too");
}

/// Sequential setup, two plies: White's first drop and White's second (not Black's). With
/// the 20 empty squares of ranks 1-3 (8 on rank 1, for the rooks) and nothing of Black's
/// attacking them, a first drop of the king or the met (one each) leaves 19 squares for
/// three other kinds and 7 or 8 for the rook: 8 * 64 + 12 * 65 = 1292 each; a khon or
/// knight (two each) leaves four kinds: 8 * 83 + 12 * 84 = 1672 each; a rook, on rank 1:
/// 8 * 83 = 664. Sum 6592; the alternating setup has 88 * 88 = 7744.
#[test]
fn pritchard_perft_two_counts_two_white_drops() {
    let mut seq = Position::startpos_with(&Rules::PRITCHARD);
    let mut alt = Position::startpos();
    assert_eq!((perft(&mut seq, 1), perft(&mut alt, 1)), (88, 88));
    assert_eq!(perft(&mut seq, 2), 6592);
    assert_eq!(perft(&mut alt, 2), 7744);
}

/// "A move that stalemates the opponent is illegal." White: king f7, met f5, pawn a4;
/// Black: king h8. White has 11 moves (king e6 e7 e8 f6 f8 g6, met e4 e6 g4 g6, pawn a5);
/// f5g6 leaves Black's king without a square and not in check, so Pritchard forbids it.
#[test]
fn pritchard_forbids_the_stalemating_move() {
    let fen = "7k/5K2/8/5F2/P7/8/8/8[] w - - 0 50";
    let fsf = at(fen, &Rules::FAIRY_STOCKFISH);
    let pritchard = at(fen, &Rules::PRITCHARD);
    let stalemating = fsf.parse_uci_move("f5g6").unwrap();
    assert_eq!(fsf.legal_moves().len(), 11);
    assert!(fsf.is_legal(stalemating));
    assert_eq!(pritchard.legal_moves().len(), 10);
    assert!(!pritchard.legal_moves().contains(stalemating));
    assert!(!pritchard.is_legal(stalemating));
    let mut p = pritchard.clone();
    assert_eq!(perft(&mut p, 1), 10);
    let mut after = fsf.clone();
    after.do_move(stalemating);
    assert_eq!(after.outcome(), Outcome::Draw(DrawReason::Stalemate), "under Fairy-Stockfish's rules a draw");
}

/// "Pawns promote only on the marked diagonals. There is no 'last pawn anywhere' rule."
#[test]
fn pritchard_has_no_last_pawn_promotion() {
    let fen = "4k3/8/8/8/8/1P6/8/4K3[] w - - 0 40";
    let promotions = |r| at(fen, r).legal_moves().iter().filter(|m| m.is_promotion()).count();
    assert_eq!(promotions(&Rules::FAIRY_STOCKFISH), 5, "b3b3f b3a2f b3a4f b3c2f b3c4f");
    assert_eq!(promotions(&Rules::PRITCHARD), 0);
    // On a diagonal square the promotion stays.
    let on = "4k2r/8/8/3P4/8/8/P7/4K3[] w - - 0 40";
    assert_eq!(sorted_moves(&at(on, &Rules::PRITCHARD)), sorted_moves(&at(on, &Rules::FAIRY_STOCKFISH)));
}

/// "King and rook against a lone king must mate within 16 moves. If the lone king stands
/// on d4, d5, e4 or e5, the count starts only after its fifth move."
#[test]
fn pritchard_counts_king_and_rook_with_the_centre_rule() {
    let mut edge = at("4k3/8/8/8/8/8/3r3R/4K3[] w - - 10 40", &Rules::PRITCHARD);
    play(&mut edge, "h2d2");
    assert_eq!((edge.counting_limit(), edge.counting_ply()), (32, 0));
    let mut centre = at("8/8/8/3k4/8/8/r6R/4K3[] w - - 10 40", &Rules::PRITCHARD);
    play(&mut centre, "h2a2");
    // Five lone-king moves first: the stronger side's 16th move then ends on ply 40.
    assert_eq!((centre.counting_limit(), centre.counting_ply()), (40, 0));
    // More than king and rook: no count under Pritchard, the rook's under Fairy-Stockfish.
    let more = "4k3/8/8/8/8/8/3r3R/4K1N1[] w - - 10 40";
    let mut p = at(more, &Rules::PRITCHARD);
    let mut f = at(more, &Rules::FAIRY_STOCKFISH);
    play(&mut p, "h2d2");
    play(&mut f, "h2d2");
    assert_eq!((p.counting_limit(), f.counting_limit()), (0, 32));
    // The count runs out above the limit, as Fairy-Stockfish's does.
    let expired = at("5k2/8/6K1/8/8/8/8/1R6[] w - 40 41 61", &Rules::PRITCHARD);
    assert_eq!(expired.outcome(), Outcome::Draw(DrawReason::Counting));
    let last = at("5k2/8/6K1/8/8/8/8/1R6[] w - 40 40 61", &Rules::PRITCHARD);
    assert_eq!(last.outcome(), Outcome::Ongoing);
}

// ---- the federation, as cutechess referees it ----------------------------------------------

/// cutechess has no threefold-repetition rule for Sittuyin: the position that is a draw
/// the third time under Fairy-Stockfish's rules goes on, in the game and in the search.
#[test]
fn federation_has_no_repetition_draw() {
    let fen = "4k3/8/8/8/8/2p5/8/R3K3[] w - - 0 40";
    let moves = "a1a2 e8d8 a2a1 d8e8 a1a2 e8d8 a2a1 d8e8";
    let mut fsf = at(fen, &Rules::FAIRY_STOCKFISH);
    let mut fed = at(fen, &Rules::FEDERATION);
    play(&mut fsf, moves);
    play(&mut fed, moves);
    assert_eq!(fsf.outcome(), Outcome::Draw(DrawReason::Repetition));
    assert_eq!(fed.outcome(), Outcome::Ongoing);
    assert!(fsf.is_repetition_draw(4) && !fed.is_repetition_draw(4), "the search sees no draw either");
}

/// cutechess's count: it starts when either side is first left with its king alone, at
/// twice the men on the board, and draws when it reaches the limit: the mover's rook 16
/// moves, khon and met 44, knight and met 64, else 1000; 64 while a pawn is on the board.
#[test]
fn federation_count_starts_at_twice_the_men_and_follows_the_mover() {
    let count = |fen: &str, mv: &str| {
        let mut p = at(fen, &Rules::FEDERATION);
        play(&mut p, mv);
        (p.counting_limit(), p.counting_ply())
    };
    assert_eq!(count("4k3/8/8/8/8/8/3r3R/4K3[] w - - 10 40", "h2d2"), (32, 6));
    assert_eq!(count("4k3/8/8/8/8/P7/3r3R/4K3[] w - - 10 40", "h2d2"), (128, 8));
    assert_eq!(count("4k3/8/8/8/8/8/4r3/4KS2[] w - - 10 40", "f1e2"), (2000, 6));
    assert_eq!(count("4k3/8/8/8/8/8/4r3/3FKS2[] w - - 10 40", "f1e2"), (88, 8));
    // Drawn once the count reaches the limit (Fairy-Stockfish's needs it above).
    assert_eq!(
        at("5k2/8/6K1/8/8/8/8/1R6[] w - 32 32 61", &Rules::FEDERATION).outcome(),
        Outcome::Draw(DrawReason::Counting)
    );
    assert_eq!(at("5k2/8/6K1/8/8/8/8/1R6[] w - 32 32 61", &Rules::FAIRY_STOCKFISH).outcome(), Outcome::Ongoing);
}

/// cutechess's material draw: "KvK, KGvK, KNvK" and anything else under 25 points (a met
/// 1, plus 2 for the first met on each square colour; a knight 4; any other man 9). Two
/// mets on squares of both colours are 24: a draw there, not under Fairy-Stockfish's rules.
#[test]
fn federation_material_draw_counts_points() {
    let fen = "4k3/8/8/8/8/8/8/2FFK3[] w - - 0 40";
    assert_eq!(at(fen, &Rules::FEDERATION).outcome(), Outcome::Draw(DrawReason::InsufficientMaterial));
    assert_eq!(at(fen, &Rules::FAIRY_STOCKFISH).outcome(), Outcome::Ongoing);
    let knight_and_met = "4k3/8/8/8/8/8/8/2FNK3[] w - - 0 40";
    assert_eq!(at(knight_and_met, &Rules::FEDERATION).outcome(), Outcome::Ongoing);
}

/// cutechess, like Fairy-Stockfish, refuses a promotion whose met would attack an enemy
/// man (checked with cutechess-cli: `d5d5f` in `4k3/8/4n3/3P4/8/8/P7/4K3[] w - - 0 40` is
/// an illegal move there), so the federation's promotions are Fairy-Stockfish's.
#[test]
fn federation_promotions_are_fairy_stockfishs() {
    for fen in ["4k2r/5n2/8/3P4/8/1s6/P7/4K3[] w - - 0 40", "4k3/8/4n3/3P4/8/8/P7/4K3[] w - - 0 40"] {
        assert_eq!(sorted_moves(&at(fen, &Rules::FEDERATION)), sorted_moves(&at(fen, &Rules::FAIRY_STOCKFISH)));
    }
    let promotions = at("4k3/8/4n3/3P4/8/8/P7/4K3[] w - - 0 40", &Rules::FEDERATION);
    assert!(!promotions.legal_moves().iter().any(|m| m.to_string() == "d5d5f"));
}

// ---- the club ------------------------------------------------------------------------------

/// "There is no counting rule"; "bare kings" are a draw, a king and met against a king
/// is not (the 50-move rule ends it).
#[test]
fn club_rules_count_nothing_and_draw_only_bare_kings() {
    let mut p = at("4k3/8/8/8/8/8/3r3R/4K3[] w - - 10 40", &Rules::CLUB);
    play(&mut p, "h2d2");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/3R4/4K3[] b - - 0 40");
    let met = "4k3/8/8/8/8/8/8/3FK3[] w - - 0 40";
    assert_eq!(at(met, &Rules::CLUB).outcome(), Outcome::Ongoing);
    assert_eq!(at(met, &Rules::FAIRY_STOCKFISH).outcome(), Outcome::Draw(DrawReason::InsufficientMaterial));
    let kings = "4k3/8/8/8/8/8/8/4K3[] w - - 0 40";
    assert_eq!(at(kings, &Rules::CLUB).outcome(), Outcome::Draw(DrawReason::InsufficientMaterial));
}

/// The default is Fairy-Stockfish's, by name and by value, and parsing under it is
/// parsing without rules.
#[test]
fn the_default_rules_are_fairy_stockfish() {
    assert_eq!(*Position::startpos().rules(), Rules::FAIRY_STOCKFISH);
    assert_eq!(Rules::by_name("sittuyin"), Some(&Rules::FAIRY_STOCKFISH));
    assert_eq!(at(START_FEN, &Rules::FAIRY_STOCKFISH).fen(), Position::startpos().fen());
}
