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

use super::binary::{GameInfo, PackedRecord, Termination};
use super::format::{GameHeader, GameResult, Record};
use crate::board::{Color, Position};
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

/// A position kept for training, ready for either data format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptPosition {
    /// Its FEN (for the text format).
    pub fen: String,
    /// The search score, centipawns, White's view (for the text format).
    pub score_white: i32,
    /// The binary record, with the game's result.
    pub packed: PackedRecord,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game's number in its run.
    pub id: u64,
    /// How it ended, White's view.
    pub result: GameResult,
    /// Plies played, the random opening included.
    pub plies: u32,
    /// Why it ended.
    pub termination: Termination,
    /// The positions kept for training, in game order.
    pub positions: Vec<KeptPosition>,
    /// Searches run (kept or not).
    pub searches: u32,
    /// Nodes searched.
    pub nodes: u64,
}

impl PlayedGame {
    /// Its `#game` line in the text format.
    pub fn text_header(&self) -> GameHeader {
        let termination = self.termination.name().to_string();
        GameHeader { id: self.id, result: self.result, plies: self.plies, termination }
    }

    /// Its positions as text records.
    pub fn text_records(&self) -> Vec<Record> {
        let record = |k: &KeptPosition| Record { fen: k.fen.clone(), score: k.score_white, result: self.result };
        self.positions.iter().map(record).collect()
    }

    /// Its game block in the binary format, for a run seeded `seed`.
    pub fn game_info(&self, seed: u64) -> GameInfo {
        GameInfo {
            id: self.id,
            positions: self.positions.len() as u32,
            result: self.result,
            termination: self.termination,
            plies: self.plies.min(u16::MAX as u32) as u16,
            seed: seed as u32,
        }
    }

