//! The training-data format that `datagen` writes and `tune` reads.
//!
//! Plain text, one position per line, so a file can be inspected, concatenated, split or
//! filtered with ordinary tools:
//! ```text
//! # any line starting with '#' is a comment (datagen notes each run's settings)
//! #game 17 1.0 143 checkmate
//! <FEN>;<score>;<result>
//! ```
//! - `FEN` is Fairy-Stockfish's FEN with pockets (it never contains `;`).
//! - `score` is the search score in centipawns from White's point of view (never a mate).
//! - `result` is the game's result from White's point of view: `1.0`, `0.5` or `0.0`.
//! - `#game <id> <result> <plies> <termination>` opens the positions of one game. Ids are
//!   unique within a file, which lets a resumed run continue with fresh ones and lets the
//!   tuner hold out whole games for validation. Files without these lines are read too:
//!   each position then counts as a game of its own.
//!
//! About 58 bytes a position (measured on generation 0's data): a million positions is a
//! 58 MB file (the binary format, `binary`, takes 32 MB).
//!
//! A line is finished once its newline is written: a reader skips an unfinished last line
//! and a resumed run cuts it off.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// A game's result from White's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameResult {
    /// Black won.
    BlackWin,
    /// Drawn.
    Draw,
    /// White won.
    WhiteWin,
}

impl GameResult {
    /// White's score: 0, 1/2 or 1.
    pub fn white_score(self) -> f64 {
        match self {
            GameResult::BlackWin => 0.0,
            GameResult::Draw => 0.5,
            GameResult::WhiteWin => 1.0,
        }
    }

    /// The result as written in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::BlackWin => "0.0",
            GameResult::Draw => "0.5",
            GameResult::WhiteWin => "1.0",
        }
    }

    /// Reads a result as written in the file (`1`, `0` and `.5` spellings accepted).
    pub fn parse(s: &str) -> Option<GameResult> {
        match s.trim() {
            "1.0" | "1" => Some(GameResult::WhiteWin),
            "0.5" | ".5" => Some(GameResult::Draw),
            "0.0" | "0" => Some(GameResult::BlackWin),
            _ => None,
        }
    }
}

/// One training position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    /// The position.
    pub fen: String,
    /// The search score, centipawns, White's view.
    pub score: i32,
    /// The result of the game it came from.
    pub result: GameResult,
}

/// The line that opens a game's positions.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameHeader {
    /// Unique within the file.
    pub id: u64,
    /// How the game ended.
    pub result: GameResult,
    /// Plies played, the random opening included.
    pub plies: u32,
    /// Why it ended (one word, such as `checkmate` or `adjudicated-win`).
    pub termination: String,
}

/// A record with the game it belongs to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The id of its `#game` line; for a position outside any game, a distinct id of its
    /// own (its line number with the top bit set).
    pub game: u64,
    /// The position, score and result.
    pub record: Record,
}

/// A malformed line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FormatError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for FormatError {}

/// Writes one game: its header line, then its positions.
pub fn write_game(w: &mut impl Write, header: &GameHeader, records: &[Record]) -> io::Result<()> {
    debug_assert!(!header.termination.contains(char::is_whitespace));
    writeln!(w, "#game {} {} {} {}", header.id, header.result.as_str(), header.plies, header.termination)?;
    for r in records {
        write_record(w, r)?;
    }
    Ok(())
}

/// Writes one position line.
pub fn write_record(w: &mut impl Write, r: &Record) -> io::Result<()> {
    debug_assert!(!r.fen.contains(';') && !r.fen.contains('\n'));
    writeln!(w, "{};{};{}", r.fen, r.score, r.result.as_str())
}

/// Parses a position line (without its newline).
pub fn parse_record(line: &str) -> Result<Record, String> {
    let mut fields = line.trim_end_matches('\r').split(';');
    let (Some(fen), Some(score), Some(result), None) = (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected FEN;score;result".to_string());
    };
    let fen = fen.trim();
    if fen.is_empty() {
        return Err("empty FEN".to_string());
    }
    let score = score.trim().parse::<i32>().map_err(|e| format!("score '{score}': {e}"))?;
    let result = GameResult::parse(result).ok_or_else(|| format!("result '{result}' is not 1.0, 0.5 or 0.0"))?;
    Ok(Record { fen: fen.to_string(), score, result })
}

/// Parses a `#game` line; None if the line is some other comment.
pub fn parse_header(line: &str) -> Option<Result<GameHeader, String>> {
    let rest = line.strip_prefix("#game ")?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let parsed = (|| {
        if f.len() != 4 {
            return Err("expected #game <id> <result> <plies> <termination>".to_string());
        }
        Ok(GameHeader {
            id: f[0].parse().map_err(|e| format!("game id '{}': {e}", f[0]))?,
            result: GameResult::parse(f[1]).ok_or_else(|| format!("result '{}'", f[1]))?,
            plies: f[2].parse().map_err(|e| format!("plies '{}': {e}", f[2]))?,
            termination: f[3].to_string(),
        })
    })();
    Some(parsed)
}

