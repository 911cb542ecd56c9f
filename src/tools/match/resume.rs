//! `-resume`: a match cut off (a reboot, a lost session) goes on from its own PGN file.
//!
//! The games in the file count as played; the rest of the schedule is played as it would
//! have been, since game N's opening depends only on the seed and N. So an SPRT that was
//! cut off at game 347 ends where an uninterrupted one would have (games in progress at
//! the cut are played again from their start). Every game read back must be the one the
//! schedule gives its number: the same engines in the same colours, from the same
//! opening. Anything else (another seed, other engines, another match's file) is an
//! error rather than a silently mixed result.

use super::cli::MatchConfig;
use super::openings::OpeningBook;
use super::pgn;
use super::record::GameRecord;
use std::collections::BTreeMap;

/// A finished game of an earlier run, as the tally needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// 1-based game number (the PGN `Round`).
    pub number: u64,
    /// Whether the match's first engine had White.
    pub first_is_white: bool,
    /// The first engine's half points: 2, 1 or 0.
    pub first_half_points: usize,
}

impl PlayedGame {
    /// A game of this run, as the tally counts it.
    pub fn of(rec: &GameRecord) -> PlayedGame {
        PlayedGame {
            number: rec.number,
            first_is_white: rec.first_is_white,
            first_half_points: rec.first_half_points(),
        }
    }
}

