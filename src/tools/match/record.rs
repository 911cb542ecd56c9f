//! What a played game leaves: its moves, its result and why it ended. The match writes it
//! to the PGN and counts it; nothing here plays or reads a game.

use super::engine::Score;
use crate::board::{Color, DrawReason, Move, Outcome};
use std::time::{Duration, SystemTime};

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: checkmate or one of the draws.
    Rules(Outcome),
    /// Both engines' scores agreed that one side is lost.
    ResignAdjudication,
    /// Both engines' scores stayed near zero.
    DrawAdjudication,
    /// The game reached `-maxmoves`.
    MoveLimit,
    /// The loser ran out of time.
    TimeForfeit,
    /// The loser sent this move, which is not legal (or not a move).
    IllegalMove(String),
    /// The loser's process went away.
    Disconnect,
    /// The loser stopped answering.
    Stall,
    /// The loser's engine could not be (re)started for the game.
    StartFailure,
}

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// How the game ended.
    pub termination: Termination,
}

pub(super) fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl GameResult {
    /// A loss for `loser` by a fault of its engine.
    pub fn forfeit(loser: Color, termination: Termination) -> GameResult {
        GameResult { winner: Some(!loser), termination }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// What happened, in cutechess's words where it has them ("White mates",
    /// "Draw by 3-fold repetition", "Black loses on time", ...).
    pub fn description(&self) -> String {
        let loser = self.winner.map(|w| side_name(!w)).unwrap_or("?");
        let winner = self.winner.map(side_name).unwrap_or("?");
        match &self.termination {
            Termination::Rules(Outcome::Checkmate { winner }) => {
                format!("{} mates", side_name(*winner))
            }
            Termination::Rules(Outcome::Draw(reason)) => match reason {
                DrawReason::Stalemate => "Draw by stalemate",
                DrawReason::Repetition => "Draw by 3-fold repetition",
                DrawReason::FiftyMoves => "Draw by fifty moves rule",
                DrawReason::Counting => "Draw by counting rule",
                DrawReason::PromotionStalemate => "Draw by promotion stalemate",
                DrawReason::InsufficientMaterial => "Draw by insufficient mating material",
            }
            .to_string(),
            Termination::Rules(Outcome::Ongoing) => "Unterminated".to_string(),
            Termination::ResignAdjudication => format!("{winner} wins by adjudication"),
            Termination::DrawAdjudication => "Draw by adjudication".to_string(),
            Termination::MoveLimit => "Draw by adjudication: move limit".to_string(),
            Termination::TimeForfeit => format!("{loser} loses on time"),
            Termination::IllegalMove(m) => format!("{loser} makes an illegal move: {m}"),
            Termination::Disconnect => format!("{loser} disconnects"),
            Termination::Stall => format!("{loser}'s connection stalls"),
            Termination::StartFailure => format!("{loser}'s engine fails to start"),
        }
    }

    /// The PGN `Termination` tag.
    pub fn pgn_termination(&self) -> &'static str {
        match self.termination {
            Termination::Rules(_) => "normal",
            Termination::ResignAdjudication | Termination::DrawAdjudication | Termination::MoveLimit => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove(_) => "illegal move",
            Termination::Stall => "stalled connection",
            Termination::Disconnect | Termination::StartFailure => "abandoned",
        }
    }
}

/// A move as played, with what the engine said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// The mover's last reported score.
    pub score: Option<Score>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// Thinking time.
    pub time: Duration,
    /// Whether the move came from the opening rather than an engine.
    pub book: bool,
}

/// Everything about a finished game that the output and the PGN need.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number.
    pub number: u64,
    /// Whether the first engine of the match played White.
    pub first_is_white: bool,
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// White's and Black's time controls as PGN writes them.
    pub time_controls: [String; 2],
    /// The start FEN, `None` for the standard start position.
    pub start_fen: Option<String>,
    /// The moves, opening moves first.
    pub moves: Vec<MoveRecord>,
    /// The result.
    pub result: GameResult,
    /// When the game started.
    pub started: SystemTime,
    /// The rules the game was played and judged by.
    pub rules: &'static crate::board::Rules,
}

impl GameRecord {
    /// The first engine's points: 1, 0.5 or 0, in half points (2, 1, 0).
    pub fn first_half_points(&self) -> usize {
        let first = if self.first_is_white { Color::White } else { Color::Black };
        match self.result.winner {
            None => 1,
            Some(w) if w == first => 2,
            Some(_) => 0,
        }
    }
}
