//! Cross-check against pyffish (Fairy-Stockfish's own library): random games through every
//! phase, generated and refereed by `tests/pyffish/gen_games.py`, are replayed in Sitke; at
//! every ply the legal move set, the FEN, the check status and the game-end verdict must
//! agree. Needs `python3` with `pyffish` (the CI script installs it).
//!
//! `SITKE_XCHECK_GAMES` sets the number of games (default 2000), `SITKE_XCHECK_FILE` reuses
//! a file generated earlier instead of running pyffish.

use sitke::board::{Color, DrawReason, Outcome, Position};
use std::path::PathBuf;
use std::process::Command;

fn verdict(pos: &Position) -> &'static str {
    match pos.outcome() {
        Outcome::Ongoing => "ongoing",
        Outcome::Checkmate { .. } => "mate",
        Outcome::Draw(DrawReason::Stalemate) => "stalemate",
        Outcome::Draw(DrawReason::InsufficientMaterial) => "insufficient",
        Outcome::Draw(_) => "draw",
    }
}

fn sorted_legal(pos: &Position) -> String {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    moves.join(" ")
}

fn data_file() -> PathBuf {
    if let Ok(f) = std::env::var("SITKE_XCHECK_FILE") {
        return PathBuf::from(f);
    }
    let games = std::env::var("SITKE_XCHECK_GAMES").unwrap_or_else(|_| "2000".to_string());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = root.join("target").join(format!("pyffish-games-{games}.txt"));
    let status = Command::new("python3")
        .arg(root.join("tests/pyffish/gen_games.py"))
        .args(["--games", &games, "--seed", "20261129", "--epd"])
        .arg(root.join("perft/sittuyin.epd"))
        .arg("--out")
        .arg(&out)
        .status()
        .expect("python3 runs (install python3 and `pip install pyffish`)");
    assert!(status.success(), "gen_games.py failed: is pyffish installed?");
    out
}

#[test]
fn random_games_agree_with_pyffish_at_every_ply() {
    let path = data_file();
    let text = std::fs::read_to_string(&path).expect("game file");
    let mut pos = Position::startpos();
    let mut game = String::new();
    let (mut games, mut positions, mut mismatches) = (0usize, 0usize, Vec::new());
    let mut verdicts = std::collections::BTreeMap::<String, usize>::new();
    let (mut promotions, mut drops, mut counting) = (0usize, 0usize, 0usize);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "game" => {
                games += 1;
                game = line.to_string();
            }
            "start" => pos = Position::from_fen(f[1]).unwrap_or_else(|e| panic!("{game}: start FEN {}: {e}", f[1])),
            "ply" => {
                positions += 1;
                let (fen, check, end, ins, legal) = (f[1], f[2] == "1", f[3], f[4], f.get(5).copied().unwrap_or(""));
                let mut report = |what: &str, ours: String, theirs: &str| {
                    if mismatches.len() < 20 {
                        mismatches.push(format!(
                            "{game} ply {}: {what}: sitke '{ours}' pyffish '{theirs}' at {fen}",
                            pos.history_len()
                        ));
                    } else {
                        mismatches.push(String::new());
                    }
                };
                if pos.fen() != fen {
                    report("FEN", pos.fen(), fen);
                }
                let ours = sorted_legal(&pos);
                if ours != legal {
                    report("legal moves", ours, legal);
                }
                if pos.in_check() != check {
                    report("check", pos.in_check().to_string(), f[2]);
                }
                if verdict(&pos) != end {
                    report("verdict", verdict(&pos).to_string(), end);
                }
                if ins != "-" {
                    let w = pos.has_insufficient_material(Color::White) as u8;
                    let b = pos.has_insufficient_material(Color::Black) as u8;
                    if format!("{w},{b}") != ins {
                        report("insufficient material", format!("{w},{b}"), ins);
                    }
                }
                *verdicts.entry(end.to_string()).or_default() += 1;
                promotions += legal.split(' ').filter(|m| m.ends_with('f')).count();
                drops += legal.contains('@') as usize;
                counting += (pos.counting_limit() != 0) as usize;
            }
            "move" => match pos.parse_uci_move(f[1]) {
                Ok(m) => pos.do_move(m),
                Err(e) => panic!("{game}: pyffish's move {} refused: {e} at {}", f[1], pos.fen()),
            },
            "end" => {}
            other => panic!("unexpected record '{other}'"),
        }
    }
    println!(
        "pyffish cross-check: {games} games, {positions} positions compared, {} mismatches; \
         verdicts {verdicts:?}; {drops} setup positions, {promotions} promotion moves offered, \
         {counting} positions with counting running",
        mismatches.len()
    );
    assert!(games >= 1 && positions > games, "no data in {}", path.display());
    let shown: Vec<&String> = mismatches.iter().filter(|m| !m.is_empty()).collect();
    assert!(mismatches.is_empty(), "{} mismatches, first ones:\n{:#?}", mismatches.len(), shown);
}
