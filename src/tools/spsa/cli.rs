//! The command line of `sitke spsa` and what it runs.

use super::games::{MatchReferee, MatchSettings};
use super::math::{self, Dim, Gains};
use super::state::{Limit, Settings, State};
use crate::search::params::{self, Param};
use crate::tools::r#match::clock::TimeControl;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `sitke spsa`.
#[derive(clap::Args, Clone, Debug)]
pub struct SpsaArgs {
    /// The state file: written after every iteration; rerunning the command continues it.
    #[arg(long, default_value = "spsa.state")]
    pub state: PathBuf,
    /// Print the values in the state file (table, setoption, match options, params.rs
    /// lines) and exit without playing.
    #[arg(long)]
    pub show: bool,
    /// Constants to tune, comma-separated (default: every tunable one).
    #[arg(long, value_delimiter = ',')]
    pub params: Vec<String>,
    /// Iterations in all (N of the gain sequences).
    #[arg(long, default_value_t = 1000)]
    pub iterations: u64,
    /// Game pairs per iteration (an opening played with both colours).
    #[arg(long, default_value_t = 2)]
    pub pairs: u32,
    /// Time control of every game (cutechess syntax).
    #[arg(long, default_value = "2+0.02", value_parser = parse_tc, conflicts_with = "nodes")]
    pub tc: TimeControl,
    /// A fixed node count per move instead of a clock.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Random plies of each opening (the setup phase has 16), with `--book none`.
    #[arg(long, default_value_t = 8)]
    pub opening_plies: usize,
    /// The book of setups the openings are drawn from, each played with both colours (the
    /// unbalanced book by default, docs/testing.md); `none` for random openings.
    #[arg(long, default_value = "books/unbalanced.epd")]
    pub book: String,
    /// Games at once (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub concurrency: Option<u64>,
    /// Hash per engine, MiB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// Milliseconds an engine may overrun its clock before it forfeits.
    #[arg(long, default_value_t = 100)]
    pub timemargin: u64,
    /// The engine binary (default: this one).
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// Seed of the perturbations and the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Decay exponent of the step size a_k.
    #[arg(long, default_value_t = math::DEFAULT_ALPHA)]
    pub alpha: f64,
    /// Decay exponent of the perturbation c_k.
    #[arg(long, default_value_t = math::DEFAULT_GAMMA)]
    pub gamma: f64,
    /// The stability constant A as a share of the iterations.
    #[arg(long, default_value_t = math::DEFAULT_A_RATIO)]
    pub a_ratio: f64,
    /// The last iteration's perturbation as a share of each constant's range (at least 1).
    #[arg(long, default_value_t = math::DEFAULT_C_END)]
    pub c_end: f64,
    /// The last iteration's learning rate r = a / c^2 (fishtest's r_end).
    #[arg(long, default_value_t = math::DEFAULT_R_END)]
    pub r_end: f64,
    /// Append every game to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Print every game as `sitke match` does, besides the iteration lines.
    #[arg(long)]
    pub show_games: bool,
}

fn parse_tc(s: &str) -> Result<TimeControl, String> {
    match TimeControl::parse(s)? {
        TimeControl::Infinite => Err("an infinite clock sets no limit; use --nodes".to_string()),
        tc => Ok(tc),
    }
}

/// The constants named (case-insensitive), or every tunable one when none is.
pub fn select(names: &[String]) -> Result<Vec<&'static Param>, String> {
    if names.is_empty() {
        return Ok(params::ALL.iter().copied().filter(|p| p.tunable).collect());
    }
    let mut chosen: Vec<&'static Param> = Vec::new();
    for name in names {
        let tunable: Vec<&str> = params::ALL.iter().filter(|p| p.tunable).map(|p| p.name).collect();
        let p = params::find(name)
            .ok_or_else(|| format!("no search constant '{name}'; the tunable ones are {}", tunable.join(", ")))?;
        if !p.tunable {
            return Err(format!("{} is a feature switch, not tunable (test it with an ablation match)", p.name));
        }
        if chosen.iter().any(|c| c.name == p.name) {
            return Err(format!("{} is named twice", p.name));
        }
        chosen.push(p);
    }
    Ok(chosen)
}

