//! `scripts/book.py`, the builder of unbalanced opening books: what it writes is a set of
//! distinct playable positions after the setup, each scored inside the band asked for, and
//! the same seed writes the same book. Needs `python3` with `pyffish`: ignored by a plain
//! `cargo test`, run by `bash scripts/test.sh`.

mod oracle;

use sitke::board::{Outcome, Position};
use std::path::{Path, PathBuf};
use std::process::Command;

const LOW: i32 = 30;
const HIGH: i32 = 400;

fn build_book(out: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/book.py");
    let status = Command::new("python3")
        .arg(script)
        .args(["--out", out.to_str().unwrap(), "--count", "4", "--seed", "11", "--nodes", "3000"])
        .args(["--random-moves", "4", "--low", &LOW.to_string(), "--high", &HIGH.to_string()])
        .args(["--engine", env!("CARGO_BIN_EXE_sitke")])
        .status()
        .expect("python3 runs");
    assert!(status.success(), "book.py failed");
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("sitke-book-{}-{name}", std::process::id()))
}

#[test]
#[ignore = "needs python3 with pyffish; run by scripts/test.sh"]
fn book_holds_distinct_playable_setups_in_the_band_and_is_reproducible() {
    oracle::require(&[oracle::Oracle::Pyffish]);
    let (a, b) = (tmp("a.epd"), tmp("b.epd"));
    build_book(&a);
    build_book(&b);
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap(), "the same seed wrote another book");
    let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));

    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let mut fens = std::collections::HashSet::new();
    for line in lines {
        let (fen, comment) = line.split_once(" ; ").expect("an EPD line with a comment");
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(fen.contains("[]"), "{fen}: the setup is not complete");
        assert_eq!(pos.outcome(), Outcome::Ongoing, "{fen}");
        assert!(!pos.legal_moves().is_empty(), "{fen}");
        assert!(fens.insert(pos.fen()), "{fen} twice");
        let score: i32 = comment
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no score in {comment}"));
        assert!((LOW..=HIGH).contains(&score.abs()), "{line}: outside the band");
    }
}
