//! `sitke train`: fits Sitke's NNUE to self-play data, on the CPU, with our own code.
//!
//! The positions (`data`) are split by whole games into a training and a validation set.
//! Every epoch goes over the training set in a fresh shuffle, in mini-batches; each batch's
//! gradient (`grad`) touches only the inputs its positions switch on and is summed in a
//! fixed order, and Adam (`adam`) takes a step, after which every weight is clipped so the
//! engine's i16 accumulator cannot overflow (`model::CLIP`). The loss is the squared
//! difference between sigmoid(eval / K) and a target blending sigmoid(score / K) with the
//! game result (`grad::Objective`). After every epoch the trainer prints the losses,
//! positions per second and the time left, writes a checkpoint (`checkpoint`) and the
//! epoch's quantised net; at the end it writes the net the engine loads
//! (`eval::nnue::file`) and its float weights, from which a later run can start.

pub mod adam;
pub mod checkpoint;
pub mod cli;
pub mod data;
pub mod grad;
pub mod load;
pub mod model;

use crate::eval::nnue::Network;
use crate::rng::Rng;
use crate::tools::datagen::format_duration;
use adam::Adam;
use checkpoint::{Checkpoint, Recipe};
use data::{Dataset, Mirror};
use grad::{Gradient, Objective};
use model::FloatNet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A training run in progress: the weights, the optimiser and the epochs done.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// How the run is set up.
    pub recipe: Recipe,
    /// The weights.
    pub net: FloatNet,
    /// Adam's state.
    pub adam: Adam,
    /// Epochs done.
    pub epoch: usize,
    grad: Gradient,
    mirror: Mirror,
}

/// What one epoch did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochStats {
    /// The epoch's number (1-based).
    pub epoch: usize,
    /// Its step size.
    pub lr: f64,
    /// Mean loss over the training positions, each measured as its batch was stepped on.
    pub train_loss: f64,
    /// Mean loss over the validation set after the epoch (None without one).
    pub validation_loss: Option<f64>,
    /// Training positions stepped on.
    pub positions: usize,
    /// Time spent on the training steps.
    pub seconds: f64,
}

impl EpochStats {
    /// Training positions per second.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }
}

impl Trainer {
    /// A run from the start: from `init`'s weights if given, else random ones drawn from
    /// the seed.
    pub fn new(recipe: Recipe, init: Option<&FloatNet>) -> Result<Trainer, String> {
        if recipe.shape.hidden == 0 || recipe.shape.buckets == 0 || recipe.batch == 0 {
            return Err("hidden size, buckets and batch must be positive".into());
        }
        let net = match init {
            // Buckets and width may grow from the start's (the two calls below refuse anything
            // else); the activation must match.
            Some(net) if net.shape.activation != recipe.shape.activation => {
                return Err(format!("the starting net has shape {:?}, the recipe {:?}", net.shape, recipe.shape));
            }
            // Split first: widening keeps however many buckets there are.
            Some(net) => net.with_buckets(recipe.shape.buckets)?.with_hidden(recipe.shape.hidden, recipe.seed)?,
            None => FloatNet::random(recipe.shape, recipe.seed),
        };
        let adam = Adam::new(net.params.len());
        let grad = Gradient::new(recipe.shape, recipe.batch);
        Ok(Trainer { recipe, net, adam, epoch: 0, grad, mirror: Mirror::new() })
    }

    /// Continues the run of checkpoint `ck`, which must have been made with the same
    /// recipe (the epoch count aside) on the same training set.
    pub fn resume(recipe: Recipe, ck: Checkpoint, data: u64) -> Result<Trainer, String> {
        let diff = ck.recipe.differences(&recipe);
        if !diff.is_empty() {
            return Err(format!("the checkpoint was made with other settings: {}", diff.join(", ")));
        }
        if ck.data != data {
            return Err(format!("the checkpoint was trained on other data ({:016x}, now {data:016x})", ck.data));
        }
        let adam = ck.adam.ok_or("the checkpoint holds weights only, no optimiser state: start from it with --init")?;
        let grad = Gradient::new(recipe.shape, recipe.batch);
        Ok(Trainer { recipe, net: ck.net, adam, epoch: ck.epoch, grad, mirror: Mirror::new() })
    }

    /// The run as it stands, for a checkpoint file.
    pub fn checkpoint(&self, data: u64) -> Checkpoint {
        Checkpoint {
            recipe: self.recipe.clone(),
            net: self.net.clone(),
            adam: Some(self.adam.clone()),
            epoch: self.epoch,
            data,
        }
    }

    /// The loss's settings.
    pub fn objective(&self) -> Objective {
        let r = &self.recipe;
        Objective {
            k: r.k as f32,
            lambda: r.lambda as f32,
            rule_draw_lambda: r.rule_draw_lambda.unwrap_or(r.lambda) as f32,
            rule_draw_ramp: r.rule_draw_ramp,
        }
    }

