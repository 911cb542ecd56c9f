//! SAN against pyffish (Fairy-Stockfish's own library): random games biased towards
//! captures and promotions, from the start and from every position of the perft suites,
//! are written in SAN by Sitke and by pyffish (`get_san_moves`), which must agree move for
//! move; in positions where some move needs disambiguation (and in every suite position and
//! a few hand-made ones with three knights or three mets) the SAN of every legal move alone
//! (`get_san`) must agree too. Every SAN must also read back to its move.
//! Needs `python3` with `pyffish`: ignored by a plain `cargo test`, run by
//! `bash scripts/test.sh` (which installs it) and CI.

mod oracle;

use sitke::board::{Move, MoveKind, Position};
use sitke::rng::Rng;
use std::io::Write;
use std::path::PathBuf;

fn suite_fens() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut fens = Vec::new();
    for file in ["perft/sittuyin.epd", "perft/edge_cases.epd"] {
        let text = std::fs::read_to_string(root.join(file)).expect("perft suite");
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            fens.push(line.split(';').next().unwrap_or("").trim().to_string());
        }
    }
    fens
}

/// Whether some legal move here has a twin of the same piece type going to the same square.
fn needs_disambiguation(pos: &Position) -> bool {
    let moves = pos.legal_moves();
    moves.iter().enumerate().any(|(i, a)| {
        a.kind() == MoveKind::Normal
            && moves[i + 1..].iter().any(|b| {
                b.kind() == MoveKind::Normal
                    && b.to() == a.to()
                    && pos.piece_on(b.from()).map(|p| p.kind()) == pos.piece_on(a.from()).map(|p| p.kind())
            })
    })
}

fn random_game(rng: &mut Rng, start: &str, each: &mut Vec<(String, Vec<Move>)>) -> Vec<Move> {
    let mut pos = Position::from_fen(start).expect("suite FEN");
    let mut played = Vec::new();
    while played.len() < 200 && !pos.outcome().is_over() {
        let legal = pos.legal_moves();
        if each.len() < 150 && needs_disambiguation(&pos) && rng.chance(0.2) {
            each.push((pos.fen(), legal.to_vec()));
        }
        let promos: Vec<Move> = legal.iter().copied().filter(|m| m.is_promotion()).collect();
        let caps: Vec<Move> =
            legal.iter().copied().filter(|m| m.kind() == MoveKind::Normal && pos.piece_on(m.to()).is_some()).collect();
        let m = if !promos.is_empty() && rng.chance(0.5) {
            *rng.pick(&promos)
        } else if !caps.is_empty() && rng.chance(0.6) {
            *rng.pick(&caps)
        } else {
            *rng.pick(legal.as_slice())
        };
        played.push(m);
        pos.do_move(m);
    }
    played
}

fn ask_pyffish(requests: &str) -> Vec<String> {
    let mut child = oracle::pyffish_script("san_oracle.py");
    child.stdin.take().expect("stdin").write_all(requests.as_bytes()).expect("requests written");
    let out = child.wait_with_output().expect("san_oracle.py output");
    assert!(out.status.success(), "san_oracle.py failed: is pyffish installed?");
    String::from_utf8(out.stdout).expect("utf-8").lines().map(str::to_string).collect()
}

fn uci_list(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

#[test]
#[ignore = "oracle test: needs pyffish; bash scripts/test.sh runs it"]
fn san_agrees_with_pyffish_and_reads_back() {
    oracle::require(&[oracle::Oracle::Pyffish]);
    // A fixed seed, so the games are the same every run.
    let mut rng = Rng::new(0x5EED_5A17);
    let mut starts = vec![sitke::board::START_FEN.to_string(); 4];
    starts.extend(suite_fens());
    let mut games = Vec::new();
    // Positions whose every legal move is compared alone: the suites, hand-made positions
    // with three pieces of one kind (a real game never has more than two), and positions met
    // in the random games where some move needs disambiguation.
    let mut each: Vec<(String, Vec<Move>)> = Vec::new();
    let extra = [
        "4k3/8/8/1N6/8/1N3N2/8/4K3[] w - - 0 40",
        "4k3/8/8/8/8/8/1FFF4/4K3[] w - - 0 40",
        "4k3/4r3/8/8/8/8/2N1N3/4K3[] w - - 0 40",
        "r3k2r/8/8/8/8/8/8/R3K2R[] w - - 0 40",
        "4k3/8/2fff3/8/8/8/8/R3K2R[] b - - 0 40",
        "4k3/8/8/8/8/8/8/R3K3[] w - - 0 40",
    ];
    for fen in starts.iter().map(String::as_str).chain(extra) {
        let pos = Position::from_fen(fen).expect("FEN");
        each.push((pos.fen(), pos.legal_moves().to_vec()));
    }
    for i in 0..1200 {
        let start = starts[i % starts.len()].clone();
        let moves = random_game(&mut rng, &start, &mut each);
        games.push((start, moves));
    }
    let mut requests = String::new();
    for (fen, moves) in &games {
        requests.push_str(&format!("line\t{fen}\t{}\n", uci_list(moves)));
    }
    for (fen, moves) in &each {
        requests.push_str(&format!("each\t{fen}\t{}\n", uci_list(moves)));
    }
    let answers = ask_pyffish(&requests);
    assert_eq!(answers.len(), games.len() + each.len(), "one answer per request");

    let mut mismatches = Vec::new();
    let (mut compared, mut checks, mut mates, mut promos, mut disamb) = (0, 0, 0, 0, 0);
    let cases = games.iter().map(|(f, m)| (f, m, true));
    let cases = cases.chain(each.iter().map(|(f, m)| (f, m, false)));
    for ((fen, moves, in_sequence), answer) in cases.zip(&answers) {
        let theirs: Vec<&str> = answer.split_whitespace().collect();
        let mut pos = Position::from_fen(fen).expect("FEN");
        for (i, &m) in moves.iter().enumerate() {
            let ours = pos.san(m);
            compared += 1;
            checks += ours.ends_with('+') as usize;
            mates += ours.ends_with('#') as usize;
            promos += m.is_promotion() as usize;
            // A piece move longer than letter + square once `x` and `+#` are gone names
            // (part of) its origin.
            let bare = ours.trim_end_matches(['+', '#']).replace('x', "");
            disamb += (m.kind() == MoveKind::Normal
                && bare.starts_with(|c: char| c.is_ascii_uppercase())
                && bare.len() > 3) as usize;
            if theirs.get(i) != Some(&ours.as_str()) && mismatches.len() < 20 {
                mismatches.push(format!(
                    "{} in {}: sitke '{ours}' pyffish '{}'",
                    m,
                    pos.fen(),
                    theirs.get(i).unwrap_or(&"(missing)")
                ));
            }
            assert_eq!(pos.parse_san(&ours), Ok(m), "'{ours}' does not read back at {}", pos.fen());
            if in_sequence {
                pos.do_move(m);
            }
        }
    }
    println!(
        "SAN vs pyffish: {} games and {} single positions, {compared} moves compared \
         ({checks} checks, {mates} mates, {promos} promotions, {disamb} disambiguated)",
        games.len(),
        each.len()
    );
    assert!(mates > 0 && promos > 0 && disamb > 0, "the games must cover every form");
    assert!(mismatches.is_empty(), "SAN differs from pyffish:\n{mismatches:#?}");
}
