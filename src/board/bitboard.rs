//! A set of squares in one u64, bit i = square i (a1 = bit 0).

use super::types::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// File a.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// File h.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Rank 1.
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// Rank 8.
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    /// The dark squares (a1 is dark).
    pub const DARK: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

    /// The set holding just `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u8)
    }

    /// Rank `r` (0-7) as a set.
    #[inline(always)]
    pub const fn rank(r: u8) -> Bitboard {
        Bitboard(0xFF << (8 * (r & 7)))
    }

    /// File `f` (0-7) as a set.
    #[inline(always)]
    pub const fn file(f: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << (f & 7))
    }

    /// The files beside file `f` (one or two of them), as a set.
    #[inline(always)]
    pub const fn adjacent_files(f: u8) -> Bitboard {
        Bitboard::file(f).sideways()
    }

    /// The squares one file to the left or right of a square in the set (no wrapping).
    #[inline(always)]
    pub const fn sideways(self) -> Bitboard {
        Bitboard(((self.0 << 1) & !Bitboard::FILE_A.0) | ((self.0 >> 1) & !Bitboard::FILE_H.0))
    }

    /// `c`'s relative rank `r` (0 = its back rank).
    #[inline(always)]
    pub const fn relative_rank(c: Color, r: u8) -> Bitboard {
        match c {
            Color::White => Bitboard::rank(r),
            Color::Black => Bitboard::rank(7 - r),
        }
    }

    /// Whether no square is in the set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether some square is in the set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq as u8 & 1 != 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds more than one square.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square; the set must not be empty (an empty set yields h8).
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::from_index(self.0.trailing_zeros() as u8)
    }

    /// Removes and returns the lowest square.
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0.wrapping_sub(1);
        sq
    }

    /// The set with every square moved one rank forward for `c` (off-board bits drop).
    #[inline(always)]
    pub const fn forward(self, c: Color) -> Bitboard {
        match c {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// Every square on a rank ahead of `sq`, from `c`'s side (empty from the last rank).
    #[inline(always)]
    pub const fn ranks_ahead(c: Color, sq: Square) -> Bitboard {
        let r = sq.rank() as u32;
        match c {
            Color::White => Bitboard(match u64::MAX.checked_shl(8 * (r + 1)) {
                Some(b) => b,
                None => 0,
            }),
            Color::Black => Bitboard((1u64 << (8 * r)) - 1),
        }
    }

    /// The same set mirrored top to bottom.
    #[inline(always)]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(self.pop_lsb()) }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
        impl $tr<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Square) -> Bitboard {
                Bitboard(self.0 $op Bitboard::from_square(rhs).0)
            }
        }
        impl $tra<Square> for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Square) {
                self.0 = self.0 $op Bitboard::from_square(rhs).0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Set difference: the squares of `self` that are not in `rhs`.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl std::ops::SubAssign for Bitboard {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl std::fmt::Debug for Bitboard {
    /// An 8x8 picture, rank 8 on top.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for r in (0..8).rev() {
            for file in 0..8 {
                let c = if self.has(Square::new(file, r)) { 'X' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_ahead_are_the_whole_ranks_in_front_from_each_side() {
        use Square::*;
        assert_eq!(Bitboard::ranks_ahead(Color::White, C3).count(), 40);
        assert!(Bitboard::ranks_ahead(Color::White, C3).has(A4) && !Bitboard::ranks_ahead(Color::White, C3).has(H3));
        assert_eq!(Bitboard::ranks_ahead(Color::Black, C3).count(), 16);
        assert!(Bitboard::ranks_ahead(Color::Black, C3).has(H2) && !Bitboard::ranks_ahead(Color::Black, C3).has(A3));
        assert!(Bitboard::ranks_ahead(Color::White, H8).is_empty());
        assert!(Bitboard::ranks_ahead(Color::Black, A1).is_empty());
        // The two sides' views are mirror images.
        for sq in Square::ALL {
            assert_eq!(
                Bitboard::ranks_ahead(Color::Black, sq.flip_rank()),
                Bitboard::ranks_ahead(Color::White, sq).flip_vertical()
            );
        }
    }

    #[test]
    fn iterates_in_square_order() {
        let b = Bitboard::from_square(Square::C3) | Square::A1 | Square::H8;
        assert_eq!(b.collect::<Vec<_>>(), vec![Square::A1, Square::C3, Square::H8]);
        assert_eq!(b.count(), 3);
        assert!(b.more_than_one());
        assert!(!Bitboard::from_square(Square::E4).more_than_one());
    }

    #[test]
    fn adjacent_files_stay_on_the_board() {
        assert_eq!(Bitboard::adjacent_files(0), Bitboard::file(1));
        assert_eq!(Bitboard::adjacent_files(7), Bitboard::file(6));
        assert_eq!(Bitboard::adjacent_files(3), Bitboard::file(2) | Bitboard::file(4));
        use Square::*;
        assert_eq!((Bitboard::from_square(A1) | H4).sideways(), Bitboard::from_square(B1) | G4);
    }

    #[test]
    fn dark_squares_match_square_colour() {
        for sq in Square::ALL {
            assert_eq!(Bitboard::DARK.has(sq), sq.is_dark(), "{sq}");
        }
    }
}