    /// Its positions as binary records.
    pub fn packed_records(&self) -> Vec<PackedRecord> {
        self.positions.iter().map(|k| k.packed).collect()
    }
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
    let mut kept: Vec<KeptPosition> = Vec::new();
    let (mut searches, mut nodes) = (0u32, 0u64);
    let mut plies = placements as u32;
    let (result, termination) = loop {
        let outcome = pos.outcome();
        if let Some(t) = Termination::from_outcome(outcome) {
            let winner = if t == Termination::Checkmate { Some(!pos.side_to_move()) } else { None };
            break (winner.map_or(GameResult::Draw, win_for), t);
        }
        if plies >= adj.max_plies {
            break (GameResult::Draw, Termination::MaxLength);
        }
        let control = Control::new();
        let r = searcher.search(&pos, &limits, &control, &mut |_| {});
        searches += 1;
        nodes += r.nodes;
        let stm = pos.side_to_move();
        if r.value.abs() >= MATE_BOUND {
            let winner = if r.value > 0 { stm } else { !stm };
            break (win_for(winner), Termination::MateFound);
        }
        let white = r.value * stm.sign();
        // Quiet positions only: after a capture or promotion, or in check, the static
        // evaluation cannot be expected to match the search. Positions of the setup phase
        // (pieces still in hand) are kept like any other: the net must score them too.
        if !pos.in_check() && !is_noisy(&pos, r.best) {
            // Every game position fits a record: 32 pieces at most, and the hands hold no
            // more than the setup's king, met, two rooks, two khons and two knights.
            let packed = PackedRecord::pack(&pos, r.value, GameResult::Draw).expect("a game position packs");
            kept.push(KeptPosition { fen: pos.fen(), score_white: white, packed });
        }
        if let Some((result, t)) = adjudicator.update(white, plies, pos.counting_limit() > 0) {
            break (result, t);
        }
        pos.do_move(r.best);
        plies += 1;
    };
    for k in &mut kept {
        k.packed = k.packed.with_result(result);
    }
    PlayedGame { id, result, plies, termination, positions: kept, searches, nodes }
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
    pub fn update(&mut self, white: i32, ply: u32, counting: bool) -> Option<(GameResult, Termination)> {
        let leader = if white >= 0 { Color::White } else { Color::Black };
        if white.abs() >= self.rule.win_score && !counting {
            self.winning = if self.leader == leader { self.winning + 1 } else { 1 };
            self.leader = leader;
        } else {
            self.winning = 0;
        }
        if self.winning >= self.rule.win_plies {
            return Some((win_for(self.leader), Termination::AdjudicatedWin));
        }
        self.level = if white.abs() <= self.rule.draw_score { self.level + 1 } else { 0 };
        if ply >= self.rule.draw_after && self.level >= self.rule.draw_plies {
            return Some((GameResult::Draw, Termination::AdjudicatedDraw));
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
        assert_eq!(a.text_header(), b.text_header());
        assert_eq!(a.positions, b.positions);
        assert!(!a.positions.is_empty() && a.positions.len() as u32 <= a.searches);
        for k in &a.positions {
            let pos = Position::from_fen(&k.fen).unwrap();
            assert!(!pos.in_check(), "{}", k.fen);
            assert!(k.score_white.abs() < EVAL_LIMIT.max(MATE_BOUND));
            // The binary record holds the same position, score and result.
            assert_eq!(k.packed.to_position().unwrap().board_fen(), pos.board_fen());
            assert_eq!(k.packed.score_white(), k.score_white);
            assert_eq!(k.packed.result_white(), a.result);
        }
        assert!(a.text_records().iter().all(|r| r.result == a.result));
        let info = a.game_info(42);
        assert_eq!((info.id, info.positions as usize, info.seed), (5, a.positions.len(), 42));
        let c = play_game(6, 42, &quick(), &mut searcher);
        assert_ne!(a.positions[0].fen, c.positions[0].fen, "another id gives another opening");
    }

    #[test]
    fn the_random_opening_places_pieces_only() {
        let settings = GameSettings { random_min: 16, random_max: 16, ..quick() };
        let g = play_game(1, 1, &settings, &mut Searcher::new(1, 1));
        // All 16 placements were random, so the first searched position is past the setup.
        let first = Position::from_fen(&g.positions[0].fen).unwrap();
        assert!(!first.in_setup());
        assert!(g.plies >= 16);
    }

    #[test]
    fn positions_searched_in_the_setup_phase_are_kept() {
        // Six random placements leave ten to the search; drops are quiet moves, so each of
        // those positions (with pieces in hand) is kept.
        let settings = GameSettings { random_min: 6, random_max: 6, ..quick() };
        let g = play_game(3, 1, &settings, &mut Searcher::new(1, 1));
        let in_hand: Vec<&KeptPosition> = g.positions.iter().take_while(|k| k.packed.in_setup()).collect();
        assert_eq!(in_hand.len(), 10);
        assert!(Position::from_fen(&in_hand[0].fen).unwrap().hand_total(Color::White) > 0);
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
        assert_eq!(run(&[600, 700, 650], 30, false), Some((2, (GameResult::WhiteWin, Termination::AdjudicatedWin))));
        assert_eq!(run(&[-600, -900, -500], 30, false), Some((2, (GameResult::BlackWin, Termination::AdjudicatedWin))));
        // A lapse or a change of leader restarts the count.
        assert_eq!(run(&[600, 700, 400, 600, 600], 30, false), None);
        assert_eq!(run(&[600, -700, 600, 600], 30, false), None);
        // Never a win while the counting rule runs.
        assert_eq!(run(&[900; 10], 30, true), None);
        assert_eq!(run(&[0, 5, -10, 3], 30, false), Some((3, (GameResult::Draw, Termination::AdjudicatedDraw))));
        assert_eq!(run(&[0, 5, 11, 3, 0, 0], 30, false), None);
        // Not before ply 20 (draw_after), although the fourth level ply is ply 19.
        assert_eq!(run(&[0, 0, 0, 0, 0], 16, false), Some((4, (GameResult::Draw, Termination::AdjudicatedDraw))));
    }
}
