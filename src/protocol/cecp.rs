//! The words of CECP (XBoard protocol 2) for Sittuyin, kept apart from the session that
//! speaks them: the feature list, the `setup` and `piece` lines that teach XBoard the
//! variant, thinking lines, result claims, `highlight` boards, the time controls, and the
//! core's notices in CECP's forms.
//!
//! Where CECP leaves a detail open, Debian's `fairy-stockfish` sent `xboard` is the
//! reference: it answers `variant sittuyin` with the same `setup` and `piece` lines, and
//! `lift` with the same `highlight` boards (yellow for a move, magenta for a promotion).

use super::core::ENGINE_NAME;
use super::notice::{Level, Notice, Report};
use super::options::VARIANTS;
use super::wire::send;
use crate::board::{Color, Move, MoveKind, Outcome, PieceType, Position, Square};
use crate::search::time::TimeManager;
use crate::search::{Info, Limits, Score};
use std::time::Duration;

/// XBoard has no Sittuyin of its own: this gives it the board (8x8 with holdings of 6 piece
/// types), a parent variant with drops (bughouse) and the start position. The letters in
/// parentheses map XBoard's internal piece types, in its order, to Sittuyin's FEN letters
/// (a dot: a type not in the game).
pub const SETUP_PREFIX: &str = "setup (PN.R.F....SKpn.r.f....sk) 8x8+6_bughouse";

/// The whole `setup` line: the prefix and the start position.
pub fn setup_line() -> String {
    format!("{SETUP_PREFIX} {}", crate::board::START_FEN)
}

/// How each piece moves, in XBoard's Betza notation (`&`: for both colours; `@N`: may be
/// dropped on the N nearest ranks, `@0` never). The pawn steps forward and captures one
/// step diagonally forward; the knight, rook and king move as in chess; the met (ferz) one
/// step diagonally; the elephant (silver) one step diagonally or straight forward.
pub const PIECES: [&str; 6] =
    ["piece P& fmWfceFj@0", "piece N& N@8", "piece R& R@8", "piece F& F@8", "piece S& FfW@8", "piece K& K@8"];

/// The `feature` lines sent after `protover 2`: the commands Sitke understands, its name
/// and variant, and the options that have no CECP command of their own.
pub fn features() -> String {
    let mut s = format!(
        "feature done=0\n\
         feature myname=\"{ENGINE_NAME}\" variants=\"{}\" setboard=1 usermove=1 ping=1 playother=1 \
         time=1 draw=1 analyze=1 pause=0 reuse=1 colors=0 name=0 ics=0 san=0 nps=1 memory=1 smp=1 \
         highlight=1 exclude=0 setscore=0 debug=1 sigint=0 sigterm=0\n",
        VARIANTS.join(",")
    );
    for line in super::options::xboard_option_features() {
        s.push_str(&line);
        s.push('\n');
    }
    s.push_str("feature done=1\n");
    s
}

/// A notice as CECP words it: an error as `Error (KIND): MESSAGE`, the form of a refused
/// command (the kind is `bad option` for anything an option caused); a note or a warning
/// as a `#` line, which hosts show in their debug log (the `debug` feature) and otherwise
/// ignore. The message is the one every protocol gives.
pub fn notice_line(n: &Notice) -> String {
    match n.level() {
        Level::Error => {
            let kind = if n.is_about_an_option() { "bad option" } else { "internal" };
            format!("Error ({kind}): {n}")
        }
        Level::Warning => format!("# warning: {n}"),
        Level::Note => format!("# {n}"),
    }
}

/// Notices in CECP's forms.
pub struct CecpReport;

impl Report for CecpReport {
    fn notice(&self, notice: &Notice) {
        send(&notice_line(notice));
    }
}

/// A score in CECP's units: centipawns for the side to move; mates as 100000 + N for mate
/// in N moves and -100000 - N for being mated in N.
pub fn score(value: i32) -> i64 {
    match Score::from_value(value) {
        Score::Cp(c) => c as i64,
        Score::Mate(m) if m > 0 => 100_000 + m as i64,
        Score::Mate(m) => -100_000 + m as i64,
    }
}

/// One thinking line: `ply score time nodes pv`, the time in centiseconds.
pub fn thinking_line(info: &Info) -> String {
    let cs = info.time.as_millis() / 10;
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    format!("{} {} {cs} {} {}", info.depth, score(info.value), info.nodes, pv.join(" "))
}

