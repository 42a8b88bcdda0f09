//! The MT framework (Plaat, Schaeffer, Pijls & de Bruin 1996): MT is a
//! null-window call of alpha-beta with memory; MTD runs MT repeatedly from a
//! first guess until the bounds meet. MT-SSS* starts at +∞, MT-DUAL* at -∞.

use super::leaves::LeafLog;
use super::memory::{BoundsTable, alpha_beta_with_memory_node};
use super::tree::{GameTree, INFINITY, NodePath, Value};

/// The value found and how many MT calls it took.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MtdOutcome {
    pub value: Value,
    pub passes: u32,
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
    let mut passes = 0;
    while lower < upper {
        let gamma = if g == lower { g + 1 } else { g };
        g = memory_test(tree, gamma, &mut table, log);
        passes += 1;
        if g < gamma {
            upper = g;
        } else {
            lower = g;
        }
    }
    MtdOutcome { value: g, passes }
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
