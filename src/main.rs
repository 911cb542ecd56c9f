//! The `sitke` binary: with no subcommand, the protocol loop on stdin/stdout.

use clap::{Parser, Subcommand};
use sitke::board::Position;
use sitke::board::perft;
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
        #[arg(default_value_t = sitke::search::bench::DEFAULT_DEPTH)]
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
    Datagen(DatagenArgs),
    /// Write the quiet positions after the setup of a PGN file's games as datagen data
    /// (score 0), for the teacher to label.
    PgnPositions {
        /// The PGN file to read.
        pgn: std::path::PathBuf,
        /// The data file to write.
        #[arg(long, short)]
        out: std::path::PathBuf,
    },
    /// Fit the evaluation weights to datagen data (Texel tuning) and write them into weights.rs.
    Tune(TuneArgs),
    /// Train an NNUE on datagen data (resumable: --resume DIR/checkpoint.ckpt).
    Train(sitke::tools::train::cli::TrainArgs),
    /// Tune the search constants by SPSA with engine games (resumable: rerun to continue).
    Spsa(sitke::tools::spsa::cli::SpsaArgs),
    /// Play an engine-vs-engine match; the arguments follow cutechess-cli, e.g.
    /// `-engine cmd=./sitke nodes=20000 -engine cmd=/usr/games/fairy-stockfish nodes=20000
    /// -games 2 -rounds 10 -repeat -openings random plies=8 -pgnout games.pgn`.
    #[command(disable_help_flag = true)]
    Match {
        /// cutechess-cli style arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Endgame tablebases: generate them, or probe a position.
    Tb {
        #[command(subcommand)]
        command: TbCommand,
    },
}

/// `sitke tb` subcommands.
#[derive(Subcommand)]
enum TbCommand {
    /// Generate the tables of every ending of up to MEN men into DIR (resumable: valid
    /// files already there are kept).
    Generate {
        /// The most men (kings included), 3 or 4.
        #[arg(long, default_value_t = 4)]
        men: usize,
        /// The folder to write the tables to.
        #[arg(long)]
        dir: std::path::PathBuf,
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
        /// The position (FEN; the fields may be given as separate arguments).
        #[arg(required = true, num_args = 1..)]
        fen: Vec<String>,
    },
}

