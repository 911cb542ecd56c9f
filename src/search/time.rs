//! Time management: how long to think about one move.
//!
//! Two budgets come out of the clock: the optimum, after which no new iteration starts (the
//! search scales it by how unsettled the position is: a best move that keeps changing or a
//! falling score earn more time, a stable one less), and the maximum, at which the search
//! stops mid-iteration.
//!
//! Never losing on time rests on three rules:
//! - `Move Overhead` is charged for every move still to be played, so the host's latency is
//!   paid for before any thinking is planned;
//! - a reserve (a few overheads plus one increment, at most half the clock) is never
//!   planned for. When the clock falls to the reserve, the optimum drops to what the
//!   increment brings back, and the clock climbs again: it settles at the reserve rather
//!   than at zero, so a stall of the machine has something to eat into;
//! - the maximum is a fraction of the clock above the reserve, so one long search (a
//!   failing-low iteration running to its hard limit) cannot empty the clock either.
//!
//! With moves-to-go the reserve is smaller before the time control, since the clock is
//! refilled right after it.

use super::Limits;
use crate::board::Color;
use crate::host::Instant;
use std::time::Duration;

/// Overheads kept in reserve on top of one increment.
const RESERVE_OVERHEADS: f64 = 4.0;
/// The optimum may grow to this multiple before the maximum takes over.
const MAX_OVER_OPTIMUM: f64 = 5.0;
/// The maximum's share of the clock above the reserve (sudden death and increment).
const MAX_SHARE: f64 = 0.5;
/// The moves-to-go estimate: a Sittuyin game lasts long (a 16-ply setup, then often a
/// counting ending; self-play games at 1s+0.01s average about 90 moves a side), so plan for
/// this many moves early on...
const MTG_START: f64 = 50.0;
/// ...and never for fewer than this many.
const MTG_MIN: f64 = 35.0;
/// Plies of game per move the estimate shrinks by.
const PLIES_PER_MTG: f64 = 8.0;
/// Without an increment nothing comes back, and a game may last 100 moves a side: plan
/// for this many more moves than with one.
const MTG_SUDDEN_DEATH_EXTRA: f64 = 30.0;

/// The time budget of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    optimum: Option<Duration>,
    maximum: Option<Duration>,
}

impl TimeManager {
    /// Budgets for the side `us` at `game_ply`, keeping `overhead` in reserve.
    pub fn new(limits: &Limits, us: Color, game_ply: u32, overhead: Duration, start: Instant) -> TimeManager {
        if limits.infinite {
            return TimeManager { start, optimum: None, maximum: None };
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            return TimeManager { start, optimum: Some(t), maximum: Some(t) };
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager { start, optimum: None, maximum: None };
        };
        let (optimum, maximum) = budgets(
            time.as_secs_f64() * 1000.0,
            inc.unwrap_or_default().as_secs_f64() * 1000.0,
            overhead.as_secs_f64() * 1000.0,
            limits.movestogo,
            game_ply,
        );
        let ms = |v: f64| Duration::from_micros((v * 1000.0) as u64);
        TimeManager { start, optimum: Some(ms(optimum)), maximum: Some(ms(maximum)) }
    }

    /// Time since the search started.
    #[inline]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The planned time for this move, if the clock sets one.
    pub fn optimum(&self) -> Option<Duration> {
        self.optimum
    }

    /// The hard limit for this move, if the clock sets one.
    pub fn maximum(&self) -> Option<Duration> {
        self.maximum
    }

    /// Whether the hard limit has passed: stop now.
    #[inline]
    pub fn hard_limit_reached(&self) -> bool {
        self.maximum.is_some_and(|m| self.elapsed() >= m)
    }

    /// Whether the planned time, scaled by `factor` (best-move stability), has passed:
    /// start no new iteration.
    pub fn soft_limit_reached(&self, factor: f64) -> bool {
        self.optimum.is_some_and(|o| self.elapsed().as_secs_f64() >= o.as_secs_f64() * factor)
    }
}

