//! Retrograde analysis of one table, by un-moves, on every core (rayon).
//!
//! Each position gets a counter of its *internal* moves (moves that stay in this table and,
//! in a DTZ table, restart no clock) and the best of its other moves, its *exits*, whose
//! values come from finished tables: in a DTM table a capture's value is the smaller
//! table's distance to mate plus one (the count runs on); in a DTZ table a zeroing move
//! wins (loses) in one ply if the position after it is won (lost) with fresh clocks.
//! Then, level by level (distance 0, 1, 2, ...), a position lost at distance d makes each
//! predecessor won at d + 1, and a position won at d takes one off each predecessor's
//! counter; a predecessor whose counter reaches zero and whose exits all lose is lost at
//! d + 1 (or at its worst exit's distance). Whatever is left at the end is a draw.
//!
//! A table with pawns is solved one pawn configuration (slice) at a time, most advanced
//! first, since a pawn move leads into a slice one step further on; slices equally far
//! advanced are solved in parallel.

use super::file::Table;
use super::layout::Layout;
use super::pos::{TbMove, TbPos};
use super::registry::Tablebases;
use super::value::{self, BEYOND, Clocks, MAX_DISTANCE, Stored};
use crate::board::{Color, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicUsize, Ordering::Relaxed};

const UNKNOWN: u16 = 0;
const DRAW: u16 = 1;
const INVALID: u16 = 2;
const WIN: u16 = 0x8000;
const LOSS: u16 = 0x4000;
const DIST: u16 = 0x3FFF;
/// Exit distances above the stored range all play alike; capping them keeps the level
/// loop from running on to `BEYOND` for nothing.
const EXIT_CAP: u16 = MAX_DISTANCE + 2;

fn encode(s: Stored) -> u16 {
    match s {
        Stored::Draw => DRAW,
        Stored::Win(d) => WIN | d.min(DIST),
        Stored::Loss(d) => LOSS | d.min(DIST),
        Stored::Invalid => INVALID,
    }
}

fn decode(v: u16) -> Stored {
    if v & WIN != 0 {
        Stored::Win(v & DIST)
    } else if v & LOSS != 0 {
        Stored::Loss(v & DIST)
    } else if v == INVALID {
        Stored::Invalid
    } else {
        Stored::Draw
    }
}

/// How good a value is for the side to move (a missing exit is worst of all).
fn merit(v: u16) -> i32 {
    if v & WIN != 0 {
        100_000 - (v & DIST) as i32
    } else if v & LOSS != 0 {
        -100_000 + (v & DIST) as i32
    } else if v == DRAW {
        0
    } else {
        -200_000
    }
}

/// How far a generation has got.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Positions in finished slices.
    pub done: usize,
    /// Positions in the table.
    pub total: usize,
    /// The level (distance) being worked on in a table of one slice.
    pub level: u16,
}

/// Counts of the finished table's entries.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    /// Legal positions won for the side to move within the clocks' reach (distance <= 100).
    pub wins: usize,
    /// Legal positions lost for the side to move within reach.
    pub losses: usize,
    /// Legal positions drawn, or won or lost only beyond `MAX_DISTANCE` plies.
    pub draws: usize,
    /// Entries that are no legal position.
    pub invalid: usize,
    /// The longest stored distance.
    pub longest: u16,
}

struct Gen<'a> {
    layout: &'a Layout,
    tbs: &'a Tablebases,
    dtm: bool,
    values: Vec<AtomicU16>,
    counters: Vec<AtomicU8>,
    exits: Vec<AtomicU16>,
}

/// The value of the position after a zeroing move, with both clocks fresh: Win(0) or
/// Loss(0) for its side to move when that side wins or loses within the clocks of `rules`.
fn fresh(stored: Stored, dtm: bool, child: &TbPos, rules: &Rules) -> Stored {
    let budget = if dtm {
        let bare = if child.color_bb(Color::White).count() == 1 { Color::White } else { Color::Black };
        let strong = !bare;
        let limit = child.counting_limit_by(strong, rules);
        // The move that bares a king with the bare side to move starts the count at once.
        let count = (child.stm == bare && limit != 0).then_some((limit, 0));
        value::bare_king_budget(Clocks { rule50: 0, count }, limit, child.stm == bare)
    } else {
        value::fifty_move_budget(0)
    };
    match stored {
        Stored::Win(d) if d as u32 <= budget => Stored::Win(0),
        Stored::Loss(d) if d as u32 <= budget => Stored::Loss(0),
        _ => Stored::Draw,
    }
}

