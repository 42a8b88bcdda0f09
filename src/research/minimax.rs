//! Plain minimax in MAX/MIN form: every leaf evaluated, no pruning. The oracle
//! every other algorithm is checked against.

use super::leaves::LeafLog;
use super::tree::{GameTree, NodePath, Side, Value};

/// The minimax value of the tree for MAX.
pub fn minimax<T: GameTree + ?Sized>(tree: &T, log: &mut LeafLog) -> Value {
    minimax_node(tree, &NodePath::root(), log)
}

fn minimax_node<T: GameTree + ?Sized>(tree: &T, node: &NodePath, log: &mut LeafLog) -> Value {
    let children = tree.child_count(node);
    if children == 0 {
        return log.value_for_max(tree, node);
    }
    let values = (0..children).map(|i| minimax_node(tree, &node.child(i), log));
    let best = match Side::to_move_at(node) {
        Side::Max => values.max(),
        Side::Min => values.min(),
    };
    best.expect("an interior node has children")
}
