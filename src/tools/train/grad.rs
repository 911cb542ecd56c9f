//! The loss and its gradient over a batch, in parallel and deterministic.
//!
//! A batch is cut into fixed chunks of `CHUNK` positions, whatever the number of threads.
//! Each chunk has a worker with its own gradient: forward and backward touch only the
//! hidden columns of the inputs its positions switch on, and the worker notes which. The
//! chunks' gradients are then summed row by row, always in chunk order. Floating-point sums
//! depend on their order, so this is what makes a run's weights the same bit for bit on one
//! thread or many, and a resumed run the same as an uninterrupted one.

use super::data::{Dataset, Mirror};
use super::model::{FloatNet, SCALE, Shape, activate, activate_grad};
use crate::board::Color;
use crate::eval::nnue::features::{self, INPUTS};
use rayon::prelude::*;

/// Positions per chunk of a batch.
pub const CHUNK: usize = 512;

/// What the net is fitted to.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Objective {
    /// Centipawns per unit of the sigmoid's argument (the same K for score and net).
    pub k: f32,
    /// Weight of the score in the target; the game result has the rest.
    pub lambda: f32,
    /// The same weight for positions of games the 50-move rule or the count drew, where the
    /// score may say "winning" of a position the game shows could not be won.
    pub rule_draw_lambda: f32,
    /// Whether a rule-drawn game's weight moves from `lambda` at its first position to
    /// `rule_draw_lambda` at its last (`Meta::rule_draw`), rather than holding throughout:
    /// the early positions of such a game may still have been won, the late ones were not.
    pub rule_draw_ramp: bool,
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Objective {
    /// The target win probability of position `i`, for the side to move.
    #[inline(always)]
    pub fn target(&self, data: &Dataset, i: usize) -> f32 {
        let m = data.meta(i);
        let lambda = match (m.rule_draw, self.rule_draw_ramp) {
            (None, _) => self.lambda,
            (Some(_), false) => self.rule_draw_lambda,
            (Some(progress), true) => self.lambda + (self.rule_draw_lambda - self.lambda) * (progress as f32 / 255.0),
        };
        lambda * sigmoid(m.score as f32 / self.k) + (1.0 - lambda) * m.result_score()
    }
}

/// One chunk's scratch space and gradient.
#[derive(Clone, Debug)]
struct Worker {
    /// Gradient of the hidden weights, `[INPUTS][N]`; only `touched` rows are non-zero.
    hidden: Vec<f32>,
    touched: Vec<bool>,
    touched_list: Vec<u16>,
    /// Gradient of everything after the hidden weights, in parameter order.
    rest: Vec<f32>,
    own: Vec<f32>,
    other: Vec<f32>,
    d_own: Vec<f32>,
    d_other: Vec<f32>,
    inputs: [Vec<u16>; 2],
    loss: f64,
}

impl Worker {
    fn new(shape: &Shape) -> Worker {
        let n = shape.hidden;
        Worker {
            hidden: vec![0.0; INPUTS * n],
            touched: vec![false; INPUTS],
            touched_list: Vec::new(),
            rest: vec![0.0; shape.params() - shape.hidden_bias_at()],
            own: vec![0.0; n],
            other: vec![0.0; n],
            d_own: vec![0.0; n],
            d_other: vec![0.0; n],
            inputs: [Vec::new(), Vec::new()],
            loss: 0.0,
        }
    }

    /// Adds the loss of `positions` and, if `backward`, their gradient.
    fn run(
        &mut self,
        net: &FloatNet,
        data: &Dataset,
        mirror: &Mirror,
        obj: Objective,
        positions: &[u32],
        backward: bool,
    ) {
        let s = net.shape;
        let n = s.hidden;
        let act = s.activation;
        // d(sigmoid(out * SCALE / K)) / d(out) = p (1 - p) SCALE / K.
        let slope = SCALE as f32 / obj.k;
        self.loss = 0.0;
        for &i in positions {
            let i = i as usize;
            let m = *data.meta(i);
            let white = data.white_features(i);
            let [own_in, other_in] = &mut self.inputs;
            own_in.clear();
            other_in.clear();
            let (own_v, other_v) = match m.stm {
                Color::White => (&mut *own_in, &mut *other_in),
                Color::Black => (&mut *other_in, &mut *own_in),
            };
            own_v.extend_from_slice(white);
            other_v.extend(white.iter().map(|&f| mirror.black(f)));
            net.accumulate(own_in.iter().map(|&f| f as usize), &mut self.own);
            net.accumulate(other_in.iter().map(|&f| f as usize), &mut self.other);
            let bucket = features::output_bucket(m.material as u32, s.buckets);
            let out = net.output(&self.own, &self.other, bucket);
            let p = sigmoid(out * slope);
            let err = p - obj.target(data, i);
            self.loss += (err * err) as f64;
            if !backward {
                continue;
            }
            let g = 2.0 * err * p * (1.0 - p) * slope;
            let w = net.output_weights(bucket);
            let rest = &mut self.rest;
            let ow = s.output_weights_at() - s.hidden_bias_at() + bucket * 2 * n;
            let ob = s.output_bias_at() - s.hidden_bias_at() + bucket;
            rest[ob] += g;
            for j in 0..n {
                rest[ow + j] += g * activate(act, self.own[j]);
                rest[ow + n + j] += g * activate(act, self.other[j]);
                self.d_own[j] = g * w[j] * activate_grad(act, self.own[j]);
                self.d_other[j] = g * w[n + j] * activate_grad(act, self.other[j]);
                rest[j] += self.d_own[j] + self.d_other[j];
            }
            for (inputs, d) in [(&self.inputs[0], &self.d_own), (&self.inputs[1], &self.d_other)] {
                for &f in inputs {
                    let f = f as usize;
                    if !self.touched[f] {
                        self.touched[f] = true;
                        self.touched_list.push(f as u16);
                    }
                    for (gw, d) in self.hidden[f * n..(f + 1) * n].iter_mut().zip(d) {
                        *gw += d;
                    }
                }
            }
        }
    }

