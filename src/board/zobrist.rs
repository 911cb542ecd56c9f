//! Zobrist keys, generated at compile time from a fixed seed.

use super::types::{Color, Piece, PieceType, Square};
use crate::rng::Rng;

/// The most pieces of one type a side may hold in hand (the FEN parser enforces it).
pub const MAX_IN_HAND: usize = 32;

struct Keys {
    piece_square: [[u64; 64]; 12],
    hand: [[[u64; MAX_IN_HAND + 1]; 6]; 2],
    side: u64,
}

const fn build() -> Keys {
    let mut keys = Keys { piece_square: [[0; 64]; 12], hand: [[[0; MAX_IN_HAND + 1]; 6]; 2], side: 0 };
    let mut rng = Rng::new(0x5177_0E5E_ED00_0001);
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            keys.piece_square[p][s] = rng.next_u64();
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut pt = 0;
        while pt < 6 {
            // Zero pieces in hand hashes as nothing, so an empty hand adds no key.
            let mut n = 1;
            while n <= MAX_IN_HAND {
                keys.hand[c][pt][n] = rng.next_u64();
                n += 1;
            }
            pt += 1;
        }
        c += 1;
    }
    keys.side = rng.next_u64();
    keys
}

static KEYS: Keys = build();

/// The key of `p` standing on `sq`.
#[inline(always)]
pub fn piece_square(p: Piece, sq: Square) -> u64 {
    KEYS.piece_square[p.index()][sq.index()]
}

/// The key of `c` holding exactly `n` pieces of type `pt` in hand (0 for n = 0).
#[inline(always)]
pub fn hand(c: Color, pt: PieceType, n: u8) -> u64 {
    KEYS.hand[c.index()][pt.index()][(n as usize).min(MAX_IN_HAND)]
}

/// The key toggled when Black is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut seen = HashSet::new();
        for p in Piece::ALL {
            for sq in Square::ALL {
                assert!(seen.insert(piece_square(p, sq)));
            }
        }
        for c in Color::ALL {
            for pt in PieceType::ALL {
                assert_eq!(hand(c, pt, 0), 0);
                for n in 1..=MAX_IN_HAND as u8 {
                    assert!(seen.insert(hand(c, pt, n)));
                }
            }
        }
        assert!(seen.insert(side()));
        assert!(!seen.contains(&0));
    }
}
