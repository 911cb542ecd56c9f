//! Move-ordering statistics, one set per search thread: butterfly history (by side, origin
//! or dropped piece, and destination), continuation history (by the previous move's piece
//! and square), capture history, and counter moves.

use super::params::SearchParams;
use crate::board::{Color, Move, MoveKind, Piece, PieceType, Position};

/// History values stay within +-HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;

/// Index of a move's "origin" for butterfly history: its square, or 64 + the dropped type.
#[inline(always)]
pub fn origin_index(m: Move) -> usize {
    if m.is_drop() { 64 + m.drop_piece().index() } else { m.from().index() }
}

/// The piece a move leaves on its destination (a met for a promotion).
#[inline(always)]
pub fn moved_piece(pos: &Position, m: Move) -> Piece {
    let us = pos.side_to_move();
    match m.kind() {
        MoveKind::Drop => Piece::new(us, m.drop_piece()),
        MoveKind::Promotion => Piece::new(us, PieceType::Met),
        MoveKind::Normal => pos.piece_on(m.from()).unwrap_or(Piece::new(us, PieceType::Pawn)),
    }
}

/// A (piece, destination) pair identifying a move for continuation history; 12 * 64 of them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PieceTo(pub u16);

impl PieceTo {
    /// The index for `piece` arriving on `to`.
    #[inline(always)]
    pub fn new(piece: Piece, m: Move) -> PieceTo {
        PieceTo((piece.index() * 64 + m.to().index()) as u16)
    }
}

/// Gravity update: moves `entry` towards +-HISTORY_MAX by `bonus`, slowing as it nears it.
#[inline(always)]
pub fn update(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let v = e + bonus - e * bonus.abs() / HISTORY_MAX;
    *entry = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// The history bonus for a cutoff at `depth`.
#[inline(always)]
pub fn bonus(depth: i32, params: &SearchParams) -> i32 {
    (params.HISTORY_BONUS_MUL * depth - 60).clamp(0, params.HISTORY_BONUS_MAX)
}

/// All move-ordering statistics of one thread.
pub struct Histories {
    /// [side][origin 0..70][destination]
    pub butterfly: Vec<[[i16; 64]; 70]>,
    /// [previous piece-to][piece-to], flattened.
    pub continuation: Vec<i16>,
    /// [moving piece][destination][captured type]
    pub capture: Vec<[[i16; 6]; 64]>,
    /// [previous piece-to] -> the reply that refuted it last.
    pub counter: Vec<Move>,
}

const PIECE_TO: usize = 12 * 64;

impl Default for Histories {
    fn default() -> Self {
        Histories {
            butterfly: vec![[[0; 64]; 70]; 2],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            capture: vec![[[0; 6]; 64]; 12],
            counter: vec![Move::NONE; PIECE_TO],
        }
    }
}

impl Histories {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        *self = Histories::default();
    }

    /// Butterfly history of `m` for side `c`.
    #[inline(always)]
    pub fn quiet(&self, c: Color, m: Move) -> i32 {
        self.butterfly[c.index()][origin_index(m)][m.to().index()] as i32
    }

    /// Continuation history of `cur` after `prev`.
    #[inline(always)]
    pub fn cont(&self, prev: PieceTo, cur: PieceTo) -> i32 {
        self.continuation[prev.0 as usize * PIECE_TO + cur.0 as usize] as i32
    }

    /// Capture history of `piece` taking a `captured` on the move's destination.
    #[inline(always)]
    pub fn capture(&self, piece: Piece, m: Move, captured: PieceType) -> i32 {
        self.capture[piece.index()][m.to().index()][captured.index()] as i32
    }

    /// Adds `bonus` to the butterfly entry of `m`.
    #[inline(always)]
    pub fn update_quiet(&mut self, c: Color, m: Move, bonus: i32) {
        update(&mut self.butterfly[c.index()][origin_index(m)][m.to().index()], bonus);
    }

    /// Adds `bonus` to the continuation entry of `cur` after `prev`.
    #[inline(always)]
    pub fn update_cont(&mut self, prev: PieceTo, cur: PieceTo, bonus: i32) {
        update(&mut self.continuation[prev.0 as usize * PIECE_TO + cur.0 as usize], bonus);
    }

    /// Adds `bonus` to the capture entry.
    #[inline(always)]
    pub fn update_capture(&mut self, piece: Piece, m: Move, captured: PieceType, bonus: i32) {
        update(&mut self.capture[piece.index()][m.to().index()][captured.index()], bonus);
    }
}
