//! The accumulators of a search: one pair per ply, updated move by move.
//!
//! A move changes at most three inputs per perspective (a piece leaves a square or the top
//! of a hand, it or a met arrives, a captured piece leaves), so the child's pair is the
//! parent's plus and minus a few weight columns, in one pass, instead of a refresh. Nothing in
//! Sittuyin's inputs ever forces a refresh (there are no king buckets): only the root is
//! computed from scratch.

use super::features::{self, board_feature, hand_feature};
use super::network::Network;
use crate::board::{Color, Move, MoveKind, Piece, PieceType, Position};
use std::sync::Arc;

/// One input change: a piece on a square, or the k-th piece of a type in a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    Board(Piece, crate::board::Square),
    Hand(Color, PieceType, u8),
}

impl Input {
    #[inline(always)]
    fn index(self, perspective: Color) -> usize {
        match self {
            Input::Board(p, sq) => board_feature(perspective, p, sq),
            Input::Hand(c, pt, k) => hand_feature(perspective, c, pt, k),
        }
    }
}

/// The inputs `m` switches on and off in `pos` (before it is played): every move switches
/// one on (the piece, or the met, where it lands) and one off (the piece where it stood, or
/// the top of the hand for a drop), and a capture one more off.
fn changes(pos: &Position, m: Move) -> (Input, Input, Option<Input>) {
    let us = pos.side_to_move();
    let to = m.to();
    match m.kind() {
        MoveKind::Drop => {
            let pt = m.drop_piece();
            let k = pos.hand_count(us, pt);
            (Input::Board(Piece::new(us, pt), to), Input::Hand(us, pt, k), None)
        }
        kind => {
            let from = m.from();
            let piece = pos.piece_on(from).expect("a board move starts on a piece");
            let arrives = if kind == MoveKind::Promotion { Piece::new(us, PieceType::Met) } else { piece };
            let captured = if to != from { pos.piece_on(to).map(|c| Input::Board(c, to)) } else { None };
            (Input::Board(arrives, to), Input::Board(piece, from), captured)
        }
    }
}

/// The accumulator pairs of one search thread, indexed by ply.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    net: Arc<Network>,
    /// `[ply][perspective][hidden]`, flattened.
    acc: Vec<i16>,
    top: usize,
    capacity: usize,
}

impl AccumulatorStack {
    /// A stack for `capacity` plies beyond the root.
    pub fn new(net: Arc<Network>, capacity: usize) -> AccumulatorStack {
        let acc = vec![0i16; (capacity + 1) * 2 * net.hidden()];
        AccumulatorStack { net, acc, top: 0, capacity }
    }

    /// The net the stack evaluates with.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    #[inline(always)]
    fn slot(&self, ply: usize, c: Color) -> std::ops::Range<usize> {
        let n = self.net.hidden();
        let start = (ply * 2 + c.index()) * n;
        start..start + n
    }

    /// Starts over at `pos`, computed from scratch.
    pub fn reset(&mut self, pos: &Position) {
        self.top = 0;
        for c in Color::ALL {
            let r = self.slot(0, c);
            self.net.refresh(pos, c, &mut self.acc[r]);
        }
    }

    /// Pushes the pair after `m`, given the position before it.
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        assert!(self.top < self.capacity, "accumulator stack overflow");
        let (add, sub, captured) = changes(pos, m);
        let n = self.net.hidden();
        let (parent, child) = self.acc.split_at_mut((self.top + 1) * 2 * n);
        let parent = &parent[self.top * 2 * n..];
        for c in Color::ALL {
            let dst = &mut child[c.index() * n..(c.index() + 1) * n];
            let src = &parent[c.index() * n..(c.index() + 1) * n];
            self.net.update(src, dst, add.index(c), sub.index(c), captured.map(|i| i.index(c)));
        }
        self.top += 1;
    }

    /// Takes back the last push.
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top -= 1;
    }

    /// The current pair: `perspective`'s accumulator.
    pub fn current(&self, perspective: Color) -> &[i16] {
        &self.acc[self.slot(self.top, perspective)]
    }

    /// Whether the current pair equals a refresh of `pos` (for debug checks).
    pub fn matches_refresh(&self, pos: &Position) -> bool {
        let mut fresh = vec![0i16; self.net.hidden()];
        Color::ALL.iter().all(|&c| {
            self.net.refresh(pos, c, &mut fresh);
            self.current(c) == &fresh[..]
        })
    }

    /// The net's score of `pos` (the position the stack is at), from the side to move's
    /// point of view, in centipawns.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let bucket = features::position_bucket(pos, self.net.buckets());
        self.net.output(self.current(stm), self.current(!stm), bucket)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::Activation;
    use crate::eval::nnue::network::tests::random_net;
    use crate::rng::Rng;

    /// After every move of many random games (setup, captures and promotions included),
    /// and after every take-back, the incremental pair equals a refresh.
    #[test]
    fn incremental_accumulators_equal_a_refresh() {
        let net = Arc::new(random_net(9, Activation::SCReLU));
        let mut stack = AccumulatorStack::new(net.clone(), 400);
        let mut fresh = vec![0i16; net.hidden()];
        let mut rng = Rng::new(21);
        let (mut drops, mut promotions, mut captures) = (0, 0, 0);
        for _ in 0..60 {
            let mut pos = Position::startpos();
            stack.reset(&pos);
            let mut played = 0;
            for _ in 0..300 {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome() != crate::board::Outcome::Ongoing {
                    break;
                }
                let m = moves.as_slice()[rng.index(moves.len())];
                drops += m.is_drop() as u32;
                promotions += m.is_promotion() as u32;
                captures += (!m.is_drop() && m.to() != m.from() && pos.piece_on(m.to()).is_some()) as u32;
                stack.push_move(&pos, m);
                pos.do_move(m);
                played += 1;
                for c in Color::ALL {
                    net.refresh(&pos, c, &mut fresh);
                    assert_eq!(stack.current(c), &fresh[..], "after {m} in {}", pos.fen());
                }
                assert_eq!(stack.evaluate(&pos), net.evaluate(&pos));
            }
            for _ in 0..played {
                stack.pop();
                pos.undo_move();
                for c in Color::ALL {
                    net.refresh(&pos, c, &mut fresh);
                    assert_eq!(stack.current(c), &fresh[..]);
                }
            }
        }
        assert!(drops > 500 && promotions > 5 && captures > 200, "{drops} {promotions} {captures}");
    }
}
