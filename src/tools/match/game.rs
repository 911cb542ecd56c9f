//! One refereed game: the engines move in turn against their clocks; every move is checked
//! for legality, the rules of docs/rules.md end the game (through `Position::outcome`), and
//! optional score-based adjudication can end it earlier. An illegal move, a crash, a
//! disconnect or a time forfeit loses, and is logged with the engine's last output.

use super::cli::{DrawRule, EngineConfig, ResignRule};
use super::clock::{Clock, TimeControl};
use super::engine::{Engine, EngineError, Score, SearchFailure};
use super::openings::Opening;
use super::record::{GameRecord, GameResult, MoveRecord, Termination, side_name};
use crate::board::{Color, Outcome, Position, Rules};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

/// How long an engine without a clock or time per move (fixed nodes or depth) may think
/// before the game is lost by a stalled connection.
pub const UNTIMED_MOVE_LIMIT: Duration = Duration::from_secs(60);

/// The match's adjudication settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Adjudication {
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Draw after this many moves of each side.
    pub maxmoves: Option<u32>,
}

/// The running counts behind score adjudication.
#[derive(Default)]
struct Adjudicator {
    /// Consecutive moves on which each side's engine saw itself lost.
    losing: [u32; 2],
    /// Consecutive moves on which each side's engine saw itself winning.
    winning: [u32; 2],
    /// Consecutive plies with the mover's score near zero.
    quiet: u32,
}

impl Adjudicator {
    /// Updates the counts with the score of the move `mover` just made, and adjudicates.
    fn after_move(
        &mut self,
        rules: &Adjudication,
        mover: Color,
        score: Option<Score>,
        pos: &Position,
    ) -> Option<GameResult> {
        let cp = score.map(Score::as_cp);
        let i = mover.index();
        if let Some(r) = rules.resign {
            self.losing[i] = match cp {
                Some(s) if s <= -r.score => self.losing[i] + 1,
                _ => 0,
            };
            self.winning[i] = match cp {
                Some(s) if s >= r.score => self.winning[i] + 1,
                _ => 0,
            };
            for side in [mover, !mover] {
                let j = side.index();
                let agreed = !r.twosided || self.winning[(!side).index()] >= r.movecount;
                if self.losing[j] >= r.movecount && agreed {
                    return Some(GameResult::forfeit(side, Termination::ResignAdjudication));
                }
            }
        }
        if let Some(d) = rules.draw {
            self.quiet = match cp {
                Some(s) if s.abs() <= d.score && pos.fullmove() > d.movenumber => self.quiet + 1,
                _ => 0,
            };
            if self.quiet >= 2 * d.movecount {
                return Some(GameResult { winner: None, termination: Termination::DrawAdjudication });
            }
        }
        if let Some(n) = rules.maxmoves
            && pos.history_len() >= 2 * n as usize
        {
            return Some(GameResult { winner: None, termination: Termination::MoveLimit });
        }
        None
    }
}

/// The `go` arguments for the side to move.
fn go_args(mover: Color, clocks: &[Clock; 2], config: &EngineConfig) -> String {
    let mut go = Vec::new();
    let own = &clocks[mover.index()];
    if own.is_timed() {
        // An opponent without a clock is shown ours, so the engine sees a sane pair.
        let shown = |c: Color| {
            let clock = &clocks[c.index()];
            if clock.is_timed() { clock } else { own }
        };
        let (w, b) = (shown(Color::White), shown(Color::Black));
        go.push(format!("wtime {} btime {} winc {} binc {}", w.left_ms(), b.left_ms(), w.inc_ms(), b.inc_ms()));
        if let Some(n) = own.moves_to_go() {
            go.push(format!("movestogo {n}"));
        }
    }
    if let Some(t) = config.movetime {
        go.push(format!("movetime {}", t.as_millis()));
    }
    if let Some(n) = config.nodes {
        go.push(format!("nodes {n}"));
    }
    if let Some(d) = config.depth {
        go.push(format!("depth {d}"));
    }
    go.join(" ")
}

/// An engine's limits as the PGN `TimeControl` tag writes them: the clock, a fixed time
/// per move as a one-move period (`1/0.5`), or `-` for fixed nodes or depth.
fn pgn_time_control(c: &EngineConfig) -> String {
    match (c.tc, c.movetime) {
        (Some(tc @ TimeControl::Timed { .. }), _) => tc.to_string(),
        (_, Some(st)) => format!("1/{}", st.as_secs_f64()),
        _ => "-".to_string(),
    }
}

