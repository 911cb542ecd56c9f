//! Fuzzing of the FEN and move parsers with proptest: arbitrary text and mutated valid
//! FENs never panic, and whatever parses is a consistent position whose moves generate.
//! `PROPTEST_CASES` raises the number of inputs (default here: 20,000 per property).

use proptest::prelude::*;
use sitke::board::perft::parse_epd;
use sitke::board::{GenType, MoveList, Position};

fn suite_fens() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/sittuyin.epd")).unwrap();
    parse_epd(&text).unwrap().into_iter().map(|c| c.fen).collect()
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000)
}

/// A parsed position must be usable: consistent, printable, reparsable, with legal moves.
fn exercise(pos: &Position) {
    pos.check();
    let fen = pos.fen();
    let again = Position::from_fen(&fen).expect("printed FEN reparses");
    assert_eq!(again.fen(), fen);
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    let mut p = pos.clone();
    for &m in list.iter().take(8) {
        p.do_move(m);
        let _ = p.outcome();
        p.undo_move();
    }
    let _ = pos.outcome();
}

const FEN_CHARS: &str = "pnsfrkPNSFRK0123456789/[]- wb";

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics_the_fen_parser(s in "\\PC{0,120}") {
        if let Ok(pos) = Position::from_fen(&s) {
            exercise(&pos);
        }
    }

    #[test]
    fn fen_shaped_text_never_panics(s in proptest::collection::vec(proptest::sample::select(FEN_CHARS.chars().collect::<Vec<_>>()), 0..90)) {
        let s: String = s.into_iter().collect();
        if let Ok(pos) = Position::from_fen(&s) {
            exercise(&pos);
        }
    }

    #[test]
    fn mutated_fens_never_panic(
        index in 0usize..1000,
        edits in proptest::collection::vec((0usize..200, proptest::sample::select(FEN_CHARS.chars().collect::<Vec<_>>()), 0u8..3), 1..6),
    ) {
        let fens = suite_fens();
        let mut chars: Vec<char> = fens[index % fens.len()].chars().collect();
        for (at, c, op) in edits {
            let at = at % (chars.len() + 1);
            match op {
                0 => chars.insert(at, c),
                1 if at < chars.len() => { chars.remove(at); }
                _ if at < chars.len() => chars[at] = c,
                _ => chars.push(c),
            }
        }
        let s: String = chars.into_iter().collect();
        if let Ok(pos) = Position::from_fen(&s) {
            exercise(&pos);
        }
    }

    #[test]
    fn move_parser_never_panics_and_accepts_only_legal_moves(index in 0usize..1000, s in "[a-iA-Z@0-9fF ]{0,7}|\\PC{0,10}") {
        let fens = suite_fens();
        let pos = Position::from_fen(&fens[index % fens.len()]).unwrap();
        if let Ok(m) = pos.parse_uci_move(&s) {
            prop_assert!(pos.legal_moves().contains(m));
        }
    }
}
