//! `scripts/conversion_suite.py compare`: two runs of the conversion suite paired by
//! position. Game N of a run is position N, and the better side (Sitke's) is the side to
//! move in the game's FEN, White or Black. Needs `python3`: ignored by a plain `cargo test`,
//! run by `bash scripts/test.sh`. `record` keeps a run's outcomes in a small file that
//! `compare` reads as it reads the PGN.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A `play` PGN of three games from `results`, one per round: the first and third from a
/// position with White to move, the second with Black to move.
fn pgn(results: [&str; 3]) -> String {
    let fens = [
        "8/8/4k3/8/8/2R5/4K3/8[] w - - 10 60",
        "8/8/4k3/8/8/2r5/4K3/8[] b - - 10 60",
        "8/8/4k3/3R4/8/8/4K3/8[] w - - 20 60",
    ];
    let mut out = String::new();
    for (i, (fen, result)) in fens.iter().zip(results).enumerate() {
        let (white, black) = if fen.contains(" w ") { ("sitke", "fsf") } else { ("fsf", "sitke") };
        // How a game ended is the last comment, as `sitke match` writes it.
        let how = if result == "1/2-1/2" { "{Draw by fifty moves rule} " } else { "" };
        out += &format!(
            "[Event \"?\"]\n[Round \"{}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [FEN \"{fen}\"]\n[SetUp \"1\"]\n\n{how}{result}\n\n",
            i + 1
        );
    }
    out
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("sitke-compare-{}-{name}", std::process::id()))
}

/// `scripts/conversion_suite.py` with `args`: its stdout, after checking it succeeded.
fn script(args: &[&Path]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/conversion_suite.py");
    let out = Command::new("python3").arg(script).args(args).output().expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    text
}

#[test]
#[ignore = "needs python3; run by scripts/test.sh"]
fn compare_pairs_the_runs_by_position_and_knows_which_side_was_better() {
    let (a, b) = (tmp("a.pgn"), tmp("b.pgn"));
    // The first run wins all three (the second with Black, 0-1). The second run wins only
    // the second: its 0-1 in the first game is White's, the better side's, loss.
    std::fs::write(&a, pgn(["1-0", "0-1", "1-0"])).unwrap();
    std::fs::write(&b, pgn(["0-1", "0-1", "1/2-1/2"])).unwrap();
    let text = script(&[Path::new("compare"), &a, &b]);
    let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
    assert!(text.contains("3 positions played in both: first won 3 (100.0%), second 1 (33.3%)"), "{text}");
    assert!(text.contains("both won 1, only the first 2, only the second 0, neither 0"), "{text}");
    assert!(text.contains("McNemar z (first minus second): +1.41"), "{text}");
}

#[test]
#[ignore = "needs python3; run by scripts/test.sh"]
fn a_record_keeps_each_positions_outcome_and_compares_as_its_pgn_does() {
    let (a, b, rec) = (tmp("ra.pgn"), tmp("rb.pgn"), tmp("rb.txt"));
    std::fs::write(&a, pgn(["1-0", "0-1", "1-0"])).unwrap();
    // The better side loses the first game (White's 0-1), wins the second with Black and
    // draws the third.
    std::fs::write(&b, pgn(["0-1", "0-1", "1/2-1/2"])).unwrap();
    let said = script(&[Path::new("record"), &b, Path::new("--out"), &rec, Path::new("--note"), Path::new("build x")]);
    assert!(said.contains("3 positions, won 1, drawn 1, lost 1"), "{said}");
    let kept = std::fs::read_to_string(&rec).unwrap();
    let lines: Vec<&str> = kept.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines, ["1 L -", "2 W -", "3 D 50-move"], "{kept}");
    assert!(kept.lines().nth(1) == Some("# build x"), "{kept}");
    // The record stands in for its PGN on either side of a comparison.
    let from_pgn = script(&[Path::new("compare"), &a, &b]);
    let from_record = script(&[Path::new("compare"), &a, &rec]);
    let reversed = script(&[Path::new("compare"), &rec, &a]);
    let _ = [&a, &b, &rec].map(std::fs::remove_file);
    assert_eq!(from_pgn, from_record);
    assert!(reversed.contains("both won 1, only the first 0, only the second 2, neither 0"), "{reversed}");
}
