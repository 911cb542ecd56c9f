//! Tuning end to end: synthetic data made from known weights must lead back to them.

use super::model::sigmoid;
use super::*;
use crate::board::Position;
use crate::eval::{CoefTrace, evaluate_with};
use crate::tools::datagen::format::{GameHeader, Record, write_game};

/// The final evaluation, White's view, with any table.
fn white_eval(pos: &Position, table: &[S; NUM_PARAMS]) -> f64 {
    let mut t = CoefTrace::default();
    evaluate_with(pos, table, &mut t);
    t.final_white_score as f64
}

/// Positions labelled with the win probability that `truth` gives them at K = 1, split
/// into training and validation sets traced at the compiled-in weights.
fn synthetic(truth: &[S; NUM_PARAMS], seed: u64, n: usize) -> (Dataset, Dataset, Vec<Position>) {
    let lin = Linearizer::new(&WEIGHTS);
    let positions = random_positions(seed, n);
    let (mut train_set, mut val_set) = (Dataset::new(), Dataset::new());
    for (i, pos) in positions.iter().enumerate() {
        let label = sigmoid(1.0, white_eval(pos, truth)) as f32;
        let set = if i % 5 == 4 { &mut val_set } else { &mut train_set };
        set.push(&lin.trace(pos), label, 0.0);
    }
    let val_positions = positions.into_iter().skip(4).step_by(5).collect();
    (train_set, val_set, val_positions)
}

fn term(name: &str) -> crate::eval::Term {
    *TERMS.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no term {name}"))
}

#[test]
fn tuning_recovers_known_material_values_and_tempo() {
    let (material, tempo) = (term("MATERIAL"), term("TEMPO"));
    let mut truth = WEIGHTS;
    for (k, i) in (material.offset..material.offset + material.len).enumerate() {
        truth[i] += s(35 - 17 * k as i32, 40 * (k as i32 % 2) - 25);
    }
    truth[tempo.offset] += s(30, -20);
    let (train_set, val_set, _) = synthetic(&truth, 21, 6000);
    let mask = term_mask(&["material".to_string(), "TEMPO".to_string()]).unwrap();
    let obj = Objective { k: 1.0, lambda: 1.0 };
    let opts = TrainOptions { epochs: 300, lr: 2.0, lr_decay: 0.99, batch: 0, tied: Vec::new() };
    let out = train(&train_set, &val_set, from_table(&WEIGHTS), obj, &opts, &mask, &mut std::io::sink()).unwrap();
    // A weight no position exercises cannot be learned and must stay where it was: the
    // king's material outside the setup (one each, always), or the endgame half of a weight
    // seen only at the full phase.
    let (_, grad) = obj.gradient(&train_set, train_set.samples(), &from_table(&WEIGHTS));
    let mut checked = 0;
    for i in (material.offset..material.offset + material.len).chain([tempo.offset]) {
        let (got, want) = (out.weights[i], [truth[i].mg, truth[i].eg]);
        for j in 0..2 {
            let used = grad[i][j] != 0.0;
            let expected = if used { want[j] } else { [WEIGHTS[i].mg, WEIGHTS[i].eg][j] };
            assert!((got[j] - expected as f64).abs() < 3.0, "weight {i}.{j}: got {got:?}, want {want:?}");
            checked += used as usize;
        }
    }
    assert!(checked >= 10, "only {checked} weights were exercised");
    let before = out.history[0].validation.unwrap();
    assert!(out.best.validation.unwrap() < before / 50.0, "{before} -> {:?}", out.best);
    // Frozen terms did not move.
    for (i, w) in out.weights.iter().enumerate().filter(|(i, _)| !mask[*i]) {
        assert_eq!(*w, [WEIGHTS[i].mg as f64, WEIGHTS[i].eg as f64]);
    }
}

