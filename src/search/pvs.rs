//! Principal variation search and quiescence search. Node kinds (root, PV, non-PV) are
//! zero-sized types, so each kind gets its own compiled copy of the search.

use super::history::{PieceTo, bonus, moved_piece};
use super::movepick::{MovePicker, OrderingContext, PickBuffers, is_noisy};
use super::params::SearchParams;
use super::see::{captured_value, see_ge};
use super::tt::Bound;
use super::worker::Worker;
use super::{MATE_BOUND, MAX_PLY, VALUE_INFINITE, VALUE_MATE, VALUE_NONE, mate_in, mated_in};
use crate::board::Move;

/// Transposition-table cutoffs stop this many plies before the 50-move limit or the end of
/// the count: a stored score may be a win that the limit, reached since, has made a draw.
/// The table's key holds neither clock.
const TT_CLOCK_MARGIN: u32 = 10;

/// The kind of node being searched.
pub(super) trait NodeType {
    /// A node on the principal variation (open window).
    const PV: bool;
    /// The root node.
    const ROOT: bool;
}

/// The root of the search.
pub(super) struct Root;
/// A node inside the principal variation.
pub(super) struct Pv;
/// A node searched with a null window.
pub(super) struct NonPv;

impl NodeType for Root {
    const PV: bool = true;
    const ROOT: bool = true;
}
impl NodeType for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
}
impl NodeType for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
}

/// The late move reduction table, in hundredths of a ply: [depth][move number].
pub(super) fn reduction_table(params: &SearchParams) -> [[i32; 64]; 64] {
    let mut t = [[0; 64]; 64];
    let base = params.LMR_BASE as f64 / 100.0;
    let div = params.LMR_DIV as f64 / 100.0;
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = ((base + (d as f64).ln() * (m as f64).ln() / div) * 100.0) as i32;
        }
    }
    t
}

/// Moves searched at a node without becoming its best (for history maluses); the first 64.
struct Tried {
    moves: [Move; 64],
    len: usize,
}

impl Default for Tried {
    fn default() -> Self {
        Tried { moves: [Move::NONE; 64], len: 0 }
    }
}

impl Tried {
    fn push(&mut self, m: Move) {
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves[..self.len].iter()
    }
}

