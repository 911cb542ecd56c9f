//! How a table numbers its positions: slots for the men, the symmetry that picks one
//! representative of each class, and the index (side to move fastest, pawns slowest, so
//! that every pawn configuration is one contiguous slice).
//!
//! Symmetry: left-right mirroring is always allowed. Without pawns and khons, which both
//! move forward, the board may also be turned upside down. The diagonal reflection is
//! left out on purpose: it fixes squares, so some positions would be their own mirror
//! image, and the generator's move counters would then count some moves twice. With the
//! mirrors used here the deciding man (the white king, or the first pawn) never stands on
//! an axis, so no position is its own image.

use super::material::{Material, STRENGTH_ORDER};
use super::pos::{MAX_MEN, TbPos};
use crate::board::{Color, Piece, PieceType, Square};

/// Which symmetry a table uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sym {
    /// Left-right by the white king (khons on the board): the king on files a-d.
    Mirror,
    /// Left-right and top-bottom by the white king (no pawn, no khon): the king on a1-d4.
    Quadrant,
    /// Left-right by the first pawn: that pawn on files a-d.
    PawnMirror,
}

impl Sym {
    /// A number for the file header.
    pub fn code(self) -> u8 {
        match self {
            Sym::Mirror => 1,
            Sym::Quadrant => 2,
            Sym::PawnMirror => 3,
        }
    }
}

/// The slots and index arithmetic of one ending's table.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The ending, in canonical orientation.
    pub material: Material,
    /// The men after the two kings, in slot order: White's and Black's non-pawns
    /// (strongest first), then White's and Black's pawns.
    pub slots: Vec<Piece>,
    /// The symmetry in use.
    pub sym: Sym,
    /// Slots that hold pieces other than pawns.
    nonpawns: usize,
    /// How many values the white king's index takes.
    wk_dim: usize,
    /// Positions per pawn configuration.
    pub slice_size: usize,
    /// Pawn configurations.
    pub slices: usize,
    /// Positions in the table.
    pub size: usize,
}

/// Squares a pawn can stand on: its relative ranks 3 to 8 (it can never go back).
const PAWN_SQUARES: usize = 48;

impl Layout {
    /// The layout of `material`, which must be canonical and of at most four men.
    pub fn new(material: Material) -> Layout {
        let mut slots = Vec::new();
        for pawns in [false, true] {
            for c in Color::ALL {
                for pt in STRENGTH_ORDER {
                    if (pt == PieceType::Pawn) == pawns {
                        for _ in 0..material.counts[c.index()][pt.index()] {
                            slots.push(Piece::new(c, pt));
                        }
                    }
                }
            }
        }
        assert!(slots.len() + 2 <= MAX_MEN, "tables hold at most {MAX_MEN} men");
        let pawns = material.count_type(PieceType::Pawn) as usize;
        let nonpawns = slots.len() - pawns;
        let sym = if pawns > 0 {
            Sym::PawnMirror
        } else if material.count_type(PieceType::Khon) > 0 {
            Sym::Mirror
        } else {
            Sym::Quadrant
        };
        // Squares the white king is reduced to by the symmetry (board geometry, no rule).
        let wk_dim = match sym {
            Sym::PawnMirror => 64,
            Sym::Mirror => 32,
            Sym::Quadrant => 16,
        };
        let slice_size = 2 * wk_dim * 64 * 64usize.pow(nonpawns as u32);
        let slices = match pawns {
            0 => 1,
            1 => PAWN_SQUARES / 2,
            _ => PAWN_SQUARES / 2 * PAWN_SQUARES,
        };
        Layout { material, slots, sym, nonpawns, wk_dim, slice_size, slices, size: slice_size * slices }
    }

    /// Men on the board, kings included.
    pub fn men(&self) -> usize {
        2 + self.slots.len()
    }

    /// Whether the table stores distances to mate (a bare king, no pawn) rather than
    /// distances to the next capture or pawn move.
    pub fn is_dtm(&self) -> bool {
        self.material.is_bare_king_ending()
    }

    /// The squares to xor onto every man so that the deciding man lands in its region.
    #[inline]
    fn transform(&self, sq: &[Square]) -> u8 {
        match self.sym {
            Sym::PawnMirror => {
                if sq[2 + self.nonpawns].file() >= 4 {
                    7
                } else {
                    0
                }
            }
            Sym::Mirror => {
                if sq[0].file() >= 4 {
                    7
                } else {
                    0
                }
            }
            Sym::Quadrant => (if sq[0].file() >= 4 { 7 } else { 0 }) | (if sq[0].rank() >= 4 { 56 } else { 0 }),
        }
    }

    /// The index of `p`, whose men must be in this layout's slot order; None when a pawn
    /// stands where no pawn of its colour can be (behind its relative third rank).
    #[inline]
    pub fn encode(&self, p: &TbPos) -> Option<usize> {
        let xf = self.transform(&p.sq);
        let sq = |i: usize| p.sq[i] as usize ^ xf as usize;
        let wk = sq(0);
        let wk_digit = match self.sym {
            Sym::PawnMirror => wk,
            _ => (wk >> 3) * 4 + (wk & 7),
        };
        let mut idx = p.stm.index() + 2 * wk_digit;
        let mut mul = 2 * self.wk_dim;
        idx += mul * sq(1);
        mul *= 64;
        for i in 2..2 + self.nonpawns {
            idx += mul * sq(i);
            mul *= 64;
        }
        for (k, i) in (2 + self.nonpawns..p.n).enumerate() {
            let s = Square::from_index(sq(i) as u8);
            let rel = s.relative_rank(p.piece[i].color()) as usize;
            if rel < 2 {
                return None;
            }
            let digit = if k == 0 { (rel - 2) * 4 + s.file() as usize } else { (rel - 2) * 8 + s.file() as usize };
            idx += mul * digit;
            mul *= if k == 0 { PAWN_SQUARES / 2 } else { PAWN_SQUARES };
        }
        Some(idx)
    }

