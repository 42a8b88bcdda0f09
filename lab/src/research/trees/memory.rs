//! Alpha-beta with memory (Plaat et al. 1996, "alpha-beta with transposition
//! table"): fail-soft alpha-beta whose table, keyed by node path, keeps a lower
//! and an upper bound on each node's value found by earlier calls.

use crate::research::trees::leaves::LeafLog;
use crate::research::trees::tree::{GameTree, INFINITY, NodePath, Value};
use std::collections::HashMap;

/// Bounds on a node's minimax value, for the side to move there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lower: Value,
    pub upper: Value,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            lower: -INFINITY,
            upper: INFINITY,
        }
    }
}

/// The transposition table: every node ever searched, with its bounds. It is
/// never full and never overwrites another node (the theorems assume this).
#[derive(Default)]
pub struct BoundsTable {
    entries: HashMap<NodePath, Bounds>,
}

impl BoundsTable {
    pub fn new() -> BoundsTable {
        BoundsTable::default()
    }

    pub fn get(&self, node: &NodePath) -> Option<Bounds> {
        self.entries.get(node).copied()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn entry(&mut self, node: &NodePath) -> &mut Bounds {
        self.entries.entry(node.clone()).or_default()
    }
}

/// The minimax value for MAX from one full-window call (with an empty table
/// this evaluates exactly the leaves plain alpha-beta does).
pub fn alpha_beta_with_memory<T: GameTree + ?Sized>(tree: &T, log: &mut LeafLog) -> Value {
    let mut table = BoundsTable::new();
    alpha_beta_with_memory_node(
        tree,
        &NodePath::root(),
        -INFINITY,
        INFINITY,
        &mut table,
        log,
    )
}

/// Fail-soft alpha-beta at `node` that first consults and finally updates the
/// table. Same post-condition as `alpha_beta_node`.
pub fn alpha_beta_with_memory_node<T: GameTree + ?Sized>(
    tree: &T,
    node: &NodePath,
    mut alpha: Value,
    mut beta: Value,
    table: &mut BoundsTable,
    log: &mut LeafLog,
) -> Value {
    if let Some(known) = table.get(node) {
        if known.lower >= beta {
            return known.lower;
        }
        if known.upper <= alpha {
            return known.upper;
        }
        if known.lower == known.upper {
            return known.lower;
        }
        alpha = alpha.max(known.lower);
        beta = beta.min(known.upper);
    }
    let children = tree.child_count(node);
    if children == 0 {
        let value = log.value_for_side_to_move(tree, node);
        *table.entry(node) = Bounds {
            lower: value,
            upper: value,
        };
        return value;
    }
    let mut best = -INFINITY;
    for i in 0..children {
        let child = node.child(i);
        let value =
            -alpha_beta_with_memory_node(tree, &child, -beta, -(alpha.max(best)), table, log);
        best = best.max(value);
        if best >= beta {
            break;
        }
    }
    let stored = table.entry(node);
    if best <= alpha {
        stored.upper = best;
    } else if best >= beta {
        stored.lower = best;
    } else {
        *stored = Bounds {
            lower: best,
            upper: best,
        };
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::alphabeta::alpha_beta;
    use crate::research::trees::examples::*;

    #[test]
    fn one_full_window_call_is_plain_alpha_beta() {
        let tree = plaat_et_al();
        let mut with_memory = LeafLog::new(&tree, true);
        let mut without = LeafLog::new(&tree, true);
        assert_eq!(alpha_beta_with_memory(&tree, &mut with_memory), PLAAT_VALUE);
        assert_eq!(alpha_beta(&tree, &mut without), PLAAT_VALUE);
        assert_eq!(with_memory.finish().order, without.finish().order);
    }

    #[test]
    fn the_table_answers_a_repeated_search() {
        let tree = russell_norvig();
        let root = NodePath::root();
        let mut table = BoundsTable::new();
        let mut log = LeafLog::new(&tree, false);
        let first =
            alpha_beta_with_memory_node(&tree, &root, -INFINITY, INFINITY, &mut table, &mut log);
        assert_eq!(
            table.get(&root),
            Some(Bounds {
                lower: first,
                upper: first
            })
        );
        let again =
            alpha_beta_with_memory_node(&tree, &root, -INFINITY, INFINITY, &mut table, &mut log);
        assert_eq!(again, RUSSELL_NORVIG_VALUE);
        let leaves = log.finish();
        assert_eq!((leaves.total, leaves.distinct), (7, 7));
    }
}