    /// Zeroes the gradient for the next batch.
    fn clear(&mut self, n: usize) {
        for &f in &self.touched_list {
            let f = f as usize;
            self.hidden[f * n..(f + 1) * n].fill(0.0);
            self.touched[f] = false;
        }
        self.touched_list.clear();
        self.rest.fill(0.0);
    }
}

/// Computes losses and gradients over batches; keeps its buffers from batch to batch.
#[derive(Clone, Debug)]
pub struct Gradient {
    shape: Shape,
    workers: Vec<Worker>,
    /// The last batch's gradient of the mean loss, in parameter order.
    pub grad: Vec<f32>,
}

impl Gradient {
    /// Buffers for batches of up to `batch` positions.
    pub fn new(shape: Shape, batch: usize) -> Gradient {
        let chunks = batch.div_ceil(CHUNK).max(1);
        Gradient { shape, workers: vec![Worker::new(&shape); chunks], grad: vec![0.0; shape.params()] }
    }

    /// Sets `self.grad` to the gradient of the mean loss over `batch` (indices into
    /// `data`) and returns the summed loss.
    pub fn compute(&mut self, net: &FloatNet, data: &Dataset, mirror: &Mirror, obj: Objective, batch: &[u32]) -> f64 {
        assert_eq!(net.shape, self.shape, "gradient buffers of another shape");
        let chunks: Vec<&[u32]> = batch.chunks(CHUNK).collect();
        if chunks.len() > self.workers.len() {
            self.workers.resize(chunks.len(), Worker::new(&self.shape));
        }
        let workers = &mut self.workers[..chunks.len()];
        workers.par_iter_mut().zip(&chunks).for_each(|(w, c)| w.run(net, data, mirror, obj, c, true));
        let n = self.shape.hidden;
        let scale = 1.0 / batch.len().max(1) as f32;
        let (hidden, rest) = self.grad.split_at_mut(self.shape.hidden_bias_at());
        let workers = &*workers;
        hidden.par_chunks_mut(n).enumerate().for_each(|(f, row)| {
            row.fill(0.0);
            for w in workers.iter().filter(|w| w.touched[f]) {
                for (r, g) in row.iter_mut().zip(&w.hidden[f * n..(f + 1) * n]) {
                    *r += g;
                }
            }
            row.iter_mut().for_each(|r| *r *= scale);
        });
        rest.fill(0.0);
        for w in workers {
            for (r, g) in rest.iter_mut().zip(&w.rest) {
                *r += g;
            }
        }
        rest.iter_mut().for_each(|r| *r *= scale);
        let loss = workers.iter().map(|w| w.loss).sum();
        self.workers.par_iter_mut().for_each(|w| w.clear(n));
        loss
    }

