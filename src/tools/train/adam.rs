//! Adam with decoupled weight decay (AdamW), and the step size's schedule over epochs.
//!
//! The state is a plain vector of moments and a step count, so a checkpoint carries it and
//! a resumed run takes exactly the steps an uninterrupted one would.

use std::fmt;
use std::str::FromStr;

/// The optimiser's settings.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct AdamSettings {
    /// Decay of the first moment.
    pub beta1: f32,
    /// Decay of the second moment.
    pub beta2: f32,
    /// Weight decay per step, as a fraction of the step size (0: none). Biases are spared.
    pub weight_decay: f32,
}

impl Default for AdamSettings {
    fn default() -> Self {
        AdamSettings { beta1: 0.9, beta2: 0.999, weight_decay: 0.0 }
    }
}

/// Adam's state for one parameter vector.
#[derive(Clone, PartialEq, Debug)]
pub struct Adam {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub t: u64,
}

const EPS: f32 = 1e-8;

impl Adam {
    /// A fresh state for `n` parameters.
    pub fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }

    /// One step of size `lr` against `grad`; `decays(i)` says whether parameter i is a
    /// weight (decayed) rather than a bias.
    pub fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        lr: f32,
        s: &AdamSettings,
        decays: impl Fn(usize) -> bool,
    ) {
        debug_assert!(params.len() == grad.len() && grad.len() == self.m.len());
        self.t += 1;
        let c1 = 1.0 - (s.beta1 as f64).powf(self.t as f64);
        let c2 = 1.0 - (s.beta2 as f64).powf(self.t as f64);
        // The bias corrections fold into the step size and epsilon.
        let step = (lr as f64 * c2.sqrt() / c1) as f32;
        let eps = (EPS as f64 * c2.sqrt()) as f32;
        for i in 0..params.len() {
            let g = grad[i];
            let m = s.beta1 * self.m[i] + (1.0 - s.beta1) * g;
            let v = s.beta2 * self.v[i] + (1.0 - s.beta2) * g * g;
            self.m[i] = m;
            self.v[i] = v;
            let mut p = params[i];
            if s.weight_decay > 0.0 && decays(i) {
                p -= lr * s.weight_decay * p;
            }
            params[i] = p - step * m / (v.sqrt() + eps);
        }
    }
}

/// How the step size changes over the epochs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Schedule {
    /// The same every epoch.
    Constant,
    /// Multiplied by `gamma` every `every` epochs.
    Step {
        /// Epochs between drops.
        every: usize,
        /// The factor at each drop.
        gamma: f64,
    },
    /// Half a cosine from the full step size down to `floor` times it at the last epoch.
    Cosine {
        /// The last epoch's share of the step size.
        floor: f64,
    },
}

impl Schedule {
    /// The step size of epoch `epoch` (1-based) of `epochs`, for a base step size `lr`.
    pub fn lr(&self, lr: f64, epoch: usize, epochs: usize) -> f64 {
        let done = epoch.saturating_sub(1);
        match *self {
            Schedule::Constant => lr,
            Schedule::Step { every, gamma } => lr * gamma.powi((done / every.max(1)) as i32),
            Schedule::Cosine { floor } => {
                let x = if epochs > 1 { done as f64 / (epochs - 1) as f64 } else { 0.0 };
                let w = 0.5 * (1.0 + (std::f64::consts::PI * x.min(1.0)).cos());
                lr * (floor + (1.0 - floor) * w)
            }
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Schedule::Constant => write!(f, "constant"),
            Schedule::Step { every, gamma } => write!(f, "step:{every}:{gamma}"),
            Schedule::Cosine { floor } => write!(f, "cosine:{floor}"),
        }
    }
}

impl FromStr for Schedule {
    type Err = String;

    /// `constant`, `step:EVERY:GAMMA` (e.g. `step:4:0.3`) or `cosine[:FLOOR]` (e.g.
    /// `cosine:0.01`).
    fn from_str(s: &str) -> Result<Schedule, String> {
        let parts: Vec<&str> = s.split(':').collect();
        let num = |x: &str| x.parse::<f64>().map_err(|_| format!("'{x}' in schedule '{s}' is not a number"));
        match parts.as_slice() {
            ["constant"] => Ok(Schedule::Constant),
            ["step", every, gamma] => {
                let every = every.parse::<usize>().map_err(|_| format!("'{every}' in '{s}' is not a count"))?;
                Ok(Schedule::Step { every: every.max(1), gamma: num(gamma)? })
            }
            ["cosine"] => Ok(Schedule::Cosine { floor: 0.0 }),
            ["cosine", floor] => Ok(Schedule::Cosine { floor: num(floor)? }),
            _ => Err(format!("unknown schedule '{s}': constant, step:EVERY:GAMMA or cosine[:FLOOR]")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimises_a_badly_scaled_quadratic() {
        let target = [3.0f32, -0.5, 0.01];
        let scale = [1e-4f32, 10.0, 1.0];
        let mut w = vec![0.0f32; 3];
        let mut adam = Adam::new(3);
        let s = AdamSettings::default();
        for step in 0..4000 {
            let lr = if step < 3000 { 0.01 } else { 0.001 };
            let g: Vec<f32> = (0..3).map(|i| 2.0 * scale[i] * (w[i] - target[i])).collect();
            adam.step(&mut w, &g, lr, &s, |_| true);
        }
        for i in 0..3 {
            assert!((w[i] - target[i]).abs() < 0.01, "{i}: {}", w[i]);
        }
    }

    #[test]
    fn weight_decay_shrinks_weights_but_not_biases() {
        let mut w = vec![1.0f32, 1.0];
        let mut adam = Adam::new(2);
        let s = AdamSettings { weight_decay: 0.1, ..AdamSettings::default() };
        for _ in 0..10 {
            adam.step(&mut w, &[0.0, 0.0], 0.1, &s, |i| i == 0);
        }
        assert!((w[0] - 0.99f32.powi(10)).abs() < 1e-6, "{}", w[0]);
        assert_eq!(w[1], 1.0);
    }

    #[test]
    fn schedules_parse_and_decay() {
        let c: Schedule = "cosine:0.1".parse().unwrap();
        assert_eq!(c.lr(1.0, 1, 11), 1.0);
        assert!((c.lr(1.0, 6, 11) - 0.55).abs() < 1e-12);
        assert!((c.lr(1.0, 11, 11) - 0.1).abs() < 1e-12);
        let s: Schedule = "step:3:0.5".parse().unwrap();
        assert_eq!([1, 3, 4, 7].map(|e| s.lr(2.0, e, 10)), [2.0, 2.0, 1.0, 0.5]);
        assert_eq!("constant".parse::<Schedule>().unwrap().lr(0.3, 9, 10), 0.3);
        for text in ["step:3:0.5", "cosine:0.1", "constant"] {
            assert_eq!(text.parse::<Schedule>().unwrap().to_string(), text);
        }
        assert!("step:x:1".parse::<Schedule>().is_err() && "linear".parse::<Schedule>().is_err());
    }
}
