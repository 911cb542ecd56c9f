//! USI notation, as Fairy-Stockfish writes it for Sittuyin in `usi` mode: squares numbered
//! from the right (`h` = 1 ... `a` = 8) and lettered from the top (rank 8 = `a` ... rank 1 =
//! `h`), drops with `*` (`K*2h` is K@g1), promotions with the same `f` suffix as UCI
//! (`5d4cf` is d5e6f), and the SFEN position format
//! `<board> <b|w> <hand|-> <move count>` where `b` (sente) is White.
//!
//! Also the dialect-neutral entry points the loop uses for moves, so that the rest of the
//! protocol never cares which dialect is spoken.

use crate::board::{Color, Move, MoveError, MoveKind, Piece, PieceType, Position, Square};
use std::fmt;

/// The dialect the host speaks: chosen by its first `uci` or `usi` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// UCI: algebraic squares, `R@a1` drops.
    #[default]
    Uci,
    /// USI: shogi-style squares, `R*8h` drops, SFEN.
    Usi,
}

/// A square in USI notation: `e8` is `4a`, `a1` is `8h`.
pub fn square_text(sq: Square) -> String {
    format!("{}{}", (b'1' + 7 - sq.file()) as char, (b'a' + 7 - sq.rank()) as char)
}

/// Parses a USI square (`4a`).
pub fn parse_square(s: &str) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'1'..=b'8').contains(&b[0]) || !(b'a'..=b'h').contains(&b[1]) {
        return None;
    }
    Some(Square::new(7 - (b[0] - b'1'), 7 - (b[1] - b'a')))
}

/// A move in the given dialect; `Move::NONE` is `(none)` in both (bestmove handles `resign`).
pub fn move_text(m: Move, dialect: Dialect) -> String {
    if dialect == Dialect::Uci || !m.is_some() {
        return m.to_string();
    }
    match m.kind() {
        MoveKind::Normal => format!("{}{}", square_text(m.from()), square_text(m.to())),
        MoveKind::Promotion => format!("{}{}f", square_text(m.from()), square_text(m.to())),
        MoveKind::Drop => format!("{}*{}", m.drop_piece().letter(), square_text(m.to())),
    }
}

/// Parses USI move syntax (drop letters in either case) without looking at a position.
pub fn parse_usi_syntax(s: &str) -> Option<Move> {
    if !s.is_ascii() {
        return None;
    }
    let b = s.as_bytes();
    if b.len() == 4 && b[1] == b'*' {
        let pt = PieceType::from_letter(b[0] as char)?;
        return Some(Move::drop(pt, parse_square(&s[2..4])?));
    }
    if b.len() == 4 || (b.len() == 5 && (b[4] == b'f' || b[4] == b'F')) {
        let from = parse_square(&s[0..2])?;
        let to = parse_square(&s[2..4])?;
        return Some(if b.len() == 5 { Move::promotion(from, to) } else { Move::normal(from, to) });
    }
    None
}

/// Parses a move in the given dialect and checks that it is legal in `pos`.
pub fn parse_move(pos: &Position, s: &str, dialect: Dialect) -> Result<Move, MoveError> {
    match dialect {
        Dialect::Uci => pos.parse_uci_move(s),
        Dialect::Usi => {
            let m = parse_usi_syntax(s).ok_or_else(|| MoveError::Syntax(s.to_string()))?;
            if pos.is_legal(m) { Ok(m) } else { Err(MoveError::Illegal(s.to_string())) }
        }
    }
}

/// The position as SFEN, exactly as Fairy-Stockfish's `d` prints it in its `Sfen:` line.
pub fn sfen(pos: &Position) -> String {
    let board_fen = pos.board_fen();
    let board = board_fen.split('[').next().unwrap_or_default();
    let side = if pos.side_to_move() == Color::White { 'b' } else { 'w' };
    let mut hand = String::new();
    for c in Color::ALL {
        for pt in PieceType::HAND_ORDER {
            let n = pos.hand_count(c, pt);
            if n > 1 {
                hand.push_str(&n.to_string());
            }
            if n > 0 {
                hand.push(Piece::new(c, pt).letter());
            }
        }
    }
    if hand.is_empty() {
        hand.push('-');
    }
    format!("{board} {side} {hand} {}", pos.game_ply() + 1)
}

/// Why an SFEN was refused; each names the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// Fewer than two fields, or more than four.
    FieldCount(usize),
    /// The side field is not `b` or `w`.
    Side(String),
    /// The hand field is not `-` or counts and piece letters.
    Hand(String),
    /// The move count is not a number from 1 on.
    MoveCount(String),
    /// The board (or the position as a whole) is invalid, as the FEN parser found.
    Board(crate::board::FenError),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::FieldCount(n) => write!(f, "SFEN has {n} fields, expected 2 to 4"),
            SfenError::Side(s) => write!(f, "SFEN side field: '{s}' is not 'b' or 'w'"),
            SfenError::Hand(s) => write!(f, "SFEN hand field: invalid '{s}'"),
            SfenError::MoveCount(s) => write!(f, "SFEN move count field: invalid '{s}'"),
            SfenError::Board(e) => write!(f, "SFEN: {e}"),
        }
    }
}

/// The largest move count accepted, matching the FEN parser's limit on counters.
const MAX_MOVE_COUNT: u64 = 1_000_000;

