//! Generating a whole set of tables into a folder (`sitke tb generate`), and the text
//! report of `sitke tb probe`.

use super::layout::Layout;
use super::material::Material;
use super::probe::Wdl;
use super::registry::Tablebases;
use super::retro::{self, Progress};
use super::value::{MAX_DISTANCE, Stored};
use crate::board::{PieceType, Position, Rules};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The endings a capture or a promotion in `m` leads to (canonical, kings alone left out).
pub fn successors(m: &Material) -> Vec<Material> {
    let mut out = Vec::new();
    for c in 0..2 {
        for pt in super::material::STRENGTH_ORDER {
            if m.counts[c][pt.index()] == 0 {
                continue;
            }
            let mut capture = *m;
            capture.counts[c][pt.index()] -= 1;
            out.push(capture);
            if pt == PieceType::Pawn {
                let mut promoted = capture;
                promoted.counts[c][PieceType::Met.index()] += 1;
                out.push(promoted);
            }
        }
    }
    let mut out: Vec<Material> = out.into_iter().filter(|x| x.men() > 2).map(|x| x.canonical().0).collect();
    out.dedup();
    out
}

/// What `build` did.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildReport {
    /// Tables generated in this run.
    pub generated: usize,
    /// Tables found already made and kept.
    pub kept: usize,
    /// Positions (index entries) in the tables generated.
    pub positions: usize,
    /// Bytes of the files written.
    pub bytes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// "1h02m03s"-style durations for progress lines.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// Generates every ending of 3 to `max_men` men (or only those named in `only`) under
