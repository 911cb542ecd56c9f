//! The fitting loop: Adam over mini-batches of the training set, the validation loss after
//! every epoch, and the weights of the epoch that validated best.

use super::Weights;
use super::adam::Adam;
use super::dataset::Dataset;
use super::model::Objective;
use std::io::{self, Write};
use std::time::Instant;

/// How to fit.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the training set.
    pub epochs: usize,
    /// Adam's step size, centipawns.
    pub lr: f64,
    /// The step size is multiplied by this after every epoch.
    pub lr_decay: f64,
    /// Positions per gradient step (0: the whole training set).
    pub batch: usize,
    /// Pairs of weights fitted as one: each pair starts at its mean and moves by the sum of
    /// its two gradients, so it stays equal (see [`super::mirror_pairs`]).
    pub tied: Vec<(usize, usize)>,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions { epochs: 40, lr: 1.0, lr_decay: 0.95, batch: 16384, tied: Vec::new() }
    }
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    /// Epoch number; 0 is before any step.
    pub epoch: usize,
    /// Mean loss over the training set.
    pub train: f64,
    /// Mean loss over the validation set (None if it is empty).
    pub validation: Option<f64>,
}

impl EpochLoss {
    /// The loss that decides which epoch is best: validation if there is any.
    pub fn key(&self) -> f64 {
        self.validation.unwrap_or(self.train)
    }
}

/// The result of a fit.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The weights of the best epoch.
    pub weights: Weights,
    /// The best epoch's losses.
    pub best: EpochLoss,
    /// Every epoch's losses, epoch 0 first.
    pub history: Vec<EpochLoss>,
}

/// Fits the weights whose `mask` entry is set, starting from `start`, printing a line per
/// epoch to `log`. The training loss of an epoch is measured after its last step, on the
/// whole training set, so that it compares with the validation loss.
pub fn train(
    train: &Dataset,
    val: &Dataset,
    start: Weights,
    obj: Objective,
    opts: &TrainOptions,
    mask: &[bool],
    log: &mut dyn Write,
) -> io::Result<Trained> {
    let begun = Instant::now();
    let measure = |epoch: usize, w: &Weights| EpochLoss {
        epoch,
        train: obj.loss(train, train.samples(), w),
        validation: (!val.is_empty()).then(|| obj.loss(val, val.samples(), w)),
    };
    let mut w = start;
    tie(&mut w, &opts.tied, |x, y| (x + y) / 2.0);
    let first = measure(0, &w);
    print_epoch(log, &first, true, begun)?;
    let mut best = (first, w.clone());
    let mut history = vec![first];
    let mut adam = Adam::new(w.len(), opts.lr);
    let batch = if opts.batch == 0 { train.len().max(1) } else { opts.batch };
    for epoch in 1..=opts.epochs {
        for chunk in train.samples().chunks(batch) {
            let (_, mut grad) = obj.gradient(train, chunk, &w);
            tie(&mut grad, &opts.tied, |x, y| x + y);
            adam.step(&mut w, &grad, mask);
        }
        adam.lr *= opts.lr_decay;
        let now = measure(epoch, &w);
        let improved = now.key() < best.0.key();
        if improved {
            best = (now, w.clone());
        }
        history.push(now);
        print_epoch(log, &now, improved, begun)?;
    }
    Ok(Trained { weights: best.1, best: best.0, history })
}

/// Sets both weights of every tied pair to `join` of the two, mg and eg apart.
fn tie(v: &mut Weights, pairs: &[(usize, usize)], join: impl Fn(f64, f64) -> f64) {
    for &(a, b) in pairs {
        let both = [join(v[a][0], v[b][0]), join(v[a][1], v[b][1])];
        (v[a], v[b]) = (both, both);
    }
}

fn print_epoch(log: &mut dyn Write, e: &EpochLoss, best: bool, begun: Instant) -> io::Result<()> {
    let val = e.validation.map_or("-".to_string(), |v| format!("{v:.7}"));
    let mark = if best { " *" } else { "" };
    writeln!(
        log,
        "epoch {:>4}  train {:.7}  validation {val}  {:>6.1}s{mark}",
        e.epoch,
        e.train,
        begun.elapsed().as_secs_f64()
    )
}