/// A line of a data file that means something: a game's header or a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Item {
    /// A `#game` line.
    Game(GameHeader),
    /// A position line.
    Position(Entry),
}

/// Reads entries one by one from any buffered source. A last line without its newline is
/// what an interrupted (or still running) writer leaves: it is skipped with a warning, as
/// a resumed run cuts it off.
pub struct Reader<R> {
    source: R,
    line: String,
    line_no: usize,
    game: Option<u64>,
    unfinished: u64,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `source`.
    pub fn new(source: R) -> Reader<R> {
        Reader { source, line: String::new(), line_no: 0, game: None, unfinished: 0 }
    }

    /// The number of the last line read (1-based).
    pub fn line_number(&self) -> usize {
        self.line_no
    }

    /// Bytes of an unfinished last line that were skipped (0 if none).
    pub fn unfinished(&self) -> u64 {
        self.unfinished
    }

    /// The next game header or position; other comments and blank lines are passed over.
    pub fn next_item(&mut self) -> Option<Result<Item, FormatError>> {
        loop {
            self.line.clear();
            let n = match self.source.read_line(&mut self.line) {
                Ok(n) => n,
                Err(e) => return Some(Err(FormatError { line: self.line_no + 1, message: e.to_string() })),
            };
            if n == 0 {
                return None;
            }
            self.line_no += 1;
            if !self.line.ends_with('\n') {
                log::warn!("text data: line {} has no newline (an unfinished write?); skipped", self.line_no);
                self.unfinished = n as u64;
                return None;
            }
            let line = self.line.trim_end_matches(['\n', '\r']);
            let err = |message| FormatError { line: self.line_no, message };
            if line.trim().is_empty() {
                continue;
            }
            if line.starts_with('#') {
                match parse_header(line) {
                    Some(Ok(h)) => {
                        self.game = Some(h.id);
                        return Some(Ok(Item::Game(h)));
                    }
                    Some(Err(e)) => return Some(Err(err(e))),
                    None => continue,
                }
            }
            let game = self.game.unwrap_or(self.line_no as u64 | 1 << 63);
            return Some(parse_record(line).map(|record| Item::Position(Entry { game, record })).map_err(err));
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Entry, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.next_item()? {
                Ok(Item::Game(_)) => continue,
                Ok(Item::Position(e)) => return Some(Ok(e)),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// Reads a whole file; the error names the file and the line.
pub fn read_path(path: &Path) -> Result<Vec<Entry>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for e in Reader::new(BufReader::with_capacity(1 << 20, file)) {
        out.push(e.map_err(|e| format!("{}: {e}", path.display()))?);
    }
    Ok(out)
}

/// What an existing data file already holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Existing {
    /// Positions in it.
    pub positions: u64,
    /// `#game` lines in it.
    pub games: u64,
    /// The smallest game id not yet used (one more than the largest).
    pub next_game: u64,
    /// Bytes of an unfinished last line that were cut off.
    pub truncated: u64,
}

/// Prepares `path` for appending: creates it if missing, cuts off an unfinished last line
/// (what an interrupted write leaves), and reports what the file already holds.
pub fn prepare_for_append(path: &Path) -> io::Result<Existing> {
    let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
    let len = file.metadata()?.len();
    let mut existing = Existing::default();
    if len == 0 {
        return Ok(existing);
    }
    // A line is finished once its newline is written; anything after the last newline is
    // the remains of an interrupted write and would corrupt the next line appended.
    let mut tail = [0u8; 1];
    file.seek(SeekFrom::End(-1))?;
    file.read_exact(&mut tail)?;
    if tail[0] != b'\n' {
        let keep = last_newline_end(&mut file, len)?;
        file.set_len(keep)?;
        existing.truncated = len - keep;
    }
    file.seek(SeekFrom::Start(0))?;
    for (i, line) in BufReader::with_capacity(1 << 20, file).lines().enumerate() {
        let line = line?;
        if let Some(h) = parse_header(&line) {
            let h = h.map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("line {}: {e}", i + 1)))?;
            existing.games += 1;
            existing.next_game = existing.next_game.max(h.id + 1);
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            existing.positions += 1;
        }
    }
    Ok(existing)
}

