//! Standard algebraic notation (SAN) for PGN, written exactly as Fairy-Stockfish writes it
//! for Sittuyin (pyffish `get_san_moves`), and read back leniently.
//!
//! The forms: `e4`, `dxe4`, `Nf3`, `Rxd8+`, `Ra8#`, disambiguated `Nhf3` / `N6e7` /
//! `Nb3d4` (by legal moves only, so a pinned twin does not count), drops `K@e2`,
//! promotions in place `d5=F` and by a step `d5e6=F`.

use super::position::Position;
use super::types::{Move, MoveKind, PieceType, Square};
use std::fmt;

/// Why a SAN string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN (nor UCI) move syntax.
    Syntax(String),
    /// The text is well-formed but names no legal move here.
    Illegal(String),
    /// The text fits more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(s) => write!(f, "unparsable SAN move '{s}'"),
            SanError::Illegal(s) => write!(f, "illegal SAN move '{s}'"),
            SanError::Ambiguous(s) => write!(f, "ambiguous SAN move '{s}'"),
        }
    }
}

impl std::error::Error for SanError {}

/// How much of the origin square a piece move must show to be unambiguous.
enum Disambiguation {
    None,
    File,
    Rank,
    Square,
}

impl Position {
    /// The SAN of `m`, which must be legal here, with `+` for check and `#` for mate.
    pub fn san(&self, m: Move) -> String {
        let mut s = String::with_capacity(8);
        match m.kind() {
            MoveKind::Drop => {
                s.push(m.drop_piece().letter());
                s.push('@');
                s.push_str(&m.to().to_string());
            }
            MoveKind::Promotion => {
                // The origin is always written, so the step variant is never ambiguous.
                s.push_str(&m.from().to_string());
                if m.to() != m.from() {
                    s.push_str(&m.to().to_string());
                }
                s.push_str("=F");
            }
            MoveKind::Normal => {
                let pt = self.piece_on(m.from()).map_or(PieceType::Pawn, |p| p.kind());
                let capture = self.piece_on(m.to()).is_some();
                if pt == PieceType::Pawn {
                    // A pawn's capture names its file; two pawns never capture onto the
                    // same square from the same file.
                    if capture {
                        s.push((b'a' + m.from().file()) as char);
                    }
                } else {
                    s.push(pt.letter());
                    match self.disambiguation(m, pt) {
                        Disambiguation::None => {}
                        Disambiguation::File => s.push((b'a' + m.from().file()) as char),
                        Disambiguation::Rank => s.push((b'1' + m.from().rank()) as char),
                        Disambiguation::Square => s.push_str(&m.from().to_string()),
                    }
                }
                if capture {
                    s.push('x');
                }
                s.push_str(&m.to().to_string());
            }
        }
        if self.gives_check(m) {
            let mut after = self.clone();
            after.do_move(m);
            s.push(if after.has_legal_move() { '+' } else { '#' });
        }
        s
    }

    /// The SAN of each move of `moves`, played one after the other from here.
    pub fn san_line(&self, moves: &[Move]) -> Vec<String> {
        let mut pos = self.clone();
        moves
            .iter()
            .map(|&m| {
                let s = pos.san(m);
                pos.do_move(m);
                s
            })
            .collect()
    }

