//! The state of an SPSA run and its file, rewritten after every iteration so that an
//! interrupted run loses at most the iteration in progress.
//!
//! The file is text, one `key value...` a line, `#` for comments:
//!
//! ```text
//! version 1
//! seed 1
//! iterations 1000
//! alpha 0.602
//! gamma 0.101
//! a-ratio 0.1
//! c-end 0.05
//! r-end 0.002
//! pairs 2
//! limit tc=2+0.02
//! opening-plies 8
//! done 17
//! results 30 25 13
//! param LMR_BASE 0 200 10 80 81.23456789
//! ```
//!
//! `param NAME MIN MAX C_END START VALUE`. Everything above `done` (and the params' names,
//! ranges and perturbations) is the run's [`Settings`]: a rerun must give the same, since
//! they decide every later iteration. Reals are written in Rust's shortest round-trip
//! form, so a resumed run continues bit for bit where it stopped, and the perturbations
//! come from the seed and the iteration number alone (`math::iteration_rng`).

use super::math::{Dim, Gains};
use crate::tools::r#match::clock::TimeControl;
use crate::tools::r#match::stats::Wdl;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// The version of the file format.
const VERSION: u32 = 1;

/// How long each engine may think per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// A game clock (`tc=2+0.02`).
    Clock(TimeControl),
    /// A fixed node count per move (`nodes=20000`).
    Nodes(u64),
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Clock(tc) => write!(f, "tc={tc}"),
            Limit::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

impl FromStr for Limit {
    type Err = String;

    /// Reads what `Display` writes.
    fn from_str(s: &str) -> Result<Limit, String> {
        match s.split_once('=') {
            Some(("tc", tc)) => match TimeControl::parse(tc)? {
                TimeControl::Infinite => Err("tc=inf sets no limit".to_string()),
                tc => Ok(Limit::Clock(tc)),
            },
            Some(("nodes", n)) => match n.parse::<u64>() {
                Ok(n) if n > 0 => Ok(Limit::Nodes(n)),
                _ => Err(format!("nodes={n}: expected a positive number")),
            },
            _ => Err(format!("'{s}': expected tc=TC or nodes=N")),
        }
    }
}

/// Everything that decides the course of a run; a resumed run must be given the same.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Seed of the perturbations and the openings.
    pub seed: u64,
    /// The gain sequences.
    pub gains: Gains,
    /// Game pairs (each opening played with both colours) per iteration.
    pub pairs: u32,
    /// The engines' thinking limit.
    pub limit: Limit,
    /// Random plies of each opening, when there is no book.
    pub opening_plies: usize,
    /// The book the openings are drawn from (each setup played with both colours), or None
    /// for random openings of `opening_plies` plies.
    pub book: Option<std::path::PathBuf>,
    /// The tuned constants.
    pub dims: Vec<Dim>,
}

/// The keys of the file's lines other than `param`.
const KEYS: [&str; 14] = [
    "version",
    "seed",
    "iterations",
    "alpha",
    "gamma",
    "a-ratio",
    "c-end",
    "r-end",
    "pairs",
    "limit",
    "opening-plies",
    "book",
    "done",
    "results",
];

impl Settings {
    /// The settings' lines of the file, the params' excepted.
    fn header(&self) -> Vec<String> {
        let g = &self.gains;
        vec![
            format!("version {VERSION}"),
            format!("seed {}", self.seed),
            format!("iterations {}", g.iterations),
            format!("alpha {}", g.alpha),
            format!("gamma {}", g.gamma),
            format!("a-ratio {}", g.a_ratio),
            format!("c-end {}", g.c_end),
            format!("r-end {}", g.r_end),
            format!("pairs {}", self.pairs),
            format!("limit {}", self.limit),
            format!("opening-plies {}", self.opening_plies),
            format!("book {}", self.book.as_ref().map_or("none".into(), |b| b.display().to_string())),
        ]
    }

    /// Every setting as a line, for comparing two runs' (the params without their values).
    fn lines(&self) -> Vec<String> {
        let mut lines = self.header();
        lines.extend(self.dims.iter().map(|d| format!("param {} {} {} {}", d.name, d.min, d.max, d.c_end)));
        lines
    }

    /// Why a run with these settings cannot continue `saved`: the differing lines.
    pub fn mismatch(&self, saved: &Settings) -> Option<String> {
        if self == saved {
            return None;
        }
        let (ours, theirs) = (self.lines(), saved.lines());
        let only =
            |a: &[String], b: &[String]| -> Vec<String> { a.iter().filter(|l| !b.contains(l)).cloned().collect() };
        Some(format!(
            "the state file holds a run with other settings (saved: {}; now: {})",
            only(&theirs, &ours).join(", "),
            only(&ours, &theirs).join(", ")
        ))
    }
}

/// A run in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// What the run was started with.
    pub settings: Settings,
    /// Iterations completed.
    pub done: u64,
    /// The plus engines' results over every iteration so far.
    pub results: Wdl,
    /// Each constant's value when the run began.
    pub start: Vec<f64>,
    /// Each constant's current real value.
    pub theta: Vec<f64>,
}

