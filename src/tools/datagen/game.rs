//! One self-play game: a random setup opening, then a fixed node budget per move, with the
//! positions worth training on and the game's result.
//!
//! Adjudication (to spend the node budget on positions that teach something):
//! - a mate score from the search ends the game as a win for the side that mates;
//! - a win once the search has scored one side at least `win_score` for `win_plies`
//!   consecutive plies, unless the counting rule runs (a bare king may still hold the
//!   count, so those endings are played out; they are short);
//! - a draw once the game is `draw_after` plies old and the score has stayed within
//!   `draw_score` of zero for `draw_plies` consecutive plies;
//! - a draw at `max_plies` (a guard only: the 50-move and counting rules end games first).

use super::format::{GameHeader, GameResult, Record};
use crate::board::{Color, Outcome, Position};
use crate::rng::Rng;
use crate::search::movepick::is_noisy;
use crate::search::{Control, Limits, MATE_BOUND, Searcher};

/// When a game is ended early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Score (centipawns) at which a side counts as winning.
    pub win_score: i32,
    /// Consecutive plies at or beyond `win_score` that end the game.
    pub win_plies: u32,
    /// Score (centipawns) within which the game counts as level.
    pub draw_score: i32,
    /// Consecutive level plies that end the game as a draw.
    pub draw_plies: u32,
    /// No draw adjudication before this game ply.
    pub draw_after: u32,
    /// A game this long is a draw.
    pub max_plies: u32,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication { win_score: 1000, win_plies: 6, draw_score: 10, draw_plies: 12, draw_after: 60, max_plies: 600 }
    }
}

/// How each game is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// Node budget of every search.
    pub nodes: u64,
    /// Fewest random placement plies at the start.
    pub random_min: u32,
    /// Most random placement plies at the start (the setup has 16).
    pub random_max: u32,
    /// Early ends.
    pub adjudication: Adjudication,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings { nodes: 5000, random_min: 6, random_max: 16, adjudication: Adjudication::default() }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Its `#game` line.
    pub header: GameHeader,
    /// The positions kept for training, in game order.
    pub records: Vec<Record>,
    /// Searches run (kept or not).
    pub searches: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Plays game `id` of a run seeded by `seed`. The game depends only on (seed, id) and the
/// settings: the searcher is cleared first and searches one thread to a node budget.
pub fn play_game(id: u64, seed: u64, settings: &GameSettings, searcher: &mut Searcher) -> PlayedGame {
    let mut rng = Rng::for_item(seed, id);
    let mut pos = Position::startpos();
    let placements = rng.range(settings.random_min as u64, settings.random_max.max(settings.random_min) as u64);
    for _ in 0..placements {
        let moves = pos.legal_moves();
        if !pos.in_setup() || moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.index(moves.len())];
        pos.do_move(m);
    }
    searcher.clear();
    let limits = Limits { nodes: Some(settings.nodes), ..Limits::default() };
    let adj = &settings.adjudication;
    let mut adjudicator = Adjudicator::new(*adj);
    let mut kept: Vec<(String, i32)> = Vec::new();
    let (mut searches, mut nodes) = (0u32, 0u64);
    let mut plies = placements as u32;
    let (result, termination) = loop {
        match pos.outcome() {
            Outcome::Ongoing => {}
            Outcome::Checkmate { winner } => break (win_for(winner), "checkmate".to_string()),
            o @ Outcome::Draw(_) => break (GameResult::Draw, o.reason().replace(' ', "-")),
        }
        if plies >= adj.max_plies {
            break (GameResult::Draw, "max-length".to_string());
        }
        let control = Control::new();
        let r = searcher.search(&pos, &limits, &control, &mut |_| {});
        searches += 1;
        nodes += r.nodes;
        let stm = pos.side_to_move();
        if r.value.abs() >= MATE_BOUND {
            let winner = if r.value > 0 { stm } else { !stm };
            break (win_for(winner), "mate-found".to_string());
        }
        let white = r.value * stm.sign();
        // Quiet positions only: after a capture or promotion, or in check, the static
        // evaluation cannot be expected to match the search.
        if !pos.in_check() && !is_noisy(&pos, r.best) {
            kept.push((pos.fen(), white));
        }
        if let Some((result, why)) = adjudicator.update(white, plies, pos.counting_limit() > 0) {
            break (result, why.to_string());
        }
        pos.do_move(r.best);
        plies += 1;
    };
    let records = kept.into_iter().map(|(fen, score)| Record { fen, score, result }).collect();
    PlayedGame { header: GameHeader { id, result, plies, termination }, records, searches, nodes }
}

