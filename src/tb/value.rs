//! The one-byte values a table stores, and the arithmetic of the clocks that decides
//! whether a stored win is still a win.
//!
//! A value is for the side to move. In a bare-king table the distance is to mate (DTM,
//! plies); elsewhere it is to the next move that restarts the 50-move clock into a
//! position won for the same side with a fresh clock, or to mate if that comes first
//! (DTZ, plies). No budget the rules allow exceeds the 50-move rule's plies (every count
//! that could outlast it is cut by it), so longer distances are kept only as "won (lost)
//! beyond the clocks", which plays as a draw.

use crate::board::sittuyin::FIFTY_MOVE_PLIES;

/// Distances stored exactly: 0 to this many plies, the longest budget the clocks allow.
pub const MAX_DISTANCE: u16 = FIFTY_MOVE_PLIES as u16;
/// The first loss byte: a loss in `d` plies is stored as `LOSS_BYTE + d`, after the wins.
const LOSS_BYTE: u8 = MAX_DISTANCE as u8 + 1;
/// The byte of a win beyond `MAX_DISTANCE`, after the losses.
const WIN_BEYOND_BYTE: u8 = LOSS_BYTE + MAX_DISTANCE as u8 + 1;
/// The byte of a loss beyond `MAX_DISTANCE`.
const LOSS_BEYOND_BYTE: u8 = WIN_BEYOND_BYTE + 1;
/// The byte of an index no legal position has.
const INVALID_BYTE: u8 = 255;
// Every value must fit in one byte below the invalid marker.
const _: () = assert!(2 * MAX_DISTANCE as u32 + 3 < INVALID_BYTE as u32);
/// The distance given to a win or loss stored as beyond `MAX_DISTANCE`.
pub const BEYOND: u16 = 1000;

/// A table entry, for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stored {
    /// Neither side can force a win.
    Draw,
    /// The side to move wins; the distance in plies (`BEYOND` when above `MAX_DISTANCE`).
    Win(u16),
    /// The side to move loses; the distance in plies (`BEYOND` when above `MAX_DISTANCE`).
    Loss(u16),
    /// No legal position has this index (two men on a square, the side not to move in check).
    Invalid,
}

impl Stored {
    /// The byte written to the file.
    pub fn to_byte(self) -> u8 {
        match self {
            Stored::Draw => 0,
            Stored::Win(d) if (1..=MAX_DISTANCE).contains(&d) => d as u8,
            Stored::Win(_) => WIN_BEYOND_BYTE,
            Stored::Loss(d) if d <= MAX_DISTANCE => LOSS_BYTE + d as u8,
            Stored::Loss(_) => LOSS_BEYOND_BYTE,
            Stored::Invalid => INVALID_BYTE,
        }
    }

    /// The entry a byte stands for; bytes no writer produces read as None.
    pub fn from_byte(b: u8) -> Option<Stored> {
        Some(match b {
            0 => Stored::Draw,
            WIN_BEYOND_BYTE => Stored::Win(BEYOND),
            LOSS_BEYOND_BYTE => Stored::Loss(BEYOND),
            INVALID_BYTE => Stored::Invalid,
            _ if b < LOSS_BYTE => Stored::Win(b as u16),
            _ if b < WIN_BEYOND_BYTE => Stored::Loss((b - LOSS_BYTE) as u16),
            _ => return None,
        })
    }

    /// The same entry from the other side's point of view one ply earlier: the move that
    /// leads here wins (loses) in one ply more.
    pub fn for_mover(self) -> Stored {
        match self {
            Stored::Win(d) => Stored::Loss(d.saturating_add(1).min(BEYOND)),
            Stored::Loss(d) => Stored::Win(d.saturating_add(1).min(BEYOND)),
            other => other,
        }
    }
}

/// The clocks as a position holds them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clocks {
    /// Plies since the last capture, pawn move or promotion.
    pub rule50: u32,
    /// The running count: (limit, plies counted), or None.
    pub count: Option<(u32, u32)>,
}

/// Plies within which a mate must land in a bare-king ending: a mate in `d` plies wins
/// iff `d` is at most this. Every position before the mate must be inside both limits
/// (count at most its limit, 50-move clock below its limit); the mating move itself may pass
/// them. `material_limit` is the limit the strong side's men would start, for a count
/// that has not started yet: it starts after the strong side's next move.
pub fn bare_king_budget(clocks: Clocks, material_limit: u32, bare_to_move: bool) -> u32 {
    let by_fifty = FIFTY_MOVE_PLIES.saturating_sub(clocks.rule50);
    let by_count = match clocks.count {
        Some((limit, ply)) => (limit + 1).saturating_sub(ply),
        None if material_limit == 0 => u32::MAX,
        // The strong side to move starts the count with its move (ply 0 one ply from now);
        // the bare side to move first, one ply later.
        None if bare_to_move => material_limit + 3,
        None => material_limit + 2,
    };
    by_fifty.min(by_count)
}

/// Plies within which the next zeroing move (or mate) must come elsewhere: `d` wins iff
/// it is at most this.
pub fn fifty_move_budget(rule50: u32) -> u32 {
    FIFTY_MOVE_PLIES.saturating_sub(rule50)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        for b in 0..=255u8 {
            if let Some(s) = Stored::from_byte(b) {
                assert_eq!(s.to_byte(), b);
            }
        }
        assert_eq!(Stored::Win(150).to_byte(), Stored::Win(BEYOND).to_byte());
        // The bytes the table files hold: wins 1-100, losses 101-201, then the two beyonds.
        assert_eq!(Stored::Loss(0).to_byte(), 101);
        assert_eq!(Stored::Loss(100).to_byte(), 201);
        assert_eq!((Stored::Win(BEYOND).to_byte(), Stored::Loss(BEYOND).to_byte()), (202, 203));
        assert_eq!((Stored::from_byte(204), Stored::from_byte(254)), (None, None));
    }

    #[test]
    fn budgets_follow_the_examples_of_the_rules() {
        // docs/rules.md: `6k1/8/6K1/8/8/8/8/R7[] w - 32 31 60`: a1a8 mates (1 ply) in time,
        // a mate in 3 does not; from count 32 a mate in 1 still counts.
        let c = |limit, ply| Clocks { rule50: 0, count: Some((limit, ply)) };
        assert_eq!(bare_king_budget(c(32, 31), 32, false), 2);
        assert_eq!(bare_king_budget(c(32, 32), 32, false), 1);
        // 50-move clock at 99: mate in one still wins.
        assert_eq!(bare_king_budget(Clocks { rule50: 99, count: None }, 0, false), 1);
        assert_eq!(fifty_move_budget(99), 1);
        // The capture that bares the king starts both clocks: a knight's count is cut by the
        // 50-move rule, a rook's is not.
        assert_eq!(bare_king_budget(c(128, 0), 128, true), 100);
        assert_eq!(bare_king_budget(c(32, 0), 32, true), 33);
    }
}
