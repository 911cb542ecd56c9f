//! The command line of `sitke train` and what it runs.

use super::adam::{AdamSettings, Schedule};
use super::checkpoint::{Checkpoint, Recipe, parse_activation};
use super::load::{self, LoadOptions};
use super::model::{FloatNet, Shape};
use super::{Output, Trainer, run_epochs};
use crate::eval::nnue::{Activation, QuantisedNet};
use std::io::Write;
use std::path::PathBuf;

/// Options of `sitke train`.
#[derive(clap::Args, Clone, Debug)]
pub struct TrainArgs {
    /// Data files of datagen (binary or text format).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Hidden size per perspective (default: the starting or resumed net's, else 128).
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Output buckets by material, 1 to 32 (default: the starting or resumed net's, else 1).
    /// A one-bucket starting net may be split into more.
    #[arg(long)]
    pub buckets: Option<usize>,
    /// The hidden activation, screlu or crelu (default: the starting or resumed net's, else
    /// screlu).
    #[arg(long, value_parser = parse_activation)]
    pub activation: Option<Activation>,
    /// Passes over the training set (15: generation 0, from random weights).
    #[arg(long, default_value_t = 15)]
    pub epochs: usize,
    /// Positions per gradient step (4096: both accepted generations).
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f64,
    /// Step size schedule: constant, step:EVERY:GAMMA (e.g. step:8:0.3) or cosine[:FLOOR].
    #[arg(long, default_value = "cosine:0.05")]
    pub schedule: Schedule,
    /// Adam's first-moment decay.
    #[arg(long, default_value_t = 0.9)]
    pub beta1: f32,
    /// Adam's second-moment decay.
    #[arg(long, default_value_t = 0.999)]
    pub beta2: f32,
    /// Decoupled weight decay per step, a share of the step size (biases are spared).
    #[arg(long, default_value_t = 0.0)]
    pub weight_decay: f32,
    /// Centipawns per unit of the sigmoid's argument, for the score and the net alike.
    #[arg(long, default_value_t = 400.0)]
    pub k: f64,
    /// Weight of the search score in the target; the game result gets the rest. (`sitke
    /// tune` weighs the other way round: its flag is --result-weight.)
    #[arg(long, default_value_t = 1.0)]
    pub score_weight: f64,
    /// --score-weight for the positions of games drawn by the 50-move rule or the count
    /// (default: --score-weight), so the net may learn that such a game's score overstated
    /// it. Binary data only: text files do not say how a game ended.
    #[arg(long)]
    pub rule_draw_weight: Option<f64>,
    /// Reach --rule-draw-weight only at a rule-drawn game's last position, moving there
    /// from --score-weight through the game, so its early positions keep their score.
    #[arg(long, requires = "rule_draw_weight")]
    pub rule_draw_ramp: bool,
    /// Leave out positions whose score exceeds this many centipawns in magnitude.
    #[arg(long)]
    pub max_score: Option<i32>,
    /// Train on the scores as searched, without dividing the 50-move rule's factor out.
    #[arg(long)]
    pub keep_rule50: bool,
    /// Share of the games held out for validation.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Seed of the initial weights, the shuffles and the validation split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Use only the first N positions of the data (after the filters).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Folder for the checkpoint and each epoch's net.
    #[arg(long, default_value = "data/train")]
    pub dir: PathBuf,
    /// The final net's file (default: DIR/<its name>.nnue); its float weights go beside it
    /// as .float.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Start from these weights: a float checkpoint (.float or .ckpt) or an engine net file
    /// (.nnue, its integers turned back into floats). A one-bucket net may start a bucketed
    /// run: its output is copied into every bucket.
    #[arg(long, conflicts_with = "resume")]
    pub init: Option<PathBuf>,
    /// Continue the run of this checkpoint (rerun the same command with --resume
    /// DIR/checkpoint.ckpt; --epochs may be raised).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Train nothing: print the loss of the --init net over every position of DATA (the
    /// filters apply, nothing is held out), so nets trained on different data can be
    /// compared on one set none of them saw.
    #[arg(long, requires = "init")]
    pub evaluate: bool,
}

impl TrainArgs {
    /// The net's shape: what the options say, and where they are silent, that of the
    /// net the run starts from (`start`), so a generation keeps its predecessor's shape
    /// without repeating it.
    pub fn shape(&self, start: Option<Shape>) -> Shape {
        Shape {
            hidden: self.hidden.or(start.map(|s| s.hidden)).unwrap_or(128),
            buckets: self.buckets.or(start.map(|s| s.buckets)).unwrap_or(1),
            activation: self.activation.or(start.map(|s| s.activation)).unwrap_or(Activation::SCReLU),
        }
    }