/// `rules` into their folder under `root` (`super::folder`), keeping valid files already
/// there unless `force`. Progress lines go to `say`.
pub fn build(
    root: &Path,
    rules: &'static Rules,
    max_men: usize,
    only: &[Material],
    force: bool,
    say: &(dyn Fn(&str) + Sync),
) -> Result<BuildReport, String> {
    super::buildable(rules).map_err(|why| format!("no tables under the {} rules: {why}", rules.short_name()))?;
    let tbs = Tablebases::new(root, rules);
    let dir = tbs.dir();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let all: Vec<Material> = Material::all(max_men.min(super::pos::MAX_MEN))
        .into_iter()
        .filter(|m| only.is_empty() || only.iter().any(|o| o.canonical().0 == *m))
        .collect();
    if all.is_empty() {
        return Err("no ending to generate".into());
    }
    let total: usize = all.iter().map(|m| Layout::new(*m).size).sum();
    let start = Instant::now();
    let mut report = BuildReport::default();
    let mut done_positions = 0usize;
    for (i, m) in all.iter().enumerate() {
        let path = tbs.path_of(m);
        let layout = Layout::new(*m);
        if !force && path.exists() && super::file::read(&path, m, rules).is_ok() {
            say(&format!("[{}/{}] {m}: kept {}", i + 1, all.len(), path.display()));
            report.kept += 1;
            done_positions += layout.size;
            continue;
        }
        for s in successors(m) {
            if tbs.table(&s).is_none() {
                return Err(format!("{m} needs {s}, which is neither in {} nor generated", dir.display()));
            }
        }
        let t0 = Instant::now();
        let last = Mutex::new(Instant::now());
        // The rate so far (of this run's tables) times the positions still to do.
        let (base_done, base_generated, gen_start) = (done_positions, report.positions, start);
        let eta = move |done: usize| {
            let generated = base_generated + done;
            if generated == 0 {
                return "ETA ?".to_string();
            }
            let rate = generated as f64 / gen_start.elapsed().as_secs_f64().max(1e-3);
            let left = total.saturating_sub(base_done + done);
            format!("ETA {}", format_duration(Duration::from_secs_f64(left as f64 / rate)))
        };
        let progress = |p: Progress| {
            let mut l = last.lock().unwrap_or_else(|e| e.into_inner());
            if l.elapsed() < Duration::from_secs(5) {
                return;
            }
            *l = Instant::now();
            let what = if p.done > 0 {
                format!("{:.0}%", 100.0 * p.done as f64 / p.total as f64)
            } else {
                format!("level {}", p.level)
            };
            say(&format!("  {m}: {what}, {}; all: {}", format_duration(t0.elapsed()), eta(p.done)));
        };
        let (table, summary) = retro::generate(&layout, &tbs, &progress);
        let bytes = super::file::write(&path, &table).map_err(|e| format!("{}: {e}", path.display()))?;
        tbs.insert(table);
        let legal = summary.wins + summary.losses + summary.draws;
        say(&format!(
            "[{}/{}] {m}: {} positions ({legal} legal: {} won, {} lost, {} drawn for the side to move), longest {} plies, {}, {} KiB; {}",
            i + 1,
            all.len(),
            layout.size,
            summary.wins,
            summary.losses,
            summary.draws,
            summary.longest,
            format_duration(t0.elapsed()),
            bytes / 1024,
            eta(layout.size),
        ));
        report.generated += 1;
        report.positions += layout.size;
        report.bytes += bytes;
        done_positions += layout.size;
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

fn describe(s: Stored, dtm: bool) -> String {
    let metric = if dtm { "mate" } else { "zeroing" };
    match s {
        Stored::Win(d) if d > MAX_DISTANCE => format!("win, {metric} beyond {MAX_DISTANCE} plies"),
        Stored::Loss(d) if d > MAX_DISTANCE => format!("loss, {metric} beyond {MAX_DISTANCE} plies"),
        Stored::Win(d) => format!("win, {metric} in {d} plies"),
        Stored::Loss(d) => format!("loss, {metric} in {d} plies"),
        Stored::Draw => "draw".into(),
        Stored::Invalid => "no legal position".into(),
    }
}

/// The text `sitke tb probe` prints for `pos`.
pub fn probe_report(tbs: &Tablebases, pos: &mut Position) -> Result<String, String> {
    let probe = tbs.probe(pos).ok_or_else(|| {
        format!(
            "not in the tables at {}: more than 4 men, men in hand, a missing table, or a pawn behind its third rank",
            tbs.dir().display()
        )
    })?;
    let m = Material::of_position(pos).canonical().0;
    let mut s = String::new();
    s.push_str(&format!("fen {}\n", pos.fen()));
    s.push_str(&format!("table {m} ({})\n", if probe.dtm { "DTM" } else { "DTZ" }));
    s.push_str(&format!("stored {}\n", describe(probe.stored, probe.dtm)));
    s.push_str(&format!("budget {} plies (50-move clock {}", probe.budget, pos.rule50()));
    if pos.counting_limit() != 0 {
        s.push_str(&format!(", count {} of {}", pos.counting_ply(), pos.counting_limit()));
    }
    s.push_str(")\n");
    let wdl = match probe.wdl {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    };
    s.push_str(&format!("value {wdl}"));
    if probe.wdl != Wdl::Draw {
        s.push_str(&format!(" in {} plies", probe.distance()));
    } else if matches!(probe.stored, Stored::Win(_) | Stored::Loss(_)) {
        s.push_str(" (the clocks run out first)");
    }
    s.push('\n');
    if let Some(moves) = tbs.rank_moves(pos) {
        let best: Vec<String> = moves
            .iter()
            .take_while(|r| r.wdl == moves[0].wdl && r.distance == moves[0].distance)
            .map(|r| r.mv.to_string())
            .collect();
        s.push_str(&format!("bestmoves {}\n", best.join(" ")));
        for r in &moves {
            let v = match r.wdl {
                Wdl::Win => format!("win {}", r.distance),
                Wdl::Draw => "draw".into(),
                Wdl::Loss => format!("loss {}", r.distance),
            };
            s.push_str(&format!("move {} {v}\n", r.mv));
        }
    }
    Ok(s)
}

/// Positions for matches: up to `per_table` legal positions of each ending in `tbs` whose
/// value for the side to move is `want`, with clocks as a game would have them (a bare
/// king's count just started, the 50-move clock at 0), as FENs. Draws are taken only where
/// the game goes on (the rules do not end it at once), and wins only within 100 plies.
pub fn sample(tbs: &Tablebases, per_table: usize, want: Wdl, seed: u64) -> Vec<String> {
    let mut rng = crate::rng::Rng::new(seed);
    let mut out = Vec::new();
    for m in Material::all(super::pos::MAX_MEN) {
        let Some(t) = tbs.table(&m) else { continue };
        let (mut taken, mut tries) = (0, 0);
        while taken < per_table && tries < 1_000_000 {
            tries += 1;
            let idx = rng.index(t.layout.size);
            let Some(p) = t.layout.decode(idx).filter(|p| !p.opponent_in_check()) else { continue };
            let board = p.fen();
            let board = board.split(' ').next().unwrap_or_default();
            let side = if p.stm == crate::board::Color::White { 'w' } else { 'b' };
            let rules = tbs.rules();
            let Ok(mut pos) = Position::from_fen_with(&format!("{board} {side} - - 0 60"), rules) else { continue };
            // A bare king's count starts with the capture that bared it: ply 0 with the bare
            // side to move, 1 with the strong side to move.
            let bare = crate::board::Color::ALL.into_iter().find(|&c| pos.is_bare(c));
            if t.layout.is_dtm()
                && let Some(bare) = bare
                && !pos.is_bare(!bare)
            {
                let strong = !bare;
                let limit = super::counting_limit(rules, |pt| pos.pieces(strong, pt).any());
                if limit > 0 {
                    let ply = (pos.side_to_move() != bare) as u32;
                    match Position::from_fen_with(&format!("{board} {side} - {limit} {ply} 60"), rules) {
                        Ok(p) => pos = p,
                        Err(_) => continue,
                    }
                }
            }
            if pos.outcome().is_over() {
                continue;
            }
            match tbs.probe(&pos) {
                Some(pr) if pr.wdl == want => {}
                _ => continue,
            }
            out.push(pos.fen());
            taken += 1;
        }
    }
    out
}
