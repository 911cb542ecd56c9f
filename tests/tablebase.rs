//! The tablebases against the board's own rules: the generator's moves and un-moves
//! against `Position`'s move generator, every stored value of the 3-man tables (and a
//! sample of a 4-man pawn table) against its successors, and mate distances against a
//! plain alpha-beta search that plays by `Position::outcome`, clocks included.

use sitke::board::{Color, DrawReason, Move, Outcome, Piece, PieceType, Position, Rules, Square};
use sitke::rng::Rng;
use sitke::tb::layout::Layout;
use sitke::tb::pos::TbPos;
use sitke::tb::value::{BEYOND, MAX_DISTANCE};
use sitke::tb::{Material, Stored, Tablebases, Wdl};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A random legal position of `material` (either orientation), men on any square.
fn random_position(rng: &mut Rng, material: &Material) -> TbPos {
    let m = if rng.chance(0.5) { *material } else { material.flipped() };
    let mut pieces = vec![Piece::WhiteKing, Piece::BlackKing];
    for c in Color::ALL {
        for pt in PieceType::ALL {
            for _ in 0..m.counts[c.index()][pt.index()] {
                pieces.push(Piece::new(c, pt));
            }
        }
    }
    loop {
        let mut p = TbPos {
            stm: if rng.chance(0.5) { Color::White } else { Color::Black },
            n: pieces.len(),
            piece: [Piece::WhiteKing; 4],
            sq: [Square::A1; 4],
        };
        let mut used = 0u64;
        let mut ok = true;
        for (i, &pc) in pieces.iter().enumerate() {
            let s = Square::from_index(rng.below(64) as u8);
            ok &= used >> s as u8 & 1 == 0;
            used |= 1 << s as u8;
            p.piece[i] = pc;
            p.sq[i] = s;
        }
        if ok && !p.opponent_in_check() {
            return p;
        }
    }
}

fn position(p: &TbPos) -> Position {
    Position::from_fen(&p.fen()).unwrap_or_else(|e| panic!("{}: {e}", p.fen()))
}

#[test]
fn moves_and_rules_match_the_board() {
    let mut rng = Rng::new(21);
    let all = Material::all(4);
    let mut checked = 0;
    for round in 0..4000 {
        let m = all[round % all.len()];
        let p = random_position(&mut rng, &m);
        let mut pos = position(&p);
        let mut ours = BTreeSet::new();
        let mut all_promotions = true;
        p.for_each_move(|mv| {
            all_promotions &= mv.mv.is_promotion();
            let child = position(&mv.child);
            ours.insert((mv.mv.to_string(), child.board_fen(), mv.capture, mv.zeroing));
        });
        let mut theirs = BTreeSet::new();
        for &mv in pos.legal_moves().iter() {
            let capture = pos.is_capture(mv);
            let pawn = pos.piece_on(mv.from()).is_some_and(|pc| pc.kind() == PieceType::Pawn);
            pos.do_move(mv);
            theirs.insert((mv.to_string(), pos.board_fen(), capture, capture || pawn || mv.is_promotion()));
            pos.undo_move();
        }
        assert_eq!(ours, theirs, "{}", p.fen());
        let expected = if ours.is_empty() {
            if p.in_check() { Outcome::Checkmate { winner: !p.stm } } else { Outcome::Draw(DrawReason::Stalemate) }
        } else if p.promotion_stalemate(true, all_promotions) {
            Outcome::Draw(DrawReason::PromotionStalemate)
        } else if p.insufficient(Color::White) && p.insufficient(Color::Black) {
            Outcome::Draw(DrawReason::InsufficientMaterial)
        } else {
            Outcome::Ongoing
        };
        assert_eq!(pos.outcome(), expected, "{}", p.fen());
        checked += 1;
    }
    assert_eq!(checked, 4000);
}