    /// The recipe these options describe, for a net of `shape`.
    pub fn recipe(&self, shape: Shape, init: Option<String>) -> Recipe {
        Recipe {
            shape,
            seed: self.seed,
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            schedule: self.schedule,
            adam: AdamSettings { beta1: self.beta1, beta2: self.beta2, weight_decay: self.weight_decay },
            k: self.k,
            lambda: self.score_weight,
            rule_draw_lambda: self.rule_draw_weight,
            rule_draw_ramp: self.rule_draw_ramp,
            max_score: self.max_score,
            unscale_rule50: !self.keep_rule50,
            validation: self.validation,
            init,
        }
    }
}

fn read_checkpoint(path: &PathBuf) -> Result<Checkpoint, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The weights to start from: a float checkpoint, or an engine net file (its integers
/// divided by their scales), so a generation can start from the net the engine embeds even
/// where its float weights are lost.
fn read_start(path: &PathBuf) -> Result<FloatNet, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.starts_with(crate::eval::nnue::file::MAGIC) {
        let q = QuantisedNet::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(FloatNet::from_quantised(&q));
    }
    Ok(Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?.net)
}

/// Runs `sitke train`, logging to `log`.
pub fn main(a: &TrainArgs, log: &mut dyn Write) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(n) = a.threads {
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global().map_err(|e| format!("threads: {e}"))?;
    }
    let weights = [Some(a.score_weight), a.rule_draw_weight];
    if weights.iter().flatten().any(|w| !(0.0..=1.0).contains(w)) || a.k <= 0.0 {
        return Err("--score-weight and --rule-draw-weight must be within 0..1 and --k positive".into());
    }
    let init = a.init.as_ref().map(read_start).transpose()?;
    let resumed = a.resume.as_ref().map(|path| Ok::<_, String>((path, read_checkpoint(path)?))).transpose()?;
    let shape = a.shape(init.as_ref().or(resumed.as_ref().map(|(_, ck)| &ck.net)).map(|net| net.shape));
    if !(1..=4096).contains(&shape.hidden) || !(1..=32).contains(&shape.buckets) || a.batch == 0 || a.epochs == 0 {
        return Err("--hidden must be 1..4096, --buckets 1..32, --batch and --epochs positive".into());
    }
    let recipe = a.recipe(shape, init.as_ref().map(Checkpoint::net_hash));
    let options = LoadOptions {
        max_score: a.max_score,
        validation: a.validation,
        seed: a.seed,
        limit: a.limit,
        unscale_rule50: !a.keep_rule50,
    };
    if a.evaluate {
        return evaluate(a, recipe, init.as_ref(), &options, log);
    }
    let (train, validation) = load::load(&a.data, &options, log)?;
    if train.is_empty() {
        return Err("no training positions".into());
    }
    let mut trainer = match resumed {
        Some((path, ck)) => {
            let recipe = Recipe { init: ck.recipe.init.clone(), ..recipe };
            let t = Trainer::resume(recipe, ck, train.fingerprint()).map_err(|e| format!("{}: {e}", path.display()))?;
            writeln!(log, "train: resuming {} after epoch {}", path.display(), t.epoch)?;
            t
        }
        None => Trainer::new(recipe, init.as_ref())?,
    };
    writeln!(
        log,
        "train: {} inputs x2 -> {} ({}) -> {} bucket(s), {} parameters; {} threads",
        crate::eval::nnue::features::INPUTS,
        shape.hidden,
        super::checkpoint::activation_name(shape.activation),
        shape.buckets,
        trainer.net.params.len(),
        rayon::current_num_threads()
    )?;
    write!(log, "train: recipe:\n{}", trainer.recipe.to_text())?;
    let output = Output { dir: a.dir.clone(), out: a.out.clone() };
    run_epochs(&mut trainer, &train, &validation, &output, log)?;
    Ok(())
}

