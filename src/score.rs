//! `Score`: a position's value in centipawns from the side to move, with mate
//! scores encoded as distance from the root, and the conversions a TT and the
//! UCI protocol need; tablebase wins and losses in a band just below the
//! mate scores. Also the `Depth` and `Ply` types.

use std::fmt;
use std::ops::{Add, Neg, Sub};

/// Remaining search depth in plies (may go negative inside quiescence).
pub type Depth = i32;
/// Distance from the search root in plies.
pub type Ply = usize;

/// The deepest ply the search may reach (search path, quiescence included).
pub const MAX_PLY: Ply = 128;

/// A score in centipawns from the point of view of the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    pub const ZERO: Score = Score(0);
    pub const DRAW: Score = Score(0);
    /// Mate at the root; mate in n plies is `MATE - n`.
    pub const MATE: Score = Score(32_000);
    /// Larger than any real score: the bounds of a full window.
    pub const INFINITE: Score = Score(32_001);
    /// Scores at or beyond this magnitude are mate scores.
    pub const MATE_BOUND: Score = Score(32_000 - MAX_PLY as i32);
    /// A tablebase win at the root; one found `n` plies down is `TB_WIN - n`.
    /// Below every mate score, above every evaluation.
    pub const TB_WIN: Score = Score(Self::MATE_BOUND.0 - 1);
    /// Scores at or beyond this magnitude (and below mates) are tablebase results.
    pub const TB_BOUND: Score = Score(Self::TB_WIN.0 - MAX_PLY as i32);

    #[inline]
    pub const fn cp(v: i32) -> Score {
        Score(v)
    }

    /// The side to move mates in `ply` plies from the root.
    #[inline]
    pub const fn mate_in(ply: Ply) -> Score {
        Score(Self::MATE.0 - ply as i32)
    }

    /// The side to move is mated `ply` plies from the root.
    #[inline]
    pub const fn mated_in(ply: Ply) -> Score {
        Score(-Self::MATE.0 + ply as i32)
    }

    /// The side to move wins by the tablebases, `ply` plies from the root.
    #[inline]
    pub const fn tb_win_in(ply: Ply) -> Score {
        Score(Self::TB_WIN.0 - ply as i32)
    }

    /// The side to move loses by the tablebases, `ply` plies from the root.
    #[inline]
    pub const fn tb_loss_in(ply: Ply) -> Score {
        Score(-Self::TB_WIN.0 + ply as i32)
    }

    /// A tablebase win or loss (not a mate).
    #[inline]
    pub const fn is_tb_result(self) -> bool {
        self.0.abs() >= Self::TB_BOUND.0 && self.0.abs() < Self::MATE_BOUND.0
    }

    /// A mate or a tablebase result: a value no evaluation produces.
    #[inline]
    pub const fn is_decisive(self) -> bool {
        self.0.abs() >= Self::TB_BOUND.0 && self.0.abs() <= Self::MATE.0
    }

    #[inline]
    pub const fn is_mate(self) -> bool {
        self.0.abs() >= Self::MATE_BOUND.0 && self.0.abs() <= Self::MATE.0
    }

    /// Moves to mate (positive: we mate; negative: we are mated), as UCI wants.
    pub const fn mate_moves(self) -> Option<i32> {
        if !self.is_mate() {
            return None;
        }
        let plies = Self::MATE.0 - self.0.abs();
        let moves = (plies + 1) / 2;
        Some(if self.0 > 0 { moves } else { -moves })
    }

    /// Converts a root-relative mate (or tablebase) score into a
    /// node-relative one for storage. Infinity is no distance to a mate:
    /// it stays as it is both ways (the TT's "no bound on this side").
    #[inline]
    pub const fn to_tt(self, ply: Ply) -> Score {
        if self.0 >= Self::INFINITE.0 || self.0 <= -Self::INFINITE.0 {
            self
        } else if self.0 >= Self::TB_BOUND.0 {
            // (Saturated: a finite bound never becomes the sentinel.)
            Score(min_i32(self.0 + ply as i32, Self::INFINITE.0 - 1))
        } else if self.0 <= -Self::TB_BOUND.0 {
            Score(max_i32(self.0 - ply as i32, -Self::INFINITE.0 + 1))
        } else {
            self
        }
    }

    /// Converts a stored node-relative mate score back to root-relative at `ply`.
    #[inline]
    pub const fn from_tt(self, ply: Ply) -> Score {
        if self.0 >= Self::INFINITE.0 || self.0 <= -Self::INFINITE.0 {
            self
        } else if self.0 >= Self::TB_BOUND.0 {
            Score(self.0 - ply as i32)
        } else if self.0 <= -Self::TB_BOUND.0 {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

/// `i32::min` for a `const fn`.
const fn min_i32(a: i32, b: i32) -> i32 {
    if a < b { a } else { b }
}

/// `i32::max` for a `const fn`.
const fn max_i32(a: i32, b: i32) -> i32 {
    if a > b { a } else { b }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    #[inline]
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    #[inline]
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

/// UCI form: `cp N` or `mate N`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(n) => write!(f, "mate {n}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(Score::mate_in(1).to_string(), "mate 1");
        assert_eq!(Score::mate_in(3).to_string(), "mate 2");
        assert_eq!(Score::mated_in(2).to_string(), "mate -1");
        assert_eq!(Score::mated_in(0).to_string(), "mate 0");
        assert_eq!(Score::cp(-35).to_string(), "cp -35");
    }

    #[test]
    fn tt_adjustment_round_trips_and_keeps_sign() {
        for ply in 0..60 {
            for s in [
                Score::mate_in(ply + 1),
                Score::mate_in(ply + 7),
                Score::mated_in(ply),
                Score::mated_in(ply + 9),
                Score::cp(123),
                Score::cp(-5),
                Score::tb_win_in(4),
                Score::tb_loss_in(11),
            ] {
                assert_eq!(s.to_tt(ply).from_tt(ply), s);
            }
        }
        // A mate found 5 plies below a node at ply 3 is mate-in-5 from that node.
        assert_eq!(Score::mate_in(8).to_tt(3), Score::mate_in(5));
        assert_eq!(Score::mated_in(8).to_tt(3), Score::mated_in(5));
        // Read back at ply 1, it is mate-in-6 from the root.
        assert_eq!(Score::mate_in(5).from_tt(1), Score::mate_in(6));
        assert_eq!(Score::tb_win_in(8).to_tt(3), Score::tb_win_in(5));
        // Infinity is not a mate distance.
        for ply in [0, 1, 5, MAX_PLY - 1] {
            for s in [Score::INFINITE, -Score::INFINITE] {
                assert_eq!(s.to_tt(ply), s);
                assert_eq!(s.from_tt(ply), s);
            }
        }
    }

    #[test]
    fn tablebase_results_lie_between_evaluations_and_mates() {
        for ply in 0..MAX_PLY {
            let (win, loss) = (Score::tb_win_in(ply), Score::tb_loss_in(ply));
            assert!(win.is_tb_result() && loss.is_tb_result(), "{ply}");
            assert!(!win.is_mate() && win.is_decisive());
            assert!(win < Score::mate_in(MAX_PLY) && loss > Score::mated_in(MAX_PLY));
            assert!(!Score::mate_in(ply).is_tb_result());
        }
        assert!(!Score::cp(5000).is_decisive());
        assert_eq!(
            Score::tb_win_in(0).to_string(),
            format!("cp {}", Score::TB_WIN.0)
        );
    }
}