#[test]
fn unmoves_are_the_reverse_of_quiet_moves() {
    let mut rng = Rng::new(22);
    let all = Material::all(4);
    let mut pairs = 0;
    for round in 0..3000 {
        let c = random_position(&mut rng, &all[round % all.len()]);
        c.for_each_unmove(|q| {
            assert!(!q.opponent_in_check(), "{}", q.fen());
            let mut found = 0;
            q.for_each_move(|mv| found += (!mv.zeroing && mv.child == c) as usize);
            assert_eq!(found, 1, "{} does not lead to {}", q.fen(), c.fen());
            pairs += 1;
        });
        c.for_each_move(|mv| {
            if !mv.zeroing {
                let mut found = 0;
                mv.child.for_each_unmove(|q| found += (*q == c) as usize);
                assert_eq!(found, 1, "{} is not an un-move of {}", c.fen(), mv.child.fen());
            }
        });
    }
    assert!(pairs > 10_000, "{pairs}");
}

/// A fresh folder under the target directory for generated tables.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The 3-man tables under `rules`, generated into a fresh folder `name` (a rule set other
/// than the default puts them in its subfolder).
fn generate_three_man(name: &str, rules: &'static Rules) -> Tablebases {
    let root = fresh_dir(name);
    sitke::tb::driver::build(&root, rules, 3, &[], true, &|_| {}).expect("3-man tables generate");
    Tablebases::new(root, rules)
}

/// The 3-man tables, generated once for the tests of this file.
fn three_man() -> &'static Tablebases {
    static TBS: OnceLock<Tablebases> = OnceLock::new();
    TBS.get_or_init(|| generate_three_man("tb3", &Rules::FAIRY_STOCKFISH))
}

/// The 3-man tables under the club's rules (no count, bare kings), in `club/` under their
/// folder, generated once.
fn three_man_club() -> &'static Tablebases {
    static TBS: OnceLock<Tablebases> = OnceLock::new();
    TBS.get_or_init(|| generate_three_man("tb3_rules", &Rules::CLUB))
}

/// Distances above the stored range all mean "beyond".
fn norm(s: Stored) -> Stored {
    match s {
        Stored::Win(d) if d > MAX_DISTANCE => Stored::Win(BEYOND),
        Stored::Loss(d) if d > MAX_DISTANCE => Stored::Loss(BEYOND),
        s => s,
    }
}

fn merit(s: Stored) -> i32 {
    match s {
        Stored::Win(d) => 100_000 - d as i32,
        Stored::Loss(d) => -100_000 + d as i32,
        _ => 0,
    }
}

/// The value `pos` must have from its successors, worked out with the board's rules:
/// `Position`'s moves and outcome, its clocks after each zeroing move (`probe`), and the
/// stored values of the positions after the other moves.
fn expected(tbs: &Tablebases, pos: &mut Position, dtm: bool) -> Stored {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.in_check() { Stored::Loss(0) } else { Stored::Draw };
    }
    if pos.outcome().is_over() {
        return Stored::Draw;
    }
    let mut best: Option<Stored> = None;
    for &mv in moves.iter() {
        let zeroing = pos.is_capture(mv)
            || mv.is_promotion()
            || pos.piece_on(mv.from()).is_some_and(|pc| pc.kind() == PieceType::Pawn);
        pos.do_move(mv);
        let v = if dtm || !zeroing {
            let child = TbPos::from_position(pos).expect("at most four men");
            tbs.lookup(&child).expect("successor table present").stored.for_mover()
        } else {
            match tbs.probe(pos).expect("successor table present").wdl {
                Wdl::Win => Stored::Loss(1),
                Wdl::Loss => Stored::Win(1),
                Wdl::Draw => Stored::Draw,
            }
        };
        pos.undo_move();
        let v = norm(v);
        if best.is_none_or(|b| merit(v) > merit(b)) {
            best = Some(v);
        }
    }
    best.expect("a legal move")
}

