//! NegaScout (Reinefeld 1983), fail-soft: the first child with the full
//! window, every later child with a null window first and, if it fails high
//! inside the window, searched again with the window (its value, beta).

use super::leaves::LeafLog;
use super::tree::{GameTree, INFINITY, NodePath, Value};

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
