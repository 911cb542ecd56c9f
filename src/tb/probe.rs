//! Probing a real position: the stored value, weighed against the clocks the position
//! carries (the count and the 50-move clock, which no table index holds).

use super::pos::TbPos;
use super::registry::Tablebases;
use super::value::{self, Clocks, Stored};
use crate::board::{Color, Move, PieceType, Position};

/// The game-theoretic result for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses (is mated within the clocks).
    Loss,
    /// Neither side can force mate within the clocks.
    Draw,
    /// The side to move mates within the clocks.
    Win,
}

/// What the tables say about a position with its clocks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Probe {
    /// The result under the rules, clocks included.
    pub wdl: Wdl,
    /// The stored entry (its distance counts plies; its result ignores the clocks).
    pub stored: Stored,
    /// Whether the distance is to mate (bare-king tables) or to the next zeroing move.
    pub dtm: bool,
    /// Plies the clocks leave: a stored win or loss counts only within this.
    pub budget: u32,
}

impl Probe {
    /// The stored distance in plies (0 for a draw).
    pub fn distance(&self) -> u16 {
        match self.stored {
            Stored::Win(d) | Stored::Loss(d) => d,
            _ => 0,
        }
    }
}

/// One root move and what it leads to, from the mover's side.
#[derive(Clone, Copy, Debug)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// The result for the side making it.
    pub wdl: Wdl,
    /// Plies to mate (or to zeroing, in a DTZ table) counted from before the move.
    pub distance: u32,
    /// The stored entry after the move, from the mover's side and one ply longer: what
    /// the move is worth with the clocks left aside.
    pub stored: Stored,
}

impl RankedMove {
    /// Best first: wins soonest, then draws, then losses latest.
    fn order_key(&self) -> (i32, i64) {
        match self.wdl {
            Wdl::Win => (2, -(self.distance as i64)),
            Wdl::Draw => (1, 0),
            Wdl::Loss => (0, self.distance as i64),
        }
    }
}

impl Tablebases {
    /// The tables' verdict on `pos` with its clocks, or None when it is not covered: other
    /// rules than the tables', more than four men, men in hand, a missing table, or a count
    /// running where no king is bare (which no game reaches).
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        if *pos.rules() != *self.rules() {
            return None;
        }
        let p = TbPos::from_position(pos)?;
        let entry = self.lookup(&p)?;
        let count = (pos.counting_limit() != 0).then(|| (pos.counting_limit(), pos.counting_ply()));
        let clocks = Clocks { rule50: pos.rule50(), count };
        let budget = if entry.dtm {
            let bare = if pos.is_bare(Color::White) { Color::White } else { Color::Black };
            let strong = !bare;
            let limit = super::counting_limit(self.rules(), |pt| pos.pieces(strong, pt).any());
            value::bare_king_budget(clocks, limit, pos.side_to_move() == bare)
        } else {
            if count.is_some() {
                return None;
            }
            value::fifty_move_budget(clocks.rule50)
        };
        let wdl = match entry.stored {
            Stored::Win(d) if d as u32 <= budget => Wdl::Win,
            Stored::Loss(d) if d as u32 <= budget => Wdl::Loss,
            Stored::Invalid => return None,
            _ => Wdl::Draw,
        };
        Some(Probe { wdl, stored: entry.stored, dtm: entry.dtm, budget })
    }

    /// Every legal move of `pos` ranked by the tables, best first; None when `pos` or a
    /// position after one of its moves is not covered.
    pub fn rank_moves(&self, pos: &mut Position) -> Option<Vec<RankedMove>> {
        let root = self.probe(pos)?;
        let mut out = Vec::new();
        for mv in pos.legal_moves().iter().copied() {
            let zeroing = pos.is_capture(mv) || mv.is_promotion() || {
                pos.piece_on(mv.from()).is_some_and(|p| p.kind() == PieceType::Pawn)
            };
            pos.do_move(mv);
            let child = self.probe(pos);
            pos.undo_move();
            let child = child?;
            let wdl = match child.wdl {
                Wdl::Win => Wdl::Loss,
                Wdl::Loss => Wdl::Win,
                Wdl::Draw => Wdl::Draw,
            };
            // In a DTZ table a zeroing move is itself the event the distance counts to.
            let distance = if !root.dtm && zeroing { 1 } else { child.distance() as u32 + 1 };
            out.push(RankedMove { mv, wdl, distance, stored: child.stored.for_mover() });
        }
        out.sort_by_key(|r| std::cmp::Reverse(r.order_key()));
        Some(out)
    }
}
