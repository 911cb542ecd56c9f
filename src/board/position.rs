//! The position: pieces, hands, side to move, clocks, the counting rule, and
//! make/unmake with a stack of irreversible state (which also serves repetition detection).

use super::attacks::{self, met_attack_set, pawn_attack_set};
use super::bitboard::Bitboard;
use super::ruleset::{Counting, Rules, SetupOrder, federation_limit_plies, pritchard_limit_plies};
use super::types::{Color, Move, MoveKind, Piece, PieceType, Square};
use super::zobrist;

/// What a move cannot undo by itself, saved for every ply of the game and the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Zobrist key of the position (pieces, hands, side to move).
    pub key: u64,
    /// Plies since the last capture, pawn move, promotion or drop.
    pub rule50: u32,
    /// The counting limit in plies while counting runs, else 0.
    pub counting_limit: u32,
    /// Plies counted since counting started.
    pub counting_ply: u32,
    /// Enemy pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// The piece the last move captured, if any.
    pub captured: Option<Piece>,
    /// The move that led here (NONE at the root of the known history).
    pub last_move: Move,
}

/// A Sittuyin position with its game history since the last FEN.
#[derive(Clone)]
pub struct Position {
    pub(super) by_type: [Bitboard; 6],
    pub(super) by_color: [Bitboard; 2],
    pub(super) squares: [Option<Piece>; 64],
    pub(super) hand: [[u8; 6]; 2],
    pub(super) stm: Color,
    /// Plies since the game's start as the FEN's move number implies.
    pub(super) game_ply: u32,
    pub(super) states: Vec<State>,
    /// The rule set the game is played by (a reference to one of `Rules`'s constants, so
    /// reading a rule costs a load, not a copy).
    pub(super) rules: &'static Rules,
}

impl Position {
    /// An empty board, White to move, nothing in hand (filled in by the FEN parser).
    pub(super) fn empty() -> Position {
        let mut states = Vec::with_capacity(1024);
        states.push(State {
            key: 0,
            rule50: 0,
            counting_limit: 0,
            counting_ply: 0,
            checkers: Bitboard::EMPTY,
            captured: None,
            last_move: Move::NONE,
        });
        Position {
            by_type: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            squares: [None; 64],
            hand: [[0; 6]; 2],
            stm: Color::White,
            game_ply: 0,
            states,
            rules: &Rules::FAIRY_STOCKFISH,
        }
    }

    // ---- queries -------------------------------------------------------------------------

