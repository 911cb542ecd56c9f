//! A weaker player for `Skill Level` and `UCI_LimitStrength`/`UCI_Elo`.
//!
//! A weak level does two things a weak human does: it looks less far (a node budget that
//! shrinks geometrically with the level), and it does not always pick the best of the moves
//! it considered. The search runs in MultiPV mode; one of its lines is then drawn at random
//! with a probability that falls exponentially with how much worse it scored than the best
//! (a softmax with a temperature that grows as the level falls), among lines no worse than a
//! margin. The margin and the exponential keep the moves sensible: a level-0 player may drop
//! a khon's worth in a quiet position but practically never a rook, and it takes a mate it
//! has seen, because mate scores dwarf any temperature.
//!
//! How the levels were chosen: level 20 is full strength (no skill at all). At level 0 the
//! budget (200 nodes) is a two- or three-ply search, the temperature (250 cp) makes moves
//! within a pawn of the best about equally likely, and the margin (300 cp) bounds the worst
//! blunder. In between, the node budget grows by 1.5x per level (level 19: about 440,000
//! nodes, a third of a second at Sitke's speed), and the temperature and margin shrink with
//! the square and the first power of the distance to 20, so the top levels differ from full
//! strength mainly in depth and the low levels mainly in choice.
//!
//! `UCI_Elo` is calibrated on the ladder of matches between the levels (`LADDER`, measured
//! by `scripts/levels.sh`, docs/web.md): full strength is 2850, the top of Fairy-Stockfish's
//! range, and every lower value is that many Elo below full strength by the ladder, so
//! that two `UCI_Elo` values differ by the Elo their players differ by in play against each
//! other. Between measured levels the level is interpolated linearly in Elo. The scale's
//! anchor is not a rating list.

use super::{Line, MATE_BOUND};

/// The strongest level; at this level the skill code is off.
pub const MAX_LEVEL: f64 = 20.0;
/// Nodes the weakest level may search.
const BASE_NODES: f64 = 200.0;
/// Growth of the node budget per level.
const NODES_PER_LEVEL: f64 = 1.5;
/// Softmax temperature (centipawns) at level 0, and at level 19 about `MIN_TEMPERATURE`.
const MAX_TEMPERATURE: f64 = 250.0;
/// The temperature at full strength's doorstep.
const MIN_TEMPERATURE: f64 = 8.0;
/// Largest loss against the best line (centipawns) a level-0 move may have.
const MAX_MARGIN: f64 = 300.0;
/// The margin just below full strength.
const MIN_MARGIN: f64 = 40.0;
/// Scores beyond this are treated as this for the draw, so mates dominate every weight.
const SCORE_CAP: i32 = 3000;

/// The ladder: measured levels and their Elo below full strength, the sums of the matches
/// between neighbours (`scripts/levels.sh`, build 1328860, 10+0.1, 100 games a step, no
/// adjudication, the held-out book; the table is in docs/web.md). Levels rise, Elo below
/// full falls to 0.
pub const LADDER: [(f64, f64); 10] = [
    (0.0, 1907.0),
    (2.0, 1858.0),
    (4.0, 1834.0),
    (6.0, 1588.0),
    (8.0, 1353.0),
    (10.0, 1065.0),
    (12.0, 813.0),
    (14.0, 598.0),
    (16.0, 346.0),
    (20.0, 0.0),
];

/// `UCI_Elo` of full strength, the anchor of the scale.
pub const ELO_FULL: i64 = 2850;

/// The lowest `UCI_Elo`: the weakest level, the ladder's whole height below full strength.
pub const ELO_MIN: i64 = ELO_FULL - LADDER[0].1 as i64;

/// The level `UCI_Elo` `elo` asks for: the ladder's level that many Elo below full
/// strength, interpolated linearly in Elo between measured levels.
fn level_for_elo(elo: u32) -> f64 {
    let below = (ELO_FULL - elo as i64).max(0) as f64;
    // The first step whose upper level is at most `below` Elo from full strength; above
    // the weakest level's distance, the weakest level.
    LADDER.windows(2).find(|w| below >= w[1].1).map_or(LADDER[0].0, |w| {
        let ((lo_level, lo_below), (hi_level, hi_below)) = (w[0], w[1]);
        if below >= lo_below {
            lo_level
        } else {
            lo_level + (lo_below - below) / (lo_below - hi_below) * (hi_level - lo_level)
        }
    })
}

/// A strength below full, as a fractional level in `0.0..20.0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
}

impl Skill {
    /// The skill the options ask for, or None for full strength. With `limit_strength`,
    /// `elo` decides on the ladder's scale, as in UCI; otherwise `skill_level` (0..=20).
    pub fn from_options(skill_level: u32, limit_strength: bool, elo: u32) -> Option<Skill> {
        let level = if limit_strength { level_for_elo(elo) } else { skill_level as f64 };
        let level = level.clamp(0.0, MAX_LEVEL);
        (level < MAX_LEVEL).then_some(Skill { level })
    }

    /// The level, 0.0 (weakest) to just below 20.0.
    pub fn level(&self) -> f64 {
        self.level
    }

