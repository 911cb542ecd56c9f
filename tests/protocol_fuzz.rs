//! Protocol fuzzing: thousands of random and mutated command lines against one long-running
//! engine process. Afterwards it still answers `isready`, every searching `go` got exactly
//! one `bestmove`, every `bestmove` was legal in the position it was asked about, and every
//! `d` showed the position the commands so far describe.
//!
//! What the engine should be doing is predicted without Sitke's own parsers, so that a bug in
//! one of them cannot hide by being copied into the expectations: the test reads each line as
//! docs/protocol.md describes it (a small tokenizer for `go`, a translator from the documented
//! FEN, SFEN and move notations into pyffish's), and pyffish (Fairy-Stockfish's library, in
//! `tests/pyffish/protocol_oracle.py`) says whether a FEN is a position, which moves are legal
//! and what the resulting FEN is. Sitke's library only makes up the input lines.
//!
//! `SITKE_FUZZ_LINES` (default 4,000) and `SITKE_FUZZ_SEED` change the run. Needs `python3`
//! with `pyffish`: ignored by a plain `cargo test`, run by `bash scripts/test.sh`.

mod uci;

use sitke::board::Position;
use sitke::protocol::Dialect;
use sitke::protocol::usi::move_text;
use sitke::rng::Rng;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout};
use std::time::{Duration, Instant};
use uci::{Engine, oracle};

/// `tests/pyffish/protocol_oracle.py`, kept running and asked one line at a time.
struct Pyffish {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Pyffish {
    fn start() -> Pyffish {
        let mut child = oracle::pyffish_script("protocol_oracle.py");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Pyffish { child, stdin, stdout }
    }

    /// One request (tab-separated fields) and its one-line answer.
    fn ask(&mut self, fields: &[&str]) -> String {
        writeln!(self.stdin, "{}", fields.join("\t")).expect("protocol_oracle.py reads");
        self.stdin.flush().expect("flush");
        let mut answer = String::new();
        let n = self.stdout.read_line(&mut answer).expect("protocol_oracle.py answers");
        assert!(n > 0, "protocol_oracle.py ended early on {fields:?}: is pyffish installed?");
        answer.trim_end_matches('\n').to_string()
    }

