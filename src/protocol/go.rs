//! The arguments of `go`: search limits, `ponder`, `searchmoves`, and `go perft N`.
//!
//! Bad values never stop a `go`: the host is waiting for a `bestmove`, so a value that cannot
//! be used is reported in a warning and the search runs without it (or with the nearest
//! value in range). Negative times (some hosts send them once a clock has run out) count
//! as zero.

use super::usi::Dialect;
use super::usi::parse_move;
use crate::board::{Color, Position};
use crate::search::Limits;
use std::time::Duration;

/// The largest time accepted, in ms (about 11.5 days); larger values are clamped to it.
const MAX_MS: i128 = 1_000_000_000;
/// The deepest `go perft` accepted: deeper trees could not be counted in a lifetime.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// What a `go` command asks for.
#[derive(Clone, Debug, Default)]
pub struct Go {
    /// The search limits, with times already mapped to White and Black.
    pub limits: Limits,
    /// Whether this is a ponder search (`go ponder`).
    pub ponder: bool,
    /// `go perft N`: count the move tree instead of searching.
    pub perft: Option<u32>,
}

/// Parses the words after `go`; warnings name every value that could not be used.
pub fn parse_go(args: &[&str], pos: &Position, dialect: Dialect) -> (Go, Vec<String>) {
    let mut go = Go::default();
    let mut warnings = Vec::new();
    let mut byoyomi = None;
    let mut i = 0;
    // In USI, `btime`/`binc` are sente's (White's) and `wtime`/`winc` gote's (Black's).
    let (first, second) = match dialect {
        Dialect::Uci => (Color::White, Color::Black),
        Dialect::Usi => (Color::Black, Color::White),
    };
    while i < args.len() {
        let key = args[i];
        i += 1;
        let mut number = |min: i128, max: i128| -> Option<i128> {
            let Some(text) = args.get(i) else {
                warnings.push(format!("go: '{key}' needs a value"));
                return None;
            };
            let Ok(n) = text.parse::<i128>() else {
                warnings.push(format!("go: '{key} {text}' is not a number; ignored"));
                // A word that is not a number may be the next keyword: do not consume it.
                return None;
            };
            i += 1;
            if n > max {
                warnings.push(format!("go: '{key} {n}' is too large; using {max}"));
            }
            if n < min {
                warnings.push(format!("go: '{key} {n}' is below {min}; using {min}"));
            }
            Some(n.clamp(min, max))
        };
        let ms = |n: i128| Duration::from_millis(n as u64);
        match key {
            "wtime" | "btime" => {
                if let Some(n) = number(0, MAX_MS) {
                    set_time(&mut go.limits, if key == "wtime" { first } else { second }, ms(n));
                }
            }
            "winc" | "binc" => {
                if let Some(n) = number(0, MAX_MS) {
                    set_inc(&mut go.limits, if key == "winc" { first } else { second }, ms(n));
                }
            }
            "byoyomi" => byoyomi = number(0, MAX_MS).map(ms),
            "movestogo" => go.limits.movestogo = number(1, 10_000).map(|n| n as u32),
            "movetime" => go.limits.movetime = number(0, MAX_MS).map(ms),
            "depth" => go.limits.depth = number(1, 1000).map(|n| n as u32),
            "nodes" => go.limits.nodes = number(1, u64::MAX as i128).map(|n| n as u64),
            "mate" => go.limits.mate = number(1, 1000).map(|n| n as u32),
            "perft" => go.perft = number(0, MAX_PERFT_DEPTH as i128).map(|n| n as u32),
            "infinite" => go.limits.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(text) = args.get(i) {
                    if is_keyword(text) {
                        break;
                    }
                    match parse_move(pos, text, dialect) {
                        Ok(m) => go.limits.searchmoves.push(m),
                        Err(e) => warnings.push(format!("go searchmoves: {e}; ignored")),
                    }
                    i += 1;
                }
                if go.limits.searchmoves.is_empty() {
                    warnings.push("go searchmoves: no legal move given; searching all moves".to_string());
                }
            }
            other => warnings.push(format!("go: unknown parameter '{other}'; ignored")),
        }
    }
    if let Some(b) = byoyomi {
        apply_byoyomi(&mut go.limits, b);
    }
    (go, warnings)
}

