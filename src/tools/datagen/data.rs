//! One reader for both data formats: every position as a `PackedRecord` with its game id,
//! whichever format the file is in (told by its first bytes, not its name).
//!
//! A text position becomes the record the binary format would hold for it: its score
//! turned to the side to move's view, the scaled flag computed from the position. The text
//! format cannot keep the 50-move clock while counting runs (its FEN writes the counting
//! ply there), so such records read from text have a clock of 0.

use super::binary::{self, MAGIC, PackedRecord};
use super::format::{self, Entry};
use crate::board::Position;
use crate::rng::mix;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

/// The two data formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `binary`: 32 bytes a position.
    Binary,
    /// `format`: one FEN line a position.
    Text,
}

impl Format {
    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Binary => "binary",
            Format::Text => "text",
        }
    }

    /// The format of the file at `path`: binary if it starts with the binary magic (or
    /// with a part of it, as a header cut short does), text otherwise; None if the file is
    /// missing or empty.
    pub fn of_file(path: &Path) -> io::Result<Option<Format>> {
        let mut file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut head = [0u8; MAGIC.len()];
        let mut n = 0;
        while n < head.len() {
            match file.read(&mut head[n..])? {
                0 => break,
                k => n += k,
            }
        }
        Ok(match n {
            0 => None,
            _ if head[..n] == MAGIC[..n] => Some(Format::Binary),
            _ => Some(Format::Text),
        })
    }
}

/// The binary record for a text entry (its game id aside).
pub fn record_of_entry(e: &Entry) -> Result<PackedRecord, String> {
    let pos = Position::from_fen(&e.record.fen).map_err(|err| format!("{}: {err}", e.record.fen))?;
    let score_stm = e.record.score * pos.side_to_move().sign();
    PackedRecord::pack(&pos, score_stm, e.record.result).map_err(|err| format!("{}: {err}", e.record.fen))
}

/// The records of a data file of either format, each with its game id.
pub enum Records {
    /// Reading a binary file.
    Binary(binary::Records<BufReader<File>>),
    /// Reading a text file.
    Text(format::Reader<BufReader<File>>),
}

impl Iterator for Records {
    type Item = Result<(u64, PackedRecord), String>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Records::Binary(r) => Some(r.next()?.map_err(|e| e.to_string())),
            Records::Text(r) => {
                let entry = r.next()?;
                let line = r.line_number();
                Some(
                    entry
                        .map_err(|e| e.to_string())
                        .and_then(|e| record_of_entry(&e).map(|rec| (e.game, rec)))
                        .map_err(|e| format!("line {line}: {e}")),
                )
            }
        }
    }
}

impl Records {
    /// How the game of the record last returned ended: None for text files, which do not
    /// keep it.
    pub fn termination(&self) -> Option<binary::Termination> {
        match self {
            Records::Binary(r) => Some(r.termination()),
            Records::Text(_) => None,
        }
    }

    /// Where the record last returned stands in its game (`binary::Records::place`): None
    /// for text files, which do not group records by game ahead of reading them.
    pub fn place(&self) -> Option<(usize, usize)> {
        match self {
            Records::Binary(r) => Some(r.place()),
            Records::Text(_) => None,
        }
    }
}

/// Opens a data file of either format.
pub fn open(path: &Path) -> Result<Records, String> {
    let named = |e: io::Error| format!("{}: {e}", path.display());
    let format = Format::of_file(path).map_err(named)?.unwrap_or(Format::Text);
    Ok(match format {
        Format::Binary => Records::Binary(binary::open(path).map_err(named)?.records()),
        Format::Text => {
            let file = File::open(path).map_err(named)?;
            Records::Text(format::Reader::new(BufReader::with_capacity(1 << 20, file)))
        }
    })
}

/// Reads a whole data file of either format; an error names the file (and for text, the
/// line).
pub fn read_path(path: &Path) -> Result<Vec<(u64, PackedRecord)>, String> {
    open(path)?.map(|r| r.map_err(|e| format!("{}: {e}", path.display()))).collect()
}

/// How many leading records of a data file make its key.
const KEY_RECORDS: usize = 128;

/// A key that stays with a data file's contents, not with its name, its format or its
/// place in a list of files: a hash of its first 128 records and their game ids. Datagen
/// only appends, so a file that grows keeps its key once it holds that many records, and
/// its games keep their side of a validation split.
pub fn file_key(path: &Path) -> Result<u64, String> {
    let head =
        open(path)?.take(KEY_RECORDS).collect::<Result<Vec<_>, _>>().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(records_key(&head))
}

/// `file_key` of a file already read whole (`read_path`): the hash of its first 128 records.
pub fn records_key(records: &[(u64, PackedRecord)]) -> u64 {
    let mut h = mix(0x6b65_795f_6669_6c65);
    for (game, record) in records.iter().take(KEY_RECORDS) {
        h = mix(h ^ game);
        for word in record.to_bytes().chunks(8) {
            h = mix(h ^ u64::from_le_bytes(word.try_into().expect("records are whole words")));
        }
    }
    h
}

/// The key a game is split by. Every datagen run numbers its games from 0, so the id alone
/// would send game 17 of every file to the same side; the file's key keeps them apart.
pub fn game_key(file: u64, game: u64) -> u64 {
    mix(file ^ mix(game))
}
