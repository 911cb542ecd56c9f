//! UCI's (and USI's) words for what the core reports: `info` and `bestmove` lines, notices
//! as `info string`, the perft divide and the bench report.

use super::engine::{PerftCount, SearchOutput};
use super::notice::{Level, Notice, Report};
use super::usi::Dialect;
use super::usi::move_text;
use super::wdl::wdl;
use super::wire::send;
use crate::board::{Move, Position};
use crate::search::bench::BenchResult;
use crate::search::{Bound, Info, Score};

/// Sends `info string <message>`, one per line of `message`.
pub fn info_string(message: &str) {
    let text: String = message.lines().map(|l| format!("info string {l}\n")).collect();
    send(&text);
}

/// A notice as UCI words it, without `info string`: errors and warnings say so first.
pub fn notice_text(n: &Notice) -> String {
    match n.level() {
        Level::Note => n.to_string(),
        Level::Warning => format!("warning: {n}"),
        Level::Error => format!("error: {n}"),
    }
}

/// Notices as `info string` lines.
pub struct UciReport;

impl Report for UciReport {
    fn notice(&self, notice: &Notice) {
        info_string(&notice_text(notice));
    }
}

/// UCI's (and USI's) `info` and `bestmove` lines for one search.
pub struct UciOutput {
    /// The notation and whether `wdl` is shown.
    pub style: InfoStyle,
}

impl SearchOutput for UciOutput {
    fn info(&self, info: &Info) {
        send(&info_line(info, self.style));
    }

    fn done(&self, pos: &Position, best: Move, ponder: Move) {
        if !best.is_some() {
            let score = if pos.in_check() { "mate 0" } else { "cp 0" };
            send(&format!("info depth 0 score {score}"));
        }
        send(&bestmove_line(best, ponder, self.style.dialect));
    }
}

/// The lines of `go perft`: `move: count` for each move, then the total, as
/// Fairy-Stockfish prints them.
pub fn perft_text(count: &PerftCount, dialect: Dialect) -> String {
    let mut text = String::new();
    for (m, n) in &count.divide {
        text.push_str(&format!("{}: {n}\n", move_text(*m, dialect)));
    }
    text.push_str(&format!("\nNodes searched: {}\n", count.total));
    text
}

/// The lines `bench` prints, the same as the `sitke bench` subcommand's.
pub fn bench_report(r: &BenchResult) -> String {
    format!("Total time (ms) : {}\nNodes searched  : {}\nNodes/second    : {}\n", r.time.as_millis(), r.nodes, r.nps())
}

/// How `info` lines are written.
#[derive(Clone, Copy, Debug)]
pub struct InfoStyle {
    /// The dialect of the moves in the PV.
    pub dialect: Dialect,
    /// Whether to add `wdl W D L` (UCI_ShowWDL).
    pub show_wdl: bool,
}

/// The score as `cp X` or `mate M`.
pub fn score_text(value: i32) -> String {
    match Score::from_value(value) {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

/// One `info depth ...` line (without the newline), in docs/protocol.md's field order.
pub fn info_line(info: &Info, style: InfoStyle) -> String {
    let ms = info.time.as_millis() as u64;
    // Nodes per second from the exact elapsed time, so short searches do not report zero.
    let nps = (info.nodes as f64 / info.time.as_secs_f64().max(1e-3)) as u64;
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.value)
    );
    match info.bound {
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
        _ => {}
    }
    if style.show_wdl {
        let w = wdl(Score::from_value(info.value));
        s.push_str(&format!(" wdl {} {} {}", w.win, w.draw, w.loss));
    }
    s.push_str(&format!(" nodes {} nps {nps} hashfull {}", info.nodes, info.hashfull));
    if info.tbhits > 0 {
        s.push_str(&format!(" tbhits {}", info.tbhits));
    }
    s.push_str(&format!(" time {ms} pv"));
    for m in &info.pv {
        s.push(' ');
        s.push_str(&move_text(*m, style.dialect));
    }
    s
}

/// The `bestmove` line; with no legal move `(none)` in UCI and `resign` in USI, as
/// Fairy-Stockfish answers.
pub fn bestmove_line(best: Move, ponder: Move, dialect: Dialect) -> String {
    if !best.is_some() {
        return match dialect {
            Dialect::Uci => "bestmove (none)".to_string(),
            Dialect::Usi => "bestmove resign".to_string(),
        };
    }
    let mut s = format!("bestmove {}", move_text(best, dialect));
    if ponder.is_some() {
        s.push_str(&format!(" ponder {}", move_text(ponder, dialect)));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{PieceType, Square};
    use crate::search::VALUE_MATE;
    use std::time::Duration;

    fn info(value: i32, bound: Bound) -> Info {
        Info {
            depth: 7,
            seldepth: 9,
            multipv: 1,
            value,
            bound,
            nodes: 5000,
            time: Duration::from_millis(250),
            hashfull: 3,
            tbhits: 0,
            pv: vec![Move::drop(PieceType::Knight, Square::E2), Move::drop(PieceType::Knight, Square::D6)],
        }
    }

    #[test]
    fn info_lines_have_every_field_in_order() {
        let style = InfoStyle { dialect: Dialect::Uci, show_wdl: true };
        assert_eq!(
            info_line(&info(-37, Bound::Lower), style),
            "info depth 7 seldepth 9 multipv 1 score cp -37 lowerbound wdl 32 854 114 nodes 5000 nps 20000 \
             hashfull 3 time 250 pv N@e2 N@d6"
        );
        let usi = InfoStyle { dialect: Dialect::Usi, show_wdl: false };
        assert_eq!(
            info_line(&info(VALUE_MATE - 3, Bound::Exact), usi),
            "info depth 7 seldepth 9 multipv 1 score mate 2 nodes 5000 nps 20000 hashfull 3 time 250 pv N*4g N*5c"
        );
        assert!(info_line(&info(5, Bound::Upper), usi).contains("score cp 5 upperbound nodes"));
    }

    #[test]
    fn notices_in_uci_words() {
        let refused = Notice::HashTooLarge { asked: 9000, available: 4000, kept: 16 };
        assert_eq!(
            notice_text(&refused),
            "error: Hash 9000 MiB does not fit in memory (4000 MiB available); keeping 16 MiB"
        );
        let loaded = Notice::NetLoaded { name: "n1".into(), file: Some("/nets/n1.nnue".into()) };
        assert_eq!(notice_text(&loaded), "NNUE net n1 loaded from /nets/n1.nnue");
        assert_eq!(notice_text(&Notice::StoppingSearch { why: "bench" }).split(':').next(), Some("warning"));
        let count = PerftCount { divide: vec![(Move::drop(PieceType::King, Square::G1), 3)], total: 3 };
        assert_eq!(perft_text(&count, Dialect::Usi), "K*2h: 3\n\nNodes searched: 3\n");
    }

    #[test]
    fn bestmove_without_a_move() {
        assert_eq!(bestmove_line(Move::NONE, Move::NONE, Dialect::Uci), "bestmove (none)");
        assert_eq!(bestmove_line(Move::NONE, Move::NONE, Dialect::Usi), "bestmove resign");
        let m = Move::normal(Square::E3, Square::E4);
        assert_eq!(bestmove_line(m, Move::NONE, Dialect::Uci), "bestmove e3e4");
        assert_eq!(bestmove_line(m, Move::normal(Square::D6, Square::D5), Dialect::Uci), "bestmove e3e4 ponder d6d5");
    }
}