/// `--evaluate`: the loss of the starting net over all of `a.data`.
fn evaluate(
    a: &TrainArgs,
    recipe: Recipe,
    net: Option<&FloatNet>,
    options: &LoadOptions,
    log: &mut dyn Write,
) -> Result<(), Box<dyn std::error::Error>> {
    let net = net.ok_or("--evaluate scores the --init net")?;
    let (data, _) = load::load(&a.data, &LoadOptions { validation: 0.0, ..*options }, log)?;
    let mut trainer = Trainer::new(recipe, Some(net))?;
    let loss = trainer.loss(&data).ok_or("no positions to evaluate")?;
    let name = a.init.as_ref().map_or(String::new(), |p| p.display().to_string());
    writeln!(log, "evaluate: {name}: loss {loss:.6} over {} positions", data.len())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(dir: PathBuf) -> TrainArgs {
        TrainArgs {
            data: Vec::new(),
            hidden: None,
            buckets: None,
            activation: None,
            epochs: 1,
            batch: 100,
            lr: 0.001,
            schedule: Schedule::Constant,
            beta1: 0.9,
            beta2: 0.999,
            weight_decay: 0.0,
            k: 400.0,
            score_weight: 1.0,
            rule_draw_weight: None,
            rule_draw_ramp: false,
            max_score: None,
            keep_rule50: false,
            validation: 0.1,
            seed: 1,
            limit: None,
            threads: None,
            dir,
            out: None,
            init: None,
            resume: None,
            evaluate: false,
        }
    }

    #[test]
    fn silent_shape_options_take_the_starting_nets_shape() {
        let args = args(PathBuf::from("unused"));
        let start = Shape { hidden: 4, buckets: 2, activation: Activation::CReLU };
        assert_eq!(args.shape(Some(start)), start);
        assert_eq!(args.shape(None), Shape { hidden: 128, buckets: 1, activation: Activation::SCReLU });
        let given = TrainArgs { hidden: Some(16), buckets: Some(8), activation: Some(Activation::SCReLU), ..args };
        assert_eq!(given.shape(Some(start)), Shape { hidden: 16, buckets: 8, activation: Activation::SCReLU });
    }

    #[test]
    fn evaluate_scores_the_start_on_every_position() {
        // Positions scored by net `a` itself: `a` fits them but for the rounding to whole
        // centipawns, another net does not.
        let shape = Shape { hidden: 8, buckets: 2, activation: Activation::SCReLU };
        let (a, b) = (FloatNet::random(shape, 3), FloatNet::random(shape, 4));
        let dir = std::env::temp_dir().join(format!("sitke-train-evaluate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut text = String::new();
        let positions = crate::tools::tune::random_positions(9, 300);
        for pos in &positions {
            let stm = a.evaluate(pos).round() as i32;
            let white = if pos.side_to_move() == crate::board::Color::White { stm } else { -stm };
            text.push_str(&format!("{};{white};0.5\n", pos.fen()));
        }
        let data = dir.join("scored.txt");
        std::fs::write(&data, text).unwrap();
        let run = |net: &FloatNet, name: &str| -> (f64, usize) {
            let path = dir.join(name);
            let ck = Checkpoint {
                recipe: args(dir.clone()).recipe(shape, None),
                net: net.clone(),
                adam: None,
                epoch: 1,
                data: 0,
            };
            std::fs::write(&path, ck.to_bytes()).unwrap();
            let a = TrainArgs { data: vec![data.clone()], init: Some(path), evaluate: true, ..args(dir.clone()) };
            let mut log = Vec::new();
            main(&a, &mut log).unwrap();
            let log = String::from_utf8(log).unwrap();
            let line = log.lines().find(|l| l.starts_with("evaluate: ")).expect("an evaluate line");
            let words: Vec<&str> = line.split_whitespace().collect();
            (words[3].parse().unwrap(), words[5].parse().unwrap())
        };
        let ((loss_a, n_a), (loss_b, n_b)) = (run(&a, "a.float"), run(&b, "b.float"));
        // Nothing is held out: every position the filters keep is scored.
        assert!(n_a > 250 && n_a == n_b, "{n_a} and {n_b} of 300");
        assert!(loss_a < 1e-6, "the net's own scores: loss {loss_a}");
        assert!(loss_b > 100.0 * loss_a.max(1e-8), "another net: {loss_b} against {loss_a}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_start_is_read_from_a_float_file_or_an_engine_net() {
        let shape = Shape { hidden: 4, buckets: 2, activation: Activation::CReLU };
        let net = FloatNet::random(shape, 12);
        let dir = std::env::temp_dir().join(format!("sitke-train-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let args = args(dir.clone());
        let float = Checkpoint { recipe: args.recipe(shape, None), net: net.clone(), adam: None, epoch: 3, data: 0 };
        let float_path = dir.join("a.float");
        std::fs::write(&float_path, float.to_bytes()).unwrap();
        assert_eq!(read_start(&float_path), Ok(net.clone()));
        let nnue_path = dir.join("a.nnue");
        std::fs::write(&nnue_path, net.quantise().to_bytes()).unwrap();
        let back = read_start(&nnue_path).unwrap();
        assert_eq!(back.quantise(), net.quantise());
        assert!(back.params.iter().zip(&net.params).all(|(a, b)| (a - b).abs() <= 0.5 / 64.0 + 1e-6));
        std::fs::write(&nnue_path, [b'x'; 100]).unwrap();
        assert!(read_start(&nnue_path).unwrap_err().contains("magic"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
