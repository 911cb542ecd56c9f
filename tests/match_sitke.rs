//! Short fixed-node matches of Sitke itself: against itself, against Fairy-Stockfish and
//! against Sjaak II. Sitke must finish every game without a forfeit (no illegal move, no
//! crash, no time loss), and every game must agree with pyffish. Needs `fairy-stockfish`,
//! `sjaakii`, `python3` and `pyffish`: ignored by a plain `cargo test`, run by
//! `bash scripts/test.sh` (which installs them) and CI.
#![cfg(feature = "tools")]

mod common;

use common::*;

/// Sitke as an `-engine`: fixed nodes, and a clock so that a Sitke that never answers
/// loses on time quickly instead of stalling the test.
fn sitke(name: &str) -> String {
    format!("cmd={} name={name} nodes=5000 tc=20+0.2", env!("CARGO_BIN_EXE_sitke"))
}

fn play(test: &str, opponent: &str) {
    let dir = scratch(test);
    let pgn = dir.join("games.pgn");
    let run = sitke_match(&args(&format!(
        "-engine {} -engine {opponent} -games 2 -repeat -openings random plies=8 -srand 11 \
         -pgnout {}",
        sitke("Sitke"),
        pgn.display()
    )));
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    let games = finished_games(&run.stdout);
    assert_eq!(games.len(), 2, "{}", run.stdout);
    let kinds = verify_with_pyffish(&pgn, &run.stdout);
    // No adjudication is configured, so every game must end by the rules: anything else
    // is a forfeit (an illegal move, a crash, a time loss).
    for (n, g) in &games {
        assert!(
            !g.description.contains("illegal move")
                && !g.description.contains("disconnects")
                && !g.description.contains("on time")
                && !g.description.contains("stalls")
                && !g.description.contains("fails to start"),
            "game {n} ({} vs {}): {}\n{}",
            g.white,
            g.black,
            g.description,
            run.stderr
        );
    }
    assert!(!kinds.contains_key("unfinished"), "{kinds:?}");
    let (w, l, d) = final_score(&run.stdout);
    println!("{test}: Sitke {w}-{l}-{d} in {:.1} s, endings {kinds:?}", run.elapsed.as_secs_f64());
}

