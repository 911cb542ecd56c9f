//! The binary training-data format that `sitke datagen` writes by default: 32 bytes a
//! position plus 32 bytes a game, about 32.2 bytes a position at datagen's 170 positions
//! a game (a million positions is 32 MB; the text format takes about 58). docs/training.md
//! has the same layout for readers outside the code.
//!
//! All numbers are little-endian.
//!
//! **File header**, 16 bytes: magic `SITKEDAT` (8), format version u16 = 1, record size
//! u16 = 32, 4 reserved zero bytes.
//!
//! Then a sequence of **games**, each a 32-byte game block followed by its N position
//! records. The **game block**:
//!
//! | bytes  | field                                                            |
//! |--------|------------------------------------------------------------------|
//! | 0..4   | magic `GAME`                                                     |
//! | 4..8   | u32 N, the position records that follow                         |
//! | 8..16  | u64 game id, unique within a file                                |
//! | 16     | u8 result: 0 Black won, 1 draw, 2 White won                      |
//! | 17     | u8 termination (`Termination`)                                   |
//! | 18..20 | u16 plies played, the random opening included (saturating)       |
//! | 20..24 | u32 the low 32 bits of the run's seed (0 for converted games)    |
//! | 24..32 | reserved, zero                                                   |
//!
//! Every record of a game belongs to the game id of its block (for a validation split by
//! whole games); records do not repeat it, which keeps them at 32 bytes. The **position
//! record**:
//!
//! | bytes  | field                                                            |
//! |--------|------------------------------------------------------------------|
//! | 0..8   | u64 occupancy: bit i = square i (a1 = 0, b1 = 1, ..., h8 = 63)    |
//! | 8..24  | the pieces on the occupied squares in ascending square order, a   |
//! |        | nibble each, low nibble first: `colour << 3 \| type` (Pawn 0,      |
//! |        | Knight 1, Khon 2, Met 3, Rook 4, King 5; White 0, Black 1); at    |
//! |        | most 32 pieces, unused nibbles zero                               |
//! | 24..26 | i16 search score, centipawns, side to move's view, within ±32000, |
//! |        | never a mate score                                                |
//! | 26     | White's hand, 27 Black's: king bit 0, met bit 1, rooks bits 2-3,  |
//! |        | khons bits 4-5, knights bits 6-7 (pawns are never in hand)        |
//! | 28     | flags: bit 0 side to move (1 = Black); bits 1-2 the game result,  |
//! |        | White's view (0 Black won, 1 draw, 2 White won); bit 3 the score  |
//! |        | is scaled by a rule the pieces do not show                        |
//! |        | (`eval::score_is_scaled`: bare king, drawish material, counting); |
//! |        | bits 4-7 zero                                                     |
//! | 29     | halfmove clock (50-move plies), saturating at 255                 |
//! | 30     | counting limit in plies, 0 while counting does not run            |
//! | 31     | counting ply (0 while counting does not run)                      |
//!
//! Bit 3 leaves out the 50-move rule: the factor it puts on the evaluation follows from the
//! halfmove clock alone (`eval::rule50_scale`), so a trainer can divide it out
//! (`PackedRecord::rule50_scale`), and flagging it would flag most positions.
//!
//! A game block is written whole, in one write, and flushed; an interrupted run leaves at
//! most an unfinished last block, which a reader skips (with a warning) and a resumed run
//! cuts off.

mod record;

pub use record::{
    MAX_PIECES, PackError, PackedRecord, Pieces, RECORD_SIZE, SCORE_LIMIT, result_code, result_from_code,
};

use super::format::{Existing, GameResult};
use crate::board::{DrawReason, Outcome};
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The first 8 bytes of a binary data file.
pub const MAGIC: [u8; 8] = *b"SITKEDAT";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the file header.
pub const FILE_HEADER_SIZE: usize = 16;
/// The first 4 bytes of a game block.
pub const GAME_MAGIC: [u8; 4] = *b"GAME";
/// Bytes of a game block.
pub const GAME_HEADER_SIZE: usize = 32;

/// Why a game ended, as a game block stores it.
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Termination {
    /// None of the others (a converted game whose text named another cause, e.g. `pgn`).
    Unknown = 0,
    /// The side to move was checkmated.
    Checkmate = 1,
    /// The search found a forced mate.
    MateFound = 2,
    /// Adjudicated a win on the score.
    AdjudicatedWin = 3,
    /// Adjudicated a draw on the score.
    AdjudicatedDraw = 4,
    /// Drawn at datagen's length limit.
    MaxLength = 5,
    /// Drawn by stalemate.
    Stalemate = 6,
    /// Drawn by threefold repetition.
    Repetition = 7,
    /// Drawn by the 50-move rule.
    FiftyMoves = 8,
    /// Drawn by the counting rule.
    Counting = 9,
    /// Drawn by promotion stalemate.
    PromotionStalemate = 10,
    /// Drawn for insufficient material.
    InsufficientMaterial = 11,
}

