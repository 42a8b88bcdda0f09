//! Plain minimax in MAX/MIN form: every leaf evaluated, no pruning. The oracle
//! every other algorithm is checked against.

use crate::research::trees::leaves::LeafLog;
use crate::research::trees::tree::{GameTree, NodePath, Side, Value};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::examples::*;

    #[test]
    fn textbook_values_and_every_leaf() {
        let tree = russell_norvig();
        let mut log = LeafLog::new(&tree, true);
        assert_eq!(minimax(&tree, &mut log), RUSSELL_NORVIG_VALUE);
        assert_eq!(log.finish().indices(), (0..9).collect::<Vec<u64>>());
        let tree = plaat_et_al();
        let mut log = LeafLog::new(&tree, false);
        assert_eq!(minimax(&tree, &mut log), PLAAT_VALUE);
        assert_eq!(log.finish().distinct, 16);
    }
}
