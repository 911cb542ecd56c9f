//! The trainer end to end on tiny synthetic data: it learns a known function, the engine's
//! integer evaluation of the result agrees, and a resumed run is the uninterrupted one.

use super::adam::{AdamSettings, Schedule};
use super::*;
use crate::board::{Color, PieceType, Position};
use crate::eval::nnue::Activation;
use crate::eval::nnue::features::hands_of;
use crate::tools::tune::random_positions;
use model::Shape;

/// The function to learn: material from the side to move's view, hands included.
fn material(pos: &Position) -> i32 {
    const VALUE: [i32; 6] = [100, 320, 260, 180, 520, 0];
    let hands = hands_of(pos);
    let mut sum = 0;
    for sq in pos.occupied() {
        let p = pos.piece_on(sq).unwrap();
        let v = VALUE[p.kind().index()];
        sum += if p.color() == pos.side_to_move() { v } else { -v };
    }
    for c in Color::ALL {
        for pt in PieceType::ALL {
            let v = VALUE[pt.index()] * hands[c.index()][pt.index()] as i32;
            sum += if c == pos.side_to_move() { v } else { -v };
        }
    }
    sum
}

fn dataset(positions: &[Position]) -> Dataset {
    let mut data = Dataset::new();
    for pos in positions {
        let board = pos.occupied().map(|sq| (sq, pos.piece_on(sq).unwrap()));
        let score = material(pos);
        let white = if pos.side_to_move() == Color::White { score } else { -score };
        data.push(board, &hands_of(pos), pos.side_to_move(), score as i16, (1 + white.signum()) as u8, None);
    }
    data
}

fn recipe(epochs: usize) -> Recipe {
    Recipe {
        shape: Shape { hidden: 16, buckets: 2, activation: Activation::SCReLU },
        seed: 5,
        epochs,
        batch: 256,
        lr: 0.01,
        schedule: Schedule::Cosine { floor: 0.05 },
        adam: AdamSettings::default(),
        k: 400.0,
        lambda: 1.0,
        rule_draw_lambda: None,
        rule_draw_ramp: false,
        max_score: None,
        unscale_rule50: true,
        validation: 0.0,
        init: None,
    }
}

/// A scratch folder of the test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sitke-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_net_learns_material_and_the_engine_evaluates_it() {
    // Fewer positions let the net learn each game's pieces by heart: 4,000 from random
    // games leave a validation loss of 0.02 (240 cp off on average), 16,000 below 1e-4.
    let train = dataset(&random_positions(101, 16_000));
    let held_out = random_positions(202, 300);
    let val = dataset(&held_out);
    let shape = Shape { hidden: 8, ..recipe(1).shape };
    let mut trainer = Trainer::new(Recipe { shape, batch: 128, ..recipe(30) }, None).unwrap();
    let before = trainer.loss(&val).unwrap();
    let dir = scratch("learn");
    let out = run_epochs(&mut trainer, &train, &val, &Output { dir: dir.clone(), out: None }, &mut Vec::new()).unwrap();
    let after = out.epochs.last().unwrap().validation_loss.unwrap();
    assert!(after < 1e-4 && after < before / 100.0, "validation loss {before} -> {after}");
    let engine = Network::from_bytes(&std::fs::read(&out.net_path).unwrap()).unwrap();
    assert_eq!(engine.name(), out.net_name);
    let errors: Vec<f64> = held_out.iter().map(|p| (engine.evaluate(p) - material(p)).abs() as f64).collect();
    let mean = errors.iter().sum::<f64>() / errors.len() as f64;
    assert!(mean < 25.0, "mean error {mean:.1} cp on held-out positions");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_resumed_run_is_the_uninterrupted_run() {
    let train = dataset(&random_positions(7, 1500));
    let val = dataset(&random_positions(8, 100));
    let mut whole = Trainer::new(recipe(4), None).unwrap();
    for _ in 0..4 {
        whole.run_epoch(&train);
    }
    let mut first = Trainer::new(recipe(4), None).unwrap();
    first.run_epoch(&train);
    first.run_epoch(&train);
    let bytes = first.checkpoint(train.fingerprint()).to_bytes();
    drop(first);
    let ck = Checkpoint::from_bytes(&bytes).unwrap();
    let mut resumed = Trainer::resume(recipe(4), ck, train.fingerprint()).unwrap();
    let dir = scratch("resume");
    let output = Output { dir: dir.clone(), out: Some(dir.join("final.nnue")) };
    let out = run_epochs(&mut resumed, &train, &val, &output, &mut Vec::new()).unwrap();
    assert_eq!(out.epochs.len(), 2);
    let bits = |t: &Trainer| t.net.params.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    assert_eq!(bits(&resumed), bits(&whole), "the weights are identical bit for bit");
    assert_eq!(resumed.adam, whole.adam);
    // The files hold the same net: the engine's file and the float weights.
    assert_eq!(std::fs::read(&out.net_path).unwrap(), whole.net.quantise().to_bytes());
    let float = Checkpoint::from_bytes(&std::fs::read(&out.float_path).unwrap()).unwrap();
    assert_eq!(float.net, whole.net);
    assert!(float.adam.is_none());
    let ck = Checkpoint::from_bytes(&std::fs::read(dir.join("checkpoint.ckpt")).unwrap()).unwrap();
    assert_eq!((ck.epoch, ck.adam.as_ref()), (4, Some(&whole.adam)));
    // The float weights start a new run of the same shape, or of a wider one; not of a
    // narrower one or another activation.
    assert_eq!(Trainer::new(recipe(1), Some(&float.net)).unwrap().net, whole.net);
    let shaped = |shape: Shape| Recipe { shape, ..recipe(1) };
    let n = float.net.shape.hidden;
    let wide = Trainer::new(shaped(Shape { hidden: 2 * n, ..float.net.shape }), Some(&float.net)).unwrap();
    assert_eq!(wide.net.shape.hidden, 2 * n);
    assert!(Trainer::new(shaped(Shape { hidden: n / 2, ..float.net.shape }), Some(&float.net)).is_err());
    let other = match float.net.shape.activation {
        Activation::SCReLU => Activation::CReLU,
        Activation::CReLU => Activation::SCReLU,
    };
    assert!(Trainer::new(shaped(Shape { activation: other, ..float.net.shape }), Some(&float.net)).is_err());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn resume_refuses_other_settings_or_data() {
    let train = dataset(&random_positions(9, 200));
    let mut t = Trainer::new(recipe(2), None).unwrap();
    t.run_epoch(&train);
    let ck = t.checkpoint(train.fingerprint());
    let other = Recipe { lambda: 0.5, ..recipe(2) };
    assert!(Trainer::resume(other, ck.clone(), train.fingerprint()).unwrap_err().contains("lambda"));
    assert!(Trainer::resume(recipe(2), ck.clone(), 1).unwrap_err().contains("other data"));
    let light = Checkpoint { adam: None, ..ck.clone() };
    assert!(Trainer::resume(recipe(2), light, train.fingerprint()).is_err());
    assert!(Trainer::resume(recipe(3), ck, train.fingerprint()).is_ok(), "a run may be extended");
}
