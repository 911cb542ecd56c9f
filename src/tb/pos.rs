//! A light position for the generator: at most four men in a fixed array, no hands, no
//! history. Legal moves and un-moves are built from the board's attack tables; the tests
//! check both against `Position`'s move generator and rules.

use crate::board::fen;
use crate::board::ruleset::Material as MaterialRule;
use crate::board::sittuyin;
use crate::board::{Bitboard, Color, Move, Piece, PieceType, Position, Rules, Square, attacks};

/// The most men a table position holds.
pub const MAX_MEN: usize = 4;

/// Men and side to move. Slot 0 holds the white king, slot 1 the black king; the other
/// men follow in the order of their table's slots.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TbPos {
    /// The side to move.
    pub stm: Color,
    /// How many slots are in use.
    pub n: usize,
    /// The man in each slot.
    pub piece: [Piece; MAX_MEN],
    /// Where each man stands.
    pub sq: [Square; MAX_MEN],
}

/// One legal move and the position it leads to.
#[derive(Clone, Copy, Debug)]
pub struct TbMove {
    /// The move as the board writes it.
    pub mv: Move,
    /// The position after it.
    pub child: TbPos,
    /// Whether it captures.
    pub capture: bool,
    /// Whether it restarts the 50-move clock (a capture, a pawn move or a promotion).
    pub zeroing: bool,
}

impl TbPos {
    /// The men of a position with empty hands and at most four men, kings first.
    pub fn from_position(pos: &Position) -> Option<TbPos> {
        if pos.in_setup() || pos.occupied().count() as usize > MAX_MEN {
            return None;
        }
        let wk = pos.king_square(Color::White)?;
        let bk = pos.king_square(Color::Black)?;
        let mut p = TbPos {
            stm: pos.side_to_move(),
            n: 2,
            piece: [Piece::WhiteKing, Piece::BlackKing, Piece::WhiteKing, Piece::WhiteKing],
            sq: [wk, bk, Square::A1, Square::A1],
        };
        for sq in pos.occupied() - Bitboard::from_square(wk) - Bitboard::from_square(bk) {
            p.piece[p.n] = pos.piece_on(sq)?;
            p.sq[p.n] = sq;
            p.n += 1;
        }
        Some(p)
    }

    /// The men as a FEN with empty hands and fresh clocks.
    pub fn fen(&self) -> String {
        let mut board = [None; 64];
        for i in 0..self.n {
            board[self.sq[i].index()] = Some(self.piece[i]);
        }
        let s = fen::placement_fen(|sq| board[sq.index()]);
        let side = if self.stm == Color::White { 'w' } else { 'b' };
        format!("{s}[] {side} - - 0 1")
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for i in 0..self.n {
            b |= self.sq[i];
        }
        b
    }

