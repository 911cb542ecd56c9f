//! The SPSA arithmetic, free of engines and files: the gain sequences, the random
//! perturbation of an iteration and the update from its match result.
//!
//! Spall's sequences, in fishtest's parametrization by their values at the last
//! iteration N (so that the settings mean the same whatever N is):
//! `c_k = c_end (N / k)^gamma` and `a_k = r_end c_end^2 ((A + N) / (A + k))^alpha`,
//! with `A = a_ratio N`. Iteration k plays `theta + c_k delta` against `theta - c_k delta`
//! (delta a random sign per constant) and moves `theta += a_k y delta / c_k`, where y is
//! the plus side's wins minus losses. This is the gradient estimate `y / (2 c_k delta)`
//! with the 2 folded into `a`, exactly fishtest's `theta += r_k c_k y delta`, so fishtest's
//! experience with `r_end` carries over.

use crate::rng::Rng;

/// Spall's recommended decay exponent of the step size.
pub const DEFAULT_ALPHA: f64 = 0.602;
/// Spall's recommended decay exponent of the perturbation.
pub const DEFAULT_GAMMA: f64 = 0.101;
/// The stability constant A as a share of the iterations (Spall: about 10%).
pub const DEFAULT_A_RATIO: f64 = 0.1;
/// The last iteration's perturbation as a share of each constant's range (fishtest's
/// usual advice is a twentieth of the range).
pub const DEFAULT_C_END: f64 = 0.05;
/// fishtest's default learning rate at the last iteration.
pub const DEFAULT_R_END: f64 = 0.002;
/// The smallest final perturbation: the constants are integers, and `round(x + 1)` and
/// `round(x - 1)` always differ, so the two engines never play identical values.
pub const MIN_C_END: f64 = 1.0;

/// One tuned constant: its name, its range and its perturbation at the last iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Dim {
    /// The constant's name in `search::params`.
    pub name: String,
    /// The lowest value.
    pub min: f64,
    /// The highest value.
    pub max: f64,
    /// `c_end`: the perturbation at the last iteration, in the constant's own units.
    pub c_end: f64,
}

impl Dim {
    /// A constant whose final perturbation is `c_end_share` of its range, but at least
    /// [`MIN_C_END`].
    pub fn new(name: &str, min: i32, max: i32, c_end_share: f64) -> Dim {
        let (min, max) = (min as f64, max as f64);
        Dim { name: name.to_string(), min, max, c_end: (c_end_share * (max - min)).max(MIN_C_END) }
    }

    /// The value an engine gets for a real `x`: rounded and kept in range (the engine
    /// refuses values outside it).
    pub fn engine_value(&self, x: f64) -> i32 {
        x.round().clamp(self.min, self.max) as i32
    }
}

/// The gain sequences' settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// N, the planned number of iterations.
    pub iterations: u64,
    /// Decay exponent of the step size.
    pub alpha: f64,
    /// Decay exponent of the perturbation.
    pub gamma: f64,
    /// A / N.
    pub a_ratio: f64,
    /// Final perturbation as a share of each constant's range.
    pub c_end: f64,
    /// Final learning rate r = a / c^2.
    pub r_end: f64,
}

impl Default for Gains {
    fn default() -> Gains {
        Gains {
            iterations: 1000,
            alpha: DEFAULT_ALPHA,
            gamma: DEFAULT_GAMMA,
            a_ratio: DEFAULT_A_RATIO,
            c_end: DEFAULT_C_END,
            r_end: DEFAULT_R_END,
        }
    }
}

impl Gains {
    /// Checks that the sequences are well defined and decay.
    pub fn validate(&self) -> Result<(), String> {
        if self.iterations == 0 {
            return Err("the number of iterations must be at least 1".into());
        }
        let positive = [("alpha", self.alpha), ("gamma", self.gamma), ("c-end", self.c_end), ("r-end", self.r_end)];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{name} must be a positive number, not {v}"));
            }
        }
        if !(self.a_ratio.is_finite() && self.a_ratio >= 0.0) {
            return Err(format!("a-ratio must be zero or positive, not {}", self.a_ratio));
        }
        Ok(())
    }

    /// The stability constant A.
    fn stability(&self) -> f64 {
        self.a_ratio * self.iterations as f64
    }

    /// c_k / c_end at iteration `k` (1-based): the same factor for every constant.
    pub fn c_factor(&self, k: u64) -> f64 {
        (self.iterations as f64 / k as f64).powf(self.gamma)
    }

    /// a_k / a_N at iteration `k` (1-based).
    pub fn a_factor(&self, k: u64) -> f64 {
        let a = self.stability();
        ((a + self.iterations as f64) / (a + k as f64)).powf(self.alpha)
    }

    /// The perturbation of `dim` at iteration `k`.
    pub fn c_k(&self, dim: &Dim, k: u64) -> f64 {
        dim.c_end * self.c_factor(k)
    }

    /// The step-size gain of `dim` at iteration `k`.
    pub fn a_k(&self, dim: &Dim, k: u64) -> f64 {
        self.r_end * dim.c_end * dim.c_end * self.a_factor(k)
    }
}

/// One iteration's two engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration (1-based).
    pub k: u64,
    /// The random direction: +1 or -1 per constant.
    pub delta: Vec<i32>,
    /// The perturbation c_k per constant.
    pub c: Vec<f64>,
    /// The values of the engine pushed along delta.
    pub plus: Vec<i32>,
    /// The values of the engine pushed against delta.
    pub minus: Vec<i32>,
}

