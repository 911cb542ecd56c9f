//! The same inputs to Sitke and to Debian's `fairy-stockfish`, and the same answers: `go
//! perft` (as sets of lines), the `Fen:` and `Sfen:` lines of `d`, and the `info string
//! variant` line, in UCI and in USI mode. Ignored by a plain `cargo test`; the full run
//! (`bash scripts/test.sh`, or `cargo test -- --include-ignored`) needs `fairy-stockfish`.

mod uci;

use std::collections::BTreeSet;
use std::time::Duration;
use uci::{Engine, oracle};

/// Positions from every suite of the project: the perft suites' FENs and a few move lists.
fn fens() -> Vec<String> {
    let mut out = Vec::new();
    for file in ["perft/sittuyin.epd", "perft/edge_cases.epd"] {
        let text = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            out.push(line.split(';').next().unwrap().trim().to_string());
        }
    }
    out
}

/// Both engines, UCI or USI, on Sittuyin.
fn pair(usi: bool) -> (Engine, Engine) {
    let mut sitke = Engine::sitke();
    sitke.send(if usi { "usi" } else { "uci" });
    sitke.expect(if usi { "usiok" } else { "uciok" });
    sitke.send("setoption name UCI_Variant value sittuyin");
    sitke.sync();
    (sitke, Engine::fairy(usi))
}

/// The non-empty lines of `go perft depth` after `position`.
fn perft_lines(e: &mut Engine, position: &str, depth: u32) -> BTreeSet<String> {
    e.send(position);
    e.send(&format!("go perft {depth}"));
    let lines = e.expect_prefix("Nodes searched:", Duration::from_secs(60));
    lines.into_iter().filter(|l| !l.trim().is_empty() && !l.starts_with("info")).collect()
}

/// The `prefix` line of `d` after `position`.
fn d_line(e: &mut Engine, position: &str, prefix: &str) -> String {
    e.send(position);
    e.send("d");
    let lines = e.expect_prefix("Checkers:", Duration::from_secs(10));
    lines.into_iter().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no {prefix} line"))
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish; bash scripts/test.sh runs it"]
fn perft_output_matches() {
    oracle::require(&[oracle::Oracle::FairyStockfish]);
    for usi in [false, true] {
        let (mut sitke, mut fairy) = pair(usi);
        let mut positions: Vec<String> = fens().iter().map(|f| format!("position fen {f}")).collect();
        positions.push("position startpos".to_string());
        positions.push(if usi {
            "position startpos moves K*2h K*5b R*8h".to_string()
        } else {
            "position startpos moves K@g1 K@d7 R@a1".to_string()
        });
        let mut compared = 0;
        for (i, position) in positions.iter().enumerate() {
            // Depth 2 everywhere, depth 3 on a few: enough to exercise every move kind.
            let depth = if i % 8 == 0 { 3 } else { 2 };
            let ours = perft_lines(&mut sitke, position, depth);
            let theirs = perft_lines(&mut fairy, position, depth);
            assert_eq!(ours, theirs, "usi={usi} {position} depth {depth}");
            compared += 1;
        }
        println!("go perft: {compared} positions identical (usi={usi})");
    }
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish; bash scripts/test.sh runs it"]
fn fen_and_sfen_lines_match() {
    oracle::require(&[oracle::Oracle::FairyStockfish]);
    let (mut sitke, mut fairy) = pair(false);
    let mut inputs: Vec<String> = fens().iter().map(|f| format!("position fen {f}")).collect();
    // Cutechess's dialect and missing fields parse as Fairy-Stockfish parses them.
    for f in [
        "4k3/8/8/8/8/8/7R/4K3[-] w - 0 0 1",
        "4k3/8/8/8/8/8/7R/4K3[] b - 32 0 31",
        "4k3/8/8/8/8/8/7R/4K3 w",
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w",
    ] {
        inputs.push(format!("position fen {f}"));
    }
    // Board moves after the setup (no drops: see below).
    inputs.push(
        "position fen 2f1rsr1/k2n1n1s/4pppp/pppp4/4PPPP/PPPP1N2/4NF1S/2SRKR2[] w - - 0 9 moves e4e5 f6e5 d3d4"
            .to_string(),
    );
    inputs.push("position fen 4k2r/8/8/3P4/8/8/P7/4K3[] w - - 0 40 moves d5e6f e8e7 a2a3".to_string());
    for input in &inputs {
        assert_eq!(d_line(&mut sitke, input, "Fen:"), d_line(&mut fairy, input, "Fen:"), "{input}");
        assert_eq!(d_line(&mut sitke, input, "Sfen:"), d_line(&mut fairy, input, "Sfen:"), "{input}");
    }
    // With drops, Debian's 11.1 keeps counting the halfmove clock where pyffish (the rules'
    // reference, and Sitke) resets it; every other field agrees.
    let input = "position startpos moves K@g1 K@d7 R@a1 N@d6";
    let without_clock = |fen: String| {
        let mut w: Vec<String> = fen.split(' ').map(str::to_string).collect();
        w.remove(5);
        w.join(" ")
    };
    assert_eq!(without_clock(d_line(&mut sitke, input, "Fen:")), without_clock(d_line(&mut fairy, input, "Fen:")));
    println!("d: {} Fen/Sfen lines identical", inputs.len());
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish; bash scripts/test.sh runs it"]
fn usi_sfen_lines_match() {
    oracle::require(&[oracle::Oracle::FairyStockfish]);
    let (mut sitke, mut fairy) = pair(true);
    for input in [
        "position startpos",
        "position startpos moves K*2h K*5b R*8h",
        "position sfen 8/8/4pppp/pppp4/4PPPP/PPPP4/8/R7 w K2SFR2Nk2sf2r2n 2",
        "position sfen 4k3/8/8/8/8/8/7R/4K3 w - 62",
        "position sfen 4k2r/8/8/3P4/8/8/P7/4K3 b - 79 moves 5d4cf 4a4b",
        "position sfen 2k5/8/2K5/8/8/8/8/R7 b - 1 moves 8h8a",
    ] {
        let ours = d_line(&mut sitke, input, "Sfen:");
        assert_eq!(ours, d_line(&mut fairy, input, "Sfen:"), "{input}");
        assert_eq!(d_line(&mut sitke, input, "Checkers:"), d_line(&mut fairy, input, "Checkers:"), "{input}");
    }
}

#[test]
#[ignore = "oracle test: needs fairy-stockfish; bash scripts/test.sh runs it"]
fn variant_line_matches() {
    oracle::require(&[oracle::Oracle::FairyStockfish]);
    let mut fairy = Engine::start(uci::FAIRY, &[]);
    let mut sitke = Engine::sitke();
    for e in [&mut fairy, &mut sitke] {
        e.send("uci");
        e.expect("uciok");
        e.send("setoption name UCI_Variant value sittuyin");
    }
    let theirs = fairy.expect_prefix("info string variant", Duration::from_secs(5));
    let ours = sitke.expect_prefix("info string variant", Duration::from_secs(5));
    assert_eq!(ours.last(), theirs.last());
}
