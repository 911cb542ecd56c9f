//! The setup phase: formations come from the evaluation and the search, not from a script.
//!
//! Two kinds of check. The static one holds a nearly finished setup fixed but one piece and
//! asks the classical evaluation to prefer the sensible square by a clear margin: a king
//! tucked in among its khons and met over the same king on the third rank, and a rook that
//! can move over the same rook boxed in by its own pieces. The played one lets the engine
//! place all sixteen pieces of both sides itself, from several first drops, and checks what
//! it built: the king behind the pawns with its own pieces around it, and no rook shut in;
//! once as the engine ships (the built-in net), once with the classical fallback.

use sitke::board::attacks;
use sitke::board::{Bitboard, Color, Move, PieceType, Position};
use sitke::eval::evaluate;
use sitke::search::{Control, Limits, Searcher};

/// Black's formation, the same in every static comparison.
const BLACK: &str = "rn4nr/2sksf2/4pppp/pppp4/4PPPP";

/// White's score with White still to drop one knight, so the position is in the setup.
fn white_view(white_ranks_3_to_1: &str) -> i32 {
    let fen = format!("{BLACK}/{white_ranks_3_to_1}[N] w - - 0 9");
    let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert!(pos.in_setup() && pos.side_to_move() == Color::White, "{fen}");
    evaluate(&pos)
}

#[test]
fn an_exposed_king_scores_badly() {
    // King on d2 between khon, khon and met, behind the pawns.
    let guarded = white_view("PPPP4/2SKSF2/RN4R1");
    // The same pieces, the king moved up to the third rank.
    for exposed in ["PPPP3K/2S1SF2/RN4R1", "PPPP2K1/2S1SF2/RN4R1", "PPPP1K2/2S1S3/RN1F2R1"] {
        let v = white_view(exposed);
        assert!(v + 50 <= guarded, "exposed king {exposed}: {v}, guarded: {guarded}");
    }
}

#[test]
fn a_rook_shut_in_scores_badly() {
    // Only the rook moves between the compared positions. On a1 it is boxed in by its own
    // khon (a2) and knight (b1) and has no move at all; on d1 it has the back rank.
    let free = white_view("PPPP4/S2KSF2/1N1R3R");
    let boxed = white_view("PPPP4/S2KSF2/RN5R");
    assert!(boxed + 50 <= free, "boxed rook: {boxed}, free: {free}");
    // The second rook boxed in too (h1, behind the g1 met and h2 khon) is worse again.
    let one = white_view("PPPP4/S2K3S/RN3RF1");
    let both = white_view("PPPP4/S2K3S/RN4FR");
    assert!(both + 50 <= one, "both rooks boxed: {both}, one: {one}");
}

/// Plays the rest of the setup with `searcher` on both sides at a fixed depth.
fn engine_setup(first: &[&str], depth: u32, searcher: &mut Searcher) -> Position {
    let mut pos = Position::startpos();
    for m in first {
        let mv: Move = pos.parse_uci_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.do_move(mv);
    }
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    while pos.in_setup() {
        let r = searcher.search(&pos, &limits, &Control::new(), &mut |_| {});
        assert!(r.best != Move::NONE, "no move in setup");
        pos.do_move(r.best);
    }
    pos
}

/// Squares a rook of `c` on `sq` can move to, over its own pieces as blockers.
fn rook_moves(pos: &Position, c: Color, sq: sitke::board::Square) -> u32 {
    (attacks::rook(sq, pos.occupied()) & !pos.pieces_of_color(c)).count()
}

#[test]
fn the_engine_builds_sound_formations_itself() {
    let mut shipped = Searcher::new(16, 1);
    assert!(shipped.network().is_some(), "the engine ships with the net on");
    builds_sound_formations(&mut shipped);
}

#[test]
fn the_classical_evaluation_builds_sound_formations_too() {
    builds_sound_formations(&mut Searcher::classical(16, 1));
}

/// Lets `searcher` finish the setup from several first drops and checks each formation.
fn builds_sound_formations(searcher: &mut Searcher) {
    // Different first drops for each side steer the searches into different formations.
    let openings: [&[&str]; 4] = [&["K@d2", "K@e7"], &["R@a1", "N@c7"], &["S@f2", "F@d7"], &["N@g1", "K@b7"]];
    for first in openings {
        searcher.clear();
        let pos = engine_setup(first, 7, searcher);
        let fen = pos.fen();
        for c in [Color::White, Color::Black] {
            let k = pos.king_square(c).expect("king placed");
            // Behind the pawns: an own pawn on the king's file stands further forward. The
            // pawn line is stepped (White's a-d pawns on the third rank, e-h on the fourth),
            // so the third rank is behind the pawns on the side where they stand higher.
            let shield = pos.pieces(c, PieceType::Pawn) & Bitboard::file(k.file()) & Bitboard::ranks_ahead(c, k);
            assert!(shield.any(), "{c:?} king in front of the pawns: {fen}");
            // Not left alone: an own piece beside it (a khon, the met or a knight; each
            // covers squares an attacker would use).
            let beside: Bitboard = attacks::king(k) & pos.pieces_of_color(c);
            assert!(!beside.is_empty(), "{c:?} king left alone: {fen}");
            // Shut in as the static check means it: no move at all. A rook in the corner
            // beside the other, with one square in front of it, is a formation the net
            // chose and won with (generation 3), not a boxed-in piece.
            for r in pos.pieces(c, PieceType::Rook) {
                assert!(rook_moves(&pos, c, r) >= 1, "{c:?} rook on {r:?} shut in: {fen}");
            }
        }
    }
}
