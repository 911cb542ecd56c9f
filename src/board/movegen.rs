//! Legal move generation: drops with the must-drop rule, board moves with pins and check
//! evasions, and sittuyin promotions with all their restrictions.
//!
//! The generator hands out *move sets* (one origin, many destinations) so that perft can
//! count a whole set with one popcount, and the search can split captures from quiet moves.

use super::attacks;
use super::bitboard::Bitboard;
use super::position::Position;
use super::ruleset::StalemateRule;
use super::sittuyin::{drop_zone, promotable_pawns, promotion_destinations};
use super::types::{Color, Move, PieceType, Square};

/// What a move set holds: board moves, promotions, or drops of one piece type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SetKind {
    /// Board moves of the piece on `from`.
    Normal,
    /// Promotions of the pawn on `from` (the destinations may include `from`).
    Promotion,
    /// Drops of this piece type (`from` is unused).
    Drop(PieceType),
}

/// A group of legal moves sharing their kind and origin.
#[derive(Clone, Copy, Debug)]
pub struct MoveSet {
    /// The kind of every move in the set.
    pub kind: SetKind,
    /// The origin square (unused for drops).
    pub from: Square,
    /// The destinations.
    pub to: Bitboard,
}

impl MoveSet {
    /// How many moves the set holds.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.to.count() as usize
    }

    /// Whether the set holds no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// The moves of the set.
    #[inline(always)]
    pub fn moves(self) -> impl Iterator<Item = Move> {
        let (kind, from) = (self.kind, self.from);
        self.to.map(move |to| match kind {
            SetKind::Normal => Move::normal(from, to),
            SetKind::Promotion => Move::promotion(from, to),
            SetKind::Drop(pt) => Move::drop(pt, to),
        })
    }
}

/// Which legal moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Captures and promotions.
    Noisy,
    /// Non-capturing board moves and drops.
    Quiet,
}