    /// The position at `idx` in slot order, or None when two men share a square.
    #[inline]
    pub fn decode(&self, idx: usize) -> Option<TbPos> {
        let mut p = TbPos {
            stm: if idx & 1 == 0 { Color::White } else { Color::Black },
            n: self.men(),
            piece: [Piece::WhiteKing; MAX_MEN],
            sq: [Square::A1; MAX_MEN],
        };
        p.piece[1] = Piece::BlackKing;
        let mut rest = idx >> 1;
        let wk_digit = rest % self.wk_dim;
        rest /= self.wk_dim;
        p.sq[0] = match self.sym {
            Sym::PawnMirror => Square::from_index(wk_digit as u8),
            _ => Square::new((wk_digit % 4) as u8, (wk_digit / 4) as u8),
        };
        p.sq[1] = Square::from_index((rest % 64) as u8);
        rest /= 64;
        let mut seen = (1u64 << p.sq[0] as u8) | (1u64 << p.sq[1] as u8);
        if p.sq[0] == p.sq[1] {
            return None;
        }
        for (k, &piece) in self.slots.iter().enumerate() {
            let i = 2 + k;
            p.piece[i] = piece;
            let s = if k < self.nonpawns {
                let s = Square::from_index((rest % 64) as u8);
                rest /= 64;
                s
            } else {
                let first = k == self.nonpawns;
                let dim = if first { PAWN_SQUARES / 2 } else { PAWN_SQUARES };
                let d = rest % dim;
                rest /= dim;
                let width = if first { 4 } else { 8 };
                let rel = (d / width + 2) as u8;
                let rank = if piece.color() == Color::White { rel } else { 7 - rel };
                Square::new((d % width) as u8, rank)
            };
            if seen >> s as u8 & 1 != 0 {
                return None;
            }
            seen |= 1 << s as u8;
            p.sq[i] = s;
        }
        Some(p)
    }

    /// The pawn configuration (slice) an index lies in.
    #[inline]
    pub fn slice_of(&self, idx: usize) -> usize {
        idx / self.slice_size
    }

    /// How far the pawns of a slice have advanced, summed over them: every pawn move goes
    /// from a slice to one exactly one step further.
    pub fn advancement(&self, slice: usize) -> u32 {
        let mut adv = 0;
        let mut rest = slice;
        for k in 0..self.slots.len() - self.nonpawns {
            let (dim, width) = if k == 0 { (PAWN_SQUARES / 2, 4) } else { (PAWN_SQUARES, 8) };
            adv += (rest % dim / width) as u32 + 2;
            rest /= dim;
        }
        adv
    }

    /// Puts the men of a legal position (kings in slots 0 and 1, others in any order, any
    /// colours) into this layout's slot order, exchanging colours if `flip`; None if the
    /// men do not match the layout.
    pub fn arrange(&self, p: &TbPos, flip: bool) -> Option<TbPos> {
        let src = if flip { p.color_flipped() } else { *p };
        if src.n != self.men() {
            return None;
        }
        let mut out = src;
        let mut used = [false; MAX_MEN];
        for (k, &piece) in self.slots.iter().enumerate() {
            let j = (2..src.n).find(|&j| !used[j] && src.piece[j] == piece)?;
            used[j] = true;
            out.piece[2 + k] = piece;
            out.sq[2 + k] = src.sq[j];
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_and_encode_agree() {
        for name in ["KRvK", "KSvKP", "KPPvK", "KRNvK", "KPvKP", "KNvKN"] {
            let (m, _) = Material::parse(name).unwrap().canonical();
            let l = Layout::new(m);
            let mut checked = 0;
            for idx in (0..l.size).step_by((l.size / 997).max(1) | 1) {
                if let Some(p) = l.decode(idx) {
                    assert_eq!(l.encode(&p), Some(idx), "{name} {idx}");
                    // The mirror image (and for Quadrant the upside-down one) maps here too.
                    assert_eq!(l.encode(&p.mirrored()), Some(idx), "{name} mirrored");
                    checked += 1;
                }
            }
            assert!(checked > 50, "{name}");
        }
    }

    #[test]
    fn table_sizes() {
        let size = |n: &str| Layout::new(Material::parse(n).unwrap()).size;
        assert_eq!(size("KRvK"), 2 * 16 * 64 * 64);
        assert_eq!(size("KSvK"), 2 * 32 * 64 * 64);
        assert_eq!(size("KPvK"), 2 * 64 * 64 * 24);
        assert_eq!(size("KRSvK"), 2 * 32 * 64 * 64 * 64);
        assert_eq!(size("KPPvK"), 2 * 64 * 64 * 24 * 48);
    }
}
