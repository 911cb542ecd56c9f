//! `-ledger FILE`: one match played as several runs, across sessions if need be.
//!
//! A test of many hours can outlast the machine it runs on, and the PGN that `-resume` reads
//! back lives outside version control. A ledger is a small text file, meant to be
//! committed, with one line per finished run: its seed and its results. Each run draws its
//! own openings (its own `-srand`), so the runs are independent samples of the same match,
//! and the statistics and the SPRT of a run with a ledger cover every run in it: a test goes
//! on where the last session left it. The header holds the match's setup (its command line
//! without what may differ from run to run: the seed, the rounds, the files, the engines'
//! paths), and a run of another setup is refused rather than mixed in.
//!
//! ```text
//! # sitke match ledger: one line per finished run; statistics cover every line
//! # setup: -engine name=T2 option.Threads=2 -engine name=T1 ... -repeat -concurrency 1
//! srand=32010000 wins=3 draws=34 losses=3 ptnml=0,3,14,3,0
//! ```

use super::stats::{Pentanomial, Wdl};
use std::io::Write;
use std::path::Path;

/// The first line of every ledger.
const HEADER: &str = "# sitke match ledger: one line per finished run; statistics cover every line";

/// What precedes the setup on the second line.
const SETUP: &str = "# setup: ";

/// One finished run of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The run's `-srand`: it names the run and fixes its openings.
    pub srand: u64,
    /// Its games, from the first engine's point of view.
    pub wdl: Wdl,
    /// Its game pairs (all zero without `-repeat`).
    pub pairs: Pentanomial,
}

impl Run {
    /// The run as a ledger line.
    pub fn line(&self) -> String {
        let [a, b, c, d, e] = self.pairs.0;
        let w = &self.wdl;
        format!("srand={} wins={} draws={} losses={} ptnml={a},{b},{c},{d},{e}", self.srand, w.wins, w.draws, w.losses)
    }

    /// Reads a line written by [`Run::line`].
    fn parse(line: &str) -> Result<Run, String> {
        let mut fields = [None; 4];
        let mut pairs = None;
        for token in line.split_whitespace() {
            let (key, value) = token.split_once('=').ok_or_else(|| format!("'{token}' is not key=value"))?;
            let number = |s: &str| s.parse::<u64>().map_err(|_| format!("{key}: '{s}' is not a count"));
            let slot = match key {
                "srand" => 0,
                "wins" => 1,
                "draws" => 2,
                "losses" => 3,
                "ptnml" => {
                    let counts = value.split(',').map(number).collect::<Result<Vec<_>, _>>()?;
                    let counts: [u64; 5] =
                        counts.try_into().map_err(|_| format!("ptnml needs five counts, got '{value}'"))?;
                    pairs = Some(Pentanomial(counts));
                    continue;
                }
                _ => return Err(format!("unknown field '{key}'")),
            };
            fields[slot] = Some(number(value)?);
        }
        match (fields, pairs) {
            ([Some(srand), Some(wins), Some(draws), Some(losses)], Some(pairs)) => {
                Ok(Run { srand, wdl: Wdl { wins, draws, losses }, pairs })
            }
            _ => Err("a run needs srand, wins, draws, losses and ptnml".to_string()),
        }
    }
}

/// The runs of one match so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    /// The setup every run must share; `None` for a ledger not written yet.
    pub setup: Option<String>,
    /// The finished runs, in the order they finished.
    pub runs: Vec<Run>,
}

impl Ledger {
    /// Reads a ledger's text; an error names the line.
    pub fn parse(text: &str) -> Result<Ledger, String> {
        let mut ledger = Ledger::default();
        for (k, line) in text.lines().enumerate() {
            let line = line.trim();
            if let Some(setup) = line.strip_prefix(SETUP) {
                ledger.setup = Some(setup.to_string());
            } else if !line.is_empty() && !line.starts_with('#') {
                let run = Run::parse(line).map_err(|e| format!("line {}: {e}", k + 1))?;
                if ledger.find(run.srand).is_some() {
                    return Err(format!("line {}: a second run with srand={}", k + 1, run.srand));
                }
                ledger.runs.push(run);
            }
        }
        if ledger.setup.is_none() && !ledger.runs.is_empty() {
            return Err("no '# setup:' line".to_string());
        }
        Ok(ledger)
    }

    /// Reads the ledger at `path` (empty if there is no file yet) and checks that it is
    /// this match's: the same setup.
    pub fn open(path: &Path, setup: &str) -> Result<Ledger, String> {
        let name = path.display();
        let ledger = match std::fs::read_to_string(path) {
            Ok(text) => Ledger::parse(&text).map_err(|e| format!("ledger {name}: {e}"))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ledger::default(),
            Err(e) => return Err(format!("cannot read ledger {name}: {e}")),
        };
        match &ledger.setup {
            Some(theirs) if theirs != setup => Err(format!(
                "ledger {name} holds another match; its setup is\n  {theirs}\nand this run's is\n  {setup}"
            )),
            _ => Ok(ledger),
        }
    }

