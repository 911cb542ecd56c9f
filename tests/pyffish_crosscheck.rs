//! Cross-check against pyffish (Fairy-Stockfish's own library): random games through every
//! phase, generated and refereed by `tests/pyffish/gen_games.py`, are replayed in Sitke; at
//! every ply the legal move set, the FEN, the check status and the game-end verdict must
//! agree. Needs `python3` with `pyffish`: ignored by a plain `cargo test`, run by
//! `bash scripts/test.sh` (which installs it) and CI.
//!
//! Generating the games is nearly all of this test's time (each pyffish call costs over a
//! millisecond, and every ply takes two), and they depend only on the generator, the perft
//! suite, the number of games, the seed and pyffish's version; so the file is kept under
//! target/ with a name made from all of these, and reused while none of them changes.
//!
//! `SITKE_XCHECK_GAMES` sets the number of games (default 2000), `SITKE_XCHECK_FILE` reads
//! a file generated earlier instead of running pyffish.
//!
//! The club site's rules (no counting rule) are Fairy-Stockfish's `sittuyin` with
//! `countingRule = none`, a variant pyffish loads from `tests/pyffish/club.ini`; the same
//! check runs on games refereed by it (`SITKE_XCHECK_CLUB_GAMES`, default 300). Their one
//! rule pyffish has no switch for is the material draw: the club draws only bare kings.

mod oracle;

use sitke::board::{Color, DrawReason, Outcome, Position, Rules};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::process::Command;

/// The generator's seed: the games are the same from run to run.
const SEED: &str = "20261129";

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

/// Which games to generate: the default rules, or a variant from a variants.ini file.
struct Oracle {
    /// The environment variables for a file generated earlier and for the game count.
    file_var: &'static str,
    games_var: &'static str,
    default_games: &'static str,
    /// `tests/pyffish/<ini>` and the variant it defines, if not plain `sittuyin`.
    ini: Option<(&'static str, &'static str)>,
}

const FAIRY: Oracle =
    Oracle { file_var: "SITKE_XCHECK_FILE", games_var: "SITKE_XCHECK_GAMES", default_games: "2000", ini: None };
const CLUB: Oracle = Oracle {
    file_var: "SITKE_XCHECK_CLUB_FILE",
    games_var: "SITKE_XCHECK_CLUB_GAMES",
    default_games: "300",
    ini: Some(("club.ini", "sittuyin-club")),
};

fn data_file(oracle: &Oracle) -> PathBuf {
    if let Ok(f) = std::env::var(oracle.file_var) {
        return PathBuf::from(f);
    }
    let games = std::env::var(oracle.games_var).unwrap_or_else(|_| oracle.default_games.to_string());
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (script, epd) = (root.join("tests/pyffish/gen_games.py"), root.join("perft/sittuyin.epd"));
    let version = Command::new("python3")
        .args(["-c", "import pyffish; print(pyffish.version())"])
        .output()
        .expect("python3 runs (install python3 and `pip install pyffish`)");
    assert!(version.status.success(), "cannot ask pyffish its version: is pyffish installed?");
    let mut hasher = DefaultHasher::new();
    std::fs::read(&script).expect("gen_games.py").hash(&mut hasher);
    std::fs::read(&epd).expect("the perft suite").hash(&mut hasher);
    (&games, SEED, &version.stdout).hash(&mut hasher);
    let mut extra: Vec<String> = Vec::new();
    let mut variant = "sittuyin";
    if let Some((ini, name)) = oracle.ini {
        let ini = root.join("tests/pyffish").join(ini);
        std::fs::read(&ini).expect("the variants.ini").hash(&mut hasher);
        extra = vec!["--ini".into(), ini.display().to_string(), "--variant".into(), name.into()];
        variant = name;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let prefix = format!("pyffish-{variant}-games-{games}-");
    let out = dir.join(format!("{prefix}{:016x}.txt", hasher.finish()));
    if out.is_file() {
        println!("reusing {}, generated earlier from the same inputs", out.display());
        return out;
    }
    // Files from other inputs are stale now; each is tens of megabytes.
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    // Written under another name first, so that an interrupted run leaves nothing to reuse.
    let partial = out.with_extension("partial");
    let status = Command::new("python3")
        .arg(&script)
        .args(["--games", &games, "--seed", SEED, "--epd"])
        .arg(&epd)
        .arg("--out")
        .arg(&partial)
        .args(&extra)
        .status()
        .expect("python3 runs (install python3 and `pip install pyffish`)");
    assert!(status.success(), "gen_games.py failed: is pyffish installed?");
    std::fs::rename(&partial, &out).expect("the game file renamed into place");
    out
}

#[test]
#[ignore = "oracle test: needs pyffish; bash scripts/test.sh runs it"]
fn random_games_agree_with_pyffish_at_every_ply() {
    oracle::require(&[oracle::Oracle::Pyffish]);
    replay_and_compare(&data_file(&FAIRY), &Rules::FAIRY_STOCKFISH);
}

#[test]
#[ignore = "oracle test: needs pyffish; bash scripts/test.sh runs it"]
fn club_rules_agree_with_pyffish_without_counting() {
    oracle::require(&[oracle::Oracle::Pyffish]);
    replay_and_compare(&data_file(&CLUB), &Rules::CLUB);
}

/// pyffish's verdict as the rule set `rules` should give it: the club draws no material
/// but bare kings, so where pyffish finds both sides short of mating material and more
/// than the kings stand on the board, the game goes on.
fn expected_verdict<'a>(pos: &Position, rules: &Rules, theirs: &'a str) -> &'a str {
    let only_kings = pos.occupied() == pos.pieces_of_type(sitke::board::PieceType::King);
    if *rules == Rules::CLUB && theirs == "insufficient" && !only_kings { "ongoing" } else { theirs }
}

/// Replays every game of `path` under `rules` and compares every ply.
fn replay_and_compare(path: &std::path::Path, rules: &'static Rules) {
    let text = std::fs::read_to_string(path).expect("game file");
    let mut pos = Position::startpos_with(rules);
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
            "start" => {
                pos = Position::from_fen_with(f[1], rules).unwrap_or_else(|e| panic!("{game}: start FEN {}: {e}", f[1]))
            }
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
                let end = expected_verdict(&pos, rules, end);
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
        "pyffish cross-check ({} rules): {games} games, {positions} positions compared, {} mismatches; \
         verdicts {verdicts:?}; {drops} setup positions, {promotions} promotion moves offered, \
         {counting} positions with counting running",
        rules.short_name(),
        mismatches.len()
    );
    assert!(games >= 1 && positions > games, "no data in {}", path.display());
    let shown: Vec<&String> = mismatches.iter().filter(|m| !m.is_empty()).collect();
    assert!(mismatches.is_empty(), "{} mismatches, first ones:\n{:#?}", mismatches.len(), shown);
}
