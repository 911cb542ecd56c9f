//! Endgame tablebases for every ending of up to four men, exact under Sittuyin's counting
//! rule and the 50-move rule (docs/tablebases.md).
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

/// The rule set every table is built under (Fairy-Stockfish's counting and 50-move rules).
/// Under any other rule set the values differ, and no table is probed.
pub const TABLE_RULES: &Rules = &Rules::FAIRY_STOCKFISH;

use crate::board::Rules;
pub use file::Table;
pub use material::Material;
pub use probe::{Probe, RankedMove, Wdl};
pub use registry::Tablebases;
pub use value::Stored;
