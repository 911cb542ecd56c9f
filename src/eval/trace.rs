//! Observers of the evaluation: nothing (the search), per-term totals (the `eval`
//! command), or per-weight coefficients (the tuner).

use super::layout::{NUM_PARAMS, TERMS, term_of};
use super::score::S;
use super::weights::WEIGHTS;
use crate::board::Color;
use std::fmt;

/// Receives every feature the evaluation counts.
pub trait Tracer {
    /// `count` instances of weight `index` counted for side `c`.
    fn add(&mut self, index: usize, c: Color, count: i32);
    /// The game phase, the blended score before endgame scaling and the final score
    /// (both from White's point of view).
    fn finish(&mut self, phase: i32, raw_white: i32, final_white: i32);
}

/// Observes nothing: the evaluation the search runs.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: Color, _: i32) {}
    #[inline(always)]
    fn finish(&mut self, _: i32, _: i32, _: i32) {}
}

/// Per-weight coefficients (White's count minus Black's), for fitting the weights.
#[derive(Clone, Debug, Default)]
pub struct CoefTrace {
    /// (weight index, White minus Black count), one entry per index that occurred.
    pub coefs: Vec<(u16, i16)>,
    /// The game phase.
    pub phase: i32,
    /// The blended linear score from White's view, before endgame scaling.
    pub raw_white_score: i32,
    /// The final score from White's view.
    pub final_white_score: i32,
}

impl CoefTrace {
    /// The blended linear score these coefficients give with `weights`.
    pub fn linear_score(&self, weights: &[S; NUM_PARAMS]) -> i32 {
        let mut sum = S::ZERO;
        for &(i, c) in &self.coefs {
            sum += weights[i as usize] * c as i32;
        }
        sum.taper(self.phase)
    }
}

impl Tracer for CoefTrace {
    fn add(&mut self, index: usize, c: Color, count: i32) {
        let signed = if c == Color::White { count } else { -count };
        match self.coefs.iter_mut().find(|(i, _)| *i as usize == index) {
            Some(entry) => entry.1 += signed as i16,
            None => self.coefs.push((index as u16, signed as i16)),
        }
    }
    fn finish(&mut self, phase: i32, raw_white: i32, final_white: i32) {
        self.coefs.retain(|&(_, c)| c != 0);
        self.phase = phase;
        self.raw_white_score = raw_white;
        self.final_white_score = final_white;
    }
}

/// Per-term totals for each side, as the `eval` command prints them.
#[derive(Clone, Debug, Default)]
pub struct Breakdown {
    /// (term name, White's total, Black's total) in table order.
    pub terms: Vec<(&'static str, S, S)>,
    /// The game phase (0..PHASE_MAX).
    pub phase: i32,
    /// Blended score before endgame scaling, White's view.
    pub raw_white: i32,
    /// Final score, White's view.
    pub final_white: i32,
    /// Final score, side to move's view.
    pub total: i32,
}

impl Tracer for Breakdown {
    fn add(&mut self, index: usize, c: Color, count: i32) {
        if self.terms.is_empty() {
            self.terms = TERMS.iter().map(|t| (t.name, S::ZERO, S::ZERO)).collect();
        }
        if let Some((term, _)) = term_of(index) {
            let slot = TERMS.iter().position(|t| t.name == term.name).unwrap_or(0);
            let v = WEIGHTS[index] * count;
            match c {
                Color::White => self.terms[slot].1 += v,
                Color::Black => self.terms[slot].2 += v,
            }
        }
    }
    fn finish(&mut self, phase: i32, raw_white: i32, final_white: i32) {
        self.phase = phase;
        self.raw_white = raw_white;
        self.final_white = final_white;
    }
}

impl fmt::Display for Breakdown {
    /// A table of every term: White and Black (middlegame, endgame), and the difference.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:>20} | {:>13} | {:>13} | {:>13}", "Term", "White", "Black", "Total")?;
        writeln!(f, "{:>20} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}", "", "MG", "EG", "MG", "EG", "MG", "EG")?;
        writeln!(f, "{}", "-".repeat(69))?;
        let mut sum = [S::ZERO; 2];
        for (name, w, b) in &self.terms {
            if *w == S::ZERO && *b == S::ZERO {
                continue;
            }
            sum[0] += *w;
            sum[1] += *b;
            let d = *w - *b;
            writeln!(f, "{name:>20} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}", w.mg, w.eg, b.mg, b.eg, d.mg, d.eg)?;
        }
        writeln!(f, "{}", "-".repeat(69))?;
        let d = sum[0] - sum[1];
        writeln!(
            f,
            "{:>20} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            "Sum", sum[0].mg, sum[0].eg, sum[1].mg, sum[1].eg, d.mg, d.eg
        )?;
        writeln!(f)?;
        writeln!(f, "Phase: {} of {}", self.phase, super::PHASE_MAX)?;
        writeln!(f, "Blended: {} (White's view)", self.raw_white)?;
        writeln!(f, "Final evaluation: {} (White's view), after endgame scaling", self.final_white)
    }
}
