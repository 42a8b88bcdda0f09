//! The evaluation's grain as a back end sees it: static evaluations rounded
//! to a multiple of a few centipawns. Plaat et al. (1996) found the MT
//! drivers converge in fewer passes over a coarser evaluation.

use crate::score::Score;

/// A grain in centipawns; 1 is the full resolution.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Grain(i32);

impl Grain {
    /// No rounding.
    pub const FULL: Grain = Grain(1);
    /// The MT back ends' default (the `MTGrain` option): on bench.epd at
    /// depth 8 it halves MTD(f)'s nodes (1,176,911 at grain 1, 557,172 at 8),
    /// for a rounding of at most 4 cp.
    pub const MT_DEFAULT: Grain = Grain(8);
    /// The coarsest grain accepted.
    pub const MAX: i32 = 100;

    /// A grain of `cp` centipawns, 1..=`MAX`.
    pub fn new(cp: i32) -> Result<Grain, String> {
        if (1..=Self::MAX).contains(&cp) {
            Ok(Grain(cp))
        } else {
            Err(format!("grain {cp} out of range 1..={}", Self::MAX))
        }
    }

    pub const fn centipawns(self) -> i32 {
        self.0
    }

    /// The largest multiple of the grain at most `score`: a bound the
    /// search derives from another (a margin below a stored value) stays on
    /// the grain, so an MT pass never moves by less than one grain.
    #[inline]
    pub fn floor(self, score: Score) -> Score {
        Score(score.0.div_euclid(self.0) * self.0)
    }

    /// `score` rounded to the nearest multiple of the grain, halves away
    /// from zero, so that rounding commutes with negation (negamax).
    #[inline]
    pub fn round(self, score: Score) -> Score {
        if self.0 == 1 {
            return score;
        }
        let g = self.0;
        let magnitude = (score.0.abs() + g / 2) / g * g;
        Score(magnitude * score.0.signum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_the_nearest_multiple_symmetrically() {
        let g = Grain::new(8).unwrap();
        assert_eq!(g.round(Score(3)), Score(0));
        assert_eq!(g.round(Score(4)), Score(8));
        assert_eq!(g.round(Score(13)), Score(16));
        assert_eq!(g.round(Score(-13)), Score(-16));
        assert_eq!(g.round(Score(-4)), Score(-8));
        for v in -300..300 {
            assert_eq!(g.round(Score(-v)), -g.round(Score(v)));
            assert_eq!(g.round(Score(v)).0 % 8, 0);
            assert!((g.round(Score(v)).0 - v).abs() <= 4);
        }
        assert_eq!(Grain::FULL.round(Score(13)), Score(13));
    }

    #[test]
    fn floor_is_the_largest_multiple_at_most_the_score() {
        let g = Grain::new(8).unwrap();
        assert_eq!(g.floor(Score(15)), Score(8));
        assert_eq!(g.floor(Score(16)), Score(16));
        assert_eq!(g.floor(Score(-1)), Score(-8));
        assert_eq!(g.floor(Score(-16)), Score(-16));
        for v in -300..300 {
            assert_eq!(Grain::FULL.floor(Score(v)), Score(v));
            let f = g.floor(Score(v)).0;
            assert!(f <= v && v - f < 8 && f % 8 == 0);
        }
    }

    #[test]
    fn out_of_range_grains_are_refused() {
        assert!(Grain::new(0).is_err());
        assert!(Grain::new(-5).is_err());
        assert!(Grain::new(Grain::MAX + 1).is_err());
        assert_eq!(Grain::new(Grain::MAX).unwrap().centipawns(), Grain::MAX);
    }
}
