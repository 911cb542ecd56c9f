//! A loaded net: accumulators and the output, in integers, as the engine evaluates.

use super::features::{self, INPUTS};
use super::file::{Activation, NetError, QuantisedNet, fnv1a};
use crate::board::{Color, Position};

/// A net ready to evaluate with.
#[derive(Clone, Debug)]
pub struct Network {
    net: QuantisedNet,
    name: String,
}

impl Network {
    /// Loads a net from its file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let net = QuantisedNet::from_bytes(bytes)?;
        Ok(Network { net, name: format!("sitke-{:012x}", fnv1a(bytes) >> 16) })
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

    /// Takes input `f` out of an accumulator.
    #[inline(always)]
    pub fn sub_feature(&self, acc: &mut [i16], f: usize) {
        debug_assert!(f < INPUTS);
        for (a, w) in acc.iter_mut().zip(self.column(f)) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// Recomputes `perspective`'s accumulator of `pos` from scratch.
    pub fn refresh(&self, pos: &Position, perspective: Color, acc: &mut [i16]) {
        acc.copy_from_slice(&self.net.hidden_biases);
        features::position_features(pos, perspective, |f| self.add_feature(acc, f));
    }

    /// The output for accumulators `own` (the side to move's) and `other`, in centipawns
    /// from the side to move's point of view.
    pub fn output(&self, own: &[i16], other: &[i16], bucket: usize) -> i32 {
        let a = &self.net.arch;
        let n = a.hidden;
        let w = &self.net.output_weights[bucket * 2 * n..(bucket + 1) * 2 * n];
        let qa = a.qa as i64;
        let sum: i64 = match a.activation {
            Activation::CReLU => {
                let act = |acc: &[i16], w: &[i16]| -> i64 {
                    acc.iter().zip(w).map(|(&x, &w)| (x as i32).clamp(0, a.qa) as i64 * w as i64).sum::<i64>()
                };
                act(own, &w[..n]) + act(other, &w[n..])
            }
            Activation::SCReLU => {
                let act = |acc: &[i16], w: &[i16]| -> i64 {
                    acc.iter()
                        .zip(w)
                        .map(|(&x, &w)| {
                            let c = (x as i32).clamp(0, a.qa);
                            // c * w fits an i32 (255 * 32767); the square does not always.
                            (c * w as i32) as i64 * c as i64
                        })
                        .sum::<i64>()
                };
                (act(own, &w[..n]) + act(other, &w[n..])) / qa
            }
        };
        let out = (sum + self.net.output_biases[bucket] as i64) * a.scale as i64 / (qa * a.qb as i64);
        out.clamp(-(i32::MAX as i64), i32::MAX as i64) as i32
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
}
