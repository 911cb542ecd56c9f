//! The evaluation weights: every number the evaluation uses, in one place.
//!
//! Written by `sitke tune`; the layout of the table is `super::layout`. Each line is one
//! term, in (middlegame, endgame) pairs. The numbers are a fit of every weight but TEMPO
//! and the two formation terms (`--lambda 0`) to fairy-stockfish's depth-8 scores of
//! 497,729 positions (`scripts/fsf_label.py --depth 8`): 299,881 from our own self-play
//! games and 197,848 from fairy-stockfish's (900 games) and from 269 of our games against
//! it, each score moved 33 cp toward the side not to move, since the teacher favours the side to
//! move by that much on average where the results do not. Our own games alone never showed
//! the positions that fairy-stockfish steers into, and the table fitted to them lost to it by
//! 215 Elo at 20,000 nodes a move where this one loses by 60. The formation terms,
//! OPENING_KING_FORWARD and OPENING_ROOK_SHUT, are set by hand until
//! tests/setup_formation.rs passes (the teacher's positions rarely hold a bad formation, so
//! a fit cannot learn them). README, "Tuning the evaluation", has the runs.

use super::layout::NUM_PARAMS;
use super::score::{S, s};

/// The weight table.
#[rustfmt::skip]
pub static WEIGHTS: [S; NUM_PARAMS] = [
    // MATERIAL
    s(113, 53), s(475, 272), s(344, 282), s(229, 231), s(677, 584), s(-6, 0),
    // HAND
    s(100, 120), s(492, 330), s(316, 330), s(210, 250), s(681, 620), s(6, 0),
    // PST pawn (a1..h8, White's view)
    s(0, 0), s(0, 0), s(4, 0), s(4, 0), s(4, 0), s(4, 0), s(0, 0), s(0, 0),
    s(0, 0), s(0, 0), s(4, 0), s(4, 0), s(4, 0), s(4, 0), s(0, 0), s(0, 0),
    s(-17, 13), s(-16, -4), s(6, 10), s(10, -1), s(20, -1), s(11, 11), s(2, 3), s(-18, 6),
    s(-21, 10), s(-14, 6), s(10, -4), s(13, -9), s(21, -16), s(15, -7), s(3, -17), s(-14, 7),
    s(-18, 28), s(-9, 3), s(11, 12), s(14, 30), s(22, 5), s(8, 16), s(-8, 24), s(-10, 21),
    s(-48, 78), s(7, 33), s(10, 79), s(-17, 86), s(37, 52), s(24, 56), s(4, 40), s(-54, 69),
    s(-36, 65), s(59, 5), s(-46, 84), s(-43, 92), s(124, 18), s(-25, 73), s(-9, 64), s(-38, 64),
    s(88, -15), s(151, -38), s(90, -20), s(105, -32), s(276, -101), s(142, -46), s(147, -44), s(60, -18),
    // PST knight (a1..h8, White's view)
    s(-55, -96), s(-36, -37), s(-27, -37), s(-14, -42), s(-25, 12), s(-23, -42), s(-34, -38), s(-55, -65),
    s(-36, -63), s(-17, -23), s(-5, -31), s(9, -33), s(11, -27), s(-1, -29), s(-12, -11), s(-37, -51),
    s(-11, -63), s(15, -57), s(23, -19), s(23, 2), s(23, -5), s(17, -13), s(0, -22), s(-17, -55),
    s(15, -45), s(18, -4), s(42, -1), s(47, -11), s(54, -19), s(37, -21), s(28, -40), s(11, -38),
    s(-5, -49), s(40, -65), s(36, 0), s(60, -4), s(54, -15), s(42, -7), s(41, -57), s(17, -42),
    s(-41, -4), s(28, -36), s(47, 17), s(69, -9), s(91, -60), s(26, 15), s(24, -63), s(-13, -45),
    s(-11, -74), s(1, -37), s(36, -87), s(91, -67), s(63, -37), s(4, -35), s(-16, -74), s(42, -115),
    s(-78, -140), s(-31, -64), s(38, -50), s(-4, -53), s(39, -79), s(30, -101), s(36, -57), s(-79, -54),
    // PST khon (a1..h8, White's view)
    s(-30, -76), s(-24, -85), s(-13, -77), s(-12, -53), s(-12, -50), s(-14, -59), s(-24, -83), s(-26, -124),
    s(-28, -97), s(-12, -75), s(-5, -60), s(10, -52), s(3, -59), s(6, -65), s(-10, -73), s(-27, -96),
    s(-17, -75), s(-4, -65), s(9, -38), s(19, -40), s(17, -35), s(-1, -19), s(2, -67), s(-14, -77),
    s(10, -96), s(9, -51), s(19, -42), s(14, -27), s(13, -15), s(8, -24), s(-11, -33), s(-13, -80),
    s(1, -89), s(-20, -29), s(-6, -6), s(-43, 33), s(-23, 17), s(-32, 21), s(-9, -32), s(-5, -83),
    s(19, -103), s(32, -47), s(-4, -10), s(-90, 53), s(-52, 18), s(-11, 3), s(-49, 47), s(-25, -92),
    s(0, -137), s(75, -114), s(89, -80), s(-59, -46), s(-113, 16), s(-6, -44), s(-48, -33), s(-47, -101),
    s(94, -221), s(-15, -70), s(39, -90), s(-83, -85), s(141, -97), s(-49, -45), s(-44, -52), s(-55, -117),
    // PST met (a1..h8, White's view)
    s(-42, -90), s(-22, -89), s(-22, -82), s(-27, -52), s(-15, -61), s(-24, -61), s(-27, -80), s(-40, -62),
    s(-31, -74), s(-25, -67), s(-19, -56), s(-4, -54), s(-12, -51), s(-6, -72), s(-19, -54), s(-34, -94),
    s(-31, -55), s(-13, -51), s(6, -52), s(9, -52), s(12, -61), s(-7, -33), s(-7, -65), s(-25, -86),
    s(3, -82), s(-3, -40), s(-10, -35), s(29, -66), s(22, -54), s(52, -74), s(15, -61), s(23, -94),
    s(24, -79), s(-8, -38), s(45, -55), s(41, -54), s(64, -80), s(37, -57), s(60, -90), s(49, -100),
    s(134, -138), s(40, -56), s(37, -53), s(73, -57), s(64, -55), s(58, -61), s(76, -79), s(-7, -56),
    s(45, -65), s(-46, -33), s(105, -72), s(121, -98), s(89, -73), s(164, -105), s(29, -64), s(91, -41),
    s(4, -58), s(131, -92), s(23, -60), s(235, -133), s(157, -111), s(39, -58), s(42, -44), s(51, -145),
    // PST rook (a1..h8, White's view)
    s(14, -13), s(18, -23), s(23, -31), s(29, -43), s(31, -50), s(22, -12), s(16, -17), s(9, -11),
    s(7, -30), s(7, 0), s(9, -24), s(12, -17), s(13, -31), s(19, -33), s(-6, -7), s(-8, -4),
    s(-23, 12), s(-11, 6), s(-16, -24), s(2, -13), s(-7, 9), s(-7, -4), s(-15, 13), s(-11, 4),
    s(-10, 14), s(-17, 35), s(-43, 38), s(-37, 32), s(-17, 6), s(-30, 35), s(-14, 19), s(-19, 29),
    s(17, -12), s(-2, 1), s(7, -2), s(-4, -10), s(-8, 18), s(14, -15), s(-5, -4), s(7, -11),
    s(24, -9), s(26, -15), s(16, 28), s(0, 34), s(2, 41), s(4, 16), s(46, -10), s(32, -22),
    s(25, 1), s(24, 0), s(0, 37), s(19, 28), s(47, 4), s(21, 32), s(34, 8), s(40, -10),
    s(39, -4), s(28, 8), s(18, 8), s(-7, 58), s(20, 20), s(57, -6), s(-5, 17), s(56, -21),
    // PST king (a1..h8, White's view)
    s(-34, -47), s(-23, -39), s(-35, -33), s(-52, -29), s(-52, -30), s(-37, -30), s(-16, -58), s(-35, -82),
    s(-23, -44), s(-11, -19), s(-21, -18), s(-38, 2), s(-43, 2), s(-20, -9), s(-13, -18), s(-18, -63),
    s(5, -37), s(22, -30), s(5, -11), s(1, -17), s(-5, -4), s(1, -3), s(14, -24), s(6, -47),
    s(-31, -28), s(-25, 5), s(-3, -9), s(-47, -6), s(2, -16), s(3, 6), s(-1, -17), s(-19, -66),
    s(-21, -43), s(-34, -8), s(59, -24), s(55, -29), s(111, -42), s(86, -27), s(34, -26), s(-49, -40),
    s(-149, 20), s(109, -57), s(177, -58), s(83, -22), s(151, -35), s(188, -47), s(49, -40), s(-103, -9),
    s(-632, 130), s(-5, -29), s(151, -67), s(57, -7), s(-79, 23), s(115, -64), s(18, -19), s(-196, -5),
    s(-681, 271), s(-629, 174), s(-286, 3), s(-89, -12), s(-266, -33), s(-235, -11), s(-314, 35), s(-368, 53),
    // MOBILITY_KNIGHT
    s(-14, -73), s(2, -34), s(13, 2), s(17, 6), s(26, 8), s(33, 11), s(42, 2), s(52, -24), s(131, -103),
    // MOBILITY_KHON
    s(-22, -70), s(-15, -56), s(-7, -49), s(0, -30), s(0, -19), s(-5, -9),
    // MOBILITY_MET
    s(-2, -50), s(3, -37), s(11, -43), s(16, -36), s(39, -51),
    // MOBILITY_ROOK
    s(50, -130), s(6, -135), s(9, -53), s(14, -42), s(17, -29), s(18, -8), s(21, -11), s(22, 3), s(25, 10), s(26, 20), s(27, 24), s(27, 32), s(30, 31), s(30, 33), s(-25, 71),
    // KING_ZONE_ATTACK
    s(-4, 1), s(3, 2), s(-9, -3), s(-5, 2), s(7, -8), s(0, 0),
    // KING_ATTACKERS
    s(2, -11), s(-4, 9), s(3, -9), s(-37, 14), s(-114, 23), s(-112, -35), s(-120, -10), s(-150, -10),
    // KING_GUARD
    s(4, 11), s(4, 5), s(-2, -4), s(2, -5), s(-8, 11), s(0, 0),
    // KING_SHELTER
    s(-26, 8), s(9, -6), s(21, -25), s(17, -18),
    // KING_OPEN_FILE
    s(-2, 1),
    // PAWN_PROTECTED
    s(12, 6),
    // PAWN_PHALANX
    s(10, 20),
    // PAWN_BLOCKED
    s(-15, 5),
    // PAWN_DOUBLED
    s(-14, 1),
    // PAWN_ISOLATED
    s(-2, -17),
    // PAWN_PROMOTABLE
    s(-14, 112),
    // ROOK_OPEN_FILE
    s(25, 1),
    // ROOK_SEMI_OPEN_FILE
    s(16, -1),
    // THREAT_BY_PAWN
    s(0, 0), s(-65, 39), s(-30, -61), s(-50, -31), s(-37, -47), s(0, 0),
    // HANGING
    s(-15, -57), s(6, -11), s(29, -90), s(6, -49), s(16, -25), s(0, 0),
    // TEMPO
    s(11, 1),
    // LAST_PAWN
    s(175, -114),
    // THREAT_BY_MINOR
    s(8, -31), s(-90, 15), s(22, -27), s(6, -6), s(-46, 25), s(0, 0),
    // THREAT_BY_ROOK
    s(-4, -17), s(-18, -10), s(9, -16), s(2, -2), s(40, 112), s(0, 0),
    // OPENING_KING_FORWARD
    s(-17, 0),
    // OPENING_ROOK_SHUT
    s(-12, 0),
    // KING_DANGER
    s(-4, 2),
    // KING_STORM
    s(17, -1), s(8, -33), s(6, -23), s(7, -27),
    // OUTPOST
    s(0, 0), s(-9, 50), s(41, -27), s(-17, 19), s(0, 0), s(0, 0),
    // PAWN_PASSED
    s(0, 0), s(0, 0), s(-1, 29), s(1, 39), s(-1, 15), s(19, -31), s(31, -49), s(9, -23),
];