    /// The squares of `c`'s men.
    #[inline]
    pub fn color_bb(&self, c: Color) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for i in 0..self.n {
            if self.piece[i].color() == c {
                b |= self.sq[i];
            }
        }
        b
    }

    /// The squares of `c`'s men of type `pt`.
    #[inline]
    pub fn pieces(&self, c: Color, pt: PieceType) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for i in 0..self.n {
            if self.piece[i] == Piece::new(c, pt) {
                b |= self.sq[i];
            }
        }
        b
    }

    /// The squares of every man of type `pt`.
    #[inline]
    pub fn pieces_of_type(&self, pt: PieceType) -> Bitboard {
        self.pieces(Color::White, pt) | self.pieces(Color::Black, pt)
    }

    /// `c`'s king square.
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        self.sq[c.index()]
    }

    /// Whether a man of colour `by` attacks `target`.
    #[inline]
    pub fn attacked_by(&self, target: Square, by: Color) -> bool {
        let occ = self.occupied();
        (0..self.n).any(|i| {
            let p = self.piece[i];
            p.color() == by && attacks::piece(p.kind(), by, self.sq[i], occ).has(target)
        })
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.attacked_by(self.king(self.stm), !self.stm)
    }

    /// Whether the side that just moved is in check, which makes the position illegal.
    #[inline]
    pub fn opponent_in_check(&self) -> bool {
        self.attacked_by(self.king(!self.stm), self.stm)
    }

    /// The slot of the man on `sq`, if any.
    #[inline]
    fn slot_on(&self, sq: Square) -> Option<usize> {
        (0..self.n).find(|&i| self.sq[i] == sq)
    }

    /// The position with slot `i` (never a king) removed; later slots move up one.
    #[inline]
    fn without(&self, i: usize) -> TbPos {
        let mut p = *self;
        for j in i..self.n - 1 {
            p.piece[j] = p.piece[j + 1];
            p.sq[j] = p.sq[j + 1];
        }
        p.n -= 1;
        p
    }

    /// Calls `f` with every legal move, as `Position::legal_moves` would list it.
    pub fn for_each_move(&self, mut f: impl FnMut(&TbMove)) {
        let us = self.stm;
        let them = !us;
        let occ = self.occupied();
        let ours = self.color_bb(us);
        let theirs = self.color_bb(them);
        let promotable =
            sittuyin::promotable_pawns(us, self.pieces(us, PieceType::Pawn), self.pieces(us, PieceType::Met), true);
        for i in 0..self.n {
            let p = self.piece[i];
            if p.color() != us {
                continue;
            }
            let from = self.sq[i];
            let targets = match p.kind() {
                PieceType::Pawn => (Bitboard::from_square(from).forward(us) - occ) | (attacks::pawn(us, from) & theirs),
                pt => attacks::piece(pt, us, from, occ) - ours,
            };
            for to in targets {
                let mut child = *self;
                child.sq[i] = to;
                child.stm = them;
                let captured = self.slot_on(to);
                if let Some(c) = captured {
                    child = child.without(c);
                }
                if child.opponent_in_check() {
                    continue;
                }
                let zeroing = captured.is_some() || p.kind() == PieceType::Pawn;
                f(&TbMove { mv: Move::normal(from, to), child, capture: captured.is_some(), zeroing });
            }
            // Which pawns may promote and where the met may appear are the rules module's;
            // only the check test (which covers uncovered checks) is made here.
            if promotable.has(from) {
                for to in sittuyin::promotion_destinations(from, !occ, theirs) {
                    let mut child = *self;
                    child.piece[i] = Piece::new(us, PieceType::Met);
                    child.sq[i] = to;
                    child.stm = them;
                    if child.opponent_in_check() || child.in_check() {
                        continue;
                    }
                    f(&TbMove { mv: Move::promotion(from, to), child, capture: false, zeroing: true });
                }
            }
        }
    }

    /// Calls `f` with every position from which the side that just moved reached this one
    /// by a move that restarts no clock (no capture, no pawn move, no promotion). Men keep
    /// their slots.
    pub fn for_each_unmove(&self, mut f: impl FnMut(&TbPos)) {
        let mover = !self.stm;
        let occ = self.occupied();
        for i in 0..self.n {
            let p = self.piece[i];
            if p.color() != mover || p.kind() == PieceType::Pawn {
                continue;
            }
            let to = self.sq[i];
            // Every move pattern but the khon's is its own reverse; a khon steps forward,
            // so it came from one step behind, which is the other colour's forward step.
            let sources = match p.kind() {
                PieceType::Khon => attacks::khon(!mover, to),
                pt => attacks::piece(pt, mover, to, occ),
            } - occ;
            for from in sources {
                let mut prev = *self;
                prev.sq[i] = from;
                prev.stm = mover;
                // Before the move, the side now to move must not have been in check.
                if prev.opponent_in_check() {
                    continue;
                }
                f(&prev);
            }
        }
    }

    /// Whether `c` cannot possibly mate (the rule of `Position::has_insufficient_material`;
    /// nothing is in hand here).
    pub fn insufficient(&self, c: Color) -> bool {
        let non_king = self.occupied() - self.pieces_of_type(PieceType::King);
        sittuyin::cannot_mate_on_board(self.color_bb(c), non_king, |pt| self.pieces_of_type(pt))
    }

    /// Whether the men on the board draw by `rules`' insufficient-material rule (a rule set
    /// tables are built under: Fairy-Stockfish's, neither side can mate; bare kings).
    pub fn material_draw(&self, rules: &Rules) -> bool {
        match rules.material {
            MaterialRule::FairyStockfish => self.insufficient(Color::White) && self.insufficient(Color::Black),
            MaterialRule::BareKings => self.n == 2,
            MaterialRule::Federation => unreachable!("no table is built under the federation's material rule"),
        }
    }

    /// Whether the side to move is in promotion stalemate (`sittuyin::promotion_stalemate_applies`;
    /// nothing is in hand here): `any_move` tells whether it has a legal move, and
    /// `all_promotions` whether every legal move is a promotion.
    pub fn promotion_stalemate(&self, any_move: bool, all_promotions: bool) -> bool {
        let us = self.stm;
        let (ours, pawns) = (self.color_bb(us), self.pieces(us, PieceType::Pawn));
        sittuyin::promotion_stalemate_applies(ours, pawns, 0, self.in_check(), || any_move && all_promotions)
    }

    /// The counting limit in plies that `strong`'s men set against a bare king under
    /// `rules` (`super::counting_limit`); 0 if they start no count.
    pub fn counting_limit_by(&self, strong: Color, rules: &Rules) -> u32 {
        super::counting_limit(rules, |pt| self.pieces(strong, pt).any())
    }

    /// The position with left and right exchanged.
    pub fn mirrored(&self) -> TbPos {
        let mut p = *self;
        for i in 0..p.n {
            p.sq[i] = Square::from_index(p.sq[i] as u8 ^ 7);
        }
        p
    }

    /// The position with the colours exchanged: White's men become Black's on the
    /// squares seen from the other side, and the other side is to move.
    pub fn color_flipped(&self) -> TbPos {
        let mut p = *self;
        p.stm = !self.stm;
        for i in 0..p.n {
            p.piece[i] = Piece::new(!self.piece[i].color(), self.piece[i].kind());
            p.sq[i] = self.sq[i].flip_rank();
        }
        p.piece.swap(0, 1);
        p.sq.swap(0, 1);
        p
    }
}
