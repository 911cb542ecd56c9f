//! FEN in (Fairy-Stockfish's and cutechess's dialects) and out (exactly as Fairy-Stockfish
//! writes it): `<board>[<pocket>] <side> <castling> <counting-limit|-> <halfmove|counting-ply> <move>`.

use super::position::Position;
use super::ruleset::{Counting, Rules, SetupOrder};
use super::types::{Color, Piece, PieceType, Square};
use super::zobrist::MAX_IN_HAND;
use std::fmt;

/// Clocks and counters above this are refused, so that no arithmetic on them can overflow.
const MAX_COUNTER: u64 = 1_000_000;

/// Why a FEN was refused; each names the field and the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The string holds no fields at all.
    Empty,
    /// More than six space-separated fields.
    TooManyFields(usize),
    /// The board field does not have eight ranks.
    RankCount(usize),
    /// A rank describes more or fewer than eight squares.
    RankLength {
        /// The rank, 1 to 8.
        rank: u8,
        /// How many squares it describes.
        squares: u32,
    },
    /// A character in the board field is neither a piece letter, a digit nor '/'.
    BoardChar(char),
    /// A pocket `[` without its `]`, or text after the `]`.
    PocketBrackets,
    /// A character in the pocket is not a piece letter.
    PocketChar(char),
    /// More pieces of one type in hand than the engine supports.
    TooManyInHand(char),
    /// The side-to-move field is not `w` or `b`.
    SideToMove(String),
    /// The castling field is not `-` or castling letters.
    Castling(String),
    /// The counting-limit field (4th) is not `-` or a number.
    CountingLimit(String),
    /// The halfmove-clock (or counting-ply) field is not a number in range.
    Halfmove(String),
    /// The move-number field is not a number in range.
    Fullmove(String),
    /// A side has no king or more than one (on the board and in hand together).
    KingCount {
        /// The side.
        color: Color,
        /// Its kings, on the board and in hand.
        count: u32,
    },
    /// The side that just moved is in check, which no legal game can reach.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields, at most 6 allowed"),
            FenError::RankCount(n) => write!(f, "board field has {n} ranks, expected 8"),
            FenError::RankLength { rank, squares } => {
                write!(f, "board field: rank {rank} describes {squares} squares, expected 8")
            }
            FenError::BoardChar(c) => write!(f, "board field: invalid character '{c}'"),
            FenError::PocketBrackets => write!(f, "pocket: malformed brackets"),
            FenError::PocketChar(c) => write!(f, "pocket: invalid piece '{c}'"),
            FenError::TooManyInHand(c) => {
                write!(f, "pocket: more than {MAX_IN_HAND} pieces '{c}' in hand")
            }
            FenError::SideToMove(s) => write!(f, "side to move: '{s}' is not 'w' or 'b'"),
            FenError::Castling(s) => write!(f, "castling field: invalid '{s}'"),
            FenError::CountingLimit(s) => write!(f, "counting limit field: invalid '{s}'"),
            FenError::Halfmove(s) => write!(f, "halfmove clock field: invalid '{s}'"),
            FenError::Fullmove(s) => write!(f, "move number field: invalid '{s}'"),
            FenError::KingCount { color, count } => {
                write!(f, "{color:?} has {count} kings (board and hand), expected 1")
            }
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

fn parse_counter(s: &str, err: fn(String) -> FenError) -> Result<u32, FenError> {
    // Digits only: `u64::from_str` would also take `+5`, which Fairy-Stockfish refuses.
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(s.to_string()));
    }
    match s.parse::<u64>() {
        Ok(v) if v <= MAX_COUNTER => Ok(v as u32),
        _ => Err(err(s.to_string())),
    }
}

/// A position's parts as values, for stores that keep positions in a form of their own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, indexed as `Square` (a1 = 0, h8 = 63).
    pub board: [Option<Piece>; 64],
    /// Pieces in hand, by colour index and piece-type index.
    pub hands: [[u8; 6]; 2],
    /// The side to move.
    pub side_to_move: Color,
    /// Plies since the last capture, pawn move, promotion or drop.
    pub rule50: u32,
    /// The counting limit in plies, 0 when counting does not run.
    pub counting_limit: u32,
    /// Plies counted so far (ignored when counting does not run).
    pub counting_ply: u32,
    /// The full-move number (at least 1).
    pub fullmove: u32,
}

