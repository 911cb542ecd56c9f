//! The net in floating point, as the trainer moves it, and its rounding into the engine's
//! file.
//!
//! The function is the engine's (`eval::nnue::network`) with the integers divided out:
//! each perspective's accumulator is the hidden bias plus the columns of its active inputs,
//! `act` is clamp(x, 0, 1) (CReLU) or its square (SCReLU), and the output for the side to
//! move is `act(own) . w[bucket][..N] + act(other) . w[bucket][N..] + b[bucket]`, which
//! times `SCALE` is centipawns. Quantised, a hidden weight or bias is round(x * QA), an
//! output weight round(x * QB) and an output bias round(x * QA * QB): then the engine's
//! integer sum is QA * QB times the float one, and its division by QA * QB returns it.

use super::data::{Dataset, Mirror};
use crate::board::{Color, Position};
use crate::eval::nnue::features::{self, INPUTS};
use crate::eval::nnue::{Activation, Architecture, QuantisedNet};
use crate::rng::Rng;

/// Quantisation of the hidden layer: 1.0 in an accumulator is QA in the engine's.
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// The output times SCALE is centipawns.
pub const SCALE: i32 = 400;
/// Every weight and bias is kept within +-CLIP while training. A hidden weight then
/// quantises to at most 505 in magnitude, and the 33 inputs a position can switch on (32
/// pieces, a hand input standing for a piece off the board, plus the bias) sum to at most
/// 16,665: the engine's i16 accumulator cannot overflow.
pub const CLIP: f32 = 1.98;

/// The shape of a net.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shape {
    /// Hidden size per perspective.
    pub hidden: usize,
    /// Output buckets by material.
    pub buckets: usize,
    /// The hidden activation.
    pub activation: Activation,
}

impl Shape {
    /// Where the hidden biases start in the parameter vector.
    pub fn hidden_bias_at(&self) -> usize {
        INPUTS * self.hidden
    }

    /// Where the output weights start.
    pub fn output_weights_at(&self) -> usize {
        self.hidden_bias_at() + self.hidden
    }

    /// Where the output biases start.
    pub fn output_bias_at(&self) -> usize {
        self.output_weights_at() + 2 * self.hidden * self.buckets
    }

    /// Parameters in all.
    pub fn params(&self) -> usize {
        self.output_bias_at() + self.buckets
    }

    /// The engine's architecture record for this shape.
    pub fn architecture(&self) -> Architecture {
        Architecture {
            inputs: INPUTS,
            hidden: self.hidden,
            buckets: self.buckets,
            activation: self.activation,
            qa: QA,
            qb: QB,
            scale: SCALE,
        }
    }
}

/// The activation of an accumulator entry.
#[inline(always)]
pub fn activate(activation: Activation, x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    match activation {
        Activation::CReLU => c,
        Activation::SCReLU => c * c,
    }
}

/// Its derivative (0 where the clamp holds).
#[inline(always)]
pub fn activate_grad(activation: Activation, x: f32) -> f32 {
    if x <= 0.0 || x >= 1.0 {
        return 0.0;
    }
    match activation {
        Activation::CReLU => 1.0,
        Activation::SCReLU => 2.0 * x,
    }
}

/// A net's weights in floating point, in the file's order: hidden weights `[INPUTS][N]`,
/// hidden biases `[N]`, output weights `[B][2N]`, output biases `[B]`.
#[derive(Clone, PartialEq, Debug)]
pub struct FloatNet {
    /// The shape.
    pub shape: Shape,
    /// Every parameter, in the order above.
    pub params: Vec<f32>,
}

impl FloatNet {
    /// A fresh net: weights uniform within +-1/sqrt(fan-in), biases zero.
    pub fn random(shape: Shape, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut params = vec![0.0f32; shape.params()];
        let mut fill = |range: std::ops::Range<usize>, fan_in: usize| {
            let a = 1.0 / (fan_in as f64).sqrt();
            for p in &mut params[range] {
                *p = ((2.0 * rng.unit() - 1.0) * a) as f32;
            }
        };
        fill(0..shape.hidden_bias_at(), INPUTS);
        fill(shape.output_weights_at()..shape.output_bias_at(), 2 * shape.hidden);
        FloatNet { shape, params }
    }

    /// The hidden weights of input `f`.
    #[inline(always)]
    pub fn column(&self, f: usize) -> &[f32] {
        let n = self.shape.hidden;
        &self.params[f * n..(f + 1) * n]
    }

    /// The hidden biases.
    #[inline(always)]
    pub fn hidden_biases(&self) -> &[f32] {
        let at = self.shape.hidden_bias_at();
        &self.params[at..at + self.shape.hidden]
    }