/// Checks the entries at `indices` of `material`'s table against their successors;
/// returns how many were legal positions.
fn check_table(tbs: &Tablebases, material: &Material, indices: impl Iterator<Item = usize>) -> usize {
    let t = tbs.table(material).expect("table present");
    let mut legal = 0;
    for idx in indices {
        let stored = t.get(idx);
        // Illegal positions are stored as whatever comes before them.
        let Some(p) = t.layout.decode(idx).filter(|p| !p.opponent_in_check()) else {
            continue;
        };
        let mut pos = Position::from_fen_with(&p.fen(), tbs.rules()).expect("a table position");
        let want = expected(tbs, &mut pos, t.layout.is_dtm());
        assert_eq!(norm(stored), want, "{material} {}", p.fen());
        legal += 1;
    }
    legal
}

#[test]
fn every_three_man_value_agrees_with_its_successors() {
    let tbs = three_man();
    let mut legal = 0;
    for m in Material::all(3) {
        let size = Layout::new(m).size;
        legal += check_table(tbs, &m, 0..size);
    }
    // Every legal 3-man position, both sides to move.
    assert_eq!(legal, 699_294);
}

#[test]
fn club_tables_agree_with_the_club_rules_and_differ_where_the_count_does() {
    let club = three_man_club();
    assert_eq!(club.dir(), club.root().join("club"));
    let mut legal = 0;
    for m in Material::all(3) {
        legal += check_table(club, &m, 0..Layout::new(m).size);
    }
    assert_eq!(legal, 699_294);
    // A file says which rules it was built under: the club's KRvK is no table of the default rules.
    let krk = Material::parse("KRvK").unwrap();
    let err = sitke::tb::file::read(&club.dir().join("KRvK.stb"), &krk, &Rules::FAIRY_STOCKFISH).unwrap_err();
    assert!(err.to_string().contains("built under the club rules, not the fairy rules"), "{err}");
    // Same men, same stored mate in 28; Fairy-Stockfish's count leaves 23 plies, the club's
    // rules only the 50-move rule. Each rule set's tables answer for their own positions only.
    let fen = "4k3/8/8/8/8/8/8/R3K3[] b - 32 10 40";
    let fairy = three_man().probe(&Position::from_fen(fen).unwrap()).unwrap();
    let under_club = Position::from_fen_with(fen, &Rules::CLUB).unwrap();
    let probe = club.probe(&under_club).unwrap();
    assert_eq!((fairy.stored, fairy.wdl), (Stored::Loss(28), Wdl::Draw));
    assert_eq!((probe.stored, probe.wdl), (Stored::Loss(28), Wdl::Loss), "budget {}", probe.budget);
    assert!(three_man().probe(&under_club).is_none() && club.probe(&Position::from_fen(fen).unwrap()).is_none());
    // The rule sets whose counts no table can hold are refused, with the reason.
    for rules in [&Rules::FEDERATION, &Rules::PRITCHARD] {
        let err = sitke::tb::driver::build(&fresh_dir("tb_none"), rules, 3, &[], true, &|_| {}).unwrap_err();
        assert!(err.starts_with(&format!("no tables under the {} rules: ", rules.short_name())), "{err}");
    }
}