/// (optimum, maximum) in ms for `time` left, `inc` per move, `overhead` per move.
fn budgets(time: f64, inc: f64, overhead: f64, movestogo: Option<u32>, game_ply: u32) -> (f64, f64) {
    let last_before_control = movestogo == Some(1);
    // Moves still to play in this period: given, or a guess that shrinks as the game goes on.
    let mtg = match movestogo {
        Some(n) => (n.max(1) as f64).min(MTG_START),
        None => {
            let extra = if inc <= 0.0 { MTG_SUDDEN_DEATH_EXTRA } else { 0.0 };
            (MTG_START - game_ply as f64 / PLIES_PER_MTG).clamp(MTG_MIN, MTG_START) + extra
        }
    };
    let reserve = if movestogo.is_some() {
        // The clock is refilled after the control: only the latency needs cover.
        (2.0 * overhead).min(time * 0.5)
    } else {
        (RESERVE_OVERHEADS * overhead + inc).min(time * 0.5)
    };
    let above_reserve = (time - reserve).max(0.0);
    // This move is paid from the clock; later increments, less their latency, pay for later
    // moves; the latency of this move and of every later one is paid up front.
    let usable = (above_reserve + (inc - overhead).max(0.0) * (mtg - 1.0) - overhead).max(0.0);
    let optimum = usable / mtg;
    let cap = if last_before_control { above_reserve - overhead } else { above_reserve * MAX_SHARE - overhead };
    let maximum = (optimum * MAX_OVER_OPTIMUM).min(cap).max(1.0);
    (optimum.min(maximum).max(0.5), maximum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tm(limits: Limits, overhead_ms: u64) -> TimeManager {
        TimeManager::new(&limits, Color::White, 40, Duration::from_millis(overhead_ms), Instant::now())
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let t = tm(Limits { movetime: Some(Duration::from_millis(1000)), ..Limits::default() }, 30);
        assert_eq!(t.maximum(), Some(Duration::from_millis(970)));
    }

    #[test]
    fn budgets_stay_well_inside_the_clock() {
        for (time, inc) in [(10, 0), (100, 10), (1000, 10), (10_000, 100), (60_000, 0), (300_000, 3000)] {
            let t = tm(
                Limits {
                    wtime: Some(Duration::from_millis(time)),
                    winc: Some(Duration::from_millis(inc)),
                    ..Limits::default()
                },
                10,
            );
            let max = t.maximum().unwrap().as_millis() as u64;
            let opt = t.optimum().unwrap().as_millis() as u64;
            assert!(opt <= max, "{time}+{inc}: {opt} > {max}");
            assert!(max <= time / 2 + 1, "{time}+{inc}: max {max}");
        }
    }

    #[test]
    fn last_move_before_the_control_may_use_most_of_the_clock() {
        let t = tm(Limits { wtime: Some(Duration::from_millis(1000)), movestogo: Some(1), ..Limits::default() }, 10);
        let max = t.maximum().unwrap().as_millis();
        assert!((500..=980).contains(&max), "{max}");
    }

    #[test]
    fn more_time_early_in_a_long_game_than_at_the_reserve() {
        let (opt_full, _) = budgets(60_000.0, 0.0, 10.0, None, 20);
        assert!((600.0..=1500.0).contains(&opt_full), "{opt_full}");
        // At the reserve the engine lives on its increment (less the latency).
        let (opt_low, max_low) = budgets(50.0, 10.0, 10.0, None, 100);
        assert!(opt_low < 2.0 && max_low < 10.0, "{opt_low} {max_low}");
    }

    /// Plays games against the clock with a greedy search: every move runs to 1.5 times the
    /// optimum (an unsettled position) and every tenth move to the hard limit (an iteration
    /// failing low). The host's latency is
    /// 2 ms a move (at most the overhead setting). The clock must never run out; with an
    /// increment that covers the overhead it must not even sink near zero.
    #[test]
    fn simulated_games_never_lose_on_time() {
        let latency = 2.0;
        // (base ms, increment ms, moves per period, moves played, overhead settings)
        type Case = (f64, f64, Option<u32>, u32, &'static [f64]);
        let cases: &[Case] = &[
            (1000.0, 10.0, None, 300, &[5.0, 10.0]),
            (60.0, 10.0, None, 300, &[5.0, 10.0]),
            (10_000.0, 100.0, None, 300, &[10.0, 30.0, 100.0]),
            (1000.0, 0.0, Some(10), 300, &[5.0, 10.0, 30.0]),
            (1000.0, 0.0, None, 100, &[5.0, 10.0, 30.0]),
        ];
        for &(base, inc, period, moves, overheads) in cases {
            for &overhead in overheads {
                let mut clock: f64 = base;
                let mut lowest = f64::MAX;
                for mv in 0..moves {
                    let mtg = period.map(|p| p - mv % p);
                    let (opt, max) = budgets(clock, inc, overhead, mtg, 2 * mv);
                    let used = if mv % 10 == 9 { max } else { (1.5 * opt).min(max) };
                    clock -= used + latency;
                    lowest = lowest.min(clock);
                    assert!(clock > 0.0, "{base}+{inc} mtg {period:?} O {overhead}: lost at move {mv}");
                    clock += inc;
                    if let Some(p) = period
                        && (mv + 1) % p == 0
                    {
                        clock += base;
                    }
                }
                if inc >= overhead {
                    assert!(lowest > 2.0 * overhead, "{base}+{inc} O {overhead}: clock fell to {lowest}");
                }
            }
        }
    }
}
