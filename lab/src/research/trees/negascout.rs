//! NegaScout (Reinefeld 1983), fail-soft: the first child with the full
//! window, every later child with a null window first and, if it fails high
//! inside the window, searched again with the window (its value, beta).

use crate::research::trees::leaves::LeafLog;
use crate::research::trees::tree::{GameTree, INFINITY, NodePath, Value};

/// The minimax value for MAX.
pub fn negascout<T: GameTree + ?Sized>(tree: &T, log: &mut LeafLog) -> Value {
    negascout_node(tree, &NodePath::root(), -INFINITY, INFINITY, log)
}

fn negascout_node<T: GameTree + ?Sized>(
    tree: &T,
    node: &NodePath,
    alpha: Value,
    beta: Value,
    log: &mut LeafLog,
) -> Value {
    let children = tree.child_count(node);
    if children == 0 {
        return log.value_for_side_to_move(tree, node);
    }
    let first = node.child(0);
    let mut best = -negascout_node(tree, &first, -beta, -alpha, log);
    for i in 1..children {
        if best >= beta {
            break;
        }
        let child = node.child(i);
        // Test: is this child better than the best so far (or alpha)?
        let bound = alpha.max(best);
        let mut value = -negascout_node(tree, &child, -(bound + 1), -bound, log);
        if value > bound && value < beta {
            // It is, by at least `value`: find out by how much.
            value = -negascout_node(tree, &child, -beta, -value, log);
        }
        best = best.max(value);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::examples::*;

    #[test]
    fn textbook_values() {
        let tree = russell_norvig();
        let mut log = LeafLog::new(&tree, true);
        assert_eq!(negascout(&tree, &mut log), RUSSELL_NORVIG_VALUE);
        assert_eq!(log.finish().indices(), RUSSELL_NORVIG_ALPHA_BETA);
    }

    #[test]
    fn re_searches_count_leaves_once() {
        let tree = plaat_et_al();
        let mut log = LeafLog::new(&tree, true);
        assert_eq!(negascout(&tree, &mut log), PLAAT_VALUE);
        let leaves = log.finish();
        // The right subtree's null-window test fails high and is searched
        // again: its leaves are evaluated twice but counted once.
        assert!(leaves.total > leaves.distinct);
        assert_eq!(leaves.distinct as usize, leaves.order.len());
    }
}
