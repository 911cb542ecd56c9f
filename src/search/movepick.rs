//! The staged move picker: the TT move first (before any generation), then captures and
//! promotions that do not lose material, then quiet moves and drops ordered by killers,
//! counter move and history, and last the captures that lose material.

use super::history::{Histories, PieceTo, moved_piece};
use super::see::{SEE_VALUE, see_ge};
use crate::board::{GenType, Move, MoveKind, MoveSet, Position};
use crate::eval::pst_mg;

/// The ordering context of one node.
pub struct OrderingContext<'a> {
    /// The thread's statistics.
    pub hist: &'a Histories,
    /// Killer moves of this ply.
    pub killers: [Move; 2],
    /// The reply that refuted the previous move last time.
    pub counter: Move,
    /// Continuation keys of the moves 1 and 2 plies back (None at the root or after null).
    pub cont: [Option<PieceTo>; 2],
    /// Weight of the piece-square gain in quiet move order (the search's `ORDER_PST_MUL`).
    pub pst_mul: i32,
}

/// Which moves a stage generates.
#[derive(Clone, Copy)]
enum Source {
    /// The legal moves of one kind.
    Gen(GenType),
    /// The quiet moves that give check.
    QuietChecks,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenNoisy,
    GoodNoisy,
    GenQuiet,
    Quiet,
    BadNoisy,
    GenChecks,
    Checks,
    Done,
}

const MAX: usize = crate::board::movegen::MAX_MOVES;

/// The move and score arrays of a picker. They are large, so a search thread keeps a pool
/// of them and lends one to each node instead of zeroing fresh arrays at every node.
pub struct PickBuffers {
    moves: [Move; MAX],
    scores: [i32; MAX],
    bad: [Move; MAX],
}

impl PickBuffers {
    /// A fresh, boxed set of buffers.
    pub fn boxed() -> Box<PickBuffers> {
        Box::new(PickBuffers { moves: [Move::NONE; MAX], scores: [0; MAX], bad: [Move::NONE; MAX] })
    }
}

/// Hands out every legal move of a node once, best first by the ordering heuristics.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    noisy_only: bool,
    buf: Box<PickBuffers>,
    len: usize,
    cur: usize,
    bad_len: usize,
    bad_cur: usize,
    skip_quiets: bool,
    quiet_checks: bool,
}

impl MovePicker {
    /// A picker for the main search (all moves); `tt_move` must be legal or NONE.
    pub fn new(tt_move: Move, buf: Box<PickBuffers>) -> MovePicker {
        MovePicker::with(tt_move, false, buf)
    }

    /// A picker for quiescence: captures and promotions only, unless in check.
    ///
    /// With `checks`, quiet moves that give check follow the captures (out of check,
    /// every evasion comes anyway). Not while the side to move must drop: its quiet moves
    /// are then drops, which quiescence never plays (the setup has no captures to resolve).
    pub fn quiescence(pos: &Position, tt_move: Move, checks: bool, buf: Box<PickBuffers>) -> MovePicker {
        let noisy_only = !pos.in_check();
        let tt = if noisy_only && !is_noisy(pos, tt_move) { Move::NONE } else { tt_move };
        let mut mp = MovePicker::with(tt, noisy_only, buf);
        mp.quiet_checks = noisy_only && checks && !pos.has_legal_drop();
        mp
    }

    fn with(tt_move: Move, noisy_only: bool, buf: Box<PickBuffers>) -> MovePicker {
        MovePicker {
            stage: if tt_move == Move::NONE { Stage::GenNoisy } else { Stage::TtMove },
            tt_move,
            noisy_only,
            buf,
            len: 0,
            cur: 0,
            bad_len: 0,
            bad_cur: 0,
            skip_quiets: false,
            quiet_checks: false,
        }
    }

    /// Gives the buffers back for the next node.
    pub fn into_buffers(self) -> Box<PickBuffers> {
        self.buf
    }

    /// Stops handing out quiet moves (late move pruning); captures still come.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Whether the picker has moved past the good captures (now in quiets or later).
    pub fn in_quiet_stage(&self) -> bool {
        self.stage >= Stage::Quiet
    }

    fn take_best(&mut self) -> Option<Move> {
        if self.cur >= self.len {
            return None;
        }
        let b = &mut *self.buf;
        let mut best = self.cur;
        for i in self.cur + 1..self.len {
            if b.scores[i] > b.scores[best] {
                best = i;
            }
        }
        b.moves.swap(self.cur, best);
        b.scores.swap(self.cur, best);
        self.cur += 1;
        Some(b.moves[self.cur - 1])
    }

    /// Fills the buffer with the moves of `source`, the TT move left out (it was tried).
    fn fill(&mut self, pos: &Position, source: Source) {
        let (tt, b) = (self.tt_move, &mut *self.buf);
        let mut len = 0;
        let mut push = |set: MoveSet| {
            for m in set.moves() {
                if m != tt {
                    b.moves[len] = m;
                    len += 1;
                }
            }
        };
        match source {
            Source::Gen(kind) => pos.generate_sets(kind, &mut push),
            Source::QuietChecks => pos.quiet_check_sets(&mut push),
        }
        self.len = len;
        self.cur = 0;
    }