#[test]
fn tuning_every_weight_moves_the_evaluation_to_the_known_one() {
    // The truth differs in every term; many weights are collinear (material and
    // piece-square tables, say), so the check is on the evaluation it implies.
    let mut truth = WEIGHTS;
    let mut rng = Rng::new(5);
    for w in truth.iter_mut() {
        *w += s(rng.range(0, 40) as i32 - 20, rng.range(0, 40) as i32 - 20);
    }
    let (train_set, val_set, val_positions) = synthetic(&truth, 22, 6000);
    let obj = Objective { k: 1.0, lambda: 1.0 };
    let opts = TrainOptions { epochs: 300, lr: 1.0, lr_decay: 0.99, batch: 0, tied: Vec::new() };
    let mask = term_mask(&[]).unwrap();
    let out = train(&train_set, &val_set, from_table(&WEIGHTS), obj, &opts, &mask, &mut std::io::sink()).unwrap();
    let tuned = to_table(&out.weights);
    let gap = |table: &[S; NUM_PARAMS]| {
        let sum: f64 = val_positions.iter().map(|p| (white_eval(p, table) - white_eval(p, &truth)).abs()).sum();
        sum / val_positions.len() as f64
    };
    let (before, after) = (gap(&WEIGHTS), gap(&tuned));
    assert!(after < before / 5.0, "mean evaluation gap {before:.1} -> {after:.1} cp");
}

#[test]
fn unknown_terms_are_refused_with_the_list() {
    let e = term_mask(&["NO_SUCH_TERM".to_string()]).unwrap_err();
    assert!(e.contains("MATERIAL"), "{e}");
    assert!(term_mask(&[]).unwrap().iter().all(|&m| m));
}

