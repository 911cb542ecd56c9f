//! Endgame tablebases for every ending of up to four men, exact under Sittuyin's counting
//! rule and the 50-move rule (docs/tablebases.md), built per rule set where one can be.
//!
//! Two kinds of table. Where one king is bare and no pawn is on the board (the endings the
//! count governs), a table stores the distance to mate (DTM), and a win counts only if the
//! mate fits within what the count and the 50-move clock leave. Everywhere else it stores
//! the distance to the next capture, pawn move or promotion into a position still won with
//! fresh clocks, or to mate (DTZ, as Syzygy tables do), so a win the 50-move rule spoils
//! is a draw. Neither clock is in the index: `probe` weighs the stored distance against
//! the clocks of the position asked about.

pub mod driver;
pub mod file;
pub mod layout;
pub mod material;
pub mod pos;
pub mod probe;
pub mod registry;
pub mod retro;
pub mod value;

use crate::board::ruleset::{Counting, Material as MaterialRule, PromotionStalemate, StalemateRule};
use crate::board::{PieceType, Rules};
pub use file::Table;
pub use material::Material;
pub use probe::{Probe, RankedMove, Wdl};
pub use registry::Tablebases;
use std::path::{Path, PathBuf};
pub use value::Stored;

/// Whether tables can be built under `rules`, or why not. The generator knows the moves of
/// every rule set whose stalemate draws and whose last pawn promotes anywhere, the 50-move
/// rule at `value::MAX_DISTANCE` plies, and a count that restarts with every capture (or
/// none); a table's index holds no clock, so a count whose state outlives a capture or a
/// promotion cannot be tabled.
pub fn buildable(rules: &Rules) -> Result<(), &'static str> {
    if rules.counting == Counting::Federation || rules.material == MaterialRule::Federation {
        return Err(
            "its count starts once, with pawns on the board, from twice the men then, and runs on through promotions: a table would need the count in its index",
        );
    }
    if rules.stalemate != StalemateRule::Draw || !rules.last_pawn_promotes_anywhere {
        return Err(
            "its stalemate ban and its promotions only on the diagonals are moves the table generator does not make",
        );
    }
    if rules.counting == Counting::Pritchard {
        return Err("its count depends on where the lone king stood when it began");
    }
    if rules.fifty_move_plies != value::MAX_DISTANCE as u32
        || rules.promotion_stalemate != PromotionStalemate::KingAndPawn
    {
        return Err("its 50-move rule or promotion stalemate is not one the table generator knows");
    }
    Ok(())
}

/// The folder that holds the tables of `rules` under a `TablebasePath` folder `root`:
/// `root` itself for Fairy-Stockfish's rules, `root/SHORT` (for example `root/club`) for
/// another rule set.
pub fn folder(root: &Path, rules: &Rules) -> PathBuf {
    if rules.is_default() { root.to_path_buf() } else { root.join(rules.short_name()) }
}

/// The counting limit in plies that a side with men `has` sets against a bare king under
/// `rules` (0: no count), for the rule sets tables are built under.
pub fn counting_limit(rules: &Rules, has: impl Fn(PieceType) -> bool) -> u32 {
    match rules.counting {
        Counting::FairyStockfish => crate::board::sittuyin::counting_limit_plies(has),
        _ => 0,
    }
}
