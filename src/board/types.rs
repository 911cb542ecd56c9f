//! Small typed values: colours, squares, piece types, pieces and packed moves.

use std::fmt;

/// The side to move or the owner of a piece. White (Red) moves first.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// The first player (Red in Burmese terms), at the bottom of the board.
    White = 0,
    /// The second player.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The colour as an array index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for White, -1 for Black: turns a White-relative score into this side's.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A file (column), a to h.
pub type File = u8;
/// A rank (row), 0 for rank 1 to 7 for rank 8.
pub type Rank = u8;

macro_rules! squares {
    ($($name:ident),* $(,)?) => {
        /// A square of the 8x8 board, numbered a1 = 0, b1 = 1, ..., h8 = 63.
        // Each variant is its own name (`E4` is e4): a doc line for each would say it again.
        #[allow(missing_docs)]
        #[repr(u8)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[rustfmt::skip]
        pub enum Square { $($name),* }

        impl Square {
            /// Every square in index order.
            pub const ALL: [Square; 64] = [$(Square::$name),*];
        }
    };
}

squares!(
    A1, B1, C1, D1, E1, F1, G1, H1, A2, B2, C2, D2, E2, F2, G2, H2, A3, B3, C3, D3, E3, F3, G3, H3, A4, B4, C4, D4, E4,
    F4, G4, H4, A5, B5, C5, D5, E5, F5, G5, H5, A6, B6, C6, D6, E6, F6, G6, H6, A7, B7, C7, D7, E7, F7, G7, H7, A8, B8,
    C8, D8, E8, F8, G8, H8,
);

impl Square {
    /// The square with this index; the index is taken modulo 64 so it can never be out of range.
    #[inline(always)]
    pub const fn from_index(i: u8) -> Square {
        Square::ALL[(i & 63) as usize]
    }

    /// The square on `file` (0-7) and `rank` (0-7).
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square::from_index(rank * 8 + file)
    }

    /// The square's index, 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// File 0 (a) to 7 (h).
    #[inline(always)]
    pub const fn file(self) -> File {
        self as u8 & 7
    }

    /// Rank 0 (rank 1) to 7 (rank 8).
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        self as u8 >> 3
    }

    /// The rank as seen from `c`'s side: 0 is that side's back rank.
    #[inline(always)]
    pub const fn relative_rank(self, c: Color) -> Rank {
        match c {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square::from_index(self as u8 ^ 56)
    }

    /// The square moved by (df, dr), or None when that leaves the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f > 7 || r < 0 || r > 7 { None } else { Some(Square::new(f as u8, r as u8)) }
    }

    /// Whether the square is dark (a1 is dark).
    #[inline(always)]
    pub const fn is_dark(self) -> bool {
        (self.file() + self.rank()).is_multiple_of(2)
    }

    /// Parses `e4`-style algebraic notation.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Some(Square::new(b[0] - b'a', b[1] - b'1'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

/// The six kinds of Sittuyin piece.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceType {
    /// Ne: one step forward, captures one step diagonally forward.
    Pawn = 0,
    /// Myin: the chess knight's leap.
    Knight = 1,
    /// Sin (the "silver"): one step diagonally or straight forward.
    Khon = 2,
    /// Sit-ke (the "fers"): one step diagonally.
    Met = 3,
    /// Yahhta: the only slider, along ranks and files.
    Rook = 4,
    /// Min-gyi.
    King = 5,
}

impl PieceType {
    /// Every piece type in index order.
    pub const ALL: [PieceType; 6] =
        [PieceType::Pawn, PieceType::Knight, PieceType::Khon, PieceType::Met, PieceType::Rook, PieceType::King];

    /// The order in which Fairy-Stockfish writes pieces in hand: K S F R N P.
    pub const HAND_ORDER: [PieceType; 6] =
        [PieceType::King, PieceType::Khon, PieceType::Met, PieceType::Rook, PieceType::Knight, PieceType::Pawn];

    /// The type with this index; out-of-range indices clamp to King so it never panics.
    #[inline(always)]
    pub const fn from_index(i: u8) -> PieceType {
        PieceType::ALL[if i < 6 { i as usize } else { 5 }]
    }

    /// The type as an array index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case FEN letter.
    pub const fn letter(self) -> char {
        match self {
            PieceType::Pawn => 'P',
            PieceType::Knight => 'N',
            PieceType::Khon => 'S',
            PieceType::Met => 'F',
            PieceType::Rook => 'R',
            PieceType::King => 'K',
        }
    }

    /// The type named by a FEN letter of either case.
    pub fn from_letter(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceType::Pawn,
            'N' => PieceType::Knight,
            'S' => PieceType::Khon,
            'F' => PieceType::Met,
            'R' => PieceType::Rook,
            'K' => PieceType::King,
            _ => return None,
        })
    }
}

/// A piece of one colour: index = colour * 6 + type.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[rustfmt::skip]
pub enum Piece {
    /// White pawn.
    WhitePawn, /// White knight.
    WhiteKnight, /// White khon.
    WhiteKhon, /// White met.
    WhiteMet, /// White rook.
    WhiteRook, /// White king.
    WhiteKing,
    /// Black pawn.
    BlackPawn, /// Black knight.
    BlackKnight, /// Black khon.
    BlackKhon, /// Black met.
    BlackMet, /// Black rook.
    BlackRook, /// Black king.
    BlackKing,
}

