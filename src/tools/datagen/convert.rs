//! `sitke datagen convert`: a text data file into the binary format, keeping game ids,
//! results, plies and terminations. Scores turn to the side to move's view; the scaled
//! flag is computed from each position. Positions outside any `#game` become games of
//! their own (with their distinct ids). An unfinished last line is left out, so a file
//! that datagen is still writing converts cleanly up to its last whole line.

use super::binary::{self, GameInfo, PackedRecord, Termination};
use super::data::{Format, record_of_entry};
use super::format::{self, GameHeader, Item};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;

/// What a conversion wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    /// Games written.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Bytes of an unfinished last line left out.
    pub unfinished: u64,
}

/// The game being gathered.
struct Pending {
    info: GameInfo,
    records: Vec<PackedRecord>,
}

impl Pending {
    fn from_header(h: &GameHeader) -> Pending {
        let info = GameInfo {
            id: h.id,
            positions: 0,
            result: h.result,
            termination: Termination::from_name(&h.termination),
            plies: h.plies.min(u16::MAX as u32) as u16,
            seed: 0,
        };
        Pending { info, records: Vec::new() }
    }

    fn write(mut self, w: &mut impl Write, done: &mut Converted) -> io::Result<()> {
        self.info.positions = self.records.len() as u32;
        binary::write_game(w, &self.info, &self.records)?;
        done.games += 1;
        done.positions += self.records.len() as u64;
        Ok(())
    }
}

/// Converts the text data read by `reader` into binary games written to `w` (the file
/// header included).
pub fn convert<R: BufRead>(reader: &mut format::Reader<R>, w: &mut impl Write) -> Result<Converted, String> {
    let io_err = |e: io::Error| e.to_string();
    let mut done = Converted::default();
    w.write_all(&binary::file_header()).map_err(io_err)?;
    let mut pending: Option<Pending> = None;
    while let Some(item) = reader.next_item() {
        let line = reader.line_number();
        match item.map_err(|e| e.to_string())? {
            Item::Game(h) => {
                if let Some(p) = pending.replace(Pending::from_header(&h)) {
                    p.write(w, &mut done).map_err(io_err)?;
                }
            }
            Item::Position(e) => {
                let record = record_of_entry(&e).map_err(|err| format!("line {line}: {err}"))?;
                match &mut pending {
                    Some(p) => p.records.push(record),
                    None => {
                        let header = GameHeader {
                            id: e.game,
                            result: e.record.result,
                            plies: 0,
                            termination: Termination::Unknown.name().to_string(),
                        };
                        let mut single = Pending::from_header(&header);
                        single.records.push(record);
                        single.write(w, &mut done).map_err(io_err)?;
                    }
                }
            }
        }
    }
    if let Some(p) = pending {
        p.write(w, &mut done).map_err(io_err)?;
    }
    done.unfinished = reader.unfinished();
    Ok(done)
}