#[test]
#[ignore = "oracle test: needs pyffish; bash scripts/test.sh runs it"]
fn sitke_vs_sitke() {
    require(&[Pyffish]);
    play("sitke-vs-sitke", &sitke("Sitke2"));
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish and pyffish; bash scripts/test.sh runs it"]
fn sitke_vs_fairy_stockfish() {
    require(&[FairyStockfish, Pyffish]);
    play("sitke-vs-fsf", &format!("cmd={FSF} name=FSF nodes=2000 tc=20+0.2"));
}

#[test]
#[ignore = "oracle test: needs sjaakii and pyffish; bash scripts/test.sh runs it"]
fn sitke_vs_sjaakii() {
    require(&[Sjaakii, Pyffish]);
    play("sitke-vs-sjaak", &format!("cmd={SJAAK} arg=-uci name=Sjaak depth=2 tc=20+0.2"));
}

/// The games of a PGN file, each as its text, in file order.
fn pgn_games(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("the PGN file");
    text.split("[Event ").filter(|g| !g.trim().is_empty()).map(|g| format!("[Event {g}")).collect()
}

/// The movetext of a game without the comments (which hold times).
fn moves_of(game: &str) -> String {
    let body = game.split("\n\n").nth(1).expect("movetext");
    let mut out = String::new();
    let mut depth = 0;
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_resumed_match_ends_as_an_uninterrupted_one() {
    let dir = scratch("resume");
    let (full, cut) = (dir.join("full.pgn"), dir.join("cut.pgn"));
    // Fixed nodes and one thread: each game is the same whenever it is played.
    let line = |pgn: &std::path::Path, extra: &str| {
        args(&format!(
            "-engine {} -engine {} -each option.Threads=1 -games 2 -rounds 2 -repeat -maxmoves 30 \
             -openings random plies=8 -srand 21 -pgnout {} {extra}",
            sitke("A"),
            sitke("B"),
            pgn.display()
        ))
    };
    let run = sitke_match(&line(&full, ""));
    assert!(run.success, "{}\n{}", run.stdout, run.stderr);
    let games = pgn_games(&full);
    assert_eq!(games.len(), 4, "{}", run.stdout);

    // Cut off after two finished games and a third half written.
    let half = &games[2][..games[2].len() / 2];
    std::fs::write(&cut, format!("{}{}{half}", games[0], games[1])).unwrap();
    let resumed = sitke_match(&line(&cut, "-resume"));
    assert!(resumed.success, "{}\n{}", resumed.stdout, resumed.stderr);
    assert!(resumed.stdout.contains("Resumed 2 finished games from"), "{}", resumed.stdout);
    let played: Vec<u64> = finished_games(&resumed.stdout).into_keys().collect();
    assert_eq!(played, vec![3, 4], "{}", resumed.stdout);
    assert_eq!(final_score(&resumed.stdout), final_score(&run.stdout), "{}\n{}", run.stdout, resumed.stdout);
    let after: Vec<String> = pgn_games(&cut).iter().map(|g| moves_of(g)).collect();
    let whole: Vec<String> = games.iter().map(|g| moves_of(g)).collect();
    assert_eq!(after, whole, "the same games, move for move, and the half game cut off");

    // All played: a second resume plays nothing; another seed is refused.
    let again = sitke_match(&line(&cut, "-resume"));
    assert!(again.success && finished_games(&again.stdout).is_empty(), "{}", again.stdout);
    let other = sitke_match(
        &line(&cut, "-resume").into_iter().map(|a| if a == "21" { "22".into() } else { a }).collect::<Vec<_>>(),
    );
    assert!(!other.success && other.stderr.contains("-srand"), "{}", other.stderr);
}

/// The counts of the `All N runs of the ledger, A vs B: W - L - D  [s] N` line.
fn ledger_score(stdout: &str) -> (usize, (u64, u64, u64)) {
    let line = stdout.lines().find(|l| l.starts_with("All ")).expect("an All runs line");
    let runs = line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("a run count");
    (runs, final_score(&format!("Score of {}", line.split_once(", ").expect("engines").1)))
}

#[test]
fn a_ledger_adds_runs_up_and_counts_each_once() {
    let dir = scratch("ledger");
    let ledger = dir.join("ledger.txt");
    let line = |srand: u64, extra: &str| {
        args(&format!(
            "-engine {} -engine {} -each option.Threads=1 -games 2 -rounds 1 -repeat -maxmoves 30 \
             -openings random plies=8 -srand {srand} -ledger {} {extra}",
            sitke("A"),
            sitke("B"),
            ledger.display()
        ))
    };
    let lines = || std::fs::read_to_string(&ledger).unwrap().lines().map(str::to_string).collect::<Vec<_>>();
    let first = sitke_match(&line(31, ""));
    assert!(first.success, "{}\n{}", first.stdout, first.stderr);
    assert_eq!(ledger_score(&first.stdout), (1, final_score(&first.stdout)), "{}", first.stdout);
    assert_eq!(lines().len(), 3, "the header, the setup and one run: {:?}", lines());

    // A second run, from other openings (its own seed), is added to the first.
    let second = sitke_match(&line(32, "-ratinginterval 0"));
    assert!(second.success, "{}\n{}", second.stdout, second.stderr);
    assert!(second.stdout.contains("1 earlier runs, 2 games"), "{}", second.stdout);
    let ((w1, l1, d1), (w2, l2, d2)) = (final_score(&first.stdout), final_score(&second.stdout));
    assert_eq!(ledger_score(&second.stdout), (2, (w1 + w2, l1 + l2, d1 + d2)), "{}", second.stdout);
    let runs = lines();
    assert_eq!(runs.len(), 4, "{runs:?}");
    assert!(runs[2].starts_with("srand=31 ") && runs[3].starts_with("srand=32 "), "{runs:?}");
    let ptnml = second.stdout.lines().rfind(|l| l.starts_with("Ptnml")).expect("a Ptnml line");
    assert_eq!(ptnml.matches(", ").count(), 4);
    let pairs: u64 =
        ptnml[ptnml.find('[').unwrap() + 1..ptnml.len() - 1].split(", ").map(|n| n.parse::<u64>().unwrap()).sum();
    assert_eq!(pairs, 2, "both runs' pairs: {ptnml}");

    // A run the ledger holds plays nothing and adds nothing; another match is refused.
    let again = sitke_match(&line(31, ""));
    assert!(again.success && finished_games(&again.stdout).is_empty(), "{}\n{}", again.stdout, again.stderr);
    assert!(again.stdout.contains("holds the run with -srand 31 already"), "{}", again.stdout);
    assert!(!again.stdout.contains("Score of A vs B"), "no empty tally of the run: {}", again.stdout);
    assert_eq!(ledger_score(&again.stdout), ledger_score(&second.stdout), "{}", again.stdout);
    assert_eq!(lines().len(), 4);
    let other = sitke_match(&line(33, "-concurrency 2"));
    assert!(!other.success && other.stderr.contains("another match"), "{}", other.stderr);
    assert_eq!(lines().len(), 4);
}

#[test]
fn a_ledger_whose_sprt_has_decided_plays_no_more() {
    let dir = scratch("ledger-sprt");
    let ledger = dir.join("ledger.txt");
    let line = |srand: u64| {
        args(&format!(
            "-engine {} -engine {} -each option.Threads=1 -games 2 -rounds 1 -repeat -maxmoves 30 \
             -openings random plies=8 -srand {srand} -sprt elo0=0 elo1=300 -ledger {}",
            sitke("A"),
            sitke("B"),
            ledger.display()
        ))
    };
    let first = sitke_match(&line(41));
    assert!(first.success, "{}\n{}", first.stdout, first.stderr);
    assert!(!first.stdout.contains("was accepted"), "one pair decides nothing: {}", first.stdout);
    // Earlier runs that settle the test, written by hand: fifty pairs won twice.
    let mut text = std::fs::read_to_string(&ledger).unwrap();
    text.push_str("srand=1 wins=100 draws=0 losses=0 ptnml=0,0,0,0,50\n");
    std::fs::write(&ledger, &text).unwrap();
    let next = sitke_match(&line(42));
    assert!(next.success, "{}\n{}", next.stdout, next.stderr);
    assert!(finished_games(&next.stdout).is_empty(), "{}", next.stdout);
    assert!(next.stdout.contains("H1 was accepted"), "the ledger's runs count in the SPRT: {}", next.stdout);
    assert_eq!(std::fs::read_to_string(&ledger).unwrap(), text, "a run that played nothing is not written");
}
