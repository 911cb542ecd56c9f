//! The Texel objective: the mean squared error between the win probability the evaluation
//! implies, `sigmoid(K * eval)`, and a target, the game result optionally blended with the
//! win probability the search score implies. Loss and gradient are summed over chunks of
//! the data on the rayon pool.

use super::Weights;
use super::dataset::{Dataset, Sample};
use crate::eval::NUM_PARAMS;
use rayon::prelude::*;

/// Samples per parallel task: big enough to amortise a gradient buffer per task.
const CHUNK: usize = 4096;

/// The fixed parts of the objective.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Objective {
    /// Scale of the sigmoid: the win probability at evaluation `e` is
    /// `1 / (1 + 10^(-K e / 400))`.
    pub k: f64,
    /// Weight of the game result in the target; the search score's probability gets the rest.
    pub lambda: f64,
}

/// Win probability of a White-view score.
#[inline(always)]
pub fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

impl Objective {
    /// What the evaluation of `s` should predict.
    #[inline(always)]
    pub fn target(&self, s: &Sample) -> f64 {
        let result = s.result as f64;
        if self.lambda >= 1.0 {
            result
        } else {
            self.lambda * result + (1.0 - self.lambda) * sigmoid(self.k, s.score as f64)
        }
    }

    /// Mean loss over `samples` (which must belong to `ds`).
    pub fn loss(&self, ds: &Dataset, samples: &[Sample], w: &Weights) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let sum: f64 = samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|s| {
                        let d = sigmoid(self.k, ds.eval(s, w)) - self.target(s);
                        d * d
                    })
                    .sum::<f64>()
            })
            .sum();
        sum / samples.len() as f64
    }

    /// Mean loss over `samples` and its gradient with respect to every (mg, eg) weight.
    pub fn gradient(&self, ds: &Dataset, samples: &[Sample], w: &Weights) -> (f64, Weights) {
        let n = samples.len().max(1) as f64;
        let dsig = self.k * std::f64::consts::LN_10 / 400.0;
        let (loss, mut grad) = samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut g = vec![[0.0; 2]; NUM_PARAMS];
                let mut loss = 0.0;
                for s in chunk {
                    let p = sigmoid(self.k, ds.eval(s, w));
                    let d = p - self.target(s);
                    loss += d * d;
                    // d(d^2)/d(eval) = 2 d p (1 - p) K ln10 / 400; eval = slope * linear + offset.
                    let common = 2.0 * d * p * (1.0 - p) * dsig * s.slope as f64;
                    let (mg, eg) = (common * s.mg as f64, common * (1.0 - s.mg as f64));
                    for c in ds.coefs(s) {
                        let slot = &mut g[c.index as usize];
                        slot[0] += mg * c.count as f64;
                        slot[1] += eg * c.count as f64;
                    }
                }
                (loss, g)
            })
            .reduce(
                || (0.0, vec![[0.0; 2]; NUM_PARAMS]),
                |(la, mut ga), (lb, gb)| {
                    for (a, b) in ga.iter_mut().zip(&gb) {
                        a[0] += b[0];
                        a[1] += b[1];
                    }
                    (la + lb, ga)
                },
            );
        for g in grad.iter_mut() {
            g[0] /= n;
            g[1] /= n;
        }
        (loss / n, grad)
    }
}