/// Whether `word` starts a new `go` parameter (ends a `searchmoves` list).
fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "byoyomi"
            | "movestogo"
            | "movetime"
            | "depth"
            | "nodes"
            | "mate"
            | "perft"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

fn set_time(l: &mut Limits, c: Color, t: Duration) {
    match c {
        Color::White => l.wtime = Some(t),
        Color::Black => l.btime = Some(t),
    }
}

fn set_inc(l: &mut Limits, c: Color, t: Duration) {
    match c {
        Color::White => l.winc = Some(t),
        Color::Black => l.binc = Some(t),
    }
}

/// Byoyomi: once the main time is gone every move may use the byoyomi period, which is
/// not banked. The clock a move can spend is main time plus one period, and each later
/// move brings a period like an increment does; the time manager plans with both.
fn apply_byoyomi(l: &mut Limits, b: Duration) {
    for c in Color::ALL {
        let (time, inc) = match c {
            Color::White => (&mut l.wtime, &mut l.winc),
            Color::Black => (&mut l.btime, &mut l.binc),
        };
        *time = Some(time.unwrap_or_default() + b);
        *inc = Some(inc.unwrap_or_default().max(b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn go(text: &str, dialect: Dialect) -> (Go, Vec<String>) {
        let args: Vec<&str> = text.split_whitespace().collect();
        parse_go(&args, &Position::startpos(), dialect)
    }

    #[test]
    fn every_parameter() {
        let (g, w) = go("wtime 2050 btime 1984 winc 50 binc 40 movestogo 7 depth 9 nodes 5000 mate 3", Dialect::Uci);
        assert!(w.is_empty(), "{w:?}");
        let l = &g.limits;
        assert_eq!(l.wtime, Some(Duration::from_millis(2050)));
        assert_eq!(l.btime, Some(Duration::from_millis(1984)));
        assert_eq!((l.winc, l.binc), (Some(Duration::from_millis(50)), Some(Duration::from_millis(40))));
        assert_eq!((l.movestogo, l.depth, l.nodes, l.mate), (Some(7), Some(9), Some(5000), Some(3)));
        let (g, _) = go("infinite searchmoves N@e2 k@a1 r@a1 movetime 100 ponder", Dialect::Uci);
        assert!(g.limits.infinite && g.ponder);
        assert_eq!(g.limits.movetime, Some(Duration::from_millis(100)));
        assert_eq!(g.limits.searchmoves.iter().map(Move::to_string).collect::<Vec<_>>(), ["N@e2", "K@a1", "R@a1"]);
        assert_eq!(go("perft 3", Dialect::Uci).0.perft, Some(3));
    }

    #[test]
    fn usi_clocks_are_sente_first() {
        let (g, w) = go("btime 1000 wtime 2000 byoyomi 100", Dialect::Usi);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(g.limits.wtime, Some(Duration::from_millis(1100)));
        assert_eq!(g.limits.btime, Some(Duration::from_millis(2100)));
        assert_eq!(g.limits.winc, Some(Duration::from_millis(100)));
        let (g, _) = go("searchmoves K*2h", Dialect::Usi);
        assert_eq!(g.limits.searchmoves[0].to_string(), "K@g1");
    }

    #[test]
    fn bad_values_are_named_and_do_not_stop_the_search() {
        let (g, w) = go("wtime -300 btime 99999999999999999999 depth x nodes 0 foo searchmoves e9e9", Dialect::Uci);
        assert_eq!(g.limits.wtime, Some(Duration::ZERO));
        assert_eq!(g.limits.btime, Some(Duration::from_millis(MAX_MS as u64)));
        assert_eq!(g.limits.depth, None);
        assert_eq!(g.limits.nodes, Some(1));
        assert!(g.limits.searchmoves.is_empty());
        let text = w.join("\n");
        for needle in ["btime 99999999999999999999", "'depth x'", "nodes 0", "'foo'", "e9e9"] {
            assert!(text.contains(needle), "{needle} not in {text}");
        }
        let (_, w) = go("depth", Dialect::Uci);
        assert_eq!(w, ["go: 'depth' needs a value"]);
        let (g, w) = go("perft 99", Dialect::Uci);
        assert_eq!(g.perft, Some(MAX_PERFT_DEPTH));
        assert_eq!(w.len(), 1);
    }
}
