//! The board: types, bitboards, attack tables, Zobrist keys, the position with FEN and
//! make/unmake, legal move generation, the rules of Sittuyin as data (`sittuyin`) and the
//! verdict on the end of the game (`rules`), read through the active rule set (`ruleset`).

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod ruleset;
pub mod san;
pub mod sittuyin;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, Setup};
pub use movegen::{GenType, MoveList, MoveSet, SetKind};
pub use notation::MoveError;
pub use position::{Position, State};
pub use rules::{DrawReason, Outcome};
pub use ruleset::Rules;
pub use san::SanError;
pub use sittuyin::START_FEN;
pub use types::{Color, Move, MoveKind, Piece, PieceType, Square};
