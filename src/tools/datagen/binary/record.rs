//! One training position in 32 bytes; the byte layout is in the `binary` module's docs.

use crate::board::{Bitboard, Color, FenError, Piece, PieceType, Position, Setup, Square};
use crate::eval;
use crate::tools::datagen::format::GameResult;
use std::fmt;

/// Bytes of one position record.
pub const RECORD_SIZE: usize = 32;

/// Scores are clamped to ±this many centipawns (an i16 holds them, and no static
/// evaluation comes near).
pub const SCORE_LIMIT: i32 = 32_000;

/// Pieces on the board a record holds at most (16 bytes of nibbles).
pub const MAX_PIECES: u32 = 32;

const FLAG_BLACK_TO_MOVE: u8 = 1;
const RESULT_SHIFT: u32 = 1;
const RESULT_MASK: u8 = 0b110;
const FLAG_SCALED: u8 = 1 << 3;
const FLAGS_USED: u8 = FLAG_BLACK_TO_MOVE | RESULT_MASK | FLAG_SCALED;

/// Where each piece type's count sits in a hand byte: (type, lowest bit, bits). Pawns are
/// never in hand in Sittuyin, so they have no field.
const HAND_FIELDS: [(PieceType, u32, u32); 5] = [
    (PieceType::King, 0, 1),
    (PieceType::Met, 1, 1),
    (PieceType::Rook, 2, 2),
    (PieceType::Khon, 4, 2),
    (PieceType::Knight, 6, 2),
];

/// The piece a nibble names: `colour << 3 | piece type`. Nibbles naming no piece (type 6
/// or 7) are refused when a record is read, so their entries here are never used.
const NIBBLE_PIECE: [Piece; 16] = {
    let mut t = [Piece::WhiteKing; 16];
    let mut n = 0;
    while n < 16 {
        let color = if n & 8 == 0 { Color::White } else { Color::Black };
        t[n] = Piece::new(color, PieceType::from_index((n & 7) as u8));
        n += 1;
    }
    t
};

/// A position with its search score and game result, as stored in a binary data file.
/// Fields mirror the on-disk layout; the file bytes are little-endian whatever the host.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PackedRecord {
    occupancy: u64,
    nibbles: [u8; 16],
    score: i16,
    hands: [u8; 2],
    flags: u8,
    rule50: u8,
    counting_limit: u8,
    counting_ply: u8,
}

const _: () = assert!(std::mem::size_of::<PackedRecord>() == RECORD_SIZE);

/// Why a position does not fit a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// More than 32 pieces on the board.
    TooManyPieces(u32),
    /// More pieces of one type in hand than its field holds (none for pawns).
    HandTooLarge {
        /// The side holding them.
        color: Color,
        /// The piece type.
        piece: PieceType,
        /// How many.
        count: u8,
    },
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::TooManyPieces(n) => write!(f, "{n} pieces on the board; a record holds {MAX_PIECES}"),
            PackError::HandTooLarge { color, piece, count } => {
                write!(f, "{color:?} holds {count} {piece:?} in hand, more than a record holds")
            }
        }
    }
}

impl std::error::Error for PackError {}

impl PackedRecord {
    /// Packs `pos` with the search score `score_stm` (centipawns, side to move's view;
    /// clamped to ±`SCORE_LIMIT`) and the game's result. The scaled flag is
    /// `eval::score_is_scaled(pos)`; clocks above 255 saturate.
    pub fn pack(pos: &Position, score_stm: i32, result: GameResult) -> Result<PackedRecord, PackError> {
        let occ = pos.occupied();
        if occ.count() > MAX_PIECES {
            return Err(PackError::TooManyPieces(occ.count()));
        }
        let mut nibbles = [0u8; 16];
        for (i, sq) in occ.enumerate() {
            let p = pos.piece_on(sq).expect("an occupied square holds a piece");
            let nibble = (p.color() as u8) << 3 | p.kind() as u8;
            nibbles[i / 2] |= nibble << (4 * (i % 2));
        }
        let mut hands = [0u8; 2];
        for c in Color::ALL {
            for pt in PieceType::ALL {
                let count = pos.hand_count(c, pt);
                let field = HAND_FIELDS.iter().find(|f| f.0 == pt);
                match field {
                    Some(&(_, shift, bits)) if count < 1 << bits => hands[c.index()] |= count << shift,
                    _ if count == 0 => {}
                    _ => return Err(PackError::HandTooLarge { color: c, piece: pt, count }),
                }
            }
        }
        let counting = pos.counting_limit() > 0;
        let sat = |v: u32| v.min(255) as u8;
        Ok(PackedRecord {
            occupancy: occ.0,
            nibbles,
            score: score_stm.clamp(-SCORE_LIMIT, SCORE_LIMIT) as i16,
            hands,
            flags: (pos.side_to_move() == Color::Black) as u8
                | result_code(result) << RESULT_SHIFT
                | if eval::score_is_scaled(pos) { FLAG_SCALED } else { 0 },
            rule50: sat(pos.rule50()),
            counting_limit: sat(pos.counting_limit()),
            counting_ply: if counting { sat(pos.counting_ply()) } else { 0 },
        })
    }

