//! The formulas of the selective techniques the node procedure uses in
//! Normal mode (Pure mode uses none of them): the late-move reduction table
//! and the late-move pruning count, over the tunable constants of
//! `crate::search::tunables` (read through `tp!`).

use crate::eval::{SEE_VALUE, role_index};
use crate::score::{Depth, Ply, Score};
use crate::search::tunables::*;
use shakmaty::Move;
#[cfg(not(feature = "spsa"))]
use std::sync::OnceLock;

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

/// Futility of a tactical move, shared by quiescence's delta pruning and
/// the move loop's capture futility: `base` plus the value of what `m`
/// takes plus `margin` still falls short of `alpha`. Never a promotion,
/// whose gain is more than its victim.
#[inline]
pub fn capture_is_futile(base: Score, m: Move, margin: i32, alpha: Score) -> bool {
    m.promotion().is_none()
        && base + m.capture().map_or(0, |r| SEE_VALUE[role_index(r)]) + margin <= alpha
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
    fn a_capture_is_futile_when_its_victim_and_margin_fall_short() {
        use shakmaty::{Role, Square};
        let takes_pawn = Move::Normal {
            role: Role::Knight,
            from: Square::B1,
            capture: Some(Role::Pawn),
            to: Square::C3,
            promotion: None,
        };
        // The pawn's value is counted: short of alpha by less than it, kept.
        let pawn = SEE_VALUE[role_index(Role::Pawn)];
        assert!(capture_is_futile(
            Score(0),
            takes_pawn,
            50,
            Score(pawn + 50)
        ));
        assert!(!capture_is_futile(
            Score(0),
            takes_pawn,
            50,
            Score(pawn + 49)
        ));
        let promotes = Move::Normal {
            role: Role::Pawn,
            from: Square::B7,
            capture: Some(Role::Rook),
            to: Square::A8,
            promotion: Some(Role::Queen),
        };
        assert!(!capture_is_futile(Score(0), promotes, 0, Score(10_000)));
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
