//! Training positions traced once into what the evaluation is linear in.
//!
//! The evaluation is `final = adjust(linear(w))`: a linear score, blended by phase, then
//! the endgame adjustment (drawish material, the bare-king mop-up bonus, the counting and
//! 50-move scaling). For a fixed position the adjustment is affine in the linear score as
//! long as its sign stays: it multiplies by factors of the position and adds a bonus of
//! the position. So each position is stored as its feature counts plus `slope` and
//! `offset` with `final ≈ slope * linear(w) + offset`, measured by evaluating it with the
//! base weights and with them times 16 (one evaluation cannot tell a factor from a bonus).

use super::Weights;
use crate::board::Position;
use crate::eval::{CoefTrace, NUM_PARAMS, PHASE_MAX, S, Tracer, evaluate_with};
use crate::tools::datagen::binary::PackedRecord;
use rayon::prelude::*;

/// The multiplier of the second evaluation: large, so that integer rounding in the
/// evaluation barely moves the measured slope.
const PROBE: i32 = 16;

/// One feature of one position: White's count minus Black's for a weight.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Coef {
    /// The weight's index in the table.
    pub index: u16,
    /// White's count minus Black's.
    pub count: i16,
}

/// One training position.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    start: u32,
    len: u32,
    /// The middlegame share of the blend: phase / PHASE_MAX.
    pub mg: f32,
    /// How much the final evaluation moves per centipawn of linear score.
    pub slope: f32,
    /// What the endgame adjustment adds on top.
    pub offset: f32,
    /// The game result, White's view (0, 0.5, 1; or anything between for soft labels).
    pub result: f32,
    /// The search score, centipawns, White's view.
    pub score: f32,
}

/// A position's features and its linearised endgame adjustment.
#[derive(Clone, Debug)]
pub struct Traced {
    /// Non-zero features in index order.
    pub coefs: Vec<Coef>,
    /// phase / PHASE_MAX.
    pub mg: f32,
    /// See `Sample::slope`.
    pub slope: f32,
    /// See `Sample::offset`.
    pub offset: f32,
    /// The evaluation with the base weights, White's view (before clamping).
    pub final_white: i32,
}

/// Traces positions against a base weight table.
pub struct Linearizer {
    base: Box<[S; NUM_PARAMS]>,
    probe: Box<[S; NUM_PARAMS]>,
}

/// Records only the scores an evaluation ends with.
#[derive(Default)]
struct Ends {
    raw: i32,
    final_white: i32,
}

impl Tracer for Ends {
    #[inline(always)]
    fn add(&mut self, _: usize, _: crate::board::Color, _: i32) {}
    fn finish(&mut self, _: i32, raw_white: i32, final_white: i32) {
        self.raw = raw_white;
        self.final_white = final_white;
    }
}

impl Linearizer {
    /// A linearizer around `base` (normally the compiled-in weights).
    pub fn new(base: &[S; NUM_PARAMS]) -> Linearizer {
        Linearizer { base: Box::new(*base), probe: Box::new(base.map(|w| w * PROBE)) }
    }

    /// The features of `pos` and its endgame adjustment as an affine map.
    pub fn trace(&self, pos: &Position) -> Traced {
        let mut t = CoefTrace::default();
        evaluate_with(pos, &self.base, &mut t);
        let mut p = Ends::default();
        evaluate_with(pos, &self.probe, &mut p);
        let (r1, f1) = (t.raw_white_score as f64, t.final_white_score as f64);
        let (r2, f2) = (p.raw as f64, p.final_white as f64);
        // A linear score of exactly zero leaves the slope unmeasurable; 1 is the common case.
        let slope = if r2 != r1 { (f2 - f1) / (r2 - r1) } else { 1.0 };
        Traced {
            coefs: t.coefs.iter().map(|&(index, count)| Coef { index, count }).collect(),
            mg: t.phase as f32 / PHASE_MAX as f32,
            slope: slope as f32,
            offset: (f1 - slope * r1) as f32,
            final_white: t.final_white_score,
        }
    }
}

/// Traced positions with their labels, the coefficients of all of them in one array.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    samples: Vec<Sample>,
    coefs: Vec<Coef>,
}

impl Dataset {
    /// An empty data set.
    pub fn new() -> Dataset {
        Dataset::default()
    }

