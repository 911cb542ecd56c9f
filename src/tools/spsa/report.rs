//! What SPSA prints: a line per iteration with the current values, and the result in the
//! three forms it is used in (`setoption` lines, `sitke match` options, params.rs lines).

use super::math::Perturbation;
use super::state::State;
use crate::search::params;
use crate::tools::r#match::stats::Wdl;
use std::io::{self, Write};
use std::time::Duration;

/// The engine value of every constant now: rounded and in range.
fn engine_values(state: &State) -> Vec<i32> {
    state.settings.dims.iter().zip(&state.theta).map(|(d, &t)| d.engine_value(t)).collect()
}

/// The line of an iteration just played, then its values and how far each moved.
pub fn step(
    out: &mut dyn Write,
    state: &State,
    p: &Perturbation,
    wdl: &Wdl,
    moved: &[f64],
    took: Duration,
    eta: Option<Duration>,
) -> io::Result<()> {
    let g = &state.settings.gains;
    let y = wdl.wins as i64 - wdl.losses as i64;
    write!(
        out,
        "iteration {}/{}: plus vs minus {} - {} - {} (y {y:+}), c_k {:.2} c_end, a_k {:.2} a_end, {:.1}s",
        p.k,
        g.iterations,
        wdl.wins,
        wdl.losses,
        wdl.draws,
        g.c_factor(p.k),
        g.a_factor(p.k),
        took.as_secs_f64()
    )?;
    if let Some(eta) = eta {
        write!(out, ", ETA {}", crate::tools::datagen::format_duration(eta))?;
    }
    writeln!(out)?;
    let mut line = String::from(" ");
    for ((d, t), m) in state.settings.dims.iter().zip(&state.theta).zip(moved) {
        line += &format!(" {}={t:.2} ({m:+.2})", d.name);
    }
    writeln!(out, "{line}")?;
    out.flush()
}

/// The run's values: a table, then `setoption` lines, `sitke match` options and the
/// params.rs lines with the tuned defaults.
pub fn summary(out: &mut dyn Write, state: &State) -> io::Result<()> {
    let s = &state.settings;
    let r = &state.results;
    writeln!(
        out,
        "spsa: {} of {} iterations played, {} games (plus vs minus {} - {} - {})",
        state.done,
        s.gains.iterations,
        r.games(),
        r.wins,
        r.losses,
        r.draws
    )?;
    let values = engine_values(state);
    writeln!(out, "{:<20} {:>8} {:>10} {:>7}   range", "constant", "start", "now", "engine")?;
    for (i, d) in s.dims.iter().enumerate() {
        writeln!(
            out,
            "{:<20} {:>8} {:>10.2} {:>7}   {}..{}",
            d.name, state.start[i], state.theta[i], values[i], d.min, d.max
        )?;
    }
    writeln!(out, "\n# UCI (any time, before `go`):")?;
    for (d, v) in s.dims.iter().zip(&values) {
        writeln!(out, "setoption name {} value {v}", d.name)?;
    }
    writeln!(out, "\n# sitke match engine options (e.g. an SPRT of these values against the defaults):")?;
    let options: Vec<String> = s.dims.iter().zip(&values).map(|(d, v)| format!("option.{}={v}", d.name)).collect();
    writeln!(out, "{}", options.join(" "))?;
    writeln!(out, "\n# src/search/params.rs (replace the lines of the same names, then rebuild):")?;
    for (d, v) in s.dims.iter().zip(&values) {
        writeln!(out, "{}", params_line(&d.name, *v, d.min as i32, d.max as i32))?;
    }
    out.flush()
}

/// A constant's line in the `params!` table of `src/search/params.rs` with a new default;
/// its doc text comes from this build (a name it does not know gets an empty one).
pub fn params_line(name: &str, default: i32, min: i32, max: i32) -> String {
    let doc = params::find(name).map_or("", |p| p.doc);
    format!("    {name} = {default}, {min}, {max}; {doc:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_lines_match_the_source_file() {
        // Every constant, printed with its own default, is its line in params.rs verbatim,
        // so a tuned line replaces the old one exactly.
        let source = include_str!("../../search/params.rs");
        for p in params::ALL {
            let line = params_line(p.name, p.default, p.min, p.max);
            assert!(source.lines().any(|l| l == line), "{line}");
        }
    }
}