    /// How far below full strength, 0.0 (almost full) to 1.0 (weakest).
    fn weakness(&self) -> f64 {
        (MAX_LEVEL - self.level) / MAX_LEVEL
    }

    /// Lines the search should return to choose from: more at lower levels.
    pub fn multipv(&self) -> usize {
        4 + (self.weakness() * 6.0).round() as usize
    }

    /// The node budget of one search at this level.
    pub fn node_limit(&self) -> u64 {
        (BASE_NODES * NODES_PER_LEVEL.powf(self.level)) as u64
    }

    /// The softmax temperature in centipawns.
    pub fn temperature(&self) -> f64 {
        MIN_TEMPERATURE + (MAX_TEMPERATURE - MIN_TEMPERATURE) * self.weakness().powi(2)
    }

    /// The largest loss against the best line a chosen move may have, in centipawns.
    pub fn margin(&self) -> f64 {
        MIN_MARGIN + (MAX_MARGIN - MIN_MARGIN) * self.weakness()
    }

    /// Picks the index of the line to play from `lines` (best first, non-empty), drawing
    /// with the uniform random number `u` in `[0, 1)`.
    pub fn pick(&self, lines: &[Line], u: f64) -> usize {
        let Some(best) = lines.first() else { return 0 };
        // A side that is being mated in every line plays the longest resistance.
        if best.value <= -MATE_BOUND {
            return 0;
        }
        let capped = |v: i32| v.clamp(-SCORE_CAP, SCORE_CAP) as f64;
        let top = capped(best.value);
        let t = self.temperature();
        let weights: Vec<f64> = lines
            .iter()
            .map(|l| {
                let loss = top - capped(l.value);
                if loss > self.margin() || l.pv.is_empty() { 0.0 } else { (-loss / t).exp() }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut target = u.clamp(0.0, 1.0) * total;
        for (i, w) in weights.iter().enumerate() {
            if *w > 0.0 && target < *w {
                return i;
            }
            target -= w;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Square};
    use crate::rng::Rng;
    use crate::search::VALUE_MATE;

    fn lines(values: &[i32]) -> Vec<Line> {
        values
            .iter()
            .enumerate()
            .map(|(i, &value)| Line { value, pv: vec![Move::normal(Square::from_index(i as u8), Square::H8)] })
            .collect()
    }

    fn histogram(skill: Skill, values: &[i32]) -> Vec<usize> {
        let ls = lines(values);
        let mut rng = Rng::new(7);
        let mut counts = vec![0; values.len()];
        for _ in 0..10_000 {
            counts[skill.pick(&ls, rng.unit())] += 1;
        }
        counts
    }

    #[test]
    fn options_map_to_levels() {
        assert_eq!(Skill::from_options(20, false, 1350), None);
        assert_eq!(Skill::from_options(5, false, 1350).unwrap().level(), 5.0);
        assert_eq!(Skill::from_options(0, true, ELO_FULL as u32), None);
        // Every measured level is where its Elo puts it, and the scale rises with the level.
        for &(level, below) in &LADDER[..LADDER.len() - 1] {
            let elo = (ELO_FULL as f64 - below).round() as u32;
            if elo as i64 >= ELO_MIN {
                let got = Skill::from_options(0, true, elo).unwrap().level();
                assert!((got - level).abs() < 0.05, "UCI_Elo {elo}: level {got}, ladder {level}");
            }
        }
        let levels: Vec<f64> =
            (ELO_MIN..ELO_FULL).step_by(50).map(|e| Skill::from_options(0, true, e as u32).unwrap().level()).collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]), "{levels:?}");
        assert!(LADDER.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 > w[1].1));
        assert_eq!(LADDER[LADDER.len() - 1], (MAX_LEVEL, 0.0));
    }

    #[test]
    fn weaker_levels_search_less_and_choose_more_freely() {
        let levels: Vec<Skill> = (0..20).map(|l| Skill { level: l as f64 }).collect();
        for w in levels.windows(2) {
            assert!(w[0].node_limit() < w[1].node_limit());
            assert!(w[0].temperature() > w[1].temperature());
            assert!(w[0].margin() > w[1].margin());
        }
        assert_eq!(levels[0].node_limit(), 200);
    }

    #[test]
    fn choices_are_sensible() {
        let weakest = Skill { level: 0.0 };
        let strong = Skill { level: 18.0 };
        // Close alternatives are played at the weakest level, a blunder never is.
        let h = histogram(weakest, &[50, 20, -10, -600]);
        assert!(h[1] > 1000 && h[2] > 1000, "{h:?}");
        assert_eq!(h[3], 0);
        // A strong level mostly plays the best move.
        let h = histogram(strong, &[50, 20, -10, -600]);
        assert!(h[0] > 9000, "{h:?}");
        // A mate is always taken; when every line is mated, the first (longest) is played.
        let h = histogram(weakest, &[VALUE_MATE - 3, 400, 390]);
        assert_eq!(h[0], 10_000);
        let h = histogram(weakest, &[-VALUE_MATE + 8, -VALUE_MATE + 4]);
        assert_eq!(h[0], 10_000);
    }
}