#[test]
fn a_run_from_data_files_writes_a_table_that_fits_better() {
    // Data in datagen's format whose results follow a known evaluation, a copy of
    // weights.rs as the file to write, and the whole `tune` command path.
    let dir = std::env::temp_dir().join(format!("sitke-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut truth = WEIGHTS;
    let material = term("MATERIAL");
    for w in &mut truth[material.offset..material.offset + material.len] {
        *w += s(60, 60);
    }
    let mut text = Vec::new();
    let mut rng = Rng::new(8);
    for (id, chunk) in random_positions(23, 3000).chunks(30).enumerate() {
        let records: Vec<Record> = chunk
            .iter()
            .map(|p| {
                let v = white_eval(p, &truth);
                // A game result drawn with the truth's win probability.
                let u = rng.unit();
                let p_win = sigmoid(1.0, v);
                let result = if u < p_win * 0.8 {
                    GameResult::WhiteWin
                } else if u < p_win * 0.8 + 0.2 {
                    GameResult::Draw
                } else {
                    GameResult::BlackWin
                };
                Record { fen: p.fen(), score: v as i32, result }
            })
            .collect();
        let header = GameHeader { id: id as u64, result: GameResult::Draw, plies: 30, termination: "test".into() };
        write_game(&mut text, &header, &records).unwrap();
    }
    let data = dir.join("data.txt");
    std::fs::write(&data, &text).unwrap();
    let weights_file = dir.join("weights.rs");
    std::fs::write(&weights_file, include_str!("../../eval/weights.rs")).unwrap();
    let cfg = TuneConfig {
        data: vec![data],
        limit: None,
        validation: 0.2,
        k: None,
        lambda: 0.5,
        terms: vec!["MATERIAL".into()],
        train: TrainOptions { epochs: 30, lr: 2.0, lr_decay: 1.0, batch: 512, tied: Vec::new() },
        seed: 1,
        weights_file: weights_file.clone(),
        write: true,
    };
    let mut log = Vec::new();
    let out = tune(&cfg, &mut log).unwrap();
    let log = String::from_utf8(log).unwrap();
    assert!(log.contains("epoch   30"), "{log}");
    assert!(out.after.validation.unwrap() < out.before.validation.unwrap(), "{log}");
    let written = weights_file::parse_table(&std::fs::read_to_string(&weights_file).unwrap()).unwrap();
    assert_eq!(written, out.table.to_vec());
    // The material values moved toward the truth (60 cp up).
    let up: i32 = (material.offset..material.offset + material.len).map(|i| out.table[i].mg - WEIGHTS[i].mg).sum();
    assert!(up > 60, "material moved by {up} in all\n{log}");
    // The written file now differs from the compiled table, so a second run must refuse it.
    assert!(tune(&cfg, &mut std::io::sink()).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mirrored_piece_square_weights_stay_equal_and_still_fit() {
    // The truth's pawn table differs from ours by a mirror-symmetric bump in the centre;
    // our start table is lopsided on purpose, so the tie has to even it out first.
    let pst = term("PST");
    let mut truth = WEIGHTS;
    let mut start = WEIGHTS;
    for sq in 0..64 {
        let centre = (3..=4).contains(&(sq % 8)) as i32;
        truth[pst.offset + sq] += s(40 * centre, 20 * centre);
        start[pst.offset + sq] += s(if sq % 8 < 4 { 15 } else { -15 }, 0);
    }
    let (train_set, val_set, _) = synthetic(&truth, 24, 4000);
    let obj = Objective { k: 1.0, lambda: 1.0 };
    let tied = mirror_pairs();
    assert_eq!(tied.len(), 6 * 32);
    let opts = TrainOptions { epochs: 200, lr: 2.0, lr_decay: 0.99, batch: 0, tied: tied.clone() };
    let mask = term_mask(&["PST".to_string()]).unwrap();
    let out = train(&train_set, &val_set, from_table(&start), obj, &opts, &mask, &mut std::io::sink()).unwrap();
    for &(a, b) in &tied {
        assert_eq!(out.weights[a], out.weights[b], "weights {a} and {b}");
    }
    let before = out.history[0].validation.unwrap();
    assert!(out.best.validation.unwrap() < before / 5.0, "{before} -> {:?}", out.best);
}

#[test]
fn binary_data_loads_as_its_text_does() {
    let dir = std::env::temp_dir().join(format!("sitke-tune-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = Vec::new();
    for (id, chunk) in random_positions(25, 400).chunks(40).enumerate() {
        let result = [GameResult::BlackWin, GameResult::Draw, GameResult::WhiteWin][id % 3];
        let records: Vec<Record> =
            chunk.iter().map(|p| Record { fen: p.fen(), score: white_eval(p, &WEIGHTS) as i32, result }).collect();
        let header = GameHeader { id: id as u64 * 3, result, plies: 40, termination: "test".into() };
        write_game(&mut text, &header, &records).unwrap();
    }
    let (txt, bin) = (dir.join("data.txt"), dir.join("data.bin"));
    std::fs::write(&txt, &text).unwrap();
    crate::tools::datagen::convert::text_to_binary(&txt, &bin).unwrap();
    let cfg = |data| TuneConfig {
        data: vec![data],
        limit: None,
        validation: 0.3,
        k: None,
        lambda: 0.5,
        terms: Vec::new(),
        train: TrainOptions { epochs: 1, lr: 1.0, lr_decay: 1.0, batch: 0, tied: Vec::new() },
        seed: 3,
        weights_file: dir.join("unused.rs"),
        write: false,
    };
    let (a, b) = (load(&cfg(txt), &mut std::io::sink()).unwrap(), load(&cfg(bin), &mut std::io::sink()).unwrap());
    for (x, y) in [(&a.0, &b.0), (&a.1, &b.1)] {
        assert!(!x.is_empty());
        assert_eq!(x.len(), y.len());
        for (s, t) in x.samples().iter().zip(y.samples()) {
            assert_eq!((s.mg, s.slope, s.offset, s.result, s.score), (t.mg, t.slope, t.offset, t.result, t.score));
            assert_eq!(x.coefs(s), y.coefs(t));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