impl Gen<'_> {
    fn is_internal(&self, m: &TbMove) -> bool {
        if self.dtm { !m.capture } else { !m.zeroing }
    }

    /// The value, for the mover, of an exit move.
    fn exit(&self, m: &TbMove) -> u16 {
        let (stored, child_dtm) = if !m.capture && !m.mv.is_promotion() {
            // A pawn move within this table: its slice is solved already.
            let idx = self.layout.encode(&m.child).expect("a pawn move stays on its squares");
            (decode(self.values[idx].load(Relaxed)), false)
        } else {
            let e = self.tbs.lookup(&m.child).expect("the smaller tables were checked before");
            (e.stored, e.dtm)
        };
        let v = if self.dtm { stored } else { fresh(stored, child_dtm, &m.child, self.tbs.rules()) };
        match v.for_mover() {
            Stored::Win(d) => WIN | d.min(EXIT_CAP),
            Stored::Loss(d) => LOSS | d.min(EXIT_CAP),
            other => encode(other),
        }
    }

    /// Sets up position `idx`; returns the level its value or best exit belongs to.
    fn init(&self, idx: usize) -> u16 {
        let Some(p) = self.layout.decode(idx).filter(|p| !p.opponent_in_check()) else {
            self.values[idx].store(INVALID, Relaxed);
            return 0;
        };
        let mut internal = 0u8;
        let mut best = UNKNOWN;
        let mut any = false;
        let mut all_promotions = true;
        p.for_each_move(|m| {
            any = true;
            all_promotions &= m.mv.is_promotion();
            if self.is_internal(m) {
                internal += 1;
            } else {
                let v = self.exit(m);
                if merit(v) > merit(best) {
                    best = v;
                }
            }
        });
        let value = if !any {
            if p.in_check() { LOSS } else { DRAW }
        } else if p.promotion_stalemate(any, all_promotions) || p.material_draw(self.tbs.rules()) {
            DRAW
        } else if internal == 0 {
            best
        } else {
            self.counters[idx].store(internal, Relaxed);
            self.exits[idx].store(best, Relaxed);
            UNKNOWN
        };
        self.values[idx].store(value, Relaxed);
        let level = if value == UNKNOWN { best } else { value };
        if level & (WIN | LOSS) != 0 { level & DIST } else { 0 }
    }

    /// Passes a level-`d` value at `idx` on to the positions one internal move before it;
    /// returns the highest level it set.
    fn propagate(&self, idx: usize, v: u16, d: u16) -> u16 {
        let p = self.layout.decode(idx).expect("a solved entry is a position");
        let mut top = 0;
        p.for_each_unmove(|q| {
            let j = self.layout.encode(q).expect("an un-move keeps the pawns");
            if v & LOSS != 0 {
                if self.values[j].compare_exchange(UNKNOWN, WIN | (d + 1), Relaxed, Relaxed).is_ok() {
                    top = top.max(d + 1);
                }
            } else if self.values[j].load(Relaxed) == UNKNOWN {
                let before = self.counters[j].fetch_sub(1, Relaxed);
                debug_assert!(before > 0, "more un-moves than moves at {j}");
                if before == 1 {
                    let e = self.exits[j].load(Relaxed);
                    let lost = if e == UNKNOWN {
                        d + 1
                    } else if e & LOSS != 0 {
                        (d + 1).max(e & DIST)
                    } else {
                        return;
                    };
                    if self.values[j].compare_exchange(UNKNOWN, LOSS | lost, Relaxed, Relaxed).is_ok() {
                        top = top.max(lost);
                    }
                }
            }
        });
        top
    }

    fn for_range(&self, lo: usize, hi: usize, parallel: bool, f: impl Fn(usize) -> u16 + Sync + Send) -> u16 {
        if parallel {
            (lo..hi).into_par_iter().with_min_len(4096).map(f).max().unwrap_or(0)
        } else {
            (lo..hi).map(f).max().unwrap_or(0)
        }
    }

    /// Solves the positions `lo..hi` (one slice), using every core if `parallel`.
    fn solve(&self, lo: usize, hi: usize, parallel: bool, report: &(dyn Fn(u16) + Sync)) {
        let mut top = self.for_range(lo, hi, parallel, |i| self.init(i));
        let found = AtomicUsize::new(0);
        let mut d = 0u16;
        while d <= top {
            report(d);
            found.store(0, Relaxed);
            // Exits that win at this distance, unless an internal move already won sooner.
            self.for_range(lo, hi, parallel, |i| {
                let v = self.values[i].load(Relaxed);
                if v == UNKNOWN && self.exits[i].load(Relaxed) == WIN | d {
                    self.values[i].store(WIN | d, Relaxed);
                    found.fetch_add(1, Relaxed);
                } else if v == WIN | d || v == LOSS | d {
                    found.fetch_add(1, Relaxed);
                }
                0
            });
            if found.load(Relaxed) > 0 {
                let t = self.for_range(lo, hi, parallel, |i| {
                    let v = self.values[i].load(Relaxed);
                    if v == WIN | d || v == LOSS | d { self.propagate(i, v, d) } else { 0 }
                });
                top = top.max(t);
            }
            d += 1;
        }
    }
}