impl Termination {
    /// Every termination in code order.
    pub const ALL: [Termination; 12] = [
        Termination::Unknown,
        Termination::Checkmate,
        Termination::MateFound,
        Termination::AdjudicatedWin,
        Termination::AdjudicatedDraw,
        Termination::MaxLength,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::FiftyMoves,
        Termination::Counting,
        Termination::PromotionStalemate,
        Termination::InsufficientMaterial,
    ];

    /// The termination with this code.
    pub fn from_code(code: u8) -> Option<Termination> {
        Termination::ALL.get(code as usize).copied()
    }

    /// The word the text format's `#game` line uses.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Unknown => "unknown",
            Termination::Checkmate => "checkmate",
            Termination::MateFound => "mate-found",
            Termination::AdjudicatedWin => "adjudicated-win",
            Termination::AdjudicatedDraw => "adjudicated-draw",
            Termination::MaxLength => "max-length",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "threefold-repetition",
            Termination::FiftyMoves => "50-move-rule",
            Termination::Counting => "counting-rule",
            Termination::PromotionStalemate => "promotion-stalemate",
            Termination::InsufficientMaterial => "insufficient-material",
        }
    }

    /// The termination a text `#game` line names; `Unknown` for any other word.
    pub fn from_name(name: &str) -> Termination {
        Termination::ALL.into_iter().find(|t| t.name() == name).unwrap_or(Termination::Unknown)
    }

    /// How a game that the rules ended ended (None while it goes on).
    pub fn from_outcome(o: Outcome) -> Option<Termination> {
        Some(match o {
            Outcome::Ongoing => return None,
            Outcome::Checkmate { .. } => Termination::Checkmate,
            Outcome::Draw(DrawReason::Stalemate) => Termination::Stalemate,
            Outcome::Draw(DrawReason::Repetition) => Termination::Repetition,
            Outcome::Draw(DrawReason::FiftyMoves) => Termination::FiftyMoves,
            Outcome::Draw(DrawReason::Counting) => Termination::Counting,
            Outcome::Draw(DrawReason::PromotionStalemate) => Termination::PromotionStalemate,
            Outcome::Draw(DrawReason::InsufficientMaterial) => Termination::InsufficientMaterial,
        })
    }
}

/// A game block: what the records that follow it share.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameInfo {
    /// Unique within a file.
    pub id: u64,
    /// Position records that follow.
    pub positions: u32,
    /// The game's result, White's view.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Plies played, the random opening included (saturating).
    pub plies: u16,
    /// The low 32 bits of the run's seed; 0 where unknown.
    pub seed: u32,
}

impl GameInfo {
    /// The 32 bytes of the block.
    pub fn to_bytes(&self) -> [u8; GAME_HEADER_SIZE] {
        let mut b = [0u8; GAME_HEADER_SIZE];
        b[0..4].copy_from_slice(&GAME_MAGIC);
        b[4..8].copy_from_slice(&self.positions.to_le_bytes());
        b[8..16].copy_from_slice(&self.id.to_le_bytes());
        b[16] = result_code(self.result);
        b[17] = self.termination as u8;
        b[18..20].copy_from_slice(&self.plies.to_le_bytes());
        b[20..24].copy_from_slice(&self.seed.to_le_bytes());
        b
    }

    /// A block from its 32 bytes, checked.
    pub fn from_bytes(b: &[u8; GAME_HEADER_SIZE]) -> Result<GameInfo, String> {
        if b[0..4] != GAME_MAGIC {
            return Err("no game block here (magic is not GAME)".to_string());
        }
        if b[24..32].iter().any(|&x| x != 0) {
            return Err("reserved bytes of a game block are not zero".to_string());
        }
        Ok(GameInfo {
            positions: u32::from_le_bytes(b[4..8].try_into().expect("4 bytes")),
            id: u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")),
            result: result_from_code(b[16]).ok_or_else(|| format!("result code {}", b[16]))?,
            termination: Termination::from_code(b[17]).ok_or_else(|| format!("termination code {}", b[17]))?,
            plies: u16::from_le_bytes([b[18], b[19]]),
            seed: u32::from_le_bytes(b[20..24].try_into().expect("4 bytes")),
        })
    }
}

