//! `scripts/pgn_positions.py`, which turns match games into positions for the teacher's
//! labels: from a real game (fairy-stockfish against Sitke, 68 plies, with captures and
//! checks) it must keep exactly the quiet positions after the setup, each a legal position
//! past the setup with the side to move not in check, labelled with the game's result; an
//! unfinished game must give nothing. Needs `python3` with `pyffish` (the CI script installs
//! it).

use sitke::tools::r#match::pgn;
use std::path::PathBuf;
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
"#;

#[test]
fn keeps_exactly_the_quiet_positions_after_the_setup() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target").join("pgn-positions-test");
    std::fs::create_dir_all(&dir).unwrap();
    let (pgn, out) = (dir.join("games.pgn"), dir.join("positions.txt"));
    std::fs::write(&pgn, GAME).unwrap();
    let status = Command::new("python3")
        .arg(root.join("scripts/pgn_positions.py"))
        .arg(&pgn)
        .arg(&out)
        .status()
        .expect("python3 runs (install python3 and `pip install pyffish`)");
    assert!(status.success(), "pgn_positions.py failed: is pyffish installed?");
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();

    // What the script must keep, worked out with our own PGN reader and board: the
    // position before each move after the 16 drops, unless that move captures or the side
    // to move is in check.
    let games = pgn::read_games(GAME);
    assert_eq!(games.len(), 2);
    let (mut pos, played) = games[0].replay().expect("the game replays");
    assert_eq!(played.len(), 68);
    let mut expected = Vec::new();
    for (i, &m) in played.iter().enumerate() {
        if i >= 16 && !pos.in_check() && pos.piece_on(m.to()).is_none() {
            assert!(!pos.in_setup() && !m.is_drop());
            expected.push(format!("{};0;1.0", pos.fen()));
        }
        pos.do_move(m);
    }
    assert!(expected.len() < 68 - 16, "the game has captures and checks to leave out");

    assert_eq!(lines[0], "#game 10000000 1.0 68 pgn", "the unfinished game must not appear");
    assert_eq!(lines[1..], expected[..]);
}