/// Generates the table of `layout`; every table its captures and promotions lead to must
/// be available from `tbs`, whose rule set it is built under. `progress` hears about finished slices and levels.
pub fn generate(layout: &Layout, tbs: &Tablebases, progress: &(dyn Fn(Progress) + Sync)) -> (Table, Summary) {
    let n = layout.size;
    let g = Gen {
        layout,
        tbs,
        dtm: layout.is_dtm(),
        values: (0..n).map(|_| AtomicU16::new(UNKNOWN)).collect(),
        counters: (0..n).map(|_| AtomicU8::new(0)).collect(),
        exits: (0..n).map(|_| AtomicU16::new(UNKNOWN)).collect(),
    };
    let ss = layout.slice_size;
    if layout.slices == 1 {
        g.solve(0, n, true, &|level| progress(Progress { done: 0, total: n, level }));
    } else {
        let mut order: Vec<usize> = (0..layout.slices).collect();
        order.sort_by_key(|&s| std::cmp::Reverse(layout.advancement(s)));
        let done = AtomicUsize::new(0);
        for group in order.chunk_by(|&a, &b| layout.advancement(a) == layout.advancement(b)) {
            group.par_iter().for_each(|&s| g.solve(s * ss, (s + 1) * ss, false, &|_| {}));
            let d = done.fetch_add(group.len() * ss, Relaxed) + group.len() * ss;
            progress(Progress { done: d, total: n, level: 0 });
        }
    }
    let mut summary = Summary::default();
    let data: Vec<u8> = g
        .values
        .iter()
        .map(|v| {
            let s = decode(v.load(Relaxed));
            match s {
                Stored::Win(d) | Stored::Loss(d) if d <= MAX_DISTANCE => {
                    if matches!(s, Stored::Win(_)) {
                        summary.wins += 1;
                    } else {
                        summary.losses += 1;
                    }
                    summary.longest = summary.longest.max(d);
                }
                Stored::Invalid => summary.invalid += 1,
                _ => summary.draws += 1,
            }
            match s {
                Stored::Win(d) | Stored::Loss(d) if d > MAX_DISTANCE => {
                    if matches!(s, Stored::Win(_)) {
                        Stored::Win(BEYOND)
                    } else {
                        Stored::Loss(BEYOND)
                    }
                }
                s => s,
            }
            .to_byte()
        })
        .collect();
    (Table { layout: layout.clone(), data, rules: tbs.rules() }, summary)
}
