//! Protocol fuzzing: thousands of random and mutated command lines against one long-running
//! engine process. Afterwards it still answers `isready`, every `go` got exactly one
//! `bestmove`, every `bestmove` was legal in the position it was asked about, and every `d`
//! showed the position the commands so far describe.
//!
//! The test keeps a model of the engine's state (position and dialect) by applying each
//! line the way docs/protocol.md says: a bad FEN changes nothing, a bad move list keeps the moves
//! before the first bad one. `SITKE_FUZZ_LINES` (default 10,000) and `SITKE_FUZZ_SEED` change
//! the run.

mod uci;

use sitke::board::{Color, Position};
use sitke::protocol::Dialect;
use sitke::protocol::go::parse_go;
use sitke::protocol::usi::{move_text, parse_move, parse_sfen};
use sitke::rng::Rng;
use std::collections::VecDeque;
use std::time::Duration;
use uci::Engine;

/// What the engine's state should be.
struct Model {
    pos: Position,
    dialect: Dialect,
}

impl Model {
    /// Applies one input line as the engine must; returns the position a search starts
    /// from if the line is a searching `go`, and whether it is a `d`.
    fn apply(&mut self, line: &str) -> (Option<(Position, Dialect)>, bool) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.first().copied() {
            Some("uci") => self.dialect = Dialect::Uci,
            Some("usi") => self.dialect = Dialect::Usi,
            Some("position") => self.position(&tokens[1..]),
            Some("go") => {
                let (go, _) = parse_go(&tokens[1..], &self.pos, self.dialect);
                if go.perft.is_none() {
                    return (Some((self.pos.clone(), self.dialect)), false);
                }
            }
            Some("d") => return (None, true),
            _ => {}
        }
        (None, false)
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&a| a == "moves").unwrap_or(args.len());
        let base = match args.first().copied() {
            Some("startpos") => Some(Position::startpos()),
            Some("fen") => Position::from_fen(&args[1..moves_at].join(" ")).ok(),
            Some("sfen") => parse_sfen(&args[1..moves_at].join(" ")).ok(),
            _ => None,
        };
        let Some(mut pos) = base else { return };
        for text in args.get(moves_at + 1..).unwrap_or_default() {
            match parse_move(&pos, text, self.dialect) {
                Ok(m) => pos.do_move(m),
                Err(_) => break,
            }
        }
        self.pos = pos;
    }
}

/// Starting positions: the bench list covers every phase of the game.
fn base_fens() -> Vec<String> {
    sitke::search::bench::POSITIONS.iter().map(|s| s.to_string()).collect()
}

/// A well-formed command line.
fn valid_line(rng: &mut Rng, model: &Model, fens: &[String]) -> String {
    match rng.index(20) {
        0..=5 => {
            // A position with a random legal continuation.
            let (head, mut pos) = if rng.chance(0.4) {
                ("position startpos".to_string(), Position::startpos())
            } else {
                let fen = rng.pick(fens).clone();
                let pos = Position::from_fen(&fen).unwrap();
                if model.dialect == Dialect::Usi && rng.chance(0.5) {
                    (format!("position sfen {}", sitke::protocol::usi::sfen(&pos)), pos)
                } else {
                    (format!("position fen {fen}"), pos)
                }
            };
            let mut moves = Vec::new();
            for _ in 0..rng.index(30) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = *rng.pick(legal.as_slice());
                let mut text = move_text(m, model.dialect);
                if m.is_drop() && rng.chance(0.2) {
                    text = text.to_lowercase();
                }
                moves.push(text);
                pos.do_move(m);
            }
            if moves.is_empty() && rng.chance(0.5) { head } else { format!("{head} moves {}", moves.join(" ")) }
        }
        6..=10 => {
            let mut go = match rng.index(9) {
                0 => format!("go depth {}", rng.range(1, 4)),
                1 => format!("go nodes {}", rng.range(1, 3000)),
                2 => format!("go movetime {}", rng.range(1, 8)),
                3 => format!(
                    "go wtime {} btime {} winc {} binc {}",
                    rng.range(5, 150),
                    rng.range(5, 150),
                    rng.range(0, 10),
                    rng.range(0, 10)
                ),
                4 => {
                    format!("go wtime {} btime {} movestogo {}", rng.range(5, 200), rng.range(5, 200), rng.range(1, 10))
                }
                5 => "go infinite".to_string(),
                6 => format!("go ponder wtime {} btime {}", rng.range(10, 100), rng.range(10, 100)),
                7 => format!("go mate {} depth 3", rng.range(1, 3)),
                _ => format!("go perft {}", rng.range(0, 2)),
            };
            if rng.chance(0.1) {
                let legal = model.pos.legal_moves();
                let some: Vec<String> =
                    legal.iter().take(rng.index(4) + 1).map(|m| move_text(*m, model.dialect)).collect();
                go = format!("go depth 2 searchmoves {}", some.join(" "));
            }
            go
        }
        11 => {
            let opts: [String; 11] = [
                format!("Hash value {}", rng.range(1, 32)),
                format!("Threads value {}", rng.range(1, 2)),
                format!("MultiPV value {}", rng.range(1, 4)),
                format!("Skill Level value {}", rng.range(0, 20)),
                format!("UCI_LimitStrength value {}", rng.chance(0.5)),
                format!("UCI_Elo value {}", rng.range(1350, 2850)),
                format!("UCI_ShowWDL value {}", rng.chance(0.5)),
                format!("Move Overhead value {}", rng.range(0, 50)),
                format!("UCI_AnalyseMode value {}", rng.chance(0.5)),
                "Clear Hash".to_string(),
                "UCI_Variant value sittuyin".to_string(),
            ];
            format!("setoption name {}", rng.pick(&opts))
        }
        12 | 13 => "stop".to_string(),
        14 => "ponderhit".to_string(),
        15 => "isready".to_string(),
        16 => rng.pick(&["ucinewgame", "usinewgame", "d", "eval", "debug on", "gameover draw"]).to_string(),
        17 => rng.pick(&["uci", "usi", "uci", "d"]).to_string(),
        _ => rng.pick(&["", "   ", "hello", "go perft 1", "position startpos", "isready"]).to_string(),
    }
}

