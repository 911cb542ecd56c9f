use super::*;
use crate::board::{Color, Piece, PieceType, Position, Square};
use crate::eval;
use crate::rng::Rng;

/// Every position of random games (random placements, then random moves), with whether the
/// move that led to it was a promotion.
fn random_game_positions(seed: u64, games: usize) -> Vec<(Position, bool)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_over() {
                break;
            }
            let m = *rng.pick(moves.as_slice());
            pos.do_move(m);
            out.push((Position::from_setup(&pos.setup()).expect("a game position sets up"), m.is_promotion()));
        }
    }
    out
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sitke-binary-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn records_round_trip_through_bytes_and_positions() {
    let results = [GameResult::BlackWin, GameResult::Draw, GameResult::WhiteWin];
    let (mut setup, mut promoted, mut counting, mut clock_while_counting, mut scaled) = (0, 0, 0, 0, 0);
    for (i, (pos, promotion)) in random_game_positions(3, 150).iter().enumerate() {
        let score = (i as i32 * 7919) % 4001 - 2000;
        let result = results[i % 3];
        let r = PackedRecord::pack(pos, score, result).unwrap();
        let again = PackedRecord::from_bytes(&r.to_bytes()).unwrap();
        assert_eq!(again, r);
        let back = r.to_position().unwrap();
        // The full-move number is not stored; everything else is.
        let strip = |fen: String| fen.rsplit_once(' ').unwrap().0.to_string();
        assert_eq!(strip(back.fen()), strip(pos.fen()));
        assert_eq!(back.key(), pos.key());
        assert_eq!(
            (back.rule50(), back.counting_limit(), back.counting_ply()),
            (pos.rule50(), pos.counting_limit(), pos.counting_ply()),
            "{}",
            pos.fen()
        );
        assert_eq!((r.score_stm(), r.score_white()), (score, score * pos.side_to_move().sign()));
        assert_eq!((r.side_to_move(), r.result_white()), (pos.side_to_move(), result));
        assert_eq!(r.is_scaled(), eval::score_is_scaled(pos));
        let expected: Vec<(Square, Piece)> = pos.occupied().map(|sq| (sq, pos.piece_on(sq).unwrap())).collect();
        assert_eq!(r.pieces().collect::<Vec<_>>(), expected);
        assert_eq!(r.occupancy(), pos.occupied());
        for c in Color::ALL {
            for pt in PieceType::ALL {
                assert_eq!(r.hand_count(c, pt), pos.hand_count(c, pt));
            }
        }
        setup += pos.in_setup() as u32;
        promoted += *promotion as u32;
        counting += (pos.counting_limit() > 0) as u32;
        clock_while_counting += (pos.counting_limit() > 0 && pos.rule50() > 0) as u32;
        scaled += r.is_scaled() as u32;
    }
    assert!(
        setup > 1000 && promoted > 20 && counting > 100 && clock_while_counting > 50 && scaled > 200,
        "setup {setup}, promoted {promoted}, counting {counting} ({clock_while_counting} with a clock), scaled {scaled}"
    );
}

