//! Adam: gradient descent with a per-weight step size from running moments of the
//! gradient. It suits the evaluation's weights, whose gradients differ by orders of
//! magnitude (material is in every position, a piece-square entry in few), and its step is
//! in centipawns whatever the scale of the loss.

use super::Weights;

/// The optimiser's state for one weight vector.
#[derive(Clone, Debug)]
pub struct Adam {
    /// Step size, centipawns.
    pub lr: f64,
    beta1: f64,
    beta2: f64,
    eps: f64,
    m: Weights,
    v: Weights,
    t: i32,
}

impl Adam {
    /// A fresh optimiser for `n` (mg, eg) weights with step size `lr`.
    pub fn new(n: usize, lr: f64) -> Adam {
        Adam { lr, beta1: 0.9, beta2: 0.999, eps: 1e-12, m: vec![[0.0; 2]; n], v: vec![[0.0; 2]; n], t: 0 }
    }

    /// One step against `grad`; only weights whose `mask` entry is set move.
    pub fn step(&mut self, w: &mut Weights, grad: &Weights, mask: &[bool]) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t);
        let c2 = 1.0 - self.beta2.powi(self.t);
        for i in 0..w.len() {
            if !mask[i] {
                continue;
            }
            for j in 0..2 {
                let g = grad[i][j];
                self.m[i][j] = self.beta1 * self.m[i][j] + (1.0 - self.beta1) * g;
                self.v[i][j] = self.beta2 * self.v[i][j] + (1.0 - self.beta2) * g * g;
                let (m, v) = (self.m[i][j] / c1, self.v[i][j] / c2);
                // A weight no position touches has g = m = v = 0 and stays put.
                if v > 0.0 {
                    w[i][j] -= self.lr * m / (v.sqrt() + self.eps);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimises_a_badly_scaled_quadratic_and_respects_the_mask() {
        // f = 1e-6 (x0 - 300)^2 + 10 (x1 + 20)^2 per component; the third weight is frozen.
        let target = [[300.0, -40.0], [-20.0, 5.0], [0.0, 0.0]];
        let scale = [[1e-6, 1e-3], [10.0, 1.0], [1.0, 1.0]];
        let mut w: Weights = vec![[0.0; 2], [0.0; 2], [7.0, 7.0]];
        let mut adam = Adam::new(3, 2.0);
        let mask = [true, true, false];
        for step in 0..3000 {
            if step == 2000 {
                adam.lr = 0.05;
            }
            let g: Weights = (0..3).map(|i| [0, 1].map(|j| 2.0 * scale[i][j] * (w[i][j] - target[i][j]))).collect();
            adam.step(&mut w, &g, &mask);
        }
        for i in 0..2 {
            for j in 0..2 {
                assert!((w[i][j] - target[i][j]).abs() < 0.5, "{i}.{j}: {}", w[i][j]);
            }
        }
        assert_eq!(w[2], [7.0, 7.0]);
    }
}
