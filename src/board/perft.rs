//! Perft: counts the leaves of the legal move tree, with bulk counting at the last ply,
//! per-move breakdown (divide) and a root-parallel version on rayon.

use super::{GenType, Move, MoveList, Position};
use rayon::prelude::*;

/// Leaf count of the legal move tree `depth` plies deep.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut list = MoveList::new();
            pos.generate(GenType::All, &mut list);
            let mut nodes = 0;
            for &m in list.iter() {
                pos.do_move(m);
                nodes += perft(pos, depth - 1);
                pos.undo_move();
            }
            nodes
        }
    }
}

/// Per-root-move leaf counts, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            pos.do_move(m);
            let n = perft(pos, depth - 1);
            pos.undo_move();
            (m, n)
        })
        .collect()
}

/// `divide`, with the root moves shared out over `threads` threads.
pub fn divide_parallel(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_parallel_until(pos, depth, threads, &|| false).expect("thread pool")
}

/// Subtrees this shallow are counted without asking whether to stop: they take at most a
/// few milliseconds, which bounds how late a stop takes effect.
const UNCHECKED_DEPTH: u32 = 3;

/// `divide_parallel` that gives up, returning None, once `stop` says so (the protocol's
/// `go perft` honours `stop` this way); also None if the thread pool cannot be built.
pub fn divide_parallel_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<(Move, u64)>> {
    fn count(pos: &mut Position, depth: u32, stop: &(dyn Fn() -> bool + Sync)) -> Option<u64> {
        if depth <= UNCHECKED_DEPTH {
            return Some(perft(pos, depth));
        }
        if stop() {
            return None;
        }
        let mut total = 0;
        for m in pos.legal_moves().iter().copied() {
            pos.do_move(m);
            let n = count(pos, depth - 1, stop);
            pos.undo_move();
            total += n?;
        }
        Some(total)
    }
    if depth == 0 {
        return Some(Vec::new());
    }
    let moves: Vec<Move> = pos.legal_moves().to_vec();
    // No threads on wasm32-unknown-unknown: the root moves are counted in turn.
    if cfg!(target_arch = "wasm32") {
        let mut p = pos.clone();
        return moves
            .iter()
            .map(|&m| {
                p.do_move(m);
                let n = count(&mut p, depth - 1, stop);
                p.undo_move();
                n.map(|n| (m, n))
            })
            .collect();
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().ok()?;
    pool.install(|| {
        moves
            .par_iter()
            .with_max_len(1)
            .map(|&m| {
                let mut p = pos.clone();
                p.do_move(m);
                count(&mut p, depth - 1, stop).map(|n| (m, n))
            })
            .collect()
    })
}

/// Leaf count on `threads` threads (1 = plain single-threaded perft).
pub fn perft_threads(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 {
        perft(&mut pos.clone(), depth)
    } else {
        divide_parallel(pos, depth, threads).iter().map(|(_, n)| n).sum()
    }
}

/// A line of an EPD perft suite: `FEN;[id name;]D1 n;D2 n;...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The case's name (`id` field), or its FEN when it has none.
    pub name: String,
    /// The position.
    pub fen: String,
    /// (depth, expected leaf count) pairs.
    pub counts: Vec<(u32, u64)>,
}

/// Parses an EPD perft suite; blank lines and `#` comments are skipped.
pub fn parse_epd(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        let mut counts = Vec::new();
        let mut name = fen.clone();
        for p in parts {
            let p = p.trim();
            if let Some(id) = p.strip_prefix("id ") {
                name = id.trim().to_string();
                continue;
            }
            let parsed = p
                .strip_prefix('D')
                .and_then(|r| r.split_once(' '))
                .and_then(|(d, n)| Some((d.trim().parse().ok()?, n.trim().parse().ok()?)));
            counts.push(parsed.ok_or_else(|| format!("line {}: bad depth entry '{p}'", i + 1))?);
        }
        cases.push(PerftCase { name, fen, counts });
    }
    Ok(cases)
}
