//! The file format: a 64-byte header (magic, version, ending, kind, symmetry, sizes,
//! checksum) and the entries, one byte per position, run-length coded.
//!
//! ```text
//!  0  magic "SITKETB\0"        8 bytes
//!  8  version                  u32 LE (2)
//! 12  kind (0 DTM, 1 DTZ), symmetry code, men, 0     4 bytes
//! 16  material name, ASCII, zero-padded              16 bytes
//! 32  entries (positions)      u64 LE
//! 40  payload length in bytes  u64 LE
//! 48  rule set                 u64 LE: its place in `Rules::ALL` (0: Fairy-Stockfish's)
//! 56  checksum                 u64 LE: FNV-1a of bytes 0..56 and the payload
//! 64  payload
//! ```
//! The entries are written White to move first, then Black to move (the index alternates
//! them), and an illegal position's entry repeats the entry before it: no legal position
//! is ever looked up there, and runs grow longer.
//!
//! Payload: a sequence of runs. A byte below 0x80 is a literal count n: n+1 entry bytes
//! follow. A byte c of 0x80 or above is a repeat: the next byte repeats (c - 0x80) + 3 times.
//! Draws and illegal positions come in long stretches, distances rarely do, so this
//! simple code is where most of the size goes.

use super::layout::Layout;
use super::material::Material;
use super::value::Stored;
use crate::board::Rules;
use std::io::Write;
use std::path::Path;

/// The file name extension.
pub const EXTENSION: &str = "stb";

/// One ending's table in memory.
#[derive(Debug)]
pub struct Table {
    /// How its positions are numbered.
    pub layout: Layout,
    /// One byte per position (see `Stored`).
    pub data: Vec<u8>,
    /// The rule set it is built under.
    pub rules: &'static Rules,
}

/// The number a header gives `rules`: its place in `Rules::ALL`.
fn rules_code(rules: &Rules) -> u64 {
    Rules::ALL.iter().position(|r| **r == *rules).expect("every rule set is in Rules::ALL") as u64
}

impl Table {
    /// The entry at `idx` (an index that is no legal position holds any value).
    #[inline]
    pub fn get(&self, idx: usize) -> Stored {
        Stored::from_byte(self.data[idx]).unwrap_or(Stored::Invalid)
    }
}
const MAGIC: &[u8; 8] = b"SITKETB\0";
const VERSION: u32 = 2;
const HEADER: usize = 64;

/// FNV-1a, 64 bits.
fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}
const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;

/// Run-length codes `data` as described in the module documentation.
pub fn compress(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 4);
    let mut lit_start = 0;
    let mut i = 0;
    let flush = |out: &mut Vec<u8>, from: usize, to: usize| {
        // A literal run's length is stored less one in 7 bits.
        for chunk in data[from..to].chunks(128) {
            out.push((chunk.len() - 1) as u8);
            out.extend_from_slice(chunk);
        }
    };
    while i < data.len() {
        let b = data[i];
        let mut run = 1;
        while i + run < data.len() && data[i + run] == b && run < 127 + 3 {
            run += 1;
        }
        if run >= 3 {
            flush(&mut out, lit_start, i);
            out.push(0x80 + (run - 3) as u8);
            out.push(b);
            i += run;
            lit_start = i;
        } else {
            i += run;
        }
    }
    flush(&mut out, lit_start, data.len());
    out
}

/// Undoes `compress`; None when the payload is malformed or does not give `len` bytes.
pub fn decompress(payload: &[u8], len: usize) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(len);
    let mut i = 0;
    while i < payload.len() {
        let c = payload[i];
        if c < 0x80 {
            let n = c as usize + 1;
            out.extend_from_slice(payload.get(i + 1..i + 1 + n)?);
            i += 1 + n;
        } else {
            let b = *payload.get(i + 1)?;
            out.resize(out.len() + (c - 0x80) as usize + 3, b);
            i += 2;
        }
        if out.len() > len {
            return None;
        }
    }
    (out.len() == len).then_some(out)
}

