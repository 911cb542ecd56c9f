//! Reads data files (binary or text, through `datagen::data`) into a training and a
//! validation set.
//!
//! A position is left out when its score is scaled by a rule the net cannot see (the
//! record's flag: bare king, drawish material, counting) or when it exceeds the score cap.
//! The 50-move rule's factor depends on the halfmove clock alone, which the net does not
//! see either; it is divided out of the score (unless asked not to), so the net learns the
//! unscaled evaluation and the engine can scale around it as it does around the classical
//! one.

use super::data::{Dataset, is_validation};
use crate::board::{Color, PieceType};
use crate::tools::datagen::binary::{PackedRecord, Termination, result_code};
use crate::tools::datagen::data;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Which positions to keep and where they go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadOptions {
    /// Leave out positions whose (unscaled) score exceeds this in magnitude.
    pub max_score: Option<i32>,
    /// Share of the games held out for validation.
    pub validation: f64,
    /// Seed of the split.
    pub seed: u64,
    /// Keep only the first this many positions that pass the filters.
    pub limit: Option<usize>,
    /// Divide the 50-move rule's factor out of the scores.
    pub unscale_rule50: bool,
}

/// What loading found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadCounts {
    /// Records read.
    pub read: u64,
    /// Left out: score scaled by a rule the net cannot see.
    pub scaled: u64,
    /// Left out: beyond the score cap.
    pub over_cap: u64,
    /// Kept, by the game's result for White: Black won, draw, White won.
    pub results: [u64; 3],
    /// Kept, of games drawn by the 50-move rule or the count.
    pub rule_draws: u64,
}

/// The score to learn from a record, from the side to move's view.
pub fn target_score(r: &PackedRecord, unscale_rule50: bool) -> i32 {
    let score = r.score_stm();
    if unscale_rule50 { (score as f64 / r.rule50_scale()).round() as i32 } else { score }
}

/// Sorts one record into `train` or `validation`; false if the filters leave it out.
/// `rule_draw`: where the 50-move rule or the count drew the record's game, how far through
/// the game the record came (`Meta::rule_draw`).
pub fn add_record(
    r: &PackedRecord,
    game: u64,
    rule_draw: Option<u8>,
    o: &LoadOptions,
    counts: &mut LoadCounts,
    train: &mut Dataset,
    validation: &mut Dataset,
) -> bool {
    counts.read += 1;
    if r.is_scaled() {
        counts.scaled += 1;
        return false;
    }
    let score = target_score(r, o.unscale_rule50);
    if o.max_score.is_some_and(|m| score.abs() > m) {
        counts.over_cap += 1;
        return false;
    }
    let mut hands = [[0u8; 6]; 2];
    for c in Color::ALL {
        for pt in PieceType::ALL {
            hands[c.index()][pt.index()] = r.hand_count(c, pt);
        }
    }
    let result = result_code(r.result_white());
    counts.results[result as usize] += 1;
    counts.rule_draws += rule_draw.is_some() as u64;
    let set = if is_validation(game, o.seed, o.validation) { validation } else { train };
    let score = score.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16;
    set.push(r.pieces(), &hands, r.side_to_move(), score, result, rule_draw);
    true
}

/// Record `index` of a game of `records` as a share of the way through it, 0 to 255.
pub fn progress(index: usize, records: usize) -> u8 {
    if records <= 1 { 255 } else { (index.min(records - 1) * 255 / (records - 1)) as u8 }
}