/// The most legal moves a Sittuyin position can have, with room to spare.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves, on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList { moves: [Move::NONE; MAX_MOVES], len: 0 }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Empties the list.
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl Position {
    /// Drop destinations for each piece type in hand, already restricted to legal ones.
    /// Returns (sets, whether any legal drop exists).
    #[inline]
    fn drop_targets(&self, us: Color, ksq: Option<Square>) -> ([Bitboard; 6], bool) {
        let mut out = [Bitboard::EMPTY; 6];
        let empty = !self.occupied();
        let checkers = self.checkers();
        // A drop can only answer a single rook check, by blocking it.
        let allowed = if checkers.is_empty() {
            empty
        } else if let (Some(k), false) = (ksq, checkers.more_than_one()) {
            attacks::between(k, checkers.lsb()) & empty
        } else {
            Bitboard::EMPTY
        };
        let mut any = false;
        for pt in PieceType::ALL {
            if self.hand_count(us, pt) == 0 {
                continue;
            }
            let mut t = drop_zone(us, pt) & allowed;
            if pt == PieceType::King && t.any() {
                t -= self.attack_map(!us, self.occupied());
            }
            any |= t.any();
            out[pt.index()] = t;
        }
        (out, any)
    }

    /// Whether the side to move has at least one legal drop.
    pub fn has_legal_drop(&self) -> bool {
        let us = self.side_to_move();
        self.hand_total(us) > 0 && self.drop_targets(us, self.king_square(us)).1
    }

    /// Calls `f` with every non-empty set of legal moves of kind `kind`.
    #[inline]
    pub fn generate_sets(&self, kind: GenType, f: &mut impl FnMut(MoveSet)) {
        if self.rules().stalemate == StalemateRule::Illegal {
            return self.generate_without_stalemates(kind, f);
        }
        self.generate_filtered(kind, Bitboard::FULL, true, f);
    }

    /// `generate_sets` under a rule set that forbids stalemating the opponent: each move is
    /// played on a copy and kept if the opponent is then in check or has a move. The
    /// opponent's moves are judged without the ban, so the test does not recurse.
    #[cold]
    fn generate_without_stalemates(&self, kind: GenType, f: &mut impl FnMut(MoveSet)) {
        let mut sets = Vec::new();
        self.generate_filtered(kind, Bitboard::FULL, true, &mut |set| sets.push(set));
        if sets.is_empty() {
            return;
        }
        let mut scratch = self.without_history();
        for set in sets {
            let mut to = set.to;
            for m in set.moves() {
                if scratch.stalemates(m) {
                    to ^= m.to();
                }
            }
            if to.any() {
                f(MoveSet { to, ..set });
            }
        }
    }

    /// Whether the legal move `m` leaves the opponent without a move and not in check
    /// (judged without the stalemate ban); `self` is left as it was.
    fn stalemates(&mut self, m: Move) -> bool {
        self.do_move(m);
        let mut any = false;
        if !self.in_check() {
            self.generate_filtered(GenType::All, Bitboard::FULL, true, &mut |set| any |= set.to.any());
        }
        let stalemated = !self.in_check() && !any;
        self.undo_move();
        stalemated
    }

    /// `generate_sets` restricted to board moves from `origins` and, if `with_drops`, drops.
    #[inline(always)]
    fn generate_filtered(&self, kind: GenType, origins: Bitboard, with_drops: bool, f: &mut impl FnMut(MoveSet)) {
        let us = self.side_to_move();
        let them = !us;
        let ksq = self.king_square(us);

        if self.hand_total(us) > 0 {
            let (drops, any) = self.drop_targets(us, ksq);
            if any {
                // Must drop: while a legal drop exists, no board move is legal.
                if kind != GenType::Noisy && with_drops {
                    for pt in PieceType::ALL {
                        let to = drops[pt.index()];
                        if to.any() {
                            f(MoveSet { kind: SetKind::Drop(pt), from: Square::A1, to });
                        }
                    }
                }
                return;
            }
        }

        let occ = self.occupied();
        let ours = self.pieces_of_color(us);
        let theirs = self.pieces_of_color(them);
        let kinds = match kind {
            GenType::All => !ours,
            GenType::Noisy => theirs,
            GenType::Quiet => !occ,
        };
        let checkers = self.checkers();

        let Some(k) = ksq else {
            // No king on the board: nothing can be pinned or in check.
            self.piece_moves(us, kinds, origins, Bitboard::EMPTY, None, f);
            if kind != GenType::Quiet {
                self.promotions(us, origins, Bitboard::FULL, Bitboard::EMPTY, None, f);
            }
            return;
        };

        if origins.has(k) {
            let danger = self.attack_map(them, occ ^ k);
            let king_to = attacks::king(k) & kinds & !danger;
            if king_to.any() {
                f(MoveSet { kind: SetKind::Normal, from: k, to: king_to });
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let target = if checkers.any() { attacks::between(k, checkers.lsb()) | checkers } else { Bitboard::FULL };
        let pinned = self.slider_blockers(self.pieces(them, PieceType::Rook), k) & ours;
        self.piece_moves(us, kinds & target, origins, pinned, Some(k), f);
        if kind != GenType::Quiet {
            self.promotions(us, origins, target, pinned, Some(k), f);
        }
    }

    /// Board moves of every non-king piece; `mask` limits destinations (kinds and evasions).
    #[inline(always)]
    fn piece_moves(
        &self,
        us: Color,
        mask: Bitboard,
        origins: Bitboard,
        pinned: Bitboard,
        ksq: Option<Square>,
        f: &mut impl FnMut(MoveSet),
    ) {
        let occ = self.occupied();
        let theirs = self.pieces_of_color(!us);
        let restrict = |from: Square, to: Bitboard| -> Bitboard {
            match ksq {
                Some(k) if pinned.has(from) => to & attacks::line(k, from),
                _ => to,
            }
        };
        let mut emit = |from: Square, to: Bitboard| {
            let to = restrict(from, to);
            if to.any() {
                f(MoveSet { kind: SetKind::Normal, from, to });
            }
        };
        for from in self.pieces(us, PieceType::Pawn) & origins {
            let push = Bitboard::from_square(from).forward(us) & !occ;
            let capture = attacks::pawn(us, from) & theirs;
            emit(from, (push | capture) & mask);
        }
        for from in self.pieces(us, PieceType::Knight) & origins {
            emit(from, attacks::knight(from) & mask);
        }
        for from in self.pieces(us, PieceType::Khon) & origins {
            emit(from, attacks::khon(us, from) & mask);
        }
        for from in self.pieces(us, PieceType::Met) & origins {
            emit(from, attacks::met(from) & mask);
        }
        for from in self.pieces(us, PieceType::Rook) & origins {
            emit(from, attacks::rook(from, occ) & mask);
        }
    }

    /// Sittuyin promotions: which pawns and where to as `sittuyin` says (no met on the board,
    /// the promotion squares or the last pawn; the pawn's square or an empty diagonal
    /// neighbour from which the met attacks no enemy piece), never uncovering a check, and
    /// within pins and evasions.
    #[inline(always)]
    fn promotions(
        &self,
        us: Color,
        origins: Bitboard,
        target: Bitboard,
        pinned: Bitboard,
        ksq: Option<Square>,
        f: &mut impl FnMut(MoveSet),
    ) {
        let rules = self.rules();
        let eligible = origins
            & promotable_pawns(
                us,
                self.pieces(us, PieceType::Pawn),
                self.pieces(us, PieceType::Met),
                rules.last_pawn_promotes_anywhere,
            );
        if eligible.is_empty() {
            return;
        }
        let them = !us;
        let empty = !self.occupied();
        let enemies = self.pieces_of_color(them);
        let their_king = self.king_square(them);
        let discoverers = match their_king {
            Some(tk) => self.slider_blockers(self.pieces(us, PieceType::Rook), tk) & self.pieces_of_color(us),
            None => Bitboard::EMPTY,
        };
        for from in eligible {
            let mut to = promotion_destinations(from, empty, enemies) & target;
            if let Some(k) = ksq
                && pinned.has(from)
            {
                to &= attacks::line(k, from);
            }
            if let Some(tk) = their_king
                && discoverers.has(from)
            {
                // Leaving the line would uncover a check by our rook.
                to &= attacks::line(tk, from);
            }
            if to.any() {
                f(MoveSet { kind: SetKind::Promotion, from, to });
            }
        }
    }

    /// Appends every legal move of kind `kind` to `list`.
    pub fn generate(&self, kind: GenType, list: &mut MoveList) {
        self.generate_sets(kind, &mut |set| {
            for m in set.moves() {
                list.push(m);
            }
        });
    }

    /// Calls `f` with every set of legal quiet moves that give check, each set a subset of
    /// the matching `GenType::Quiet` set, in the same order. Quiescence search wants only
    /// these at nearly every leaf, so they are masked per set instead of testing each move.
    pub fn quiet_check_sets(&self, f: &mut impl FnMut(MoveSet)) {
        let us = self.side_to_move();
        let Some(tk) = self.king_square(!us) else {
            return;
        };
        let occ = self.occupied();
        // Where each piece type of ours would attack their king: every attack pattern here is
        // its own reverse with the colours swapped. A rook cannot vacate a line to their king
        // by moving, since it would be giving check already.
        let mut direct = [Bitboard::EMPTY; 6];
        for pt in PieceType::ALL {
            if pt != PieceType::King {
                direct[pt.index()] = attacks::piece(pt, !us, tk, occ);
            }
        }
        let discoverers = self.slider_blockers(self.pieces(us, PieceType::Rook), tk) & self.pieces_of_color(us);
        self.generate_sets(GenType::Quiet, &mut |set| {
            let mask = match set.kind {
                SetKind::Drop(pt) => direct[pt.index()],
                _ => {
                    let pt = self.piece_on(set.from).map_or(PieceType::King, |p| p.kind());
                    let uncovers =
                        if discoverers.has(set.from) { !attacks::line(tk, set.from) } else { Bitboard::EMPTY };
                    direct[pt.index()] | uncovers
                }
            };
            let to = set.to & mask;
            if to.any() {
                f(MoveSet { to, ..set });
            }
        });
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal(&self) -> usize {
        let mut n = 0;
        self.generate_sets(GenType::All, &mut |set| n += set.len());
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Whether `m` is legal here (used to re-check moves from the transposition table and
    /// from the user). Only the moves that could be `m` are generated.
    pub fn is_legal(&self, m: Move) -> bool {
        if !m.is_some() {
            return false;
        }
        let mut found = false;
        if m.is_drop() {
            if self.hand_count(self.side_to_move(), m.drop_piece()) == 0 {
                return false;
            }
            self.generate_filtered(GenType::Quiet, Bitboard::EMPTY, true, &mut |set| {
                found |= set.kind == SetKind::Drop(m.drop_piece()) && set.to.has(m.to());
            });
            return found && !self.banned_stalemate(m);
        }
        let from = m.from();
        match self.piece_on(from) {
            Some(p) if p.color() == self.side_to_move() => {}
            _ => return false,
        }
        let kind = if m.is_promotion() || self.piece_on(m.to()).is_some() { GenType::Noisy } else { GenType::Quiet };
        let want = if m.is_promotion() { SetKind::Promotion } else { SetKind::Normal };
        self.generate_filtered(kind, Bitboard::from_square(from), false, &mut |set| {
            found |= set.kind == want && set.to.has(m.to());
        });
        found && !self.banned_stalemate(m)
    }

    /// Whether the legal move `m` is one the stalemate ban forbids.
    fn banned_stalemate(&self, m: Move) -> bool {
        self.rules().stalemate == StalemateRule::Illegal && self.without_history().stalemates(m)
    }
}

impl Position {
    /// Whether the legal move `m` captures. A promotion never does: it stays on the pawn's
    /// square (so `to` holds the pawn itself) or steps to an empty one.
    pub fn is_capture(&self, m: Move) -> bool {
        m.kind() == super::types::MoveKind::Normal && self.piece_on(m.to()).is_some()
    }

    /// Whether the legal move `m` gives check (directly or by discovery).
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let Some(tk) = self.king_square(!us) else {
            return false;
        };
        let occ = self.occupied();
        let to = m.to();
        match m.kind() {
            // A promotion that gives check is illegal, so a legal one never does.
            super::types::MoveKind::Promotion => false,
            super::types::MoveKind::Drop => attacks::piece(m.drop_piece(), us, to, occ | to).has(tk),
            super::types::MoveKind::Normal => {
                let from = m.from();
                let Some(p) = self.piece_on(from) else {
                    return false;
                };
                let after = (occ - Bitboard::from_square(from)) | to;
                attacks::piece(p.kind(), us, to, after).has(tk)
                    || (attacks::rook(tk, after) & (self.pieces(us, PieceType::Rook) - Bitboard::from_square(from)))
                        .any()
            }
        }
    }
}