/// Writes `table` to `path`; returns the file's size in bytes.
pub fn write(path: &Path, table: &Table) -> std::io::Result<u64> {
    let n = table.data.len();
    let mut entries: Vec<u8> = (0..2).flat_map(|half| table.data[half..].iter().step_by(2).copied()).collect();
    let mut prev = 0;
    for b in entries.iter_mut() {
        if *b == super::value::Stored::Invalid.to_byte() {
            *b = prev;
        }
        prev = *b;
    }
    debug_assert_eq!(entries.len(), n);
    let payload = compress(&entries);
    let l = &table.layout;
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12] = if l.is_dtm() { 0 } else { 1 };
    header[13] = l.sym.code();
    header[14] = l.men() as u8;
    let name = l.material.name();
    header[16..16 + name.len()].copy_from_slice(name.as_bytes());
    header[32..40].copy_from_slice(&(table.data.len() as u64).to_le_bytes());
    header[40..48].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    header[48..56].copy_from_slice(&rules_code(table.rules).to_le_bytes());
    let sum = fnv1a(fnv1a(FNV_OFFSET, &header[..56]), &payload);
    header[56..64].copy_from_slice(&sum.to_le_bytes());
    // Write to a temporary name and rename, so a reader never sees half a file.
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(&header)?;
        f.write_all(&payload)?;
        f.flush()?;
    }
    std::fs::rename(&tmp, path)?;
    Ok((HEADER + payload.len()) as u64)
}

/// Why a table file could not be used.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file is not a table of this ending in this version; says what is wrong.
    Format(String),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "cannot read: {e}"),
            FileError::Format(s) => write!(f, "not a usable table: {s}"),
        }
    }
}

/// Reads and checks the table of canonical material `m` under `rules` from `path`.
pub fn read(path: &Path, m: &Material, rules: &'static Rules) -> Result<Table, FileError> {
    let bytes = std::fs::read(path).map_err(FileError::Io)?;
    let bad = |s: String| Err(FileError::Format(s));
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return bad("no Sitke tablebase header".into());
    }
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return bad(format!("version {version}, this build reads {VERSION}"));
    }
    let layout = Layout::new(*m);
    let name_end = bytes[16..32].iter().position(|&b| b == 0).unwrap_or(16);
    let name = String::from_utf8_lossy(&bytes[16..16 + name_end]).into_owned();
    if name != m.name() {
        return bad(format!("holds {name}, expected {}", m.name()));
    }
    if bytes[12] != (!layout.is_dtm()) as u8 || bytes[13] != layout.sym.code() || bytes[14] as usize != layout.men() {
        return bad("kind, symmetry or men differ from this build's layout".into());
    }
    if u64_at(48) != rules_code(rules) {
        let built = Rules::ALL.get(u64_at(48) as usize).map_or("unknown", |r| r.short_name());
        return bad(format!("built under the {built} rules, not the {} rules", rules.short_name()));
    }
    let entries = u64_at(32) as usize;
    let payload_len = u64_at(40) as usize;
    if entries != layout.size {
        return bad(format!("{entries} entries, expected {}", layout.size));
    }
    if bytes.len() != HEADER + payload_len {
        return bad(format!("{} bytes, the header says {}", bytes.len(), HEADER + payload_len));
    }
    let payload = &bytes[HEADER..];
    if fnv1a(fnv1a(FNV_OFFSET, &bytes[..56]), payload) != u64_at(56) {
        return bad("checksum mismatch (damaged file)".into());
    }
    let halves = decompress(payload, entries).ok_or_else(|| FileError::Format("malformed payload".into()))?;
    let mut data = vec![0u8; entries];
    let (white, black) = halves.split_at(entries / 2);
    for (i, (&w, &b)) in white.iter().zip(black).enumerate() {
        data[2 * i] = w;
        data[2 * i + 1] = b;
    }
    if data.iter().any(|&b| super::value::Stored::from_byte(b).is_none()) {
        return bad("an entry byte no writer produces".into());
    }
    Ok(Table { layout, data, rules })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_length_code_round_trips() {
        let mut rng = crate::rng::Rng::new(7);
        for len in [0usize, 1, 2, 3, 5, 127, 128, 129, 130, 131, 1000, 5000] {
            let data: Vec<u8> =
                (0..len).map(|i| if (i / 37) % 2 == 0 { 0 } else { (rng.next_u64() % 4) as u8 }).collect();
            assert_eq!(decompress(&compress(&data), len).as_deref(), Some(&data[..]), "{len}");
        }
        assert!(decompress(&[0x85], 8).is_none());
        assert!(decompress(&[0x05, 1], 6).is_none());
    }
}
