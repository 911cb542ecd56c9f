//! Sitke's own efficiently updatable neural network (NNUE).
//!
//! The net is a single hidden layer per perspective, shared between the two sides:
//! `features::INPUTS` sparse inputs -> N (i16 accumulator, updated move by move) -> an
//! activation -> one output per material bucket, read from the side to move's accumulator
//! followed by the other side's. `features` says which inputs a position switches on,
//! `file` how a trained net is stored, `network` how the engine evaluates with it,
//! `embedded` which net is built in. The trainer (`sitke train`, in `tools`) produces the
//! files; nothing here knows of training.

pub mod accumulator;
pub mod embedded;
pub mod features;
pub mod file;
pub mod network;

pub use accumulator::AccumulatorStack;
pub use file::{Activation, Architecture, NetError, QuantisedNet};
pub use network::Network;

/// The evaluation a command's `--classical` and `--eval-file` flags ask for: None for the
/// classical one, else the net in the file or the built-in net. The error names the flag
/// and the file that cannot be read.
pub fn chosen(classical: bool, eval_file: Option<&std::path::Path>) -> Result<Option<std::sync::Arc<Network>>, String> {
    match (classical, eval_file) {
        (true, _) => Ok(None),
        (false, None) => Ok(Some(embedded::network())),
        (false, Some(path)) => Network::from_file(path)
            .map(|net| Some(std::sync::Arc::new(net)))
            .map_err(|e| format!("--eval-file {}: {e}", path.display())),
    }
}
