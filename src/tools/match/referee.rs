//! Judging the games of a PGN file by any rule set (`sitke match -referee FILE -rules
//! NAME`), which compares another referee's verdicts
//! (cutechess's, in `scripts/cutechess_federation.sh`) with Sitke's.

use super::pgn::read_games;
use crate::board::{Outcome, Rules};

/// Judges every game of the PGN text by `rules`: one line per game, tab-separated: the
/// game's number, its `Result` tag, Sitke's result and reason after its last move (or
/// `illegal` and the move Sitke refuses), and the FEN there. Moves are read as SAN or UCI
/// text.
pub fn referee_pgn(text: &str, rules: &'static Rules) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, game) in read_games(text).iter().enumerate() {
        let tag = game.tag("Result").unwrap_or("*");
        let verdict = match game.start_position() {
            Err(e) => format!("error\t{e}"),
            Ok(start) => {
                let mut pos = start.with_rules(rules);
                let mut refused = None;
                for (ply, text) in game.moves.iter().enumerate() {
                    match pos.parse_san(text) {
                        Ok(m) => pos.do_move(m),
                        Err(e) => {
                            refused = Some(format!("illegal\tply {}: {e}", ply + 1));
                            break;
                        }
                    }
                }
                let verdict = match refused {
                    Some(r) => r,
                    None => {
                        let o = pos.outcome();
                        let reason = if o == Outcome::Ongoing { "ongoing" } else { o.reason() };
                        format!("{}\t{reason}", o.result_str())
                    }
                };
                format!("{verdict}\t{}", pos.fen())
            }
        };
        lines.push(format!("{}\t{tag}\t{verdict}", i + 1));
    }
    lines
}

/// `sitke match -referee FILE [-rules NAME]`: prints `referee_pgn`'s lines.
pub fn run_referee(args: &[String]) -> Result<(), String> {
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let path = value("-referee").ok_or("-referee takes a PGN file")?;
    let rules = match value("-rules") {
        Some(n) => Rules::by_name(n).ok_or_else(|| format!("-rules {n}: unknown rule set"))?,
        None => &Rules::FAIRY_STOCKFISH,
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    for line in referee_pgn(&text, rules) {
        println!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pgn_is_judged_by_the_rules_asked_for() {
        // Three times the same position: a draw for Fairy-Stockfish, not for cutechess.
        let pgn = "[FEN \"4k3/8/8/8/8/2p5/8/R3K3[] w - - 0 40\"]\n[Result \"*\"]\n\n\
                   1. a1a2 e8d8 2. a2a1 d8e8 3. a1a2 e8d8 4. a2a1 d8e8 *\n";
        let fen = "4k3/8/8/8/8/2p5/8/R3K3[] w - - 8 44";
        assert_eq!(referee_pgn(pgn, &Rules::FAIRY_STOCKFISH), [format!("1\t*\t1/2-1/2\tthreefold repetition\t{fen}")]);
        assert_eq!(referee_pgn(pgn, &Rules::FEDERATION), [format!("1\t*\t*\tongoing\t{fen}")]);
        let bad = "[Result \"*\"]\n\n1. e3e4 *\n";
        assert!(referee_pgn(bad, &Rules::FAIRY_STOCKFISH)[0].contains("illegal\tply 1"));
    }
}
