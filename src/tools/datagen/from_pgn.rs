//! Training positions from the games of a PGN file, in datagen's format, for the teacher to
//! label (`scripts/fsf_label.py` replaces the score).
//!
//! Fitting only to positions from our own self-play never shows the evaluation the
//! positions a stronger opponent steers into. The games of `sitke match` against
//! fairy-stockfish, and fairy-stockfish's games against itself, are where those are
//! (README, "The teacher's own positions").

use std::io::{self, Write};

use super::format::{GameHeader, GameResult, Record, write_game};
use crate::tools::r#match::pgn::{self, PgnGame};

/// Ids of the games written start here, clear of the small ids `sitke datagen` gives its
/// own games, so the files can be concatenated.
pub const FIRST_ID: u64 = 10_000_000;

/// The positions kept from one finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePositions {
    /// The game's result.
    pub result: GameResult,
    /// Plies in the game's movetext (the setup included).
    pub plies: u32,
    /// The quiet positions after the setup, as FENs.
    pub fens: Vec<String>,
}

/// The quiet positions of one game after the setup: every piece placed, the side to move
/// not in check, and the move played from it not a capture (a position in the middle of an
/// exchange teaches a static evaluation nothing it can use). None for a game without a
/// result. A move that does not replay ends the game there, with a warning in the log.
pub fn quiet_positions(game: &PgnGame) -> Option<GamePositions> {
    let result = match game.tag("Result").or(game.result.as_deref())? {
        "1-0" => GameResult::WhiteWin,
        "0-1" => GameResult::BlackWin,
        "1/2-1/2" => GameResult::Draw,
        _ => return None,
    };
    // Unlike `replay`, a move that does not parse keeps the positions before it.
    let mut pos = match game.start_position() {
        Ok(p) => p,
        Err(e) => {
            log::warn!("pgn-positions: game at line {}: {e}; skipped", game.line);
            return None;
        }
    };
    let mut fens = Vec::new();
    for (ply, text) in game.moves.iter().enumerate() {
        let m = match pos.parse_san(text) {
            Ok(m) => m,
            Err(e) => {
                log::warn!("pgn-positions: game at line {}, ply {}: {e}; rest skipped", game.line, ply + 1);
                break;
            }
        };
        if !pos.in_setup() && !pos.in_check() && !pos.is_capture(m) {
            fens.push(pos.fen());
        }
        pos.do_move(m);
    }
    Some(GamePositions { result, plies: game.moves.len() as u32, fens })
}

/// Writes the quiet positions of every finished game of `text` with score 0; returns how
/// many games and positions were written.
pub fn convert(text: &str, w: &mut impl Write) -> io::Result<(usize, usize)> {
    let (mut games, mut positions) = (0, 0);
    for game in pgn::read_games(text).iter().filter_map(quiet_positions) {
        let header = GameHeader {
            id: FIRST_ID + games as u64,
            result: game.result,
            plies: game.plies,
            termination: "pgn".to_string(),
        };
        let records: Vec<Record> =
            game.fens.into_iter().map(|fen| Record { fen, score: 0, result: game.result }).collect();
        write_game(w, &header, &records)?;
        games += 1;
        positions += records.len();
    }
    Ok((games, positions))
}
