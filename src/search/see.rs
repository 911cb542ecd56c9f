//! Static exchange evaluation: does a move win at least a given amount of material once
//! both sides have traded off on its destination square, cheapest attacker first?

use crate::board::Move;
use crate::board::{Bitboard, MoveKind, PieceType, Position, attacks};

/// Piece values for exchanges, in centipawns (king: effectively infinite).
pub const SEE_VALUE: [i32; 6] = [100, 320, 300, 230, 560, 20_000];

/// Attackers tried cheapest first.
const BY_VALUE: [PieceType; 6] =
    [PieceType::Pawn, PieceType::Met, PieceType::Khon, PieceType::Knight, PieceType::Rook, PieceType::King];

/// Value of what `m` captures (0 for non-captures).
#[inline(always)]
pub fn captured_value(pos: &Position, m: Move) -> i32 {
    if m.kind() != MoveKind::Normal {
        return 0;
    }
    pos.piece_on(m.to()).map_or(0, |p| SEE_VALUE[p.kind().index()])
}

/// Whether the exchange `m` starts gains at least `threshold` for the side to move.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let us = pos.side_to_move();
    let to = m.to();
    let mut occ = pos.occupied();
    let (piece, gain) = match m.kind() {
        MoveKind::Drop => {
            occ |= to;
            (m.drop_piece(), 0)
        }
        MoveKind::Promotion => {
            occ = (occ - Bitboard::from_square(m.from())) | to;
            (PieceType::Met, 0)
        }
        MoveKind::Normal => {
            let Some(p) = pos.piece_on(m.from()) else { return false };
            occ -= Bitboard::from_square(m.from());
            (p.kind(), captured_value(pos, m))
        }
    };
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[piece.index()] - swap;
    if swap <= 0 {
        return true;
    }
    let rooks = pos.pieces_of_type(PieceType::Rook);
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let mut stm = us;
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let ours = attackers & pos.pieces_of_color(stm);
        if ours.is_empty() {
            break;
        }
        res = !res;
        let Some(pt) = BY_VALUE.iter().copied().find(|&pt| (ours & pos.pieces_of_type(pt)).any()) else {
            break;
        };
        if pt == PieceType::King {
            // The king may take only if the square is no longer defended.
            return if (attackers & pos.pieces_of_color(!stm)).any() { !res } else { res };
        }
        swap = SEE_VALUE[pt.index()] - swap;
        if swap < res as i32 {
            break;
        }
        occ -= Bitboard::from_square((ours & pos.pieces_of_type(pt)).lsb());
        // Removing a piece can uncover a rook behind it on the same line.
        attackers |= attacks::rook(to, occ) & rooks;
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, t: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci_move(mv).unwrap();
        see_ge(&pos, m, t)
    }

    #[test]
    fn free_capture_wins_the_piece() {
        // White rook takes an undefended black knight.
        assert!(see("4k3/8/8/3n4/8/8/8/3RK3[] w - - 0 40", "d1d5", 320));
        assert!(!see("4k3/8/8/3n4/8/8/8/3RK3[] w - - 0 40", "d1d5", 321));
    }

    #[test]
    fn defended_piece_costs_the_rook() {
        // The knight is defended by a pawn: rook for knight loses 240.
        assert!(see("4k3/8/4p3/3n4/8/8/8/3RK3[] w - - 0 40", "d1d5", -240));
        assert!(!see("4k3/8/4p3/3n4/8/8/8/3RK3[] w - - 0 40", "d1d5", 0));
    }

    #[test]
    fn x_ray_rook_recaptures() {
        // Two white rooks on the d-file against a knight defended by one rook.
        assert!(see("3rk3/8/8/3n4/8/8/3R4/3RK3[] w - - 0 40", "d2d5", 320));
    }

    #[test]
    fn drop_onto_an_attacked_square_loses_the_piece() {
        let fen = "4k3/8/8/8/8/4p3/8/K7[N] w - - 0 20";
        assert!(!see(fen, "N@d2", 0));
        assert!(see(fen, "N@d2", -320));
        assert!(see(fen, "N@a2", 0));
    }
}