/// The record of a game that could not start because `loser`'s engine could not be
/// started: a loss for that side, with no moves.
pub fn unplayed(spec: &GameSpec, white: &EngineConfig, black: &EngineConfig, loser: Color) -> GameRecord {
    GameRecord {
        number: spec.number,
        first_is_white: spec.first_is_white,
        white: white.name.clone(),
        black: black.name.clone(),
        time_controls: [pgn_time_control(white), pgn_time_control(black)],
        start_fen: spec.opening.fen.as_ref().map(|_| spec.opening.position().fen()),
        moves: Vec::new(),
        result: GameResult::forfeit(loser, Termination::StartFailure),
        started: SystemTime::now(),
        rules: spec.rules,
    }
}

/// One game to play.
pub struct GameSpec<'a> {
    /// 1-based game number.
    pub number: u64,
    /// The opening.
    pub opening: &'a Opening,
    /// Whether the match's first engine plays White.
    pub first_is_white: bool,
    /// The rules the referee judges the game by.
    pub rules: &'static Rules,
}

/// Logs why an engine lost, with the last lines it printed.
fn log_fault(number: u64, engine: &Engine, side: Color, what: &str) {
    let output = engine.recent_output();
    log::warn!(
        "game {number}: {} ({}) {what}; its last output:\n    {}",
        engine.config.name,
        side_name(side),
        if output.is_empty() { "(none)".to_string() } else { output.join("\n    ") }
    );
}