    /// Adds a traced position with its game result and search score (White's view).
    pub fn push(&mut self, t: &Traced, result: f32, score: f32) {
        let start = self.coefs.len() as u32;
        self.coefs.extend_from_slice(&t.coefs);
        let (mg, slope, offset) = (t.mg, t.slope, t.offset);
        self.samples.push(Sample { start, len: t.coefs.len() as u32, mg, slope, offset, result, score });
    }

    /// Sets up and traces data-file records on all threads of the current rayon pool.
    pub fn from_records(records: &[&PackedRecord], lin: &Linearizer) -> Result<Dataset, String> {
        let traced: Vec<Traced> = records
            .par_iter()
            .map(|r| r.to_position().map(|p| lin.trace(&p)).map_err(|err| format!("{r:?}: {err}")))
            .collect::<Result<_, _>>()?;
        let mut ds = Dataset::new();
        ds.coefs.reserve(traced.iter().map(|t| t.coefs.len()).sum());
        for (t, r) in traced.iter().zip(records) {
            ds.push(t, r.result_white().white_score() as f32, r.score_white() as f32);
        }
        Ok(ds)
    }

    /// The samples.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// A sample's features.
    #[inline(always)]
    pub fn coefs(&self, s: &Sample) -> &[Coef] {
        &self.coefs[s.start as usize..(s.start + s.len) as usize]
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The model's evaluation of a sample, White's view, centipawns.
    #[inline(always)]
    pub fn eval(&self, s: &Sample, w: &Weights) -> f64 {
        let (mg, eg) = (s.mg as f64, 1.0 - s.mg as f64);
        let mut linear = 0.0;
        for c in self.coefs(s) {
            let [wm, we] = w[c.index as usize];
            linear += c.count as f64 * (wm * mg + we * eg);
        }
        s.slope as f64 * linear + s.offset as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WEIGHTS;
    use crate::tools::tune::{from_table, random_positions};

    #[test]
    fn the_model_reproduces_the_evaluation_at_the_base_weights() {
        let lin = Linearizer::new(&WEIGHTS);
        let w = from_table(&WEIGHTS);
        let mut ds = Dataset::new();
        let mut finals = Vec::new();
        for pos in random_positions(11, 3000) {
            let t = lin.trace(&pos);
            ds.push(&t, 0.5, 0.0);
            finals.push(t.final_white as f64);
        }
        // The blend is exact in floating point where the evaluation rounds: within 2 cp.
        let mut scaled = 0;
        for (s, f) in ds.samples().iter().zip(&finals) {
            assert!((ds.eval(s, &w) - f).abs() <= 2.0, "{} vs {f}", ds.eval(s, &w));
            scaled += (s.slope < 0.99 || s.offset.abs() > 0.5) as usize;
        }
        assert!(scaled > 0, "no position exercised the endgame adjustment");
    }

    #[test]
    fn the_affine_map_predicts_other_weights() {
        // Traced at the base weights, the model must follow the real evaluation when the
        // weights change: here doubled, and every third one moved by 15 cp.
        let lin = Linearizer::new(&WEIGHTS);
        let mut other = WEIGHTS.map(|w| w * 2);
        for (i, w) in other.iter_mut().enumerate().filter(|(i, _)| i % 3 == 0) {
            *w += crate::eval::s(15, -15 + i as i32 % 2 * 30);
        }
        let w = from_table(&other);
        let (mut compared, mut worst) = (0, 0.0f64);
        for pos in random_positions(12, 2000) {
            let (mut at_base, mut at_other) = (CoefTrace::default(), CoefTrace::default());
            evaluate_with(&pos, &WEIGHTS, &mut at_base);
            evaluate_with(&pos, &other, &mut at_other);
            // The adjustment takes another branch where the linear score changes sign.
            if at_base.raw_white_score.signum() != at_other.raw_white_score.signum() {
                continue;
            }
            let mut ds = Dataset::new();
            ds.push(&lin.trace(&pos), 0.5, 0.0);
            worst = worst.max((ds.eval(&ds.samples()[0], &w) - at_other.final_white_score as f64).abs());
            compared += 1;
        }
        assert!(compared > 1500);
        assert!(worst <= 4.0, "worst error {worst}");
    }
}