/// The placement field of a FEN (ranks 8 to 1, digits for empty runs) for the board that
/// `piece_on` describes; `Position` and the tablebases' positions both write it.
pub fn placement_fen(piece_on: impl Fn(Square) -> Option<Piece>) -> String {
    let mut s = String::with_capacity(80);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match piece_on(Square::new(file, rank)) {
                Some(p) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(p.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

impl Position {
    /// Parses a FEN in any dialect docs/protocol.md allows, under the default rules; never
    /// panics.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, &Rules::FAIRY_STOCKFISH)
    }

    /// The standard start, for a game played by `rules`.
    pub fn startpos_with(rules: &'static Rules) -> Position {
        Position::from_fen_with(super::sittuyin::START_FEN, rules).expect("the start FEN parses")
    }

    /// Parses a FEN as `from_fen` does, for a game played by `rules`.
    pub fn from_fen_with(fen: &str, rules: &'static Rules) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut pos = Position::empty();
        pos.rules = rules;

        // Board, with the pocket in brackets.
        let (board, pocket) = match fields[0].find('[') {
            Some(i) => {
                let rest = &fields[0][i + 1..];
                if !rest.ends_with(']') || rest[..rest.len() - 1].contains(['[', ']']) {
                    return Err(FenError::PocketBrackets);
                }
                (&fields[0][..i], &rest[..rest.len() - 1])
            }
            None if fields[0].contains(']') => return Err(FenError::PocketBrackets),
            None => (fields[0], ""),
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u32;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::BoardChar(c));
                    }
                    file += d;
                } else if let Some(p) = Piece::from_letter(c) {
                    if file < 8 {
                        pos.put_piece(p, Square::new(file as u8, rank));
                    }
                    file += 1;
                } else {
                    return Err(FenError::BoardChar(c));
                }
                if file > 8 {
                    break;
                }
            }
            if file != 8 {
                return Err(FenError::RankLength { rank: rank + 1, squares: file });
            }
        }
        if pocket != "-" {
            for c in pocket.chars() {
                let p = Piece::from_letter(c).ok_or(FenError::PocketChar(c))?;
                let n = &mut pos.hand[p.color().index()][p.kind().index()];
                if *n as usize >= MAX_IN_HAND {
                    return Err(FenError::TooManyInHand(c));
                }
                *n += 1;
            }
        }

        pos.stm = match fields.get(1).copied().unwrap_or("w") {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            s => return Err(FenError::SideToMove(s.to_string())),
        };
        if let Some(&c) = fields.get(2)
            && c != "-"
            && !c.chars().all(|ch| "KQkqABCDEFGHabcdefgh".contains(ch))
        {
            return Err(FenError::Castling(c.to_string()));
        }
        let counting_limit = match fields.get(3).copied().unwrap_or("-") {
            "-" => 0,
            s => parse_counter(s, FenError::CountingLimit)?,
        };
        let fifth = match fields.get(4) {
            Some(s) => parse_counter(s, FenError::Halfmove)?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(s) => parse_counter(s, FenError::Fullmove)?.max(1),
            None => 1,
        };
        pos.game_ply = 2 * (fullmove - 1) + (pos.stm == Color::Black) as u32;
        // While counting runs, the fifth field is the counting ply and the 50-move clock is
        // not written: it restarts from 0, as Fairy-Stockfish does.
        let (rule50, counting_ply) = if counting_limit != 0 { (0, fifth) } else { (fifth, 0) };
        // Rules without a count read a count's fields as no count and the 50-move clock.
        if rules.counting == Counting::None && counting_limit != 0 {
            return pos.finish_setup(fifth, 0, 0);
        }
        pos.finish_setup(rule50, counting_limit, counting_ply)
    }

    /// A position from its parts, checked as a FEN is (kings, the side not to move not in
    /// check, counts in range). Unlike a FEN it can hold the 50-move clock while counting
    /// runs.
    pub fn from_setup(setup: &Setup) -> Result<Position, FenError> {
        Position::from_setup_with(setup, &Rules::FAIRY_STOCKFISH)
    }

    /// A position from its parts, as `from_setup`, for a game played by `rules`.
    pub fn from_setup_with(setup: &Setup, rules: &'static Rules) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        pos.rules = rules;
        for (sq, p) in Square::ALL.iter().zip(&setup.board) {
            if let Some(p) = *p {
                pos.put_piece(p, *sq);
            }
        }
        for c in Color::ALL {
            for pt in PieceType::ALL {
                let n = setup.hands[c.index()][pt.index()];
                if n as usize > MAX_IN_HAND {
                    return Err(FenError::TooManyInHand(Piece::new(c, pt).letter()));
                }
                pos.hand[c.index()][pt.index()] = n;
            }
        }
        pos.stm = setup.side_to_move;
        let fullmove = setup.fullmove.clamp(1, MAX_COUNTER as u32);
        pos.game_ply = 2 * (fullmove - 1) + (pos.stm == Color::Black) as u32;
        let counter = |v: u32, err: fn(String) -> FenError| {
            if v as u64 <= MAX_COUNTER { Ok(v) } else { Err(err(v.to_string())) }
        };
        let rule50 = counter(setup.rule50, FenError::Halfmove)?;
        let counting_limit = counter(setup.counting_limit, FenError::CountingLimit)?;
        let counting_ply = if counting_limit == 0 { 0 } else { counter(setup.counting_ply, FenError::Halfmove)? };
        pos.finish_setup(rule50, counting_limit, counting_ply)
    }

    /// The parts of this position, for `from_setup`.
    pub fn setup(&self) -> Setup {
        let st = self.state();
        Setup {
            board: self.squares,
            hands: self.hand,
            side_to_move: self.stm,
            rule50: st.rule50,
            counting_limit: st.counting_limit,
            counting_ply: st.counting_ply,
            fullmove: self.fullmove(),
        }
    }

    /// Checks the kings and finishes the root state of a position just set up.
    fn finish_setup(mut self, rule50: u32, counting_limit: u32, counting_ply: u32) -> Result<Position, FenError> {
        let pos = &mut self;
        for c in Color::ALL {
            let count = pos.pieces(c, PieceType::King).count() + pos.hand_count(c, PieceType::King) as u32;
            if count != 1 {
                return Err(FenError::KingCount { color: c, count });
            }
        }
        // Under a sequential setup the side placing its men may have checked the other, which
        // waits for its turn.
        let placing = pos.rules.setup == SetupOrder::Sequential && pos.hand_total(pos.stm) > 0;
        if let Some(k) = pos.king_square(!pos.stm)
            && !placing
            && pos.is_attacked_by(pos.stm, k, pos.occupied())
        {
            return Err(FenError::OpponentInCheck);
        }
        pos.init_root_state(rule50, counting_limit, counting_ply);
        Ok(self)
    }

    /// The board and pocket field, e.g. `8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn]`.
    pub fn board_fen(&self) -> String {
        let mut s = placement_fen(|sq| self.piece_on(sq));
        s.push('[');
        for c in Color::ALL {
            for pt in PieceType::HAND_ORDER {
                for _ in 0..self.hand_count(c, pt) {
                    s.push(Piece::new(c, pt).letter());
                }
            }
        }
        s.push(']');
        s
    }

    /// The FEN exactly as Fairy-Stockfish (pyffish `get_fen`) writes it.
    pub fn fen(&self) -> String {
        let side = if self.stm == Color::White { 'w' } else { 'b' };
        let st = self.state();
        if st.counting_limit != 0 {
            format!("{} {side} - {} {} {}", self.board_fen(), st.counting_limit, st.counting_ply, self.fullmove())
        } else {
            format!("{} {side} - - {} {}", self.board_fen(), st.rule50, self.fullmove())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    #[test]
    fn start_fen_prints_in_fairy_stockfish_order() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.fen(), "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1");
    }

    #[test]
    fn cutechess_dialect_parses_the_same() {
        let a = Position::from_fen("4k3/8/8/8/8/8/7R/4K3[-] w - 0 0 1").unwrap();
        let b = Position::from_fen("4k3/8/8/8/8/8/7R/4K3[] w - - 0 1").unwrap();
        let c = Position::from_fen("4k3/8/8/8/8/8/7R/4K3").unwrap();
        assert_eq!(a.fen(), b.fen());
        assert_eq!(a.fen(), c.fen());
        assert_eq!(a.key(), b.key());
    }

    #[test]
    fn counting_fields_round_trip() {
        let fen = "4k3/8/8/8/8/8/7R/4K3[] b - 32 0 31";
        assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
    }

    #[test]
    fn a_setup_gives_back_its_position_and_keeps_the_clock_while_counting() {
        for fen in [START_FEN, "r6n/2s2ks1/1fn1pppP/pppr4/5P1P/PPPP2SS/3N4/RF2RN1K[] b - - 1 12"] {
            let pos = Position::from_fen(fen).unwrap();
            let again = Position::from_setup(&pos.setup()).unwrap();
            assert_eq!(again.fen(), pos.fen());
            assert_eq!(again.key(), pos.key());
        }
        // A FEN cannot hold the 50-move clock while counting runs; a setup can.
        let mut setup = Position::from_fen("4k3/8/8/8/8/8/7R/4K3[] b - 32 5 31").unwrap().setup();
        setup.rule50 = 17;
        let pos = Position::from_setup(&setup).unwrap();
        assert_eq!((pos.rule50(), pos.counting_limit(), pos.counting_ply()), (17, 32, 5));
        assert_eq!(pos.fen(), "4k3/8/8/8/8/8/7R/4K3[] b - 32 5 31");
        // Checked as a FEN is.
        setup.board[Square::E1.index()] = None;
        assert_eq!(Position::from_setup(&setup).unwrap_err(), FenError::KingCount { color: Color::White, count: 0 });
        setup.hands[0][PieceType::King.index()] = 1;
        setup.hands[0][PieceType::Rook.index()] = 40;
        assert_eq!(Position::from_setup(&setup).unwrap_err(), FenError::TooManyInHand('R'));
        setup.hands[0][PieceType::Rook.index()] = 0;
        setup.board.swap(Square::H2.index(), Square::E2.index());
        assert!(Position::from_setup(&setup).is_ok(), "Black to move in check is a position");
        setup.side_to_move = Color::White;
        assert_eq!(Position::from_setup(&setup).unwrap_err(), FenError::OpponentInCheck);
    }

    #[test]
    fn bad_fens_name_the_problem() {
        use FenError::*;
        let cases: &[(&str, FenError)] = &[
            ("", Empty),
            ("8/8/8/8/8/8/8/K7[k] w - - 0 1 x", TooManyFields(7)),
            ("8/8/8/8/8/8/K7[k] w", RankCount(7)),
            ("k8/8/8/8/8/8/8/K7", RankLength { rank: 8, squares: 9 }),
            ("k7/8/8/8/8/8/8/K6", RankLength { rank: 1, squares: 7 }),
            ("k7/8/8/8/8/8/8/K6X", BoardChar('X')),
            ("k7/8/8/8/8/8/8/K7[Q]", PocketChar('Q')),
            ("k7/8/8/8/8/8/8/K7[R", PocketBrackets),
            ("k7/8/8/8/8/8/8/K7 x", SideToMove("x".into())),
            ("k7/8/8/8/8/8/8/K7 w - e3", CountingLimit("e3".into())),
            ("k7/8/8/8/8/8/8/K7 w - - -5", Halfmove("-5".into())),
            ("k7/8/8/8/8/8/8/K7 w - - +5", Halfmove("+5".into())),
            ("k7/8/8/8/8/8/8/K7 w - - 0 -3", Fullmove("-3".into())),
            ("k7/8/8/8/8/8/8/K7 w - - 99999999999", Halfmove("99999999999".into())),
            ("k7/8/8/8/8/8/8/8 w", KingCount { color: Color::White, count: 0 }),
            ("k7/8/8/8/8/8/8/KK6 w", KingCount { color: Color::White, count: 2 }),
            ("k7/R7/8/8/8/8/8/K7 w", OpponentInCheck),
        ];
        for (fen, err) in cases {
            assert_eq!(Position::from_fen(fen).unwrap_err(), *err, "{fen}");
        }
    }
}
