//! The `sitke` command line: with no subcommand the protocol loop; `bench` and `perft`,
//! which belong to the engine; and, with the feature `tools` (on by default), each tool's
//! subcommand, whose options the tool itself defines.

use crate::board::{Position, perft};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::time::Instant;

/// The command line.
#[derive(Parser)]
#[command(name = "sitke", version, about = "Sitke, a Sittuyin (Burmese chess) engine")]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// What to run.
#[derive(Subcommand)]
enum Command {
    /// Search the built-in bench positions; the node count is the engine's signature.
    Bench {
        /// Depth to search each position to.
        #[arg(default_value_t = crate::search::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Threads (the signature is defined at 1).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Evaluate classically instead of with the built-in net (the engine's `Use NNUE`
        /// off).
        #[arg(long)]
        classical: bool,
        /// Evaluate with the net in this file instead of the built-in one (the engine's
        /// `EvalFile`), to compare nets' speed side by side; the count is then not the
        /// signature.
        #[arg(long, conflicts_with = "classical")]
        eval_file: Option<std::path::PathBuf>,
    },
    /// Count the leaves of the legal move tree.
    Perft {
        /// Depth in plies.
        #[arg(long, short)]
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Threads to share the root moves over.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Play self-play games and write training positions (resumable: rerun to continue).
    #[cfg(feature = "tools")]
    Datagen(crate::tools::datagen::cli::DatagenArgs),
    /// Write the quiet positions after the setup of a PGN file's games as datagen data
    /// (score 0), for the teacher to label.
    #[cfg(feature = "tools")]
    PgnPositions(crate::tools::datagen::cli::PgnPositionsArgs),
    /// Fit the evaluation weights to datagen data (Texel tuning) and write them into weights.rs.
    #[cfg(feature = "tools")]
    Tune(crate::tools::tune::cli::TuneArgs),
    /// Train an NNUE on datagen data (resumable: --resume DIR/checkpoint.ckpt).
    #[cfg(feature = "tools")]
    Train(crate::tools::train::cli::TrainArgs),
    /// Tune the search constants by SPSA with engine games (resumable: rerun to continue).
    #[cfg(feature = "tools")]
    Spsa(crate::tools::spsa::cli::SpsaArgs),
    /// Play an engine-vs-engine match; the arguments follow cutechess-cli, e.g.
    /// `-engine cmd=./sitke nodes=20000 -engine cmd=/usr/games/fairy-stockfish nodes=20000
    /// -games 2 -rounds 10 -repeat -openings random plies=8 -pgnout games.pgn`.
    #[cfg(feature = "tools")]
    #[command(disable_help_flag = true)]
    Match(crate::tools::r#match::cli::MatchArgs),
    /// Endgame tablebases: generate them, or probe a position.
    #[cfg(feature = "tools")]
    Tb {
        #[command(subcommand)]
        command: crate::tools::tb::TbCommand,
    },
}

impl Cli {
    /// The log filter when `RUST_LOG` sets none: warnings, and what the command asks for.
    pub fn log_filter(&self) -> &'static str {
        match &self.command {
            // `sitke match -debug` logs the engine traffic, as cutechess-cli's -debug shows it.
            #[cfg(feature = "tools")]
            Some(Command::Match(m)) if m.args.iter().any(|a| a == "-debug") => "warn,engine=debug",
            // SPSA's engines are told constants that `uci` does not list; the match runner's
            // warning about each of them, every iteration, would bury the output.
            #[cfg(feature = "tools")]
            Some(Command::Spsa(_)) => "warn,sitke::tools::r#match::engine=error",
            _ => "warn",
        }
    }

    /// Runs the command; a failure prints `error: ...` and ends the process with a status
    /// that is not 0.
    pub fn run(self) {
        match self.command {
            None => crate::protocol::run(),
            Some(Command::Bench { depth, threads, hash, classical, eval_file }) => {
                // The same lines as the protocol's `bench` command, from the same function, with
                // the evaluation the engine uses by default unless told otherwise.
                let net = crate::eval::nnue::chosen(classical, eval_file.as_deref()).unwrap_or_else(|e| {
                    eprintln!("error: bench: {e}");
                    std::process::exit(2);
                });
                if let Some(net) = net.as_ref().filter(|_| eval_file.is_some()) {
                    eprintln!("bench: evaluating with net {} (not the built-in one)", net.name());
                }
                let r = crate::search::bench::run(depth, threads, hash, net);
                let _ = std::io::stdout().lock().write_all(crate::protocol::output::bench_report(&r).as_bytes());
            }
            Some(Command::Perft { depth, fen, divide, threads }) => {
                let pos = match fen.as_deref().map(Position::from_fen).unwrap_or_else(|| Ok(Position::startpos())) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!("error: invalid FEN: {e}");
                        std::process::exit(2);
                    }
                };
                let start = Instant::now();
                // A closed stdout (say, piped into `head`) is not an error worth a panic.
                let mut out = std::io::stdout().lock();
                let total = if divide {
                    let results = perft::divide_parallel(&pos, depth, threads);
                    for (m, n) in &results {
                        let _ = writeln!(out, "{m}: {n}");
                    }
                    let _ = writeln!(out);
                    results.iter().map(|(_, n)| n).sum()
                } else {
                    perft::perft_threads(&pos, depth, threads)
                };
                let secs = start.elapsed().as_secs_f64();
                let _ = writeln!(out, "Nodes searched: {total}");
                let _ = writeln!(out, "Time: {:.3} s, {:.1} Mnps", secs, total as f64 / secs.max(1e-9) / 1e6);
            }
            #[cfg(feature = "tools")]
            Some(Command::Datagen(a)) => crate::tools::datagen::cli::main(a),
            #[cfg(feature = "tools")]
            Some(Command::PgnPositions(a)) => crate::tools::datagen::cli::pgn_positions(&a),
            #[cfg(feature = "tools")]
            Some(Command::Tune(a)) => crate::tools::tune::cli::main(a),
            #[cfg(feature = "tools")]
            Some(Command::Train(a)) => {
                if let Err(e) = crate::tools::train::cli::main(&a, &mut std::io::stderr()) {
                    eprintln!("error: train: {e}");
                    std::process::exit(1);
                }
            }
            #[cfg(feature = "tools")]
            Some(Command::Spsa(a)) => {
                if let Err(e) = crate::tools::spsa::cli::main(&a, &mut std::io::stdout()) {
                    eprintln!("error: spsa: {e}");
                    std::process::exit(1);
                }
            }
            #[cfg(feature = "tools")]
            Some(Command::Match(a)) => crate::tools::r#match::cli::main(&a),
            #[cfg(feature = "tools")]
            Some(Command::Tb { command }) => crate::tools::tb::main(command),
        }
    }
}