impl Worker<'_> {
    /// The root search of one aspiration window.
    pub fn search_root(&mut self, alpha: i32, beta: i32, depth: i32) -> i32 {
        self.ply = 0;
        self.search::<Root>(alpha, beta, depth, false)
    }

    /// Whether the position at the current ply is drawn by rule, as the game judges it
    /// (`Position::draw_by_rule`) except that a repetition counts once inside the tree.
    /// Stalemate is left to the move loop, which finds no move.
    fn is_draw(&self) -> bool {
        self.pos.draw_by_rule(self.pos.is_repetition_draw(self.ply)).is_some()
    }

    /// The tablebases' score of a node of four men or fewer, clocks included.
    fn probe_tb(&self) -> Option<i32> {
        let tb = self.shared.tb?;
        if self.pos.occupied().count() > 4 {
            return None;
        }
        let p = tb.probe(&self.pos)?;
        self.shared.tbhits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(super::tbprobe::value(&p, self.ply))
    }

    /// The static evaluation as the table keeps it: before the clocks fade it under
    /// `USE_CLOCK_TT`, else as it came.
    #[inline]
    fn table_eval(&self) -> i32 {
        if self.params.USE_CLOCK_TT { self.evaluate_unclocked() } else { self.evaluate() }
    }

    /// Debug builds under `USE_CLOCK_TT`: an evaluation read from the table is the one this
    /// node would compute, whatever clocks the node that stored it had.
    #[inline(always)]
    fn debug_check_table_eval(&self, raw: i32) {
        debug_assert!(
            !self.params.USE_CLOCK_TT || raw == VALUE_NONE || raw == self.evaluate_unclocked(),
            "the table's evaluation {raw} is not this node's at {}",
            self.pos.fen()
        );
    }

    /// A table's evaluation (`table_eval`) as this node uses it; VALUE_NONE (in check) stays.
    #[inline]
    fn fade_table_eval(&self, raw: i32) -> i32 {
        if self.params.USE_CLOCK_TT && raw != VALUE_NONE { self.clock_fade(raw) } else { raw }
    }

    /// Plies until the 50-move rule or the count ends the game, whichever is sooner.
    #[inline]
    fn clock_left(&self) -> u32 {
        let fifty = self.pos.rules().fifty_limit().saturating_sub(self.pos.rule50());
        match self.pos.counting_limit() {
            0 => fifty,
            limit => fifty.min(limit.saturating_sub(self.pos.counting_ply())),
        }
    }

    /// Whether a stored score may cut the search off here. The table's key holds no clock, so
    /// an entry may come from a node with more time left: near either limit no entry is
    /// trusted, and a mate is trusted only if it lands before the limit. Without
    /// `USE_CLOCK_TT`, only the 50-move limit's approach counts, and only outside quiescence.
    #[inline]
    fn tt_score_holds(&self, score: i32, qsearch: bool) -> bool {
        if !self.params.USE_CLOCK_TT {
            return qsearch || self.pos.rule50() + TT_CLOCK_MARGIN < self.pos.rules().fifty_limit();
        }
        let left = self.clock_left();
        if left <= TT_CLOCK_MARGIN {
            return false;
        }
        score.abs() < MATE_BOUND || (VALUE_MATE - score.abs()) as u32 <= self.ply as u32 + left
    }

    fn ordering(&self) -> OrderingContext<'_> {
        let f = &self.stack[self.ply + super::worker::STACK_OFFSET];
        let prev1 = self.stack[self.ply + super::worker::STACK_OFFSET - 1].piece_to;
        let prev2 = self.stack[self.ply + super::worker::STACK_OFFSET - 2].piece_to;
        OrderingContext {
            hist: self.hist,
            killers: f.killers,
            counter: prev1.map_or(Move::NONE, |pt| self.hist.counter[pt.0 as usize]),
            cont: [prev1, prev2],
            pst_mul: self.params.ORDER_PST_MUL,
        }
    }

    fn update_pv(&mut self, m: Move) {
        let ply = self.ply;
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1];
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len.max(ply + 1);
    }

    fn make(&mut self, m: Move) {
        let piece = moved_piece(&self.pos, m);
        let f = self.frame(0);
        f.piece_to = Some(PieceTo::new(piece, m));
        if let Some(acc) = &mut self.nnue {
            acc.push_move(&self.pos, m);
        }
        self.pos.do_move(m);
        self.ply += 1;
        self.nodes += 1;
        self.verify_accumulators();
    }

    fn unmake(&mut self) {
        if let Some(acc) = &mut self.nnue {
            acc.pop();
        }
        self.pos.undo_move();
        self.ply -= 1;
        self.verify_accumulators();
    }

    /// Negamax alpha-beta with a principal variation window.
    pub(super) fn search<N: NodeType>(&mut self, mut alpha: i32, mut beta: i32, mut depth: i32, cut_node: bool) -> i32 {
        if depth <= 0 {
            return self.qsearch::<N>(alpha, beta, self.params.USE_QS_CHECKS);
        }
        let ply = self.ply;
        self.pv_len[ply] = ply;
        if N::PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        if !N::ROOT {
            if self.should_stop() {
                return 0;
            }
            if self.is_draw() {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if self.pos.in_check() { 0 } else { self.evaluate() };
            }
            // Mate distance pruning: no line from here beats a mate already found nearer.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
            if let Some(v) = self.probe_tb() {
                return v;
            }
        }
        let in_check = self.pos.in_check();
        let excluded = self.frame(0).excluded;
        let key = self.pos.key();
        let tte = if excluded == Move::NONE { self.shared.tt.probe(key, ply) } else { None };
        let tt_move = if N::ROOT { self.root_moves[self.pv_idx].mv } else { tte.map_or(Move::NONE, |e| e.mv) };
        let tt_move =
            if tt_move != Move::NONE && (N::ROOT || self.pos.is_legal(tt_move)) { tt_move } else { Move::NONE };

        if !N::PV
            && let Some(e) = tte
            && e.depth >= depth
            && self.tt_score_holds(e.score, false)
            && (e.bound == Bound::Exact
                || (e.bound == Bound::Lower && e.score >= beta)
                || (e.bound == Bound::Upper && e.score <= alpha))
        {
            return e.score;
        }

        // Static evaluation, refined by the TT score when its bound allows. The table keeps
        // it before the clocks fade it.
        let raw_eval = if in_check {
            VALUE_NONE
        } else {
            match tte {
                Some(e) if e.eval != VALUE_NONE => e.eval,
                _ => self.table_eval(),
            }
        };
        self.debug_check_table_eval(raw_eval);
        let static_eval = self.fade_table_eval(raw_eval);
        let mut eval = static_eval;
        if let Some(e) = tte
            && !in_check
            && e.score.abs() < MATE_BOUND
            && ((e.bound == Bound::Lower && e.score > eval) || (e.bound == Bound::Upper && e.score < eval))
        {
            eval = e.score;
        }
        self.frame(0).static_eval = static_eval;
        let improving = !in_check && ply >= 2 && {
            let prev = self.frame(2).static_eval;
            prev != VALUE_NONE && static_eval > prev
        };
        // Grandchildren start with fresh killers; children share this ply's siblings' ones.
        self.stack[ply + super::worker::STACK_OFFSET + 2].killers = [Move::NONE; 2];

        if !N::PV && !in_check && excluded == Move::NONE {
            // Reverse futility pruning: far above beta at low depth.
            if self.params.USE_RFP
                && depth <= self.params.RFP_MAX_DEPTH
                && eval < MATE_BOUND
                && eval - self.params.RFP_MARGIN * (depth - improving as i32) >= beta
            {
                return (eval + beta) / 2;
            }
        }

        // Internal iterative reduction: without a TT move this node is probably not worth
        // its full depth.
        if self.params.USE_IIR && tt_move == Move::NONE && depth >= self.params.IIR_MIN_DEPTH && (N::PV || cut_node) {
            depth -= 1;
        }

        let buf = self.pick_pool.pop().unwrap_or_else(PickBuffers::boxed);
        let mut mp = MovePicker::new(tt_move, buf);
        let mut best = -VALUE_INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        let mut quiets = Tried::default();
        let mut captures = Tried::default();
        let us = self.pos.side_to_move();
        let reductions = self.reductions;
        loop {
            let m = {
                let ctx = self.ordering();
                match mp.next(&self.pos, &ctx) {
                    Some(m) => m,
                    None => break,
                }
            };
            if m == excluded {
                continue;
            }
            if N::ROOT && !self.root_moves[self.pv_idx..].iter().any(|rm| rm.mv == m) {
                continue;
            }
            move_count += 1;
            let noisy = is_noisy(&self.pos, m);
            let gives_check = self.pos.gives_check(m);
            let hist = if noisy { 0 } else { self.quiet_history(m) };
            let r = reductions[(depth as usize).min(63)][(move_count as usize).min(63)];

            // Shallow pruning, only once some line avoids being mated.
            if !N::ROOT && best > -MATE_BOUND && self.pos.pieces_of_color(us).count() > 1 {
                let lmr_depth = (depth - r / 100).max(0);
                if !noisy && !gives_check {
                    if self.params.USE_LMP
                        && move_count >= (self.params.LMP_BASE + depth * depth) / (2 - improving as i32)
                    {
                        mp.skip_quiets();
                        continue;
                    }
                    if self.params.USE_FUTILITY
                        && !in_check
                        && lmr_depth <= self.params.FUTILITY_MAX_DEPTH
                        && eval + self.params.FUTILITY_BASE + self.params.FUTILITY_MARGIN * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if self.params.USE_SEE_PRUNING && !see_ge(&self.pos, m, -self.params.SEE_QUIET_MARGIN * lmr_depth) {
                        continue;
                    }
                } else if self.params.USE_SEE_PRUNING
                    && !see_ge(&self.pos, m, -self.params.SEE_NOISY_MARGIN * depth * depth)
                {
                    continue;
                }
            }

            // Extensions: a TT move much better than every alternative (singular), checks.
            let mut ext = 0;
            if !N::ROOT
                && self.params.USE_SINGULAR
                && depth >= self.params.SE_MIN_DEPTH
                && m == tt_move
                && excluded == Move::NONE
                && let Some(e) = tte
                && e.depth >= depth - 3
                && e.bound != Bound::Upper
                && e.score.abs() < MATE_BOUND
            {
                let sbeta = e.score - self.params.SE_MARGIN * depth;
                self.frame(0).excluded = m;
                let v = self.search::<NonPv>(sbeta - 1, sbeta, (depth - 1) / 2, cut_node);
                self.frame(0).excluded = Move::NONE;
                if v < sbeta {
                    ext = 1;
                } else if sbeta >= beta {
                    self.pick_pool.push(mp.into_buffers());
                    return sbeta;
                } else if e.score >= beta {
                    ext = -1;
                }
            } else if self.params.USE_CHECK_EXT && gives_check && (depth > 4 || see_ge(&self.pos, m, 0)) {
                ext = 1;
            }
            if ply > 2 * self.root_depth as usize {
                ext = ext.min(0);
            }

            self.make(m);
            let new_depth = depth - 1 + ext;
            let mut v = -VALUE_INFINITE;
            if self.params.USE_LMR && depth >= 2 && move_count > 1 + N::ROOT as i32 && (!noisy || !N::PV) {
                let mut red = r;
                red += 100 * (!N::PV) as i32 + 100 * cut_node as i32 - 100 * improving as i32;
                red -= 100 * gives_check as i32;
                red -= hist * 100 / self.params.LMR_HISTORY_DIV;
                let d = (new_depth - red / 100).clamp(1, new_depth.max(1));
                v = -self.search::<NonPv>(-alpha - 1, -alpha, d, true);
                if v > alpha && d < new_depth {
                    v = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, !cut_node);
                }
            } else if !N::PV || move_count > 1 {
                v = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, !cut_node);
            }
            if N::PV && (move_count == 1 || (v > alpha && (N::ROOT || v < beta))) {
                self.pv_len[ply + 1] = ply + 1;
                v = -self.search::<Pv>(-beta, -alpha, new_depth, false);
            }
            self.unmake();
            if self.halted() {
                return 0;
            }

            if N::ROOT {
                let sel = self.seldepth;
                let pv: Vec<Move> = std::iter::once(m).chain(self.pv[1][1..self.pv_len[1]].iter().copied()).collect();
                let idx = self.root_moves.iter().position(|rm| rm.mv == m).unwrap_or(0);
                let rm = &mut self.root_moves[idx];
                if move_count == 1 || v > alpha {
                    rm.value = v;
                    rm.sel_depth = sel;
                    rm.pv = pv;
                    if move_count > 1 && self.pv_idx == 0 {
                        self.best_move_changes += 1.0;
                        self.root_stats.best_changes += 1;
                    }
                } else {
                    rm.value = -VALUE_INFINITE;
                }
            }

            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if N::PV && !N::ROOT {
                        self.update_pv(m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
            if m != best_move {
                if noisy {
                    captures.push(m);
                } else {
                    quiets.push(m);
                }
            }
        }

        self.pick_pool.push(mp.into_buffers());
        if move_count == 0 {
            best = if excluded != Move::NONE {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                0
            };
        } else if best_move != Move::NONE && best >= beta {
            self.update_histories(best_move, depth, &quiets, &captures);
        }

        if excluded == Move::NONE && !(N::ROOT && self.pv_idx > 0) {
            let bound = if best >= beta {
                Bound::Lower
            } else if N::PV && best_move != Move::NONE {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(key, ply, best_move, best, raw_eval, depth, bound, N::PV);
        }
        best
    }

    fn quiet_history(&self, m: Move) -> i32 {
        let piece_to = PieceTo::new(moved_piece(&self.pos, m), m);
        let mut h = self.hist.quiet(self.pos.side_to_move(), m);
        for back in 1..=2 {
            if let Some(prev) = self.stack[self.ply + super::worker::STACK_OFFSET - back].piece_to {
                h += self.hist.cont(prev, piece_to);
            }
        }
        h
    }

    fn update_histories(&mut self, best: Move, depth: i32, quiets: &Tried, captures: &Tried) {
        let b = bonus(depth, &self.params);
        let us = self.pos.side_to_move();
        let prev = [1, 2].map(|back| self.stack[self.ply + super::worker::STACK_OFFSET - back].piece_to);
        if !is_noisy(&self.pos, best) {
            let f = self.frame(0);
            if f.killers[0] != best {
                f.killers[1] = f.killers[0];
                f.killers[0] = best;
            }
            if let Some(p1) = prev[0] {
                self.hist.counter[p1.0 as usize] = best;
            }
            for (m, sign) in std::iter::once((best, 1)).chain(quiets.iter().map(|&q| (q, -1))) {
                let piece_to = PieceTo::new(moved_piece(&self.pos, m), m);
                self.hist.update_quiet(us, m, sign * b);
                for p in prev.iter().flatten() {
                    self.hist.update_cont(*p, piece_to, sign * b);
                }
            }
        } else if !best.is_promotion() {
            self.update_capture(best, b);
        }
        for &c in captures.iter() {
            if !c.is_promotion() {
                self.update_capture(c, -b);
            }
        }
    }

    fn update_capture(&mut self, m: Move, b: i32) {
        if let Some(victim) = self.pos.piece_on(m.to()) {
            let piece = moved_piece(&self.pos, m);
            self.hist.update_capture(piece, m, victim.kind(), b);
        }
    }

    /// Quiescence search: captures and promotions (every evasion when in check) until the
    /// position is quiet; with `checks` (its first ply) quiet checks as well, since with
    /// short-stepping pieces a king hunt is often a series of checks that a captures-only
    /// horizon cannot see.
    pub(super) fn qsearch<N: NodeType>(&mut self, mut alpha: i32, beta: i32, checks: bool) -> i32 {
        let ply = self.ply;
        self.pv_len[ply] = ply;
        if N::PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        if self.should_stop() {
            return 0;
        }
        if self.is_draw() {
            return 0;
        }
        if let Some(v) = self.probe_tb() {
            return v;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        let key = self.pos.key();
        let tte = self.shared.tt.probe(key, ply);
        if !N::PV
            && let Some(e) = tte
            && self.tt_score_holds(e.score, true)
            && (e.bound == Bound::Exact
                || (e.bound == Bound::Lower && e.score >= beta)
                || (e.bound == Bound::Upper && e.score <= alpha))
        {
            return e.score;
        }
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        let tt_move = if tt_move != Move::NONE && self.pos.is_legal(tt_move) { tt_move } else { Move::NONE };

        let mut best;
        let raw_eval;
        // The static evaluation as stand-pat and delta pruning use it.
        let mut stand = VALUE_NONE;
        if in_check {
            raw_eval = VALUE_NONE;
            best = -VALUE_INFINITE;
        } else {
            raw_eval = match tte {
                Some(e) if e.eval != VALUE_NONE => e.eval,
                _ => self.table_eval(),
            };
            self.debug_check_table_eval(raw_eval);
            stand = self.fade_table_eval(raw_eval);
            best = stand;
            if let Some(e) = tte
                && e.score.abs() < MATE_BOUND
                && ((e.bound == Bound::Lower && e.score > best) || (e.bound == Bound::Upper && e.score < best))
            {
                best = e.score;
            }
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        let buf = self.pick_pool.pop().unwrap_or_else(PickBuffers::boxed);
        let mut mp = MovePicker::quiescence(&self.pos, tt_move, checks, buf);
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        loop {
            let m = {
                let ctx = self.ordering();
                match mp.next(&self.pos, &ctx) {
                    Some(m) => m,
                    None => break,
                }
            };
            move_count += 1;
            if !in_check && best > -MATE_BOUND {
                // Delta pruning: a capture that cannot lift the score to alpha. A quiet
                // check is searched for the mate or the win it may set up, not its material.
                let gain = captured_value(&self.pos, m); // 0 for anything but a capture
                if gain > 0 && stand + gain + self.params.QS_DELTA <= alpha {
                    continue;
                }
                if !see_ge(&self.pos, m, 0) {
                    continue;
                }
            }
            self.make(m);
            let v = -self.qsearch::<N>(-beta, -alpha, false);
            self.unmake();
            if self.halted() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if N::PV {
                        self.update_pv(m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        self.pick_pool.push(mp.into_buffers());
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if N::PV && best_move != Move::NONE {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(key, ply, best_move, best, raw_eval, 0, bound, N::PV);
        best
    }
}