impl State {
    /// A run that has not played yet, starting from `start`.
    pub fn new(settings: Settings, start: Vec<f64>) -> State {
        assert_eq!(settings.dims.len(), start.len(), "one start value per constant");
        State { settings, done: 0, results: Wdl::default(), theta: start.clone(), start }
    }

    /// Whether every planned iteration has been played.
    pub fn is_complete(&self) -> bool {
        self.done >= self.settings.gains.iterations
    }

    /// The file's text.
    pub fn render(&self) -> String {
        let mut out =
            String::from("# sitke spsa state: rerun the same command to continue; delete this file to start over.\n");
        for l in self.settings.header() {
            out += &l;
            out.push('\n');
        }
        out += &format!("done {}\n", self.done);
        let r = &self.results;
        out += &format!("results {} {} {}\n", r.wins, r.losses, r.draws);
        out += "# param NAME MIN MAX C_END START VALUE\n";
        for (i, d) in self.settings.dims.iter().enumerate() {
            out += &format!("param {} {} {} {} {} {}\n", d.name, d.min, d.max, d.c_end, self.start[i], self.theta[i]);
        }
        out
    }

    /// Reads the text `render` writes.
    pub fn parse(text: &str) -> Result<State, String> {
        let mut fields: Vec<(usize, &str, Vec<&str>)> = Vec::new();
        let mut params = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or_default();
            let rest: Vec<&str> = words.collect();
            if key == "param" {
                params.push((n + 1, rest));
            } else if fields.iter().any(|(_, k, _)| *k == key) {
                return Err(format!("line {}: '{key}' given twice", n + 1));
            } else {
                fields.push((n + 1, key, rest));
            }
        }
        let f = Fields(fields);
        let version: u32 = f.value("version")?;
        if version != VERSION {
            return Err(format!("version {version} is not {VERSION}, the one this build reads"));
        }
        if let Some((n, key, _)) = f.0.iter().find(|(_, k, _)| !KEYS.contains(k)) {
            return Err(format!("line {n}: unknown key '{key}'"));
        }
        let gains = Gains {
            iterations: f.value("iterations")?,
            alpha: f.value("alpha")?,
            gamma: f.value("gamma")?,
            a_ratio: f.value("a-ratio")?,
            c_end: f.value("c-end")?,
            r_end: f.value("r-end")?,
        };
        gains.validate()?;
        let (dims, start, theta) = parse_params(&params)?;
        let settings = Settings {
            seed: f.value("seed")?,
            gains,
            pairs: f.value("pairs")?,
            limit: f.value("limit")?,
            opening_plies: f.value("opening-plies")?,
            // Files written before books were an option have no line: random openings.
            book: match f.get("book") {
                Err(_) => None,
                Ok((_, ["none"])) => None,
                Ok((_, [path])) => Some(path.into()),
                Ok((n, _)) => return Err(format!("line {n}: book takes one value (a path, or none)")),
            },
            dims,
        };
        let results = match f.get("results")? {
            (n, [w, l, d]) => Wdl {
                wins: parse_at(n, "results", w)?,
                losses: parse_at(n, "results", l)?,
                draws: parse_at(n, "results", d)?,
            },
            (n, _) => return Err(format!("line {n}: results takes wins, losses and draws")),
        };
        let state = State { settings, done: f.value("done")?, results, start, theta };
        if state.done > state.settings.gains.iterations {
            return Err(format!("done {} is beyond the {} iterations", state.done, state.settings.gains.iterations));
        }
        Ok(state)
    }

    /// Reads a state file; None if there is none.
    pub fn load(path: &Path) -> Result<Option<State>, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => State::parse(&text).map(Some).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Writes the state file whole or not at all: a crash mid-write leaves the old one.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = std::path::PathBuf::from(tmp);
        std::fs::write(&tmp, self.render())
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// The file's lines other than `param`: (line number, key, values).
struct Fields<'a>(Vec<(usize, &'a str, Vec<&'a str>)>);

impl Fields<'_> {
    /// The line number and the values of `key`.
    fn get(&self, key: &str) -> Result<(usize, &[&str]), String> {
        let (n, _, rest) = self.0.iter().find(|(_, k, _)| *k == key).ok_or_else(|| format!("'{key}' is missing"))?;
        Ok((*n, rest.as_slice()))
    }

    /// The single value of `key`, parsed.
    fn value<T: FromStr<Err: fmt::Display>>(&self, key: &str) -> Result<T, String> {
        match self.get(key)? {
            (n, [v]) => parse_at(n, key, v),
            (n, _) => Err(format!("line {n}: {key} takes one value")),
        }
    }
}

/// Parses the value `s` of `key` on line `n`.
fn parse_at<T: FromStr<Err: fmt::Display>>(n: usize, key: &str, s: &str) -> Result<T, String> {
    s.parse().map_err(|e| format!("line {n}: {key}: '{s}': {e}"))
}

