//! The parameters of the selective techniques the node procedure uses in
//! Normal mode (Pure mode uses none of them): null-move pruning, reverse
//! futility, futility and late-move pruning, late-move reductions, and the
//! root's aspiration windows; the tunable ones form the SPSA table
//! (`tunables!`, read through `tp!`).

use crate::score::{Depth, Ply, Score};
#[cfg(not(feature = "spsa"))]
use std::sync::OnceLock;

crate::tunables! {
    /// Null move: tried from this depth on, reduced by `NULL_BASE + depth / NULL_DIVISOR`.
    NULL_MIN_DEPTH: Depth = 3, 1..=8, 0.5;
    NULL_BASE_REDUCTION: Depth = 3, 1..=6, 0.5;
    NULL_DEPTH_DIVISOR: Depth = 4, 2..=8, 0.5;
    /// Extra null-move reduction per this much static eval above beta (at most `NULL_EVAL_MAX`).
    NULL_EVAL_STEP: i32 = 200, 50..=400, 20.0;
    NULL_EVAL_MAX: Depth = 3, 0..=6, 0.5;

    /// Reverse futility (static null move): up to this depth, a static eval this
    /// far above beta per ply of depth is taken as a fail high.
    RFP_MAX_DEPTH: Depth = 6, 2..=10, 0.5;
    RFP_MARGIN_PER_DEPTH: i32 = 80, 30..=160, 8.0;

    /// Futility pruning of quiet moves: up to this depth, a quiet move cannot
    /// raise a static eval this far below alpha.
    FUTILITY_MAX_DEPTH: Depth = 4, 1..=8, 0.5;
    FUTILITY_BASE: i32 = 90, 0..=200, 10.0;
    FUTILITY_PER_DEPTH: i32 = 90, 30..=180, 8.0;

    /// Late-move pruning: at shallow depth, quiets beyond `late_move_limit` are skipped.
    LMP_MAX_DEPTH: Depth = 4, 1..=8, 0.5;

    /// SEE pruning: up to this depth, quiet moves losing more than
    /// `SEE_QUIET_MARGIN * depth` and captures losing more than
    /// `SEE_CAPTURE_MARGIN * depth` by exchange are skipped.
    SEE_PRUNE_MAX_DEPTH: Depth = 6, 1..=10, 0.5;
    SEE_QUIET_MARGIN: i32 = 60, 10..=150, 6.0;
    SEE_CAPTURE_MARGIN: i32 = 100, 20..=200, 10.0;

    /// Delta pruning in quiescence: a capture whose victim, plus this margin,
    /// cannot lift the stand-pat score to alpha is skipped.
    DELTA_MARGIN: i32 = 200, 50..=400, 15.0;

    /// One ply less (or more) reduction per this much history score.
    LMR_HISTORY_DIVISOR: i32 = 8192, 2048..=16384, 500.0;
    /// At most this many plies of reduction are added or removed by history.
    LMR_HISTORY_MAX: Depth = 2, 0..=4, 0.5;

    /// Late-move reductions start from this depth and move number.
    LMR_MIN_DEPTH: Depth = 3, 1..=6, 0.5;
    LMR_FIRST_MOVE: usize = 3, 1..=8, 0.5;
    /// The reduction table: `LMR_BASE_CENTI / 100 + ln(depth) ln(index) / (LMR_DIVISOR_CENTI / 100)`.
    LMR_BASE_CENTI: i32 = 75, 0..=200, 8.0;
    LMR_DIVISOR_CENTI: i32 = 225, 100..=400, 12.0;

    /// Singular extension: from this depth, a TT move whose stored lower bound
    /// is at most `SINGULAR_TT_DEPTH_SLACK` plies shallower is extended by one
    /// ply when every other move fails low against that bound minus
    /// `SINGULAR_MARGIN_PER_DEPTH * depth`, searched to half the depth.
    SINGULAR_MIN_DEPTH: Depth = 8, 4..=12, 0.5;
    SINGULAR_TT_DEPTH_SLACK: Depth = 3, 1..=6, 0.5;
    SINGULAR_MARGIN_PER_DEPTH: i32 = 2, 1..=6, 0.5;

    /// ProbCut: from this depth, a capture whose search reduced by
    /// `PROBCUT_REDUCTION` plies beats beta by `PROBCUT_MARGIN` cuts the node off.
    PROBCUT_MIN_DEPTH: Depth = 5, 3..=10, 0.5;
    PROBCUT_MARGIN: i32 = 200, 80..=400, 15.0;
    PROBCUT_REDUCTION: Depth = 4, 2..=6, 0.5;

    /// Internal iterative reduction: without a TT move, search one ply less from this depth.
    IIR_MIN_DEPTH: Depth = 4, 2..=8, 0.5;

    /// Aspiration windows at the root (NegaScout, and AlphaBeta in Normal
    /// mode): from this depth, the first window is the previous score plus
    /// and minus `ASPIRATION_WINDOW` centipawns, doubled on each fail.
    ASPIRATION_MIN_DEPTH: Depth = 4, 2..=8, 0.5;
    ASPIRATION_WINDOW: i32 = 25, 8..=100, 4.0;
}

/// Late-move pruning: at shallow depth, quiets beyond this count are
/// skipped (half as many when the static eval is not improving).
pub fn late_move_limit(depth: Depth, improving: bool) -> usize {
    let full = (3 + depth * depth) as usize;
    if improving { full } else { full / 2 }
}

/// Quiescence: the depth its TT entries carry (below every main-search depth).
pub const QSEARCH_DEPTH: Depth = 0;

const LMR_TABLE_SIZE: usize = 64;

/// The late-move reduction formula, 0.75 + ln(depth) * ln(index) / 2.25 by
/// default (the usual logarithmic table).
fn lmr_formula(depth: usize, index: usize) -> Depth {
    if depth == 0 || index == 0 {
        return 0;
    }
    let base = f64::from(crate::tp!(LMR_BASE_CENTI)) / 100.0;
    let divisor = f64::from(crate::tp!(LMR_DIVISOR_CENTI)) / 100.0;
    (base + (depth as f64).ln() * (index as f64).ln() / divisor) as Depth
}

/// The late-move reduction for the `index`-th move (0-based) at `depth`,
/// from a table made once.
#[cfg(not(feature = "spsa"))]
pub fn lmr_reduction(depth: Depth, index: usize) -> Depth {
    static TABLE: OnceLock<Vec<[Depth; LMR_TABLE_SIZE]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..LMR_TABLE_SIZE)
            .map(|d| std::array::from_fn(|i| lmr_formula(d, i)))
            .collect()
    });
    let d = (depth.max(0) as usize).min(LMR_TABLE_SIZE - 1);
    table[d][index.min(LMR_TABLE_SIZE - 1)]
}

/// The late-move reduction, computed each time: its constants may change.
#[cfg(feature = "spsa")]
pub fn lmr_reduction(depth: Depth, index: usize) -> Depth {
    let d = (depth.max(0) as usize).min(LMR_TABLE_SIZE - 1);
    lmr_formula(d, index.min(LMR_TABLE_SIZE - 1))
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
