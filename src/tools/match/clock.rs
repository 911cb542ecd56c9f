//! Time controls as cutechess writes them (`40/60`, `10+0.1`, `40/1:30+0.5`, `inf`) and the
//! game clock that enforces them.

use std::fmt;
use std::time::Duration;

/// A time control: unlimited, or a period of `base` for `moves` moves (0: the whole game)
/// with `inc` added after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock: the engine's other limits (nodes, depth, time per move) govern.
    Infinite,
    /// A real clock.
    Timed {
        /// Moves per period; 0 means the period covers the whole game.
        moves: u32,
        /// Time for one period.
        base: Duration,
        /// Time added after each move.
        inc: Duration,
    },
}

/// Parses seconds written as `12`, `0.5` or `1:30` (minutes:seconds).
fn parse_seconds(s: &str) -> Option<Duration> {
    let secs = match s.split_once(':') {
        Some((m, sec)) => m.parse::<u64>().ok()? as f64 * 60.0 + sec.parse::<f64>().ok()?,
        None => s.parse::<f64>().ok()?,
    };
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

/// Writes a duration in seconds the short way (`60`, `0.1`, `2.25`).
fn fmt_seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) { (ms / 1000).to_string() } else { format!("{}", ms as f64 / 1000.0) }
}

impl TimeControl {
    /// Parses cutechess's syntax: `inf`, or `[moves/]time[+increment]` with times in
    /// seconds or minutes:seconds.
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        if s == "inf" || s == "infinite" {
            return Ok(TimeControl::Infinite);
        }
        let bad = || format!("invalid time control '{s}' (expected e.g. 40/60, 10+0.1, inf)");
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (m.parse::<u32>().map_err(|_| bad())?, r),
            None => (0, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (parse_seconds(b).ok_or_else(bad)?, parse_seconds(i).ok_or_else(bad)?),
            None => (parse_seconds(rest).ok_or_else(bad)?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(format!("time control '{s}' gives no time at all"));
        }
        Ok(TimeControl::Timed { moves, base, inc })
    }
}

impl fmt::Display for TimeControl {
    /// The cutechess form, which is also the PGN `TimeControl` tag for the usual cases.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Infinite => write!(f, "inf"),
            TimeControl::Timed { moves, base, inc } => {
                if moves > 0 {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", fmt_seconds(base))?;
                if !inc.is_zero() {
                    write!(f, "+{}", fmt_seconds(inc))?;
                }
                Ok(())
            }
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Milliseconds left; signed because an engine may overrun within the margin.
    left_ms: i64,
    /// Moves made in the current period.
    moves_in_period: u32,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(tc: TimeControl) -> Clock {
        let left_ms = match tc {
            TimeControl::Infinite => 0,
            TimeControl::Timed { base, .. } => base.as_millis() as i64,
        };
        Clock { tc, left_ms, moves_in_period: 0 }
    }

    /// Whether the clock runs at all.
    pub fn is_timed(&self) -> bool {
        self.tc != TimeControl::Infinite
    }

    /// Milliseconds left, as sent in `wtime`/`btime` (never negative).
    pub fn left_ms(&self) -> u64 {
        self.left_ms.max(0) as u64
    }

    /// The increment in milliseconds.
    pub fn inc_ms(&self) -> u64 {
        match self.tc {
            TimeControl::Infinite => 0,
            TimeControl::Timed { inc, .. } => inc.as_millis() as u64,
        }
    }

    /// Moves left to the next time control, for `movestogo`.
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.tc {
            TimeControl::Timed { moves, .. } if moves > 0 => Some(moves - self.moves_in_period),
            _ => None,
        }
    }

    /// How long the side may think before it forfeits, `None` without a clock.
    pub fn allowance(&self, margin: Duration) -> Option<Duration> {
        self.is_timed().then(|| Duration::from_millis(self.left_ms()) + margin)
    }

    /// Charges a move that took `elapsed`: false if that overran the time left by more
    /// than `margin` (a time forfeit). Otherwise adds the increment, and a new period when
    /// the period's moves are made.
    pub fn punch(&mut self, elapsed: Duration, margin: Duration) -> bool {
        let TimeControl::Timed { moves, base, inc } = self.tc else {
            return true;
        };
        let left = self.left_ms - elapsed.as_millis() as i64;
        if left < -(margin.as_millis() as i64) {
            self.left_ms = left;
            return false;
        }
        // An overrun inside the margin is forgiven, but leaves nothing in hand.
        self.left_ms = left.max(0) + inc.as_millis() as i64;
        self.moves_in_period += 1;
        if moves > 0 && self.moves_in_period == moves {
            self.moves_in_period = 0;
            self.left_ms += base.as_millis() as i64;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_and_prints_cutechess_time_controls() {
        for (text, printed) in [
            ("10+0.1", "10+0.1"),
            ("40/60", "40/60"),
            ("40/1:30+0.5", "40/90+0.5"),
            ("0/10+0.1", "10+0.1"),
            ("2:00", "120"),
            ("inf", "inf"),
        ] {
            let tc = TimeControl::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(tc.to_string(), printed);
        }
        assert_eq!(
            TimeControl::parse("40/1:30+0.5"),
            Ok(TimeControl::Timed { moves: 40, base: ms(90_000), inc: ms(500) })
        );
        for bad in ["", "ten", "40/", "/60", "10+", "-5", "0", "0+0", "1:xx"] {
            assert!(TimeControl::parse(bad).is_err(), "'{bad}' must be refused");
        }
    }

    #[test]
    fn clock_charges_adds_increment_and_renews_periods() {
        let mut c = Clock::new(TimeControl::parse("10+0.1").unwrap());
        assert_eq!(c.allowance(ms(50)), Some(ms(10_050)));
        assert!(c.punch(ms(2_000), Duration::ZERO));
        assert_eq!(c.left_ms(), 8_100);
        // Within the margin: forgiven, the clock floors at zero before the increment.
        assert!(c.punch(ms(8_150), ms(100)));
        assert_eq!(c.left_ms(), 100);
        assert!(!c.punch(ms(301), ms(200)), "beyond the margin is a forfeit");

        let mut p = Clock::new(TimeControl::parse("2/1").unwrap());
        assert_eq!(p.moves_to_go(), Some(2));
        assert!(p.punch(ms(300), Duration::ZERO));
        assert_eq!(p.moves_to_go(), Some(1));
        assert!(p.punch(ms(300), Duration::ZERO));
        assert_eq!((p.moves_to_go(), p.left_ms()), (Some(2), 1_400));

        let inf = Clock::new(TimeControl::Infinite);
        assert_eq!(inf.allowance(ms(10)), None);
    }
}
