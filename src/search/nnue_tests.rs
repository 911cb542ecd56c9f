//! The search with a net: accumulators stay in step with the board through every make
//! and unmake, on one thread and on several, from setup positions, middlegames and
//! endings. The searcher is asked to compare them with a refresh after every make and
//! unmake and at every evaluation (`Worker::verify_accumulators`), an assertion that holds
//! in release test builds too, and the test checks that it did.

use super::{Control, Limits, MATE_BOUND, Searcher};
use crate::board::Position;
use crate::eval::nnue::{Activation, network::tests::random_net};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

fn search(s: &mut Searcher, fen: &str, depth: u32) -> super::SearchResult {
    let pos = Position::from_fen(fen).unwrap();
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let r = s.search(&pos, &limits, &Control::new(), &mut |_| {});
    assert!(pos.legal_moves().contains(r.best), "{fen}: {} is not legal", r.best);
    r
}

#[test]
fn searches_with_a_net_keep_the_accumulators_in_step() {
    let net = Arc::new(random_net(17, Activation::SCReLU));
    for threads in [1, 2] {
        let mut s = Searcher::new(8, threads);
        s.set_network(Some(net.clone()));
        let checks = Arc::new(AtomicU64::new(0));
        s.accumulator_checks = Some(checks.clone());
        for fen in [
            crate::board::START_FEN,
            "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1",
            "1rsnf1r1/6k1/1sn1pppp/pppp4/4PPPP/PPPP1SN1/1S3FK1/1RN1R3[] w - - 0 9",
            "8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72",
            "1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1",
        ] {
            let before = checks.load(Ordering::Relaxed);
            let r = search(&mut s, fen, 7);
            // Every node is entered by a make and left by an unmake, and each was checked.
            let checked = checks.load(Ordering::Relaxed) - before;
            // The floor only says the search ran: a loaded machine once left a two-thread
            // search of the rook ending at 637 nodes.
            assert!(r.nodes > 300 && checked >= 2 * r.nodes, "{fen}: {checked} checks, {} nodes", r.nodes);
        }
    }
}

#[test]
fn a_net_search_still_finds_a_mate() {
    let mut s = Searcher::new(8, 1);
    s.set_network(Some(Arc::new(random_net(2, Activation::CReLU))));
    // White mates with Ra8 (the rook's file and the king's rank are cut off).
    let r = search(&mut s, "k7/8/1K6/8/8/8/8/7R[] w - - 0 40", 4);
    assert!(r.value >= MATE_BOUND, "{}", r.value);
}
