//! Fail-soft alpha-beta in negamax form (Knuth & Moore 1975; fail-soft after
//! Fishburn 1983), children searched left to right.

use crate::research::trees::leaves::LeafLog;
use crate::research::trees::tree::{GameTree, INFINITY, NodePath, Value};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::examples::*;
    use crate::research::trees::explicit::ExplicitTree;

    #[test]
    fn russell_norvig_prunes_two_leaves() {
        let tree = russell_norvig();
        let mut log = LeafLog::new(&tree, true);
        assert_eq!(alpha_beta(&tree, &mut log), RUSSELL_NORVIG_VALUE);
        assert_eq!(log.finish().indices(), RUSSELL_NORVIG_ALPHA_BETA);
    }

    #[test]
    fn fail_soft_bounds_hold() {
        let tree = plaat_et_al();
        let root = NodePath::root();
        let mut log = LeafLog::new(&tree, false);
        // f = 35: a window above it fails low with an upper bound >= f,
        // a window below it fails high with a lower bound <= f.
        let high = alpha_beta_node(&tree, &root, 40, 50, &mut log);
        assert!((35..=40).contains(&high));
        let low = alpha_beta_node(&tree, &root, 10, 20, &mut log);
        assert!((20..=35).contains(&low));
        assert_eq!(alpha_beta_node(&tree, &root, 30, 40, &mut log), 35);
    }

    #[test]
    fn best_first_ordering_gives_the_minimal_tree() {
        // Perfectly ordered uniform tree b=2, d=2: the best move first at
        // every node, so alpha-beta evaluates b^ceil(d/2) + b^floor(d/2) - 1 = 3.
        let tree = ExplicitTree::parse("5 6 3 9", 2).unwrap();
        let mut log = LeafLog::new(&tree, true);
        assert_eq!(alpha_beta(&tree, &mut log), 5);
        assert_eq!(log.finish().indices(), [0, 1, 2]);
    }
}