    fn disambiguation(&self, m: Move, pt: PieceType) -> Disambiguation {
        let twins: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|o| {
                o.kind() == MoveKind::Normal
                    && o.to() == m.to()
                    && o.from() != m.from()
                    && self.piece_on(o.from()).map(|p| p.kind()) == Some(pt)
            })
            .map(|o| o.from())
            .collect();
        if twins.is_empty() {
            Disambiguation::None
        } else if twins.iter().all(|sq| sq.file() != m.from().file()) {
            Disambiguation::File
        } else if twins.iter().all(|sq| sq.rank() != m.from().rank()) {
            Disambiguation::Rank
        } else {
            Disambiguation::Square
        }
    }

    /// Reads a move in SAN. Lenient as PGN readers are: the check marks, `x`, `=` and
    /// annotation glyphs (`!?`) are optional, a lower-case drop letter or a fully given
    /// origin is accepted, and plain UCI text (`e3e4`, `d5e6f`) is understood too.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let s = text.trim_end_matches(['+', '#', '!', '?']);
        let syntax = || SanError::Syntax(text.to_string());
        if !s.is_ascii() || s.len() < 2 {
            return Err(syntax());
        }
        if let Some(at) = s.find('@') {
            let pt = match &s[..at] {
                "" => PieceType::Pawn,
                l if l.len() == 1 => PieceType::from_letter(l.chars().next().unwrap_or('?')).ok_or_else(syntax)?,
                _ => return Err(syntax()),
            };
            let to = Square::parse(&s[at + 1..]).ok_or_else(syntax)?;
            return self.legal_or(Move::drop(pt, to), text);
        }
        if let Some(body) = s
            .strip_suffix("=F")
            .or_else(|| s.strip_suffix("=f"))
            .or_else(|| s.strip_suffix('F').filter(|b| b.len() == 2 || b.len() == 4))
        {
            let first = Square::parse(body.get(0..2).ok_or_else(syntax)?).ok_or_else(syntax)?;
            return match body.len() {
                // One square is where the met appears (cutechess writes `g7=F` for a pawn
                // stepping from f6 as for one promoting on g7): its own pawn's square, else
                // the one legal promotion landing there.
                2 if self.piece_on(first).is_some() => self.legal_or(Move::promotion(first, first), text),
                2 => {
                    let legal = self.legal_moves();
                    let mut landing = legal.iter().copied().filter(|m| m.is_promotion() && m.to() == first);
                    match (landing.next(), landing.next()) {
                        (Some(m), None) => Ok(m),
                        (Some(_), Some(_)) => Err(SanError::Ambiguous(text.to_string())),
                        _ => Err(SanError::Illegal(text.to_string())),
                    }
                }
                4 => self.legal_or(Move::promotion(first, Square::parse(&body[2..4]).ok_or_else(syntax)?), text),
                _ => Err(syntax()),
            };
        }
        // Plain UCI text: four or five characters that are squares (and an `f`).
        if let Some(m) = super::notation::parse_uci_syntax(s)
            && !s.starts_with(|c: char| c.is_ascii_uppercase())
        {
            return self.legal_or(m, text);
        }
        self.parse_piece_move(s, text)
    }

    fn legal_or(&self, m: Move, text: &str) -> Result<Move, SanError> {
        if self.is_legal(m) { Ok(m) } else { Err(SanError::Illegal(text.to_string())) }
    }

    /// `[piece][file][rank][x|-]square` for a board move that is not a promotion.
    fn parse_piece_move(&self, s: &str, text: &str) -> Result<Move, SanError> {
        let syntax = || SanError::Syntax(text.to_string());
        let mut rest = s;
        let pt = match rest.chars().next() {
            Some(c) if c.is_ascii_uppercase() => {
                rest = &rest[1..];
                PieceType::from_letter(c).ok_or_else(syntax)?
            }
            _ => PieceType::Pawn,
        };
        let to = Square::parse(rest.get(rest.len().saturating_sub(2)..).ok_or_else(syntax)?).ok_or_else(syntax)?;
        let mut origin = &rest[..rest.len() - 2];
        origin = origin.strip_suffix('x').or_else(|| origin.strip_suffix('-')).unwrap_or(origin);
        let (mut file, mut rank) = (None, None);
        for c in origin.chars() {
            match c {
                'a'..='h' if file.is_none() && rank.is_none() => file = Some(c as u8 - b'a'),
                '1'..='8' if rank.is_none() => rank = Some(c as u8 - b'1'),
                _ => return Err(syntax()),
            }
        }
        let mut found = None;
        for m in self.legal_moves().iter().copied() {
            if m.kind() != MoveKind::Normal
                || m.to() != to
                || self.piece_on(m.from()).map(|p| p.kind()) != Some(pt)
                || file.is_some_and(|f| m.from().file() != f)
                || rank.is_some_and(|r| m.from().rank() != r)
            {
                continue;
            }
            if found.is_some() {
                return Err(SanError::Ambiguous(text.to_string()));
            }
            found = Some(m);
        }
        found.ok_or_else(|| SanError::Illegal(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san_of(fen: &str, uci: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        pos.san(pos.parse_uci_move(uci).unwrap())
    }

    // Expected strings below are pyffish's `get_san` for the same position and move.
    #[test]
    fn writes_what_fairy_stockfish_writes() {
        let start = crate::board::START_FEN;
        assert_eq!(san_of(start, "R@a1"), "R@a1");
        assert_eq!(san_of("4k3/8/4K3/8/8/8/8/R7[] w - - 0 40", "a1a8"), "Ra8#");
        assert_eq!(san_of("8/3k4/8/8/8/8/4K3/8[R] w - - 0 40", "R@d1"), "R@d1+");
        let three = "4k3/8/8/1N6/8/1N3N2/8/4K3[] w - - 0 40";
        assert_eq!(san_of(three, "b3d4"), "Nb3d4");
        assert_eq!(san_of(three, "f3d4"), "Nfd4");
        assert_eq!(san_of(three, "b5d4"), "N5d4");
        // The twin on e2 is pinned, so it does not make c2d4 ambiguous.
        assert_eq!(san_of("4k3/4r3/8/8/8/8/2N1N3/4K3[] w - - 0 40", "c2d4"), "Nd4");
        let mets = "4k3/8/8/8/8/8/1FFF4/4K3[] w - - 0 40";
        assert_eq!(san_of(mets, "b2c1"), "Fbc1");
        assert_eq!(san_of(mets, "b2a1"), "Fa1");
        assert_eq!(san_of(mets, "d2c3"), "Fdc3");
    }

    #[test]
    fn reads_lenient_forms() {
        let pos = Position::from_fen("4k3/8/8/1N6/8/1N3N2/8/4K3[] w - - 0 40").unwrap();
        let m = pos.parse_uci_move("b3d4").unwrap();
        for text in ["Nb3d4", "Nb3-d4", "Nb3xd4", "b3d4", "Nb3d4+!?"] {
            assert_eq!(pos.parse_san(text), Ok(m), "{text}");
        }
        assert!(matches!(pos.parse_san("Nd4"), Err(SanError::Ambiguous(_))));
        assert!(matches!(pos.parse_san("Nb4"), Err(SanError::Illegal(_))));
        assert!(matches!(pos.parse_san("Zz9"), Err(SanError::Syntax(_))));
        assert!(matches!(pos.parse_san(""), Err(SanError::Syntax(_))));
        let start = Position::startpos();
        assert_eq!(start.parse_san("r@a1"), Ok(start.parse_uci_move("R@a1").unwrap()));
    }

    #[test]
    fn a_promotion_named_by_its_landing_square_is_found() {
        // cutechess writes the met's square only: `f6=F` in place, `g7=F` for f6 to g7.
        let pos = Position::from_fen("4k3/8/5P2/8/8/8/P7/4K3[] w - - 0 40").unwrap();
        assert_eq!(pos.parse_san("f6=F").map(|m| m.to_string()), Ok("f6f6f".to_string()));
        assert_eq!(pos.parse_san("g7=F").map(|m| m.to_string()), Ok("f6g7f".to_string()));
        assert!(matches!(pos.parse_san("h7=F"), Err(SanError::Illegal(_))));
        // The pawns on f6 and h8 could both land on g7: the square alone does not say which.
        let two = Position::from_fen("4k2P/8/5P2/8/8/8/8/4K3[] w - - 0 40").unwrap();
        assert!(matches!(two.parse_san("g7=F"), Err(SanError::Ambiguous(_))));
    }
}