/// Options of `sitke tune`.
#[derive(clap::Args)]
struct TuneArgs {
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

/// Options of `sitke datagen`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct DatagenArgs {
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
#[derive(Subcommand)]
enum DatagenCommand {
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

fn main() {
    let cli = Cli::parse();
    // `sitke match -debug` logs the engine traffic, as cutechess-cli's -debug shows it.
    let debug = matches!(&cli.command, Some(Command::Match { args }) if args.iter().any(|a| a == "-debug"));
    let filter = match &cli.command {
        _ if debug => "warn,engine=debug",
        // SPSA's engines are told constants that `uci` does not list; the match runner's
        // warning about each of them, every iteration, would bury the output.
        Some(Command::Spsa(_)) => "warn,sitke::tools::r#match::engine=error",
        _ => "warn",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(filter))
        .target(env_logger::Target::Stderr)
        .init();
    match cli.command {
        None => sitke::protocol::run(),
        Some(Command::Match { args }) if sitke::tools::r#match::cli::wants_help(&args) => {
            print!("{}", sitke::tools::r#match::cli::HELP)
        }
        Some(Command::Match { args }) => {
            if let Err(e) = sitke::tools::r#match::run(&args) {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
        Some(Command::Bench { depth, threads, hash, classical, eval_file }) => {
            // The same lines as the protocol's `bench` command, from the same function, with
            // the evaluation the engine uses by default unless told otherwise.
            let net = network_for("bench", classical, eval_file.as_deref());
            if let Some(net) = net.as_ref().filter(|_| eval_file.is_some()) {
                eprintln!("bench: evaluating with net {} (not the built-in one)", net.name());
            }
            let r = sitke::search::bench::run(depth, threads, hash, net);
            let _ = std::io::stdout().lock().write_all(sitke::protocol::output::bench_report(&r).as_bytes());
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
        Some(Command::Datagen(a)) => datagen(a),
        Some(Command::Tb { command }) => tb(command),
        Some(Command::Tune(a)) => tune(a),
        Some(Command::Train(a)) => {
            if let Err(e) = sitke::tools::train::cli::main(&a, &mut std::io::stderr()) {
                eprintln!("error: train: {e}");
                std::process::exit(1);
            }
        }
        Some(Command::PgnPositions { pgn, out }) => pgn_positions(&pgn, &out),
        Some(Command::Spsa(a)) => {
            if let Err(e) = sitke::tools::spsa::cli::main(&a, &mut std::io::stdout()) {
                eprintln!("error: spsa: {e}");
                std::process::exit(1);
            }
        }
    }
}

fn pgn_positions(pgn: &std::path::Path, out: &std::path::Path) {
    let run = || -> std::io::Result<(usize, usize)> {
        let text = std::fs::read_to_string(pgn)?;
        let mut w = std::io::BufWriter::new(std::fs::File::create(out)?);
        let counts = sitke::tools::datagen::from_pgn::convert(&text, &mut w)?;
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

fn datagen(a: DatagenArgs) {
    use sitke::tools::datagen::{self, DatagenConfig, Format, game};
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
    let network = network_for("datagen", a.classical, a.eval_file.as_deref());
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

fn tune(a: TuneArgs) {
    use sitke::tools::tune::{self, TuneConfig, train::TrainOptions};
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

fn tb(command: TbCommand) {
    match command {
        TbCommand::Generate { men, dir, threads, only, force } => {
            if let Some(n) = threads
                && let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(n).build_global()
            {
                eprintln!("error: tb generate: threads: {e}");
                std::process::exit(2);
            }
            let mut endings = Vec::new();
            for name in &only {
                match sitke::tb::Material::parse(name) {
                    Some(m) if m.men() <= men => endings.push(m),
                    _ => {
                        eprintln!("error: tb generate: '{name}' is not an ending of at most {men} men (like KRvKN)");
                        std::process::exit(2);
                    }
                }
            }
            match sitke::tb::driver::build(&dir, men, &endings, force, &|line| eprintln!("{line}")) {
                Ok(r) => eprintln!(
                    "tb generate: {} tables generated ({} positions, {} MiB on disk), {} kept, in {}",
                    r.generated,
                    r.positions,
                    r.bytes / (1 << 20),
                    r.kept,
                    sitke::tb::driver::format_duration(r.elapsed)
                ),
                Err(e) => {
                    eprintln!("error: tb generate: {e}");
                    std::process::exit(1);
                }
            }
        }
        TbCommand::Sample { dir, per_table, result, seed } => {
            let want = match result.as_str() {
                "win" => sitke::tb::Wdl::Win,
                "draw" => sitke::tb::Wdl::Draw,
                "loss" => sitke::tb::Wdl::Loss,
                _ => {
                    eprintln!("error: tb sample: --result is win, draw or loss, not '{result}'");
                    std::process::exit(2);
                }
            };
            let tbs = sitke::tb::Tablebases::new(dir);
            let mut out = std::io::stdout().lock();
            for fen in sitke::tb::driver::sample(&tbs, per_table, want, seed) {
                let _ = writeln!(out, "{fen}");
            }
        }
        TbCommand::Probe { dir, fen } => {
            let fen = fen.join(" ");
            let mut pos = match Position::from_fen(&fen) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: invalid FEN: {e}");
                    std::process::exit(2);
                }
            };
            let tbs = sitke::tb::Tablebases::new(dir);
            match sitke::tb::driver::probe_report(&tbs, &mut pos) {
                Ok(text) => print!("{text}"),
                Err(e) => {
                    eprintln!("error: tb probe: {e}");
                    std::process::exit(1);
                }
            }
        }
    }
}

/// The evaluation a tool's `--classical` and `--eval-file` flags ask for: None for the
/// classical one, else the net in the file or the built-in net. An unreadable file ends the
/// process with status 2, naming `tool`.
fn network_for(
    tool: &str,
    classical: bool,
    eval_file: Option<&std::path::Path>,
) -> Option<std::sync::Arc<sitke::eval::nnue::Network>> {
    if classical {
        return None;
    }
    let Some(path) = eval_file else {
        return Some(sitke::eval::nnue::embedded::network());
    };
    match sitke::eval::nnue::Network::from_file(path) {
        Ok(net) => Some(std::sync::Arc::new(net)),
        Err(e) => {
            eprintln!("error: {tool}: --eval-file {}: {e}", path.display());
            std::process::exit(2);
        }
    }
}
