//! Match statistics: Elo from a score with its 95% interval, the likelihood of
//! superiority (LOS), and the sequential probability ratio test (SPRT) as a generalized
//! likelihood ratio over the observed outcome distribution: per game (win/draw/loss) or,
//! when openings are played twice with colours swapped, per game pair (pentanomial), as
//! modern engine-testing frameworks do.
//!
//! Elo here is logistic Elo: a score `s` means `-400 log10(1/s - 1)`.

use std::f64::consts::{LN_10, PI, SQRT_2};

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The expected score of a side `elo` points stronger.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference a score (0..1) stands for; infinite at 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).ln() / LN_10
}

/// The complementary error function, accurate to about 1e-14 everywhere: the Taylor
/// series of erf near zero, a continued fraction in the tails.
pub fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 3.0 {
        // erf(x) = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1))
        let (mut term, mut sum, x2) = (x, x, x * x);
        for n in 1..200 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        return 1.0 - 2.0 / PI.sqrt() * sum;
    }
    // erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))),
    // evaluated from the inside out; 60 levels are far more than x >= 3 needs.
    let mut frac = x;
    for k in (1..=60).rev() {
        frac = x + (k as f64 / 2.0) / frac;
    }
    (-x * x).exp() / PI.sqrt() / frac
}

/// The standard normal distribution function.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / SQRT_2)
}

/// Game results from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games the first engine won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the first engine lost.
    pub losses: u64,
}

impl Wdl {
    /// Adds another sample's games to these (runs of one match kept in a ledger).
    pub fn merge(&mut self, other: &Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score as a fraction, 0.5 when no game was played.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (self.wins as f64 + self.draws as f64 / 2.0) / n as f64,
        }
    }

    /// The share of draws, 0 when no game was played.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => self.draws as f64 / n as f64,
        }
    }

    /// The results as a sample of per-game scores.
    pub fn sample(&self) -> Sample {
        Sample::new(&[0.0, 0.5, 1.0], &[self.losses as f64, self.draws as f64, self.wins as f64])
    }
}

/// Game pairs counted by the points (0, 0.5, 1, 1.5, 2) the first engine took from the
/// two games of the pair: `[LL, LD, WL+DD, WD, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds another sample's pairs to these (runs of one match kept in a ledger).
    pub fn merge(&mut self, other: &Pentanomial) {
        self.0.iter_mut().zip(other.0).for_each(|(a, b)| *a += b);
    }

    /// Counts a pair in which the first engine took `half_points / 2` points (0..=4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The pairs as a sample of per-pair scores (a pair's points over 2).
    pub fn sample(&self) -> Sample {
        Sample::new(&[0.0, 0.25, 0.5, 0.75, 1.0], &self.0.map(|n| n as f64))
    }
}

/// An observed distribution of scores in 0..1: how often each value occurred.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    values: Vec<f64>,
    counts: Vec<f64>,
}

impl Sample {
    /// A sample with `counts[i]` observations of `values[i]`.
    pub fn new(values: &[f64], counts: &[f64]) -> Sample {
        assert_eq!(values.len(), counts.len(), "one count per value");
        Sample { values: values.to_vec(), counts: counts.to_vec() }
    }

    /// The number of observations.
    pub fn n(&self) -> f64 {
        self.counts.iter().sum()
    }

    /// The mean score (0.5 for an empty sample).
    pub fn mean(&self) -> f64 {
        let n = self.n();
        if n == 0.0 {
            return 0.5;
        }
        self.values.iter().zip(&self.counts).map(|(v, c)| v * c).sum::<f64>() / n
    }

    /// The variance of one observation.
    pub fn variance(&self) -> f64 {
        let (n, mu) = (self.n(), self.mean());
        if n == 0.0 {
            return 0.0;
        }
        self.values.iter().zip(&self.counts).map(|(v, c)| c * (v - mu) * (v - mu)).sum::<f64>() / n
    }
}

/// An Elo estimate: the difference, half the width of its 95% interval, and the LOS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The Elo difference (first engine minus second).
    pub elo: f64,
    /// Half the width of the 95% confidence interval, in Elo: infinite when the interval
    /// reaches a 0% or 100% score, NaN when the score itself is 0% or 100% (as in
    /// cutechess).
    pub margin: f64,
    /// The likelihood of superiority: the probability that the first engine is stronger.
    pub los: f64,
}

