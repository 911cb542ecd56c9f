//! `sitke tune`: Texel-style fitting of the evaluation's weights to self-play data.
//!
//! The data (`datagen`'s files, binary or text) is split by game into a training and a held-out
//! validation set, every position is traced once into its feature counts (`dataset`), the
//! sigmoid scale K is fitted to the current weights, and Adam minimises the squared error
//! between the evaluation's win probability and the game result (optionally blended with
//! the search score's) over every weight (`model`, `train`). The weights of the epoch that
//! validated best are rounded and written back into `src/eval/weights.rs`
//! (`weights_file`). Everything is driven by the layout in `eval::TERMS`, so new terms are
//! tuned without a change here.

pub mod adam;
pub mod cli;
pub mod dataset;
pub mod model;
pub mod train;
pub mod weights_file;

use crate::eval::{NUM_PARAMS, S, TERMS, WEIGHTS, s};
use crate::rng::Rng;
use crate::tools::datagen::binary::PackedRecord;
use crate::tools::datagen::data;
use crate::tools::datagen::format::GameResult;
use dataset::{Dataset, Linearizer};
use model::{Objective, fit_k};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use train::{EpochLoss, TrainOptions, train};

/// The weights as the tuner moves them: (mg, eg) pairs in real numbers.
pub type Weights = Vec<[f64; 2]>;

/// The integer table as real weights.
pub fn from_table(table: &[S; NUM_PARAMS]) -> Weights {
    table.iter().map(|w| [w.mg as f64, w.eg as f64]).collect()
}

/// The real weights rounded to the evaluation's integers.
pub fn to_table(w: &Weights) -> [S; NUM_PARAMS] {
    std::array::from_fn(|i| s(w[i][0].round() as i32, w[i][1].round() as i32))
}

/// Everything a tuning run needs.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Data files.
    pub data: Vec<PathBuf>,
    /// Use only the first this many positions.
    pub limit: Option<usize>,
    /// Share of the games held out for validation.
    pub validation: f64,
    /// The sigmoid scale; fitted to the current weights when None.
    pub k: Option<f64>,
    /// Weight of the game result in the target (1: results only).
    pub lambda: f64,
    /// Tune only these terms (all when empty).
    pub terms: Vec<String>,
    /// The fitting loop's settings.
    pub train: TrainOptions,
    /// Seed of the shuffle.
    pub seed: u64,
    /// The weights source file: read as the template, written with the result.
    pub weights_file: PathBuf,
    /// Whether to write it.
    pub write: bool,
}

/// What a tuning run achieved.
#[derive(Clone, Debug)]
pub struct TuneOutcome {
    /// The sigmoid scale used.
    pub k: f64,
    /// Losses of the starting weights.
    pub before: EpochLoss,
    /// Losses of the best epoch, unrounded.
    pub best: EpochLoss,
    /// Losses of the rounded table that was written.
    pub after: EpochLoss,
    /// The tuned table.
    pub table: [S; NUM_PARAMS],
}

/// Which weights belong to the named terms (every weight when `terms` is empty).
pub fn term_mask(terms: &[String]) -> Result<Vec<bool>, String> {
    let mut mask = vec![terms.is_empty(); NUM_PARAMS];
    for name in terms {
        let t = TERMS.iter().find(|t| t.name.eq_ignore_ascii_case(name)).ok_or_else(|| {
            let names: Vec<&str> = TERMS.iter().map(|t| t.name).collect();
            format!("no term '{name}'; the terms are {}", names.join(", "))
        })?;
        mask[t.offset..t.offset + t.len].fill(true);
    }
    Ok(mask)
}

/// The piece-square weights of each square and its mirror image across the board's middle
/// (a-file and h-file), to be fitted as one. The rules are symmetric under that mirror, but
/// the two armies' pawns start in structures that are mirror images of each other (White's
/// a3-d3 and e4-h4 are Black's h5-e5 and d6-a6 seen from Black's side), so a table free to
/// differ between the wings can tell the colours apart by the pawns alone and score the
/// start position for one side (as a refit to fairy-stockfish's depth-7 scores with the
/// tempo held did: the teacher's side-to-move bias had to go somewhere).
pub fn mirror_pairs() -> Vec<(usize, usize)> {
    let pst = TERMS.iter().find(|t| t.name == "PST").expect("the layout has a PST term");
    let mut pairs = Vec::new();
    for table in (pst.offset..pst.offset + pst.len).step_by(64) {
        for sq in (0..64).filter(|sq| sq % 8 < 4) {
            pairs.push((table + sq, table + (sq ^ 7)));
        }
    }
    pairs
}

