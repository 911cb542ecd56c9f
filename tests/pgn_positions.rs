//! `sitke pgn-positions`, which turns match games into positions for the teacher's labels:
//! from a real game (fairy-stockfish against Sitke, 68 plies, with captures and checks) it
//! must keep exactly the quiet positions after the setup, each a legal position past the
//! setup with the side to move not in check, labelled with the game's result; a promotion
//! on the pawn's own square is no capture; an unfinished game must give nothing.
#![cfg(feature = "tools")]

use sitke::tools::r#match::pgn;
use std::process::Command;

const GAME: &str = r#"[Event "?"]
[White "fairy-stockfish"]
[Black "sitke"]
[Result "1-0"]
[Variant "Sittuyin"]

1. N@f2 S@b6 2. K@d2 N@d7 3. S@e1 N@e8 4. N@g2 K@f7 5. R@c1 F@b7 6. S@g3 R@d8
7. R@h1 S@d6 8. F@f3 R@h8 9. Ne3 b4 10. cxb4 cxb4 11. axb4 axb4 12. d4 dxe4
13. Fxe4 f5 14. h5 fxe4 15. hxg6+ Kxg6 16. f5+ exf5 17. Sf4 fxg4 18. Sf5+ Kg7
19. Nfxg4 Se7 20. Nd5 Nc5 21. Nxe7 Nxb3+ 22. Kc2 Nxd4+ 23. Kb2 h5 24. Rf1 Nf3
25. Ne3 Nd6 26. Se2 Rhe8 27. N3d5 Kh6 28. Sxf3 exf3 29. Rg1 Rf8 30. Rg6+ Kh7
31. Rh1 Nc4+ 32. Kc1 Rxf5 33. Nf6+ Kh8 34. Nxf5 Rd1+ 1-0

[Event "?"]
[White "sitke"]
[Black "fairy-stockfish"]
[Result "*"]
[Variant "Sittuyin"]

1. N@f2 S@b6 *

[Event "?"]
[White "sitke"]
[Black "fairy-stockfish"]
[Result "1/2-1/2"]
[Variant "Sittuyin"]
[FEN "2P5/8/8/8/8/3FK3/k3p3/7p[] b - - 1 78"]

78... h1=F 79. Fxe2 Kb3 80. Ff3 Kb4 1/2-1/2
"#;

/// The end of a real game: Black promotes the h1 pawn where it stands, then White takes.
const IN_PLACE: &str = "2P5/8/8/8/8/3FK3/k3p3/7p[] b - - 1 78";

#[test]
fn keeps_exactly_the_quiet_positions_after_the_setup() {
    let dir = std::env::temp_dir().join(format!("sitke-pgn-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pgn, out) = (dir.join("games.pgn"), dir.join("positions.txt"));
    std::fs::write(&pgn, GAME).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_sitke"))
        .arg("pgn-positions")
        .arg(&pgn)
        .arg("--out")
        .arg(&out)
        .status()
        .expect("sitke runs");
    assert!(status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let lines: Vec<&str> = text.lines().collect();

    // What it must keep, worked out with our own PGN reader and board: the position before
    // each move after the 16 drops, unless that move captures or the side to move is in
    // check.
    let games = pgn::read_games(GAME);
    assert_eq!(games.len(), 3);
    let mut expected = Vec::new();
    for (game, id, result) in [(&games[0], 10_000_000, "1.0"), (&games[2], 10_000_001, "0.5")] {
        let (mut pos, played) = game.replay().expect("the game replays");
        expected.push(format!("#game {id} {result} {} pgn", played.len()));
        for &m in &played {
            if !pos.in_setup() && !pos.in_check() && !pos.is_capture(m) {
                assert!(!m.is_drop());
                expected.push(format!("{};0;{result}", pos.fen()));
            }
            pos.do_move(m);
        }
    }
    let first_game = lines.iter().position(|l| l.starts_with("#game 10000001")).unwrap();
    assert_eq!(lines[0], "#game 10000000 1.0 68 pgn", "the unfinished game must not appear");
    assert!(first_game < 68 - 16 + 1, "the first game has captures and checks to leave out");
    assert_eq!(lines, expected);
    assert!(lines.contains(&format!("{IN_PLACE};0;0.5").as_str()), "the in-place promotion is not a capture");
    assert_eq!(lines.len() - first_game - 1, 4, "five moves, one of them a capture");
}