    /// Bucket `b`'s output weights: the own side's N, then the other side's.
    #[inline(always)]
    pub fn output_weights(&self, b: usize) -> &[f32] {
        let n2 = 2 * self.shape.hidden;
        let at = self.shape.output_weights_at() + b * n2;
        &self.params[at..at + n2]
    }

    /// Bucket `b`'s output bias.
    #[inline(always)]
    pub fn output_bias(&self, b: usize) -> f32 {
        self.params[self.shape.output_bias_at() + b]
    }

    /// Sets `acc` to the accumulator of the given inputs.
    #[inline]
    pub fn accumulate(&self, inputs: impl Iterator<Item = usize>, acc: &mut [f32]) {
        acc.copy_from_slice(self.hidden_biases());
        for f in inputs {
            for (a, w) in acc.iter_mut().zip(self.column(f)) {
                *a += w;
            }
        }
    }

    /// The output (centipawns / SCALE) for the side to move's accumulator `own` and the
    /// other side's.
    #[inline]
    pub fn output(&self, own: &[f32], other: &[f32], bucket: usize) -> f32 {
        let act = self.shape.activation;
        let n = self.shape.hidden;
        let w = self.output_weights(bucket);
        let dot = |acc: &[f32], w: &[f32]| acc.iter().zip(w).map(|(&x, &w)| activate(act, x) * w).sum::<f32>();
        dot(own, &w[..n]) + dot(other, &w[n..]) + self.output_bias(bucket)
    }

    /// Position `i` of `data`, in centipawns from the side to move's view.
    pub fn evaluate_sample(&self, data: &Dataset, mirror: &Mirror, i: usize) -> f32 {
        let n = self.shape.hidden;
        let (mut white, mut black) = (vec![0.0; n], vec![0.0; n]);
        let feats = data.white_features(i);
        self.accumulate(feats.iter().map(|&f| f as usize), &mut white);
        self.accumulate(feats.iter().map(|&f| mirror.black(f) as usize), &mut black);
        let m = data.meta(i);
        let bucket = features::output_bucket(m.material as u32, self.shape.buckets);
        let out = match m.stm {
            Color::White => self.output(&white, &black, bucket),
            Color::Black => self.output(&black, &white, bucket),
        };
        out * SCALE as f32
    }

