//! A middlegame/endgame score pair, blended by game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A pair of scores in centipawns: one for the middlegame, one for the endgame.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct S {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

/// Shorthand constructor for weight tables.
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl S {
    /// The zero pair.
    pub const ZERO: S = S { mg: 0, eg: 0 };

    /// Blends the pair by `phase` (0 = bare endgame .. `PHASE_MAX` = full middlegame).
    #[inline(always)]
    pub fn taper(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (super::PHASE_MAX - phase)) / super::PHASE_MAX
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S { mg: self.mg + o.mg, eg: self.eg + o.eg }
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S { mg: self.mg - o.mg, eg: self.eg - o.eg }
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S { mg: -self.mg, eg: -self.eg }
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S { mg: self.mg * k, eg: self.eg * k }
    }
}