/// Converts the text data file `from` into the binary file `to`, which is written under a
/// temporary name and renamed once complete (an existing `to` is replaced).
pub fn text_to_binary(from: &Path, to: &Path) -> Result<Converted, String> {
    let named = |p: &Path, e: String| format!("{}: {e}", p.display());
    if Format::of_file(from).map_err(|e| named(from, e.to_string()))? == Some(Format::Binary) {
        return Err(named(from, "already in the binary format".to_string()));
    }
    let input = File::open(from).map_err(|e| named(from, e.to_string()))?;
    let mut reader = format::Reader::new(BufReader::with_capacity(1 << 20, input));
    let mut tmp_name = to.as_os_str().to_owned();
    tmp_name.push(".part");
    let tmp = Path::new(&tmp_name);
    let out = File::create(tmp).map_err(|e| named(tmp, e.to_string()))?;
    let mut w = BufWriter::with_capacity(1 << 20, out);
    let done = convert(&mut reader, &mut w)
        .map_err(|e| named(from, e))
        .and_then(|d| w.flush().map(|_| d).map_err(|e| named(tmp, e.to_string())));
    drop(w);
    match done {
        Ok(d) => {
            std::fs::rename(tmp, to).map_err(|e| named(to, e.to_string()))?;
            Ok(d)
        }
        Err(e) => {
            let _ = std::fs::remove_file(tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::tools::datagen::data;
    use crate::tools::datagen::format::{GameResult, Record, write_game};

    /// A text file of two games (the second with a counting position, Black to move)
    /// and a position before any game.
    fn sample_text() -> Vec<u8> {
        let r = |fen: &str, score, result| Record { fen: fen.to_string(), score, result };
        let mut text =
            b"# datagen seed=1\n8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1;12;0.5\n".to_vec();
        let h = |id, result, plies, t: &str| GameHeader { id, result, plies, termination: t.to_string() };
        write_game(
            &mut text,
            &h(7, GameResult::WhiteWin, 95, "mate-found"),
            &[
                r("rrnk4/7s/fn2pppp/pppp4/4PPPP/PPPP1S2/2S3K1/2NN1RR1[Fs] w - - 0 8", 188, GameResult::WhiteWin),
                r("r6n/2s2ks1/1fn1pppP/pppr4/5P1P/PPPP2SS/3N4/RF2RN1K[] b - - 1 12", -340, GameResult::WhiteWin),
            ],
        )
        .unwrap();
        write_game(
            &mut text,
            &h(3, GameResult::Draw, 300, "counting-rule"),
            &[r("4k3/8/8/8/8/8/7R/4K3[] b - 32 5 31", 600, GameResult::Draw)],
        )
        .unwrap();
        write_game(&mut text, &h(11, GameResult::BlackWin, 70, "pgn"), &[]).unwrap();
        text
    }

    #[test]
    fn text_converts_to_binary_with_its_games_and_scores() {
        let mut out = Vec::new();
        let done = convert(&mut format::Reader::new(&sample_text()[..]), &mut out).unwrap();
        assert_eq!(done, Converted { games: 4, positions: 4, unfinished: 0 });
        let mut reader = binary::Reader::new(&out[..]).unwrap();
        let games: Vec<(GameInfo, Vec<PackedRecord>)> = std::iter::from_fn(|| reader.next_game().unwrap()).collect();
        let infos: Vec<(u64, GameResult, Termination, u16, u32)> =
            games.iter().map(|(g, rs)| (g.id, g.result, g.termination, g.plies, rs.len() as u32)).collect();
        assert_eq!(
            infos,
            [
                (2 | 1 << 63, GameResult::Draw, Termination::Unknown, 0, 1),
                (7, GameResult::WhiteWin, Termination::MateFound, 95, 2),
                (3, GameResult::Draw, Termination::Counting, 300, 1),
                (11, GameResult::BlackWin, Termination::Unknown, 70, 0),
            ]
        );
        // Scores turn to the side to move's view; the flag follows the position.
        let black = games[1].1[1];
        assert_eq!((black.score_stm(), black.score_white(), black.result_white()), (340, -340, GameResult::WhiteWin));
        assert!(games[1].1[0].in_setup() && !games[1].1[0].is_scaled());
        let counting = games[2].1[0];
        assert_eq!((counting.score_stm(), counting.counting_limit(), counting.counting_ply()), (-600, 32, 5));
        assert!(counting.is_scaled());
        assert_eq!(
            counting.to_position().unwrap().fen(),
            Position::from_fen("4k3/8/8/8/8/8/7R/4K3[] b - 32 5 1").unwrap().fen()
        );
    }

    #[test]
    fn both_formats_read_the_same_records() {
        let dir = std::env::temp_dir().join(format!("sitke-convert-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (txt, bin) = (dir.join("d.txt"), dir.join("d.bin"));
        // An unfinished last line, as a running datagen leaves, is left out.
        let mut text = sample_text();
        text.extend_from_slice(b"#game 12 0.5 3 x\n8/8/8/8/8/8/8/K6k[] w - - 0 50;5;0.");
        std::fs::write(&txt, &text).unwrap();
        let done = text_to_binary(&txt, &bin).unwrap();
        assert_eq!((done.games, done.positions, done.unfinished), (5, 4, 35));
        assert!(!dir.join("d.bin.part").exists());
        let (from_text, from_binary) = (data::read_path(&txt).unwrap(), data::read_path(&bin).unwrap());
        assert_eq!(from_text.len(), 4);
        assert_eq!(from_text, from_binary);
        assert_eq!(data::Format::of_file(&bin).unwrap(), Some(data::Format::Binary));
        assert_eq!(data::Format::of_file(&txt).unwrap(), Some(data::Format::Text));
        assert_eq!(data::Format::of_file(&dir.join("none")).unwrap(), None);
        // Converting binary again is refused; a bad line names itself.
        assert!(text_to_binary(&bin, &dir.join("again.bin")).unwrap_err().contains("already"));
        std::fs::write(&txt, "#game 1 0.5 3 x\nnot a fen;1;0.5\n").unwrap();
        assert!(text_to_binary(&txt, &bin).unwrap_err().contains("line 2"));
        assert!(data::read_path(&txt).unwrap_err().contains("line 2"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