/// Loads the data, fits the weights and (if asked) writes them, logging as it goes.
pub fn tune(cfg: &TuneConfig, log: &mut dyn Write) -> Result<TuneOutcome, Box<dyn std::error::Error>> {
    let template = std::fs::read_to_string(&cfg.weights_file).map_err(|e| {
        format!("{}: {e} (run from the source tree or pass --weights-file)", cfg.weights_file.display())
    })?;
    let on_disk = weights_file::parse_table(&template).map_err(|e| format!("{}: {e}", cfg.weights_file.display()))?;
    if on_disk != WEIGHTS {
        return Err(format!(
            "{} differs from the weights this binary was built with; rebuild first",
            cfg.weights_file.display()
        )
        .into());
    }
    let mask = term_mask(&cfg.terms)?;
    let begun = Instant::now();
    let (train_set, val_set) = load(cfg, log)?;
    writeln!(
        log,
        "tune: traced {} training and {} validation positions in {:.1}s; tuning {} of {} weight pairs",
        train_set.len(),
        val_set.len(),
        begun.elapsed().as_secs_f64(),
        mask.iter().filter(|&&m| m).count(),
        NUM_PARAMS
    )?;
    if train_set.is_empty() {
        return Err("no training positions".into());
    }
    let start = from_table(&WEIGHTS);
    let k = cfg.k.unwrap_or_else(|| fit_k(&train_set, &start));
    writeln!(log, "tune: K = {k:.4}{}", if cfg.k.is_some() { " (given)" } else { " (fitted to the current weights)" })?;
    let obj = Objective { k, lambda: cfg.lambda };
    let trained = train(&train_set, &val_set, start, obj, &cfg.train, &mask, log)?;
    let table = to_table(&trained.weights);
    let rounded = from_table(&table);
    let after = EpochLoss {
        epoch: trained.best.epoch,
        train: obj.loss(&train_set, train_set.samples(), &rounded),
        validation: (!val_set.is_empty()).then(|| obj.loss(&val_set, val_set.samples(), &rounded)),
    };
    let before = trained.history[0];
    let show = |e: &EpochLoss| e.validation.map_or("-".into(), |v| format!("{v:.7}"));
    writeln!(
        log,
        "tune: best epoch {}; validation loss {} -> {} (rounded), training loss {:.7} -> {:.7}",
        trained.best.epoch,
        show(&before),
        show(&after),
        before.train,
        after.train
    )?;
    print_changes(log, &table)?;
    if cfg.write {
        let text = weights_file::render(&template, &table)?;
        let tmp = cfg.weights_file.with_extension("rs.tmp");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &cfg.weights_file)?;
        writeln!(log, "tune: wrote {}; rebuild to use the new weights", cfg.weights_file.display())?;
    }
    Ok(TuneOutcome { k, before, best: trained.best, after, table })
}

/// Reads the data files and traces a training and a validation set; whole games go to one
/// side, since positions of one game are alike and would leak across the split.
fn load(cfg: &TuneConfig, log: &mut dyn Write) -> Result<(Dataset, Dataset), Box<dyn std::error::Error>> {
    let mut entries: Vec<(u64, PackedRecord)> = Vec::new();
    for path in &cfg.data {
        let file = data::read_path(path)?;
        let key = data::records_key(&file);
        writeln!(log, "tune: {}: {} positions", path.display(), file.len())?;
        entries.extend(file.into_iter().map(|(game, r)| (data::game_key(key, game), r)));
    }
    if let Some(n) = cfg.limit {
        entries.truncate(n);
    }
    let count = |r: GameResult| entries.iter().filter(|(_, e)| e.result_white() == r).count() as f64;
    let n = entries.len().max(1) as f64;
    writeln!(
        log,
        "tune: results: White wins {:.1}%, draws {:.1}%, Black wins {:.1}%",
        100.0 * count(GameResult::WhiteWin) / n,
        100.0 * count(GameResult::Draw) / n,
        100.0 * count(GameResult::BlackWin) / n
    )?;
    let cut = (cfg.validation.clamp(0.0, 1.0) * 1_000_000.0) as u64;
    let (mut train, mut val): (Vec<&PackedRecord>, Vec<&PackedRecord>) = (Vec::new(), Vec::new());
    for (group, e) in &entries {
        if group % 1_000_000 >= cut { train.push(e) } else { val.push(e) }
    }
    // Mini-batches then mix games and phases.
    Rng::new(cfg.seed).shuffle(&mut train);
    let lin = Linearizer::new(&WEIGHTS);
    Ok((Dataset::from_records(&train, &lin)?, Dataset::from_records(&val, &lin)?))
}

/// A line per term: how far its weights moved on average.
fn print_changes(log: &mut dyn Write, table: &[S; NUM_PARAMS]) -> std::io::Result<()> {
    writeln!(log, "tune: mean absolute change per term (mg, eg):")?;
    for t in TERMS {
        let range = t.offset..t.offset + t.len;
        let (mut mg, mut eg) = (0.0, 0.0);
        for i in range {
            mg += (table[i].mg - WEIGHTS[i].mg).abs() as f64;
            eg += (table[i].eg - WEIGHTS[i].eg).abs() as f64;
        }
        writeln!(log, "  {:<20} {:>7.1} {:>7.1}", t.name, mg / t.len as f64, eg / t.len as f64)?;
    }
    Ok(())
}

/// Positions from random games (random placements, then random moves): every phase and
/// plenty of odd material, for tests that need many different positions.
#[cfg(test)]
pub(crate) fn random_positions(seed: u64, n: usize) -> Vec<crate::board::Position> {
    use crate::board::Position;
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::startpos();
        for _ in 0..250 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_over() || out.len() >= n {
                break;
            }
            pos.do_move(*rng.pick(moves.as_slice()));
            // One position in three, so that neighbours in a game do not dominate.
            if rng.below(3) == 0 {
                out.push(Position::from_fen(&pos.fen()).expect("a generated FEN parses"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