/// The K that makes the current evaluation fit the game results best: a golden-section
/// search on the results-only loss (the loss is unimodal in K for any sensible evaluation).
pub fn fit_k(ds: &Dataset, w: &Weights) -> f64 {
    let loss = |k: f64| Objective { k, lambda: 1.0 }.loss(ds, ds.samples(), w);
    let (mut lo, mut hi) = (0.01f64, 10.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - phi * (hi - lo);
    let mut b = lo + phi * (hi - lo);
    let (mut fa, mut fb) = (loss(a), loss(b));
    while hi - lo > 1e-4 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - phi * (hi - lo);
            fa = loss(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + phi * (hi - lo);
            fb = loss(b);
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::WEIGHTS;
    use crate::tools::tune::dataset::Linearizer;
    use crate::tools::tune::from_table;

    /// A handful of positions from every phase with hand-picked results and scores.
    fn tiny() -> Dataset {
        let lin = Linearizer::new(&WEIGHTS);
        let mut ds = Dataset::new();
        let data = [
            ("3f1s2/3k4/4pppp/pppp4/4PPPP/PPPP4/SS6/3R4[KFRNNsrrnn] w - - 0 4", 0.5, 20.0),
            ("r6n/2s2ks1/1fn1pppP/pppr4/5P1P/PPPP2SS/3N4/RF2RN1K[] b - - 1 12", 1.0, 140.0),
            ("n5rk/4sP1n/s5p1/1p6/3P2pP/Fp5K/3N4/5RS1[] w - - 0 20", 0.0, -210.0),
            ("3r4/2f3k1/n3r2p/s4p2/p3S2P/2N5/7K/N4F1R[] b - - 1 25", 0.0, -400.0),
            ("8/1s4k1/5p1p/p4s2/Pp1P3P/1P3K2/1S6/7R[] b - - 5 30", 0.5, 35.0),
            ("4k3/8/8/8/8/8/7R/4K3[] b - 32 0 31", 1.0, 700.0),
            ("8/8/3k4/1S6/8/7K/8/8[] w - 88 29 94", 0.5, 60.0),
        ];
        for (fen, result, score) in data {
            ds.push(&lin.trace(&Position::from_fen(fen).unwrap()), result, score);
        }
        ds
    }

    #[test]
    fn the_loss_is_the_mean_squared_error_of_the_win_probability() {
        let ds = tiny();
        let w = from_table(&WEIGHTS);
        let obj = Objective { k: 1.1, lambda: 0.75 };
        let by_hand: f64 = ds
            .samples()
            .iter()
            .map(|s| {
                let t = 0.75 * s.result as f64 + 0.25 / (1.0 + 10f64.powf(-1.1 * s.score as f64 / 400.0));
                let p = 1.0 / (1.0 + 10f64.powf(-1.1 * ds.eval(s, &w) / 400.0));
                (p - t) * (p - t)
            })
            .sum::<f64>()
            / ds.len() as f64;
        assert!((obj.loss(&ds, ds.samples(), &w) - by_hand).abs() < 1e-15);
        assert!((obj.gradient(&ds, ds.samples(), &w).0 - by_hand).abs() < 1e-12);
        assert!(by_hand > 1e-4, "a loss of zero would prove nothing");
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let ds = tiny();
        let mut w = from_table(&WEIGHTS);
        // Off the hand-set values, so no weight sits at a special point.
        for (i, x) in w.iter_mut().enumerate() {
            x[0] += (i % 7) as f64 * 3.0 - 9.0;
            x[1] -= (i % 5) as f64 * 2.0 - 4.0;
        }
        let obj = Objective { k: 1.3, lambda: 0.6 };
        let (_, grad) = obj.gradient(&ds, ds.samples(), &w);
        let h = 1e-3;
        let mut checked = 0;
        for i in 0..NUM_PARAMS {
            for j in 0..2 {
                let mut up = w.clone();
                up[i][j] += h;
                let mut down = w.clone();
                down[i][j] -= h;
                let numeric = (obj.loss(&ds, ds.samples(), &up) - obj.loss(&ds, ds.samples(), &down)) / (2.0 * h);
                let analytic = grad[i][j];
                let scale = analytic.abs().max(numeric.abs()).max(1e-9);
                assert!((analytic - numeric).abs() / scale < 1e-4, "weight {i}.{j}: {analytic} vs {numeric}");
                checked += (analytic != 0.0) as usize;
            }
        }
        // The tiny set touches many weights in both phases.
        assert!(checked > 100, "only {checked} non-zero partials");
    }

    #[test]
    fn k_fits_the_scale_the_results_were_drawn_with() {
        // Results that are exactly the win probability at K = 1.6 are best fitted by it.
        let lin = Linearizer::new(&WEIGHTS);
        let w = from_table(&WEIGHTS);
        let mut ds = Dataset::new();
        for pos in crate::tools::tune::random_positions(5, 800) {
            let t = lin.trace(&pos);
            ds.push(&t, sigmoid(1.6, t.final_white as f64) as f32, 0.0);
        }
        let k = fit_k(&ds, &w);
        assert!((k - 1.6).abs() < 0.02, "{k}");
    }
}
