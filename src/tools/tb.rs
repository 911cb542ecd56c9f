//! The command line of `sitke tb`: generate endgame tables, sample their positions, probe
//! a position. The tables themselves are the engine's (`crate::tb`).

use crate::board::{Position, Rules};

/// The rule set a `--rules` value names (`fairy`, `club`, ...); exits on a name no rule set has.
fn rules_arg(command: &str, name: &str) -> &'static Rules {
    Rules::by_name(name).unwrap_or_else(|| {
        let names: Vec<&str> = Rules::ALL.iter().map(|r| r.short_name()).collect();
        eprintln!("error: tb {command}: --rules is one of {}, not '{name}'", names.join(", "));
        std::process::exit(2);
    })
}
use std::io::Write;

/// `sitke tb` subcommands.
#[derive(clap::Subcommand)]
pub enum TbCommand {
    /// Generate the tables of every ending of up to MEN men into DIR (resumable: valid
    /// files already there are kept).
    Generate {
        /// The most men (kings included), 3 or 4.
        #[arg(long, default_value_t = 4)]
        men: usize,
        /// The folder to write the tables to.
        #[arg(long)]
        dir: std::path::PathBuf,
        /// The rule set (fairy, club; federation and pritchard have no tables, docs/tablebases.md):
        /// its tables live in DIR itself for fairy, in DIR/NAME for another.
        #[arg(long, default_value = "fairy")]
        rules: String,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Only these endings, e.g. `--only KRvK,KNFvK` (their smaller endings must exist).
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
        /// Regenerate tables whose files exist.
        #[arg(long)]
        force: bool,
    },
    /// Print positions from every table present whose value for the side to move is RESULT
    /// (clocks as a game would have them), one FEN a line: openings for `sitke match`.
    Sample {
        /// The folder holding the tables.
        #[arg(long)]
        dir: std::path::PathBuf,
        /// The rule set (fairy, club; federation and pritchard have no tables, docs/tablebases.md):
        /// its tables live in DIR itself for fairy, in DIR/NAME for another.
        #[arg(long, default_value = "fairy")]
        rules: String,
        /// Positions per ending.
        #[arg(long, default_value_t = 10)]
        per_table: usize,
        /// win, draw or loss (for the side to move).
        #[arg(long, default_value = "win")]
        result: String,
        /// Seed of the random choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Print the tables' value of a position, its distance and the best moves.
    Probe {
        /// The folder holding the tables.
        #[arg(long)]
        dir: std::path::PathBuf,
        /// The rule set (fairy, club; federation and pritchard have no tables, docs/tablebases.md):
        /// its tables live in DIR itself for fairy, in DIR/NAME for another.
        #[arg(long, default_value = "fairy")]
        rules: String,
        /// The position (FEN; the fields may be given as separate arguments).
        #[arg(required = true, num_args = 1..)]
        fen: Vec<String>,
    },
}

/// Runs `sitke tb`.
pub fn main(command: TbCommand) {
    match command {
        TbCommand::Generate { men, dir, rules, threads, only, force } => {
            let rules = rules_arg("generate", &rules);
            if let Some(n) = threads
                && let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(n).build_global()
            {
                eprintln!("error: tb generate: threads: {e}");
                std::process::exit(2);
            }
            let mut endings = Vec::new();
            for name in &only {
                match crate::tb::Material::parse(name) {
                    Some(m) if m.men() <= men => endings.push(m),
                    _ => {
                        eprintln!("error: tb generate: '{name}' is not an ending of at most {men} men (like KRvKN)");
                        std::process::exit(2);
                    }
                }
            }
            match crate::tb::driver::build(&dir, rules, men, &endings, force, &|line| eprintln!("{line}")) {
                Ok(r) => eprintln!(
                    "tb generate: {} tables generated ({} positions, {} MiB on disk), {} kept, in {}",
                    r.generated,
                    r.positions,
                    r.bytes / (1 << 20),
                    r.kept,
                    crate::tb::driver::format_duration(r.elapsed)
                ),
                Err(e) => {
                    eprintln!("error: tb generate: {e}");
                    std::process::exit(1);
                }
            }
        }
        TbCommand::Sample { dir, rules, per_table, result, seed } => {
            let rules = rules_arg("sample", &rules);
            let want = match result.as_str() {
                "win" => crate::tb::Wdl::Win,
                "draw" => crate::tb::Wdl::Draw,
                "loss" => crate::tb::Wdl::Loss,
                _ => {
                    eprintln!("error: tb sample: --result is win, draw or loss, not '{result}'");
                    std::process::exit(2);
                }
            };
            let tbs = crate::tb::Tablebases::new(dir, rules);
            let mut out = std::io::stdout().lock();
            for fen in crate::tb::driver::sample(&tbs, per_table, want, seed) {
                let _ = writeln!(out, "{fen}");
            }
        }
        TbCommand::Probe { dir, rules, fen } => {
            let rules = rules_arg("probe", &rules);
            let fen = fen.join(" ");
            let mut pos = match Position::from_fen_with(&fen, rules) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: invalid FEN: {e}");
                    std::process::exit(2);
                }
            };
            let tbs = crate::tb::Tablebases::new(dir, rules);
            match crate::tb::driver::probe_report(&tbs, &mut pos) {
                Ok(text) => print!("{text}"),
                Err(e) => {
                    eprintln!("error: tb probe: {e}");
                    std::process::exit(1);
                }
            }
        }
    }
}