    /// The summed loss over `positions`, without a gradient.
    pub fn loss(&mut self, net: &FloatNet, data: &Dataset, mirror: &Mirror, obj: Objective, positions: &[u32]) -> f64 {
        let chunks: Vec<&[u32]> = positions.chunks(CHUNK * self.workers.len().max(1)).collect();
        let mut total = 0.0;
        for big in chunks {
            let small: Vec<&[u32]> = big.chunks(CHUNK).collect();
            let workers = &mut self.workers[..small.len()];
            workers.par_iter_mut().zip(&small).for_each(|(w, c)| w.run(net, data, mirror, obj, c, false));
            total += workers.iter().map(|w| w.loss).sum::<f64>();
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::Activation;
    use crate::eval::nnue::features::hands_of;
    use crate::tools::tune::random_positions;

    fn small_set() -> Dataset {
        let mut data = Dataset::new();
        for (i, pos) in random_positions(31, 300).iter().enumerate() {
            let board = pos.occupied().map(|sq| (sq, pos.piece_on(sq).unwrap()));
            let score = (i as i16 % 41 - 20) * 37;
            let rule_draw = (i % 3 == 1 && i % 5 == 0).then_some((i * 7 % 256) as u8);
            data.push(board, &hands_of(pos), pos.side_to_move(), score, (i % 3) as u8, rule_draw);
        }
        data
    }

    /// The analytic gradient agrees with central differences of the loss, for weights of
    /// every kind (hidden weight, hidden bias, output weight, output bias).
    #[test]
    fn the_gradient_matches_finite_differences() {
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let data = small_set();
            let mirror = Mirror::new();
            let shape = Shape { hidden: 8, buckets: 2, activation };
            let mut net = FloatNet::random(shape, 4);
            for p in &mut net.params[shape.hidden_bias_at()..shape.output_weights_at()] {
                *p = 0.4;
            }
            let obj = Objective { k: 400.0, lambda: 0.7, rule_draw_lambda: 0.3, rule_draw_ramp: true };
            let batch: Vec<u32> = (0..data.len() as u32).collect();
            let mut g = Gradient::new(shape, batch.len());
            g.compute(&net, &data, &mirror, obj, &batch);
            let analytic = g.grad.clone();
            // The white pawn on d3 (in every start structure) and the hand's rook input.
            let pawn = features::board_feature(
                Color::White,
                crate::board::Piece::new(Color::White, crate::board::PieceType::Pawn),
                crate::board::Square::D3,
            );
            let checks = [
                pawn * 8 + 3,
                (features::BOARD_INPUTS + 4) * 8 + 1,
                shape.hidden_bias_at() + 5,
                shape.output_weights_at() + 3,
                shape.output_weights_at() + 2 * 8 + 12,
                shape.output_bias_at() + 1,
            ];
            for &at in &checks {
                let h = 1e-3f32;
                let mut plus = net.clone();
                plus.params[at] += h;
                let mut minus = net.clone();
                minus.params[at] -= h;
                let lp = g.loss(&plus, &data, &mirror, obj, &batch) / batch.len() as f64;
                let lm = g.loss(&minus, &data, &mirror, obj, &batch) / batch.len() as f64;
                let numeric = (lp - lm) / (2.0 * h as f64);
                let a = analytic[at] as f64;
                assert!(
                    (a - numeric).abs() <= 1e-3 * a.abs().max(numeric.abs()) + 1e-6,
                    "{activation:?} param {at}: analytic {a} numeric {numeric}"
                );
            }
            assert!(analytic[checks[0]] != 0.0 && analytic[checks[3]] != 0.0, "the checks see a gradient");
        }
    }

    /// A game the 50-move rule or the count drew weighs its result by `rule_draw_lambda`;
    /// every other game by `lambda`.
    #[test]
    fn rule_draws_take_their_own_weight() {
        let mut data = Dataset::new();
        let pos = &random_positions(5, 1)[0];
        for rule_draw in [None, Some(51), Some(255)] {
            let board = pos.occupied().map(|sq| (sq, pos.piece_on(sq).unwrap()));
            data.push(board, &hands_of(pos), pos.side_to_move(), 400, 1, rule_draw);
        }
        let obj = Objective { k: 400.0, lambda: 1.0, rule_draw_lambda: 0.5, rule_draw_ramp: false };
        let s = sigmoid(1.0);
        assert!((obj.target(&data, 0) - s).abs() < 1e-6);
        assert!((obj.target(&data, 1) - (0.5 * s + 0.25)).abs() < 1e-6);
        assert_eq!(obj.target(&data, 1), obj.target(&data, 2), "without the ramp the place does not count");
        let same = Objective { rule_draw_lambda: 1.0, ..obj };
        assert_eq!(same.target(&data, 0), same.target(&data, 1));
        // With the ramp, a fifth of the way through the game (51 of 255) the weight has
        // moved a fifth of the way from 1 to 0.5; at the game's end all the way.
        let ramp = Objective { rule_draw_ramp: true, ..obj };
        assert_eq!(ramp.target(&data, 0), obj.target(&data, 0));
        assert!((ramp.target(&data, 1) - (0.9 * s + 0.05)).abs() < 1e-6);
        assert!((ramp.target(&data, 2) - (0.5 * s + 0.25)).abs() < 1e-6);
    }

    /// The gradient is the same bit for bit on one thread or two, and after the buffers
    /// held another batch's gradient.
    #[test]
    fn the_gradient_does_not_depend_on_threads() {
        let data = small_set();
        let mirror = Mirror::new();
        let shape = Shape { hidden: 16, buckets: 1, activation: Activation::SCReLU };
        let net = FloatNet::random(shape, 8);
        let obj = Objective { k: 400.0, lambda: 1.0, rule_draw_lambda: 0.5, rule_draw_ramp: false };
        let batch: Vec<u32> = (0..data.len() as u32).rev().collect();
        let mut results = Vec::new();
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut g = Gradient::new(shape, 128);
            pool.install(|| {
                g.compute(&net, &data, &mirror, obj, &batch[..100]);
                let loss = g.compute(&net, &data, &mirror, obj, &batch);
                results.push((loss.to_bits(), g.grad.iter().map(|x| x.to_bits()).collect::<Vec<u32>>()));
            });
        }
        assert!(results.windows(2).all(|w| w[0] == w[1]));
    }
}
