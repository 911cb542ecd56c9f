//! Move generation speed on the positions of the Fairy-Stockfish perft suite.

use criterion::{Criterion, criterion_group, criterion_main};
use sitke::board::perft::parse_epd;
use sitke::board::{GenType, MoveList, Position};
use std::hint::black_box;

fn positions() -> Vec<Position> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/sittuyin.epd")).unwrap();
    parse_epd(&text).unwrap().iter().map(|c| Position::from_fen(&c.fen).unwrap()).collect()
}

fn movegen(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("generate all legal moves (45 positions)", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                let mut list = MoveList::new();
                pos.generate(GenType::All, &mut list);
                n += list.len();
            }
            black_box(n)
        })
    });
    c.bench_function("count legal moves (45 positions)", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).count_legal()).sum::<usize>())
    });
    c.bench_function("make+unmake every legal move (45 positions)", |b| {
        let mut positions = positions.clone();
        b.iter(|| {
            for pos in positions.iter_mut() {
                for &m in pos.legal_moves().iter() {
                    pos.do_move(m);
                    pos.undo_move();
                }
            }
        })
    });
}

criterion_group!(benches, movegen);
criterion_main!(benches);