/// Junk that may replace a word.
const WORDS: &[&str] = &[
    "moves",
    "fen",
    "sfen",
    "startpos",
    "go",
    "depth",
    "nodes",
    "-1",
    "0",
    "99999999999999999999",
    "-99999",
    "value",
    "name",
    "infinite",
    "ponder",
    "searchmoves",
    "R@a1",
    "K*2h",
    "e3e4",
    "d5e6f",
    "[]",
    "[-]",
    "w",
    "b",
    "-",
    "8/8",
    "\u{e9}",
    "\u{1F600}",
    "\t",
    "\u{0}",
    "NaN",
    "1e9",
    "+5",
    "perft",
    "mate",
    "movetime",
    "wtime",
    "stop",
];

/// A damaged copy of a line.
fn mutate(rng: &mut Rng, line: &str) -> String {
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for _ in 0..rng.range(1, 3) {
        let i = rng.index(words.len());
        match rng.index(8) {
            0 if words.len() > 1 => {
                words.remove(i);
            }
            1 => {
                let w = words[i].clone();
                words.insert(i, w);
            }
            2 => words[i] = rng.pick(WORDS).to_string(),
            3 => words.insert(i, rng.pick(WORDS).to_string()),
            4 => {
                let j = rng.index(words.len());
                words.swap(i, j);
            }
            5 => {
                // Replace one character of the word by a random printable or odd one.
                let chars: Vec<char> = words[i].chars().collect();
                if !chars.is_empty() {
                    let k = rng.index(chars.len());
                    let c = *rng.pick(&['x', '9', '@', '*', '/', ' ', 'K', 'k', '\u{0}', '\u{7f}', 'ß']);
                    words[i] = chars.iter().enumerate().map(|(j, &ch)| if j == k { c } else { ch }).collect();
                }
            }
            6 => {
                let cut = rng.index(words.len()) + 1;
                words.truncate(cut);
            }
            _ => words[i] = words[i].to_uppercase(),
        }
    }
    let mut out = words.join(if rng.chance(0.1) { "  " } else { " " });
    if rng.chance(0.1) {
        out.push('\r');
    }
    out
}