    /// The legal moves (pyffish's UCI) after `moves` from `fen`.
    fn legal(&mut self, fen: &str, moves: &[String]) -> Vec<String> {
        self.ask(&["legal", fen, &moves.join(" ")]).split_whitespace().map(str::to_string).collect()
    }
}

impl Drop for Pyffish {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A square as docs/protocol.md writes it in UCI (`e3`); pyffish writes it the same way.
fn uci_square(s: &[u8]) -> Option<String> {
    let ok = s.len() == 2 && (b'a'..=b'h').contains(&s[0]) && (b'1'..=b'8').contains(&s[1]);
    ok.then(|| String::from_utf8_lossy(s).into_owned())
}

/// Reads a square of one dialect as UCI.
type SquareReader = fn(&[u8]) -> Option<String>;

/// A USI square (`4a`: files numbered from the right, ranks lettered from the top), as UCI.
fn usi_square(s: &[u8]) -> Option<String> {
    let ok = s.len() == 2 && (b'1'..=b'8').contains(&s[0]) && (b'a'..=b'h').contains(&s[1]);
    ok.then(|| format!("{}{}", (b'h' - (s[0] - b'1')) as char, (b'8' - (s[1] - b'a')) as char))
}

/// A move as docs/protocol.md says the host may write it, in pyffish's UCI: board moves
/// `e3e4`, promotions `d5e6f`, drops `R@a1` with the letter in either case; in USI the same
/// with USI squares and `*` for drops. None if it is not a move in that notation.
fn move_for_pyffish(text: &str, usi: bool) -> Option<String> {
    let b = text.as_bytes();
    let (square, drop): (SquareReader, u8) = if usi { (usi_square, b'*') } else { (uci_square, b'@') };
    if b.len() == 4 && b[1] == drop {
        let man = (b[0] as char).to_ascii_uppercase();
        return if "KSFRNP".contains(man) { square(&b[2..4]).map(|to| format!("{man}@{to}")) } else { None };
    }
    let promotion = match b.len() {
        4 => "",
        5 if b[4] == b'f' => "f",
        _ => return None,
    };
    Some(format!("{}{}{promotion}", square(&b[0..2])?, square(&b[2..4])?))
}

/// A number field of a FEN or SFEN: digits only, and at most 1,000,000 (docs/protocol.md).
fn counter(text: &str) -> Option<u64> {
    if !text.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&n| n <= 1_000_000)
}

/// A FEN as docs/protocol.md says Sitke reads it, in the form pyffish takes, or None where
/// the document says it is refused before pyffish could judge the position: pyffish pads a
/// short rank and cuts a long one, reads `44` as forty-four empty squares, and takes any
/// number and any castling field, so those are checked here. The rest (men, pocket letters,
/// kings, side to move) is pyffish's to judge.
fn fen_for_pyffish(text: &str) -> Option<String> {
    // FEN is ASCII; a control character (a NUL would cut pyffish's C string short) or any
    // other character makes it malformed.
    if !text.chars().all(|c| c.is_ascii_graphic() || c.is_ascii_whitespace()) {
        return None;
    }
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if fields.is_empty() || fields.len() > 6 {
        return None;
    }
    let (board, pocket) = match fields[0].split_once('[') {
        Some((board, rest)) => (board, rest.strip_suffix(']')?),
        None => (fields[0], ""),
    };
    if board.contains(']') || pocket.contains(['[', ']']) {
        return None;
    }
    // The cutechess dialect's empty pocket. Men are `K R N F S P`, Black's in lower case;
    // pyffish would take other letters of its variants, and `*` for a wall square.
    let pocket = if pocket == "-" { "" } else { pocket };
    let man = |c: char| "KRNFSPkrnfsp".contains(c);
    if !pocket.chars().all(man) || !board.chars().all(|c| man(c) || c == '/' || c.is_ascii_digit()) {
        return None;
    }
    let mut ranks = Vec::new();
    for rank in board.split('/') {
        // Each digit counts empty squares; adjacent digits add up.
        let (mut squares, mut empty, mut out) = (0, 0, String::new());
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(0) => return None,
                Some(d) => empty += d,
                None => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    squares += empty + 1;
                    empty = 0;
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if squares + empty != 8 {
            return None;
        }
        ranks.push(out);
    }
    if ranks.len() != 8 {
        return None;
    }
    let side = match fields.get(1).copied().unwrap_or("w") {
        "w" | "W" => "w",
        "b" | "B" => "b",
        _ => return None,
    };
    // Castling is always `-`; chess castling letters are read and ignored.
    let castling = fields.get(2).copied().unwrap_or("-");
    if castling != "-" && !castling.chars().all(|c| "KQkqABCDEFGHabcdefgh".contains(c)) {
        return None;
    }
    // The cutechess dialect writes no count as `0`.
    let count = match fields.get(3).copied().unwrap_or("-") {
        "-" | "0" => "-".to_string(),
        n => counter(n)?.to_string(),
    };
    let clock = counter(fields.get(4).copied().unwrap_or("0"))?;
    let number = counter(fields.get(5).copied().unwrap_or("1"))?;
    Some(format!("{}[{pocket}] {side} - {count} {clock} {number}", ranks.join("/")))
}

/// An SFEN (`<board> <b|w> <hand> <move count>`, docs/protocol.md's USI section) as a FEN in
/// pyffish's form, or None if it is not one.
fn sfen_for_pyffish(text: &str) -> Option<String> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if !(2..=4).contains(&fields.len()) || fields[0].contains(['[', ']']) {
        return None;
    }
    // `b` (sente) is White.
    let side = match fields[1] {
        "b" => "w",
        "w" => "b",
        _ => return None,
    };
    let hand = fields.get(2).copied().unwrap_or("-");
    let mut pocket = String::new();
    if hand != "-" {
        let mut count = String::new();
        for c in hand.chars() {
            if c.is_ascii_digit() {
                count.push(c);
            } else if "KSFRNPksfrnp".contains(c) {
                let n: usize = if count.is_empty() { 1 } else { count.parse().ok()? };
                if n == 0 || n > 32 {
                    return None;
                }
                pocket.extend(std::iter::repeat_n(c, n));
                count.clear();
            } else {
                return None;
            }
        }
        if !count.is_empty() || pocket.is_empty() {
            return None;
        }
    }
    // The move count counts plies from 1.
    let count = counter(fields.get(3).copied().unwrap_or("1"))?;
    if count == 0 {
        return None;
    }
    fen_for_pyffish(&format!("{}[{pocket}] {side} - - 0 {}", fields[0], (count - 1) / 2 + 1))
}

/// The parameters of `go` that docs/protocol.md says take a number.
const GO_NUMBERS: &[&str] =
    &["wtime", "btime", "winc", "binc", "byoyomi", "movestogo", "movetime", "depth", "nodes", "mate", "perft"];
/// Its parameters without a number; with those above, they end a `searchmoves` list.
const GO_FLAGS: &[&str] = &["infinite", "ponder", "searchmoves"];

