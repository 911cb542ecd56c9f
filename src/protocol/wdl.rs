//! The win/draw/loss estimate printed with `UCI_ShowWDL`: a logistic model of the score.
//!
//! Each side's chance to win is a logistic curve in the score: the side to move wins half
//! the time at `+WIN_HALF` centipawns, and the curve's width is `WIN_SCALE`. The other side's
//! win chance is the same curve at the negated score, and the rest is the draw chance. The
//! constants were chosen by hand, not fitted: Sittuyin is drawish (weak promotions, the
//! counting rules), so an equal position is mostly a draw (about 88% with these values), a
//! rook up (about +300 on Sitke's scale) wins most games, and a small edge changes little.
//! Mate scores are certain results.

use crate::search::Score;

/// The advantage, in centipawns, at which the side to move wins half its games.
pub const WIN_HALF: f64 = 150.0;
/// The width of the logistic curve, in centipawns.
pub const WIN_SCALE: f64 = 55.0;

/// Win, draw and loss chances in permille for the side to move; they sum to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Permille of wins.
    pub win: u32,
    /// Permille of draws.
    pub draw: u32,
    /// Permille of losses.
    pub loss: u32,
}

/// The estimate for a reported score.
pub fn wdl(score: Score) -> Wdl {
    match score {
        Score::Mate(m) if m > 0 => Wdl { win: 1000, draw: 0, loss: 0 },
        Score::Mate(_) => Wdl { win: 0, draw: 0, loss: 1000 },
        Score::Cp(cp) => {
            let chance = |v: f64| 1000.0 / (1.0 + ((WIN_HALF - v) / WIN_SCALE).exp());
            let win = chance(cp as f64).round() as u32;
            let loss = chance(-cp as f64).round() as u32;
            // Rounding can make the two sum to 1001 only if both are near 500, which the
            // curve's shape rules out; min() keeps the draw share non-negative regardless.
            let loss = loss.min(1000 - win);
            Wdl { win, draw: 1000 - win - loss, loss }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_monotonic_and_summing_to_1000() {
        let mut last_win = 0;
        for cp in -2000..=2000 {
            let w = wdl(Score::Cp(cp));
            assert_eq!(w.win + w.draw + w.loss, 1000);
            assert!(w.win >= last_win);
            last_win = w.win;
            let m = wdl(Score::Cp(-cp));
            assert_eq!((w.win, w.draw, w.loss), (m.loss, m.draw, m.win));
        }
        let even = wdl(Score::Cp(0));
        assert!(even.draw > 800 && even.win == even.loss);
        assert_eq!(wdl(Score::Cp(150)).win, 500);
        assert_eq!(wdl(Score::Mate(3)), Wdl { win: 1000, draw: 0, loss: 0 });
        assert_eq!(wdl(Score::Mate(-1)), Wdl { win: 0, draw: 0, loss: 1000 });
    }
}
