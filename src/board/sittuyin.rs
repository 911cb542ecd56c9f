//! The rules of Sittuyin as named data, each written here once: the start position, where
//! the setup drops go, the promotion squares and what a promotion must respect, the
//! counting limits, the 50-move and repetition limits, and which material cannot mate.
//! Move generation, FEN, make/unmake, the game-end verdict (`rules`), the evaluation and
//! the search all read them from here. The rules themselves are described in
//! docs/rules.md; they are Fairy-Stockfish's `sittuyin`, which is the reference.

use super::attacks;
use super::attacks::met_attack_set;
use super::bitboard::Bitboard;
use super::position::Position;
use super::ruleset::{FEDERATION_MATERIAL_MIN, Material, Rules, federation_material};
use super::types::{Color, PieceType, Square};

// ---- the start ---------------------------------------------------------------------------

/// The start position (docs/rules.md, "The start: placing the men"): the pawns are set,
/// every other piece is in hand. The pocket is written as Fairy-Stockfish's variant
/// definition writes it.
pub const START_FEN: &str = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1";

// ---- the setup phase ---------------------------------------------------------------------

/// How many of its own ranks, from its back rank, a side drops its pieces on.
pub const SETUP_RANKS: u8 = 3;
/// The relative rank a rook must be dropped on: the back rank.
pub const ROOK_DROP_RANK: u8 = 0;
/// The lowest relative rank a pawn in hand may be dropped on. The start has no pawn in hand,
/// but a FEN may; Fairy-Stockfish then drops it on the second or third rank.
pub const PAWN_DROP_LOWEST_RANK: u8 = 1;

/// The squares `c` may drop a `pt` on, before emptiness, checks and pins are considered
/// (docs/rules.md, "The start: placing the men").
#[inline(always)]
pub const fn drop_zone(c: Color, pt: PieceType) -> Bitboard {
    let (low, high) = match pt {
        PieceType::Rook => (ROOK_DROP_RANK, ROOK_DROP_RANK),
        PieceType::Pawn => (PAWN_DROP_LOWEST_RANK, SETUP_RANKS - 1),
        _ => (0, SETUP_RANKS - 1),
    };
    let mut zone = 0;
    let mut r = low;
    while r <= high {
        zone |= Bitboard::relative_rank(c, r).0;
        r += 1;
    }
    Bitboard(zone)
}

// ---- promotion ---------------------------------------------------------------------------

/// White's promotion squares: the two long diagonals in Black's half (docs/rules.md,
/// "Pawns and promotion"). Black's are their mirror image.
pub const WHITE_PROMOTION_SQUARES: [Square; 8] =
    [Square::A8, Square::B7, Square::C6, Square::D5, Square::E5, Square::F6, Square::G7, Square::H8];

const WHITE_PROMOTION_ZONE: Bitboard = {
    let mut bb = 0;
    let mut i = 0;
    while i < WHITE_PROMOTION_SQUARES.len() {
        bb |= Bitboard::from_square(WHITE_PROMOTION_SQUARES[i]).0;
        i += 1;
    }
    Bitboard(bb)
};

/// `c`'s promotion squares, as a set.
#[inline(always)]
pub const fn promotion_zone(c: Color) -> Bitboard {
    match c {
        Color::White => WHITE_PROMOTION_ZONE,
        Color::Black => WHITE_PROMOTION_ZONE.flip_vertical(),
    }
}

/// Which of `c`'s `pawns` may promote: none while `c` has a met on the board (`mets`); its
/// last pawn wherever it stands if `last_anywhere` (the rule set's); otherwise those on its
/// promotion squares.
#[inline(always)]
pub fn promotable_pawns(c: Color, pawns: Bitboard, mets: Bitboard, last_anywhere: bool) -> Bitboard {
    if mets.any() {
        Bitboard::EMPTY
    } else if pawns.more_than_one() || !last_anywhere {
        pawns & promotion_zone(c)
    } else {
        pawns
    }
}

/// Where the pawn on `from` may become a met: its own square or an empty diagonal neighbour
/// (a promotion never captures), but never a square from which the met would attack a piece
/// of `enemies` (so never a direct check either). A promotion must not uncover a check
/// either; that, like pins, depends on the lines through the square and is move
/// generation's part.
#[inline(always)]
pub fn promotion_destinations(from: Square, empty: Bitboard, enemies: Bitboard) -> Bitboard {
    ((attacks::met(from) & empty) | from) - met_attack_set(enemies)
}

// ---- the end of the game -----------------------------------------------------------------