#[test]
fn the_layout_is_the_documented_one() {
    // White king e1 (square 4), rook h2 (15); Black king e8 (60); Black to move, counting
    // 5 plies of 32; Black's score -250; White won.
    let pos = Position::from_fen("4k3/8/8/8/8/8/7R/4K3[] b - 32 5 31").unwrap();
    let b = PackedRecord::pack(&pos, -250, GameResult::WhiteWin).unwrap().to_bytes();
    let mut expected = [0u8; 32];
    expected[0..8].copy_from_slice(&(1u64 << 4 | 1 << 15 | 1 << 60).to_le_bytes());
    expected[8] = 0x45; // king (5), then rook (4) in the high nibble
    expected[9] = 0x0d; // Black (8) king (5)
    expected[24..26].copy_from_slice(&(-250i16).to_le_bytes());
    expected[28] = 1 | 2 << 1 | 1 << 3; // Black to move, White won, scaled (bare king)
    expected[30] = 32;
    expected[31] = 5;
    assert_eq!(b, expected);
    // The start: every hand holds king, met, two rooks, two khons and two knights.
    let start = PackedRecord::pack(&Position::startpos(), 40_000, GameResult::Draw).unwrap();
    let b = start.to_bytes();
    // Knights 2 (bits 6-7), khons 2 (4-5), rooks 2 (2-3), met (1), king (0).
    let hand = 2 << 6 | 2 << 4 | 2 << 2 | 1 << 1 | 1;
    assert_eq!((b[26], b[27]), (hand, hand));
    assert_eq!(b[28], 1 << 1, "White to move, a draw, not scaled");
    assert_eq!(start.score_stm(), SCORE_LIMIT, "scores are clamped");
    assert_eq!(b[29], 0);
    assert_eq!(start.with_result(GameResult::BlackWin).to_bytes()[28], 0);
    // Game blocks.
    let info = GameInfo {
        id: 0x0102_0304_0506_0708,
        positions: 3,
        result: GameResult::BlackWin,
        termination: Termination::Counting,
        plies: 517,
        seed: 2001,
    };
    let b = info.to_bytes();
    assert_eq!(&b[0..4], b"GAME");
    assert_eq!(b[4..8], [3, 0, 0, 0]);
    assert_eq!(b[8..16], [8, 7, 6, 5, 4, 3, 2, 1]);
    assert_eq!((b[16], b[17]), (0, 9));
    assert_eq!(b[18..20], 517u16.to_le_bytes());
    assert_eq!(b[20..24], 2001u32.to_le_bytes());
    assert_eq!(b[24..32], [0; 8]);
    assert_eq!(GameInfo::from_bytes(&b), Ok(info));
    assert_eq!(file_header(), *b"SITKEDAT\x01\x00\x20\x00\x00\x00\x00\x00");
}

#[test]
fn bad_records_and_blocks_are_refused() {
    let good = PackedRecord::pack(&Position::startpos(), 0, GameResult::Draw).unwrap().to_bytes();
    assert!(PackedRecord::from_bytes(&good).is_ok());
    let bad = |f: &dyn Fn(&mut [u8; 32])| {
        let mut b = good;
        f(&mut b);
        PackedRecord::from_bytes(&b).is_err()
    };
    assert!(bad(&|b| b[8] = 0x66), "nibble 6 names no piece");
    assert!(bad(&|b| b[23] = 0x10), "bits in unused nibbles");
    assert!(bad(&|b| b[26] &= !1), "White has no king");
    assert!(bad(&|b| b[28] = 3 << 1), "result code 3");
    assert!(bad(&|b| b[28] = 1 << 5), "unknown flag");
    assert!(bad(&|b| b[31] = 4), "counting ply without a count");
    assert!(bad(&|b| b[24..26].copy_from_slice(&32_001i16.to_le_bytes())), "score out of range");
    let mut block = GameInfo {
        id: 1,
        positions: 0,
        result: GameResult::Draw,
        termination: Termination::MaxLength,
        plies: 1,
        seed: 0,
    }
    .to_bytes();
    block[17] = 12;
    assert!(GameInfo::from_bytes(&block).is_err());
    // Positions that do not fit.
    let crowded = Position::from_fen("8/8/8/8/8/8/8/8[KFRRRRSSNNkfrrssnn] w - - 0 1").unwrap();
    assert!(matches!(
        PackedRecord::pack(&crowded, 0, GameResult::Draw),
        Err(PackError::HandTooLarge { color: Color::White, piece: PieceType::Rook, count: 4 })
    ));
    // Termination names are the text format's words.
    for t in Termination::ALL {
        assert_eq!(Termination::from_name(t.name()), t);
        assert_eq!(Termination::from_code(t as u8), Some(t));
    }
    assert_eq!(Termination::from_name("pgn"), Termination::Unknown);
}

/// Three games: ids 4, 0, 9 (the last with no positions).
fn sample_games() -> Vec<(GameInfo, Vec<PackedRecord>)> {
    let positions = random_game_positions(8, 2);
    let mut games = Vec::new();
    for (id, range) in [(4u64, 0..30), (0, 30..45), (9, 45..45)] {
        let result = if id == 4 { GameResult::WhiteWin } else { GameResult::Draw };
        let records: Vec<PackedRecord> =
            positions[range].iter().map(|(p, _)| PackedRecord::pack(p, id as i32 * 10, result).unwrap()).collect();
        let info = GameInfo {
            id,
            positions: records.len() as u32,
            result,
            termination: Termination::AdjudicatedWin,
            plies: 80,
            seed: 5,
        };
        games.push((info, records));
    }
    games
}