/// The finished games in the match's PGN file (none if the file does not exist yet), in
/// game order, each checked against the schedule. A game cut off while it was being
/// written at the end of the file is cut from the file, so the games appended next start
/// on a line of their own.
pub fn load(cfg: &MatchConfig, book: &OpeningBook) -> Result<Vec<PlayedGame>, String> {
    let Some((path, _)) = &cfg.pgnout else {
        return Err("-resume needs -pgnout: the games are read back from that file".to_string());
    };
    if cfg.srand.is_none() {
        return Err("-resume needs the -srand of the run it continues, to schedule the same openings".to_string());
    }
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {} to resume: {e}", path.display())),
    };
    let name = path.display();
    let games = pgn::read_games(&text);
    if let Some(last) = games.last().filter(|g| g.result.is_none()) {
        let keep: usize = text.split_inclusive('\n').take(last.line - 1).map(str::len).sum();
        let file = std::fs::OpenOptions::new().write(true).open(path);
        file.and_then(|f| f.set_len(keep as u64))
            .map_err(|e| format!("cannot cut the unfinished last game off {name}: {e}"))?;
        log::warn!("{name}: cut off an unfinished game at line {}; it is played again", last.line);
    }
    let mut played = BTreeMap::new();
    for game in games {
        let at = |what: String| format!("{name}, the game at line {}: {what}", game.line);
        let winner_is_white = match game.result.as_deref() {
            Some("1-0") => Some(true),
            Some("0-1") => Some(false),
            Some("1/2-1/2") => None,
            // Cut off while it was being written: it is played again.
            _ => continue,
        };
        let number: u64 = game
            .tag("Round")
            .and_then(|r| r.parse().ok())
            .filter(|&n| (1..=cfg.total_games()).contains(&n))
            .ok_or_else(|| at(format!("no game number (Round) from 1 to {}", cfg.total_games())))?;
        let index = number - 1;
        let first_is_white = index.is_multiple_of(2);
        let (white, black) = if first_is_white { (0, 1) } else { (1, 0) };
        let names = (game.tag("White").unwrap_or("?"), game.tag("Black").unwrap_or("?"));
        let expected = (cfg.engines[white].name.as_str(), cfg.engines[black].name.as_str());
        if names != expected {
            return Err(at(format!(
                "game {number} is {} vs {}, but this match plays it {} vs {}",
                names.0, names.1, expected.0, expected.1
            )));
        }
        let (start, moves) = game.replay_under(cfg.rules).map_err(|e| at(format!("game {number}: {e}")))?;
        let opening = book.get(if cfg.repeat { index / 2 } else { index });
        // A game forfeited before its first move (an engine that would not start) has none.
        if !moves.is_empty()
            && (start.fen() != opening.position().with_rules(cfg.rules).fen() || !moves.starts_with(&opening.moves))
        {
            return Err(at(format!(
                "game {number} did not start from the opening this match gives it: another -srand \
                 or other -openings than the run it continues?"
            )));
        }
        let first_half_points = match winner_is_white {
            None => 1,
            Some(w) if w == first_is_white => 2,
            Some(_) => 0,
        };
        let record = PlayedGame { number, first_is_white, first_half_points };
        if played.insert(number, record).is_some() {
            return Err(at(format!("game {number} is in the file twice")));
        }
    }
    Ok(played.into_values().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::r#match::cli;

    fn config(pgn: &std::path::Path, srand: u64) -> MatchConfig {
        let line = format!(
            "-engine cmd=a name=A -engine cmd=b name=B -each nodes=100 -games 2 -rounds 3 -repeat \
             -openings random plies=4 -srand {srand} -pgnout {}",
            pgn.display()
        );
        cli::parse(&line.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap()
    }

    /// A finished game as the match writes it: the opening's moves, then a result.
    fn game_text(cfg: &MatchConfig, book: &OpeningBook, number: u64, result: &str) -> String {
        let index = number - 1;
        let opening = book.get(index / 2);
        let mut pos = opening.position();
        let mut sans = Vec::new();
        for &m in &opening.moves {
            sans.push(pos.san(m));
            pos.do_move(m);
        }
        let (w, b) = if index.is_multiple_of(2) { (0, 1) } else { (1, 0) };
        format!(
            "[Round \"{number}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n\n{} {result}\n\n",
            cfg.engines[w].name,
            cfg.engines[b].name,
            sans.join(" ")
        )
    }

    /// A scratch directory removed when the test ends, pass or fail.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("sitke-resume-{name}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn pgn(&self) -> std::path::PathBuf {
            self.0.join("games.pgn")
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn reads_back_results_from_the_first_engines_view() {
        let dir = Scratch::new("read");
        let path = dir.pgn();
        let cfg = config(&path, 7);
        let book = OpeningBook::load(&cfg.openings, 7, cfg.rules).unwrap();
        assert_eq!(load(&cfg, &book).unwrap(), Vec::new(), "no file yet: nothing played");
        // Game 2 has B as White, so its 1-0 is a loss for A; game 3 is unfinished.
        let text = game_text(&cfg, &book, 2, "1-0")
            + &game_text(&cfg, &book, 1, "1/2-1/2")
            + &game_text(&cfg, &book, 3, "*")
            + &game_text(&cfg, &book, 4, "1-0");
        std::fs::write(&path, text).unwrap();
        let games = load(&cfg, &book).unwrap();
        let summary: Vec<_> = games.iter().map(|g| (g.number, g.first_is_white, g.first_half_points)).collect();
        assert_eq!(summary, vec![(1, true, 1), (2, false, 0), (4, false, 0)]);
    }

    #[test]
    fn refuses_a_file_of_another_schedule() {
        let dir = Scratch::new("refuse");
        let path = dir.pgn();
        let cfg = config(&path, 7);
        let book = OpeningBook::load(&cfg.openings, 7, cfg.rules).unwrap();
        std::fs::write(&path, game_text(&cfg, &book, 1, "1-0")).unwrap();
        // Another seed gives game 1 another opening.
        let other = config(&path, 8);
        let other_book = OpeningBook::load(&other.openings, 8, other.rules).unwrap();
        let err = load(&other, &other_book).unwrap_err();
        assert!(err.contains("-srand"), "{err}");
        // Colours that do not fit the game number.
        std::fs::write(&path, game_text(&cfg, &book, 1, "1-0").replace("Round \"1\"", "Round \"2\"")).unwrap();
        let err = load(&cfg, &book).unwrap_err();
        assert!(err.contains("game 2 is A vs B"), "{err}");
        // The same game twice, and a number past the schedule.
        std::fs::write(&path, game_text(&cfg, &book, 1, "1-0").repeat(2)).unwrap();
        assert!(load(&cfg, &book).unwrap_err().contains("twice"));
        std::fs::write(&path, game_text(&cfg, &book, 1, "1-0").replace("Round \"1\"", "Round \"7\"")).unwrap();
        assert!(load(&cfg, &book).unwrap_err().contains("from 1 to 6"));
    }
}