/// The counting rule's limits in moves for a bare king, by the strongest piece the other
/// side has on the board (the first of these it has), and no pawn on the board (docs/rules.md,
/// "The counting rule").
pub const COUNTING_LIMITS: [(PieceType, u32); 3] =
    [(PieceType::Rook, 16), (PieceType::Khon, 44), (PieceType::Knight, 64)];

/// The counting limit in plies that a bare king faces from a side that has on the board the
/// piece types for which `has` is true: the first of `COUNTING_LIMITS` it has, in plies; 0
/// when it has none of them (no count).
#[inline]
pub fn counting_limit_plies(has: impl Fn(PieceType) -> bool) -> u32 {
    COUNTING_LIMITS.iter().find(|&&(pt, _)| has(pt)).map_or(0, |&(_, moves)| 2 * moves)
}

/// The 50-move rule: plies without a capture, pawn move, drop or promotion that draw
/// (docs/rules.md, "The 50-move rule").
pub const FIFTY_MOVE_PLIES: u32 = Rules::FAIRY_STOCKFISH.fifty_move_plies;

/// Occurrences of one position (side to move and hands included) that draw (docs/rules.md,
/// "Repetition").
pub const REPETITION_DRAW_COUNT: u32 = Rules::FAIRY_STOCKFISH.repetition_count;

/// Whether promotion stalemate applies (docs/rules.md, "Promotion stalemate"): the side to move has exactly
/// its king and one pawn on the board (`ours`, `our_pawns`) and nothing in hand, is not in
/// check, and `only_promotions` (asked last, as it needs the legal moves) says that it has a
/// legal move and every legal move is a promotion.
#[inline]
pub fn promotion_stalemate_applies(
    ours: Bitboard,
    our_pawns: Bitboard,
    in_hand: u32,
    in_check: bool,
    only_promotions: impl FnOnce() -> bool,
) -> bool {
    !in_check && in_hand == 0 && ours.count() == 2 && our_pawns.any() && only_promotions()
}

/// Pieces of which one on the board, or anything in hand, always gives a side mating
/// material (docs/rules.md, "Insufficient material").
pub const MATING_PIECES: [PieceType; 2] = [PieceType::Rook, PieceType::Khon];

/// The piece bound to one square colour: mets alone cannot mate while every met on the board
/// shares one colour and no other piece but the kings stands on the board.
pub const COLOUR_BOUND: PieceType = PieceType::Met;

/// Pieces that cannot mate as the only piece on the board besides the kings, but can with
/// any other piece on the board.
pub const LONE_NON_MATING: [PieceType; 2] = [PieceType::Knight, PieceType::Pawn];

/// The board part of the insufficient-material rule for one side (everything but its hand):
/// `ours` are its men, `non_king` every man on the board but the kings, `of_type` both
/// sides' men of a type. `Position` and the tablebases' positions both ask it.
#[inline]
pub fn cannot_mate_on_board(ours: Bitboard, non_king: Bitboard, of_type: impl Fn(PieceType) -> Bitboard) -> bool {
    if MATING_PIECES.iter().any(|&pt| (of_type(pt) & ours).any()) {
        return false;
    }
    let bound = of_type(COLOUR_BOUND);
    if (bound & ours).any() {
        let one_colour = (bound & Bitboard::DARK).is_empty() || (bound - Bitboard::DARK).is_empty();
        return one_colour && non_king == bound;
    }
    // What is left of ours is knights and pawns (the mating pieces returned above).
    let lone = LONE_NON_MATING.iter().fold(Bitboard::EMPTY, |b, &pt| b | (of_type(pt) & ours));
    lone.is_empty() || !non_king.more_than_one()
}

