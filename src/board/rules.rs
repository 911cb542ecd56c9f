//! The end of the game, exactly as Fairy-Stockfish adjudicates Sittuyin: checkmate,
//! stalemate, threefold repetition, the 50-move rule, the counting rule, promotion
//! stalemate and insufficient material.

use super::bitboard::Bitboard;
use super::position::Position;
use super::types::{Color, MoveKind, PieceType};

/// Why a game ended in a draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DrawReason {
    /// No legal move and not in check.
    Stalemate,
    /// The same position (side to move and hands included) for the third time.
    Repetition,
    /// 100 plies without capture, pawn move, promotion or drop.
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
    /// (since the last capture, pawn move, promotion, drop or null move).
    pub fn repetitions(&self) -> u32 {
        let st = self.state();
        let end = st.rule50.min(st.plies_from_null) as usize;
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
        let st = self.state();
        let end = st.rule50.min(st.plies_from_null) as usize;
        let n = self.states.len();
        let mut count = 0;
        let mut i = 4;
        while i <= end && i < n {
            if self.states[n - 1 - i].key == st.key {
                if i <= ply {
                    return true;
                }
                count += 1;
                if count == 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// Whether `c` cannot possibly mate (pyffish's `has_insufficient_material` for one side).
    pub fn has_insufficient_material(&self, c: Color) -> bool {
        if self.hand_total(c) > 0 || self.pieces(c, PieceType::Rook).any() || self.pieces(c, PieceType::Khon).any() {
            return false;
        }
        let non_king = self.occupied() - self.pieces_of_type(PieceType::King);
        let mets = self.pieces_of_type(PieceType::Met);
        let unbound = non_king - mets;
        let ours = self.pieces_of_color(c);
        // Mets are colour-bound: harmless while all of them share one square colour and
        // nothing else stands on the board.
        if (mets & ours).any() && (((mets & Bitboard::DARK).any() && (mets - Bitboard::DARK).any()) || unbound.any()) {
            return false;
        }
        // A knight or pawn cannot mate alone, but can with any other piece on the board.
        !((ours & unbound).any() && non_king.more_than_one())
    }

    /// Whether the 50-move rule has run out (checkmate is tested before this).
    pub fn fifty_move_rule_expired(&self) -> bool {
        self.rule50() >= 100
    }

    /// Whether the counting rule has run out.
    pub fn counting_expired(&self) -> bool {
        let st = self.state();
        st.counting_limit != 0 && st.counting_ply > st.counting_limit
    }

    /// A lone king and pawn, not in check, with only promotions to play.
    pub fn is_promotion_stalemate(&self) -> bool {
        let us = self.side_to_move();
        let ours = self.pieces_of_color(us);
        if self.in_check() || ours.count() != 2 || !self.pieces(us, PieceType::Pawn).any() || self.hand_total(us) > 0 {
            return false;
        }
        let moves = self.legal_moves();
        !moves.is_empty() && moves.iter().all(|m| m.kind() == MoveKind::Promotion)
    }

    /// The game-end verdict a GUI adjudicating with Fairy-Stockfish's rules would give.
    pub fn outcome(&self) -> Outcome {
        if !self.has_legal_move() {
            return if self.in_check() {
                Outcome::Checkmate { winner: !self.side_to_move() }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            };
        }
        if self.fifty_move_rule_expired() {
            return Outcome::Draw(DrawReason::FiftyMoves);
        }
        if self.repetitions() >= 2 {
            return Outcome::Draw(DrawReason::Repetition);
        }
        if self.counting_expired() {
            return Outcome::Draw(DrawReason::Counting);
        }
        if self.is_promotion_stalemate() {
            return Outcome::Draw(DrawReason::PromotionStalemate);
        }
        if self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black) {
            return Outcome::Draw(DrawReason::InsufficientMaterial);
        }
        Outcome::Ongoing
    }
}