    /// `pos` in centipawns from the side to move's view: the float twin of
    /// `Network::evaluate`.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let n = self.shape.hidden;
        let (mut own, mut other) = (vec![0.0; n], vec![0.0; n]);
        let mut inputs = Vec::new();
        features::position_features(pos, pos.side_to_move(), |f| inputs.push(f));
        self.accumulate(inputs.drain(..), &mut own);
        features::position_features(pos, !pos.side_to_move(), |f| inputs.push(f));
        self.accumulate(inputs.drain(..), &mut other);
        self.output(&own, &other, features::position_bucket(pos, self.shape.buckets)) * SCALE as f32
    }

    /// The same function with its one output copied into each of `buckets` material
    /// buckets: a bucketed net starts from a trained single-output one (`--init`), and its
    /// buckets then learn apart, instead of starting from random weights.
    pub fn with_buckets(&self, buckets: usize) -> Result<FloatNet, String> {
        let s = self.shape;
        if buckets == s.buckets {
            return Ok(self.clone());
        }
        if s.buckets != 1 || buckets == 0 {
            return Err(format!("only a one-bucket net can be split into buckets, not {} into {buckets}", s.buckets));
        }
        let shape = Shape { buckets, ..s };
        let mut params = self.params[..s.output_weights_at()].to_vec();
        for _ in 0..buckets {
            params.extend_from_slice(self.output_weights(0));
        }
        params.extend(std::iter::repeat_n(self.output_bias(0), buckets));
        debug_assert_eq!(params.len(), shape.params());
        Ok(FloatNet { shape, params })
    }

    /// The same function with `hidden` units a perspective instead of fewer: the new units
    /// get random input weights (drawn from `seed` as a fresh net's are) and zero output
    /// weights, so they add nothing until training moves them. A wider net can so start
    /// from an accepted narrower one instead of from random weights.
    pub fn with_hidden(&self, hidden: usize, seed: u64) -> Result<FloatNet, String> {
        let s = self.shape;
        if hidden == s.hidden {
            return Ok(self.clone());
        }
        if hidden < s.hidden {
            return Err(format!("a net can be widened, not narrowed: {} units into {hidden}", s.hidden));
        }
        let shape = Shape { hidden, ..s };
        let (old, new) = (s.hidden, hidden - s.hidden);
        let mut rng = Rng::new(seed);
        let a = 1.0 / (INPUTS as f64).sqrt();
        let mut params = Vec::with_capacity(shape.params());
        for f in 0..INPUTS {
            params.extend_from_slice(self.column(f));
            params.extend((0..new).map(|_| ((2.0 * rng.unit() - 1.0) * a) as f32));
        }
        params.extend_from_slice(self.hidden_biases());
        params.extend(std::iter::repeat_n(0.0, new));
        for b in 0..s.buckets {
            let w = self.output_weights(b);
            for side in [&w[..old], &w[old..]] {
                params.extend_from_slice(side);
                params.extend(std::iter::repeat_n(0.0, new));
            }
        }
        params.extend((0..s.buckets).map(|b| self.output_bias(b)));
        debug_assert_eq!(params.len(), shape.params());
        Ok(FloatNet { shape, params })
    }

    /// Keeps every parameter within +-`CLIP`.
    pub fn clip(&mut self) {
        for p in &mut self.params {
            *p = p.clamp(-CLIP, CLIP);
        }
    }

    /// The float net a quantised one stands for: its integers divided by their scales.
    pub fn from_quantised(q: &QuantisedNet) -> FloatNet {
        let a = &q.arch;
        let shape = Shape { hidden: a.hidden, buckets: a.buckets, activation: a.activation };
        let (qa, qb) = (a.qa as f32, a.qb as f32);
        let mut params = Vec::with_capacity(shape.params());
        params.extend(q.hidden_weights.iter().chain(&q.hidden_biases).map(|&w| w as f32 / qa));
        params.extend(q.output_weights.iter().map(|&w| w as f32 / qb));
        params.extend(q.output_biases.iter().map(|&b| b as f32 / (qa * qb)));
        FloatNet { shape, params }
    }

    /// The net rounded to the engine's integers.
    pub fn quantise(&self) -> QuantisedNet {
        let s = &self.shape;
        let round_i16 = |x: f32, q: i32| (x as f64 * q as f64).round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        let p = &self.params;
        QuantisedNet {
            arch: s.architecture(),
            hidden_weights: p[..s.hidden_bias_at()].iter().map(|&w| round_i16(w, QA)).collect(),
            hidden_biases: p[s.hidden_bias_at()..s.output_weights_at()].iter().map(|&w| round_i16(w, QA)).collect(),
            output_weights: p[s.output_weights_at()..s.output_bias_at()].iter().map(|&w| round_i16(w, QB)).collect(),
            output_biases: p[s.output_bias_at()..]
                .iter()
                .map(|&b| (b as f64 * (QA * QB) as f64).round().clamp(i32::MIN as f64, i32::MAX as f64) as i32)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::Network;
    use crate::tools::tune::random_positions;

    /// A random net the size of a small trained one, its weights within the clip.
    fn random_clipped(activation: Activation, seed: u64) -> FloatNet {
        let shape = Shape { hidden: 32, buckets: 4, activation };
        let mut net = FloatNet::random(shape, seed);
        // Biases and larger hidden weights as training leaves them, so that every part of
        // the activation (below 0, in between, above 1) is exercised.
        let mut rng = Rng::new(seed ^ 1);
        for p in &mut net.params[..shape.output_weights_at()] {
            *p = (*p * 8.0 + (rng.unit() as f32 - 0.5) * 0.1).clamp(-CLIP, CLIP);
        }
        for b in 0..shape.buckets {
            net.params[shape.output_bias_at() + b] = b as f32 * 0.3 - 0.4;
        }
        net
    }

    /// The engine's integer arithmetic computes the float function exactly, but for its
    /// truncating divisions: on the quantised net's own weights the two agree within 1 cp
    /// (the last division) plus SCALE / (QA QB) = 0.025 cp (SCReLU's division by QA).
    #[test]
    fn the_engine_computes_the_float_function() {
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let q = random_clipped(activation, 5).quantise();
            let net = FloatNet::from_quantised(&q);
            assert_eq!(net.quantise(), q, "quantising is a round trip on quantised weights");
            let engine = Network::from_bytes(&q.to_bytes()).expect("a valid file");
            for pos in random_positions(17, 400) {
                let (float, int) = (net.evaluate(&pos), engine.evaluate(&pos) as f32);
                assert!((float - int).abs() < 1.03, "{activation:?}: float {float} int {int} at {}", pos.fen());
            }
        }
    }

    /// Rounding the weights costs little: over 400 random positions the engine's evaluation
    /// is on average within 5 cp of the float net's and never more than 25 cp away. Most of
    /// it is the output weights' step of 1/QB: each hidden unit's contribution is off by up
    /// to SCALE / (2 QB) = 3.1 cp times its activation, at random, so over 64 units the
    /// difference has a spread of about 4 cp.
    #[test]
    fn the_quantised_net_evaluates_as_the_float_one() {
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let net = random_clipped(activation, 5);
            let engine = Network::from_bytes(&net.quantise().to_bytes()).expect("a valid file");
            let errors: Vec<f32> =
                random_positions(17, 400).iter().map(|p| (net.evaluate(p) - engine.evaluate(p) as f32).abs()).collect();
            let mean = errors.iter().sum::<f32>() / errors.len() as f32;
            let worst = errors.iter().fold(0.0f32, |a, &b| a.max(b));
            assert!(mean <= 5.0 && worst <= 25.0, "{activation:?}: mean {mean:.2} cp, worst {worst:.2} cp");
            assert!(worst > 0.0, "the comparison saw rounding at all");
        }
    }

    #[test]
    fn the_dataset_path_evaluates_as_the_position_path() {
        let net = random_clipped(Activation::SCReLU, 9);
        let mirror = Mirror::new();
        let mut data = Dataset::new();
        let positions = random_positions(23, 200);
        for pos in &positions {
            let board = pos.occupied().map(|sq| (sq, pos.piece_on(sq).unwrap()));
            data.push(board, &features::hands_of(pos), pos.side_to_move(), 0, 1, None);
        }
        for (i, pos) in positions.iter().enumerate() {
            let (a, b) = (net.evaluate_sample(&data, &mirror, i), net.evaluate(pos));
            assert!((a - b).abs() <= 1e-3 * (1.0 + b.abs()), "{a} vs {b}");
        }
    }

    #[test]
    fn splitting_into_buckets_keeps_the_function() {
        // A one-bucket net: a four-bucket one's hidden layer with its first bucket's output.
        let four = random_clipped(Activation::SCReLU, 11);
        let one = Shape { buckets: 1, ..four.shape };
        let mut params = four.params[..one.output_weights_at()].to_vec();
        params.extend_from_slice(four.output_weights(0));
        params.push(four.output_bias(0));
        let net = FloatNet { shape: one, params };
        assert_eq!(net.params.len(), one.params());
        let split = net.with_buckets(8).expect("one bucket splits");
        assert_eq!(split.shape.buckets, 8);
        assert_eq!(split.params.len(), split.shape.params());
        for pos in random_positions(29, 200) {
            assert_eq!(net.evaluate(&pos), split.evaluate(&pos), "{}", pos.fen());
        }
        assert!(split.with_buckets(4).is_err(), "eight buckets do not become four");
        assert_eq!(split.with_buckets(8).expect("same count"), split);
    }

    #[test]
    fn widening_keeps_the_function_and_the_new_units_can_learn() {
        let net = random_clipped(Activation::SCReLU, 12);
        let wide = net.with_hidden(48, 5).expect("32 units widen to 48");
        assert_eq!(wide.shape, Shape { hidden: 48, ..net.shape });
        assert_eq!(wide.params.len(), wide.shape.params());
        for pos in random_positions(31, 200) {
            assert_eq!(net.evaluate(&pos), wide.evaluate(&pos), "{}", pos.fen());
        }
        // The engine's integers agree as well: the new output weights round to zero.
        let engine = |n: &FloatNet| Network::from_bytes(&n.quantise().to_bytes()).expect("a valid file");
        let (narrow_int, wide_int) = (engine(&net), engine(&wide));
        for pos in random_positions(33, 100) {
            assert_eq!(narrow_int.evaluate(&pos), wide_int.evaluate(&pos), "{}", pos.fen());
        }
        // The new units are live (some input weight is not zero), so training reaches them
        // through their output weights.
        assert!((0..INPUTS).any(|f| wide.column(f)[32..].iter().any(|&w| w != 0.0)));
        assert!(wide.with_hidden(16, 5).is_err(), "48 units do not become 16");
        assert_eq!(wide.with_hidden(48, 5).expect("same width"), wide);
    }

    #[test]
    fn clipped_weights_cannot_overflow_the_accumulator() {
        let shape = Shape { hidden: 8, buckets: 1, activation: Activation::SCReLU };
        let mut net = FloatNet { shape, params: vec![5.0; shape.params()] };
        net.clip();
        let q = net.quantise();
        let worst = 33 * q.hidden_weights.iter().map(|w| w.unsigned_abs() as i32).max().unwrap();
        assert!(worst <= i16::MAX as i32, "{worst}");
        assert_eq!(q.output_weights[0], (CLIP * QB as f32).round() as i16);
    }
}
