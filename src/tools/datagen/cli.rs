//! The command lines of `sitke datagen` and `sitke pgn-positions`, and what they run.

use super::{DatagenConfig, Format, game};
use std::io::Write;
use std::time::Instant;

/// Options of `sitke datagen`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DatagenArgs {
    #[command(subcommand)]
    command: Option<DatagenCommand>,
    /// Data file to append to (a new one is binary unless --text or its name ends in
    /// .txt; an existing one keeps its format).
    #[arg(long, short, required = true)]
    out: Option<std::path::PathBuf>,
    /// Write a new file in the text format (one FEN a line, about 58 bytes a position)
    /// instead of the binary one (32).
    #[arg(long)]
    text: bool,
    /// Stop once the file holds this many positions.
    #[arg(long, default_value_t = 1_000_000)]
    positions: u64,
    /// Game streams at once (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Node budget per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Hash table per stream, MiB.
    #[arg(long, default_value_t = 8)]
    hash: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fewest random placement plies at the start.
    #[arg(long, default_value_t = 6)]
    random_min: u32,
    /// Most random placement plies at the start (the setup has 16).
    #[arg(long, default_value_t = 16)]
    random_max: u32,
    /// Adjudicate a win after this many plies at or beyond --win-score.
    #[arg(long, default_value_t = 6)]
    win_plies: u32,
    /// Score in centipawns that counts as winning.
    #[arg(long, default_value_t = 1000)]
    win_score: i32,
    /// Adjudicate a draw after this many plies within --draw-score of zero...
    #[arg(long, default_value_t = 12)]
    draw_plies: u32,
    /// ...once the game is this many plies old.
    #[arg(long, default_value_t = 60)]
    draw_after: u32,
    /// Score in centipawns that counts as level.
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    /// A game this long is a draw.
    #[arg(long, default_value_t = 600)]
    max_plies: u32,
    /// Seconds between progress lines.
    #[arg(long, default_value_t = 10)]
    report: u64,
    /// Play with the net in this file instead of the built-in one.
    #[arg(long, conflicts_with = "classical")]
    eval_file: Option<std::path::PathBuf>,
    /// Play with the classical evaluation instead of a net (generation 0's teacher).
    #[arg(long)]
    classical: bool,
}

/// What `sitke datagen` does besides playing games.
#[derive(clap::Subcommand)]
pub enum DatagenCommand {
    /// Convert a text data file into the binary format (game ids and results kept).
    Convert {
        /// The text data file.
        #[arg(long)]
        from: std::path::PathBuf,
        /// The binary file to write (replaced if it exists).
        #[arg(long, short)]
        out: std::path::PathBuf,
    },
}

/// Options of `sitke pgn-positions`.
#[derive(clap::Args)]
pub struct PgnPositionsArgs {
    /// The PGN file to read.
    pgn: std::path::PathBuf,
    /// The data file to write.
    #[arg(long, short)]
    out: std::path::PathBuf,
}

/// Runs `sitke pgn-positions`.
pub fn pgn_positions(a: &PgnPositionsArgs) {
    let (pgn, out) = (&a.pgn, &a.out);
    let run = || -> std::io::Result<(usize, usize)> {
        let text = std::fs::read_to_string(pgn)?;
        let mut w = std::io::BufWriter::new(std::fs::File::create(out)?);
        let counts = super::from_pgn::convert(&text, &mut w)?;
        w.flush()?;
        Ok(counts)
    };
    match run() {
        Ok((games, positions)) => eprintln!("{games} games, {positions} positions"),
        Err(e) => {
            eprintln!("error: pgn-positions: {e}");
            std::process::exit(1);
        }
    }
}

/// Runs `sitke datagen`.
pub fn main(a: DatagenArgs) {
    use super as datagen;
    if let Some(DatagenCommand::Convert { from, out }) = a.command {
        let start = Instant::now();
        match datagen::convert::text_to_binary(&from, &out) {
            Ok(c) => {
                if c.unfinished > 0 {
                    eprintln!("datagen convert: left out an unfinished last line ({} bytes)", c.unfinished);
                }
                eprintln!(
                    "datagen convert: {} positions from {} games written to {} in {}",
                    c.positions,
                    c.games,
                    out.display(),
                    datagen::format_duration(start.elapsed())
                );
            }
            Err(e) => {
                eprintln!("error: datagen convert: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    let out = a.out.expect("clap requires --out without a subcommand");
    // A file named .txt is meant to be read as text (by scripts/fsf_label.py, say).
    let text = a.text || out.extension().is_some_and(|e| e == "txt");
    let network = crate::eval::nnue::chosen(a.classical, a.eval_file.as_deref()).unwrap_or_else(|e| {
        eprintln!("error: datagen: {e}");
        std::process::exit(2);
    });
    match &network {
        Some(net) => eprintln!("datagen: playing with net {}", net.name()),
        None => eprintln!("datagen: playing with the classical evaluation"),
    }
    let cfg = DatagenConfig {
        network,
        out,
        format: if text { Format::Text } else { Format::Binary },
        positions: a.positions,
        threads: a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        hash_mb: a.hash,
        seed: a.seed,
        game: game::GameSettings {
            nodes: a.nodes,
            random_min: a.random_min,
            random_max: a.random_max,
            adjudication: game::Adjudication {
                win_score: a.win_score,
                win_plies: a.win_plies,
                draw_score: a.draw_score,
                draw_plies: a.draw_plies,
                draw_after: a.draw_after,
                max_plies: a.max_plies,
            },
        },
        report_every: std::time::Duration::from_secs(a.report.max(1)),
    };
    match datagen::run(&cfg, &mut std::io::stderr()) {
        Ok(s) => eprintln!(
            "datagen: done: {} positions from {} games in {} ({:.0} positions/s)",
            s.positions,
            s.games,
            datagen::format_duration(s.elapsed),
            s.positions_per_second()
        ),
        Err(e) => {
            eprintln!("error: datagen: {}: {e}", cfg.out.display());
            std::process::exit(1);
        }
    }
}