    /// One pass over `train` in the epoch's own shuffle.
    pub fn run_epoch(&mut self, train: &Dataset) -> EpochStats {
        let begun = Instant::now();
        self.epoch += 1;
        let r = &self.recipe;
        let lr = r.schedule.lr(r.lr, self.epoch, r.epochs) as f32;
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        Rng::for_item(r.seed, self.epoch as u64).shuffle(&mut order);
        let obj = self.objective();
        let s = self.net.shape;
        let decays = |i: usize| i < s.hidden_bias_at() || (s.output_weights_at()..s.output_bias_at()).contains(&i);
        let mut loss = 0.0;
        for batch in order.chunks(r.batch) {
            loss += self.grad.compute(&self.net, train, &self.mirror, obj, batch);
            self.adam.step(&mut self.net.params, &self.grad.grad, lr, &r.adam, decays);
            self.net.clip();
        }
        EpochStats {
            epoch: self.epoch,
            lr: lr as f64,
            train_loss: loss / train.len().max(1) as f64,
            validation_loss: None,
            positions: train.len(),
            seconds: begun.elapsed().as_secs_f64(),
        }
    }

    /// The mean loss over `data` (None if it is empty).
    pub fn loss(&mut self, data: &Dataset) -> Option<f64> {
        if data.is_empty() {
            return None;
        }
        let all: Vec<u32> = (0..data.len() as u32).collect();
        Some(self.grad.loss(&self.net, data, &self.mirror, self.objective(), &all) / data.len() as f64)
    }
}

/// Where a run writes, and what it starts from.
#[derive(Clone, Debug, Default)]
pub struct Output {
    /// Folder for the checkpoint (`checkpoint.ckpt`, rewritten every epoch) and each
    /// epoch's quantised net (`epoch-NNN.nnue`).
    pub dir: PathBuf,
    /// The final net's path (default: `dir/<the net's name>.nnue`). Its float weights go
    /// beside it, with the extension `.float`.
    pub out: Option<PathBuf>,
}

/// What a finished run wrote.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Every epoch of this invocation.
    pub epochs: Vec<EpochStats>,
    /// The quantised net's file.
    pub net_path: PathBuf,
    /// Its name (`Network::name`).
    pub net_name: String,
    /// The float weights' file.
    pub float_path: PathBuf,
}

/// Writes `bytes` to `path` through a temporary file, so a crash leaves the old file whole.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// Trains until the recipe's epoch count, writing a checkpoint and a net after every epoch
/// and a line about it to `log`; then writes the final net and its float weights.
pub fn run_epochs(
    trainer: &mut Trainer,
    train: &Dataset,
    validation: &Dataset,
    output: &Output,
    log: &mut dyn Write,
) -> Result<Outcome, Box<dyn std::error::Error>> {
    std::fs::create_dir_all(&output.dir)?;
    let fingerprint = train.fingerprint();
    let threads = rayon::current_num_threads();
    let begun = Instant::now();
    let first = trainer.epoch;
    let mut epochs = Vec::new();
    let mut best: Option<f64> = None;
    while trainer.epoch < trainer.recipe.epochs {
        let mut stats = trainer.run_epoch(train);
        stats.validation_loss = trainer.loss(validation);
        write_atomically(&output.dir.join("checkpoint.ckpt"), &trainer.checkpoint(fingerprint).to_bytes())?;
        let quantised = trainer.net.quantise().to_bytes();
        write_atomically(&output.dir.join(format!("epoch-{:03}.nnue", stats.epoch)), &quantised)?;
        let elapsed = begun.elapsed();
        let left = trainer.recipe.epochs - trainer.epoch;
        let eta = elapsed.mul_f64(left as f64 / (trainer.epoch - first) as f64);
        let key = stats.validation_loss.unwrap_or(stats.train_loss);
        let improved = best.is_none_or(|b| key < b);
        if improved {
            best = Some(key);
        }
        writeln!(
            log,
            "epoch {:>3}/{}  train {:.6}  validation {}  lr {:.2e}  {:.0} pos/s ({threads} threads)  elapsed {}  ETA {}{}",
            stats.epoch,
            trainer.recipe.epochs,
            stats.train_loss,
            stats.validation_loss.map_or("-".into(), |v| format!("{v:.6}")),
            stats.lr,
            stats.positions_per_second(),
            format_duration(elapsed),
            format_duration(eta),
            if improved { " *" } else { "" }
        )?;
        epochs.push(stats);
    }
    let bytes = trainer.net.quantise().to_bytes();
    let net_name =
        Network::from_bytes(&bytes).map_err(|e| format!("the net just written is refused: {e}"))?.name().to_string();
    let net_path = output.out.clone().unwrap_or_else(|| output.dir.join(format!("{net_name}.nnue")));
    write_atomically(&net_path, &bytes)?;
    let float_path = net_path.with_extension("float");
    let float = Checkpoint { adam: None, ..trainer.checkpoint(fingerprint) };
    write_atomically(&float_path, &float.to_bytes())?;
    writeln!(
        log,
        "train: wrote {} ({}) and its float weights {} after {} epochs in {}",
        net_path.display(),
        net_name,
        float_path.display(),
        trainer.epoch,
        format_duration(Duration::from_secs_f64(begun.elapsed().as_secs_f64()))
    )?;
    Ok(Outcome { epochs, net_path, net_name, float_path })
}

#[cfg(test)]
mod tests;
