//! The `sitke` binary: with no subcommand, the protocol loop on stdin/stdout.

use clap::{Parser, Subcommand};
use sitke::board::Position;
use sitke::tools::perft;
use std::io::Write;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "sitke", version, about = "Sitke, a Sittuyin (Burmese chess) engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search the built-in bench positions; the node count is the engine's signature.
    Bench {
        /// Depth to search each position to.
        #[arg(default_value_t = sitke::tools::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Threads (the signature is defined at 1).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
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
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => sitke::protocol::uci::run(),
        Some(Command::Bench { depth, threads, hash }) => {
            // The same lines as the protocol's `bench` command, from the same function.
            let r = sitke::tools::bench::run(depth, threads, hash);
            let _ = std::io::stdout().lock().write_all(sitke::protocol::engine::bench_report(&r).as_bytes());
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
    }
}