impl EloEstimate {
    /// Estimates from a sample: the mean's standard error gives the interval, mapped to
    /// Elo at both ends, and the LOS is the normal probability that the true mean is
    /// above one half.
    pub fn from_sample(sample: &Sample) -> EloEstimate {
        let (n, mu) = (sample.n(), sample.mean());
        let se = if n > 0.0 { (sample.variance() / n).sqrt() } else { 0.0 };
        // An interval reaching past a 0% or 100% score is unbounded in Elo on that side.
        let lo = score_to_elo((mu - Z95 * se).max(0.0));
        let hi = score_to_elo((mu + Z95 * se).min(1.0));
        let los = if se > 0.0 {
            normal_cdf((mu - 0.5) / se)
        } else if mu > 0.5 {
            1.0
        } else if mu < 0.5 {
            0.0
        } else {
            0.5
        };
        EloEstimate { elo: score_to_elo(mu), margin: (hi - lo) / 2.0, los }
    }
}

/// What the SPRT concluded so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound reached: play on.
    Continue,
    /// The lower bound was reached: the first engine is not `elo1` stronger (H0).
    AcceptH0,
    /// The upper bound was reached: the first engine is not only `elo0` stronger (H1).
    AcceptH1,
}

/// The sequential probability ratio test between two logistic-Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Count given to an outcome never observed, so that the likelihood can always be
/// maximized under either hypothesis (with one outcome only it could not move its mean).
const UNSEEN: f64 = 1e-3;

impl Sprt {
    /// The log-likelihood ratio below which H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The log-likelihood ratio above which H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The generalized log-likelihood ratio of H1 against H0 for the sample: the log of
    /// the likelihood maximized over outcome distributions whose mean is the score of
    /// `elo1`, minus the same for `elo0`. 0 for an empty sample.
    pub fn llr(&self, sample: &Sample) -> f64 {
        if sample.n() == 0.0 {
            return 0.0;
        }
        let counts: Vec<f64> = sample.counts.iter().map(|&c| c.max(UNSEEN)).collect();
        let s0 = elo_to_score(self.elo0);
        let s1 = elo_to_score(self.elo1);
        max_log_likelihood(&sample.values, &counts, s1) - max_log_likelihood(&sample.values, &counts, s0)
    }