    /// The run with this seed, if it finished.
    pub fn find(&self, srand: u64) -> Option<&Run> {
        self.runs.iter().find(|r| r.srand == srand)
    }

    /// Every run's games and pairs added up.
    pub fn totals(&self) -> (Wdl, Pentanomial) {
        let mut wdl = Wdl::default();
        let mut pairs = Pentanomial::default();
        for r in &self.runs {
            wdl.merge(&r.wdl);
            pairs.merge(&r.pairs);
        }
        (wdl, pairs)
    }

    /// Appends a finished run to the file at `path`, writing the header first if the file
    /// is new.
    pub fn append(path: &Path, setup: &str, run: &Run) -> Result<(), String> {
        // An empty file (one made by hand, say) gets the header too, and a last line left
        // without its newline (a hand edit) is ended rather than joined to the new run.
        let old = std::fs::read_to_string(path).unwrap_or_default();
        let mut text = String::new();
        if old.trim().is_empty() {
            text.push_str(&format!("{HEADER}\n{SETUP}{setup}\n"));
        } else if !old.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&run.line());
        text.push('\n');
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| format!("cannot write ledger {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(srand: u64, wdl: [u64; 3], pairs: [u64; 5]) -> Run {
        Run { srand, wdl: Wdl { wins: wdl[0], draws: wdl[1], losses: wdl[2] }, pairs: Pentanomial(pairs) }
    }

    #[test]
    fn runs_are_read_back_as_written_and_added_up() {
        let (a, b) = (run(7, [3, 30, 5], [0, 4, 14, 1, 0]), run(8, [6, 12, 2], [0, 1, 5, 3, 1]));
        let text = format!("{HEADER}\n{SETUP}-engine name=A -engine name=B -repeat\n{}\n\n{}\n", a.line(), b.line());
        let ledger = Ledger::parse(&text).unwrap();
        assert_eq!(ledger.setup.as_deref(), Some("-engine name=A -engine name=B -repeat"));
        assert_eq!(ledger.runs, vec![a, b]);
        assert_eq!(ledger.find(8), Some(&b));
        assert_eq!(ledger.find(9), None);
        let (wdl, pairs) = ledger.totals();
        assert_eq!((wdl.wins, wdl.draws, wdl.losses), (9, 42, 7));
        assert_eq!(pairs.0, [0, 5, 19, 4, 1]);
    }

    #[test]
    fn a_damaged_ledger_is_an_error_that_names_the_line() {
        let head = format!("{HEADER}\n{SETUP}x\n");
        for (body, says) in [
            ("srand=1 wins=1 draws=0 losses=0\n", "line 3: a run needs"),
            ("srand=1 wins=1 draws=0 losses=0 ptnml=0,0,1\n", "line 3: ptnml needs five"),
            ("srand=1 wins=one draws=0 losses=0 ptnml=0,0,0,0,0\n", "line 3: wins: 'one'"),
            ("srand=1 wins=1 draws=0 losses=0 ptnml=0,0,0,0,0 colour=red\n", "line 3: unknown field"),
            (
                "srand=1 wins=1 draws=0 losses=0 ptnml=0,0,0,0,0\nsrand=1 wins=1 draws=0 losses=0 ptnml=0,0,0,0,0\n",
                "line 4: a second run",
            ),
        ] {
            let err = Ledger::parse(&format!("{head}{body}")).unwrap_err();
            assert!(err.starts_with(says), "{err}");
        }
        let err = Ledger::parse("srand=1 wins=1 draws=0 losses=0 ptnml=0,0,0,0,0\n").unwrap_err();
        assert!(err.contains("setup"), "{err}");
    }

    #[test]
    fn a_ledger_file_grows_by_a_line_a_run_and_refuses_another_setup() {
        let path = std::env::temp_dir().join(format!("sitke-ledger-test-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        assert_eq!(Ledger::open(&path, "setup A").unwrap(), Ledger::default());
        // An empty file is a new ledger: it gets its header with the first run.
        std::fs::write(&path, "").unwrap();
        let (a, b) = (run(1, [1, 2, 1], [0, 1, 0, 1, 0]), run(2, [0, 4, 0], [0, 0, 2, 0, 0]));
        Ledger::append(&path, "setup A", &a).unwrap();
        Ledger::append(&path, "setup A", &b).unwrap();
        let ledger = Ledger::open(&path, "setup A").unwrap();
        assert_eq!(ledger.runs, vec![a, b]);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        // A last line that lost its newline is ended, not joined to the next run.
        std::fs::write(&path, text.trim_end()).unwrap();
        let c = run(3, [2, 0, 0], [0, 0, 0, 0, 1]);
        Ledger::append(&path, "setup A", &c).unwrap();
        assert_eq!(Ledger::open(&path, "setup A").unwrap().runs, vec![a, b, c]);
        let err = Ledger::open(&path, "setup B").unwrap_err();
        assert!(err.contains("another match") && err.contains("setup A") && err.contains("setup B"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }
}
