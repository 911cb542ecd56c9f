//! Evaluation speed of the built-in net: the incremental update and the output, move by
//! move, over every legal move of the positions of the perft suite (the first includes
//! make and unmake; `movegen`'s make+unmake bench gives their share).

use criterion::{Criterion, criterion_group, criterion_main};
use sitke::board::Position;
use sitke::board::perft::parse_epd;
use sitke::eval::nnue::{AccumulatorStack, embedded};
use std::hint::black_box;

fn positions() -> Vec<Position> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/sittuyin.epd")).unwrap();
    parse_epd(&text).unwrap().iter().map(|c| Position::from_fen(&c.fen).unwrap()).collect()
}

fn nnue(c: &mut Criterion) {
    let positions = positions();
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let mut stack = AccumulatorStack::new(embedded::network(), 4);
    let mut positions = positions;
    let n: usize = moves.iter().map(|m| m.len()).sum();
    c.bench_function(&format!("update + evaluate + pop ({n} moves)"), |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for (pos, list) in positions.iter_mut().zip(&moves) {
                stack.reset(pos);
                for &m in list.as_slice() {
                    stack.push_move(pos, m);
                    pos.do_move(m);
                    sum += stack.evaluate(pos) as i64;
                    pos.undo_move();
                    stack.pop();
                }
            }
            black_box(sum)
        })
    });
    c.bench_function(&format!("update + pop only ({n} moves)"), |b| {
        b.iter(|| {
            for (pos, list) in positions.iter().zip(&moves) {
                stack.reset(pos);
                for &m in list.as_slice() {
                    stack.push_move(pos, m);
                    black_box(stack.current(sitke::board::Color::White)[0]);
                    stack.pop();
                }
            }
        })
    });
}

criterion_group!(benches, nnue);
criterion_main!(benches);