/// Follows the scores of a game and decides when it is clearly over.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rule: Adjudication,
    leader: Color,
    winning: u32,
    level: u32,
}

impl Adjudicator {
    /// An adjudicator that has seen no score yet.
    pub fn new(rule: Adjudication) -> Adjudicator {
        Adjudicator { rule, leader: Color::White, winning: 0, level: 0 }
    }

    /// Takes the search score (White's view) at game ply `ply`; `counting` tells whether
    /// the counting rule runs. Returns the verdict once the game is decided.
    pub fn update(&mut self, white: i32, ply: u32, counting: bool) -> Option<(GameResult, &'static str)> {
        let leader = if white >= 0 { Color::White } else { Color::Black };
        if white.abs() >= self.rule.win_score && !counting {
            self.winning = if self.leader == leader { self.winning + 1 } else { 1 };
            self.leader = leader;
        } else {
            self.winning = 0;
        }
        if self.winning >= self.rule.win_plies {
            return Some((win_for(self.leader), "adjudicated-win"));
        }
        self.level = if white.abs() <= self.rule.draw_score { self.level + 1 } else { 0 };
        if ply >= self.rule.draw_after && self.level >= self.rule.draw_plies {
            return Some((GameResult::Draw, "adjudicated-draw"));
        }
        None
    }
}

fn win_for(c: Color) -> GameResult {
    match c {
        Color::White => GameResult::WhiteWin,
        Color::Black => GameResult::BlackWin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EVAL_LIMIT;

    fn quick() -> GameSettings {
        GameSettings { nodes: 300, ..GameSettings::default() }
    }

    #[test]
    fn games_are_reproducible_and_keep_only_quiet_positions() {
        let mut searcher = Searcher::new(1, 1);
        let a = play_game(5, 42, &quick(), &mut searcher);
        let b = play_game(5, 42, &quick(), &mut searcher);
        assert_eq!(a.header, b.header);
        assert_eq!(a.records, b.records);
        assert!(!a.records.is_empty() && a.records.len() as u32 <= a.searches);
        for r in &a.records {
            let pos = Position::from_fen(&r.fen).unwrap();
            assert!(!pos.in_check(), "{}", r.fen);
            assert!(r.score.abs() < EVAL_LIMIT.max(MATE_BOUND));
            assert_eq!(r.result, a.header.result);
        }
        let c = play_game(6, 42, &quick(), &mut searcher);
        assert_ne!(a.records[0].fen, c.records[0].fen, "another id gives another opening");
    }

    #[test]
    fn the_random_opening_places_pieces_only() {
        let settings = GameSettings { random_min: 16, random_max: 16, ..quick() };
        let g = play_game(1, 1, &settings, &mut Searcher::new(1, 1));
        // All 16 placements were random, so the first searched position is past the setup.
        let first = Position::from_fen(&g.records[0].fen).unwrap();
        assert!(!first.in_setup());
        assert!(g.header.plies >= 16);
    }

    #[test]
    fn adjudication_follows_the_documented_rule() {
        let rule = Adjudication {
            win_score: 500,
            win_plies: 3,
            draw_score: 10,
            draw_plies: 4,
            draw_after: 20,
            max_plies: 100,
        };
        let run = |scores: &[i32], start_ply: u32, counting: bool| {
            let mut a = Adjudicator::new(rule);
            scores.iter().enumerate().find_map(|(i, &s)| a.update(s, start_ply + i as u32, counting).map(|v| (i, v)))
        };
        assert_eq!(run(&[600, 700, 650], 30, false), Some((2, (GameResult::WhiteWin, "adjudicated-win"))));
        assert_eq!(run(&[-600, -900, -500], 30, false), Some((2, (GameResult::BlackWin, "adjudicated-win"))));
        // A lapse or a change of leader restarts the count.
        assert_eq!(run(&[600, 700, 400, 600, 600], 30, false), None);
        assert_eq!(run(&[600, -700, 600, 600], 30, false), None);
        // Never a win while the counting rule runs.
        assert_eq!(run(&[900; 10], 30, true), None);
        assert_eq!(run(&[0, 5, -10, 3], 30, false), Some((3, (GameResult::Draw, "adjudicated-draw"))));
        assert_eq!(run(&[0, 5, 11, 3, 0, 0], 30, false), None);
        // Not before ply 20 (draw_after), although the fourth level ply is ply 19.
        assert_eq!(run(&[0, 0, 0, 0, 0], 16, false), Some((4, (GameResult::Draw, "adjudicated-draw"))));
    }
}