/// The claim an engine makes when the game is over: `RESULT {comment}`.
pub fn result_claim(outcome: Outcome) -> Option<String> {
    let comment = match outcome {
        Outcome::Ongoing => return None,
        Outcome::Checkmate { winner: Color::White } => "White mates",
        Outcome::Checkmate { winner: Color::Black } => "Black mates",
        Outcome::Draw(_) => outcome.reason(),
    };
    Some(format!("{} {{{comment}}}", outcome.result_str()))
}

/// A move as XBoard sends it, if legal in `pos`: UCI notation (drops `R@a1` in either
/// case, promotions `d5d5f` and `d5e6f`), or a pawn's move to the last rank with a suffix
/// XBoard adds on its own: not knowing Sittuyin's pawns, it takes every such move for a
/// promotion and appends its promotion piece (`f2f1.`, `f2f1q`), where in Sittuyin the
/// pawn simply moves.
pub fn parse_move(pos: &Position, text: &str) -> Option<Move> {
    if let Ok(m) = pos.parse_uci_move(text) {
        return Some(m);
    }
    if text.contains(',') {
        return parse_legs(pos, text);
    }
    let plain = text.get(..4).filter(|_| text.len() == 5 && !text.ends_with(['f', 'F']))?;
    let m = pos.parse_uci_move(plain).ok()?;
    (m.kind() == MoveKind::Normal && pos.piece_on(m.from()).is_some_and(|p| p.kind() == PieceType::Pawn)).then_some(m)
}

/// A promotion in place as XBoard passes it on between engines: XBoard 4.9 refuses a move
/// whose squares are the same, but takes one of two legs through an empty square
/// (`d4e5,e5d4f`: see `move_text`). It forwards White's that way, and Black's as
/// `d4d4,e3c4` (it mistakes them for castling). Both mean the promotion on d4; any other
/// move of several legs is refused.
fn parse_legs(pos: &Position, text: &str) -> Option<Move> {
    let legs: Vec<&str> = text.split(',').collect();
    let (first, last) = (legs.first()?, legs.last()?);
    let from = first.get(..2)?;
    let in_place = first.get(2..4) == Some(from) || last.get(2..4) == Some(from);
    let m = pos.parse_uci_move(&format!("{from}{from}f")).ok()?;
    in_place.then_some(m)
}

/// How the engine writes its move for the host. For XBoard (`legs`) two moves need a form of
/// their own; every other move, and every move for other hosts (cutechess), is UCI notation.
/// - A promotion in place goes as two legs through an empty square, `d4e5,e5d4f`, since
///   XBoard 4.9 refuses a move whose squares are the same even with legality testing off;
///   it then shows the met on d4.
/// - A pawn's plain move to the last rank goes as `h7h8p`. Sent bare, XBoard takes it for a
///   promotion to a piece of its own (`h7h8.`), and later refuses that pawn's promotion to a
///   met (`h8g7f`), forfeiting the game; with `p` the man on h8 stays a pawn.
pub fn move_text(pos: &Position, m: Move, legs: bool) -> String {
    if !legs {
        return m.to_string();
    }
    let us = pos.side_to_move();
    if m.kind() == MoveKind::Normal
        && m.to().relative_rank(us) == 7
        && pos.piece_on(m.from()).is_some_and(|p| p.kind() == PieceType::Pawn)
    {
        return format!("{m}p");
    }
    if m.kind() != MoveKind::Promotion || m.from() != m.to() {
        return m.to_string();
    }
    let sq = m.from();
    // Any empty square will do; a neighbour reads best.
    let near = [(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1), (1, -1), (-1, -1)];
    let via =
        near.iter().filter_map(|&(df, dr)| sq.offset(df, dr)).chain(Square::ALL).find(|&s| pos.piece_on(s).is_none());
    match via {
        Some(v) => format!("{sq}{v},{v}{sq}f"),
        None => m.to_string(),
    }
}

