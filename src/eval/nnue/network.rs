//! A loaded net: accumulators and the output, in integers, as the engine evaluates.

use super::features::{self, INPUTS};
use super::file::{Activation, NetError, QuantisedNet, fnv1a};
use crate::board::{Color, Position};

/// A net ready to evaluate with.
#[derive(Clone, Debug)]
pub struct Network {
    net: QuantisedNet,
    name: String,
    /// Whether the output's products fit the narrow integers of `output_narrow` (see
    /// `narrow_output_fits`); a net outside those bounds takes the wide path.
    narrow: bool,
    /// Whether this CPU has AVX2, for the hot loops' second compilation (`simd`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
}

/// Whether the CPU running us has AVX2.
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Terms summed in an `i32` before the sum moves to an `i64`, in the narrow output.
const NARROW_CHUNK: usize = 128;

/// Whether `net`'s output can be computed in the narrow integers: an activation (at most QA)
/// times an output weight fits an `i16`, and `NARROW_CHUNK` of those times another
/// activation fit an `i32`. The trainer's nets (QA 255, weights clipped to 127) always do.
fn narrow_output_fits(net: &QuantisedNet) -> bool {
    let qa = net.arch.qa as i64;
    let max_w = net.output_weights.iter().map(|w| (*w as i64).abs()).max().unwrap_or(0);
    qa <= i16::MAX as i64 && qa * max_w <= i16::MAX as i64 && NARROW_CHUNK as i64 * qa * qa * max_w <= i32::MAX as i64
}

/// `src + a - s (- s2)` into `dst`, element by element, wrapping as the accumulator does.
#[inline(always)]
fn apply(src: &[i16], dst: &mut [i16], a: &[i16], s: &[i16], s2: Option<&[i16]>) {
    match s2 {
        None => {
            for (((d, &x), &a), &s) in dst.iter_mut().zip(src).zip(a).zip(s) {
                *d = x.wrapping_add(a).wrapping_sub(s);
            }
        }
        Some(s2) => {
            for ((((d, &x), &a), &s), &s2) in dst.iter_mut().zip(src).zip(a).zip(s).zip(s2) {
                *d = x.wrapping_add(a).wrapping_sub(s).wrapping_sub(s2);
            }
        }
    }
}

/// Activations dotted with output weights in `i16` products and `i32` sums (the net's
/// bounds are checked at load), so the loop vectorises into multiply-add instructions: in
/// `i64` the output was the costliest part of an evaluation.
#[inline(always)]
fn dot_narrow(qa: i16, screlu: bool, acc: &[i16], w: &[i16]) -> i64 {
    let mut total = 0i64;
    for (acc, w) in acc.chunks(NARROW_CHUNK).zip(w.chunks(NARROW_CHUNK)) {
        let mut sum = 0i32;
        if screlu {
            for (&x, &w) in acc.iter().zip(w) {
                let c = x.clamp(0, qa);
                sum += (c * w) as i32 * c as i32;
            }
        } else {
            for (&x, &w) in acc.iter().zip(w) {
                sum += x.clamp(0, qa) as i32 * w as i32;
            }
        }
        total += sum as i64;
    }
    total
}

/// The hot loops compiled again for AVX2, picked at run time: the same code, twice the
/// vector width of the x86-64 baseline the crate is built for.
#[cfg(target_arch = "x86_64")]
mod simd {
    /// `apply` with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn apply_avx2(src: &[i16], dst: &mut [i16], a: &[i16], s: &[i16], s2: Option<&[i16]>) {
        super::apply(src, dst, a, s, s2)
    }

    /// `dot_narrow` with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn dot_narrow_avx2(qa: i16, screlu: bool, acc: &[i16], w: &[i16]) -> i64 {
        super::dot_narrow(qa, screlu, acc, w)
    }
}

