//! The command line of `sitke tune` and what it runs.

/// Options of `sitke tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// Data files in datagen's format.
    #[arg(required = true)]
    data: Vec<std::path::PathBuf>,
    /// Passes over the training set.
    #[arg(long, default_value_t = 40)]
    epochs: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Step size factor per epoch.
    #[arg(long, default_value_t = 0.95)]
    lr_decay: f64,
    /// Positions per gradient step (0: all).
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Weight of the game result in the target; the rest goes to the search score. (`sitke
    /// train` weighs the other way round: its flag is --score-weight.)
    #[arg(long, default_value_t = 1.0)]
    result_weight: f64,
    /// Sigmoid scale (default: fitted to the current weights).
    #[arg(long)]
    k: Option<f64>,
    /// Share of the games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Use only the first N positions.
    #[arg(long)]
    limit: Option<usize>,
    /// Tune only these terms (comma-separated names from the layout).
    #[arg(long, value_delimiter = ',')]
    terms: Vec<String>,
    /// Seed of the shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// The weights source file to rewrite.
    #[arg(long, default_value = "src/eval/weights.rs")]
    weights_file: std::path::PathBuf,
    /// Fit and report, but leave the weights file alone.
    #[arg(long)]
    dry_run: bool,
    /// Fit each piece-square weight and its mirror across the a/h middle as one weight.
    #[arg(long)]
    mirror_pst: bool,
}

/// Runs `sitke tune`.
pub fn main(a: TuneArgs) {
    use super::{self as tune, TuneConfig, train::TrainOptions};
    if let Some(n) = a.threads
        && let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(n).build_global()
    {
        eprintln!("error: tune: threads: {e}");
        std::process::exit(2);
    }
    let cfg = TuneConfig {
        data: a.data,
        limit: a.limit,
        validation: a.validation,
        k: a.k,
        lambda: a.result_weight,
        terms: a.terms,
        train: TrainOptions {
            epochs: a.epochs,
            lr: a.lr,
            lr_decay: a.lr_decay,
            batch: a.batch,
            tied: if a.mirror_pst { tune::mirror_pairs() } else { Vec::new() },
        },
        seed: a.seed,
        weights_file: a.weights_file,
        write: !a.dry_run,
    };
    if let Err(e) = tune::tune(&cfg, &mut std::io::stderr()) {
        eprintln!("error: tune: {e}");
        std::process::exit(1);
    }
}
