//! The network's inputs: which features a position switches on, from each side's view.
//!
//! Each perspective sees the board from its own side: White's view is the board as it is,
//! Black's is the board **rotated** half a turn (square index xor 63), not mirrored top to
//! bottom. Sittuyin's two pawn formations are rotations of each other (a3-d3/e4-h4 against
//! e6-h6/a5-d5), so only a rotation shows the net one structure where a mirror would show
//! it two. Colours are relative too: "ours" is the perspective's own side.
//!
//! Per perspective there are:
//! - 768 board inputs: (relative colour, piece type, relative square), 2 x 6 x 64;
//! - 16 hand inputs: for each relative colour, a thermometer of the pieces in hand (king 1,
//!   met 1, rook 2, khon 2, knight 2): input (colour, type, k) is on while at least k such
//!   pieces are in hand. A thermometer keeps a drop a one-input change: the hand loses its
//!   top input.

use crate::board::{Color, Piece, PieceType, Position, Square};

/// Board inputs per perspective.
pub const BOARD_INPUTS: usize = 2 * 6 * 64;

/// The most pieces of each type one side can hold in hand (pawns never are).
pub const HAND_MAX: [u8; 6] = [0, 2, 2, 1, 2, 1];

/// Where each type's thermometer starts within one colour's hand inputs.
const HAND_OFFSET: [usize; 6] = [0, 0, 2, 4, 5, 7];

/// Hand inputs of one colour.
pub const HAND_INPUTS_PER_COLOR: usize = 8;

/// All inputs per perspective.
pub const INPUTS: usize = BOARD_INPUTS + 2 * HAND_INPUTS_PER_COLOR;

/// The square as `perspective` sees it.
#[inline(always)]
pub const fn relative_square(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 63,
    }
}

/// 0 for the perspective's own pieces, 1 for the other side's.
#[inline(always)]
const fn relative_color(perspective: Color, c: Color) -> usize {
    (perspective as usize) ^ (c as usize)
}

/// The board input of `piece` on `sq`, seen from `perspective`.
#[inline(always)]
pub const fn board_feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    (relative_color(perspective, piece.color()) * 6 + piece.kind() as usize) * 64 + relative_square(perspective, sq)
}

/// The hand input that is on while `c` holds at least `k` (1-based) pieces of type `pt`.
#[inline(always)]
pub fn hand_feature(perspective: Color, c: Color, pt: PieceType, k: u8) -> usize {
    debug_assert!(k >= 1 && k <= HAND_MAX[pt.index()], "{pt:?} x{k} cannot be in hand");
    BOARD_INPUTS + relative_color(perspective, c) * HAND_INPUTS_PER_COLOR + HAND_OFFSET[pt.index()] + k as usize - 1
}

/// Calls `f` with every input that is on, from `perspective`, for a board given as pieces
/// and squares and hands given as counts (`hands[colour][piece type]`). The trainer calls it
/// on packed records, the engine on a `Position`.
#[inline]
pub fn for_each_feature(
    perspective: Color,
    board: impl Iterator<Item = (Square, Piece)>,
    hands: &[[u8; 6]; 2],
    mut f: impl FnMut(usize),
) {
    for (sq, piece) in board {
        f(board_feature(perspective, piece, sq));
    }
    for c in Color::ALL {
        for pt in PieceType::ALL {
            for k in 1..=hands[c.index()][pt.index()].min(HAND_MAX[pt.index()]) {
                f(hand_feature(perspective, c, pt, k));
            }
        }
    }
}

/// The pieces in both hands of `pos`, as `for_each_feature` takes them.
pub fn hands_of(pos: &Position) -> [[u8; 6]; 2] {
    let mut hands = [[0u8; 6]; 2];
    for c in Color::ALL {
        for pt in PieceType::ALL {
            hands[c.index()][pt.index()] = pos.hand_count(c, pt);
        }
    }
    hands
}

/// Every input of `pos` that is on, from `perspective`.
pub fn position_features(pos: &Position, perspective: Color, f: impl FnMut(usize)) {
    let board = pos.occupied().map(|sq| (sq, pos.piece_on(sq).expect("an occupied square holds a piece")));
    for_each_feature(perspective, board, &hands_of(pos), f);
}

/// Pieces other than kings, on the board and in hand: what output buckets are chosen by.
pub fn material_count(board_pieces: u32, hands: &[[u8; 6]; 2], kings_on_board: u32) -> u32 {
    let in_hand: u32 = hands.iter().flat_map(|h| h[..5].iter()).map(|&n| n as u32).sum();
    board_pieces - kings_on_board + in_hand
}

/// The output bucket for `material` non-king pieces (at most 30) out of `buckets`.
#[inline(always)]
pub fn output_bucket(material: u32, buckets: usize) -> usize {
    ((material as usize * buckets) / 31).min(buckets - 1)
}

/// The output bucket of `pos`.
pub fn position_bucket(pos: &Position, buckets: usize) -> usize {
    let kings = pos.pieces_of_type(PieceType::King).count();
    output_bucket(material_count(pos.occupied().count(), &hands_of(pos), kings), buckets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn inputs_are_distinct_and_in_range() {
        let mut seen = vec![false; INPUTS];
        for p in Color::ALL {
            seen.iter_mut().for_each(|s| *s = false);
            for piece in Piece::ALL {
                for i in 0..64u8 {
                    let f = board_feature(p, piece, Square::from_index(i));
                    assert!(f < BOARD_INPUTS && !seen[f]);
                    seen[f] = true;
                }
            }
            for c in Color::ALL {
                for pt in PieceType::ALL {
                    for k in 1..=HAND_MAX[pt.index()] {
                        let f = hand_feature(p, c, pt, k);
                        assert!((BOARD_INPUTS..INPUTS).contains(&f) && !seen[f], "{c:?} {pt:?} {k}");
                        seen[f] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "every input is reachable");
        }
    }

    /// The colour-swapped rotation of a position switches on the same inputs, with the two
    /// perspectives exchanged.
    #[test]
    fn rotation_swaps_the_perspectives() {
        let mut rng = Rng::new(7);
        for _ in 0..200 {
            let mut pos = Position::startpos();
            let plies = rng.range(0, 80);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.do_move(moves.as_slice()[rng.index(moves.len())]);
            }
            let board: Vec<(Square, Piece)> = pos.occupied().map(|sq| (sq, pos.piece_on(sq).unwrap())).collect();
            let rotated: Vec<(Square, Piece)> = board
                .iter()
                .map(|&(sq, p)| (Square::from_index(sq as u8 ^ 63), Piece::new(!p.color(), p.kind())))
                .collect();
            let hands = hands_of(&pos);
            let swapped = [hands[1], hands[0]];
            for p in Color::ALL {
                let mut a = Vec::new();
                let mut b = Vec::new();
                for_each_feature(p, board.iter().copied(), &hands, |f| a.push(f));
                for_each_feature(!p, rotated.iter().copied(), &swapped, |f| b.push(f));
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn the_start_position_has_full_hands() {
        let pos = Position::startpos();
        let mut n = 0;
        position_features(&pos, Color::White, |f| {
            assert!(f >= BOARD_INPUTS || pos.piece_on(Square::from_index((f % 64) as u8)).is_some());
            n += 1;
        });
        // 16 pawns on the board and 8 pieces in each hand.
        assert_eq!(n, 16 + 2 * HAND_INPUTS_PER_COLOR);
        assert_eq!(position_bucket(&pos, 8), 7);
    }
}
