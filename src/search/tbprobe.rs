//! The search's use of the endgame tablebases: the score of a probed node, and the root
//! moves that keep the tables' result.
//!
//! A probed node returns at once and stores nothing in the transposition table: its score
//! depends on the count and the 50-move clock, which the table's key does not hold.

use super::{MATE_BOUND, MAX_PLY, mate_in, mated_in};
use crate::board::{Move, Position};
use crate::tb::value::MAX_DISTANCE;
use crate::tb::{Probe, Tablebases, Wdl};

/// A win the tables prove where no mate score fits (a DTZ table, or a mate beyond the
/// search's plies): below every mate score and above every evaluation.
pub const VALUE_TB_WIN: i32 = MATE_BOUND - 1 - 2 * MAX_PLY as i32;

/// The lowest score a tablebase win can have: the win's distance and the probe's ply both
/// come off `VALUE_TB_WIN`. Scores at or beyond it (mates too) count from the node they
/// belong to, not from the root, so the table shifts them by ply like mates.
pub const TB_BOUND: i32 = VALUE_TB_WIN - (MAX_PLY + MAX_DISTANCE as usize) as i32;
// A corrected evaluation must never pass for a tablebase win.
const _: () = assert!(TB_BOUND > crate::eval::EVAL_LIMIT + 4_000);

/// The score of a probed node at `ply` for the side to move: mate in the stored distance
/// where it is a distance to mate, else a tablebase win less ply and distance (a nearer
/// win scores higher); 0 for a draw, the clocks included.
pub fn value(p: &Probe, ply: usize) -> i32 {
    let d = p.distance() as usize;
    match p.wdl {
        Wdl::Draw => 0,
        Wdl::Win if p.dtm && ply + d < MAX_PLY => mate_in(ply + d),
        Wdl::Loss if p.dtm && ply + d < MAX_PLY => mated_in(ply + d),
        Wdl::Win => VALUE_TB_WIN - (ply + d) as i32,
        Wdl::Loss => -VALUE_TB_WIN + (ply + d) as i32,
    }
}

/// Narrows `root` to the moves the tables rank best: the fastest win within the clocks,
/// else every drawing move, else the longest loss. False (and `root` untouched) when the
/// position is not in the tables.
pub fn filter_root(tb: &Tablebases, pos: &Position, root: &mut Vec<Move>) -> bool {
    if pos.occupied().count() > 4 || pos.in_setup() {
        return false;
    }
    let mut p = pos.clone();
    let Some(ranked) = tb.rank_moves(&mut p) else {
        return false;
    };
    let ranked: Vec<_> = ranked.into_iter().filter(|r| root.contains(&r.mv)).collect();
    let Some(best) = ranked.first().copied() else {
        return false;
    };
    *root = ranked
        .iter()
        .filter(|r| r.wdl == best.wdl && (best.wdl == Wdl::Draw || r.distance == best.distance))
        .map(|r| r.mv)
        .collect();
    true
}
