//! Correction history: how far the search's results have strayed from the static
//! evaluation in positions of the same pawn structure, and of the same pieces of each side,
//! learnt as the search goes and added to the static evaluation before it prunes.
//!
//! An evaluation that misjudges a kind of position (a blocked pawn chain, an ending the net
//! rates too high) does so in every node of that kind; once a few searches have shown it,
//! the error is taken out of the estimate that futility, razoring and reverse futility
//! pruning trust. Scores the search returns are never changed, only the static guess.

use crate::board::{Bitboard, Color, PieceType, Position};

/// Entries per table and side to move (a power of two).
const ENTRIES: usize = 1 << 14;
/// An entry holds centipawns times GRAIN.
const GRAIN: i32 = 256;
/// No entry corrects by more than 64 centipawns.
const MAX_ENTRY: i32 = 64 * GRAIN;
/// Weights of a new result are out of this.
const WEIGHT_SCALE: i32 = 256;

/// The keys of a position's kinds: its pawns, and each side's other pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    pawns: u64,
    pieces: [u64; 2],
}

impl Keys {
    /// The keys of `pos`, hashed from its bitboards (cheaper than keeping them up to date
    /// move by move, and needed only where the search evaluates). Each bitboard is
    /// multiplied by its own odd constant and the products summed: the table index is the
    /// sum's top bits, which every bit of every bitboard reaches. It runs at every node
    /// that evaluates, so it is a few multiplications, not a full mix per bitboard.
    #[inline]
    pub fn of(pos: &Position) -> Keys {
        const K: [[u64; 6]; 2] = [
            [
                0x9e37_79b9_7f4a_7c15,
                0xc2b2_ae3d_27d4_eb4f,
                0x1656_67b1_9e37_79f9,
                0x27d4_eb2f_1656_67c5,
                0x85eb_ca77_c2b2_ae63,
                0xff51_afd7_ed55_8ccd,
            ],
            [
                0xc4ce_b9fe_1a85_ec53,
                0xbf58_476d_1ce4_e5b9,
                0x94d0_49bb_1331_11eb,
                0xd6e8_feb8_6659_fd93,
                0xa076_1d64_78bd_642f,
                0xe703_7ed1_a0b4_28db,
            ],
        ];
        let bb = |c: Color, pt: PieceType| -> u64 {
            let Bitboard(b) = pos.pieces(c, pt);
            b
        };
        let product = |c: Color, pt: PieceType| bb(c, pt).wrapping_mul(K[c.index()][pt.index()]);
        let pawns = product(Color::White, PieceType::Pawn).wrapping_add(product(Color::Black, PieceType::Pawn));
        let pieces = Color::ALL.map(|c| {
            [PieceType::Knight, PieceType::Khon, PieceType::Met, PieceType::Rook, PieceType::King]
                .iter()
                .fold(0u64, |h, &pt| h.wrapping_add(product(c, pt)))
        });
        Keys { pawns, pieces }
    }
}

/// One thread's correction tables.
pub struct CorrectionHistory {
    /// [side to move][pawn key]
    pawns: Vec<[i16; ENTRIES]>,
    /// [side to move][colour of the pieces][that colour's piece key]
    pieces: Vec<[[i16; ENTRIES]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory { pawns: vec![[0; ENTRIES]; 2], pieces: vec![[[0; ENTRIES]; 2]; 2] }
    }
}

#[inline(always)]
fn index(key: u64) -> usize {
    (key >> 50) as usize & (ENTRIES - 1)
}

impl CorrectionHistory {
    /// The correction for a position of these keys with `stm` to move, in centipawns:
    /// the pawn table's entry and the two piece tables' entries, each weighted out of 256.
    #[inline]
    pub fn correction(&self, stm: Color, keys: &Keys, pawn_weight: i32, piece_weight: i32) -> i32 {
        let s = stm.index();
        let pawn = self.pawns[s][index(keys.pawns)] as i32;
        let pieces: i32 =
            Color::ALL.iter().map(|c| self.pieces[s][c.index()][index(keys.pieces[c.index()])] as i32).sum();
        (pawn * pawn_weight + pieces * piece_weight) / (GRAIN * 256)
    }

    /// Moves the entries toward `diff` (the search's result minus the static evaluation,
    /// in centipawns), the more the deeper the search that found it.
    #[inline]
    pub fn update(&mut self, stm: Color, keys: &Keys, diff: i32, depth: i32) {
        let s = stm.index();
        let target = (diff * GRAIN).clamp(-MAX_ENTRY, MAX_ENTRY);
        let weight = (depth + 1).clamp(1, 16);
        let blend = |e: &mut i16| {
            let v = (*e as i32 * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            *e = v.clamp(-MAX_ENTRY, MAX_ENTRY) as i16;
        };
        blend(&mut self.pawns[s][index(keys.pawns)]);
        for c in Color::ALL {
            blend(&mut self.pieces[s][c.index()][index(keys.pieces[c.index()])]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_learn_the_error_and_stay_bounded() {
        let pos = Position::from_fen("8/8/4k3/3p4/3P4/4K3/8/R7[] w - - 0 60").unwrap();
        let keys = Keys::of(&pos);
        let mut ch = CorrectionHistory::default();
        assert_eq!(ch.correction(Color::White, &keys, 256, 128), 0);
        for _ in 0..200 {
            ch.update(Color::White, &keys, 40, 12);
        }
        // The pawn table alone, at full weight, converges on the error.
        let pawn_only = ch.correction(Color::White, &keys, 256, 0);
        assert!((38..=40).contains(&pawn_only), "{pawn_only}");
        // The other side to move has learnt nothing.
        assert_eq!(ch.correction(Color::Black, &keys, 256, 128), 0);
        for _ in 0..500 {
            ch.update(Color::White, &keys, -10_000, 20);
        }
        // A huge error is capped at 64 cp a table (approached from inside: the blend rounds
        // toward zero).
        assert!((-64..=-62).contains(&ch.correction(Color::White, &keys, 256, 0)));
        // The two piece tables at half weight add about as much again.
        assert!((-128..=-124).contains(&ch.correction(Color::White, &keys, 256, 128)));
    }

    #[test]
    fn keys_follow_the_pieces_they_name() {
        let a = Keys::of(&Position::from_fen("8/8/4k3/3p4/3P4/4K3/8/R7[] w - - 0 60").unwrap());
        // Same pawns, White's rook elsewhere: the pawn key and Black's key stay.
        let b = Keys::of(&Position::from_fen("8/8/4k3/3p4/3P4/4K3/8/1R6[] w - - 0 60").unwrap());
        assert_eq!(a.pawns, b.pawns);
        assert_eq!(a.pieces[Color::Black.index()], b.pieces[Color::Black.index()]);
        assert_ne!(a.pieces[Color::White.index()], b.pieces[Color::White.index()]);
        // A pawn moved: only the pawn key changes.
        let c = Keys::of(&Position::from_fen("8/8/4k3/3p4/8/3PK3/8/R7[] w - - 0 60").unwrap());
        assert_ne!(a.pawns, c.pawns);
        assert_eq!(a.pieces, c.pieces);
    }
}
