//! The rule sets Sittuyin is played by, each a value: Fairy-Stockfish's (the default, and
//! what pychess and Fairyground judge by), the Myanmar federation's as cutechess referees
//! them, a club site's, and Pritchard's. A `Position` carries a `&'static Rules`; the board,
//! move generation, the game end, the search, the evaluation's clock fade, the tablebases
//! and the match referee read it, so none of them fixes one rule set. docs/rules.md has the
//! table of what differs and where each rule comes from.

use super::bitboard::Bitboard;
use super::types::{PieceType, Square};

/// How the men in hand are placed at the start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SetupOrder {
    /// One drop each, in turn, White first.
    Alternating,
    /// White drops all of its men, then Black all of its own: a side keeps the move while
    /// it has a man in hand and a legal drop.
    Sequential,
}

/// What a stalemate is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StalemateRule {
    /// A side with no legal move that is not in check has drawn.
    Draw,
    /// A move that would leave the opponent without a legal move, not in check, is illegal.
    Illegal,
}

/// Which counting rule a bare king may claim.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Counting {
    /// None: a bare king has only the 50-move rule.
    None,
    /// Fairy-Stockfish's: with no pawn on the board, a bare king to move starts (and after a
    /// capture or promotion restarts) a count from 0, limited by the strongest of rook, khon,
    /// knight the other side has; drawn once the count is above the limit.
    FairyStockfish,
    /// cutechess's federation count: it starts once, when either side is first left with
    /// its king alone (pawns allowed); with a pawn on the board the limit is 64 moves,
    /// without one it follows the mover's material (`FEDERATION_LIMITS`, else
    /// `FEDERATION_FALLBACK_MOVES`); the count starts at twice the men on the board and the
    /// game is drawn once it reaches the limit.
    Federation,
    /// Pritchard's: king and rook alone against a lone king, no pawn, must mate within 16
    /// moves; a lone king on a centre square when the count would start delays it until
    /// after its fifth move. Drawn once the count is above the limit.
    Pritchard,
}

/// When a lone king and pawns without another move are a draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PromotionStalemate {
    /// Never.
    None,
    /// Fairy-Stockfish's: the side to move has only its king and one pawn on the board,
    /// nothing in hand, is not in check, and every legal move is a promotion.
    KingAndPawn,
    /// cutechess's: the side to move has exactly one pawn (other men allowed), the setup is
    /// over, and every legal move is a promotion.
    OnePawn,
}

/// Which material cannot mate, so draws.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Material {
    /// Fairy-Stockfish's per-side test (`sittuyin::cannot_mate_on_board`), both sides.
    FairyStockfish,
    /// cutechess's points (`FEDERATION_MATERIAL`): the men on the board sum to less than
    /// `FEDERATION_MATERIAL_MIN`.
    Federation,
    /// Only the two kings alone on the board.
    BareKings,
}

/// In which order the draws by rule are looked at, which names the reason when several
/// apply at once.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawOrder {
    /// Fairy-Stockfish's: 50 moves, repetition, the count, promotion stalemate, material.
    FairyStockfish,
    /// cutechess's: promotion stalemate, 50 moves, material, the count.
    Cutechess,
}

/// One rule set: every rule that differs between the ways Sittuyin is played, as data.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// The `UCI_Variant` name that selects it (and the `Rules` combo's value).
    pub name: &'static str,
    /// Whose rules these are, for `info string` lines and docs.
    pub title: &'static str,
    /// How the men are placed.
    pub setup: SetupOrder,
    /// What a stalemate is.
    pub stalemate: StalemateRule,
    /// Whether a side's last pawn may promote wherever it stands.
    pub last_pawn_promotes_anywhere: bool,
    /// The counting rule.
    pub counting: Counting,
    /// Plies without capture, pawn move, promotion or drop that draw.
    pub fifty_move_plies: u32,
    /// Occurrences of a position that draw (0: repetition never draws).
    pub repetition_count: u32,
    /// The promotion-stalemate draw.
    pub promotion_stalemate: PromotionStalemate,
    /// The insufficient-material draw.
    pub material: Material,
    /// The order in which the draws are judged.
    pub draw_order: DrawOrder,
}

impl Rules {
    /// Fairy-Stockfish's `sittuyin`: what pychess, Fairyground and Fairy-Stockfish play.
    pub const FAIRY_STOCKFISH: Rules = Rules {
        name: "sittuyin",
        title: "Fairy-Stockfish/pychess",
        setup: SetupOrder::Alternating,
        stalemate: StalemateRule::Draw,
        last_pawn_promotes_anywhere: true,
        counting: Counting::FairyStockfish,
        fifty_move_plies: 100,
        repetition_count: 3,
        promotion_stalemate: PromotionStalemate::KingAndPawn,
        material: Material::FairyStockfish,
        draw_order: DrawOrder::FairyStockfish,
    };