/// Plays one game between `white` and `black` from the opening. Returns `None` if the
/// match was stopped (`stop`) before the game ended.
pub fn play(
    spec: &GameSpec,
    white: &mut Engine,
    black: &mut Engine,
    rules: &Adjudication,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let started = SystemTime::now();
    let mut pos = spec.opening.position().with_rules(spec.rules);
    let start_fen = spec.opening.fen.as_ref().map(|_| pos.fen());
    let mut moves: Vec<MoveRecord> = Vec::new();
    let tc_of = |c: &EngineConfig| c.tc.unwrap_or(TimeControl::Infinite);
    let mut clocks = [Clock::new(tc_of(&white.config)), Clock::new(tc_of(&black.config))];
    let time_controls = [&white.config, &black.config].map(pgn_time_control);
    let mut engines = [white, black];
    let record = |moves: Vec<MoveRecord>, result: GameResult, engines: &[&mut Engine; 2]| {
        Some(GameRecord {
            number: spec.number,
            first_is_white: spec.first_is_white,
            white: engines[0].config.name.clone(),
            black: engines[1].config.name.clone(),
            time_controls: time_controls.clone(),
            start_fen: start_fen.clone(),
            moves,
            result,
            started,
            rules: spec.rules,
        })
    };

    for side in Color::ALL {
        let engine = &mut engines[side.index()];
        if let Err(e) = engine.new_game() {
            log_fault(spec.number, engine, side, &format!("failed at the new game: {e}"));
            let t = match e {
                EngineError::Timeout(_) => Termination::Stall,
                _ => Termination::Disconnect,
            };
            return record(moves, GameResult::forfeit(side, t), &engines);
        }
    }
    for &m in &spec.opening.moves {
        // Random setups are made under the match's rules, but a book file may hold a line
        // played under other rules (alternating drops, under Pritchard's sequential
        // setup): its first move that is illegal here ends the book.
        if !pos.is_legal(m) {
            log::warn!(
                "game {}: book move {m} is illegal under the {} rules; book ends",
                spec.number,
                spec.rules.short_name()
            );
            break;
        }
        moves.push(MoveRecord { mv: m, score: None, depth: None, time: Duration::ZERO, book: true });
        pos.do_move(m);
    }
    let base = match &spec.opening.fen {
        Some(_) => format!("position fen {}", start_fen.as_deref().unwrap_or("")),
        None => "position startpos".to_string(),
    };
    let mut adjudicator = Adjudicator::default();
    loop {
        let outcome = pos.outcome();
        if outcome.is_over() {
            let winner = match outcome {
                Outcome::Checkmate { winner } => Some(winner),
                _ => None,
            };
            let result = GameResult { winner, termination: Termination::Rules(outcome) };
            return record(moves, result, &engines);
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mover = pos.side_to_move();
        let engine = &mut engines[mover.index()];
        let config = engine.config.clone();
        let margin = config.timemargin;
        let allowance = clocks[mover.index()]
            .allowance(margin)
            .or(config.movetime.map(|t| t + margin))
            .unwrap_or(UNTIMED_MOVE_LIMIT);
        let mut position = base.clone();
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in &moves {
                position.push(' ');
                position.push_str(&m.mv.to_string());
            }
        }
        let go = go_args(mover, &clocks, &config);
        let timed = clocks[mover.index()].is_timed() || config.movetime.is_some();
        let fault = |engine: &Engine, what: &str, t: Termination| {
            log_fault(spec.number, engine, mover, what);
            GameResult::forfeit(mover, t)
        };
        let reply = match engine.search(&position, &go, allowance) {
            Ok(r) => r,
            Err(SearchFailure::Timeout(elapsed)) => {
                let what =
                    format!("gave no move within {} ms (thought {} ms)", allowance.as_millis(), elapsed.as_millis());
                let t = if timed { Termination::TimeForfeit } else { Termination::Stall };
                let result = fault(engine, &what, t);
                return record(moves, result, &engines);
            }
            Err(SearchFailure::Disconnected(msg)) => {
                let result = fault(engine, &msg, Termination::Disconnect);
                return record(moves, result, &engines);
            }
        };
        let overran = !clocks[mover.index()].punch(reply.elapsed, margin)
            || config.movetime.is_some_and(|t| reply.elapsed > t + margin);
        if overran {
            let what = format!("lost on time (thought {} ms)", reply.elapsed.as_millis());
            let result = fault(engine, &what, Termination::TimeForfeit);
            return record(moves, result, &engines);
        }
        let m = match pos.parse_uci_move(&reply.bestmove) {
            Ok(m) => m,
            Err(e) => {
                let what = format!("sent {e} in {}", pos.fen());
                let result = fault(engine, &what, Termination::IllegalMove(reply.bestmove));
                return record(moves, result, &engines);
            }
        };
        pos.do_move(m);
        moves.push(MoveRecord { mv: m, score: reply.score, depth: reply.depth, time: reply.elapsed, book: false });
        // The rules come first: a move that ends the game is never adjudicated.
        if !pos.outcome().is_over()
            && let Some(result) = adjudicator.after_move(rules, mover, reply.score, &pos)
        {
            return record(moves, result, &engines);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos_after(plies: usize) -> Position {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let m = pos.legal_moves()[0];
            pos.do_move(m);
        }
        pos
    }

    #[test]
    fn resign_needs_both_engines_for_the_move_count() {
        let rules = Adjudication {
            resign: Some(ResignRule { movecount: 2, score: 500, twosided: true }),
            ..Default::default()
        };
        let pos = pos_after(20);
        let mut a = Adjudicator::default();
        let (w, b) = (Color::White, Color::Black);
        assert_eq!(a.after_move(&rules, w, Some(Score::Cp(-600)), &pos), None);
        assert_eq!(a.after_move(&rules, b, Some(Score::Cp(600)), &pos), None);
        assert_eq!(a.after_move(&rules, w, Some(Score::Cp(-700)), &pos), None);
        // Black agrees for the second time: White is adjudicated lost.
        let r = a.after_move(&rules, b, Some(Score::Mate(4)), &pos).unwrap();
        assert_eq!(r.winner, Some(Color::Black));
        assert_eq!(r.description(), "Black wins by adjudication");

        // One-sided, the loser's own scores suffice; a missing score breaks the run.
        let one =
            Adjudication { resign: rules.resign.map(|r| ResignRule { twosided: false, ..r }), ..Default::default() };
        let mut a = Adjudicator::default();
        assert_eq!(a.after_move(&one, w, Some(Score::Cp(-600)), &pos), None);
        assert_eq!(a.after_move(&one, w, None, &pos), None);
        assert_eq!(a.after_move(&one, w, Some(Score::Cp(-600)), &pos), None);
        assert!(a.after_move(&one, w, Some(Score::Cp(-600)), &pos).is_some());
    }

    #[test]
    fn draw_waits_for_the_move_number_and_both_sides() {
        let rules =
            Adjudication { draw: Some(DrawRule { movenumber: 10, movecount: 2, score: 20 }), ..Default::default() };
        let mut a = Adjudicator::default();
        let early = pos_after(10);
        for _ in 0..6 {
            assert_eq!(a.after_move(&rules, Color::White, Some(Score::Cp(0)), &early), None);
        }
        let late = pos_after(24);
        for _ in 0..3 {
            assert_eq!(a.after_move(&rules, Color::White, Some(Score::Cp(5)), &late), None);
        }
        let r = a.after_move(&rules, Color::Black, Some(Score::Cp(-20)), &late);
        assert_eq!(r.map(|r| r.termination), Some(Termination::DrawAdjudication));
    }

    #[test]
    fn go_arguments_follow_the_clocks_and_limits() {
        let cfg = super::super::cli::parse(
            &["-engine", "cmd=a", "tc=40/60+0.5", "nodes=1000", "-engine", "cmd=b", "depth=3"].map(String::from),
        )
        .unwrap();
        let clocks = [Clock::new(cfg.engines[0].tc.unwrap()), Clock::new(TimeControl::Infinite)];
        assert_eq!(
            go_args(Color::White, &clocks, &cfg.engines[0]),
            "wtime 60000 btime 60000 winc 500 binc 500 movestogo 40 nodes 1000"
        );
        assert_eq!(go_args(Color::Black, &clocks, &cfg.engines[1]), "depth 3");
    }
}
