//! `S`: a (middlegame, endgame) pair of centipawn values, the unit of every
//! weight and term, and the taper that blends the two halves by game phase
//! (`MAX_PHASE` down to 0).

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// The game phase of the starting material (the sum of its pieces'
/// `weights::PHASE_WEIGHT`): all middlegame. More (after promotions) is
/// clamped; 0 is all endgame.
pub const MAX_PHASE: i32 = 24;

/// A middlegame and an endgame value, added and scaled together.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S {
    pub mg: i32,
    pub eg: i32,
}

/// Shorthand for the weight tables: `s(mg, eg)`.
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl S {
    pub const ZERO: S = s(0, 0);

    /// `self + o` in constant context (tables built at compile time).
    pub const fn plus(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }

    /// `self * k` in constant context.
    pub const fn times(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        s(-self.mg, -self.eg)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

/// Blends `v` by `phase` (`MAX_PHASE` = all middlegame, 0 = all endgame).
/// Division truncates toward zero, so `taper(-v) == -taper(v)`.
#[inline]
pub fn taper(v: S, phase: i32) -> i32 {
    (v.mg * phase + v.eg * (MAX_PHASE - phase)) / MAX_PHASE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taper_blends_and_is_odd() {
        assert_eq!(taper(s(100, 0), MAX_PHASE), 100);
        assert_eq!(taper(s(100, 20), 0), 20);
        assert_eq!(taper(s(100, 20), MAX_PHASE / 2), 60);
        for phase in 0..=MAX_PHASE {
            assert_eq!(taper(s(37, -91), phase), -taper(s(-37, 91), phase));
        }
        assert_eq!(s(1, 2) * 3 - s(1, 1) + -s(1, 1), s(1, 4));
    }
}