    /// The rule set the game is played by.
    #[inline(always)]
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }

    /// The same position played by `rules`; the counts already in the position stay as
    /// they are, so it is meant for a position just set up.
    pub fn with_rules(mut self, rules: &'static Rules) -> Position {
        self.rules = rules;
        self
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.stm
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// All pieces of type `pt`, both colours.
    #[inline(always)]
    pub fn pieces_of_type(&self, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()]
    }

    /// All of `c`'s pieces.
    #[inline(always)]
    pub fn pieces_of_color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// `c`'s pieces of type `pt`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()] & self.by_color[c.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// `c`'s king square, or None while the king is still in hand.
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        let k = self.pieces(c, PieceType::King);
        if k.any() { Some(k.lsb()) } else { None }
    }

    /// How many `pt` pieces `c` holds in hand.
    #[inline(always)]
    pub fn hand_count(&self, c: Color, pt: PieceType) -> u8 {
        self.hand[c.index()][pt.index()]
    }

    /// How many pieces `c` holds in hand in all.
    #[inline(always)]
    pub fn hand_total(&self, c: Color) -> u32 {
        self.hand[c.index()].iter().map(|&n| n as u32).sum()
    }

    /// Whether either side still has pieces to place (the setup phase).
    pub fn in_setup(&self) -> bool {
        self.hand_total(Color::White) + self.hand_total(Color::Black) > 0
    }

    /// The current irreversible state.
    #[inline(always)]
    pub fn state(&self) -> &State {
        // The stack always holds at least the root state.
        &self.states[self.states.len() - 1]
    }

    /// The Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state().key
    }

    /// Enemy pieces giving check.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.state().checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.state().checkers.any()
    }

    /// Plies since the last capture, pawn move, promotion or drop.
    pub fn rule50(&self) -> u32 {
        self.state().rule50
    }

    /// The counting limit in plies, 0 when counting does not run.
    pub fn counting_limit(&self) -> u32 {
        self.state().counting_limit
    }

    /// Plies counted so far (meaningful while counting runs).
    pub fn counting_ply(&self) -> u32 {
        self.state().counting_ply
    }

    /// Plies since the start of the game, as the FEN's move number implies.
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    /// The full-move number of the FEN.
    pub fn fullmove(&self) -> u32 {
        1 + (self.game_ply - (self.stm == Color::Black) as u32) / 2
    }

    /// Plies played since the position was set up (the depth of the state stack).
    pub fn history_len(&self) -> usize {
        self.states.len() - 1
    }

    /// The moves played since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.states[1..].iter().map(|s| s.last_move)
    }

    /// The move that led to the current position (NONE at the root).
    pub fn last_move(&self) -> Move {
        self.state().last_move
    }

    /// Whether `c` has nothing but its king on the board.
    #[inline(always)]
    pub fn is_bare(&self, c: Color) -> bool {
        self.by_color[c.index()] == self.pieces(c, PieceType::King)
    }

    // ---- attacks -------------------------------------------------------------------------

    /// Every piece, of either colour, that attacks `sq` given occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        use PieceType::*;
        let white = self.by_color[0];
        let black = self.by_color[1];
        (attacks::pawn(Color::Black, sq) & self.by_type[Pawn.index()] & white)
            | (attacks::pawn(Color::White, sq) & self.by_type[Pawn.index()] & black)
            | (attacks::khon(Color::Black, sq) & self.by_type[Khon.index()] & white)
            | (attacks::khon(Color::White, sq) & self.by_type[Khon.index()] & black)
            | (attacks::knight(sq) & self.by_type[Knight.index()])
            | (attacks::met(sq) & self.by_type[Met.index()])
            | (attacks::king(sq) & self.by_type[King.index()])
            | (attacks::rook(sq, occ) & self.by_type[Rook.index()])
    }

    /// Whether `c` attacks `sq` given occupancy `occ`.
    #[inline]
    pub fn is_attacked_by(&self, c: Color, sq: Square, occ: Bitboard) -> bool {
        (self.attackers_to(sq, occ) & self.by_color[c.index()]).any()
    }

    /// Every square `c` attacks given occupancy `occ`.
    pub fn attack_map(&self, c: Color, occ: Bitboard) -> Bitboard {
        use PieceType::*;
        let ours = self.by_color[c.index()];
        let pawns = self.by_type[Pawn.index()] & ours;
        let mut att = pawn_attack_set(c, pawns);
        att |= met_attack_set(self.by_type[Met.index()] & ours);
        let khons = self.by_type[Khon.index()] & ours;
        att |= met_attack_set(khons) | khons.forward(c);
        for sq in self.by_type[Knight.index()] & ours {
            att |= attacks::knight(sq);
        }
        for sq in self.by_type[Rook.index()] & ours {
            att |= attacks::rook(sq, occ);
        }
        for sq in self.by_type[King.index()] & ours {
            att |= attacks::king(sq);
        }
        att
    }

    /// Pieces of either colour that alone stand between `ksq` and a rook in `rooks`:
    /// for our king and their rooks these are the pinned pieces, for their king and our
    /// rooks the discovered-check candidates.
    #[inline]
    pub fn slider_blockers(&self, rooks: Bitboard, ksq: Square) -> Bitboard {
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in rooks & attacks::rook(ksq, Bitboard::EMPTY) {
            let b = attacks::between(ksq, s) & occ;
            if b.any() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// The side to move's pieces pinned to its king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        let us = self.stm;
        match self.king_square(us) {
            Some(k) => self.slider_blockers(self.pieces(!us, PieceType::Rook), k) & self.by_color[us.index()],
            None => Bitboard::EMPTY,
        }
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.king_square(self.stm) {
            Some(k) => self.attackers_to(k, self.occupied()) & self.by_color[(!self.stm).index()],
            None => Bitboard::EMPTY,
        }
    }

    // ---- editing -------------------------------------------------------------------------

    #[inline(always)]
    pub(super) fn put_piece(&mut self, p: Piece, sq: Square) {
        self.squares[sq.index()] = Some(p);
        self.by_type[p.kind().index()] |= sq;
        self.by_color[p.color().index()] |= sq;
    }

    #[inline(always)]
    fn remove_piece(&mut self, p: Piece, sq: Square) {
        self.squares[sq.index()] = None;
        self.by_type[p.kind().index()] ^= sq;
        self.by_color[p.color().index()] ^= sq;
    }

    #[inline(always)]
    fn move_piece(&mut self, p: Piece, from: Square, to: Square) {
        let both = Bitboard::from_square(from) | to;
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(p);
        self.by_type[p.kind().index()] ^= both;
        self.by_color[p.color().index()] ^= both;
    }

    /// The key computed from scratch; the incremental key must always equal it.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_on(sq) {
                key ^= zobrist::piece_square(p, sq);
            }
        }
        for c in Color::ALL {
            for pt in PieceType::ALL {
                key ^= zobrist::hand(c, pt, self.hand_count(c, pt));
            }
        }
        if self.stm == Color::Black {
            key ^= zobrist::side();
        }
        key
    }

    /// Finishes a freshly parsed position: key and checkers of the root state.
    pub(super) fn init_root_state(&mut self, rule50: u32, counting_limit: u32, counting_ply: u32) {
        let key = self.compute_key();
        let checkers = self.compute_checkers();
        let st = &mut self.states[0];
        st.key = key;
        st.rule50 = rule50;
        st.counting_limit = counting_limit;
        st.counting_ply = counting_ply;
        st.checkers = checkers;
    }

    /// Plays `m`, which must be legal in this position.
    pub fn do_move(&mut self, m: Move) {
        let prev = *self.state();
        let us = self.stm;
        let them = !us;
        let mut key = prev.key ^ zobrist::side();
        let mut rule50 = prev.rule50 + 1;
        let mut captured = None;
        let mut keeps_move = false;
        let to = m.to();
        match m.kind() {
            MoveKind::Normal => {
                let from = m.from();
                let p = self.squares[from.index()].expect("a move starts on a piece");
                if let Some(c) = self.squares[to.index()] {
                    self.remove_piece(c, to);
                    key ^= zobrist::piece_square(c, to);
                    captured = Some(c);
                    rule50 = 0;
                }
                self.move_piece(p, from, to);
                key ^= zobrist::piece_square(p, from) ^ zobrist::piece_square(p, to);
                if p.kind() == PieceType::Pawn {
                    rule50 = 0;
                }
            }
            MoveKind::Promotion => {
                let from = m.from();
                let pawn = Piece::new(us, PieceType::Pawn);
                let met = Piece::new(us, PieceType::Met);
                self.remove_piece(pawn, from);
                self.put_piece(met, to);
                key ^= zobrist::piece_square(pawn, from) ^ zobrist::piece_square(met, to);
                rule50 = 0;
            }
            MoveKind::Drop => {
                let pt = m.drop_piece();
                let n = self.hand[us.index()][pt.index()];
                self.hand[us.index()][pt.index()] = n - 1;
                key ^= zobrist::hand(us, pt, n) ^ zobrist::hand(us, pt, n - 1);
                let p = Piece::new(us, pt);
                self.put_piece(p, to);
                key ^= zobrist::piece_square(p, to);
                rule50 = 0;
                if self.rules.setup == SetupOrder::Sequential && self.hand_total(us) > 0 {
                    keeps_move = true;
                }
            }
        }
        if keeps_move {
            // A sequential setup: the side placing its men keeps the move.
            key ^= zobrist::side();
        } else {
            self.stm = them;
        }
        self.game_ply += 1;

        // The counting rule: a bare king to move with no pawn on the board starts (or, after a
        // capture or promotion, restarts) the count; once started it runs on every ply.
        let mut counting_limit = prev.counting_limit;
        let mut counting_ply = prev.counting_ply + 1;
        if self.rules.counting == Counting::FairyStockfish {
            if self.is_bare(them) && self.by_type[PieceType::Pawn.index()].is_empty() {
                let limit = self.counting_limit_against(us);
                if limit != 0 && (prev.counting_limit == 0 || captured.is_some() || m.is_promotion()) {
                    counting_limit = limit;
                    counting_ply = 0;
                }
            }
        } else if prev.counting_limit == 0
            && let Some((limit, ply)) = self.count_starting(us)
        {
            counting_limit = limit;
            counting_ply = ply;
        }
        if counting_limit == 0 {
            counting_ply = 0;
        }

        self.states.push(State {
            key,
            rule50,
            counting_limit,
            counting_ply,
            checkers: Bitboard::EMPTY,
            captured,
            last_move: m,
        });
        let checkers = self.compute_checkers();
        let last = self.states.len() - 1;
        self.states[last].checkers = checkers;
        #[cfg(debug_assertions)]
        self.check();
    }

    /// The count (limit, first ply) that the rules other than Fairy-Stockfish's start after
    /// `mover`'s move, if one starts; they start a count once and never restart it.
    #[cold]
    fn count_starting(&self, mover: Color) -> Option<(u32, u32)> {
        let pawns = self.by_type[PieceType::Pawn.index()];
        match self.rules.counting {
            Counting::None | Counting::FairyStockfish => None,
            Counting::Federation => {
                // Either side with fewer than two men on the board; pawns allowed.
                let lone = Color::ALL.iter().any(|&c| !self.by_color[c.index()].more_than_one());
                lone.then(|| {
                    let limit = federation_limit_plies(pawns.any(), |pt| self.pieces(mover, pt).any());
                    (limit, 2 * self.occupied().count())
                })
            }
            Counting::Pritchard => {
                if pawns.any() {
                    return None;
                }
                for strong in [mover, !mover] {
                    let ours = self.by_color[strong.index()];
                    let rook_only = ours.count() == 2 && self.pieces(strong, PieceType::Rook).any();
                    if rook_only && self.is_bare(!strong) {
                        let lone = self.king_square(!strong)?;
                        return Some((pritchard_limit_plies(lone), 0));
                    }
                }
                None
            }
        }
    }

    /// Takes back the last move played with `do_move`.
    pub fn undo_move(&mut self) {
        let st = self.states.pop().expect("undo_move needs a move to undo");
        assert!(!self.states.is_empty(), "undo_move popped the root state");
        let m = st.last_move;
        // A drop's man tells who dropped it: under a sequential setup the mover kept the move.
        self.stm = match m.kind() {
            MoveKind::Drop => self.squares[m.to().index()].expect("the dropped man is on its square").color(),
            _ => !self.stm,
        };
        self.game_ply -= 1;
        let us = self.stm;
        let to = m.to();
        match m.kind() {
            MoveKind::Normal => {
                let p = self.squares[to.index()].expect("the moved piece is on its square");
                self.move_piece(p, to, m.from());
                if let Some(c) = st.captured {
                    self.put_piece(c, to);
                }
            }
            MoveKind::Promotion => {
                self.remove_piece(Piece::new(us, PieceType::Met), to);
                self.put_piece(Piece::new(us, PieceType::Pawn), m.from());
            }
            MoveKind::Drop => {
                let pt = m.drop_piece();
                self.remove_piece(Piece::new(us, pt), to);
                self.hand[us.index()][pt.index()] += 1;
            }
        }
        #[cfg(debug_assertions)]
        self.check();
    }

    /// A copy of the position without its history (only the current state), for trying
    /// moves where repetitions do not matter: cheaper than a clone of a long game.
    pub fn without_history(&self) -> Position {
        let mut states = Vec::with_capacity(4);
        states.push(*self.state());
        Position { states, ..*self }
    }

    /// Forgets the history before the current position (keeps the current state as root),
    /// so a long game does not make the state stack grow without bound.
    pub fn truncate_history(&mut self, keep: usize) {
        let n = self.states.len();
        if n > keep + 1 {
            self.states.drain(..n - keep - 1);
        }
    }

    /// Debug check that every redundant part of the position agrees with the rest.
    pub fn check(&self) {
        let mut by_type = [Bitboard::EMPTY; 6];
        let mut by_color = [Bitboard::EMPTY; 2];
        for sq in Square::ALL {
            if let Some(p) = self.squares[sq.index()] {
                by_type[p.kind().index()] |= sq;
                by_color[p.color().index()] |= sq;
            }
        }
        assert_eq!(by_type, self.by_type, "type bitboards disagree with the mailbox");
        assert_eq!(by_color, self.by_color, "colour bitboards disagree with the mailbox");
        assert!((self.by_color[0] & self.by_color[1]).is_empty(), "a square holds two colours");
        for c in Color::ALL {
            assert!(!self.pieces(c, PieceType::King).more_than_one(), "two {c:?} kings");
        }
        assert_eq!(self.key(), self.compute_key(), "incremental key differs from recompute");
        assert_eq!(self.checkers(), self.compute_checkers(), "stale checkers");
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}
