//! Plays an iteration's games: a small match of the plus engine against the minus engine
//! through `sitke match`'s runner, each a process of the same binary told its constants
//! with `setoption` (the engine accepts every search constant by name).

use super::math::{Dim, Perturbation};
use super::state::Limit;
use crate::tools::r#match::cli::{EngineConfig, MatchConfig, OpeningFormat, OpeningSource};
use crate::tools::r#match::stats::Wdl;
use std::path::PathBuf;
use std::time::Duration;

/// Plays plus against minus; the real one plays engine games, tests use synthetic ones.
pub trait Referee {
    /// Plays iteration `p.k`'s games and returns the plus engine's results. `seed` picks
    /// the openings, so a replayed iteration plays the same ones.
    fn play(&mut self, dims: &[Dim], p: &Perturbation, seed: u64) -> Result<Wdl, String>;
}

/// How the iteration matches are played, beyond what [`super::state::Settings`] fixes.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSettings {
    /// The engine binary both sides run.
    pub engine: PathBuf,
    /// The thinking limit per move.
    pub limit: Limit,
    /// Game pairs per iteration.
    pub pairs: u32,
    /// Random plies of each opening, when there is no book.
    pub opening_plies: usize,
    /// The book of setups the openings are drawn from, if any.
    pub book: Option<PathBuf>,
    /// Games at once.
    pub concurrency: usize,
    /// Hash per engine, MiB.
    pub hash_mb: usize,
    /// How far past its clock an engine may answer before it forfeits.
    pub timemargin: Duration,
    /// A PGN file to append every game to.
    pub pgn: Option<PathBuf>,
    /// Print the match runner's lines (every game) instead of nothing.
    pub show_games: bool,
}

/// The engine-game referee.
pub struct MatchReferee {
    /// How the games are played.
    pub settings: MatchSettings,
}

impl MatchReferee {
    /// The match of one iteration: `pairs` openings, each played with both colours.
    pub fn config(&self, dims: &[Dim], p: &Perturbation, seed: u64) -> MatchConfig {
        let s = &self.settings;
        let engine = |name: &str, values: &[i32]| {
            let mut options =
                vec![("Threads".to_string(), "1".to_string()), ("Hash".to_string(), s.hash_mb.to_string())];
            options.extend(dims.iter().zip(values).map(|(d, v)| (d.name.clone(), v.to_string())));
            let (tc, nodes) = match s.limit {
                Limit::Clock(tc) => (Some(tc), None),
                Limit::Nodes(n) => (None, Some(n)),
            };
            EngineConfig {
                name: name.to_string(),
                cmd: s.engine.to_string_lossy().into_owned(),
                args: Vec::new(),
                dir: None,
                options,
                tc,
                movetime: None,
                nodes,
                depth: None,
                timemargin: s.timemargin,
                restart: false,
                stderr: None,
            }
        };
        MatchConfig {
            engines: vec![engine("plus", &p.plus), engine("minus", &p.minus)],
            games: 2,
            rounds: s.pairs,
            repeat: true,
            concurrency: s.concurrency,
            openings: match &s.book {
                // Shuffled by the iteration's seed: each iteration draws its own setups.
                Some(path) => OpeningSource::File {
                    path: path.clone(),
                    format: OpeningFormat::Epd,
                    random_order: true,
                    plies: None,
                    start: 1,
                },
                None => OpeningSource::Random { plies: s.opening_plies },
            },
            pgnout: s.pgn.clone().map(|p| (p, false)),
            sprt: None,
            resign: None,
            draw: None,
            maxmoves: None,
            srand: Some(seed),
            // SPSA resumes by its own state file; its PGN gathers every iteration.
            resume: false,
            ledger: None,
            setup: String::new(),
            rating_interval: 0,
            event: format!("sitke spsa iteration {}", p.k),
            site: "?".to_string(),
            debug: false,
            wait: Duration::ZERO,
            variant: crate::tools::r#match::cli::VARIANT.to_string(),
            rules: &crate::board::Rules::FAIRY_STOCKFISH,
        }
    }
}

impl Referee for MatchReferee {
    fn play(&mut self, dims: &[Dim], p: &Perturbation, seed: u64) -> Result<Wdl, String> {
        let cfg = self.config(dims, p, seed);
        let summary = if self.settings.show_games {
            crate::tools::r#match::play(&cfg, &mut std::io::stdout())
        } else {
            crate::tools::r#match::play(&cfg, &mut std::io::sink())
        }?;
        Ok(summary.wdl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_match_pits_plus_against_minus_on_shared_openings() {
        let referee = MatchReferee {
            settings: MatchSettings {
                engine: "target/release/sitke".into(),
                limit: "nodes=3000".parse().unwrap(),
                pairs: 3,
                opening_plies: 10,
                book: None,
                concurrency: 2,
                hash_mb: 4,
                timemargin: Duration::from_millis(100),
                pgn: None,
                show_games: false,
            },
        };
        let dims = vec![Dim::new("LMR_BASE", 0, 200, 0.05), Dim::new("SE_MARGIN", 1, 6, 0.05)];
        let p = Perturbation { k: 4, delta: vec![1, -1], c: vec![12.0, 1.2], plus: vec![92, 2], minus: vec![68, 4] };
        let cfg = referee.config(&dims, &p, 99);
        assert_eq!((cfg.total_games(), cfg.repeat, cfg.srand), (6, true, Some(99)));
        assert_eq!(cfg.openings, OpeningSource::Random { plies: 10 });
        let [plus, minus] = [&cfg.engines[0], &cfg.engines[1]];
        assert_eq!((plus.name.as_str(), minus.name.as_str()), ("plus", "minus"));
        assert_eq!((plus.nodes, plus.tc), (Some(3000), None));
        let opt = |e: &EngineConfig, n: &str| e.options.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        assert_eq!((opt(plus, "LMR_BASE"), opt(plus, "SE_MARGIN")), (Some("92".into()), Some("2".into())));
        assert_eq!((opt(minus, "LMR_BASE"), opt(minus, "SE_MARGIN")), (Some("68".into()), Some("4".into())));
        assert_eq!(opt(minus, "Hash"), Some("4".into()));
        // The same command line through `sitke match`'s own parser gives the same engines,
        // so what SPSA plays is what a user can replay by hand.
        let by_hand = crate::tools::r#match::cli::parse(
            &"-engine cmd=target/release/sitke name=plus option.Threads=1 option.Hash=4 \
              option.LMR_BASE=92 option.SE_MARGIN=2 -engine cmd=target/release/sitke name=minus \
              option.Threads=1 option.Hash=4 option.LMR_BASE=68 option.SE_MARGIN=4 \
              -each nodes=3000 timemargin=100 -games 2 -rounds 3 -repeat \
              -concurrency 2 -openings random plies=10 -srand 99 -ratinginterval 0 \
              -event sitke spsa iteration 4"
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        )
        .unwrap();
        // The setup only matters to a ledger, which SPSA does not keep.
        assert_eq!(MatchConfig { setup: String::new(), ..by_hand }, cfg);
    }
}