    /// What the test says at this log-likelihood ratio.
    pub fn state(&self, llr: f64) -> SprtState {
        if llr >= self.upper_bound() {
            SprtState::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

/// The largest log-likelihood `sum n_i ln p_i` of the counts over distributions `p` on
/// `values` whose mean is `target`. By Lagrange, `p_i = f_i / (1 + lambda (v_i - target))`
/// with `f_i` the observed frequencies and `lambda` the root of
/// `g(lambda) = sum f_i (v_i - target) / (1 + lambda (v_i - target))`, which falls
/// strictly between the poles, so bisection finds it.
fn max_log_likelihood(values: &[f64], counts: &[f64], target: f64) -> f64 {
    let n: f64 = counts.iter().sum();
    let freq: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let dev: Vec<f64> = values.iter().map(|v| v - target).collect();
    let max_dev = dev.iter().cloned().fold(f64::MIN, f64::max);
    let min_dev = dev.iter().cloned().fold(f64::MAX, f64::min);
    if max_dev <= 0.0 || min_dev >= 0.0 {
        // The target is outside the values' range: no distribution has that mean.
        return f64::NEG_INFINITY;
    }
    let g = |lambda: f64| -> f64 { freq.iter().zip(&dev).map(|(f, d)| f * d / (1.0 + lambda * d)).sum() };
    // g falls from +inf at the lower pole to -inf at the upper one.
    let (mut lo, mut hi) = (-1.0 / max_dev, -1.0 / min_dev);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    counts.iter().zip(&freq).zip(&dev).map(|((c, f), d)| c * (f / (1.0 + lambda * d)).ln()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        // 400 log10(3): a 75% score.
        assert!(close(score_to_elo(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(score_to_elo(0.5), 0.0, 1e-12));
        for elo in [-800.0, -35.5, 0.0, 5.0, 400.0] {
            assert!(close(score_to_elo(elo_to_score(elo)), elo, 1e-9));
        }
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn erfc_matches_known_values() {
        // Reference values from mpmath.erfc at 30 digits.
        for (x, want) in [
            (0.0, 1.0),
            (0.5, 0.479_500_122_186_953_5),
            (1.0, 0.157_299_207_050_285_13),
            (2.5, 0.000_406_952_017_444_958_9),
            (3.5, 7.430_983_723_414_127e-7),
            (-1.0, 1.842_700_792_949_715),
        ] {
            let got = erfc(x);
            assert!(close(got, want, 1e-13 + 1e-12 * want), "erfc({x}) = {got}, want {want}");
        }
    }

    // The reference values of the tests below come from `python3 scripts/stats_reference.py`
    // (mpmath at 40 digits, with its own root finder).

    #[test]
    fn estimates_from_games_and_pairs() {
        let wdl = Wdl { wins: 60, draws: 100, losses: 40 };
        assert!(close(wdl.score(), 0.55, 1e-12) && close(wdl.draw_ratio(), 0.5, 1e-12));
        let e = EloEstimate::from_sample(&wdl.sample());
        assert!(close(e.elo, 34.860_070_287_560_1, 1e-9), "{e:?}");
        assert!(close(e.margin, 34.159_268_843_597_2, 1e-9), "{e:?}");
        assert!(close(e.los, 0.978_324_124_369_569, 1e-12), "{e:?}");

        let penta = Pentanomial([10, 50, 100, 70, 20]);
        assert_eq!(penta.pairs(), 250);
        let e = EloEstimate::from_sample(&penta.sample());
        assert!(close(e.elo, 27.854_371_256_557_8, 1e-9), "{e:?}");
        assert!(close(e.margin, 20.975_608_233_44, 1e-9), "{e:?}");
        assert!(close(e.los, 0.995_566_236_918_138, 1e-12), "{e:?}");

        // Equal wins and losses: no Elo, a coin toss; a perfect score: no finite interval.
        let even = Wdl { wins: 7, draws: 3, losses: 7 };
        let e = EloEstimate::from_sample(&even.sample());
        assert!(close(e.elo, 0.0, 1e-9) && close(e.los, 0.5, 1e-12));
        let all = Wdl { wins: 4, draws: 0, losses: 0 };
        let e = EloEstimate::from_sample(&all.sample());
        assert!(e.elo.is_infinite() && e.los == 1.0);
        // A lopsided but not perfect score: the interval is open above.
        let lopsided = Wdl { wins: 19, draws: 1, losses: 0 };
        let e = EloEstimate::from_sample(&lopsided.sample());
        assert!(e.elo.is_finite() && e.margin == f64::INFINITY, "{e:?}");
    }

    #[test]
    fn sprt_llr_matches_reference_values() {
        let sprt = |elo0, elo1| Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 };
        let s = sprt(0.0, 5.0);
        assert!(close(s.lower_bound(), -2.944_438_979_166_44, 1e-12));
        assert!(close(s.upper_bound(), 2.944_438_979_166_44, 1e-12));
        let wdl = |wins, draws, losses| Wdl { wins, draws, losses }.sample();
        let cases = [
            (s, wdl(60, 100, 40), 0.534_943_862_857_007),
            (sprt(-5.0, 5.0), wdl(60, 100, 40), 1.151_063_817_557_48),
            (s, Pentanomial([10, 50, 100, 70, 20]).sample(), 1.095_378_638_791_63),
            // Also the value other SPRT calculators print for these counts (2.99).
            (sprt(0.0, 3.0), wdl(4307, 8620, 4063), 2.991_288_808_308_69),
            // An outcome never seen (LL) and an unbalanced sample.
            (sprt(0.0, 10.0), Pentanomial([0, 30, 60, 30, 5]).sample(), 0.593_976_051_661_241),
            (sprt(0.0, 2.0), Pentanomial([1000, 5000, 10000, 5500, 1100]).sample(), 7.843_898_423_008_66),
            // Only wins so far: the unseen outcomes keep the LLR finite and small.
            (s, wdl(3, 0, 0), 0.042_862_606_295_284_3),
        ];
        for (test, sample, want) in cases {
            let got = test.llr(&sample);
            assert!(close(got, want, 1e-8), "{test:?} {sample:?}: llr {got}, want {want}");
        }
        assert_eq!(s.llr(&Wdl::default().sample()), 0.0);
        assert_eq!(s.state(3.0), SprtState::AcceptH1);
        assert_eq!(s.state(-3.0), SprtState::AcceptH0);
        assert_eq!(s.state(0.5), SprtState::Continue);
    }
}
