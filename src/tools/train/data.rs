//! The training set in memory: per position, the inputs White's view switches on, the side
//! to move, the material (which picks the output bucket), the score and the result.
//!
//! Only White's view is stored; Black's is a fixed relabelling of it (`Mirror`), built once
//! from `features`' own functions so that it cannot drift from what the engine computes.
//! About 60 bytes a position: ten million positions fit in well under a gigabyte.

use crate::board::{Color, Piece, PieceType, Square};
use crate::eval::nnue::features::{self, HAND_MAX, INPUTS};
use crate::rng::mix;

/// Black's input for each of White's, for the same position.
#[derive(Clone, Debug)]
pub struct Mirror {
    to_black: Vec<u16>,
}

impl Mirror {
    /// The relabelling, read off `features::board_feature` and `features::hand_feature`.
    pub fn new() -> Mirror {
        let mut to_black = vec![u16::MAX; INPUTS];
        for piece in Piece::ALL {
            for sq in Square::ALL {
                to_black[features::board_feature(Color::White, piece, sq)] =
                    features::board_feature(Color::Black, piece, sq) as u16;
            }
        }
        for c in Color::ALL {
            for pt in PieceType::ALL {
                for k in 1..=HAND_MAX[pt.index()] {
                    to_black[features::hand_feature(Color::White, c, pt, k)] =
                        features::hand_feature(Color::Black, c, pt, k) as u16;
                }
            }
        }
        assert!(to_black.iter().all(|&f| (f as usize) < INPUTS), "every input has a mirror");
        Mirror { to_black }
    }

    /// Black's input for White's input `f`.
    #[inline(always)]
    pub fn black(&self, f: u16) -> u16 {
        self.to_black[f as usize]
    }
}

impl Default for Mirror {
    fn default() -> Self {
        Mirror::new()
    }
}

/// What a position carries besides its inputs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Meta {
    /// The search score, centipawns, from the side to move's view.
    pub score: i16,
    /// The side to move.
    pub stm: Color,
    /// The game's result for the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// Pieces other than kings, on the board and in hand (`features::material_count`).
    pub material: u8,
    /// Where the 50-move rule or the count drew the game (its target may weigh the result
    /// more: `Objective::rule_draw_lambda`), how far through it the position came, 0 (first
    /// record) to 255 (last; `Objective::rule_draw_ramp` reads it). None for other games.
    pub rule_draw: Option<u8>,
}

impl Meta {
    /// The result as a score for the side to move: 0, 1/2 or 1.
    #[inline(always)]
    pub fn result_score(&self) -> f32 {
        self.result as f32 * 0.5
    }
}

/// Positions as the trainer reads them.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// White's active inputs of every position, one after another.
    features: Vec<u16>,
    /// Where position i's inputs start in `features`; one more entry than positions.
    starts: Vec<u64>,
    meta: Vec<Meta>,
}

impl Dataset {
    /// An empty set.
    pub fn new() -> Dataset {
        Dataset { features: Vec::new(), starts: vec![0], meta: Vec::new() }
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.meta.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.meta.is_empty()
    }

    /// Adds a position given as pieces on squares and hands as counts
    /// (`hands[colour][piece type]`), with its score (centipawns, side to move's view) and
    /// its game's result from White's view (0 Black won, 1 draw, 2 White won), and, where
    /// the 50-move rule or the count drew that game, how far through it the position came
    /// (`Meta::rule_draw`).
    pub fn push(
        &mut self,
        board: impl Iterator<Item = (Square, Piece)> + Clone,
        hands: &[[u8; 6]; 2],
        stm: Color,
        score: i16,
        white_result: u8,
        rule_draw: Option<u8>,
    ) {
        debug_assert!(white_result <= 2);
        let (mut pieces, mut kings) = (0u32, 0u32);
        for (_, p) in board.clone() {
            pieces += 1;
            kings += (p.kind() == PieceType::King) as u32;
        }
        features::for_each_feature(Color::White, board, hands, |f| self.features.push(f as u16));
        self.starts.push(self.features.len() as u64);
        let result = if stm == Color::White { white_result } else { 2 - white_result.min(2) };
        let material = features::material_count(pieces, hands, kings).min(255) as u8;
        self.meta.push(Meta { score, stm, result, material, rule_draw });
    }

