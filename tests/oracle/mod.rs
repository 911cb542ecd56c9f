//! The programs the oracle tests compare Sitke against, and a clear failure when one is
//! missing. Those tests are `#[ignore]`d, so a plain `cargo test` stays quick; the full
//! run (`bash scripts/test.sh`, which CI uses) installs the oracles and runs them with
//! `cargo test -- --include-ignored`, where a missing oracle fails the test with what to
//! install, never skips it.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Stdio};

/// Fairy-Stockfish, Debian's build.
pub const FSF: &str = "/usr/games/fairy-stockfish";
/// Sjaak II (needs `-uci`).
pub const SJAAK: &str = "/usr/games/sjaakii";

/// A program an oracle test needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oracle {
    /// Debian's `fairy-stockfish` at `FSF`.
    FairyStockfish,
    /// Sjaak II at `SJAAK`.
    Sjaakii,
    /// `python3` (the misbehaving test engine is a Python script).
    Python3,
    /// `python3` with Fairy-Stockfish's library, `pyffish`.
    Pyffish,
}

impl Oracle {
    /// What is missing and how to install it, or None if it is there.
    fn missing(self) -> Option<String> {
        let runs = |args: &[&str]| {
            Command::new("python3")
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        match self {
            Oracle::FairyStockfish if !executable(FSF) => Some(format!("needs {FSF}: apt-get install fairy-stockfish")),
            Oracle::Sjaakii if !executable(SJAAK) => Some(format!("needs {SJAAK}: apt-get install sjaakii")),
            Oracle::Python3 if !runs(&["--version"]) => Some("needs python3: apt-get install python3".to_string()),
            Oracle::Pyffish if !runs(&["-c", "import pyffish"]) => {
                Some("needs python3 with pyffish: python3 -m pip install pyffish".to_string())
            }
            _ => None,
        }
    }
}

/// Starts the pyffish script `tests/pyffish/NAME` under `python3`, its standard input and
/// output piped to the test.
pub fn pyffish_script(name: &str) -> std::process::Child {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pyffish").join(name);
    Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs (install python3 and `pip install pyffish`)")
}

/// Whether `path` is a file someone may execute.
fn executable(path: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(Path::new(path)).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Fails the calling test, naming each missing oracle and how to install it, unless all of
/// `needs` are present.
#[track_caller]
pub fn require(needs: &[Oracle]) {
    let missing: Vec<String> = needs.iter().filter_map(|o| o.missing()).collect();
    assert!(
        missing.is_empty(),
        "this oracle test {}. (`bash scripts/test.sh` installs every oracle, then runs all tests.)",
        missing.join("; it ")
    );
}