/// Parses an SFEN (`<board> <b|w> [<hand>|-] [<move count>]`) into a position.
pub fn parse_sfen(text: &str) -> Result<Position, SfenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(2..=4).contains(&fields.len()) {
        return Err(SfenError::FieldCount(fields.len()));
    }
    let white_to_move = match fields[1] {
        "b" => true,
        "w" => false,
        s => return Err(SfenError::Side(s.to_string())),
    };
    let hand_field = fields.get(2).copied().unwrap_or("-");
    let mut pocket = String::new();
    if hand_field != "-" {
        let mut count = String::new();
        for ch in hand_field.chars() {
            if ch.is_ascii_digit() {
                count.push(ch);
                if count.len() > 2 {
                    return Err(SfenError::Hand(hand_field.to_string()));
                }
            } else if Piece::from_letter(ch).is_some() {
                let n: usize = if count.is_empty() { 1 } else { count.parse().unwrap_or(0) };
                if n == 0 {
                    return Err(SfenError::Hand(hand_field.to_string()));
                }
                pocket.extend(std::iter::repeat_n(ch, n));
                count.clear();
            } else {
                return Err(SfenError::Hand(hand_field.to_string()));
            }
        }
        if !count.is_empty() || pocket.is_empty() {
            return Err(SfenError::Hand(hand_field.to_string()));
        }
    }
    let move_count = match fields.get(3) {
        None => 1,
        // Digits only, as in a FEN: `u64::from_str` would also take `+5`.
        Some(s) => match s.parse::<u64>() {
            Ok(n) if s.bytes().all(|b| b.is_ascii_digit()) && (1..=MAX_MOVE_COUNT).contains(&n) => n,
            _ => return Err(SfenError::MoveCount(s.to_string())),
        },
    };
    // The move count is the game ply plus one; a FEN's move number counts full moves.
    let fullmove = (move_count - 1) / 2 + 1;
    let side = if white_to_move { 'w' } else { 'b' };
    // The board field must not smuggle in a pocket of its own.
    if fields[0].contains('[') {
        return Err(SfenError::Board(crate::board::FenError::PocketBrackets));
    }
    let fen = format!("{}[{pocket}] {side} - - 0 {fullmove}", fields[0]);
    Position::from_fen(&fen).map_err(SfenError::Board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_follow_fairy_stockfish() {
        assert_eq!(square_text(Square::E8), "4a");
        assert_eq!(square_text(Square::G1), "2h");
        assert_eq!(square_text(Square::A1), "8h");
        for sq in Square::ALL {
            assert_eq!(parse_square(&square_text(sq)), Some(sq));
        }
        assert_eq!(parse_square("9a"), None);
        assert_eq!(parse_square("1i"), None);
    }

    #[test]
    fn moves_round_trip_in_both_dialects() {
        let mut pos = Position::startpos();
        for _ in 0..40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in moves.iter() {
                for d in [Dialect::Uci, Dialect::Usi] {
                    assert_eq!(parse_move(&pos, &move_text(m, d), d), Ok(m));
                }
            }
            let m = moves.as_slice()[pos.game_ply() as usize * 7 % moves.len()];
            pos.do_move(m);
        }
        assert_eq!(move_text(Move::drop(PieceType::King, Square::G1), Dialect::Usi), "K*2h");
        assert_eq!(move_text(Move::promotion(Square::D5, Square::E6), Dialect::Usi), "5d4cf");
    }

    #[test]
    fn sfen_matches_fairy_stockfish_and_round_trips() {
        let start = Position::startpos();
        assert_eq!(sfen(&start), "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8 b K2SF2R2Nk2sf2r2n 1");
        let p = Position::from_fen("4k3/8/8/8/8/8/7R/4K3[] b - 32 0 31").unwrap();
        assert_eq!(sfen(&p), "4k3/8/8/8/8/8/7R/4K3 w - 62");
        let back = parse_sfen("8/8/4pppp/pppp4/4PPPP/PPPP4/8/R7 w K2SFR2Nk2sf2r2n 2").unwrap();
        assert_eq!(back.fen(), "8/8/4pppp/pppp4/4PPPP/PPPP4/8/R7[KSSFRNNkssfrrnn] b - - 0 1");
        assert_eq!(parse_sfen(&sfen(&start)).unwrap().fen(), start.fen());
    }

    #[test]
    fn bad_sfens_name_the_field() {
        assert_eq!(parse_sfen("8/8/8/8/8/8/8/K7").unwrap_err(), SfenError::FieldCount(1));
        assert_eq!(parse_sfen("k7/8/8/8/8/8/8/K7 x").unwrap_err(), SfenError::Side("x".into()));
        assert_eq!(parse_sfen("k7/8/8/8/8/8/8/K7 b 2Q").unwrap_err(), SfenError::Hand("2Q".into()));
        assert_eq!(parse_sfen("k7/8/8/8/8/8/8/K7 b 2").unwrap_err(), SfenError::Hand("2".into()));
        assert_eq!(parse_sfen("k7/8/8/8/8/8/8/K7 b - 0").unwrap_err(), SfenError::MoveCount("0".into()));
        assert_eq!(parse_sfen("k7/8/8/8/8/8/8/K7 b - +5").unwrap_err(), SfenError::MoveCount("+5".into()));
        assert!(matches!(parse_sfen("k7/8/8/8/8/8/8/K8 b - 1"), Err(SfenError::Board(_))));
    }
}