fn write_sample(path: &Path) -> Vec<(GameInfo, Vec<PackedRecord>)> {
    let games = sample_games();
    let mut bytes = file_header().to_vec();
    for (info, records) in &games {
        write_game(&mut bytes, info, records).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
    games
}

#[test]
fn files_read_back_game_by_game_and_record_by_record() {
    let dir = temp_dir("read");
    let path = dir.join("data.bin");
    let games = write_sample(&path);
    let expected: Vec<(u64, PackedRecord)> = games.iter().flat_map(|(g, rs)| rs.iter().map(|r| (g.id, *r))).collect();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 16 + 3 * 32 + 45 * 32);
    let file = read_file(&path).unwrap();
    assert_eq!(file.games, games.iter().map(|(g, _)| *g).collect::<Vec<_>>());
    assert_eq!(file.iter().map(|(id, r)| (id, *r)).collect::<Vec<_>>(), expected);
    assert_eq!(read_all(&path).unwrap(), expected.iter().map(|(_, r)| *r).collect::<Vec<_>>());
    let streamed: Vec<(u64, PackedRecord)> = open(&path).unwrap().records().collect::<io::Result<_>>().unwrap();
    assert_eq!(streamed, expected);
    // Not a binary data file, or another version.
    std::fs::write(&path, "#game 1 0.5 3 x\n").unwrap();
    assert!(open(&path).is_err());
    let mut header = file_header();
    header[8] = 2;
    std::fs::write(&path, header).unwrap();
    assert!(open(&path).err().unwrap().to_string().contains("version 2"));
    // A broken block in the middle is an error, not an end.
    write_sample(&path);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[16 + 32 + 30 * 32] = b'X';
    std::fs::write(&path, &bytes).unwrap();
    assert!(read_file(&path).unwrap_err().to_string().contains("GAME"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unfinished_last_game_is_skipped_and_cut_off_before_appending() {
    let dir = temp_dir("resume");
    let path = dir.join("data.bin");
    let games = write_sample(&path);
    let whole = std::fs::metadata(&path).unwrap().len();
    // Cut inside the records of a fourth game, then inside its block.
    let (extra, records) = (GameInfo { id: 20, positions: 30, ..games[0].0 }, &games[0].1);
    for cut in [32 + 5 * 32 + 7, 20] {
        let mut bytes = std::fs::read(&path).unwrap()[..whole as usize].to_vec();
        write_game(&mut bytes, &extra, records).unwrap();
        bytes.truncate(whole as usize + cut);
        std::fs::write(&path, &bytes).unwrap();
        let mut reader = open(&path).unwrap();
        let mut n = 0;
        while reader.next_game().unwrap().is_some() {
            n += 1;
        }
        assert_eq!((n, reader.truncated()), (3, cut as u64));
        assert_eq!(read_all(&path).unwrap().len(), 45);
        let existing = prepare_for_append(&path).unwrap();
        assert_eq!(existing, Existing { positions: 45, games: 3, next_game: 10, truncated: cut as u64 });
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole);
    }
    // A whole file is left alone; appending continues it.
    assert_eq!(prepare_for_append(&path).unwrap().truncated, 0);
    let mut f = OpenOptions::new().append(true).open(&path).unwrap();
    write_game(&mut f, &extra, records).unwrap();
    drop(f);
    assert_eq!(prepare_for_append(&path).unwrap(), Existing { positions: 75, games: 4, next_game: 21, truncated: 0 });
    // A new file gets its header; a header cut short is rewritten; a text file is refused.
    let fresh = dir.join("fresh.bin");
    assert_eq!(prepare_for_append(&fresh).unwrap(), Existing::default());
    assert_eq!(std::fs::read(&fresh).unwrap(), file_header());
    std::fs::write(&fresh, &file_header()[..5]).unwrap();
    assert_eq!(prepare_for_append(&fresh).unwrap().truncated, 5);
    assert_eq!(read_file(&fresh).unwrap(), DataFile::default());
    let text = dir.join("data.txt");
    std::fs::write(&text, "#game 1 0.5 3 x\n").unwrap();
    assert!(prepare_for_append(&text).is_err());
    assert_eq!(std::fs::read(&text).unwrap(), b"#game 1 0.5 3 x\n", "a refused file is untouched");
    std::fs::remove_dir_all(&dir).unwrap();
}
