//! The UCI loop (minimal for now: uci, isready, position, go perft, d, quit).

use crate::board::{Color, Position, Square};
use crate::search::{Control, Limits, Score, Searcher};
use crate::tools::perft;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Engine name and author as sent in `id`.
pub const ENGINE_NAME: &str = concat!("Sitke ", env!("CARGO_PKG_VERSION"));
/// The author line.
pub const ENGINE_AUTHOR: &str = "the Sitke developers";

/// The board diagram of `d`, followed by the `Fen:`, `Key:` and `Checkers:` lines.
pub fn diagram(pos: &Position) -> String {
    let mut out = String::new();
    let hand = |c: Color| -> String {
        let board_fen = pos.board_fen();
        let pocket = &board_fen[board_fen.find('[').unwrap_or(0)..];
        pocket
            .chars()
            .filter(|ch| ch.is_ascii_alphabetic() && (ch.is_ascii_uppercase() == (c == Color::White)))
            .collect()
    };
    out.push_str("\n +---+---+---+---+---+---+---+---+\n");
    for rank in (0..8).rev() {
        out.push_str(" |");
        for file in 0..8 {
            let c = pos.piece_on(Square::new(file, rank)).map_or(' ', |p| p.letter());
            out.push_str(&format!(" {c} |"));
        }
        if rank == 7 {
            out.push_str(&format!("   [{}]", hand(Color::Black)));
        }
        if rank == 0 {
            let mark = if pos.side_to_move() == Color::White { " *" } else { "" };
            out.push_str(&format!("{mark} [{}]", hand(Color::White)));
        }
        out.push_str("\n +---+---+---+---+---+---+---+---+\n");
    }
    out.push_str(&format!("\nFen: {}\nKey: {:016X}\nCheckers: ", pos.fen(), pos.key()));
    for sq in pos.checkers() {
        out.push_str(&format!("{sq} "));
    }
    out.push('\n');
    out
}

/// Sets up `position startpos|fen <fen> [moves ...]`; on an error the position keeps the
/// moves that applied, and the returned message names the problem.
pub fn parse_position(args: &[&str], pos: &mut Position) -> Result<(), String> {
    let moves_at = args.iter().position(|&a| a == "moves").unwrap_or(args.len());
    let mut next = match args.first() {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&args[1..moves_at].join(" ")).map_err(|e| format!("invalid FEN: {e}"))?,
        _ => return Err("position: expected 'startpos' or 'fen'".to_string()),
    };
    for (i, text) in args.iter().skip(moves_at + 1).enumerate() {
        match next.parse_uci_move(text) {
            Ok(m) => next.do_move(m),
            Err(e) => {
                *pos = next;
                return Err(format!("{e} (move {} of the list); position kept after the last legal move", i + 1));
            }
        }
    }
    *pos = next;
    Ok(())
}

/// Runs the protocol loop on stdin until `quit` or end of input.
pub fn run() {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut pos = Position::startpos();
    let mut searcher = Searcher::new(16, 1);
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        log::debug!("<< {line}");
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let reply = match tokens.first().copied() {
            None => String::new(),
            Some("uci") => format!(
                "id name {ENGINE_NAME}\nid author {ENGINE_AUTHOR}\n\noption name UCI_Variant type combo default sittuyin var sittuyin\nuciok\n"
            ),
            Some("isready") => "readyok\n".to_string(),
            Some("position") => match parse_position(&tokens[1..], &mut pos) {
                Ok(()) => String::new(),
                Err(e) => format!("info string {e}\n"),
            },
            Some("d") => diagram(&pos),
            Some("ucinewgame") => {
                searcher.clear();
                String::new()
            }
            Some("go") if tokens.get(1) != Some(&"perft") => {
                let limits = parse_go(&tokens[1..]);
                let control = Control::new();
                let mut lines = String::new();
                let result = searcher.search(&pos, &limits, &control, &mut |info| {
                    let score = match Score::from_value(info.value) {
                        Score::Cp(c) => format!("cp {c}"),
                        Score::Mate(m) => format!("mate {m}"),
                    };
                    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
                    let line = format!(
                        "info depth {} seldepth {} multipv {} score {score} nodes {} time {} pv {}\n",
                        info.depth,
                        info.seldepth,
                        info.multipv,
                        info.nodes,
                        info.time.as_millis(),
                        pv.join(" ")
                    );
                    let _ = std::io::stdout().write_all(line.as_bytes());
                    let _ = std::io::stdout().flush();
                    lines.push_str(&line);
                });
                format!("bestmove {}\n", result.best)
            }
            Some("go") if tokens.get(1) == Some(&"perft") => {
                let depth = tokens.get(2).and_then(|d| d.parse::<u32>().ok()).unwrap_or(1).min(20);
                let results = perft::divide_parallel(&pos, depth, 1);
                let mut s = String::new();
                let mut total = 0;
                for (m, n) in results {
                    s.push_str(&format!("{m}: {n}\n"));
                    total += n;
                }
                s.push_str(&format!("\nNodes searched: {total}\n\n"));
                s
            }
            Some("quit") => break,
            Some(cmd) => format!("info string unknown command '{cmd}'\n"),
        };
        if !reply.is_empty() {
            log::debug!(">> {}", reply.trim_end());
            let _ = out.write_all(reply.as_bytes());
            let _ = out.flush();
        }
    }
}

/// Parses the arguments of `go` into search limits.
pub fn parse_go(args: &[&str]) -> Limits {
    let mut l = Limits::default();
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        let mut num = || it.next().and_then(|v| v.parse::<i64>().ok()).unwrap_or(0).max(0) as u64;
        match a {
            "wtime" => l.wtime = Some(Duration::from_millis(num())),
            "btime" => l.btime = Some(Duration::from_millis(num())),
            "winc" => l.winc = Some(Duration::from_millis(num())),
            "binc" => l.binc = Some(Duration::from_millis(num())),
            "movestogo" => l.movestogo = Some(num() as u32),
            "movetime" => l.movetime = Some(Duration::from_millis(num())),
            "depth" => l.depth = Some(num() as u32),
            "nodes" => l.nodes = Some(num()),
            "mate" => l.mate = Some(num() as u32),
            "infinite" => l.infinite = true,
            _ => {}
        }
    }
    l
}