    /// The 32 bytes as stored in a file.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        b[0..8].copy_from_slice(&self.occupancy.to_le_bytes());
        b[8..24].copy_from_slice(&self.nibbles);
        b[24..26].copy_from_slice(&self.score.to_le_bytes());
        b[26..28].copy_from_slice(&self.hands);
        b[28] = self.flags;
        b[29] = self.rule50;
        b[30] = self.counting_limit;
        b[31] = self.counting_ply;
        b
    }

    /// A record from its 32 stored bytes, checked: at most 32 pieces, every nibble a
    /// piece and the unused ones zero, one king a side (board and hand), a score in range,
    /// a result code, no unknown flag, no counting ply without a count.
    pub fn from_bytes(b: &[u8; RECORD_SIZE]) -> Result<PackedRecord, String> {
        let r = PackedRecord {
            occupancy: u64::from_le_bytes(b[0..8].try_into().expect("8 bytes")),
            nibbles: b[8..24].try_into().expect("16 bytes"),
            score: i16::from_le_bytes([b[24], b[25]]),
            hands: [b[26], b[27]],
            flags: b[28],
            rule50: b[29],
            counting_limit: b[30],
            counting_ply: b[31],
        };
        let n = r.occupancy.count_ones();
        if n > MAX_PIECES {
            return Err(format!("{n} pieces on the board"));
        }
        let all = u128::from_le_bytes(r.nibbles);
        if n < MAX_PIECES && all >> (4 * n) != 0 {
            return Err("bits set in unused piece nibbles".to_string());
        }
        let mut kings = [0u32; 2];
        for c in Color::ALL {
            kings[c.index()] = r.hand_count(c, PieceType::King) as u32;
        }
        for i in 0..n {
            let nibble = (all >> (4 * i)) as u8 & 15;
            if nibble & 7 > PieceType::King as u8 {
                return Err(format!("piece nibble {nibble} names no piece"));
            }
            if nibble & 7 == PieceType::King as u8 {
                kings[(nibble >> 3) as usize] += 1;
            }
        }
        if kings != [1, 1] {
            return Err(format!("kings (board and hand): White {}, Black {}", kings[0], kings[1]));
        }
        if (r.score as i32).abs() > SCORE_LIMIT {
            return Err(format!("score {} beyond ±{SCORE_LIMIT}", r.score));
        }
        if r.flags & !FLAGS_USED != 0 || (r.flags & RESULT_MASK) >> RESULT_SHIFT > 2 {
            return Err(format!("flags {:#010b}", r.flags));
        }
        if r.counting_limit == 0 && r.counting_ply != 0 {
            return Err("a counting ply without a counting limit".to_string());
        }
        Ok(r)
    }

    /// The occupied squares (bit i = square i, a1 = 0).
    #[inline(always)]
    pub fn occupancy(&self) -> Bitboard {
        Bitboard(self.occupancy)
    }

    /// The pieces on the board with their squares, in ascending square order, read
    /// straight from the record (no `Position` is built).
    #[inline(always)]
    pub fn pieces(&self) -> Pieces {
        Pieces { occupancy: self.occupancy, nibbles: u128::from_le_bytes(self.nibbles) }
    }

    /// How many `pt` pieces `c` holds in hand.
    #[inline(always)]
    pub fn hand_count(&self, c: Color, pt: PieceType) -> u8 {
        match HAND_FIELDS.iter().find(|f| f.0 == pt) {
            Some(&(_, shift, bits)) => (self.hands[c.index()] >> shift) & ((1 << bits) - 1),
            None => 0,
        }
    }

    /// Whether either side still has pieces to place.
    pub fn in_setup(&self) -> bool {
        self.hands != [0, 0]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        if self.flags & FLAG_BLACK_TO_MOVE != 0 { Color::Black } else { Color::White }
    }

    /// The search score, centipawns, from the side to move's point of view.
    #[inline(always)]
    pub fn score_stm(&self) -> i32 {
        self.score as i32
    }

    /// The search score, centipawns, from White's point of view.
    pub fn score_white(&self) -> i32 {
        self.score as i32 * self.side_to_move().sign()
    }

    /// The game's result from White's point of view.
    pub fn result_white(&self) -> GameResult {
        match (self.flags & RESULT_MASK) >> RESULT_SHIFT {
            0 => GameResult::BlackWin,
            1 => GameResult::Draw,
            _ => GameResult::WhiteWin,
        }
    }

    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub fn result_stm(&self) -> f32 {
        let white = self.result_white().white_score() as f32;
        if self.side_to_move() == Color::White { white } else { 1.0 - white }
    }

    /// Whether the evaluation of this position is scaled by a rule the pieces do not show
    /// (`eval::score_is_scaled`): bare kings, drawish material, counting. A trainer that
    /// fits the unscaled evaluation drops these.
    #[inline(always)]
    pub fn is_scaled(&self) -> bool {
        self.flags & FLAG_SCALED != 0
    }

    /// Plies since the last capture, pawn move, promotion or drop (saturating at 255).
    pub fn halfmove_clock(&self) -> u8 {
        self.rule50
    }

    /// The factor the 50-move rule puts on this position's evaluation
    /// (`eval::rule50_scale`); dividing the score by it unscales it.
    pub fn rule50_scale(&self) -> f64 {
        eval::rule50_scale(self.rule50 as u32)
    }

    /// The counting limit in plies, 0 when counting does not run.
    pub fn counting_limit(&self) -> u8 {
        self.counting_limit
    }

    /// Plies counted while counting runs (0 otherwise).
    pub fn counting_ply(&self) -> u8 {
        self.counting_ply
    }

    /// The same record with another game result (datagen learns it at the game's end).
    pub fn with_result(mut self, result: GameResult) -> PackedRecord {
        self.flags = self.flags & !RESULT_MASK | result_code(result) << RESULT_SHIFT;
        self
    }

    /// The position's parts (full-move number 1: records do not keep it).
    pub fn setup(&self) -> Setup {
        let mut board = [None; 64];
        for (sq, p) in self.pieces() {
            board[sq.index()] = Some(p);
        }
        let mut hands = [[0u8; 6]; 2];
        for c in Color::ALL {
            for pt in PieceType::ALL {
                hands[c.index()][pt.index()] = self.hand_count(c, pt);
            }
        }
        Setup {
            board,
            hands,
            side_to_move: self.side_to_move(),
            rule50: self.rule50 as u32,
            counting_limit: self.counting_limit as u32,
            counting_ply: self.counting_ply as u32,
            fullmove: 1,
        }
    }

    /// The position (full-move number 1). Fails only for a record that no game reaches,
    /// such as one whose side not to move is in check.
    pub fn to_position(&self) -> Result<Position, FenError> {
        Position::from_setup(&self.setup())
    }
}

/// The result as a record stores it: 0 Black won, 1 draw, 2 White won.
pub fn result_code(r: GameResult) -> u8 {
    match r {
        GameResult::BlackWin => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWin => 2,
    }
}

/// The result a code stands for.
pub fn result_from_code(code: u8) -> Option<GameResult> {
    match code {
        0 => Some(GameResult::BlackWin),
        1 => Some(GameResult::Draw),
        2 => Some(GameResult::WhiteWin),
        _ => None,
    }
}

/// The pieces of a record in ascending square order (see `PackedRecord::pieces`).
#[derive(Clone, Copy, Debug)]
pub struct Pieces {
    occupancy: u64,
    nibbles: u128,
}

impl Iterator for Pieces {
    type Item = (Square, Piece);

    #[inline(always)]
    fn next(&mut self) -> Option<(Square, Piece)> {
        if self.occupancy == 0 {
            return None;
        }
        let sq = Square::from_index(self.occupancy.trailing_zeros() as u8);
        self.occupancy &= self.occupancy - 1;
        let p = NIBBLE_PIECE[(self.nibbles & 15) as usize];
        self.nibbles >>= 4;
        Some((sq, p))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.occupancy.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Pieces {}