type Params = (Vec<Dim>, Vec<f64>, Vec<f64>);

fn parse_params(lines: &[(usize, Vec<&str>)]) -> Result<Params, String> {
    let (mut dims, mut start, mut theta) = (Vec::new(), Vec::new(), Vec::new());
    for (n, words) in lines {
        let [name, nums @ ..] = words.as_slice() else {
            return Err(format!("line {n}: param without a name"));
        };
        let v: Vec<f64> = nums
            .iter()
            .map(|s| s.parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("line {n}: param {name}: the values must be numbers"))?;
        let [min, max, c_end, s, t] = v.as_slice() else {
            return Err(format!("line {n}: param {name}: expected MIN MAX C_END START VALUE"));
        };
        if !(min <= t && t <= max) {
            return Err(format!("line {n}: param {name}: {t} lies outside {min}..{max}"));
        }
        if dims.iter().any(|d: &Dim| d.name == *name) {
            return Err(format!("line {n}: param {name} given twice"));
        }
        dims.push(Dim { name: name.to_string(), min: *min, max: *max, c_end: *c_end });
        start.push(*s);
        theta.push(*t);
    }
    if dims.is_empty() {
        return Err("no param lines".to_string());
    }
    Ok((dims, start, theta))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            seed: 7,
            gains: Gains { iterations: 40, ..Gains::default() },
            pairs: 2,
            limit: "tc=2+0.02".parse().unwrap(),
            opening_plies: 8,
            book: None,
            dims: vec![Dim::new("LMR_BASE", 0, 200, 0.05), Dim::new("SE_MARGIN", 1, 6, 0.05)],
        }
    }

    #[test]
    fn round_trips_exactly() {
        let mut s = State::new(settings(), vec![80.0, 3.0]);
        s.done = 17;
        s.results = Wdl { wins: 30, losses: 25, draws: 13 };
        // Values with long expansions must come back bit for bit.
        s.theta = vec![81.0 + 1.0 / 3.0, 1.0 + f64::EPSILON * 4.0];
        let back = State::parse(&s.render()).unwrap();
        assert_eq!(back, s);
        assert!(back.theta.iter().zip(&s.theta).all(|(a, b)| a.to_bits() == b.to_bits()));
        s.settings.book = Some("books/unbalanced.epd".into());
        assert_eq!(State::parse(&s.render()).unwrap(), s, "a book round-trips");
        // A file from before books were an option plays random openings.
        let old: String = s.render().lines().filter(|l| !l.starts_with("book ")).map(|l| format!("{l}\n")).collect();
        assert_eq!(State::parse(&old).unwrap().settings.book, None);
        for limit in ["nodes=20000", "tc=40/60+0.5", "tc=10"] {
            assert_eq!(limit.parse::<Limit>().unwrap().to_string(), limit);
        }
    }

    #[test]
    fn refuses_broken_files_by_line() {
        let good = State::new(settings(), vec![80.0, 3.0]).render();
        for (edit, needle) in [
            (good.replace("pairs 2", "pairs two"), "pairs: 'two'"),
            (good.replace("alpha 0.602", "alpha NaN"), "alpha must be a positive number"),
            (good.replace("version 1", "version 9"), "version 9"),
            (good.replace("done 0", "done 41"), "beyond"),
            (good.replace("done 0\n", ""), "'done' is missing"),
            (good.replace("seed 7", "seed 7\nseed 8"), "twice"),
            (good.replace("limit tc=2+0.02", "limit depth=3"), "limit"),
            (good.replace("opening-plies", "openings"), "unknown key"),
            (good.replace(" 80 80", " 80 999"), "outside"),
            (good.replace(" 80 80", " 80"), "expected MIN MAX"),
            (good.replace(" 3 3\n", " 3 x\n"), "must be numbers"),
        ] {
            match State::parse(&edit) {
                Ok(_) => panic!("accepted:\n{edit}"),
                Err(e) => assert!(e.contains(needle), "'{e}' lacks '{needle}'"),
            }
        }
    }

    #[test]
    fn names_what_differs_on_resume() {
        let saved = settings();
        assert_eq!(saved.mismatch(&saved.clone()), None);
        let mut other = settings();
        other.pairs = 3;
        other.dims.pop();
        let msg = other.mismatch(&saved).unwrap();
        assert!(msg.contains("saved: pairs 2, param SE_MARGIN 1 6 1; now: pairs 3"), "{msg}");
    }

    #[test]
    fn save_replaces_the_file_and_load_reads_it() {
        let dir = std::env::temp_dir().join(format!("sitke-spsa-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.spsa");
        let _ = std::fs::remove_file(&path);
        assert_eq!(State::load(&path).unwrap(), None);
        let mut s = State::new(settings(), vec![80.0, 3.0]);
        s.save(&path).unwrap();
        s.done = 1;
        s.theta[0] = 80.5;
        s.save(&path).unwrap();
        assert_eq!(State::load(&path).unwrap(), Some(s));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
