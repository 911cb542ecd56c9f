//! Time management: how long to think about one move.
//!
//! Two budgets come out of the clock: the optimum, after which no new iteration starts
//! (scaled by how stable the best move is), and the maximum, at which the search stops
//! mid-iteration. Both keep `Move Overhead` in reserve for the host's latency.

use super::Limits;
use crate::board::Color;
use std::time::{Duration, Instant};

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
        let inc = inc.unwrap_or_default();
        let time_ms = time.as_millis() as f64;
        let inc_ms = inc.as_millis() as f64;
        let overhead_ms = overhead.as_millis() as f64;
        // Moves still to play in this period: given, or a guess that shrinks as the game goes on.
        let mtg = match limits.movestogo {
            Some(n) => (n.max(1) as f64).min(50.0),
            None => (50.0 - game_ply as f64 / 4.0).clamp(20.0, 50.0),
        };
        let usable = (time_ms + inc_ms * (mtg - 1.0) - overhead_ms * (mtg + 1.0)).max(1.0);
        let mut optimum = usable / mtg;
        // Never plan to use more than a fraction of what is on the clock.
        let cap = if limits.movestogo.is_some() && mtg <= 1.0 {
            time_ms - overhead_ms * 2.0
        } else {
            time_ms * 0.5 - overhead_ms
        };
        let cap = cap.max(1.0);
        let mut maximum = (optimum * 5.0).min(cap);
        optimum = optimum.min(maximum);
        maximum = maximum.max(1.0);
        TimeManager {
            start,
            optimum: Some(Duration::from_micros((optimum.max(1.0) * 1000.0) as u64)),
            maximum: Some(Duration::from_micros((maximum * 1000.0) as u64)),
        }
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
}
