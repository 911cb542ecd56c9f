//! Invariants along random games: the incremental Zobrist key equals a full recompute,
//! FEN round-trips, unmake restores, `gives_check` and `is_legal` agree with the move
//! generator, and captures+promotions plus quiet moves make up exactly the legal moves.

use sitke::board::perft::parse_epd;
use sitke::board::{GenType, Move, MoveList, PieceType, Position, Square};
use sitke::rng::Rng;

fn starts() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/sittuyin.epd")).unwrap();
    let mut v: Vec<String> = parse_epd(&text).unwrap().into_iter().map(|c| c.fen).collect();
    v.push(sitke::board::START_FEN.to_string());
    v
}

/// Every syntactically possible move of a few kinds, to probe `is_legal` with illegal ones.
fn probe_moves(rng: &mut Rng) -> Vec<Move> {
    let mut v = Vec::new();
    for _ in 0..40 {
        let a = Square::ALL[rng.index(64)];
        let b = Square::ALL[rng.index(64)];
        v.push(Move::normal(a, b));
        v.push(Move::promotion(a, b));
        v.push(Move::drop(PieceType::ALL[rng.index(6)], b));
    }
    v
}

/// Checks one position; returns how many quiet checks it has.
fn check_position(pos: &mut Position, rng: &mut Rng) -> usize {
    assert_eq!(pos.key(), pos.compute_key(), "{}", pos.fen());
    pos.check();
    let fen = pos.fen();
    let reparsed = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(reparsed.fen(), fen);
    assert_eq!(reparsed.key(), pos.key());

    let all = pos.legal_moves();
    let (mut noisy, mut quiet) = (MoveList::new(), MoveList::new());
    pos.generate(GenType::Noisy, &mut noisy);
    pos.generate(GenType::Quiet, &mut quiet);
    assert_eq!(noisy.len() + quiet.len(), all.len(), "{fen}");
    for m in noisy.iter().chain(quiet.iter()) {
        assert!(all.contains(*m), "{fen}: {m} generated as noisy/quiet but not legal");
    }
    for &m in noisy.iter() {
        assert!(m.is_promotion() || pos.piece_on(m.to()).is_some(), "{fen}: {m} is not noisy");
    }
    assert_eq!(all.len(), pos.count_legal());
    for &m in all.iter() {
        assert!(pos.is_legal(m), "{fen}: {m} generated but is_legal says no");
        let gives = pos.gives_check(m);
        let key = pos.key();
        pos.do_move(m);
        assert_eq!(pos.in_check(), gives, "{fen}: gives_check({m})");
        pos.undo_move();
        assert_eq!(pos.key(), key);
        assert_eq!(pos.fen(), fen, "unmake of {m}");
    }
    for m in probe_moves(rng) {
        assert_eq!(pos.is_legal(m), all.contains(m), "{fen}: is_legal({m})");
    }
    // The quiet-check generator is the quiet moves filtered by gives_check, in order.
    let mut checks = Vec::new();
    pos.quiet_check_sets(&mut |set| checks.extend(set.moves()));
    let expected: Vec<Move> = quiet.iter().copied().filter(|&m| pos.gives_check(m)).collect();
    assert_eq!(checks, expected, "{fen}: quiet checks");
    checks.len()
}

#[test]
fn random_games_keep_every_invariant() {
    // A fixed seed, so failures reproduce.
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let starts = starts();
    let (mut positions, mut quiet_checks) = (0, 0);
    for game in 0..120 {
        let mut pos = Position::from_fen(&starts[game % starts.len()]).unwrap();
        for _ in 0..250 {
            quiet_checks += check_position(&mut pos, &mut rng);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_over() {
                break;
            }
            // Prefer captures and promotions now and then, so games reach the endings.
            let noisy: Vec<Move> =
                moves.iter().copied().filter(|m| m.is_promotion() || pos.piece_on(m.to()).is_some()).collect();
            let m = if !noisy.is_empty() && rng.chance(1.0 / 3.0) {
                *rng.pick(&noisy)
            } else {
                *rng.pick(moves.as_slice())
            };
            pos.do_move(m);
        }
    }
    assert!(positions > 10_000, "{positions}");
    assert!(quiet_checks > 5_000, "{quiet_checks}");
}

#[test]
fn pawn_in_hand_drops_on_the_second_and_third_ranks() {
    // Current Fairy-Stockfish (pyffish 0.0.90) allows pawn drops on the mover's second and
    // third ranks (Debian's 11.1 build allows none; pawns never reach the hand in play).
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 5").unwrap();
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    let expected: Vec<String> = "abcdefgh".chars().flat_map(|f| [format!("P@{f}2"), format!("P@{f}3")]).collect();
    assert_eq!(moves, expected);
}