    /// The next move, or None when every legal move has been handed out.
    pub fn next(&mut self, pos: &Position, ctx: &OrderingContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenNoisy;
                    return Some(self.tt_move);
                }
                Stage::GenNoisy => {
                    self.fill(pos, Source::Gen(GenType::Noisy));
                    for i in 0..self.len {
                        self.buf.scores[i] = noisy_score(pos, ctx, self.buf.moves[i]);
                    }
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.take_best() {
                    Some(m) => {
                        // Captures that lose material wait until after the quiet moves.
                        if !self.noisy_only && !see_ge(pos, m, 0) {
                            self.buf.bad[self.bad_len] = m;
                            self.bad_len += 1;
                            continue;
                        }
                        return Some(m);
                    }
                    None => {
                        self.stage = match (self.noisy_only, self.quiet_checks) {
                            (false, _) => Stage::GenQuiet,
                            (true, true) => Stage::GenChecks,
                            (true, false) => Stage::Done,
                        };
                    }
                },
                Stage::GenQuiet => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    self.fill(pos, Source::Gen(GenType::Quiet));
                    for i in 0..self.len {
                        self.buf.scores[i] = quiet_score(pos, ctx, self.buf.moves[i]);
                    }
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if !self.skip_quiets
                        && let Some(m) = self.take_best()
                    {
                        return Some(m);
                    }
                    self.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if self.bad_cur < self.bad_len {
                        self.bad_cur += 1;
                        return Some(self.buf.bad[self.bad_cur - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenChecks => {
                    self.fill(pos, Source::QuietChecks);
                    for i in 0..self.len {
                        self.buf.scores[i] = quiet_score(pos, ctx, self.buf.moves[i]);
                    }
                    self.stage = Stage::Checks;
                }
                Stage::Checks => match self.take_best() {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

/// Whether `m` is a capture or a promotion.
#[inline(always)]
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    m.is_promotion() || (!m.is_drop() && m != Move::NONE && pos.piece_on(m.to()).is_some())
}

fn noisy_score(pos: &Position, ctx: &OrderingContext, m: Move) -> i32 {
    if m.is_promotion() {
        return 8 * SEE_VALUE[3];
    }
    let piece = moved_piece(pos, m);
    let victim = pos.piece_on(m.to()).map_or(crate::board::PieceType::Pawn, |p| p.kind());
    // Most valuable victim first, the capture history breaking ties between attackers.
    16 * SEE_VALUE[victim.index()] + ctx.hist.capture(piece, m, victim) / 16
}

fn quiet_score(pos: &Position, ctx: &OrderingContext, m: Move) -> i32 {
    if m == ctx.killers[0] {
        return 1 << 24;
    }
    if m == ctx.killers[1] {
        return (1 << 24) - 1;
    }
    let mut score = ctx.hist.quiet(pos.side_to_move(), m);
    let here = PieceTo::new(moved_piece(pos, m), m);
    for prev in ctx.cont.iter().flatten() {
        score += ctx.hist.cont(*prev, here);
    }
    if m == ctx.counter {
        score += 1 << 16;
    }
    // Before the histories have learnt anything (the setup's drops above all), order by
    // how much the piece-square table likes the destination.
    let piece = moved_piece(pos, m);
    let gain = match m.kind() {
        MoveKind::Drop => pst_mg(piece, m.to()),
        _ => pst_mg(piece, m.to()) - pst_mg(piece, m.from()),
    };
    score + ctx.pst_mul * gain
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::perft::{parse_epd, perft};

    fn picker_perft(pos: &mut Position, depth: u32, hist: &Histories) -> u64 {
        if depth == 0 {
            return 1;
        }
        // Use the first legal move as a stand-in TT move, so that stage is exercised too.
        let tt = pos.legal_moves().first().copied().unwrap_or(Move::NONE);
        let ctx = OrderingContext {
            hist,
            killers: [Move::NONE; 2],
            counter: Move::NONE,
            cont: [None, None],
            pst_mul: crate::search::params::ORDER_PST_MUL.default,
        };
        let mut mp = MovePicker::new(tt, PickBuffers::boxed());
        let mut n = 0;
        let mut seen = Vec::new();
        while let Some(m) = mp.next(pos, &ctx) {
            assert!(!seen.contains(&m), "{m} handed out twice in {}", pos.fen());
            seen.push(m);
            pos.do_move(m);
            n += picker_perft(pos, depth - 1, hist);
            pos.undo_move();
        }
        n
    }

    #[test]
    fn perft_through_the_picker_equals_plain_perft() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/sittuyin.epd")).unwrap();
        let hist = Histories::default();
        for case in parse_epd(&text).unwrap() {
            let mut pos = Position::from_fen(&case.fen).unwrap();
            let depth = if case.counts.len() > 3 { 3 } else { 2 };
            let expected = perft(&mut pos, depth);
            assert_eq!(picker_perft(&mut pos, depth, &hist), expected, "{}", case.fen);
        }
    }
}
