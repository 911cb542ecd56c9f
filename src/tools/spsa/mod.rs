//! `sitke spsa`: tuning the search constants of `search::params` by SPSA (simultaneous
//! perturbation stochastic approximation) with engine games.
//!
//! Each iteration pushes every tuned constant up or down at random by its perturbation
//! c_k, plays the two resulting engines against each other over a few game pairs (same
//! opening, colours swapped) with `sitke match`'s runner, and moves all the constants at
//! once towards the side that scored better (`math`). The run's state is rewritten after
//! every iteration (`state`), and since an iteration's randomness derives from the seed and
//! its number alone, rerunning the command continues exactly where it stopped. `games`
//! plays the matches, `report` prints the steps and the result, `cli` is the command line.

pub mod cli;
pub mod games;
pub mod math;
pub mod report;
pub mod state;

use crate::rng::{Rng, mix};
use games::Referee;
use state::State;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// The seed of iteration `k`'s openings: its own stream, apart from the perturbation's.
pub fn opening_seed(seed: u64, k: u64) -> u64 {
    Rng::for_item(mix(seed ^ 0x6f70_656e_696e_6773), k).next_u64()
}

/// Plays the remaining iterations of `state`, saving it to `path` (if any) after each and
/// printing each step to `out`. An error (say, an engine that cannot start) stops the run
/// with the state of the last finished iteration saved.
pub fn run(
    state: &mut State,
    path: Option<&Path>,
    referee: &mut dyn Referee,
    out: &mut dyn Write,
) -> Result<(), String> {
    let began = Instant::now();
    let first = state.done;
    while !state.is_complete() {
        let k = state.done + 1;
        let s = &state.settings;
        let p = math::perturb(&s.dims, &state.theta, &s.gains, s.seed, k);
        let t = Instant::now();
        let wdl = referee.play(&s.dims, &p, opening_seed(s.seed, k)).map_err(|e| format!("iteration {k}: {e}"))?;
        let y = wdl.wins as f64 - wdl.losses as f64;
        let moved = math::update(&s.dims, &mut state.theta, &s.gains, &p, y);
        state.done = k;
        state.results.wins += wdl.wins;
        state.results.losses += wdl.losses;
        state.results.draws += wdl.draws;
        if let Some(path) = path {
            state.save(path)?;
        }
        // The pace of this session: a resumed run's earlier iterations were not timed.
        let per = began.elapsed().as_secs_f64() / (k - first) as f64;
        let left = state.settings.gains.iterations - k;
        let eta = (left > 0).then(|| Duration::from_secs_f64(per * left as f64));
        report::step(out, state, &p, &wdl, &moved, t.elapsed(), eta).map_err(|e| format!("output: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
