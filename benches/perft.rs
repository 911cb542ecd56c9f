//! Perft speed: the perft speed suite (first five lines of the Fairy-Stockfish suite) at
//! reduced depths, single-threaded, and the start position on 1 and 2 threads.

use criterion::{Criterion, criterion_group, criterion_main};
use sitke::board::Position;
use sitke::board::perft::{parse_epd, perft, perft_threads};

fn perft_bench(c: &mut Criterion) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/sittuyin.epd")).unwrap();
    let cases = parse_epd(&text).unwrap();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (i, case) in cases.iter().take(5).enumerate() {
        // One ply less than the deepest listed depth keeps a sample short.
        let (depth, _) = case.counts[case.counts.len() - 2];
        let pos = Position::from_fen(&case.fen).unwrap();
        group.bench_function(format!("suite line {} depth {depth}", i + 1), |b| {
            b.iter(|| perft(&mut pos.clone(), depth))
        });
    }
    let start = Position::startpos();
    for threads in [1, 2] {
        group.bench_function(format!("startpos depth 4, {threads} thread(s)"), |b| {
            b.iter(|| perft_threads(&start, 4, threads))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_bench);
criterion_main!(benches);
