//! The `d` command: the board diagram as Fairy-Stockfish draws it (pockets beside the first
//! and last rank, `*` marking the side to move), then the `Fen:`, `Sfen:`, `Key:` and
//! `Checkers:` lines. Fairy-Stockfish prints `Sfen:` in both dialects, and so do we; the
//! checkers are written in the dialect's square notation. Before `Checkers:` (which stays
//! last, as hosts wait for it) come Sitke's own `Rule50:`, `Counting:` and `Outcome:` lines,
//! so a host without its own rules (the web page) can show the clocks and the game's end.

use super::usi::Dialect;
use super::usi::square_text;
use crate::board::{Color, Piece, PieceType, Position, Square};

const RULE: &str = " +---+---+---+---+---+---+---+---+\n";

/// The pocket of `c` as its FEN letters, e.g. `[KSSFRRNN]`.
fn pocket(pos: &Position, c: Color) -> String {
    let mut s = String::from("[");
    for pt in PieceType::HAND_ORDER {
        for _ in 0..pos.hand_count(c, pt) {
            s.push(Piece::new(c, pt).letter());
        }
    }
    s.push(']');
    s
}

/// The full text of `d`.
pub fn diagram(pos: &Position, dialect: Dialect) -> String {
    let mut out = String::from("\n");
    out.push_str(RULE);
    for rank in (0..8).rev() {
        out.push_str(" |");
        for file in 0..8 {
            let c = pos.piece_on(Square::new(file, rank)).map_or(' ', |p| p.letter());
            out.push_str(&format!(" {c} |"));
        }
        // Black's pocket sits beside rank 8 and White's beside rank 1.
        let owner = match rank {
            7 => Some(Color::Black),
            0 => Some(Color::White),
            _ => None,
        };
        if let Some(c) = owner {
            let mark = if pos.side_to_move() == c { " *" } else { "  " };
            out.push_str(&format!("{mark} {}", pocket(pos, c)));
        }
        out.push('\n');
        out.push_str(RULE);
    }
    out.push_str(&format!("\nFen: {}\n", pos.fen()));
    out.push_str(&format!("Sfen: {}\n", super::usi::sfen(pos)));
    out.push_str(&format!("Key: {:016X}\n", pos.key()));
    out.push_str(&format!("Rule50: {}\n", pos.rule50()));
    match pos.counting_limit() {
        0 => out.push_str("Counting: off\n"),
        limit => out.push_str(&format!("Counting: {} of {limit}\n", pos.counting_ply())),
    }
    let outcome = pos.outcome();
    out.push_str(&format!("Outcome: {} {}\n", outcome.result_str(), outcome.reason()));
    out.push_str("Checkers: ");
    for sq in pos.checkers() {
        let text = match dialect {
            Dialect::Uci => sq.to_string(),
            Dialect::Usi => square_text(sq),
        };
        out.push_str(&text);
        out.push(' ');
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_diagram() {
        let d = diagram(&Position::startpos(), Dialect::Uci);
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "");
        assert_eq!(lines[2], " |   |   |   |   |   |   |   |   |   [kssfrrnn]");
        assert_eq!(lines[16], " |   |   |   |   |   |   |   |   | * [KSSFRRNN]");
        assert!(d.contains("\nFen: 8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1\n"));
        assert!(d.contains("\nSfen: 8/8/4pppp/pppp4/4PPPP/PPPP4/8/8 b K2SF2R2Nk2sf2r2n 1\n"));
        assert!(d.ends_with("Rule50: 0\nCounting: off\nOutcome: * in progress\nCheckers: \n"));
    }

    #[test]
    fn clocks_and_outcome() {
        let mated = Position::from_fen("R3k3/8/4K3/8/8/8/8/8[] b - - 3 40").unwrap();
        assert!(diagram(&mated, Dialect::Uci).contains("\nRule50: 3\n"));
        assert!(diagram(&mated, Dialect::Uci).contains("\nOutcome: 1-0 checkmate\n"));
        let bare = Position::from_fen("4k3/8/8/8/8/8/7R/4K3[] b - 32 0 31").unwrap();
        let d = diagram(&bare, Dialect::Uci);
        assert!(d.contains("\nCounting: ") && !d.contains("Counting: off"), "{d}");
    }

    #[test]
    fn checkers_in_both_dialects() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4RK2[] b - - 0 40").unwrap();
        assert!(diagram(&pos, Dialect::Uci).ends_with("Checkers: e1 \n"));
        assert!(diagram(&pos, Dialect::Usi).ends_with("Checkers: 4h \n"));
    }
}