/// Whether a line would make the engine do something slow on purpose (a deep bench, a
/// huge table or hundreds of threads): those are tested elsewhere, not thousands of times.
/// So is a long job that ends by itself (a deep perft, a huge depth, node count or clock, a
/// mate search without a depth): the next `go` waits for it, as in Fairy-Stockfish.
fn too_costly(line: &str, model: &Model) -> bool {
    let t: Vec<&str> = line.split_whitespace().collect();
    let big_number = t.iter().any(|w| w.parse::<i128>().is_ok_and(|n| n > 64));
    match t.first().copied() {
        Some("bench") => true,
        Some("setoption") => big_number && (line.contains("Hash") || line.contains("Threads")),
        Some("go") => {
            let (go, _) = parse_go(&t[1..], &model.pos, model.dialect);
            let l = &go.limits;
            if let Some(depth) = go.perft {
                return depth > 3;
            }
            let own = if model.pos.side_to_move() == Color::White { l.wtime } else { l.btime };
            let bounded = l.depth.is_some() || l.nodes.is_some() || l.movetime.is_some() || own.is_some();
            let quick = l.depth.is_some_and(|d| d <= 6)
                || l.nodes.is_some_and(|n| n <= 100_000)
                || l.movetime.is_some_and(|t| t <= Duration::from_secs(1))
                || own.is_some_and(|t| t <= Duration::from_secs(10));
            // A search that runs until stopped is stopped by the next `go`: never costly. A
            // ponder search is, until a `ponderhit` puts it on the clock.
            !l.infinite && (bounded || l.mate.is_some()) && !quick
        }
        _ => false,
    }
}

#[test]
fn fuzz_the_protocol() {
    let lines: usize = std::env::var("SITKE_FUZZ_LINES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let seed: u64 = std::env::var("SITKE_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5eed_1234);
    println!("protocol fuzz: {lines} lines, seed {seed}");
    // Reproducible from the seed printed above.
    let mut rng = Rng::new(seed);
    let fens = base_fens();
    let mut model = Model { pos: Position::startpos(), dialect: Dialect::Uci };
    let mut searches: VecDeque<(Position, Dialect)> = VecDeque::new();
    let mut displays: VecDeque<String> = VecDeque::new();
    let mut e = Engine::sitke();
    let (mut sent_go, mut mutated) = (0, 0);
    for _ in 0..lines {
        let mut line = valid_line(&mut rng, &model, &fens);
        if rng.chance(0.35) {
            let m = mutate(&mut rng, &line);
            if !too_costly(&m, &model) {
                line = m;
                mutated += 1;
            }
        }
        let (search, display) = model.apply(line.trim());
        if let Some(s) = search {
            searches.push_back(s);
            sent_go += 1;
        }
        if display {
            displays.push_back(model.pos.fen());
        }
        e.send(&line);
    }
    e.send("stop");
    // Collect everything up to the last bestmove, then whatever else is still coming.
    let mut bestmoves = Vec::new();
    let mut fen_lines = Vec::new();
    let mut take = |l: String, bestmoves: &mut Vec<String>| {
        if l.starts_with("bestmove") {
            bestmoves.push(l);
        } else if let Some(f) = l.strip_prefix("Fen: ") {
            fen_lines.push(f.to_string());
        }
    };
    while bestmoves.len() < sent_go {
        let Some(l) = e.next_line(Duration::from_secs(30)) else {
            let n = e.log.len();
            panic!(
                "engine went silent: {} of {sent_go} bestmoves; last lines {:?}",
                bestmoves.len(),
                &e.log[n.saturating_sub(20)..]
            );
        };
        take(l, &mut bestmoves);
    }
    for l in e.lines_within(Duration::from_millis(300)) {
        take(l, &mut bestmoves);
    }
    // Still alive and answering.
    e.send("isready");
    e.expect("readyok");
    assert_eq!(bestmoves.len(), sent_go, "one bestmove per go");
    let mut illegal = Vec::new();
    for (line, (pos, dialect)) in bestmoves.iter().zip(searches.iter()) {
        let word = line.split_whitespace().nth(1).unwrap_or_default();
        let ok = if pos.legal_moves().is_empty() {
            word == "(none)" || word == "resign"
        } else {
            parse_move(pos, word, *dialect).is_ok()
        };
        if !ok {
            illegal.push(format!("{line} in {}", pos.fen()));
        }
    }
    assert!(illegal.is_empty(), "illegal bestmoves: {illegal:?}");
    assert_eq!(fen_lines.len(), displays.len(), "one Fen: line per d");
    for (got, want) in fen_lines.iter().zip(displays.iter()) {
        assert_eq!(got, want, "the engine's position differs from the commands' meaning");
    }
    println!(
        "protocol fuzz: {lines} lines ({mutated} mutated), {sent_go} searches, all bestmoves legal, {} d checked",
        displays.len()
    );
}
