//! `bench`: a fixed-depth search of a built-in list of positions from every phase. Its node
//! count is the engine's signature: identical from run to run on one thread, and changed
//! only by commits that change the search (their messages end with `Bench: <nodes>`).

use super::{Control, Limits, Searcher};
use crate::board::{Position, START_FEN};
use crate::eval::nnue::Network;
use crate::host::Instant;
use std::sync::Arc;
use std::time::Duration;

/// The depth `bench` searches each position to by default.
pub const DEFAULT_DEPTH: u32 = 11;

/// Positions from the setup, the middlegame, promotions and endings (counting included).
pub const POSITIONS: &[&str] = &[
    // Setup phase.
    START_FEN,
    "8/8/4pppp/pppp4/4PPPP/PPPP2K1/8/8[SSFRRNNkssfrrnn] b - - 0 1",
    "1nf5/8/1n2pppp/pppp4/4PPPP/PPPPS1S1/5K2/8[FRRNNkssrr] w - - 0 4",
    "3f1s2/3k4/4pppp/pppp4/4PPPP/PPPP4/SS6/3R4[KFRNNsrrnn] w - - 0 4",
    "3f2k1/2s2n2/4pppp/pppp4/4PPPP/PPPP1S2/3S4/4NK1N[FRRsrrn] b - - 0 5",
    "3n4/6s1/2sfpppp/pppp4/4PPPP/PPPP2SF/N7/1KS5[RRNkrrn] b - - 0 5",
    "n1s2n2/4s3/4pppp/pppp4/4PPPP/PPPP1N2/1K4F1/N7[SSRRkfrr] w - - 0 5",
    "1n1rs1f1/2n4s/2k1pppp/pppp4/4PPPP/PPPP3K/4FNS1/1N3SR1[Rr] w - - 0 8",
    // Early middlegame, just after the setup.
    "2f1rsr1/k2n1n1s/4pppp/pppp4/4PPPP/PPPP1N2/4NF1S/2SRKR2[] w - - 0 9",
    "rnkr4/nf4s1/3s1pPp/pppp4/6PP/PPPPS3/N1KF4/2RSN1R1[] w - - 1 12",
    "rs2rn2/3s1f2/3kpppp/pppn4/5PPP/PPPPFS1N/N7/1S1RR2K[] w - - 0 10",
    "r2n1rn1/1s3f2/2Pkpppp/ppp5/5PPP/PPPP2S1/N1K5/2FSNRR1[] b - - 0 10",
    "r6n/2s2ks1/1fn1pppP/pppr4/5P1P/PPPP2SS/3N4/RF2RN1K[] b - - 1 12",
    "1r1f1r2/n1k1s3/sn3ppp/ppp2P1P/4p1P1/PPPP2N1/3S1S2/N1F2RK1[] b - - 0 12",
    // Middlegame.
    "2rrn3/3k4/fss1Nppp/pp6/5PPP/PP1P3F/5N1K/3R1SR1[] b - - 0 16",
    "f1rns3/n6s/2k2Ppp/p1p5/P5PP/PrPp1F2/5R2/1S1S2KR[] b - - 0 16",
    "n5rk/4sP1n/s5p1/1p6/3P2pP/Fp5K/3N4/5RS1[] w - - 0 20",
    "3r3k/5f2/2Pspp2/p1p3r1/7P/1PPK1N2/F7/S1S2R2[] w - - 1 24",
    "3r4/2f3k1/n3r2p/s4p2/p3S2P/2N5/7K/N4F1R[] b - - 1 25",
    "1knf1s2/8/5p1p/R2s1p2/5P1P/1KP4S/8/6F1[] w - - 1 25",
    "1r3s1s/8/1n2pp2/pPP2k2/2P4P/3S3N/1K4NS/1R6[] b - - 0 23",
    "1s4f1/n1s5/k3P3/1p2P1p1/1P4pr/3P4/N7/S4RK1[] b - - 1 27",
    "1f3r2/2s5/5pkp/pp6/7P/r3K1S1/8/8[] w - - 0 27",
    // Promotions: pawns on the diagonals, the last pawn, no met on the board.
    "4k2r/8/8/3P4/8/8/P7/4K3[] w - - 0 40",
    "3k4/8/8/3P4/8/8/P7/3RK3[] w - - 0 40",
    "4k3/p7/8/8/4p3/8/8/4K2R[] b - - 0 40",
    "5Pn1/1k5r/8/4fpPp/8/5S1R/8/5KF1[] b - - 0 37",
    // Endings.
    "8/6s1/5P2/3n4/pR2K2S/1P6/1k4p1/8[] w - - 1 50",
    "2r5/6k1/6p1/3s2P1/3npR2/8/p2N2F1/3K4[] w - - 1 50",
    "8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72",
    "8/1s4k1/5p1p/p4s2/Pp1P3P/1P3K2/1S6/7R[] b - - 5 30",
    "8/3k4/8/PF5K/4S3/2P5/S7/8[] b - - 0 58",
    "8/7k/8/1P5P/7P/2K5/5FS1/8[] w - - 5 40",
    // Bare-king endings under the counting rule, and a draw by the rules.
    "4k3/8/8/8/8/8/7R/4K3[] b - 32 0 31",
    "8/8/3k4/1S6/8/7K/8/8[] w - 88 29 94",
    "k7/8/8/8/8/8/8/KN6[] b - 128 5 31",
    "8/8/f7/F7/4k3/8/8/4K3[] b - - 12 95",
];

/// The outcome of a bench run.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Nodes searched over all positions: the signature.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh table and fresh statistics, so the
/// count does not depend on what ran before; with `network`'s evaluation, or the classical
/// one for None.
pub fn run(depth: u32, threads: usize, hash_mb: usize, network: Option<Arc<Network>>) -> BenchResult {
    let mut searcher = Searcher::new(hash_mb, threads);
    searcher.set_network(network);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let start = Instant::now();
    let mut nodes = 0;
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        searcher.clear();
        let control = Control::new();
        nodes += searcher.search(&pos, &limits, &control, &mut |_| {}).nodes;
    }
    BenchResult { nodes, time: start.elapsed() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_has_every_phase_and_valid_positions() {
        assert!(POSITIONS.len() >= 30);
        let mut setup = 0;
        let mut counting = 0;
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            setup += pos.in_setup() as usize;
            counting += (pos.counting_limit() > 0) as usize;
            assert!(pos.has_legal_move(), "{fen}");
        }
        assert!(setup >= 5 && counting >= 3);
    }

    #[test]
    fn bench_is_deterministic() {
        for net in [None, Some(crate::eval::nnue::embedded::network())] {
            let a = run(5, 1, 4, net.clone());
            let b = run(5, 1, 4, net);
            assert_eq!(a.nodes, b.nodes);
            assert!(a.nodes > 1000);
        }
    }
}