/// The length of the file up to and including its last newline (0 if it has none).
fn last_newline_end(file: &mut File, len: u64) -> io::Result<u64> {
    let mut end = len;
    let mut buf = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_games() -> Vec<(GameHeader, Vec<Record>)> {
        let r = |fen: &str, score, result| Record { fen: fen.to_string(), score, result };
        vec![
            (
                GameHeader { id: 3, result: GameResult::WhiteWin, plies: 95, termination: "checkmate".into() },
                vec![
                    r("8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1", 12, GameResult::WhiteWin),
                    r("r6n/2s2ks1/1fn1pppP/pppr4/5P1P/PPPP2SS/3N4/RF2RN1K[] b - - 1 12", -340, GameResult::WhiteWin),
                ],
            ),
            (
                GameHeader { id: 0, result: GameResult::Draw, plies: 200, termination: "adjudicated-draw".into() },
                vec![r("4k3/8/8/8/8/8/7R/4K3[] b - 32 0 31", 0, GameResult::Draw)],
            ),
            (GameHeader { id: 9, result: GameResult::BlackWin, plies: 40, termination: "x".into() }, vec![]),
        ]
    }

    #[test]
    fn records_round_trip_through_the_text_format() {
        let games = sample_games();
        let mut buf = Vec::new();
        writeln!(buf, "# a comment line").unwrap();
        for (h, rs) in &games {
            write_game(&mut buf, h, rs).unwrap();
        }
        let read: Vec<Entry> = Reader::new(&buf[..]).collect::<Result<_, _>>().unwrap();
        let expected: Vec<Entry> =
            games.iter().flat_map(|(h, rs)| rs.iter().map(|r| Entry { game: h.id, record: r.clone() })).collect();
        assert_eq!(read, expected);
        let headers: Vec<GameHeader> =
            String::from_utf8(buf).unwrap().lines().filter_map(parse_header).map(Result::unwrap).collect();
        assert_eq!(headers, games.iter().map(|(h, _)| h.clone()).collect::<Vec<_>>());
    }

    #[test]
    fn positions_outside_games_get_distinct_ids() {
        let text = "8/8/8/8/8/8/8/K6k[] w - - 0 50;5;0.5\n8/8/8/8/8/8/8/K6k[] b - - 0 50;-5;1\n";
        let read: Vec<Entry> = Reader::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        assert_eq!(read.len(), 2);
        assert_ne!(read[0].game, read[1].game);
        assert_eq!(read[1].record.result, GameResult::WhiteWin);
    }

    #[test]
    fn a_last_line_without_its_newline_is_skipped() {
        // "0.5" cut short would read as a loss.
        let text = "#game 1 0.5 10 x\n8/8/8/8/8/8/8/K6k[] w - - 0 50;5;0.5\n8/8/8/8/8/8/8/K6k[] b - - 0 50;-5;0";
        let mut reader = Reader::new(text.as_bytes());
        let items: Vec<Item> = std::iter::from_fn(|| reader.next_item()).collect::<Result<_, _>>().unwrap();
        assert_eq!(items.len(), 2);
        assert!(matches!(&items[0], Item::Game(h) if h.id == 1));
        assert!(matches!(&items[1], Item::Position(e) if e.game == 1 && e.record.score == 5));
        assert_eq!(reader.unfinished(), 35);
        assert_eq!(reader.line_number(), 3);
    }

    #[test]
    fn malformed_lines_are_reported_with_their_number() {
        for bad in ["fen only", "fen;12", "fen;x;1.0", "fen;1;2.0", ";1;1.0", "a;1;1.0;extra"] {
            let text = format!("#game 1 0.5 10 x\n{bad}\n");
            let e = Reader::new(text.as_bytes()).next().unwrap().unwrap_err();
            assert_eq!(e.line, 2, "{bad}");
        }
        assert!(Reader::new("#game x 1.0 3 y\n".as_bytes()).next().unwrap().is_err());
    }

    #[test]
    fn an_interrupted_write_is_cut_off_before_appending() {
        let dir = std::env::temp_dir().join(format!("sitke-format-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.txt");
        let mut text = Vec::new();
        for (h, rs) in &sample_games() {
            write_game(&mut text, h, rs).unwrap();
        }
        let whole = text.len() as u64;
        text.extend_from_slice(b"#game 10 0.5 3 x\n8/8/8/8/8/8/8/K6k[] w - -");
        std::fs::write(&path, &text).unwrap();
        // A reader skips the unfinished line: read while a writer runs, the file is whole.
        assert_eq!(read_path(&path).unwrap().len(), 3);
        let existing = prepare_for_append(&path).unwrap();
        // The unfinished position line goes; the finished header of game 10 stays.
        assert_eq!(existing.truncated, "8/8/8/8/8/8/8/K6k[] w - -".len() as u64);
        assert_eq!(existing, Existing { positions: 3, games: 4, next_game: 11, truncated: existing.truncated });
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole + "#game 10 0.5 3 x\n".len() as u64);
        let again = prepare_for_append(&path).unwrap();
        assert_eq!(again.truncated, 0);
        assert_eq!(read_path(&path).unwrap().len(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