/// Negamax alpha-beta over `Position` with its own rules of the game's end (clocks
/// included); mate scores count plies from the root, anything else is 0.
fn alphabeta(pos: &mut Position, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
    const MATE: i32 = 1000;
    match pos.outcome() {
        Outcome::Checkmate { .. } => return -(MATE - ply as i32),
        Outcome::Draw(_) => return 0,
        Outcome::Ongoing => {}
    }
    if depth == 0 {
        return 0;
    }
    let moves: Vec<Move> = pos.legal_moves().to_vec();
    let mut best = -MATE;
    for mv in moves {
        pos.do_move(mv);
        let v = -alphabeta(pos, depth - 1, ply + 1, -beta, -alpha);
        pos.undo_move();
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Mate distance in plies the search finds within `depth` (negative: being mated).
fn search_mate(pos: &mut Position, depth: u32) -> Option<i32> {
    let v = alphabeta(pos, depth, 0, -10_000, 10_000);
    if v > 0 {
        Some(1000 - v)
    } else if v < 0 {
        Some(-(1000 + v))
    } else {
        None
    }
}

#[test]
fn mate_distances_agree_with_a_plain_search_under_the_count() {
    let tbs = three_man();
    let rook = Material::parse("KRvK").unwrap();
    let t = tbs.table(&rook).unwrap();
    let mut rng = Rng::new(23);
    let (mut exact, mut cut) = (0, 0);
    while exact < 150 {
        let idx = rng.index(t.layout.size);
        let (d, win) = match t.get(idx) {
            Stored::Win(d) if d <= 7 => (d, true),
            Stored::Loss(d) if (2..=6).contains(&d) => (d, false),
            _ => continue,
        };
        // Entries of illegal positions repeat their neighbours: skip them.
        let Some(p) = t.layout.decode(idx).filter(|p| !p.opponent_in_check()) else {
            continue;
        };
        let board = p.fen();
        let board = board.split(' ').next().unwrap();
        let side = if p.stm == Color::White { 'w' } else { 'b' };
        // With no count running the search sees exactly the stored distance...
        let mut pos = Position::from_fen(&format!("{board} {side} - - 0 60")).unwrap();
        assert_eq!(search_mate(&mut pos, d as u32), Some(if win { d as i32 } else { -(d as i32) }), "{board} {side}");
        if d >= 3 {
            assert_eq!(search_mate(&mut pos, d as u32 - 2), None, "{board} {side}: mate sooner than stored");
        }
        // ...and with a count that leaves one ply too few, the mate is out of reach: the
        // table's budget says so, and so does the search under the rules. Only the bare
        // side's turns carry a running count in a game; the strong side to move gets a
        // count from a FEN too, which the rules run the same way.
        for (ply, reachable) in [(33 - d as u32, true), (34 - d as u32, false)] {
            let fen = format!("{board} {side} - 32 {ply} 60");
            let mut pos = Position::from_fen(&fen).unwrap();
            let probe = tbs.probe(&pos).unwrap();
            let want = if reachable { if win { Wdl::Win } else { Wdl::Loss } } else { Wdl::Draw };
            assert_eq!(probe.wdl, want, "{fen}");
            let found = search_mate(&mut pos, d as u32);
            assert_eq!(found.is_some(), reachable, "{fen}: search {found:?}");
            cut += !reachable as usize;
        }
        exact += 1;
    }
    assert_eq!(cut, 150);
}

/// Runs the `sitke` binary with `args`, `input` on stdin; returns its stdout.
fn run_sitke(args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sitke"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("sitke starts");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().expect("sitke ends");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn probe_command_and_search_use_the_tables() {
    let tbs = three_man();
    let dir = tbs.dir().to_str().unwrap();
    let fen = "4k3/8/8/8/8/8/8/R3K3[] b - 32 10 40";
    // `sitke tb probe` is a tool's command: the engine alone (no feature `tools`) has none.
    if cfg!(feature = "tools") {
        let out = run_sitke(&["tb", "probe", "--dir", dir, fen], "");
        assert!(out.contains("table KRvK (DTM)"), "{out}");
        assert!(out.contains("stored loss, mate in 28 plies"), "{out}");
        assert!(out.contains("budget 23 plies"), "{out}");
        assert!(out.contains("value draw (the clocks run out first)"), "{out}");
    }

    // The search scores the mate the tables give, counts its probes, and plays a fastest move.
    let fen = "4k3/8/8/8/8/8/8/R3K3[] w - - 0 40";
    let mut pos = Position::from_fen(fen).unwrap();
    let ranked = tbs.rank_moves(&mut pos).unwrap();
    let best: Vec<String> =
        ranked.iter().filter(|r| r.distance == ranked[0].distance).map(|r| r.mv.to_string()).collect();
    let input = format!("uci\nsetoption name TablebasePath value {dir}\nposition fen {fen}\ngo depth 6\n");
    let out = run_sitke(&[], &input);
    assert!(out.contains(&format!("info string tablebases: 5 tables in {dir}")), "{out}");
    let mate = format!("score mate {}", ranked[0].distance.div_ceil(2));
    let last = out.lines().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    assert!(last.contains(&mate) && last.contains(" tbhits "), "{last}");
    let bestmove = out.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
    assert!(best.iter().any(|b| bestmove.starts_with(b.as_str())), "{bestmove} not in {best:?}");

    // A folder that is not there: an error, and the game goes on.
    let input = format!("uci\nsetoption name TablebasePath value {dir}/missing\nposition fen {fen}\ngo depth 3\n");
    let out = run_sitke(&[], &input);
    assert!(out.contains("info string error: TablebasePath"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
}

#[test]
fn damaged_files_are_refused_and_play_goes_on() {
    let src = three_man().dir().to_path_buf();
    let dir = fresh_dir("tb3_damaged");
    std::fs::create_dir_all(&dir).unwrap();
    for f in std::fs::read_dir(&src).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    let krk = Material::parse("KRvK").unwrap();
    let path = dir.join("KRvK.stb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let fairy = &Rules::FAIRY_STOCKFISH;
    let err = sitke::tb::file::read(&path, &krk, fairy).unwrap_err().to_string();
    assert!(err.contains("checksum"), "{err}");
    std::fs::write(&path, &bytes[..100]).unwrap();
    let err = sitke::tb::file::read(&path, &krk, fairy).unwrap_err().to_string();
    assert!(err.contains("bytes"), "{err}");
    let tbs = Tablebases::new(&dir, fairy);
    assert!(tbs.table(&krk).is_none());
    assert!(tbs.table(&Material::parse("KSvK").unwrap()).is_some());
    let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3[] w - - 0 40").unwrap();
    assert!(tbs.probe(&pos).is_none());
    assert!(tbs.rank_moves(&mut pos).is_none());
    let input = format!(
        "uci\nsetoption name TablebasePath value {}\nposition fen 4k3/8/8/8/8/8/8/R3K3[] w - - 0 40\ngo depth 4\n",
        dir.display()
    );
    let out = run_sitke(&[], &input);
    assert!(out.contains("bestmove a1") || out.contains("bestmove e1"), "{out}");
    assert!(!out.contains("tbhits"), "{out}");
}

#[test]
fn each_rule_set_probes_its_own_tables_or_says_why_there_are_none() {
    let club = three_man_club();
    let root = club.root().to_str().unwrap();
    let fen = "4k3/8/8/8/8/8/8/R3K3[] w - - 0 40";
    let input = format!(
        "uci\nsetoption name TablebasePath value {root}\nsetoption name UCI_Variant value sittuyin-club\n\
         position fen {fen}\ngo depth 6\nisready\nsetoption name Rules value federation\n\
         setoption name Rules value pritchard\n"
    );
    let out = run_sitke(&[], &input);
    // The folder holds no table of the default rules, then the club's five.
    assert!(out.contains(&format!("info string tablebases: 0 tables in {root} (")), "{out}");
    assert!(out.contains(&format!("info string tablebases: 5 tables in {root}/club")), "{out}");
    let last = out.lines().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    assert!(last.contains(" tbhits ") && last.contains("score mate"), "{last}");
    assert!(
        out.contains("info string warning: no tablebases for the federation rules: its count starts once"),
        "{out}"
    );
    assert!(out.contains("info string warning: no tablebases for the pritchard rules: its stalemate ban"), "{out}");

    // Tables of the default rules only: the club's rules find none and say where to make them.
    let dir = three_man().dir().to_str().unwrap();
    let input = format!("uci\nsetoption name TablebasePath value {dir}\nsetoption name Rules value club\n");
    let out = run_sitke(&[], &input);
    let want = format!(
        "info string warning: no tablebases for the club rules: none in {dir}/club (`sitke tb generate --rules club --dir {dir}` makes them); playing without tables"
    );
    assert!(out.contains(&want), "{out}");
}
