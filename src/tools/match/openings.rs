//! Openings: positions from an EPD/FEN file or games from a PGN file, taken in order or
//! shuffled with the match seed, or random setups (`-openings random plies=K`). A bad line
//! in a file is reported by its line number and skipped; the match goes on with the rest.

use super::cli::{OpeningFormat, OpeningSource};
use super::pgn;
use crate::board::{Move, Position, Rules};
use crate::rng::Rng;

/// Where a game starts: a position and the moves played from it before the engines take
/// over.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The start FEN, `None` for the standard start position.
    pub fen: Option<String>,
    /// Moves from there, played as book moves.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The start position (before the opening's moves).
    pub fn position(&self) -> Position {
        match &self.fen {
            // The FEN was checked when the opening was loaded.
            Some(f) => Position::from_fen(f).unwrap_or_else(|_| Position::startpos()),
            None => Position::startpos(),
        }
    }

    /// Whether the game is still on after the opening's moves.
    fn playable(&self) -> Result<(), String> {
        let mut pos = self.position();
        for &m in &self.moves {
            pos.do_move(m);
        }
        match pos.outcome() {
            o if o.is_over() => Err(format!("the game is already over ({})", o.reason())),
            _ => Ok(()),
        }
    }
}

/// The openings of a match.
#[derive(Clone, Debug)]
pub enum OpeningBook {
    /// The standard start position for every game.
    StartPosition,
    /// A list, used round-robin from an offset.
    List {
        /// The openings, already shuffled if the order is random.
        openings: Vec<Opening>,
        /// Index of the first opening used.
        offset: usize,
    },
    /// Random setups of this many plies, one per opening index.
    Random {
        /// Plies played at random.
        plies: usize,
        /// The match seed.
        seed: u64,
        /// The rules the moves are legal under (the referee's).
        rules: &'static Rules,
    },
}

/// Parses one EPD/FEN line: the text before the first `;`, as a FEN of six fields or, when
/// EPD operations follow the four position fields, of four.
fn parse_epd_line(line: &str) -> Result<Opening, String> {
    let fields: Vec<&str> = line.split(';').next().unwrap_or("").split_whitespace().collect();
    let six = fields[..fields.len().min(6)].join(" ");
    let pos = match Position::from_fen(&six) {
        Ok(p) => p,
        Err(e) => {
            Position::from_fen(&fields[..fields.len().min(4)].join(" ")).map_err(|_| format!("invalid FEN: {e}"))?
        }
    };
    Ok(Opening { fen: Some(pos.fen()), moves: Vec::new() })
}

fn load_epd(text: &str, name: &str) -> Vec<Opening> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_epd_line(line).and_then(|o| o.playable().map(|_| o)) {
            Ok(o) => out.push(o),
            Err(e) => log::warn!("{name}:{}: skipping opening '{line}': {e}", i + 1),
        }
    }
    out
}

fn load_pgn(text: &str, name: &str, plies: Option<usize>) -> Vec<Opening> {
    let mut out = Vec::new();
    for (i, game) in pgn::read_games(text).into_iter().enumerate() {
        let opening = game.replay().and_then(|(start, mut moves)| {
            moves.truncate(plies.unwrap_or(usize::MAX));
            let fen = game.tag("FEN").map(|_| start.fen());
            let o = Opening { fen, moves };
            o.playable().map(|_| o)
        });
        match opening {
            Ok(o) => out.push(o),
            Err(e) => log::warn!("{name}: skipping game {} (line {}): {e}", i + 1, game.line),
        }
    }
    out
}

impl OpeningBook {
    /// Loads the openings a match asks for, random setups made under `rules`; an error only
    /// if none is usable.
    pub fn load(source: &OpeningSource, seed: u64, rules: &'static Rules) -> Result<OpeningBook, String> {
        match source {
            OpeningSource::StartPosition => Ok(OpeningBook::StartPosition),
            OpeningSource::Random { plies } => Ok(OpeningBook::Random { plies: *plies, seed, rules }),
            OpeningSource::File { path, format, random_order, plies, start } => {
                let name = path.display().to_string();
                let text =
                    std::fs::read_to_string(path).map_err(|e| format!("cannot read opening file {name}: {e}"))?;
                let mut openings = match format {
                    OpeningFormat::Epd => load_epd(&text, &name),
                    OpeningFormat::Pgn => load_pgn(&text, &name, *plies),
                };
                if openings.is_empty() {
                    return Err(format!("opening file {name} holds no usable opening"));
                }
                if *random_order {
                    // Shuffled with the match seed, so a seed reproduces the order.
                    Rng::new(seed).shuffle(&mut openings);
                }
                let offset = (start - 1) % openings.len();
                Ok(OpeningBook::List { openings, offset })
            }
        }
    }

