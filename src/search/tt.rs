//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two atomic words: the data, and the key xor-ed with the data. A reader
//! accepts an entry only if `stored_key ^ data == key`, so an entry torn by two threads
//! writing at once is seen as a miss rather than as wrong data. Moves read from the table
//! are re-checked for legality by the search before they are played.

use super::tbprobe::TB_BOUND;
use crate::board::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// No information (empty entry).
    None = 0,
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// An entry read back from the table.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// The best move found, or NONE.
    pub mv: Move,
    /// The score, adjusted to be relative to the probing node (mates and table wins by ply).
    pub score: i32,
    /// The static evaluation stored with it.
    pub eval: i32,
    /// The depth of the search that produced it.
    pub depth: i32,
    /// The kind of bound.
    pub bound: Bound,
    /// Whether the entry was stored from a PV node.
    pub pv: bool,
}

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

const SLOTS: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Cluster {
    slots: [Slot; SLOTS],
}

// data: move 16 | score 16 | eval 16 | depth 8 | pv 1 | bound 2 | age 5
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, age: u8) -> u64 {
    (mv.raw() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth.clamp(-1, 254) + 1) as u64) << 48)
        | ((pv as u64) << 56)
        | ((bound as u64) << 57)
        | (((age & 31) as u64) << 59)
}

fn unpack(data: u64) -> (TtEntry, u8) {
    let bound = match (data >> 57) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    (
        TtEntry {
            mv: Move::from_raw(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xFF) as i32 - 1,
            bound,
            pv: (data >> 56) & 1 != 0,
        },
        ((data >> 59) & 31) as u8,
    )
}

/// The shared transposition table.
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one cluster).
    pub fn new(mb: usize) -> TranspositionTable {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Cluster>()).max(1);
        let mut clusters = Vec::new();
        clusters.resize_with(n, Cluster::default);
        TranspositionTable { clusters, age: AtomicU8::new(0) }
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        for c in self.clusters.iter_mut() {
            *c = Cluster::default();
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become preferred for replacement.
    pub fn new_search(&self) {
        self.age.store(self.age.load(Ordering::Relaxed).wrapping_add(1) & 31, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        // Multiply-shift maps the key onto the table without a division.
        let i = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i]
    }

    /// Looks `key` up; `ply` converts stored mate scores back to this node.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in &self.cluster(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.key.load(Ordering::Relaxed) ^ data == key && data != 0 {
                let (mut e, _) = unpack(data);
                if e.bound == Bound::None {
                    return None;
                }
                e.score = score_from_tt(e.score, ply);
                return Some(e);
            }
        }
        None
    }

    /// Stores a search result for `key`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(&self, key: u64, ply: usize, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) {
        let age = self.age.load(Ordering::Relaxed);
        let cluster = self.cluster(key);
        let mut victim = &cluster.slots[0];
        let mut worst = i32::MAX;
        for slot in &cluster.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let stored = slot.key.load(Ordering::Relaxed) ^ data;
            if stored == key || data == 0 {
                victim = slot;
                break;
            }
            let (e, a) = unpack(data);
            let age_gap = (age.wrapping_sub(a) & 31) as i32;
            let value = e.depth - 8 * age_gap;
            if value < worst {
                worst = value;
                victim = slot;
            }
        }
        let old = victim.data.load(Ordering::Relaxed);
        let same = victim.key.load(Ordering::Relaxed) ^ old == key && old != 0;
        let mut mv = mv;
        if same {
            let (e, a) = unpack(old);
            // Keep a shallower, inexact result from overwriting a deeper one of this search;
            // an earlier search's result gives way, else it would block this search's
            // own results for the position while aging toward eviction.
            if bound != Bound::Exact && depth + 4 < e.depth && !pv && a == age {
                return;
            }
            if mv == Move::NONE {
                mv = e.mv;
            }
        }
        let data = pack(mv, score_to_tt(score, ply), eval, depth, bound, pv, age);
        victim.data.store(data, Ordering::Relaxed);
        victim.key.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = self.clusters.len().min(1000);
        let mut used = 0;
        for c in &self.clusters[..n] {
            for slot in &c.slots {
                let data = slot.data.load(Ordering::Relaxed);
                if data != 0 && unpack(data).1 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * SLOTS)) as u32
    }
}

/// Mate and tablebase scores are stored relative to the node, not to the root: the same
/// position reached at another ply is as many plies from its mate or its table win.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score - ply as i32
    } else if score <= -TB_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn stores_and_reads_back() {
        let tt = TranspositionTable::new(1);
        let m = Move::normal(Square::E2, Square::E3);
        tt.store(0xDEAD_BEEF, 3, m, -123, 45, 7, Bound::Lower, true);
        let e = tt.probe(0xDEAD_BEEF, 3).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound, e.pv), (m, -123, 45, 7, Bound::Lower, true));
        assert!(tt.probe(0xDEAD_BEEE, 3).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let mate_in_5_from_root = super::super::VALUE_MATE - 5;
        tt.store(42, 2, Move::NONE, mate_in_5_from_root, 0, 3, Bound::Exact, false);
        // Reached again 4 plies from the root, the same mate is 2 plies further away.
        assert_eq!(tt.probe(42, 4).unwrap().score, mate_in_5_from_root - 2);
    }

    #[test]
    fn tablebase_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let tb_win_from_root = TB_BOUND + 40;
        tt.store(43, 6, Move::NONE, tb_win_from_root, 0, 3, Bound::Lower, false);
        tt.store(44, 6, Move::NONE, -tb_win_from_root, 0, 3, Bound::Upper, false);
        // Reached 4 plies sooner, the table's win (or loss) is 4 plies nearer.
        assert_eq!(tt.probe(43, 2).unwrap().score, tb_win_from_root + 4);
        assert_eq!(tt.probe(44, 2).unwrap().score, -tb_win_from_root - 4);
        // Evaluations, however large, are the position's own and do not move.
        let big = crate::eval::EVAL_LIMIT - 1;
        tt.store(45, 6, Move::NONE, big, 0, 3, Bound::Exact, false);
        assert_eq!(tt.probe(45, 2).unwrap().score, big);
    }

    #[test]
    fn a_deeper_entry_of_an_earlier_search_gives_way() {
        let tt = TranspositionTable::new(1);
        tt.store(46, 0, Move::NONE, 10, 0, 20, Bound::Lower, false);
        // In the same search a shallow bound leaves the deep one alone...
        tt.store(46, 0, Move::NONE, 30, 0, 5, Bound::Lower, false);
        assert_eq!(tt.probe(46, 0).unwrap().depth, 20);
        // ...but in the next search it replaces it.
        tt.new_search();
        tt.store(46, 0, Move::NONE, 30, 0, 5, Bound::Lower, false);
        let e = tt.probe(46, 0).unwrap();
        assert_eq!((e.depth, e.score), (5, 30));
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(7, 0, Move::NONE, 10, 0, 5, Bound::Exact, false);
        let slot = &tt.cluster(7).slots[0];
        slot.data.store(slot.data.load(Ordering::Relaxed) ^ 1 << 20, Ordering::Relaxed);
        assert!(tt.probe(7, 0).is_none());
    }
}