/// Reads every file, logging a line per file and a summary.
pub fn load(paths: &[PathBuf], o: &LoadOptions, log: &mut dyn Write) -> Result<(Dataset, Dataset), String> {
    let begun = Instant::now();
    let (mut train, mut validation) = (Dataset::new(), Dataset::new());
    let mut counts = LoadCounts::default();
    let mut kept = 0usize;
    'files: for path in paths {
        let before = counts.read;
        let file = data::file_key(path)?;
        let mut records = data::open(path)?;
        while let Some(item) = records.next() {
            let (game, record) = item.map_err(|e| format!("{}: {e}", path.display()))?;
            let key = data::game_key(file, game);
            let rule_draw = matches!(records.termination(), Some(Termination::FiftyMoves | Termination::Counting))
                .then(|| records.place().map_or(255, |(i, n)| progress(i, n)));
            if add_record(&record, key, rule_draw, o, &mut counts, &mut train, &mut validation) {
                kept += 1;
                if o.limit.is_some_and(|l| kept >= l) {
                    let _ = writeln!(
                        log,
                        "train: {}: {} records (stopped at --limit)",
                        path.display(),
                        counts.read - before
                    );
                    break 'files;
                }
            }
        }
        let _ = writeln!(log, "train: {}: {} records", path.display(), counts.read - before);
    }
    let n = (counts.results.iter().sum::<u64>()).max(1) as f64;
    let _ = writeln!(
        log,
        "train: kept {} positions, {} of them held out for validation, in {:.1}s; left out {} with a scaled score and \
         {} over the cap; results White wins {:.1}%, draws {:.1}%, Black wins {:.1}%; {:.1}% from games drawn by \
         the 50-move rule or the count",
        train.len() + validation.len(),
        validation.len(),
        begun.elapsed().as_secs_f64(),
        counts.scaled,
        counts.over_cap,
        100.0 * counts.results[2] as f64 / n,
        100.0 * counts.results[1] as f64 / n,
        100.0 * counts.results[0] as f64 / n,
        100.0 * counts.rule_draws as f64 / n,
    );
    Ok((train, validation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::tools::datagen::binary::{GameInfo, file_header, write_game};
    use crate::tools::datagen::format::GameResult;
    use crate::tools::tune::random_positions;

    /// A binary file of 20 games of 10 positions each; position j of game g scores
    /// 10 j - 50 (side to move's view), and every seventh record is marked scaled (as well
    /// as those the evaluation scales). Returns the records.
    fn write_file(path: &std::path::Path, seed: u64) -> Vec<PackedRecord> {
        write_file_ending(path, seed, |_| Termination::Checkmate)
    }

    /// `write_file` with game g ended by `termination(g)`.
    fn write_file_ending(
        path: &std::path::Path,
        seed: u64,
        termination: impl Fn(u64) -> Termination,
    ) -> Vec<PackedRecord> {
        let positions = random_positions(seed, 200);
        let mut all = Vec::new();
        let mut bytes = file_header().to_vec();
        for g in 0..20u64 {
            let records: Vec<PackedRecord> = (0..10)
                .map(|j| {
                    let pos = &positions[g as usize * 10 + j];
                    let r = PackedRecord::pack(pos, 10 * j as i32 - 50, GameResult::WhiteWin).unwrap();
                    if (g as usize * 10 + j).is_multiple_of(7) { force_scaled(r) } else { r }
                })
                .collect();
            let info = GameInfo {
                id: g,
                positions: 10,
                result: GameResult::WhiteWin,
                termination: termination(g),
                plies: 80,
                seed: 0,
            };
            write_game(&mut bytes, &info, &records).unwrap();
            all.extend(records);
        }
        std::fs::write(path, bytes).unwrap();
        all
    }

    /// The record with its scaled flag set (byte 28, bit 3 of the documented layout).
    fn force_scaled(r: PackedRecord) -> PackedRecord {
        let mut b = r.to_bytes();
        b[28] |= 1 << 3;
        PackedRecord::from_bytes(&b).unwrap()
    }

    #[test]
    fn a_data_file_loads_filtered_and_split_by_game() {
        let path = std::env::temp_dir().join(format!("sitke-train-load-{}.bin", std::process::id()));
        let records = write_file(&path, 77);
        let o = LoadOptions { max_score: Some(30), validation: 0.3, seed: 4, limit: None, unscale_rule50: false };
        let (train, val) = load(std::slice::from_ref(&path), &o, &mut Vec::new()).unwrap();
        // Scores -50..40: |score| <= 30 keeps j = 2..=8, 7 of 10; the scaled ones go too.
        let expected: Vec<usize> =
            (0..200).filter(|&i| !records[i].is_scaled() && (2..=8).contains(&(i % 10))).collect();
        assert!(expected.len() < 120 && expected.len() > 80);
        assert_eq!(train.len() + val.len(), expected.len());
        assert!(!train.is_empty() && !val.is_empty());
        // Whole games go one way: the validation set's size is a multiple of a game's kept
        // positions only if the split is by game, so check game by game instead.
        let mut seen = (0, 0);
        let file = data::file_key(&path).unwrap();
        for g in 0..20u64 {
            let in_val = is_validation(data::game_key(file, g), 4, 0.3);
            let kept: Vec<usize> = expected.iter().copied().filter(|i| i / 10 == g as usize).collect();
            for &i in &kept {
                let (set, k) = if in_val { (&val, &mut seen.1) } else { (&train, &mut seen.0) };
                let m = set.meta(*k);
                assert_eq!(m.score as i32, 10 * (i % 10) as i32 - 50);
                assert_eq!(m.stm, records[i].side_to_move());
                assert_eq!(m.result, if m.stm == Color::White { 2 } else { 0 });
                *k += 1;
            }
        }
        assert_eq!(seen, (train.len(), val.len()));
        let limited = LoadOptions { limit: Some(25), ..o };
        let (t, v) = load(std::slice::from_ref(&path), &limited, &mut Vec::new()).unwrap();
        assert_eq!(t.len() + v.len(), 25);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn a_files_split_does_not_depend_on_its_place_in_the_list() {
        let dir = std::env::temp_dir().join(format!("sitke-train-split-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
        write_file(&a, 77);
        write_file(&b, 78);
        // The two files number their games alike, as every datagen run does.
        let o = LoadOptions { max_score: None, validation: 0.5, seed: 4, limit: None, unscale_rule50: false };
        let scores = |d: &Dataset| -> Vec<(i16, Vec<u16>)> {
            let mut v: Vec<_> = (0..d.len()).map(|i| (d.meta(i).score, d.white_features(i).to_vec())).collect();
            v.sort();
            v
        };
        let (t1, v1) = load(&[a.clone(), b.clone()], &o, &mut Vec::new()).unwrap();
        let (t2, v2) = load(&[b.clone(), a.clone()], &o, &mut Vec::new()).unwrap();
        assert_eq!((scores(&t1), scores(&v1)), (scores(&t2), scores(&v2)));
        // Game g of one file and game g of the other are split independently.
        let (ka, kb) = (data::file_key(&a).unwrap(), data::file_key(&b).unwrap());
        assert_ne!(ka, kb);
        // A file read whole (as `sitke tune` reads it) has the same key.
        assert_eq!(data::records_key(&data::read_path(&a).unwrap()), ka);
        let side = |k: u64| (0..20u64).map(|g| is_validation(data::game_key(k, g), 4, 0.5)).collect::<Vec<_>>();
        assert_ne!(side(ka), side(kb));
        // A file that grows keeps its key: datagen appends.
        let grown = dir.join("grown.bin");
        let mut bytes = std::fs::read(&a).unwrap();
        bytes.extend_from_slice(&std::fs::read(&b).unwrap()[file_header().len()..]);
        std::fs::write(&grown, bytes).unwrap();
        assert_eq!(data::read_path(&grown).unwrap().len(), 400);
        assert_eq!(data::file_key(&grown).unwrap(), ka);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn positions_of_games_drawn_by_rule_are_marked() {
        let path = std::env::temp_dir().join(format!("sitke-train-rule-draw-{}.bin", std::process::id()));
        let ending = |g: u64| match g % 4 {
            0 => Termination::FiftyMoves,
            1 => Termination::Counting,
            2 => Termination::Repetition,
            _ => Termination::Checkmate,
        };
        let records = write_file_ending(&path, 5, ending);
        let o = LoadOptions { max_score: None, validation: 0.0, seed: 4, limit: None, unscale_rule50: false };
        let (train, _) = load(std::slice::from_ref(&path), &o, &mut Vec::new()).unwrap();
        let kept: Vec<usize> = (0..200).filter(|&i| !records[i].is_scaled()).collect();
        assert_eq!(train.len(), kept.len());
        let marked = |i: usize| i / 10 % 4 < 2;
        assert!(kept.iter().any(|&i| marked(i)) && kept.iter().any(|&i| !marked(i)));
        for (k, &i) in kept.iter().enumerate() {
            let m = train.meta(k);
            // Record j of a game's ten is j/9 of the way through it; other games say None.
            let through = marked(i).then_some((i % 10 * 255 / 9) as u8);
            assert_eq!(m.rule_draw, through, "position {i}");
        }
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn progress_runs_from_a_games_first_record_to_its_last() {
        assert_eq!([progress(0, 10), progress(9, 10), progress(3, 7)], [0, 255, 127]);
        // A game of one record is all end; an index past the end counts as the last.
        assert_eq!([progress(0, 1), progress(12, 10)], [255, 255]);
    }

    #[test]
    fn the_fifty_move_factor_is_divided_out() {
        let pos = Position::from_fen("8/3r4/4k3/p7/P7/3RK3/8/8[] w - - 60 80").unwrap();
        let r = PackedRecord::pack(&pos, 350, GameResult::Draw).unwrap();
        assert_eq!(target_score(&r, false), 350);
        assert_eq!(target_score(&r, true), (350.0 / r.rule50_scale()).round() as i32);
        assert!(target_score(&r, true) > 350);
    }
}