    /// Position i's inputs from White's view.
    #[inline(always)]
    pub fn white_features(&self, i: usize) -> &[u16] {
        &self.features[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Position i's score, side to move, result and material.
    #[inline(always)]
    pub fn meta(&self, i: usize) -> &Meta {
        &self.meta[i]
    }

    /// Appends every position of `other`.
    pub fn extend(&mut self, other: &Dataset) {
        let base = self.features.len() as u64;
        self.features.extend_from_slice(&other.features);
        self.starts.extend(other.starts[1..].iter().map(|s| s + base));
        self.meta.extend_from_slice(&other.meta);
    }

    /// A fingerprint of the contents, so a resumed run can tell it is fed the same data.
    pub fn fingerprint(&self) -> u64 {
        let mut h = mix(self.len() as u64);
        for (i, m) in self.meta.iter().enumerate() {
            let mut x = (m.score as u16 as u64) | (m.stm as u64) << 16 | (m.result as u64) << 24;
            x |= (m.material as u64) << 32 | (self.starts[i + 1] - self.starts[i]) << 40;
            // Only for rule-drawn games, so data without them keeps the fingerprint it had
            // before rule draws were stored.
            if let Some(progress) = m.rule_draw {
                x ^= 1 << 63 | (progress as u64) << 48;
            }
            for &f in self.white_features(i) {
                x = mix(x ^ f as u64);
            }
            h = mix(h ^ x);
        }
        h
    }
}

/// Whether game `game` belongs to the validation set: a hash of the id and the seed picks a
/// fixed share of the games, so a game's positions never straddle the split and a run is
/// repeatable.
pub fn is_validation(game: u64, seed: u64, share: f64) -> bool {
    let cut = (share.clamp(0.0, 1.0) * (1u64 << 53) as f64) as u64;
    (mix(game ^ mix(seed ^ 0x05ee_d0f5_a11d)) >> 11) < cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::nnue::features::hands_of;
    use crate::rng::Rng;

    #[test]
    fn the_mirror_gives_blacks_view() {
        let mirror = Mirror::new();
        let mut rng = Rng::new(3);
        for _ in 0..100 {
            let mut pos = Position::startpos();
            for _ in 0..rng.range(0, 100) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.do_move(*rng.pick(moves.as_slice()));
            }
            let board: Vec<(Square, Piece)> = pos.occupied().map(|sq| (sq, pos.piece_on(sq).unwrap())).collect();
            let mut set = Dataset::new();
            set.push(board.iter().copied(), &hands_of(&pos), pos.side_to_move(), 0, 1, None);
            let mut ours: Vec<u16> = set.white_features(0).iter().map(|&f| mirror.black(f)).collect();
            let mut theirs = Vec::new();
            features::position_features(&pos, Color::Black, |f| theirs.push(f as u16));
            ours.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(ours, theirs, "{}", pos.fen());
            assert_eq!(set.meta(0).material as usize, {
                let kings = pos.pieces_of_type(PieceType::King).count();
                features::material_count(pos.occupied().count(), &hands_of(&pos), kings) as usize
            });
        }
    }

    #[test]
    fn results_turn_to_the_side_to_move() {
        let mut set = Dataset::new();
        let hands = [[0; 6]; 2];
        set.push(std::iter::empty(), &hands, Color::White, 10, 2, None);
        set.push(std::iter::empty(), &hands, Color::Black, -10, 2, None);
        set.push(std::iter::empty(), &hands, Color::Black, 0, 1, None);
        assert_eq!([set.meta(0).result, set.meta(1).result, set.meta(2).result], [2, 0, 1]);
        let mut both = set.clone();
        both.extend(&set);
        assert_eq!(both.len(), 6);
        assert_ne!(both.fingerprint(), set.fingerprint());
    }

    #[test]
    fn the_split_holds_out_the_share_asked_for() {
        let held = (0..100_000u64).filter(|&g| is_validation(g, 7, 0.1)).count();
        assert!((9_000..11_000).contains(&held), "{held}");
        assert_eq!((0..1000u64).filter(|&g| is_validation(g, 7, 0.0)).count(), 0);
        let other: Vec<bool> = (0..64u64).map(|g| is_validation(g, 8, 0.5)).collect();
        let this: Vec<bool> = (0..64u64).map(|g| is_validation(g, 7, 0.5)).collect();
        assert_ne!(other, this, "the seed moves the split");
    }
}