/// The answer to `lift SQUARE`: where the piece there may go, yellow for a move and magenta
/// for a promotion (XBoard then asks which piece), as Fairy-Stockfish marks them. A square
/// without a piece of the side to move, or text that is no square, marks nothing.
pub fn highlight(pos: &Position, square: &str) -> String {
    let mut marks = [None::<char>; 64];
    if let Some(from) = Square::parse(square) {
        for &m in pos.legal_moves().iter() {
            if m.kind() != MoveKind::Drop && m.from() == from {
                let mark = if m.kind() == MoveKind::Promotion { 'M' } else { 'Y' };
                // A pawn may step to a square and promote there: the promotion wins.
                let slot = &mut marks[m.to().index()];
                if *slot != Some('M') {
                    *slot = Some(mark);
                }
            }
        }
    }
    let mut ranks = Vec::with_capacity(8);
    for rank in (0..8).rev() {
        let (mut text, mut empty) = (String::new(), 0);
        for file in 0..8 {
            match marks[Square::new(file, rank).index()] {
                Some(c) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    format!("highlight {}", ranks.join("/"))
}

/// The time controls XBoard set, and the clocks it reported.
#[derive(Clone, Debug)]
pub struct Clock {
    /// Moves per session (`level`), 0 for the whole game.
    pub mps: u32,
    /// Time per session (`level`).
    pub base: Duration,
    /// Increment per move (`level`).
    pub inc: Duration,
    /// Fixed time per move (`st`), overriding the clock.
    pub per_move: Option<Duration>,
    /// Depth limit (`sd`).
    pub depth: Option<u32>,
    /// Nodes per second of virtual time (`nps`): the clock counts nodes, not seconds.
    pub nps: Option<u64>,
    /// The engine's clock (`time`).
    pub own: Option<Duration>,
    /// The opponent's clock (`otim`).
    pub opp: Option<Duration>,
}

impl Default for Clock {
    /// XBoard's own default: 40 moves in 5 minutes.
    fn default() -> Clock {
        Clock {
            mps: 40,
            base: Duration::from_secs(300),
            inc: Duration::ZERO,
            per_move: None,
            depth: None,
            nps: None,
            own: None,
            opp: None,
        }
    }
}

/// Parses `level MPS BASE INC`: BASE in minutes or `MIN:SEC` (trailing text ignored, as
/// CECP asks), INC in seconds, possibly fractional.
pub fn parse_level(args: &[&str]) -> Result<(u32, Duration, Duration), String> {
    let [mps, base, inc] = args else {
        return Err(format!("level takes 3 arguments, got {}", args.len()));
    };
    let mps: u32 = mps.parse().map_err(|_| format!("moves per session '{mps}'"))?;
    let digits = |s: &str| s.chars().take_while(char::is_ascii_digit).collect::<String>();
    let (min, sec) = match base.split_once(':') {
        Some((m, s)) => (m.to_string(), digits(s)),
        None => (digits(base), "0".to_string()),
    };
    let (Ok(min), Ok(sec)) = (min.parse::<u64>(), sec.parse::<u64>()) else {
        return Err(format!("base time '{base}'"));
    };
    let inc: f64 = inc.parse().map_err(|_| format!("increment '{inc}'"))?;
    if !inc.is_finite() || !(0.0..1e6).contains(&inc) || min > 1_000_000 || sec > 1_000_000 {
        return Err("time out of range".to_string());
    }
    Ok((mps, Duration::from_secs(min * 60 + sec), Duration::from_secs_f64(inc)))
}

/// Parses a CECP number of centiseconds (`time`, `otim`); negative clocks count as zero.
pub fn parse_centis(text: &str) -> Option<Duration> {
    let n: i64 = text.parse().ok()?;
    Some(Duration::from_millis(n.clamp(0, 1_000_000_000) as u64 * 10))
}

impl Clock {
    /// Back to the start of a game: the clocks are full again and `sd`/`nps` are gone.
    pub fn new_game(&mut self) {
        self.own = None;
        self.opp = None;
        self.depth = None;
        self.nps = None;
    }

    /// The search limits for the engine, to move at `pos` (`Move Overhead` is kept in
    /// reserve by the searcher itself).
    pub fn limits(&self, pos: &Position) -> Limits {
        let us = pos.side_to_move();
        let mut l = Limits { depth: self.depth, ..Limits::default() };
        if let Some(t) = self.per_move {
            l.movetime = Some(t);
        } else {
            let own = self.own.unwrap_or(self.base);
            let opp = self.opp.unwrap_or(self.base);
            let (white, black) = if us == Color::White { (own, opp) } else { (opp, own) };
            l.wtime = Some(white);
            l.btime = Some(black);
            l.winc = Some(self.inc);
            l.binc = Some(self.inc);
            if self.mps > 0 {
                // Sessions count moves from the first: move N is the ((N-1) % mps + 1)th.
                l.movestogo = Some(self.mps - (pos.fullmove().saturating_sub(1) % self.mps));
            }
        }
        if let Some(nps) = self.nps.filter(|&n| n > 0) {
            // The clock is virtual: plan the move in seconds, then spend it as nodes.
            let tm = TimeManager::new(&l, us, pos.game_ply(), Duration::ZERO, crate::host::Instant::now());
            let secs = tm.optimum().map_or(1.0, |d| d.as_secs_f64());
            l = Limits { depth: self.depth, nodes: Some(((secs * nps as f64) as u64).max(1)), ..Limits::default() };
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::DrawReason;
    use crate::search::{Bound, VALUE_MATE};

    #[test]
    fn scores_and_thinking_lines() {
        assert_eq!(score(37), 37);
        assert_eq!(score(VALUE_MATE - 1), 100_001);
        assert_eq!(score(VALUE_MATE - 5), 100_003);
        assert_eq!(score(-VALUE_MATE + 4), -100_002);
        let info = Info {
            depth: 9,
            seldepth: 12,
            multipv: 1,
            value: -21,
            bound: Bound::Exact,
            nodes: 48000,
            time: Duration::from_millis(10_849),
            hashfull: 0,
            tbhits: 0,
            pv: vec![Move::normal(Square::D5, Square::E6), Move::promotion(Square::D5, Square::D5)],
        };
        assert_eq!(thinking_line(&info), "9 -21 1084 48000 d5e6 d5d5f");
    }

    #[test]
    fn notices_in_cecp_forms() {
        use crate::protocol::options::OptionError;
        let unknown = Notice::Option(OptionError::UnknownName("NoSuch".into()));
        assert_eq!(notice_line(&unknown), "Error (bad option): setoption: no such option 'NoSuch'");
        assert_eq!(notice_line(&Notice::TablebasesOff), "# tablebases off");
        assert_eq!(
            notice_line(&Notice::SearchFailed),
            "Error (internal): the search failed; playing the first legal move"
        );
        let warning = Notice::StoppingSearch { why: "go" };
        assert_eq!(
            notice_line(&warning),
            "# warning: go received during an open-ended search; stopping that search first"
        );
    }

    #[test]
    fn claims() {
        assert_eq!(result_claim(Outcome::Ongoing), None);
        assert_eq!(result_claim(Outcome::Checkmate { winner: Color::Black }).unwrap(), "0-1 {Black mates}");
        assert_eq!(result_claim(Outcome::Draw(DrawReason::Counting)).unwrap(), "1/2-1/2 {counting rule}");
    }

    #[test]
    fn moves_with_xboards_promotion_suffix() {
        let pos = Position::from_fen("8/8/8/8/8/k7/5p2/K7[] b - - 0 70").unwrap();
        assert_eq!(parse_move(&pos, "f2f1"), Some(Move::normal(Square::F2, Square::F1)));
        assert_eq!(parse_move(&pos, "f2f1."), Some(Move::normal(Square::F2, Square::F1)));
        assert_eq!(parse_move(&pos, "f2f1q"), Some(Move::normal(Square::F2, Square::F1)));
        // Only a pawn's plain move, and never in place of a promotion XBoard asked for.
        assert_eq!(parse_move(&pos, "a3b3."), None);
        assert_eq!(parse_move(&pos, "f2f1f"), None);
        assert_eq!(parse_move(&pos, "f2f1x1"), None);
        let start = Position::startpos();
        assert_eq!(parse_move(&start, "r@a1"), Some(Move::drop(PieceType::Rook, Square::A1)));
        assert_eq!(parse_move(&start, "R@a1"), Some(Move::drop(PieceType::Rook, Square::A1)));
    }

    #[test]
    fn promotions_in_place_for_xboard() {
        let white = Position::from_fen("1r6/8/3p4/3P4/8/k7/8/K7[] w - - 0 70").unwrap();
        let m = Move::promotion(Square::D5, Square::D5);
        assert!(white.is_legal(m));
        assert_eq!(move_text(&white, m, false), "d5d5f");
        // d6 is taken: the next neighbour, e6.
        assert_eq!(move_text(&white, m, true), "d5e6,e6d5f");
        assert_eq!(move_text(&white, Move::promotion(Square::D5, Square::E6), true), "d5e6f");
        assert_eq!(parse_move(&white, "d5e6,e6d5f"), Some(m));
        // XBoard's forward of Black's promotion in place, read back.
        let black = Position::from_fen("k7/8/K7/8/3p4/3P4/8/1R6[] b - - 0 70").unwrap();
        let b = Move::promotion(Square::D4, Square::D4);
        assert!(black.is_legal(b), "{:?}", black.legal_moves().iter().map(|m| m.to_string()).collect::<Vec<_>>());
        assert_eq!(parse_move(&black, "d4d4,e3c4"), Some(b));
        assert_eq!(parse_move(&black, &move_text(&black, b, true)), Some(b));
        assert_eq!(parse_move(&white, "d5e6,e6f7"), None);
        // A plain pawn move to the last rank keeps the pawn a pawn in XBoard's eyes.
        let last = Position::from_fen("k7/7P/8/8/8/8/8/K7[] w - - 0 60").unwrap();
        let push = Move::normal(Square::H7, Square::H8);
        assert_eq!(move_text(&last, push, true), "h7h8p");
        assert_eq!(move_text(&last, push, false), "h7h8");
        assert_eq!(parse_move(&last, "h7h8p"), Some(push));
        let black = Position::from_fen("k7/8/8/8/8/8/p7/7K[] b - - 0 60").unwrap();
        assert_eq!(move_text(&black, Move::normal(Square::A2, Square::A1), true), "a2a1p");
        assert_eq!(move_text(&black, Move::normal(Square::A8, Square::B8), true), "a8b8");
        assert_eq!(parse_move(&white, ","), None);
    }

    #[test]
    fn highlights_match_fairy_stockfish() {
        // The boards Debian's fairy-stockfish sends for the same lifts.
        let pos = Position::from_fen("4k3/8/8/3P4/8/8/P7/4K3[] w - - 0 40").unwrap();
        assert_eq!(highlight(&pos, "d5"), "highlight 8/8/2MYM3/3M4/2M1M3/8/8/8");
        assert_eq!(highlight(&pos, "e1"), "highlight 8/8/8/8/8/8/3YYY2/3Y1Y2");
        assert_eq!(highlight(&pos, "e8"), "highlight 8/8/8/8/8/8/8/8");
        assert_eq!(highlight(&Position::startpos(), "e4"), "highlight 8/8/8/8/8/8/8/8");
        assert_eq!(highlight(&pos, "R@@@"), "highlight 8/8/8/8/8/8/8/8");
    }

    #[test]
    fn levels_and_limits() {
        assert_eq!(parse_level(&["40", "5", "0"]), Ok((40, Duration::from_secs(300), Duration::ZERO)));
        assert_eq!(parse_level(&["0", "0:30", "0.1"]), Ok((0, Duration::from_secs(30), Duration::from_millis(100))));
        assert_eq!(parse_level(&["40", "25+5", "0"]), Ok((40, Duration::from_secs(1500), Duration::ZERO)));
        assert!(parse_level(&["x", "5", "0"]).is_err());
        assert!(parse_level(&["40", "5"]).is_err());
        assert!(parse_level(&["40", "5", "-1"]).is_err());
        assert_eq!(parse_centis("-30"), Some(Duration::ZERO));
        assert_eq!(parse_centis("1234"), Some(Duration::from_millis(12_340)));

        let mut c = Clock { mps: 40, ..Clock::default() };
        c.own = Some(Duration::from_secs(100));
        c.opp = Some(Duration::from_secs(50));
        let black = Position::from_fen("4k3/8/8/8/8/8/7R/4K3[] b - - 0 43").unwrap();
        let l = c.limits(&black);
        assert_eq!((l.btime, l.wtime), (Some(Duration::from_secs(100)), Some(Duration::from_secs(50))));
        assert_eq!(l.movestogo, Some(38));
        c.per_move = Some(Duration::from_secs(3));
        c.depth = Some(7);
        let l = c.limits(&black);
        assert_eq!((l.movetime, l.wtime, l.depth), (Some(Duration::from_secs(3)), None, Some(7)));
        // st 1 + nps 5000 (how cutechess asks for a node limit): 5000 nodes a move.
        c.depth = None;
        c.per_move = Some(Duration::from_secs(1));
        c.nps = Some(5000);
        let l = c.limits(&black);
        assert_eq!((l.nodes, l.movetime), (Some(5000), None));
        c.new_game();
        assert_eq!((c.nps, c.own), (None, None));
    }
}
