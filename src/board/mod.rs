//! The board: types, bitboards, attack tables, Zobrist keys, the position with FEN and
//! make/unmake, legal move generation and the rules for the end of the game.

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod rules;
pub mod san;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, START_FEN, Setup};
pub use movegen::{GenType, MoveList, MoveSet, SetKind};
pub use notation::MoveError;
pub use position::{Position, State};
pub use rules::{DrawReason, Outcome};
pub use san::SanError;
pub use types::{Color, Move, MoveKind, Piece, PieceType, Square};