/// The 16 bytes that open a binary data file.
pub fn file_header() -> [u8; FILE_HEADER_SIZE] {
    let mut b = [0u8; FILE_HEADER_SIZE];
    b[0..8].copy_from_slice(&MAGIC);
    b[8..10].copy_from_slice(&VERSION.to_le_bytes());
    b[10..12].copy_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
    b
}

/// Checks a file header: magic, version, record size.
pub fn check_file_header(b: &[u8; FILE_HEADER_SIZE]) -> Result<(), String> {
    if b[0..8] != MAGIC {
        return Err("not a Sitke binary data file (no SITKEDAT magic)".to_string());
    }
    let version = u16::from_le_bytes([b[8], b[9]]);
    let size = u16::from_le_bytes([b[10], b[11]]);
    if version != VERSION || size as usize != RECORD_SIZE {
        return Err(format!(
            "format version {version} with {size}-byte records; this build reads version {VERSION}, {RECORD_SIZE} bytes"
        ));
    }
    Ok(())
}

/// Writes one game, its block and its records, in a single write.
pub fn write_game(w: &mut impl Write, info: &GameInfo, records: &[PackedRecord]) -> io::Result<()> {
    assert_eq!(info.positions as usize, records.len(), "a game block counts its records");
    let mut buf = Vec::with_capacity(GAME_HEADER_SIZE + RECORD_SIZE * records.len());
    buf.extend_from_slice(&info.to_bytes());
    for r in records {
        buf.extend_from_slice(&r.to_bytes());
    }
    w.write_all(&buf)
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Reads as many bytes as there are, up to the buffer's length; returns how many.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads a binary data file game by game from any source.
pub struct Reader<R> {
    source: R,
    offset: u64,
    truncated: u64,
    buf: Vec<u8>,
}

impl<R: Read> Reader<R> {
    /// A reader over `source`, whose file header it checks.
    pub fn new(mut source: R) -> io::Result<Reader<R>> {
        let mut header = [0u8; FILE_HEADER_SIZE];
        let n = read_up_to(&mut source, &mut header)?;
        if n < FILE_HEADER_SIZE {
            return Err(invalid(format!("{n} bytes: too short for the file header")));
        }
        check_file_header(&header).map_err(invalid)?;
        Ok(Reader { source, offset: FILE_HEADER_SIZE as u64, truncated: 0, buf: Vec::new() })
    }

    /// The next whole game, or None at the end. An unfinished last game (what an
    /// interrupted or still running writer leaves) ends the file with a warning in the log,
    /// and `truncated` tells its bytes.
    pub fn next_game(&mut self) -> io::Result<Option<(GameInfo, Vec<PackedRecord>)>> {
        let mut records = Vec::new();
        Ok(self.next_game_into(&mut records)?.map(|info| (info, records)))
    }

    /// Like `next_game`, reading the records into `records` (cleared first).
    pub fn next_game_into(&mut self, records: &mut Vec<PackedRecord>) -> io::Result<Option<GameInfo>> {
        records.clear();
        if self.truncated > 0 {
            return Ok(None);
        }
        let mut head = [0u8; GAME_HEADER_SIZE];
        let n = read_up_to(&mut self.source, &mut head)?;
        if n == 0 {
            return Ok(None);
        }
        if n < GAME_HEADER_SIZE {
            return Ok(self.unfinished(n as u64));
        }
        let at = self.offset;
        let info = GameInfo::from_bytes(&head).map_err(|e| invalid(format!("byte {at}: {e}")))?;
        let len = info.positions as usize * RECORD_SIZE;
        self.buf.resize(len, 0);
        let got = read_up_to(&mut self.source, &mut self.buf)?;
        if got < len {
            return Ok(self.unfinished((GAME_HEADER_SIZE + got) as u64));
        }
        records.reserve(info.positions as usize);
        for (i, chunk) in self.buf.chunks_exact(RECORD_SIZE).enumerate() {
            let r = PackedRecord::from_bytes(chunk.try_into().expect("32 bytes")).map_err(|e| {
                invalid(format!(
                    "byte {}: game {} record {i}: {e}",
                    at + (GAME_HEADER_SIZE + i * RECORD_SIZE) as u64,
                    info.id
                ))
            })?;
            records.push(r);
        }
        self.offset += (GAME_HEADER_SIZE + len) as u64;
        Ok(Some(info))
    }

    fn unfinished(&mut self, bytes: u64) -> Option<GameInfo> {
        log::warn!("binary data: an unfinished game block of {bytes} bytes at byte {} is skipped", self.offset);
        self.truncated = bytes;
        None
    }

    /// Bytes of an unfinished last game block that were skipped (0 if none).
    pub fn truncated(&self) -> u64 {
        self.truncated
    }

    /// The records one by one, each with its game id.
    pub fn records(self) -> Records<R> {
        Records { reader: self, game: 0, termination: Termination::Unknown, records: Vec::new(), next: 0 }
    }
}

/// The records of a binary data file with their game ids (see `Reader::records`).
pub struct Records<R> {
    reader: Reader<R>,
    game: u64,
    termination: Termination,
    records: Vec<PackedRecord>,
    next: usize,
}

impl<R> Records<R> {
    /// How the game of the record last returned ended.
    pub fn termination(&self) -> Termination {
        self.termination
    }

    /// Where the record last returned stands in its game: its index among the game's
    /// records, and how many the game has.
    pub fn place(&self) -> (usize, usize) {
        (self.next.saturating_sub(1), self.records.len())
    }
}

impl<R: Read> Iterator for Records<R> {
    type Item = io::Result<(u64, PackedRecord)>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.next == self.records.len() {
            match self.reader.next_game_into(&mut self.records) {
                Ok(Some(info)) => (self.game, self.termination, self.next) = (info.id, info.termination, 0),
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            }
        }
        self.next += 1;
        Some(Ok((self.game, self.records[self.next - 1])))
    }
}