    /// The opening with this index (game pairs share one).
    pub fn get(&self, index: u64) -> Opening {
        match self {
            OpeningBook::StartPosition => Opening { fen: None, moves: Vec::new() },
            OpeningBook::List { openings, offset } => openings[(*offset + index as usize) % openings.len()].clone(),
            OpeningBook::Random { plies, seed, rules } => random_setup(*plies, *seed, index, rules),
        }
    }
}

/// `plies` random legal moves under `rules` from the start position, from a generator
/// seeded by the match seed and the opening index, so every opening is reproducible on
/// its own.
fn random_setup(plies: usize, seed: u64, index: u64, rules: &'static Rules) -> Opening {
    let mut rng = Rng::for_item(seed, index);
    let mut pos = Position::startpos_with(rules);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        // Stop one move short of a finished game, so the engines always have a move.
        let choices: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| {
                let mut after = pos.clone();
                after.do_move(m);
                !after.outcome().is_over()
            })
            .collect();
        if choices.is_empty() {
            break;
        }
        let m = *rng.pick(&choices);
        pos.do_move(m);
        moves.push(m);
    }
    Opening { fen: None, moves }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_skipped_and_the_rest_kept() {
        let text = "# a comment\n\
            8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1\n\
            this is not a fen\n\
            4k3/8/8/8/8/8/7R/4K3[] w - - bm Rh8; id \"rook\";\n\
            4k3/8/4K3/8/8/8/8/8[] w - - 0 40\n";
        let openings = load_epd(text, "test.epd");
        // The bad line and the bare-kings draw are dropped; the EPD line with operations
        // parses from its four position fields.
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[1].fen.as_deref(), Some("4k3/8/8/8/8/8/7R/4K3[] w - - 0 1"));
    }

    #[test]
    fn random_setups_are_reproducible_and_legal() {
        let fairy = &Rules::FAIRY_STOCKFISH;
        let a = random_setup(16, 7, 3, fairy);
        assert_eq!(a, random_setup(16, 7, 3, fairy));
        assert_ne!(a, random_setup(16, 7, 4, fairy));
        assert_eq!(a.moves.len(), 16);
        assert!(a.moves.iter().all(|m| m.is_drop()), "16 plies are the whole setup");
        let mut pos = Position::startpos();
        for &m in &a.moves {
            assert!(pos.is_legal(m));
            pos.do_move(m);
        }
        assert!(!pos.in_setup());
    }

    #[test]
    fn random_setups_follow_the_rules_of_the_match() {
        // Pritchard's setup: White's eight drops, then Black's; every one legal there, so a
        // match under those rules plays the whole book.
        let p = &Rules::PRITCHARD;
        let a = random_setup(18, 11, 0, p);
        assert_eq!(a.moves.len(), 18);
        let mut pos = Position::startpos_with(p);
        for (i, &m) in a.moves.iter().enumerate() {
            assert!(pos.is_legal(m), "ply {}: {m}", i + 1);
            let dropper = if i < 8 { crate::board::Color::White } else { crate::board::Color::Black };
            assert!(i >= 16 || pos.side_to_move() == dropper, "ply {}", i + 1);
            pos.do_move(m);
        }
        assert!(!pos.in_setup());
        // Under the alternating rules the second of those drops is White's again: illegal.
        let mut alternating = Position::startpos();
        alternating.do_move(a.moves[0]);
        assert!(!alternating.is_legal(a.moves[1]));
    }

    #[test]
    fn a_list_is_used_round_robin_from_its_start() {
        let o = |f: &str| Opening { fen: Some(f.to_string()), moves: vec![] };
        let book = OpeningBook::List { openings: vec![o("a"), o("b"), o("c")], offset: 1 };
        let got: Vec<_> = (0..4).map(|i| book.get(i).fen.unwrap()).collect();
        assert_eq!(got, ["b", "c", "a", "b"]);
    }

    #[test]
    fn pgn_openings_are_cut_to_their_plies_and_bad_games_skipped() {
        let text = "[Event \"one\"]\n\n1. R@a1 R@h8 2. K@e2 K@d7 *\n\n\
            [Event \"two\"]\n\n1. R@a1 Zz9 *\n\n\
            [Event \"three\"]\n[FEN \"4k3/8/8/8/8/8/7R/4K3[] w - - 0 40\"]\n\n40. Rh7 Kd8 *\n";
        let openings = load_pgn(text, "book.pgn", Some(3));
        assert_eq!(openings.len(), 2, "the game with the bad move is skipped");
        let uci: Vec<String> = openings[0].moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(uci, ["R@a1", "R@h8", "K@e2"]);
        assert_eq!(openings[0].fen, None);
        assert_eq!(openings[1].fen.as_deref(), Some("4k3/8/8/8/8/8/7R/4K3[] w - - 0 40"));
        assert_eq!(openings[1].moves.len(), 2);
    }
}
