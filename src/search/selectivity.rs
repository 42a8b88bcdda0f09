//! The parameters of the selective techniques the node procedure uses in
//! Normal mode (Pure mode uses none of them): null-move pruning, reverse
//! futility, futility and late-move pruning, and late-move reductions.

use crate::score::{Depth, Ply, Score};
use std::sync::OnceLock;

/// Null move: tried from this depth on, reduced by `NULL_BASE + depth / NULL_DIVISOR`.
pub const NULL_MIN_DEPTH: Depth = 3;
pub const NULL_BASE_REDUCTION: Depth = 3;
pub const NULL_DEPTH_DIVISOR: Depth = 4;
/// Extra null-move reduction per this much static eval above beta (at most `NULL_EVAL_MAX`).
pub const NULL_EVAL_STEP: i32 = 200;
pub const NULL_EVAL_MAX: Depth = 3;

/// Reverse futility (static null move): up to this depth, a static eval this
/// far above beta per ply of depth is taken as a fail high.
pub const RFP_MAX_DEPTH: Depth = 6;
pub const RFP_MARGIN_PER_DEPTH: i32 = 80;

/// Futility pruning of quiet moves: up to this depth, a quiet move cannot
/// raise a static eval this far below alpha.
pub const FUTILITY_MAX_DEPTH: Depth = 4;
pub const FUTILITY_BASE: i32 = 90;
pub const FUTILITY_PER_DEPTH: i32 = 90;

/// Late-move pruning: at shallow depth, quiets beyond this count are
/// skipped (half as many when the static eval is not improving).
pub const LMP_MAX_DEPTH: Depth = 4;
pub fn late_move_limit(depth: Depth, improving: bool) -> usize {
    let full = (3 + depth * depth) as usize;
    if improving { full } else { full / 2 }
}

/// SEE pruning: up to this depth, quiet moves losing more than
/// `SEE_QUIET_MARGIN * depth` and captures losing more than
/// `SEE_CAPTURE_MARGIN * depth` by exchange are skipped.
pub const SEE_PRUNE_MAX_DEPTH: Depth = 6;
pub const SEE_QUIET_MARGIN: i32 = 60;
pub const SEE_CAPTURE_MARGIN: i32 = 100;

/// Quiescence: the depth its TT entries carry (below every main-search depth).
pub const QSEARCH_DEPTH: Depth = 0;
/// Delta pruning in quiescence: a capture whose victim, plus this margin,
/// cannot lift the stand-pat score to alpha is skipped.
pub const DELTA_MARGIN: i32 = 200;

/// One ply less (or more) reduction per this much history score.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;
/// At most this many plies of reduction are added or removed by history.
pub const LMR_HISTORY_MAX: Depth = 2;

/// Late-move reductions start from this depth and move number.
pub const LMR_MIN_DEPTH: Depth = 3;
pub const LMR_FIRST_MOVE: usize = 3;

/// Singular extension: from this depth, a TT move whose stored lower bound
/// is at most `SINGULAR_TT_DEPTH_SLACK` plies shallower is extended by one
/// ply when every other move fails low against that bound minus
/// `SINGULAR_MARGIN_PER_DEPTH * depth`, searched to half the depth.
pub const SINGULAR_MIN_DEPTH: Depth = 8;
pub const SINGULAR_TT_DEPTH_SLACK: Depth = 3;
pub const SINGULAR_MARGIN_PER_DEPTH: i32 = 2;

/// ProbCut: from this depth, a capture whose search reduced by
/// `PROBCUT_REDUCTION` plies beats beta by `PROBCUT_MARGIN` cuts the node off.
pub const PROBCUT_MIN_DEPTH: Depth = 5;
pub const PROBCUT_MARGIN: i32 = 200;
pub const PROBCUT_REDUCTION: Depth = 4;

/// Internal iterative reduction: without a TT move, search one ply less from this depth.
pub const IIR_MIN_DEPTH: Depth = 4;

const LMR_TABLE_SIZE: usize = 64;

/// The late-move reduction for the `index`-th move (0-based) at `depth`:
/// 0.75 + ln(depth) * ln(index) / 2.25, the usual logarithmic table.
pub fn lmr_reduction(depth: Depth, index: usize) -> Depth {
    static TABLE: OnceLock<Vec<[Depth; LMR_TABLE_SIZE]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..LMR_TABLE_SIZE)
            .map(|d| {
                let mut row = [0; LMR_TABLE_SIZE];
                for (i, r) in row.iter_mut().enumerate() {
                    if d > 0 && i > 0 {
                        *r = (0.75 + (d as f64).ln() * (i as f64).ln() / 2.25) as Depth;
                    }
                }
                row
            })
            .collect()
    });
    let d = (depth.max(0) as usize).min(LMR_TABLE_SIZE - 1);
    table[d][index.min(LMR_TABLE_SIZE - 1)]
}

/// Is a score far enough from mate (and from tablebase results) that
/// bound-based pruning may use it?
#[inline]
pub fn is_plain(score: Score) -> bool {
    score.0.abs() < Score::TB_BOUND.0
}

/// Is `beta` no real bound at a node `ply` plies from the root: no value
/// there reaches it (beyond the quickest mate), or every value does (at or
/// below being mated on the spot, as in the first MT-DUAL* pass)?
#[inline]
pub fn beta_is_open(beta: Score, ply: Ply) -> bool {
    beta > Score::mate_in(ply + 1) || beta <= Score::mated_in(ply)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(lmr_reduction(1, 1), 0);
        assert!(lmr_reduction(10, 20) >= lmr_reduction(5, 20));
        assert!(lmr_reduction(10, 40) >= lmr_reduction(10, 5));
        assert!(lmr_reduction(60, 60) < 10);
        assert_eq!(lmr_reduction(-3, 500), 0);
    }

    #[test]
    fn a_beta_every_value_or_no_value_reaches_is_open() {
        // The full window and the first MT passes, at any ply.
        for ply in [1, 5, 60] {
            assert!(beta_is_open(Score::INFINITE, ply));
            assert!(beta_is_open(-Score::MATE, ply));
            assert!(!beta_is_open(Score(150), ply));
        }
        // At ply 4 the side to move can mate at ply 5 at the soonest and
        // be mated at ply 4 at the worst.
        assert!(
            !beta_is_open(Score::mate_in(5), 4),
            "mate in one is a question"
        );
        assert!(beta_is_open(Score::mate_in(4), 4));
        assert!(!beta_is_open(Score::mated_in(5), 4));
        assert!(
            beta_is_open(Score::mated_in(4), 4),
            "never worse than mated now"
        );
    }
}
