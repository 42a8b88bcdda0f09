//! Counting leaf evaluations. Every algorithm evaluates leaves only through a
//! `LeafLog`, which counts each distinct leaf once (first evaluations), counts
//! re-evaluations separately, and can record the first evaluations in order.

use crate::research::trees::tree::{GameTree, NodePath, Value, value_for_max};
use std::collections::HashSet;

/// Trees with at most this many leaves remember seen leaves in a bit set
/// indexed by leaf number; larger or unindexed trees use a hash set of paths.
const MAX_LEAVES_FOR_BIT_SET: u64 = 1 << 28;

/// One first-time leaf evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluatedLeaf {
    pub path: NodePath,
    /// Left-to-right leaf number, when the tree numbers its leaves.
    pub index: Option<u64>,
    pub value_for_max: Value,
}

/// The leaves a search has seen so far.
enum SeenLeaves {
    BitSet(Vec<u64>),
    Paths(HashSet<NodePath>),
}

impl SeenLeaves {
    /// Marks the leaf as seen; true if it was not seen before.
    fn insert(&mut self, path: &NodePath, index: Option<u64>) -> bool {
        match (self, index) {
            (SeenLeaves::BitSet(words), Some(i)) => {
                let (word, bit) = ((i / 64) as usize, i % 64);
                let is_new = words[word] & (1 << bit) == 0;
                words[word] |= 1 << bit;
                is_new
            }
            (SeenLeaves::BitSet(_), None) => unreachable!("indexed trees index every leaf"),
            (SeenLeaves::Paths(paths), _) => paths.insert(path.clone()),
        }
    }
}

/// Counts and optionally records leaf evaluations for one search.
pub struct LeafLog {
    seen: SeenLeaves,
    record_order: bool,
    order: Vec<EvaluatedLeaf>,
    distinct: u64,
    total: u64,
}

/// What a finished search evaluated.
#[derive(Clone, Debug, Default)]
pub struct LeafRecord {
    /// Distinct leaves evaluated: the leaf count the literature compares.
    pub distinct: u64,
    /// All evaluations, re-evaluations of a seen leaf included.
    pub total: u64,
    /// First evaluations in order (empty unless recording was asked for).
    pub order: Vec<EvaluatedLeaf>,
}

impl LeafRecord {
    /// The recorded leaves' left-to-right indices, in evaluation order (for
    /// trees that number their leaves).
    pub fn indices(&self) -> Vec<u64> {
        self.order.iter().filter_map(|leaf| leaf.index).collect()
    }
}

impl LeafLog {
    pub fn new<T: GameTree + ?Sized>(tree: &T, record_order: bool) -> LeafLog {
        let seen = match tree.leaf_count() {
            Some(n) if n <= MAX_LEAVES_FOR_BIT_SET => {
                SeenLeaves::BitSet(vec![0; n.div_ceil(64) as usize])
            }
            _ => SeenLeaves::Paths(HashSet::new()),
        };
        LeafLog {
            seen,
            record_order,
            order: Vec::new(),
            distinct: 0,
            total: 0,
        }
    }

    /// Evaluates a leaf for MAX, counting the evaluation.
    pub fn value_for_max<T: GameTree + ?Sized>(&mut self, tree: &T, leaf: &NodePath) -> Value {
        let value = value_for_max(tree, leaf);
        self.total += 1;
        let index = tree.leaf_index(leaf);
        if self.seen.insert(leaf, index) {
            self.distinct += 1;
            if self.record_order {
                self.order.push(EvaluatedLeaf {
                    path: leaf.clone(),
                    index,
                    value_for_max: value,
                });
            }
        }
        value
    }

    /// Evaluates a leaf for the side to move there (negamax), counting it.
    pub fn value_for_side_to_move<T: GameTree + ?Sized>(
        &mut self,
        tree: &T,
        leaf: &NodePath,
    ) -> Value {
        crate::research::trees::tree::for_side_to_move(leaf, self.value_for_max(tree, leaf))
    }

    pub fn finish(self) -> LeafRecord {
        LeafRecord {
            distinct: self.distinct,
            total: self.total,
            order: self.order,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::explicit::ExplicitTree;

    #[test]
    fn repeats_count_once_and_order_is_kept() {
        let t = ExplicitTree::parse("1 2 3 4", 2).unwrap();
        let root = NodePath::root();
        let (a, b) = (root.child(1).child(0), root.child(0).child(1));
        let mut log = LeafLog::new(&t, true);
        assert_eq!(log.value_for_max(&t, &a), 3);
        assert_eq!(log.value_for_max(&t, &b), 2);
        assert_eq!(log.value_for_max(&t, &a), 3);
        let record = log.finish();
        assert_eq!((record.distinct, record.total), (2, 3));
        let order: Vec<Option<u64>> = record.order.iter().map(|l| l.index).collect();
        assert_eq!(order, vec![Some(2), Some(1)]);
    }
}
