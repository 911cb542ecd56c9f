//! Move notation: UCI text in and out (`e3e4`, `R@a1`, `d5e6f`).

use super::position::Position;
use super::types::{Move, PieceType, Square};
use std::fmt;

/// Why a move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not UCI move syntax.
    Syntax(String),
    /// The text is a well-formed move that is not legal in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "unparsable move '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Parses UCI move syntax without looking at a position.
pub fn parse_uci_syntax(s: &str) -> Option<Move> {
    if !s.is_ascii() {
        return None;
    }
    let b = s.as_bytes();
    if b.len() == 4 && b[1] == b'@' {
        let pt = PieceType::from_letter(b[0] as char)?;
        return Some(Move::drop(pt, Square::parse(&s[2..4])?));
    }
    if b.len() == 4 || (b.len() == 5 && (b[4] == b'f' || b[4] == b'F')) {
        let from = Square::parse(&s[0..2])?;
        let to = Square::parse(&s[2..4])?;
        return Some(if b.len() == 5 { Move::promotion(from, to) } else { Move::normal(from, to) });
    }
    None
}

impl Position {
    /// Parses a UCI move and checks that it is legal here.
    pub fn parse_uci_move(&self, s: &str) -> Result<Move, MoveError> {
        let m = parse_uci_syntax(s).ok_or_else(|| MoveError::Syntax(s.to_string()))?;
        if self.is_legal(m) { Ok(m) } else { Err(MoveError::Illegal(s.to_string())) }
    }
}
