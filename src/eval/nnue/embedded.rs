//! The net built into the binary: the last accepted generation (docs/nnue.md lists them).
//! A net's file is named after the hash of its bytes, so the name below and the file it
//! reads must change together; a test holds them to it.

use super::Network;
use std::sync::{Arc, LazyLock};

/// The built-in net's name, which is also its file's name under `nets/`.
pub const NAME: &str = "sitke-49f2424a2b11";

/// The built-in net's file.
static BYTES: &[u8] = include_bytes!("../../../nets/sitke-49f2424a2b11.nnue");

/// Parsed once, on first use, and shared by every searcher after that.
static NET: LazyLock<Arc<Network>> =
    LazyLock::new(|| Arc::new(Network::from_bytes(BYTES).expect("the built-in net is a valid net file")));

/// The built-in net.
pub fn network() -> Arc<Network> {
    Arc::clone(&NET)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, START_FEN};

    #[test]
    fn the_built_in_net_loads_and_is_named_by_its_bytes() {
        assert_eq!(network().name(), NAME);
        assert!(Arc::ptr_eq(&network(), &network()), "parsed once and shared");
    }

    #[test]
    fn the_built_in_net_scores_the_start_position_about_level() {
        // The two armies are rotations of each other and both place their pieces; a net
        // that finds a large edge for either side here has learned something false (the
        // classical evaluation once gave White +49 for its pawn table's mirror).
        let pos = Position::from_fen(START_FEN).expect("the start position");
        let score = network().evaluate(&pos);
        assert!(score.abs() <= 60, "{score}");
    }
}