    /// The Myanmar Chess Federation's rules as cutechess referees `sittuyin`.
    pub const FEDERATION: Rules = Rules {
        name: "sittuyin-federation",
        title: "Myanmar Chess Federation (as cutechess)",
        setup: SetupOrder::Alternating,
        stalemate: StalemateRule::Draw,
        last_pawn_promotes_anywhere: true,
        counting: Counting::Federation,
        fifty_move_plies: 100,
        repetition_count: 0,
        promotion_stalemate: PromotionStalemate::OnePawn,
        material: Material::Federation,
        draw_order: DrawOrder::Cutechess,
    };

    /// The club site's: no counting rule; stalemate, bare kings, 100 plies without capture
    /// or pawn move and threefold repetition draw.
    pub const CLUB: Rules = Rules {
        name: "sittuyin-club",
        title: "club site (no counting)",
        setup: SetupOrder::Alternating,
        stalemate: StalemateRule::Draw,
        last_pawn_promotes_anywhere: true,
        counting: Counting::None,
        fifty_move_plies: 100,
        repetition_count: 3,
        promotion_stalemate: PromotionStalemate::KingAndPawn,
        material: Material::BareKings,
        draw_order: DrawOrder::FairyStockfish,
    };

    /// Pritchard's (Encyclopedia of Chess Variants): sequential setup, stalemating moves
    /// illegal, promotion only on the diagonals, K+R v K in 16 with the centre rule. What he
    /// does not state (50 moves, repetition, promotion stalemate, material) is
    /// Fairy-Stockfish's.
    pub const PRITCHARD: Rules = Rules {
        name: "sittuyin-pritchard",
        title: "Pritchard (Encyclopedia of Chess Variants)",
        setup: SetupOrder::Sequential,
        stalemate: StalemateRule::Illegal,
        last_pawn_promotes_anywhere: false,
        counting: Counting::Pritchard,
        fifty_move_plies: 100,
        repetition_count: 3,
        promotion_stalemate: PromotionStalemate::KingAndPawn,
        material: Material::FairyStockfish,
        draw_order: DrawOrder::FairyStockfish,
    };

    /// Every rule set, the default first.
    pub const ALL: [&'static Rules; 4] = [&Rules::FAIRY_STOCKFISH, &Rules::FEDERATION, &Rules::CLUB, &Rules::PRITCHARD];

    /// The rule set a name selects: a `UCI_Variant` name, or its short form (`fairy`,
    /// `federation`, `club`, `pritchard`) as the `Rules` combo and `-rules` take it.
    pub fn by_name(name: &str) -> Option<&'static Rules> {
        let name = name.trim().to_ascii_lowercase();
        Rules::ALL.into_iter().find(|r| r.name == name || r.short_name() == name)
    }

    /// The short name: `fairy`, `federation`, `club` or `pritchard`.
    pub fn short_name(&self) -> &'static str {
        self.short_name_const()
    }

    /// `short_name` for constants (the option tables).
    pub const fn short_name_const(&self) -> &'static str {
        let name = self.name.as_bytes();
        const PREFIX: &[u8] = b"sittuyin-";
        if name.len() <= PREFIX.len() {
            return "fairy";
        }
        let (_, rest) = name.split_at(PREFIX.len());
        match std::str::from_utf8(rest) {
            Ok(s) => s,
            Err(_) => "fairy",
        }
    }

    /// Whether these are the default rules.
    #[inline(always)]
    pub fn is_default(&self) -> bool {
        std::ptr::eq(self, &Rules::FAIRY_STOCKFISH) || *self == Rules::FAIRY_STOCKFISH
    }

    /// Whether repetition can draw at all.
    #[inline(always)]
    pub fn has_repetition(&self) -> bool {
        self.repetition_count != 0
    }

    /// The 50-move limit in plies (every rule set has one).
    #[inline(always)]
    pub fn fifty_limit(&self) -> u32 {
        self.fifty_move_plies
    }

    /// Whether a count of `ply` plies against `limit` has run out.
    #[inline(always)]
    pub fn count_expired(&self, limit: u32, ply: u32) -> bool {
        // cutechess draws on reaching the limit; the others once the count is above it.
        limit != 0 && ply + (self.counting == Counting::Federation) as u32 > limit
    }
}

impl Default for &'static Rules {
    fn default() -> Self {
        &Rules::FAIRY_STOCKFISH
    }
}

// ---- the federation's count and material, as cutechess applies them -----------------------

/// The federation's limits in moves without pawns on the board, by the mover's men: the first
/// entry whose every piece type the mover has sets the limit.
pub const FEDERATION_LIMITS: [(&[PieceType], u32); 3] =
    [(&[PieceType::Rook], 16), (&[PieceType::Khon, PieceType::Met], 44), (&[PieceType::Knight, PieceType::Met], 64)];
/// The federation's limit in moves when none of `FEDERATION_LIMITS` fits.
pub const FEDERATION_FALLBACK_MOVES: u32 = 1000;
/// The federation's limit in moves while a pawn is on the board.
pub const FEDERATION_PAWN_MOVES: u32 = 64;