impl Position {
    /// The standard start: empty back ranks, pawns set, every other piece in hand.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN parses")
    }

    /// The counting limit in plies that starts when `strong`'s opponent is left with a bare
    /// king and no pawn is on the board; 0 if `strong` has none of the pieces counted.
    pub fn counting_limit_against(&self, strong: Color) -> u32 {
        counting_limit_plies(|pt| self.pieces(strong, pt).any())
    }

    /// Whether `c` cannot possibly mate (pyffish's `has_insufficient_material` for one side):
    /// nothing in hand, none of the `MATING_PIECES`, and either nothing else, or only mets on
    /// one square colour with nothing else on the board, or a lone knight or pawn that is
    /// the only piece on the board besides the kings.
    pub fn has_insufficient_material(&self, c: Color) -> bool {
        if self.hand_total(c) > 0 {
            return false;
        }
        let non_king = self.occupied() - self.pieces_of_type(PieceType::King);
        cannot_mate_on_board(self.pieces_of_color(c), non_king, |pt| self.pieces_of_type(pt))
    }

    /// Whether neither side can mate, so the game is drawn, by the position's rules.
    #[inline]
    pub fn is_insufficient_material_draw(&self) -> bool {
        match self.rules().material {
            Material::FairyStockfish => self.neither_can_mate(),
            Material::Federation => self.federation_material_draw(),
            Material::BareKings => self.occupied() == self.pieces_of_type(PieceType::King) && !self.in_setup(),
        }
    }

    /// cutechess's material draw: the men on the board are worth less than
    /// `FEDERATION_MATERIAL_MIN` (a king or any man but a met or knight 9, a knight 4, a met
    /// 1 and 2 more for the first on each square colour).
    #[cold]
    fn federation_material_draw(&self) -> bool {
        let mets = self.pieces_of_type(PieceType::Met);
        let knights = self.pieces_of_type(PieceType::Knight);
        let others = self.occupied() - mets - knights;
        federation_material(mets, knights, others) < FEDERATION_MATERIAL_MIN
    }

    /// Fairy-Stockfish's material draw: neither side can mate (`has_insufficient_material`).
    #[inline]
    fn neither_can_mate(&self) -> bool {
        // Screened first by what the per-side test needs of both sides (empty hands, none of
        // the mating pieces on the board), as the search asks at every node.
        let mating = MATING_PIECES.iter().fold(Bitboard::EMPTY, |b, &pt| b | self.pieces_of_type(pt));
        mating.is_empty()
            && !self.in_setup()
            && self.has_insufficient_material(Color::White)
            && self.has_insufficient_material(Color::Black)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_zones_are_the_three_home_ranks_and_the_back_rank_for_rooks() {
        use PieceType::*;
        let bb = |ranks: &[u8]| ranks.iter().fold(Bitboard::EMPTY, |b, &r| b | Bitboard::rank(r));
        for pt in [King, Knight, Khon, Met] {
            assert_eq!(drop_zone(Color::White, pt), bb(&[0, 1, 2]));
            assert_eq!(drop_zone(Color::Black, pt), bb(&[5, 6, 7]));
        }
        assert_eq!(drop_zone(Color::White, Rook), Bitboard::RANK_1);
        assert_eq!(drop_zone(Color::Black, Rook), Bitboard::RANK_8);
        assert_eq!(drop_zone(Color::White, Pawn), bb(&[1, 2]));
        assert_eq!(drop_zone(Color::Black, Pawn), bb(&[5, 6]));
    }

    #[test]
    fn promotion_squares_are_the_long_diagonals_in_the_far_half() {
        let names = |c| promotion_zone(c).map(|s: Square| s.to_string()).collect::<Vec<_>>().join(" ");
        assert_eq!(names(Color::White), "d5 e5 c6 f6 b7 g7 a8 h8");
        assert_eq!(names(Color::Black), "a1 h1 b2 g2 c3 f3 d4 e4");
    }

    #[test]
    fn only_the_last_pawn_promotes_off_the_diagonals_and_none_beside_a_met() {
        let two = Bitboard::from_square(Square::D5) | Square::A2;
        assert_eq!(promotable_pawns(Color::White, two, Bitboard::EMPTY, true), Bitboard::from_square(Square::D5));
        let last = Bitboard::from_square(Square::A2);
        assert_eq!(promotable_pawns(Color::White, last, Bitboard::EMPTY, true), last);
        assert_eq!(promotable_pawns(Color::White, two, Bitboard::from_square(Square::H1), true), Bitboard::EMPTY);
        // Pritchard's rules: no last-pawn rule, so a last pawn off the diagonals stays.
        assert_eq!(promotable_pawns(Color::White, last, Bitboard::EMPTY, false), Bitboard::EMPTY);
    }

    #[test]
    fn counting_limits_follow_the_strongest_piece() {
        let limit = |fen| Position::from_fen(fen).unwrap().counting_limit_against(Color::White);
        assert_eq!(limit("4k3/8/8/8/8/8/7R/4K1NS[] b - - 0 1"), 32);
        assert_eq!(limit("4k3/8/8/8/8/8/8/4K1NS[] b - - 0 1"), 88);
        assert_eq!(limit("4k3/8/8/8/8/8/8/4K1NF[] b - - 0 1"), 128);
        assert_eq!(limit("4k3/8/8/8/8/8/8/4K2F[] b - - 0 1"), 0);
    }
}
