//! `scripts/book.py`, the builder of the unbalanced book: what it writes is a set of
//! distinct playable positions after the setup, each scored inside the band asked for; the
//! same seed writes the same book, whether scored in one run, in shards, or cut and resumed;
//! and the held-out part shares no setup with the rest. Needs `python3` with `pyffish`:
//! ignored by a plain `cargo test`, run by `bash scripts/test.sh`.

mod oracle;

use sitke::board::{Outcome, Position};
use std::path::{Path, PathBuf};
use std::process::Command;

const LOW: i32 = 10;
const HIGH: i32 = 400;

fn book_py(args: &[&str]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/book.py");
    let status = Command::new("python3").arg(script).args(args).status().expect("python3 runs");
    assert!(status.success(), "book.py {args:?} failed");
}

/// Scores `count` candidates into `scored` (appending, as a resumed run does), in `shard`.
fn score(scored: &Path, count: u32, shard: &str) {
    let count = count.to_string();
    book_py(&[
        "score",
        "--out",
        scored.to_str().unwrap(),
        "--count",
        &count,
        "--seed",
        "11",
        "--shard",
        shard,
        "--quick-nodes",
        "1000",
        "--nodes",
        "3000",
        "--quick-low",
        "0",
        "--quick-high",
        "100000",
        "--hash",
        "4",
        "--engine",
        env!("CARGO_BIN_EXE_sitke"),
    ]);
}

/// Selects the band from `scored` into `book` and `held`.
fn select(scored: &[&Path], book: &Path, held: &Path) {
    let mut args = vec!["select", "--scored"];
    args.extend(scored.iter().map(|p| p.to_str().unwrap()));
    let (low, high) = (LOW.to_string(), HIGH.to_string());
    args.extend(["--low", &low, "--high", &high, "--out", book.to_str().unwrap()]);
    args.extend(["--held-out", held.to_str().unwrap(), "--held-share", "0.25"]);
    book_py(&args);
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("sitke-book-{}-{name}", std::process::id()))
}

#[test]
#[ignore = "needs python3 with pyffish; run by scripts/test.sh"]
fn book_holds_distinct_playable_setups_in_the_band_and_is_reproducible() {
    oracle::require(&[oracle::Oracle::Pyffish]);
    let [whole, cut, shard0, shard1] = ["whole", "cut", "s0", "s1"].map(tmp);
    let [book_a, held_a, book_b, held_b, book_c, held_c] = ["ba", "ha", "bb", "hb", "bc", "hc"].map(tmp);
    score(&whole, 24, "0/1");
    // Cut after 10 candidates, then resumed: the same lines as one run.
    score(&cut, 10, "0/1");
    score(&cut, 24, "0/1");
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(whole_text, std::fs::read_to_string(&cut).unwrap(), "a resumed run scored differently");
    assert_eq!(whole_text.lines().count(), 24, "{whole_text}");
    // Two shards together: the same book as one run.
    score(&shard0, 24, "0/2");
    score(&shard1, 24, "1/2");
    select(&[&whole], &book_a, &held_a);
    select(&[&shard1, &shard0], &book_b, &held_b);
    select(&[&cut], &book_c, &held_c);
    let book = std::fs::read_to_string(&book_a).unwrap();
    let held = std::fs::read_to_string(&held_a).unwrap();
    assert_eq!(book, std::fs::read_to_string(&book_b).unwrap(), "shards wrote another book");
    assert_eq!(held, std::fs::read_to_string(&held_b).unwrap(), "shards held out other setups");
    assert_eq!(book, std::fs::read_to_string(&book_c).unwrap());
    for p in [&whole, &cut, &shard0, &shard1, &book_a, &held_a, &book_b, &held_b, &book_c, &held_c] {
        let _ = std::fs::remove_file(p);
    }

    assert!(book.lines().count() >= 4, "too few setups in [{LOW}, {HIGH}]: {book}");
    assert!(held.lines().count() >= 1, "nothing held out of {} setups", book.lines().count());
    let mut fens = std::collections::HashSet::new();
    for line in book.lines().chain(held.lines()) {
        let (fen, comment) = line.split_once(" ; ").expect("an EPD line with a comment");
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(fen.contains("[]"), "{fen}: the setup is not complete");
        assert_eq!(pos.outcome(), Outcome::Ongoing, "{fen}");
        assert!(!pos.legal_moves().is_empty(), "{fen}");
        assert!(fens.insert(pos.fen()), "{fen} twice (in the book, or in both parts)");
        let score: i32 = comment
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no score in {comment}"));
        assert!((LOW..=HIGH).contains(&score.abs()), "{line}: outside the band");
    }
}