impl SpsaArgs {
    /// The run's settings, its start values (this build's defaults) and how it plays.
    pub fn resolve(&self) -> Result<(Settings, Vec<f64>, MatchSettings), String> {
        let gains = Gains {
            iterations: self.iterations,
            alpha: self.alpha,
            gamma: self.gamma,
            a_ratio: self.a_ratio,
            c_end: self.c_end,
            r_end: self.r_end,
        };
        gains.validate()?;
        if self.pairs == 0 {
            return Err("--pairs must be at least 1".to_string());
        }
        let chosen = select(&self.params)?;
        let dims: Vec<Dim> = chosen.iter().map(|p| Dim::new(p.name, p.min, p.max, gains.c_end)).collect();
        let start = chosen.iter().map(|p| p.default as f64).collect();
        let limit = match self.nodes {
            Some(n) => Limit::Nodes(n),
            None => Limit::Clock(self.tc),
        };
        let book = match self.book.as_str() {
            "none" => None,
            path if std::path::Path::new(path).is_file() => Some(PathBuf::from(path)),
            path => return Err(format!("--book {path}: no such file (give a book's path, or none)")),
        };
        let settings = Settings {
            seed: self.seed,
            gains,
            pairs: self.pairs,
            limit,
            opening_plies: self.opening_plies,
            book: book.clone(),
            dims,
        };
        let engine = match &self.engine {
            Some(path) => path.clone(),
            None => std::env::current_exe().map_err(|e| format!("cannot find this program's path: {e}"))?,
        };
        let concurrency = match self.concurrency {
            Some(n) => n as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let games = MatchSettings {
            engine,
            limit,
            pairs: self.pairs,
            opening_plies: self.opening_plies,
            book,
            concurrency,
            hash_mb: self.hash,
            timemargin: Duration::from_millis(self.timemargin),
            pgn: self.pgn.clone(),
            show_games: self.show_games,
        };
        Ok((settings, start, games))
    }
}

/// Runs `sitke spsa`: starts or continues the run in the state file, or shows it.
pub fn main(args: &SpsaArgs, out: &mut dyn Write) -> Result<(), String> {
    let io = |e: std::io::Error| format!("output: {e}");
    let path = &args.state;
    if args.show {
        let state = State::load(path)?.ok_or_else(|| format!("{}: no such state file", path.display()))?;
        return super::report::summary(out, &state).map_err(io);
    }
    let (settings, start, games) = args.resolve()?;
    let mut state = match State::load(path)? {
        Some(saved) => {
            if let Some(why) = settings.mismatch(&saved.settings) {
                return Err(format!(
                    "{}: {why}; rerun with the saved settings, or give another --state to start a new run",
                    path.display()
                ));
            }
            writeln!(out, "spsa: continuing {} after iteration {}", path.display(), saved.done).map_err(io)?;
            saved
        }
        None => {
            let fresh = State::new(settings, start);
            fresh.save(path)?;
            writeln!(out, "spsa: starting {}", path.display()).map_err(io)?;
            fresh
        }
    };
    let s = &state.settings;
    writeln!(
        out,
        "spsa: {} constants, {} iterations of {} games ({}, {}, {} at once), engine {}",
        s.dims.len(),
        s.gains.iterations,
        2 * s.pairs,
        s.limit,
        match &s.book {
            Some(book) => format!("setups of {}", book.display()),
            None => format!("{} random opening plies", s.opening_plies),
        },
        games.concurrency,
        games.engine.display()
    )
    .map_err(io)?;
    let mut referee = MatchReferee { settings: games };
    super::run(&mut state, Some(path), &mut referee, out)?;
    super::report::summary(out, &state).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cmd {
        #[command(flatten)]
        args: SpsaArgs,
    }

    fn parse(line: &str) -> Result<SpsaArgs, String> {
        Cmd::try_parse_from(std::iter::once("spsa").chain(line.split_whitespace()))
            .map(|c| c.args)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_tune_every_tunable_constant_at_a_short_clock() {
        let a = parse("--engine target/release/sitke").unwrap();
        let (s, start, games) = a.resolve().unwrap();
        let tunable: Vec<&str> = params::ALL.iter().filter(|p| p.tunable).map(|p| p.name).collect();
        assert_eq!(s.dims.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), tunable);
        assert!(!tunable.iter().any(|n| n.starts_with("USE_")));
        assert_eq!(start, params::ALL.iter().filter(|p| p.tunable).map(|p| p.default as f64).collect::<Vec<_>>());
        assert_eq!(s.gains, Gains::default());
        assert_eq!((s.seed, s.pairs, s.opening_plies), (1, 2, 8));
        assert_eq!(s.book, Some(PathBuf::from("books/unbalanced.epd")), "the unbalanced book by default");
        assert_eq!(games.book, s.book);
        assert_eq!(s.limit, Limit::Clock(TimeControl::parse("2+0.02").unwrap()));
        assert_eq!(games.engine, PathBuf::from("target/release/sitke"));
        assert_eq!((games.hash_mb, games.timemargin), (8, Duration::from_millis(100)));
        assert_eq!(a.state, PathBuf::from("spsa.state"));
    }

    #[test]
    fn reads_every_option() {
        let a = parse(
            "--state x.spsa --params lmr_base,LMR_DIV --iterations 50 --pairs 3 --nodes 4000 \
             --opening-plies 12 --book none --concurrency 1 --hash 4 --timemargin 30 --seed 9 --alpha 0.7 \
             --gamma 0.2 --a-ratio 0 --c-end 0.1 --r-end 0.01 --pgn g.pgn --show-games",
        )
        .unwrap();
        let (s, start, games) = a.resolve().unwrap();
        assert_eq!(s.dims, vec![Dim::new("LMR_BASE", 0, 200, 0.1), Dim::new("LMR_DIV", 100, 400, 0.1)]);
        assert_eq!(start, vec![params::LMR_BASE.default as f64, params::LMR_DIV.default as f64]);
        let g = Gains { iterations: 50, alpha: 0.7, gamma: 0.2, a_ratio: 0.0, c_end: 0.1, r_end: 0.01 };
        assert_eq!((s.gains, s.pairs, s.seed, s.opening_plies, &s.book), (g, 3, 9, 12, &None));
        let missing = parse("--book /sitke/no/such.epd").unwrap().resolve().unwrap_err();
        assert!(missing.contains("--book /sitke/no/such.epd"), "{missing}");
        assert_eq!((s.limit, games.limit), (Limit::Nodes(4000), Limit::Nodes(4000)));
        assert_eq!((games.concurrency, games.hash_mb, games.pairs), (1, 4, 3));
        assert_eq!(games.timemargin, Duration::from_millis(30));
        assert_eq!((games.pgn, games.show_games), (Some(PathBuf::from("g.pgn")), true));
        assert_eq!(a.state, PathBuf::from("x.spsa"));
        assert!(parse("--show").unwrap().show);
    }

    #[test]
    fn refuses_bad_arguments_by_name() {
        for (line, needle) in [
            ("--params NOPE", "no search constant 'NOPE'"),
            ("--params USE_LMR", "feature switch"),
            ("--params LMR_BASE,lmr_base", "named twice"),
            ("--iterations 0", "at least 1"),
            ("--pairs 0", "--pairs"),
            ("--r-end=-1", "r-end"),
            ("--a-ratio=-0.1", "a-ratio"),
            ("--tc fast", "invalid time control"),
            ("--tc inf", "--nodes"),
            ("--tc 1+0.01 --nodes 100", "cannot be used with"),
            ("--nodes 0", "--nodes"),
            ("--concurrency 0", "--concurrency"),
        ] {
            match parse(line).and_then(|a| a.resolve().map(|_| ())) {
                Ok(()) => panic!("'{line}' must be refused"),
                Err(e) => assert!(e.contains(needle), "'{line}': '{e}' lacks '{needle}'"),
            }
        }
    }
}
