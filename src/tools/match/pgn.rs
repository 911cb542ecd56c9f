//! PGN: every finished game written with the seven standard tags, `Variant`, `FEN` and
//! `SetUp` for a set-up start, the time control, the termination, and the moves in SAN
//! (`=F` promotions, `@` drops) with cutechess-style comments; and a reader for PGN
//! openings and for checking what was written.

use super::record::GameRecord;
use crate::board::{Color, Move, Position, Rules};
use std::time::{SystemTime, UNIX_EPOCH};

/// The longest line of movetext written.
const LINE_WIDTH: usize = 80;

/// The UTC date `YYYY.MM.DD` of a time, as the PGN `Date` tag wants it.
pub fn pgn_date(t: SystemTime) -> String {
    let days = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Days since 1970-01-01 to a civil date, counting in 400-year eras of 146097 days
    // that start on 1 March, so the leap day falls at the end of each year.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!("{year:04}.{month:02}.{day:02}")
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The game as PGN text, ending with a blank line. `minimal` leaves out the comments on
/// the moves (the termination comment stays).
pub fn format_game(rec: &GameRecord, event: &str, site: &str, minimal: bool) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    tag("Event", event);
    tag("Site", site);
    tag("Date", &pgn_date(rec.started));
    tag("Round", &rec.number.to_string());
    tag("White", &rec.white);
    tag("Black", &rec.black);
    tag("Result", rec.result.result_str());
    tag("Variant", "Sittuyin");
    if let Some(fen) = &rec.start_fen {
        tag("FEN", fen);
        tag("SetUp", "1");
    }
    let [w, b] = &rec.time_controls;
    if w == b {
        tag("TimeControl", w);
    } else {
        tag("WhiteTimeControl", w);
        tag("BlackTimeControl", b);
    }
    tag("PlyCount", &rec.moves.len().to_string());
    tag("Termination", rec.result.pgn_termination());
    out.push('\n');

    let mut pos = match &rec.start_fen {
        Some(f) => Position::from_fen_with(f, rec.rules).unwrap_or_else(|_| Position::startpos_with(rec.rules)),
        None => Position::startpos_with(rec.rules),
    };
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in rec.moves.iter().enumerate() {
        // The move number stays on the line of its move.
        let number = match pos.side_to_move() {
            Color::White => format!("{}. ", pos.fullmove()),
            Color::Black if i == 0 => format!("{}... ", pos.fullmove()),
            Color::Black => String::new(),
        };
        tokens.push(format!("{number}{}", pos.san(m.mv)));
        if !minimal {
            if m.book {
                tokens.push("{book}".to_string());
            } else {
                let score = m
                    .score
                    .map(|s| match m.depth {
                        Some(d) => format!("{s}/{d} "),
                        None => format!("{s} "),
                    })
                    .unwrap_or_default();
                tokens.push(format!("{{{score}{:.3}s}}", m.time.as_secs_f64()));
            }
        }
        pos.do_move(m.mv);
    }
    tokens.push(format!("{{{}}}", rec.result.description()));
    tokens.push(rec.result.result_str().to_string());

    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A game read from PGN: its tags and its moves as SAN text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    /// The tags in order.
    pub tags: Vec<(String, String)>,
    /// The moves of the main line, as written.
    pub moves: Vec<String>,
    /// The result token at the end of the movetext, if any.
    pub result: Option<String>,
    /// The line of the file the game starts on (1-based).
    pub line: usize,
}

impl PgnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The position the game starts from: its FEN tag, or the start position; an error for
    /// another variant or a bad FEN.
    pub fn start_position(&self) -> Result<Position, String> {
        if let Some(v) = self.tag("Variant")
            && !v.eq_ignore_ascii_case("sittuyin")
        {
            return Err(format!("variant '{v}' is not sittuyin"));
        }
        match self.tag("FEN") {
            Some(f) => Position::from_fen(f).map_err(|e| format!("invalid FEN tag: {e}")),
            None => Ok(Position::startpos()),
        }
    }

    /// The start position and the moves, checked for legality under the default rules.
    pub fn replay(&self) -> Result<(Position, Vec<Move>), String> {
        self.replay_under(&Rules::FAIRY_STOCKFISH)
    }

    /// The start position and the moves, checked for legality under `rules` (a game under
    /// Pritchard's sequential setup is not one under the alternating rules).
    pub fn replay_under(&self, rules: &'static Rules) -> Result<(Position, Vec<Move>), String> {
        let start = self.start_position()?.with_rules(rules);
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for (i, text) in self.moves.iter().enumerate() {
            let m = pos.parse_san(text).map_err(|e| format!("ply {}: {e}", i + 1))?;
            pos.do_move(m);
            moves.push(m);
        }
        Ok((start, moves))
    }
}

fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Reads every game of a PGN text. Comments, variations, NAGs and move numbers are
/// skipped; a game ends at its result or where the next game's tags begin.
pub fn read_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut depth = 0usize; // variation nesting
    let mut in_comment = false;
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let trimmed = line.trim();
        if !in_comment && depth == 0 && trimmed.starts_with('[') {
            // Tags after movetext start the next game (one without a result token).
            if !game.moves.is_empty() {
                games.push(std::mem::take(&mut game));
            }
            if game.tags.is_empty() {
                game.line = line_no;
            }
            if let Some(t) = parse_tag(trimmed) {
                game.tags.push(t);
            }
            continue;
        }
        if trimmed.starts_with('%') {
            continue;
        }
        let flush = |token: &mut String, game: &mut PgnGame, games: &mut Vec<PgnGame>| {
            let raw = std::mem::take(token);
            if is_result(&raw) {
                game.result = Some(raw);
                games.push(std::mem::take(game));
                return;
            }
            // Move numbers ("12.", "12...") may be glued to the move ("12.Nf3").
            let t = raw.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if t.is_empty() {
                return;
            }
            if game.moves.is_empty() && game.tags.is_empty() {
                game.line = line_no;
            }
            game.moves.push(t.to_string());
        };
        let mut token = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_comment {
                in_comment = c != '}';
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, &mut game, &mut games);
                    in_comment = true;
                }
                ';' if depth == 0 => break,
                '(' => {
                    flush(&mut token, &mut game, &mut games);
                    depth += 1;
                }
                ')' => depth = depth.saturating_sub(1),
                _ if depth > 0 => {}
                '$' => {
                    flush(&mut token, &mut game, &mut games);
                    while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                        chars.next();
                    }
                }
                c if c.is_whitespace() => flush(&mut token, &mut game, &mut games),
                c => token.push(c),
            }
        }
        flush(&mut token, &mut game, &mut games);
    }
    if !game.moves.is_empty() || !game.tags.is_empty() {
        games.push(game);
    }
    games
}

/// `[Name "value"]` with `\"` and `\\` escapes.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(n);
            }
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc() {
        let at = |secs: u64| pgn_date(UNIX_EPOCH + std::time::Duration::from_secs(secs));
        assert_eq!(at(0), "1970.01.01");
        // 2000-02-29 12:00 UTC and 2024-12-31 23:59:59 UTC.
        assert_eq!(at(951_825_600), "2000.02.29");
        assert_eq!(at(1_735_689_599), "2024.12.31");
    }

    #[test]
    fn reads_tags_moves_comments_and_variations() {
        let text = "[Event \"a \\\"quoted\\\" one\"]\n[FEN \"4k3/8/8/8/8/8/7R/4K3[] w - - 0 40\"]\n\n\
            40. Rh7 {+5.00/3 0.1s} Kd8 (40... Kf8 41. Rh8#) 41.Kd2 $1 Kc8 ; the end\n\
            42. Kc3 Kb8 1/2-1/2\n\n[Event \"second\"]\n\n1. R@a1 *\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("a \"quoted\" one"));
        assert_eq!(games[0].moves, ["Rh7", "Kd8", "Kd2", "Kc8", "Kc3", "Kb8"]);
        assert_eq!(games[0].result.as_deref(), Some("1/2-1/2"));
        let (start, moves) = games[0].replay().unwrap();
        assert_eq!(start.fen(), "4k3/8/8/8/8/8/7R/4K3[] w - - 0 40");
        assert_eq!(moves.len(), 6);
        assert_eq!(games[1].moves, ["R@a1"]);
        assert_eq!(games[1].line, 7);
        let bad = PgnGame { moves: vec!["Rh9".into()], ..Default::default() };
        assert!(bad.replay().unwrap_err().contains("ply 1"));
    }
}