impl Network {
    /// Loads a net from its file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let net = QuantisedNet::from_bytes(bytes)?;
        let narrow = narrow_output_fits(&net);
        Ok(Network { net, name: format!("sitke-{:012x}", fnv1a(bytes) >> 16), narrow, avx2: has_avx2() })
    }

    /// Reads and loads a net file; the error says what is wrong with the file or its bytes.
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        Network::from_bytes(&bytes).map_err(|e| e.to_string())
    }

    /// The net's name: a hash of its file, so two nets are told apart by name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The stored weights.
    pub fn weights(&self) -> &QuantisedNet {
        &self.net
    }

    /// Hidden size per perspective: the length of an accumulator.
    pub fn hidden(&self) -> usize {
        self.net.arch.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.net.arch.buckets
    }

    /// The hidden weights of input `f`.
    #[inline(always)]
    fn column(&self, f: usize) -> &[i16] {
        let n = self.hidden();
        &self.net.hidden_weights[f * n..(f + 1) * n]
    }

    /// Adds input `f` to an accumulator.
    #[inline(always)]
    pub fn add_feature(&self, acc: &mut [i16], f: usize) {
        debug_assert!(f < INPUTS);
        for (a, w) in acc.iter_mut().zip(self.column(f)) {
            *a = a.wrapping_add(*w);
        }
    }

    /// Takes input `f` out of an accumulator: the one-at-a-time reference the tests check
    /// `update` against (the search updates through `update` alone).
    #[cfg(test)]
    fn sub_feature(&self, acc: &mut [i16], f: usize) {
        debug_assert!(f < INPUTS);
        for (a, w) in acc.iter_mut().zip(self.column(f)) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// Writes `src` plus input `add` minus input `sub` (and `sub2`, a captured piece) into
    /// `dst`: a move's whole update in one pass over the accumulator rather than a copy and
    /// a pass per input.
    #[inline(always)]
    pub fn update(&self, src: &[i16], dst: &mut [i16], add: usize, sub: usize, sub2: Option<usize>) {
        debug_assert!(add < INPUTS && sub < INPUTS && sub2.is_none_or(|f| f < INPUTS));
        let (a, s, s2) = (self.column(add), self.column(sub), sub2.map(|f| self.column(f)));
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is true only where `is_x86_feature_detected!("avx2")` held when
            // the net was loaded, so the CPU has the instructions the function was compiled
            // with. Gain: +7.8% nodes/s in `sitke bench` over the baseline loops (median of
            // six alternated rounds, docs/performance.md "NNUE inference").
            return unsafe { simd::apply_avx2(src, dst, a, s, s2) };
        }
        apply(src, dst, a, s, s2)
    }

    /// Recomputes `perspective`'s accumulator of `pos` from scratch.
    pub fn refresh(&self, pos: &Position, perspective: Color, acc: &mut [i16]) {
        acc.copy_from_slice(&self.net.hidden_biases);
        features::position_features(pos, perspective, |f| self.add_feature(acc, f));
    }

    /// The output for accumulators `own` (the side to move's) and `other`, in centipawns
    /// from the side to move's point of view.
    #[inline]
    pub fn output(&self, own: &[i16], other: &[i16], bucket: usize) -> i32 {
        let a = &self.net.arch;
        let n = a.hidden;
        let w = &self.net.output_weights[bucket * 2 * n..(bucket + 1) * 2 * n];
        let sum = if self.narrow {
            self.output_narrow(own, &w[..n]) + self.output_narrow(other, &w[n..])
        } else {
            self.output_wide(own, &w[..n]) + self.output_wide(other, &w[n..])
        };
        let sum = if a.activation == Activation::SCReLU { sum / a.qa as i64 } else { sum };
        let out = (sum + self.net.output_biases[bucket] as i64) * a.scale as i64 / (a.qa as i64 * a.qb as i64);
        out.clamp(-(i32::MAX as i64), i32::MAX as i64) as i32
    }

    /// One perspective's activations dotted with its output weights in narrow integers
    /// (`dot_narrow`), with AVX2 where the CPU has it.
    #[inline(always)]
    fn output_narrow(&self, acc: &[i16], w: &[i16]) -> i64 {
        let qa = self.net.arch.qa as i16;
        let screlu = self.net.arch.activation == Activation::SCReLU;
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: as in `update`: `avx2` is set only on a CPU that has AVX2.
            return unsafe { simd::dot_narrow_avx2(qa, screlu, acc, w) };
        }
        dot_narrow(qa, screlu, acc, w)
    }

    /// `output_narrow` in `i64`, for a net whose weights or QA exceed its bounds.
    fn output_wide(&self, acc: &[i16], w: &[i16]) -> i64 {
        let qa = self.net.arch.qa;
        let clamp = |x: i16| (x as i32).clamp(0, qa) as i64;
        match self.net.arch.activation {
            Activation::CReLU => acc.iter().zip(w).map(|(&x, &w)| clamp(x) * w as i64).sum(),
            Activation::SCReLU => acc.iter().zip(w).map(|(&x, &w)| clamp(x) * clamp(x) * w as i64).sum(),
        }
    }

    /// Evaluates `pos` from scratch, from the side to move's point of view, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let n = self.hidden();
        let mut own = vec![0i16; n];
        let mut other = vec![0i16; n];
        let stm = pos.side_to_move();
        self.refresh(pos, stm, &mut own);
        self.refresh(pos, !stm, &mut other);
        self.output(&own, &other, features::position_bucket(pos, self.buckets()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::nnue::Architecture;
    use crate::rng::Rng;

    /// A net with random weights of the sizes a trained one has.
    pub(crate) fn random_net(seed: u64, activation: Activation) -> Network {
        let mut rng = Rng::new(seed);
        let (hidden, buckets) = (16, 4);
        let mut small = |m: i64| (rng.below(2 * m as u64 + 1) as i64 - m) as i16;
        let net = QuantisedNet {
            arch: Architecture { inputs: INPUTS, hidden, buckets, activation, qa: 255, qb: 64, scale: 400 },
            hidden_weights: (0..INPUTS * hidden).map(|_| small(60)).collect(),
            hidden_biases: (0..hidden).map(|_| small(100)).collect(),
            output_weights: (0..buckets * 2 * hidden).map(|_| small(120)).collect(),
            output_biases: (0..buckets).map(|i| i as i32 * 1000 - 1500).collect(),
        };
        Network::from_bytes(&net.to_bytes()).expect("a net we just wrote")
    }

    /// The colour-swapped rotation: board turned half round, colours, hands and side to
    /// move exchanged.
    fn rotated_fen(pos: &Position) -> String {
        use crate::board::Square;
        let mut rows = Vec::new();
        for rank in (0..8u8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = Square::from_index((rank * 8 + file) ^ 63);
                match pos.piece_on(sq) {
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let c = p.letter();
                        row.push(if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() });
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let fen = pos.fen();
        let (_, rest) = fen.split_once('[').expect("a FEN with pockets");
        let (pocket, tail) = rest.split_once(']').expect("a closed pocket");
        let swapped: String = pocket
            .chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect();
        let mut fields: Vec<&str> = tail.split_whitespace().collect();
        let stm = if fields[0] == "w" { "b" } else { "w" };
        fields[0] = stm;
        format!("{}[{}] {}", rows.join("/"), swapped, fields.join(" "))
    }

    #[test]
    fn a_position_and_its_colour_swapped_rotation_score_the_same() {
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let net = random_net(3, activation);
            let mut rng = Rng::new(11);
            for _ in 0..300 {
                let mut pos = Position::startpos();
                for _ in 0..rng.range(0, 120) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.do_move(moves.as_slice()[rng.index(moves.len())]);
                }
                let fen = rotated_fen(&pos);
                let rot = Position::from_fen(&fen).expect("the rotation is a position");
                assert_eq!(net.evaluate(&pos), net.evaluate(&rot), "{} vs {fen}", pos.fen());
            }
        }
    }

    /// The narrow output (`i16` products, `i32` sums) equals the wide one on accumulators
    /// anywhere in the `i16` range, and a net whose weights break the bounds takes the
    /// wide path.
    #[test]
    fn the_narrow_output_equals_the_wide_one() {
        let mut rng = Rng::new(17);
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let net = random_net(9, activation);
            assert!(net.narrow);
            let n = net.hidden();
            for _ in 0..2000 {
                let acc: Vec<i16> = (0..n).map(|_| rng.below(1 << 16) as u16 as i16 / (1i16 << rng.below(8))).collect();
                let w = &net.net.output_weights[..n];
                let wide = net.output_wide(&acc, w);
                // The dispatched loop (AVX2 where the CPU has it) and the baseline one.
                assert_eq!(net.output_narrow(&acc, w), wide);
                assert_eq!(dot_narrow(255, activation == Activation::SCReLU, &acc, w), wide);
            }
        }
        let mut wide = random_net(9, Activation::SCReLU).net;
        wide.output_weights[3] = 200;
        assert!(!narrow_output_fits(&wide));
    }

    #[test]
    fn add_and_sub_undo_each_other() {
        let net = random_net(5, Activation::SCReLU);
        let pos = Position::startpos();
        let mut acc = vec![0i16; net.hidden()];
        net.refresh(&pos, Color::White, &mut acc);
        let before = acc.clone();
        for f in [0, 100, 700, INPUTS - 1] {
            net.add_feature(&mut acc, f);
        }
        for f in [700, 0, INPUTS - 1, 100] {
            net.sub_feature(&mut acc, f);
        }
        assert_eq!(acc, before);
    }

    /// The fused update equals a copy, an add and the subtractions one by one.
    #[test]
    fn the_fused_update_equals_add_and_sub() {
        let net = random_net(7, Activation::CReLU);
        let mut src = vec![0i16; net.hidden()];
        net.refresh(&Position::startpos(), Color::Black, &mut src);
        for (add, sub, sub2) in [(3, 700, None), (INPUTS - 1, 0, Some(450)), (12, 12, Some(12))] {
            let mut fused = vec![0i16; net.hidden()];
            net.update(&src, &mut fused, add, sub, sub2);
            let mut baseline = vec![0i16; net.hidden()];
            apply(&src, &mut baseline, net.column(add), net.column(sub), sub2.map(|f| net.column(f)));
            assert_eq!(fused, baseline);
            let mut steps = src.clone();
            net.add_feature(&mut steps, add);
            net.sub_feature(&mut steps, sub);
            if let Some(s2) = sub2 {
                net.sub_feature(&mut steps, s2);
            }
            assert_eq!(fused, steps);
        }
    }
}