/// A `go` command read the way docs/protocol.md describes it: each parameter's last value (a
/// value that is not a number cannot be used, and the word is read as the next parameter),
/// and whether `infinite` was given.
#[derive(Default)]
struct GoWords {
    values: Vec<(String, Option<i128>)>,
    infinite: bool,
}

impl GoWords {
    fn read(args: &[&str]) -> GoWords {
        let mut go = GoWords::default();
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            i += 1;
            if GO_NUMBERS.contains(&key) {
                let n = args.get(i).and_then(|t| t.parse::<i128>().ok());
                i += n.is_some() as usize;
                go.values.retain(|(k, _)| k != key);
                go.values.push((key.to_string(), n));
            } else if key == "infinite" {
                go.infinite = true;
            } else if key == "searchmoves" {
                while args.get(i).is_some_and(|w| !GO_NUMBERS.contains(w) && !GO_FLAGS.contains(w)) {
                    i += 1;
                }
            }
        }
        go
    }

    /// The usable value of a parameter, brought into `min..=max` as the document says.
    fn get(&self, key: &str, min: i128, max: i128) -> Option<i128> {
        self.values.iter().find(|(k, _)| k == key).and_then(|(_, v)| v.map(|n| n.clamp(min, max)))
    }

    /// `go perft N` counts instead of searching; without a usable N it is a search.
    fn perft(&self) -> Option<i128> {
        self.get("perft", 0, 20)
    }
}

/// What the engine's state should be: the position as a FEN pyffish read and the moves
/// that applied after it, the resulting FEN as pyffish writes it, and the dialect.
#[derive(Clone)]
struct Model {
    base: String,
    moves: Vec<String>,
    fen: String,
    usi: bool,
}

impl Model {
    fn dialect(&self) -> Dialect {
        if self.usi { Dialect::Usi } else { Dialect::Uci }
    }

    /// The position as Sitke's library holds it, for making up input lines only.
    fn generator_position(&self) -> Position {
        Position::from_fen(&self.fen).unwrap_or_else(|e| panic!("pyffish's FEN {} does not load: {e}", self.fen))
    }

    /// Applies one input line as docs/protocol.md says the engine must; returns the state a
    /// search starts from if the line is a searching `go`, and whether it is a `d`.
    fn apply(&mut self, line: &str, start: &str, oracle: &mut Pyffish) -> (Option<Model>, bool) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.first().copied() {
            Some("uci") => self.usi = false,
            Some("usi") => self.usi = true,
            Some("position") => self.position(&tokens[1..], start, oracle),
            Some("go") if GoWords::read(&tokens[1..]).perft().is_none() => return (Some(self.clone()), false),
            Some("d") => return (None, true),
            _ => {}
        }
        (None, false)
    }

    /// `position startpos|fen F|sfen S [moves ...]`: a bad FEN changes nothing, a bad move
    /// keeps the moves before it; words between `startpos` and `moves` are ignored.
    fn position(&mut self, args: &[&str], start: &str, oracle: &mut Pyffish) {
        let moves_at = args.iter().position(|&a| a == "moves").unwrap_or(args.len());
        let head = args.get(1..moves_at).unwrap_or_default().join(" ");
        let base = match args.first().copied() {
            Some("startpos") => Some(start.to_string()),
            Some("fen") => fen_for_pyffish(&head),
            Some("sfen") => sfen_for_pyffish(&head),
            _ => None,
        };
        let Some(base) = base else { return };
        // Only the moves before the first one that is not in the notation can apply.
        let moves: Vec<String> =
            args.get(moves_at + 1..).unwrap_or_default().iter().map_while(|m| move_for_pyffish(m, self.usi)).collect();
        let answer = oracle.ask(&["apply", &base, &moves.join(" ")]);
        if answer == "bad" {
            return;
        }
        let (applied, fen) = answer.split_once('\t').expect("count and FEN");
        let applied: usize = applied.parse().expect("a count");
        self.base = base;
        self.moves = moves[..applied].to_vec();
        self.fen = fen.to_string();
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
                if model.usi && rng.chance(0.5) {
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
                let mut text = move_text(m, model.dialect());
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
                let legal = model.generator_position().legal_moves();
                let some: Vec<String> =
                    legal.iter().take(rng.index(4) + 1).map(|m| move_text(*m, model.dialect())).collect();
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
            let go = GoWords::read(&t[1..]);
            if let Some(depth) = go.perft() {
                return depth > 3;
            }
            // The side to move's clock: in USI `btime` is White's (sente's).
            let white = model.fen.split(' ').nth(1) == Some("w");
            let own = go.get(if white != model.usi { "wtime" } else { "btime" }, 0, i128::MAX);
            let depth = go.get("depth", 1, 1000);
            let nodes = go.get("nodes", 1, i128::MAX);
            let movetime = go.get("movetime", 0, i128::MAX);
            let bounded = depth.is_some() || nodes.is_some() || movetime.is_some() || own.is_some();
            let quick = depth.is_some_and(|d| d <= 6)
                || nodes.is_some_and(|n| n <= 100_000)
                || movetime.is_some_and(|t| t <= 1000)
                || own.is_some_and(|t| t <= 10_000);
            // A search that runs until stopped is stopped by the next `go`: never costly. A
            // ponder search is, until a `ponderhit` puts it on the clock.
            !go.infinite && (bounded || go.get("mate", 1, 1000).is_some()) && !quick
        }
        _ => false,
    }
}

