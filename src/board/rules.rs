//! The end of the game, exactly as Fairy-Stockfish adjudicates Sittuyin: checkmate,
//! stalemate, threefold repetition, the 50-move rule, the counting rule, promotion
//! stalemate and insufficient material (docs/rules.md, "The end of the game"). The limits
//! and the material cases are `sittuyin`'s; the game (`outcome`) and the search judge
//! draws with the same predicate, `draw_by_rule`.

use super::position::Position;
use super::ruleset::{DrawOrder, PromotionStalemate};
use super::sittuyin::promotion_stalemate_applies;
use super::types::{Color, MoveKind, PieceType};

/// Why a game ended in a draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DrawReason {
    /// No legal move and not in check.
    Stalemate,
    /// The same position (side to move and hands included) for the third time.
    Repetition,
    /// `FIFTY_MOVE_PLIES` plies without capture, pawn move, promotion or drop.
    FiftyMoves,
    /// The counting limit ran out.
    Counting,
    /// A lone king and pawn whose only legal moves are promotions.
    PromotionStalemate,
    /// Neither side can mate.
    InsufficientMaterial,
}

/// The verdict on a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The side to move is checkmated; `winner` delivered it.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The game is drawn.
    Draw(DrawReason),
}

impl Outcome {
    /// Whether the game is over.
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }

    /// The PGN result string: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result_str(self) -> &'static str {
        match self {
            Outcome::Ongoing => "*",
            Outcome::Checkmate { winner: Color::White } => "1-0",
            Outcome::Checkmate { winner: Color::Black } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }

    /// A short human-readable reason, as used in PGN termination comments.
    pub fn reason(self) -> &'static str {
        match self {
            Outcome::Ongoing => "in progress",
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::Draw(DrawReason::Stalemate) => "stalemate",
            Outcome::Draw(DrawReason::Repetition) => "threefold repetition",
            Outcome::Draw(DrawReason::FiftyMoves) => "50-move rule",
            Outcome::Draw(DrawReason::Counting) => "counting rule",
            Outcome::Draw(DrawReason::PromotionStalemate) => "promotion stalemate",
            Outcome::Draw(DrawReason::InsufficientMaterial) => "insufficient material",
        }
    }
}

impl Position {
    /// How many times the current position occurred before within the reversible window
    /// (since the last capture, pawn move, promotion or drop, as far back as the history
    /// goes).
    pub fn repetitions(&self) -> u32 {
        let st = self.state();
        let end = st.rule50 as usize;
        let n = self.states.len();
        let mut count = 0;
        let mut i = 4;
        while i <= end && i < n {
            if self.states[n - 1 - i].key == st.key {
                count += 1;
            }
            i += 2;
        }
        count
    }

    /// Repetition as the search sees it: a position repeated once counts as a draw when the
    /// earlier occurrence lies inside the search tree (`ply` plies back at most); before the
    /// root it takes a third occurrence, as in the game.
    pub fn is_repetition_draw(&self, ply: usize) -> bool {
        let needed = self.rules.repetition_count;
        if needed == 0 {
            return false;
        }
        let st = self.state();
        let end = st.rule50 as usize;
        let n = self.states.len();
        let mut count = 0;
        let mut i = 4;
        while i <= end && i < n {
            if self.states[n - 1 - i].key == st.key {
                if i <= ply {
                    return true;
                }
                count += 1;
                if count + 1 == needed {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// Whether the 50-move rule has run out (a checkmate still wins).
    pub fn fifty_move_rule_expired(&self) -> bool {
        self.rule50() >= self.rules.fifty_limit()
    }

    /// Whether the counting rule has run out (a checkmate still wins).
    pub fn counting_expired(&self) -> bool {
        let st = self.state();
        self.rules.count_expired(st.counting_limit, st.counting_ply)
    }

    /// A lone king and pawn, not in check, with only promotions to play (or, under the
    /// federation's rules, one pawn among any men, with only promotions to play).
    pub fn is_promotion_stalemate(&self) -> bool {
        let us = self.side_to_move();
        match self.rules.promotion_stalemate {
            PromotionStalemate::KingAndPawn => {}
            PromotionStalemate::None => return false,
            PromotionStalemate::OnePawn => return self.is_one_pawn_promotion_stalemate(),
        }
        promotion_stalemate_applies(
            self.pieces_of_color(us),
            self.pieces(us, PieceType::Pawn),
            self.hand_total(us),
            self.in_check(),
            || {
                let moves = self.legal_moves();
                !moves.is_empty() && moves.iter().all(|m| m.kind() == MoveKind::Promotion)
            },
        )
    }

    /// cutechess's promotion stalemate: after the setup, exactly one pawn of the side to move
    /// on the board and a legal move, every one a promotion (check or not).
    #[cold]
    fn is_one_pawn_promotion_stalemate(&self) -> bool {
        let us = self.side_to_move();
        if self.in_setup()
            || self.pieces(us, PieceType::Pawn).more_than_one()
            || self.pieces(us, PieceType::Pawn).is_empty()
        {
            return false;
        }
        let moves = self.legal_moves();
        !moves.is_empty() && moves.iter().all(|m| m.kind() == MoveKind::Promotion)
    }

    /// The draw the rules declare here other than stalemate, if any, in the order a GUI
    /// names the reason. `repeated` says whether the position counts as repeated: the game
    /// asks for a third occurrence (`repetitions`), the search for a second inside its tree
    /// (`is_repetition_draw`). A checkmate beats the 50-move and counting limits, so only
    /// when one has run out with the side to move in check are its legal moves looked at.
    pub fn draw_by_rule(&self, repeated: bool) -> Option<DrawReason> {
        if self.rules.draw_order == DrawOrder::Cutechess {
            return self.draw_by_rule_cutechess();
        }
        let mated = || self.in_check() && !self.has_legal_move();
        if self.fifty_move_rule_expired() && !mated() {
            Some(DrawReason::FiftyMoves)
        } else if repeated {
            Some(DrawReason::Repetition)
        } else if self.counting_expired() && !mated() {
            Some(DrawReason::Counting)
        } else if self.is_promotion_stalemate() {
            Some(DrawReason::PromotionStalemate)
        } else if self.is_insufficient_material_draw() {
            Some(DrawReason::InsufficientMaterial)
        } else {
            None
        }
    }

    /// `draw_by_rule` in the order cutechess judges: promotion stalemate, the 50-move rule,
    /// insufficient material, then the count (there is no repetition). A checkmate beats
    /// them all.
    #[cold]
    fn draw_by_rule_cutechess(&self) -> Option<DrawReason> {
        let mated = || self.in_check() && !self.has_legal_move();
        if self.is_promotion_stalemate() {
            Some(DrawReason::PromotionStalemate)
        } else if self.fifty_move_rule_expired() && !mated() {
            Some(DrawReason::FiftyMoves)
        } else if self.is_insufficient_material_draw() {
            Some(DrawReason::InsufficientMaterial)
        } else if self.counting_expired() && !mated() {
            Some(DrawReason::Counting)
        } else {
            None
        }
    }

    /// The game-end verdict a GUI adjudicating with the position's rules would give.
    pub fn outcome(&self) -> Outcome {
        if !self.has_legal_move() {
            return if self.in_check() {
                Outcome::Checkmate { winner: !self.side_to_move() }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            };
        }
        let needed = self.rules.repetition_count;
        match self.draw_by_rule(needed != 0 && self.repetitions() + 1 >= needed) {
            Some(reason) => Outcome::Draw(reason),
            None => Outcome::Ongoing,
        }
    }
}
