//! Fail-soft alpha-beta in negamax form (Knuth & Moore 1975; fail-soft after
//! Fishburn 1983), children searched left to right.

use super::leaves::LeafLog;
use super::tree::{GameTree, INFINITY, NodePath, Value};

/// The minimax value for MAX, searched with the full window.
pub fn alpha_beta<T: GameTree + ?Sized>(tree: &T, log: &mut LeafLog) -> Value {
    alpha_beta_node(tree, &NodePath::root(), -INFINITY, INFINITY, log)
}

/// Fail-soft alpha-beta at `node`, values for the side to move there. The
/// result g satisfies: g <= alpha means f <= g; g >= beta means f >= g;
/// otherwise g = f, where f is the node's minimax value.
pub fn alpha_beta_node<T: GameTree + ?Sized>(
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
    let mut best = -INFINITY;
    for i in 0..children {
        let value = -alpha_beta_node(tree, &node.child(i), -beta, -(alpha.max(best)), log);
        best = best.max(value);
        if best >= beta {
            break;
        }
    }
    best
}