/// Opens a binary data file for reading.
pub fn open(path: &Path) -> io::Result<Reader<BufReader<File>>> {
    Reader::new(BufReader::with_capacity(1 << 20, File::open(path)?))
}

/// A whole binary data file in memory: its games, and all records in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataFile {
    /// The game blocks in file order; game i owns the next `positions` records.
    pub games: Vec<GameInfo>,
    /// Every record, game after game.
    pub records: Vec<PackedRecord>,
}

impl DataFile {
    /// Each record with its game id.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &PackedRecord)> + '_ {
        let ids = self.games.iter().flat_map(|g| std::iter::repeat_n(g.id, g.positions as usize));
        ids.zip(&self.records)
    }
}

/// Reads a whole binary data file (an unfinished last game is skipped).
pub fn read_file(path: &Path) -> io::Result<DataFile> {
    let mut reader = open(path)?;
    let mut data = DataFile::default();
    let mut records = Vec::new();
    while let Some(info) = reader.next_game_into(&mut records)? {
        data.games.push(info);
        data.records.extend_from_slice(&records);
    }
    Ok(data)
}

/// Every record of a binary data file, in file order (without game ids: see `read_file`
/// or `Reader::records` for those).
pub fn read_all(path: &Path) -> io::Result<Vec<PackedRecord>> {
    Ok(read_file(path)?.records)
}

/// Prepares `path` for appending games: creates it with its header if missing or empty,
/// checks the header of an existing file, cuts off an unfinished last game block (what an
/// interrupted write leaves), and reports what the file holds. Only the game blocks are
/// read, so this is quick on large files.
pub fn prepare_for_append(path: &Path) -> io::Result<Existing> {
    let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
    let len = file.metadata()?.len();
    let mut existing = Existing::default();
    let mut header = [0u8; FILE_HEADER_SIZE];
    let n = read_up_to(&mut file, &mut header)?;
    if n < FILE_HEADER_SIZE {
        // Empty, or a header cut short by an interrupted first write.
        if header[..n] != file_header()[..n] {
            return Err(invalid("not a Sitke binary data file".to_string()));
        }
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&file_header())?;
        existing.truncated = n as u64;
        return Ok(existing);
    }
    check_file_header(&header).map_err(invalid)?;
    let mut offset = FILE_HEADER_SIZE as u64;
    let mut head = [0u8; GAME_HEADER_SIZE];
    while offset < len {
        let end = if len - offset >= GAME_HEADER_SIZE as u64 {
            file.seek(SeekFrom::Start(offset))?;
            file.read_exact(&mut head)?;
            let info = GameInfo::from_bytes(&head).map_err(|e| invalid(format!("byte {offset}: {e}")))?;
            let end = offset + (GAME_HEADER_SIZE + info.positions as usize * RECORD_SIZE) as u64;
            if end <= len {
                existing.games += 1;
                existing.positions += info.positions as u64;
                existing.next_game = existing.next_game.max(info.id.saturating_add(1));
            }
            end
        } else {
            u64::MAX
        };
        if end > len {
            file.set_len(offset)?;
            existing.truncated = len - offset;
            break;
        }
        offset = end;
    }
    Ok(existing)
}

#[cfg(test)]
mod tests;
