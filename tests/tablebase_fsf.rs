//! The tablebases against Fairy-Stockfish (only with `--include-ignored`):
//! - where `fairy-stockfish` reports `score mate N` (depth 30 or 3 s), the table has a win (a
//!   loss) within the clocks, at most 2N-1 (2N) plies from mate; where the table has a
//!   draw, it reports no mate;
//! - where the table has a mate the count cuts off, the game in which both sides play the
//!   table's moves (fastest mate, longest defence) ends drawn by counting, as pyffish
//!   referees it (`tests/pyffish/check_games.py`).
//!
//! Tables: the folder in `SITKE_TB_DIR` if set (e.g. the full 4-man set), else the 3-man
//! set and a few 4-man tables generated here. `SITKE_TB_FSF_PER_TABLE` sets how many
//! positions of each table go to fairy-stockfish (6).

mod uci;

use sitke::board::{Color, DrawReason, Move, Outcome, Position, Rules};
use sitke::rng::Rng;
use sitke::tb::layout::Layout;
use sitke::tb::{Material, Stored, Tablebases, Wdl};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use uci::Engine;

fn tables() -> Tablebases {
    if let Ok(dir) = std::env::var("SITKE_TB_DIR") {
        return Tablebases::new(dir, &Rules::FAIRY_STOCKFISH);
    }
    // Both tests want the tables; the first builds them, the other waits (two builds of the
    // same files at once would trip over each other).
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let dir = BUILT.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb_fsf");
        sitke::tb::driver::build(&dir, &Rules::FAIRY_STOCKFISH, 3, &[], false, &|_| {}).expect("3-man tables");
        // Three 4-man tables of half size (no khon, so both mirrors): a rook's count, a
        // knight's, and a table with a man on each side. A few minutes in CI.
        let four: Vec<Material> = ["KRNvK", "KRvKN", "KNFvK"].iter().map(|n| Material::parse(n).unwrap()).collect();
        sitke::tb::driver::build(&dir, &Rules::FAIRY_STOCKFISH, 4, &four, false, &|_| {}).expect("4-man tables");
        dir
    });
    Tablebases::new(dir, &Rules::FAIRY_STOCKFISH)
}

/// The endings to sample: every table present.
fn endings(tbs: &Tablebases) -> Vec<Material> {
    Material::all(4).into_iter().filter(|m| tbs.path_of(m).exists()).collect()
}

/// A FEN for the position at `idx` with clocks as a game would have them: in a bare-king
/// ending a count at `ply` (the capture that bared the king started both clocks).
fn fen_at(tbs: &Tablebases, m: &Material, idx: usize, ply: u32) -> Option<String> {
    let t = tbs.table(m)?;
    let p = t.layout.decode(idx).filter(|p| !p.opponent_in_check())?;
    let fen = p.fen();
    let board = fen.split(' ').next()?;
    let side = if p.stm == Color::White { 'w' } else { 'b' };
    let pos = Position::from_fen(&format!("{board} {side} - - 0 60")).ok()?;
    if !t.layout.is_dtm() || (pos.is_bare(Color::White) && pos.is_bare(Color::Black)) {
        return Some(format!("{board} {side} - - 0 60"));
    }
    let strong = if pos.is_bare(Color::White) { Color::Black } else { Color::White };
    let limit = pos.counting_limit_against(strong);
    if limit == 0 {
        return Some(format!("{board} {side} - - 0 60"));
    }
    Some(format!("{board} {side} - {limit} {} 60", ply.min(limit)))
}

/// Fairy-Stockfish's last score at depth 30 or after 3 seconds, whichever comes first:
/// Some(mate in N moves), None without a mate; and the depth it reached.
fn fsf_mate(fsf: &mut Engine, fen: &str) -> (Option<i32>, u32) {
    fsf.send("ucinewgame");
    fsf.send(&format!("position fen {fen}"));
    fsf.send("go depth 30 movetime 3000");
    let lines = fsf.expect_prefix("bestmove", Duration::from_secs(60));
    let Some(last) = lines.iter().rev().find(|l| l.starts_with("info") && l.contains(" score ")) else {
        return (None, 0);
    };
    let depth: u32 = uci::field(last, "depth").and_then(|d| d.parse().ok()).unwrap_or(0);
    (mate_of(last), depth)
}

/// The `score mate N` of an info line.
fn mate_of(line: &str) -> Option<i32> {
    let mut it = line.split_whitespace().skip_while(|w| *w != "score").skip(1);
    match (it.next(), it.next()) {
        (Some("mate"), Some(n)) => n.parse().ok(),
        _ => None,
    }
}