impl Piece {
    /// Every piece in index order.
    #[rustfmt::skip]
    pub const ALL: [Piece; 12] = [
        Piece::WhitePawn, Piece::WhiteKnight, Piece::WhiteKhon, Piece::WhiteMet, Piece::WhiteRook,
        Piece::WhiteKing, Piece::BlackPawn, Piece::BlackKnight, Piece::BlackKhon, Piece::BlackMet,
        Piece::BlackRook, Piece::BlackKing,
    ];

    /// The piece of colour `c` and type `pt`.
    #[inline(always)]
    pub const fn new(c: Color, pt: PieceType) -> Piece {
        Piece::ALL[c as usize * 6 + pt as usize]
    }

    /// The piece's colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 6 { Color::White } else { Color::Black }
    }

    /// The piece's type.
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        PieceType::ALL[(self as u8 % 6) as usize]
    }

    /// The piece as an array index, 0..12.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece named by a FEN letter (case gives the colour).
    pub fn from_letter(c: char) -> Option<Piece> {
        let pt = PieceType::from_letter(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece::new(color, pt))
    }
}

/// What a move does: a board move, a sittuyin promotion or a drop from the hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A piece moves (and perhaps captures).
    Normal,
    /// A pawn becomes a met on its own square or a diagonally adjacent empty one.
    Promotion,
    /// A piece from the hand is placed on an empty square.
    Drop,
}

/// A move packed in 16 bits. Layout, most significant bit first:
/// ```text
///  bit  15 14 | 13 12 11 10  9  8  7  6 | 5  4  3  2  1  0
///       kind  |  from square            |  to square
///             |  (drop: the piece type) |
/// kind: 00 normal, 01 promotion (to may equal from), 10 drop, 11 null move
/// ```
/// `Move::NONE` (all zero, "a1a1") is never a legal move, so it doubles as "no move".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);

impl Move {
    /// No move: the all-zero value, never legal.
    pub const NONE: Move = Move(0);
    /// The null move, written `0000` in UCI; no search plays it.
    pub const NULL: Move = Move(0b11 << 14);

    const PROMOTION: u16 = 0b01 << 14;
    const DROP: u16 = 0b10 << 14;

    /// A board move from `from` to `to`.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(((from as u16) << 6) | to as u16)
    }

    /// A promotion of the pawn on `from` to a met on `to` (possibly `from` itself).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square) -> Move {
        Move(Self::PROMOTION | ((from as u16) << 6) | to as u16)
    }

    /// A drop of a `pt` from the hand onto `to`.
    #[inline(always)]
    pub const fn drop(pt: PieceType, to: Square) -> Move {
        Move(Self::DROP | ((pt as u16) << 6) | to as u16)
    }

    /// The raw 16 bits (for the transposition table).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The move stored as `raw` bits; it is re-checked for legality before use.
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// Whether this is a real move (neither NONE nor NULL).
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0 && self.0 >> 14 != 0b11
    }

    /// The kind of move; NULL reports as Normal.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0b01 => MoveKind::Promotion,
            0b10 => MoveKind::Drop,
            _ => MoveKind::Normal,
        }
    }

    /// Whether the move is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 >> 14 == 0b10
    }

    /// Whether the move is a promotion.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 >> 14 == 0b01
    }

    /// The origin square (meaningless for drops).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index(((self.0 >> 6) & 63) as u8)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 & 63) as u8)
    }

    /// The dropped piece type (meaningful for drops only).
    #[inline(always)]
    pub const fn drop_piece(self) -> PieceType {
        PieceType::from_index(((self.0 >> 6) & 63) as u8)
    }
}

impl fmt::Display for Move {
    /// UCI notation: `e3e4`, `R@a1`, `d5e6f`; `0000` for the null move, `(none)` for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NONE {
            return write!(f, "(none)");
        }
        if *self == Move::NULL {
            return write!(f, "0000");
        }
        match self.kind() {
            MoveKind::Normal => write!(f, "{}{}", self.from(), self.to()),
            MoveKind::Promotion => write!(f, "{}{}f", self.from(), self.to()),
            MoveKind::Drop => write!(f, "{}@{}", self.drop_piece().letter(), self.to()),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_round_trips_its_fields() {
        for from in Square::ALL {
            for to in Square::ALL {
                let m = Move::normal(from, to);
                assert_eq!((m.from(), m.to(), m.kind()), (from, to, MoveKind::Normal));
                let p = Move::promotion(from, to);
                assert_eq!((p.from(), p.to(), p.kind()), (from, to, MoveKind::Promotion));
            }
            for pt in PieceType::ALL {
                let d = Move::drop(pt, from);
                assert_eq!((d.drop_piece(), d.to(), d.kind()), (pt, from, MoveKind::Drop));
                assert!(d.is_some());
            }
        }
        assert!(!Move::NONE.is_some() && !Move::NULL.is_some());
    }

    #[test]
    fn pieces_know_colour_and_type() {
        for c in Color::ALL {
            for pt in PieceType::ALL {
                let p = Piece::new(c, pt);
                assert_eq!((p.color(), p.kind()), (c, pt));
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
    }

    #[test]
    fn squares_parse_and_print() {
        for sq in Square::ALL {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }
}