/// Whether `word`, the engine's `bestmove`, is a legal answer: one of `legal` (pyffish's
/// UCI) in the search's notation, or with no legal move `(none)` (`resign` in USI).
fn legal_answer(word: &str, legal: &[String], usi: bool) -> bool {
    if legal.is_empty() {
        return word == if usi { "resign" } else { "(none)" };
    }
    move_for_pyffish(word, usi).is_some_and(|m| legal.contains(&m))
}

#[test]
#[ignore = "oracle test: needs python3 and pyffish; bash scripts/test.sh runs it"]
fn fuzz_the_protocol() {
    oracle::require(&[oracle::Oracle::Pyffish]);
    let lines: usize = std::env::var("SITKE_FUZZ_LINES").ok().and_then(|v| v.parse().ok()).unwrap_or(4_000);
    let seed: u64 = std::env::var("SITKE_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5eed_1234);
    println!("protocol fuzz: {lines} lines, seed {seed}");
    let started = Instant::now();
    // Reproducible from the seed printed above.
    let mut rng = Rng::new(seed);
    let fens = base_fens();
    let mut py = Pyffish::start();
    let start = py.ask(&["start"]);
    let mut model = Model { base: start.clone(), moves: Vec::new(), fen: start.clone(), usi: false };
    let mut searches: VecDeque<Model> = VecDeque::new();
    let mut displays: VecDeque<String> = VecDeque::new();
    let mut e = Engine::sitke();
    let (mut sent_go, mut mutated, mut positions, mut kept) = (0, 0, 0, 0);
    let mut sent = String::new();
    for _ in 0..lines {
        let mut line = valid_line(&mut rng, &model, &fens);
        if rng.chance(0.35) {
            let m = mutate(&mut rng, &line);
            if !too_costly(&m, &model) {
                line = m;
                mutated += 1;
            }
        }
        let before = (model.base.clone(), model.moves.clone());
        let (search, display) = model.apply(line.trim(), &start, &mut py);
        if line.split_whitespace().next() == Some("position") {
            positions += 1;
            kept += (before == (model.base.clone(), model.moves.clone())) as usize;
        }
        if let Some(s) = search {
            searches.push_back(s);
            sent_go += 1;
        }
        if display {
            displays.push_back(model.fen.clone());
        }
        e.send(&line);
        sent.push_str(&line);
        sent.push('\n');
    }
    e.send("stop");
    // What was sent, to replay by hand (`sitke < file`) when the test fails.
    let log = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("protocol_fuzz-{seed}.txt"));
    std::fs::write(&log, &sent).expect("the input log written");
    println!("protocol fuzz: the input is in {}", log.display());
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
    assert_eq!(bestmoves.len(), sent_go, "one bestmove per searching go");
    let mut illegal = Vec::new();
    for (line, s) in bestmoves.iter().zip(searches.iter()) {
        let word = line.split_whitespace().nth(1).unwrap_or_default();
        if !legal_answer(word, &py.legal(&s.base, &s.moves), s.usi) {
            illegal.push(format!("{line} in {} ({})", s.fen, if s.usi { "USI" } else { "UCI" }));
        }
    }
    assert!(illegal.is_empty(), "illegal bestmoves: {illegal:?}");
    assert_eq!(fen_lines.len(), displays.len(), "one Fen: line per d");
    let differ: Vec<String> = fen_lines
        .iter()
        .zip(displays.iter())
        .enumerate()
        .filter(|(_, (got, want))| got != want)
        .map(|(i, (got, want))| format!("d number {i}: sitke {got}, pyffish {want}"))
        .collect();
    assert!(differ.is_empty(), "the engine's position is not what the commands mean:\n{differ:#?}");
    println!(
        "protocol fuzz: {lines} lines ({mutated} mutated), {positions} position commands ({kept} left \
         the position as it was), {sent_go} searches, all bestmoves legal, {} d checked, {:.1} s",
        displays.len(),
        started.elapsed().as_secs_f64()
    );
}