#[test]
#[ignore = "needs /usr/games/fairy-stockfish: apt-get install fairy-stockfish"]
fn fairy_stockfish_mates_fit_the_tables() {
    let tbs = tables();
    let mut fsf = Engine::fairy(false);
    let mut rng = Rng::new(2101);
    let per_table: usize = std::env::var("SITKE_TB_FSF_PER_TABLE").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let (mut compared, mut mates, mut table_decisive, mut deep) = (0, 0, 0, 0);
    for m in endings(&tbs) {
        let t = tbs.table(&m).unwrap();
        let mut taken = 0;
        let mut tries = 0;
        while taken < per_table && tries < 100_000 {
            tries += 1;
            let idx = rng.index(t.layout.size);
            // Mostly decisive positions near enough to mate for a 3-second search, some draws.
            let decisive = matches!(t.get(idx), Stored::Win(d) | Stored::Loss(d) if d <= 25);
            if !decisive && !rng.chance(0.1) {
                continue;
            }
            let ply = rng.below(40) as u32;
            let Some(fen) = fen_at(&tbs, &m, idx, ply) else { continue };
            let pos = Position::from_fen(&fen).unwrap();
            if pos.outcome().is_over() {
                continue;
            }
            let probe = tbs.probe(&pos).unwrap();
            let (fsf, depth) = fsf_mate(&mut fsf, &fen);
            deep += (depth >= 30) as usize;
            taken += 1;
            compared += 1;
            table_decisive += (probe.wdl != Wdl::Draw) as usize;
            let Some(n) = fsf else { continue };
            mates += 1;
            if n > 0 {
                assert_eq!(probe.wdl, Wdl::Win, "{fen}: fairy-stockfish mates in {n}, table {probe:?}");
                if probe.dtm {
                    assert!((probe.distance() as i32) < 2 * n, "{fen}: mate in {n}, table {probe:?}");
                }
            } else {
                assert_eq!(probe.wdl, Wdl::Loss, "{fen}: fairy-stockfish is mated in {}, table {probe:?}", -n);
                if probe.dtm {
                    assert!(probe.distance() as i32 <= -2 * n, "{fen}: mated in {}, table {probe:?}", -n);
                }
            }
        }
    }
    println!(
        "tablebase vs fairy-stockfish: {compared} positions compared ({deep} searched to depth 30, the \
         rest for 3 s), {mates} with a mate score (all within the table's distance), \
         {table_decisive} decisive by the table"
    );
    // Enough to mean something, with room for a timed search that finds fewer mates: about
    // a third of the sampled positions get a mate score (30 compared, 10 mates with 6 a table).
    assert!(compared >= 40 && mates >= 8, "{compared} compared, {mates} mates");
}

/// The table's choice for the side to move regardless of the clocks: the fastest stored
/// win, else a draw, else the longest stored loss.
fn table_move(tbs: &Tablebases, pos: &mut Position) -> Move {
    let ranked = tbs.rank_moves(pos).expect("in the tables");
    let merit = |s: Stored| match s {
        Stored::Win(d) => 10_000 - d as i32,
        Stored::Loss(d) => -10_000 + d as i32,
        _ => 0,
    };
    ranked.iter().max_by_key(|r| merit(r.stored)).expect("a legal move").mv
}

#[test]
#[ignore = "needs /usr/games/fairy-stockfish: apt-get install fairy-stockfish (and pyffish)"]
fn games_the_count_cuts_off_end_drawn_by_counting() {
    let tbs = tables();
    let mut rng = Rng::new(2102);
    let mut lines = String::new();
    let mut games = 0;
    for m in endings(&tbs).into_iter().filter(|m| Layout::new(*m).is_dtm()) {
        let t = tbs.table(&m).unwrap();
        let mut taken = 0;
        let mut tries = 0;
        while taken < 10 && tries < 200_000 {
            tries += 1;
            let idx = rng.index(t.layout.size);
            let (Stored::Win(d) | Stored::Loss(d)) = t.get(idx) else { continue };
            if !(4..=100).contains(&d) {
                continue;
            }
            // A count far enough on that the stored mate no longer fits.
            let Some(start) = fen_at(&tbs, &m, idx, 0) else { continue };
            let limit: u32 = match start.split(' ').nth(3).and_then(|f| f.parse().ok()) {
                Some(l) => l,
                None => continue,
            };
            let ply = (limit + 1).saturating_sub(d as u32 - 1 - rng.below(3) as u32);
            if ply > limit {
                continue;
            }
            let Some(fen) = fen_at(&tbs, &m, idx, ply) else { continue };
            let mut pos = Position::from_fen(&fen).unwrap();
            let probe = tbs.probe(&pos).unwrap();
            if probe.wdl != Wdl::Draw || pos.outcome().is_over() {
                continue;
            }
            let mut moves = Vec::new();
            while !pos.outcome().is_over() {
                let mv = table_move(&tbs, &mut pos);
                moves.push(mv);
                pos.do_move(mv);
            }
            assert_eq!(pos.outcome(), Outcome::Draw(DrawReason::Counting), "{fen} {moves:?}");
            let start_pos = Position::from_fen(&fen).unwrap();
            let san = start_pos.san_line(&moves).join(" ");
            let uci: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            lines.push_str(&format!("{games}\t{fen}\t{}\t{san}\t1/2-1/2\tcounting\n", uci.join(" ")));
            games += 1;
            taken += 1;
        }
    }
    let verdicts = referee(&lines);
    let failures: Vec<&str> = verdicts.lines().filter(|l| !l.contains(" ok ")).collect();
    assert!(failures.is_empty(), "pyffish disagrees: {failures:?}");
    println!(
        "tablebase count cut-offs: {games} games played by the table's moves, all drawn by counting (pyffish agrees)"
    );
    assert!(games >= 10, "{games} games");
}

/// Runs tests/pyffish/check_games.py on `input`; returns its output.
fn referee(input: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pyffish/check_games.py");
    let mut child =
        Command::new("python3").arg(script).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("python3 runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().expect("check_games.py output");
    assert!(out.status.success(), "check_games.py failed: is pyffish installed?");
    String::from_utf8_lossy(&out.stdout).into_owned()
}
