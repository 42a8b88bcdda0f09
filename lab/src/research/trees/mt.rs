//! The MT framework (Plaat, Schaeffer, Pijls & de Bruin 1996): MT is a
//! null-window call of alpha-beta with memory; MTD runs MT repeatedly from a
//! first guess until the bounds meet. MT-SSS* starts at +∞, MT-DUAL* at -∞.

use crate::research::trees::leaves::LeafLog;
use crate::research::trees::memory::{BoundsTable, alpha_beta_with_memory_node};
use crate::research::trees::tree::{GameTree, INFINITY, NodePath, Value};

/// The value found and how many MT calls it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MtdOutcome {
    pub value: Value,
    pub passes: u32,
    /// What each MT call returned, in order: bounds closing in on `value`.
    pub pass_results: Vec<Value>,
}

/// MT(root, γ): does the root's value f reach γ? The window is (γ-1, γ), so
/// on integers the answer g is a lower bound (f >= g >= γ) or an upper bound
/// (f <= g < γ).
pub fn memory_test<T: GameTree + ?Sized>(
    tree: &T,
    gamma: Value,
    table: &mut BoundsTable,
    log: &mut LeafLog,
) -> Value {
    alpha_beta_with_memory_node(tree, &NodePath::root(), gamma - 1, gamma, table, log)
}

/// MTD(first guess): tighten an upper and a lower bound on the root's value
/// with MT calls until they meet. After a failed-low test the next γ is the
/// new upper bound itself; after a failed-high test it is the lower bound + 1.
pub fn mtd<T: GameTree + ?Sized>(tree: &T, first_guess: Value, log: &mut LeafLog) -> MtdOutcome {
    let mut table = BoundsTable::new();
    let mut upper = INFINITY;
    let mut lower = -INFINITY;
    let mut g = first_guess;
    let mut pass_results = Vec::new();
    while lower < upper {
        let gamma = if g == lower { g + 1 } else { g };
        g = memory_test(tree, gamma, &mut table, log);
        pass_results.push(g);
        if g < gamma {
            upper = g;
        } else {
            lower = g;
        }
    }
    MtdOutcome {
        value: g,
        passes: pass_results.len() as u32,
        pass_results,
    }
}

/// MTD(f): MTD from a first guess, ideally close to the minimax value.
pub fn mtd_f<T: GameTree + ?Sized>(tree: &T, first_guess: Value, log: &mut LeafLog) -> MtdOutcome {
    mtd(tree, first_guess, log)
}

/// MT-SSS*: MTD from +∞, a descending sequence of upper bounds.
pub fn mt_sss<T: GameTree + ?Sized>(tree: &T, log: &mut LeafLog) -> MtdOutcome {
    mtd(tree, INFINITY, log)
}

/// MT-DUAL*: MTD from -∞, an ascending sequence of lower bounds.
pub fn mt_dual<T: GameTree + ?Sized>(tree: &T, log: &mut LeafLog) -> MtdOutcome {
    mtd(tree, -INFINITY, log)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::examples::*;

    fn log_for<T: GameTree>(tree: &T) -> LeafLog {
        LeafLog::new(tree, true)
    }

    #[test]
    fn mt_sss_lowers_the_upper_bound_pass_by_pass() {
        let tree = plaat_et_al();
        let mut log = log_for(&tree);
        let outcome = mt_sss(&tree, &mut log);
        assert_eq!(outcome.value, PLAAT_VALUE);
        assert_eq!(outcome.pass_results, PLAAT_PASS_BOUNDS);
        assert_eq!(log.finish().indices(), PLAAT_SSS);
    }

    #[test]
    fn mt_sss_on_russell_norvig() {
        let tree = russell_norvig();
        let mut log = log_for(&tree);
        let outcome = mt_sss(&tree, &mut log);
        // Upper bounds 14 (first leaves), 5, 3, then the test f >= 3 succeeds.
        assert_eq!(outcome.pass_results, [14, 5, 3, 3]);
        assert_eq!(log.finish().indices(), RUSSELL_NORVIG_SSS);
    }

    #[test]
    fn mt_dual_raises_the_lower_bound() {
        let tree = plaat_et_al();
        let mut log = log_for(&tree);
        let outcome = mt_dual(&tree, &mut log);
        assert_eq!(outcome.value, PLAAT_VALUE);
        let results = &outcome.pass_results;
        // Every pass but the last fails high with a rising lower bound.
        assert!(results.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(results.last(), Some(&PLAAT_VALUE));
    }

    #[test]
    fn a_perfect_first_guess_takes_two_passes() {
        let tree = plaat_et_al();
        let mut log = log_for(&tree);
        let outcome = mtd_f(&tree, PLAAT_VALUE, &mut log);
        assert_eq!(outcome.value, PLAAT_VALUE);
        assert_eq!(outcome.passes, 2);
    }

    #[test]
    fn memory_test_answers_with_bounds() {
        let tree = russell_norvig();
        let mut table = BoundsTable::new();
        let mut log = log_for(&tree);
        // f = 3: the test f >= 4 fails with an upper bound, f >= 3 succeeds.
        let high = memory_test(&tree, 4, &mut table, &mut log);
        assert_eq!(high, 3);
        let low = memory_test(&tree, 3, &mut table, &mut log);
        assert_eq!(low, 3);
        assert!(!table.is_empty());
    }
}