/// The random stream of iteration `k` of a run seeded `seed`: a function of both alone, so
/// a resumed run draws exactly what an uninterrupted one would have.
pub fn iteration_rng(seed: u64, k: u64) -> Rng {
    Rng::for_item(seed, k)
}

/// The two engines of iteration `k` around `theta`.
pub fn perturb(dims: &[Dim], theta: &[f64], gains: &Gains, seed: u64, k: u64) -> Perturbation {
    let mut rng = iteration_rng(seed, k);
    let delta: Vec<i32> = dims.iter().map(|_| rng.sign()).collect();
    let c: Vec<f64> = dims.iter().map(|d| gains.c_k(d, k)).collect();
    let side = |s: f64| -> Vec<i32> {
        dims.iter().enumerate().map(|(i, d)| d.engine_value(theta[i] + s * c[i] * delta[i] as f64)).collect()
    };
    Perturbation { k, plus: side(1.0), minus: side(-1.0), delta, c }
}

/// Moves `theta` along the gradient estimated from `y` (the plus side's wins minus
/// losses), clamped to each range. Returns the change of every constant.
pub fn update(dims: &[Dim], theta: &mut [f64], gains: &Gains, p: &Perturbation, y: f64) -> Vec<f64> {
    dims.iter()
        .enumerate()
        .map(|(i, d)| {
            let old = theta[i];
            let step = gains.a_k(d, p.k) * y * p.delta[i] as f64 / p.c[i];
            theta[i] = (old + step).clamp(d.min, d.max);
            theta[i] - old
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dim() -> Dim {
        Dim::new("X", 0, 200, 0.05)
    }

    #[test]
    fn sequences_end_at_their_end_values_and_decay() {
        let g = Gains { iterations: 500, ..Gains::default() };
        let d = dim();
        assert_eq!(d.c_end, 10.0);
        assert!((g.c_k(&d, 500) - 10.0).abs() < 1e-12);
        assert!((g.a_k(&d, 500) - 0.002 * 100.0).abs() < 1e-12);
        // c_1 = c_end N^gamma; a_1 = a_N ((A + N) / (A + 1))^alpha with A = 50.
        assert!((g.c_k(&d, 1) - 10.0 * 500f64.powf(0.101)).abs() < 1e-9);
        assert!((g.a_k(&d, 1) - 0.2 * (550.0f64 / 51.0).powf(0.602)).abs() < 1e-9);
        for k in 1..500 {
            assert!(g.c_k(&d, k) > g.c_k(&d, k + 1) && g.a_k(&d, k) > g.a_k(&d, k + 1));
        }
        // A small range still perturbs by a whole step.
        assert_eq!(Dim::new("Y", 1, 6, 0.05).c_end, MIN_C_END);
    }

    #[test]
    fn perturbation_is_symmetric_rounded_clamped_and_reproducible() {
        let dims = vec![dim(), Dim::new("Y", 1, 6, 0.05), dim()];
        let theta = [100.0, 3.4, 199.0];
        let g = Gains { iterations: 100, ..Gains::default() };
        let p = perturb(&dims, &theta, &g, 9, 1);
        assert_eq!(p, perturb(&dims, &theta, &g, 9, 1));
        for i in 0..3 {
            let c = p.c[i] * p.delta[i] as f64;
            assert_eq!(p.plus[i], dims[i].engine_value(theta[i] + c), "{i}");
            assert_eq!(p.minus[i], dims[i].engine_value(theta[i] - c), "{i}");
            assert!(dims[i].min as i32 <= p.minus[i].min(p.plus[i]) && p.plus[i].max(p.minus[i]) <= dims[i].max as i32);
            assert_ne!(p.plus[i], p.minus[i], "{i}");
        }
        // Over many iterations the signs are balanced and differ between constants.
        let (mut pos, mut same) = (0, 0);
        for k in 1..=2000 {
            let p = perturb(&dims, &theta, &g, 9, k);
            pos += (p.delta[0] > 0) as u32;
            same += (p.delta[0] == p.delta[2]) as u32;
        }
        assert!((900..1100).contains(&pos) && (900..1100).contains(&same), "{pos} {same}");
    }

    #[test]
    fn update_follows_the_winner_and_stays_in_range() {
        let dims = vec![dim(), dim()];
        let g = Gains { iterations: 100, r_end: 0.5, ..Gains::default() };
        let mut theta = vec![100.0, 195.0];
        let p = Perturbation {
            k: 100,
            delta: vec![1, -1],
            c: vec![10.0, 10.0],
            plus: vec![110, 185],
            minus: vec![90, 200],
        };
        // Plus won by 2: the first constant rises, the second (pushed down in plus) falls.
        let moved = update(&dims, &mut theta, &g, &p, 2.0);
        assert_eq!(moved, vec![0.5 * 100.0 * 2.0 / 10.0, -10.0]);
        assert_eq!(theta, vec![110.0, 185.0]);
        // A large loss pushes the second constant into its upper bound, not beyond.
        update(&dims, &mut theta, &g, &p, -4.0);
        assert_eq!(theta, vec![90.0, 200.0]);
        // A draw moves nothing.
        assert!(update(&dims, &mut theta, &g, &p, 0.0).iter().all(|&m| m == 0.0));
    }
}
