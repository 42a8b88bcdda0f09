//! A `GameTree` wrapper that counts how many distinct interior nodes a search
//! asked for the children of: the "nodes expanded" of a depth-first search,
//! comparable with B*'s expansions.

use crate::research::trees::tree::{GameTree, NodePath, Value};
use std::cell::RefCell;
use std::collections::HashSet;

pub struct CountingTree<'a, T: ?Sized> {
    tree: &'a T,
    expanded: RefCell<HashSet<NodePath>>,
}

impl<'a, T: GameTree + ?Sized> CountingTree<'a, T> {
    pub fn new(tree: &'a T) -> Self {
        CountingTree {
            tree,
            expanded: RefCell::new(HashSet::new()),
        }
    }

    /// Distinct interior nodes whose children were asked for so far.
    pub fn expanded(&self) -> u64 {
        self.expanded.borrow().len() as u64
    }
}

impl<T: GameTree + ?Sized> GameTree for CountingTree<'_, T> {
    fn child_count(&self, node: &NodePath) -> usize {
        let count = self.tree.child_count(node);
        if count > 0 {
            self.expanded.borrow_mut().insert(node.clone());
        }
        count
    }

    fn value_for_side_to_move(&self, leaf: &NodePath) -> Value {
        self.tree.value_for_side_to_move(leaf)
    }

    fn leaf_index(&self, leaf: &NodePath) -> Option<u64> {
        self.tree.leaf_index(leaf)
    }

    fn leaf_count(&self) -> Option<u64> {
        self.tree.leaf_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::alphabeta::alpha_beta;
    use crate::research::trees::examples::russell_norvig;
    use crate::research::trees::leaves::LeafLog;
    use crate::research::trees::minimax::minimax;

    #[test]
    fn counts_distinct_interior_nodes() {
        let tree = russell_norvig();
        let counting = CountingTree::new(&tree);
        let mut log = LeafLog::new(&counting, false);
        minimax(&counting, &mut log);
        minimax(&counting, &mut log);
        assert_eq!(counting.expanded(), 4);
        // Alpha-beta visits all three MIN nodes of Figure 5.2 too.
        let counting = CountingTree::new(&tree);
        let mut log = LeafLog::new(&counting, false);
        alpha_beta(&counting, &mut log);
        assert_eq!(counting.expanded(), 4);
    }
}