/// The federation's limit in plies for a count that starts after `mover`'s move.
pub fn federation_limit_plies(pawns_on_board: bool, has: impl Fn(PieceType) -> bool) -> u32 {
    if pawns_on_board {
        return 2 * FEDERATION_PAWN_MOVES;
    }
    let moves = FEDERATION_LIMITS
        .iter()
        .find(|(need, _)| need.iter().all(|&pt| has(pt)))
        .map_or(FEDERATION_FALLBACK_MOVES, |&(_, m)| m);
    2 * moves
}

/// Points per man for the federation's material draw: a met 1, plus 2 for the first met on
/// each square colour; a knight 4; any other man (kings included) 9.
pub const FEDERATION_MATERIAL: (u32, u32, u32, u32) = (1, 2, 4, 9);
/// The federation's material draw: fewer points than this on the board.
pub const FEDERATION_MATERIAL_MIN: u32 = 25;

/// The federation's material sum of the board: `mets`, `knights` and `others` (every other
/// man, kings included).
pub fn federation_material(mets: Bitboard, knights: Bitboard, others: Bitboard) -> u32 {
    let (met, colour_bonus, knight, other) = FEDERATION_MATERIAL;
    let colours = (mets & Bitboard::DARK).any() as u32 + (mets - Bitboard::DARK).any() as u32;
    mets.count() * met + colours * colour_bonus + knights.count() * knight + others.count() * other
}

// ---- Pritchard's count -------------------------------------------------------------------

/// Pritchard's limit in moves for king and rook against a lone king.
pub const PRITCHARD_ROOK_MOVES: u32 = 16;
/// The centre squares on which a lone king delays Pritchard's count.
pub const PRITCHARD_CENTRE: [Square; 4] = [Square::D4, Square::E4, Square::D5, Square::E5];
/// The lone king's moves, on a centre square, after which Pritchard's count starts.
pub const PRITCHARD_CENTRE_MOVES: u32 = 5;

/// Pritchard's limit in plies, counted from the ply at which the lone king is first to move
/// against king and rook: 16 of the stronger side's moves, plus the plies the centre rule
/// adds when the lone king stands on `PRITCHARD_CENTRE` then (its first move is ply 0, so
/// after its fifth the stronger side moves at ply 9, not 1).
pub fn pritchard_limit_plies(lone_king: Square) -> u32 {
    let delay = if PRITCHARD_CENTRE.contains(&lone_king) { 2 * (PRITCHARD_CENTRE_MOVES - 1) } else { 0 };
    2 * PRITCHARD_ROOK_MOVES + delay
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_select_each_rule_set_and_the_default_is_fairy_stockfish() {
        for r in Rules::ALL {
            assert_eq!(Rules::by_name(r.name), Some(r));
            assert_eq!(Rules::by_name(r.short_name()), Some(r));
        }
        assert_eq!(Rules::by_name("Sittuyin"), Some(&Rules::FAIRY_STOCKFISH));
        assert_eq!(Rules::by_name("chess"), None);
        assert!(Rules::FAIRY_STOCKFISH.is_default() && !Rules::CLUB.is_default());
        let default: &'static Rules = Default::default();
        assert_eq!(default.name, "sittuyin");
    }

    #[test]
    fn federation_material_counts_as_cutechess_describes() {
        let bb = |sqs: &[Square]| sqs.iter().fold(Bitboard::EMPTY, |b, &s| b | s);
        let kings = bb(&[Square::E1, Square::E8]);
        // K v K, K+F v K, K+N v K are below 25; K+N+F v K and K+P v K are not.
        assert!(federation_material(Bitboard::EMPTY, Bitboard::EMPTY, kings) < FEDERATION_MATERIAL_MIN);
        assert!(federation_material(bb(&[Square::A1]), Bitboard::EMPTY, kings) < FEDERATION_MATERIAL_MIN);
        assert!(federation_material(Bitboard::EMPTY, bb(&[Square::B1]), kings) < FEDERATION_MATERIAL_MIN);
        assert_eq!(federation_material(bb(&[Square::A1]), bb(&[Square::B1]), kings), 25);
        assert_eq!(federation_material(Bitboard::EMPTY, Bitboard::EMPTY, kings | Square::A2), 27);
        // Two mets on opposite colours: 18 + 2 + 4 = 24, still a draw; a third makes 25.
        assert_eq!(federation_material(bb(&[Square::A1, Square::A2]), Bitboard::EMPTY, kings), 24);
        assert_eq!(federation_material(bb(&[Square::A1, Square::A2, Square::A3]), Bitboard::EMPTY, kings), 25);
    }

    #[test]
    fn pritchards_centre_rule_adds_four_lone_king_moves() {
        assert_eq!(pritchard_limit_plies(Square::A1), 32);
        assert_eq!(pritchard_limit_plies(Square::D5), 40);
    }
}