/// Piece units for the bare-king evaluation (pawn, knight, khon, met, rook, king): a met is
/// half a minor piece, a rook a little less than two minors. Set by hand, like every
/// `MOP_UP_` weight below: that evaluation replaces the linear one, so the fit never sees it.
pub const ENDGAME_UNITS: [i32; 6] = [0, 6, 6, 3, 10, 0];
/// Against a bare king: the score every winning side starts from.
pub const MOP_UP_BASE: i32 = 300;
/// Against a bare king: per `ENDGAME_UNITS` unit of the strong side's pieces.
pub const MOP_UP_UNIT: i32 = 50;
/// Against a bare king: per pawn of the strong side.
pub const MOP_UP_PAWN: i32 = 80;
/// Against a bare king: per step of the weak king away from the centre.
pub const MOP_UP_EDGE: i32 = 25;
/// Against a bare king and a khon without a rook: per rank the weak king stands up the board.
pub const MOP_UP_FAR_RANK: i32 = 30;
/// Against a bare king: per step of the weak king toward the nearest corner.
pub const MOP_UP_CORNER: i32 = 15;
/// Against a bare king: per step the kings close in (once more at a knight's distance).
pub const MOP_UP_KINGS: i32 = 15;
/// Against a bare king: per step a strong piece closes in on the weak king.
pub const MOP_UP_PIECE: i32 = 8;
/// Against a bare king with knight and met alone: per step of the weak king toward the
/// nearer corner of the met's colour, the only corners where they mate.
pub const MOP_UP_MET_CORNER: i32 = 20;
/// Against a bare king, material that cannot force mate has its score divided by this.
pub const NO_MATE_DIVISOR: i32 = 8;
/// A lone rook against a knight or khon (a met and pawns that cannot promote beside it or
/// not) has its score divided by this.
pub const ROOK_VS_MINOR_DIVISOR: i32 = 8;
/// Knight and met against a bare king have their gradient divided by this: the tables show
/// the ending drawn in all but 2% of its positions, and the division keeps the gradient's
/// order for the search.
pub const KNIGHT_MET_DIVISOR: i32 = 8;
