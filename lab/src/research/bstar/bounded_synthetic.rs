//! Synthetic trees with valid intervals for B*: a seeded synthetic tree whose
//! every node's minimax value is computed once, and each interior node gets
//! [value - a, value + b] with a, b drawn in 0..=width(depth), seeded.

use crate::research::bstar::bounded::{BoundedTree, Bounds};
use crate::research::trees::rng::hash_path;
use crate::research::trees::synthetic::{SyntheticSpec, SyntheticTree};
use crate::research::trees::tree::{GameTree, MAX_LEAF_VALUE, NodePath, Value};
use stockman::rng::scale_to_range;

/// Bounded trees keep every node's value in memory: at most this many leaves.
pub const MAX_BOUNDED_LEAVES: u64 = 1 << 22;

/// Salts that keep the two interval offsets independent of the leaf values.
const LOWER_SALT: u64 = 0x6c6f_7765_725f_6f66;
const UPPER_SALT: u64 = 0x7570_7065_725f_6f66;

/// A synthetic tree with intervals. The interval width shrinks linearly with
/// depth: `width * (depth_of_tree - depth) / depth_of_tree`, so the root's
/// children have the widest intervals and the leaves are exact.
pub struct BoundedSyntheticTree {
    tree: SyntheticTree,
    width: Value,
    /// `values[k][i]`: the minimax value for MAX of node number i at depth k,
    /// numbered left to right.
    values: Vec<Vec<Value>>,
}

impl BoundedSyntheticTree {
    pub fn new(spec: SyntheticSpec, width: Value) -> Result<BoundedSyntheticTree, String> {
        if !(0..=MAX_LEAF_VALUE).contains(&width) {
            return Err(format!(
                "interval width {width} is out of range (0..={MAX_LEAF_VALUE})"
            ));
        }
        let tree = SyntheticTree::new(spec)?;
        match tree.leaf_count() {
            Some(n) if n <= MAX_BOUNDED_LEAVES => {}
            _ => {
                return Err(format!(
                    "a bounded tree keeps every node's value: at most {MAX_BOUNDED_LEAVES} leaves"
                ));
            }
        }
        let values = minimax_levels(&tree);
        Ok(BoundedSyntheticTree {
            tree,
            width,
            values,
        })
    }

    pub fn spec(&self) -> &SyntheticSpec {
        self.tree.spec()
    }

    /// The minimax value for MAX of any node.
    pub fn minimax_value(&self, node: &NodePath) -> Value {
        self.values[node.depth()][number(node, self.spec().branching)]
    }

    /// The interval half-widths' limit at `depth`.
    pub fn width_at(&self, depth: usize) -> Value {
        let d = self.spec().depth as i64;
        if d == 0 {
            return 0;
        }
        (i64::from(self.width) * (d - depth as i64).max(0) / d) as Value
    }
}

/// A node's left-to-right number among the nodes of its depth.
fn number(node: &NodePath, branching: usize) -> usize {
    node.indices()
        .iter()
        .fold(0, |n, &i| n * branching + usize::from(i))
}

/// The path of node number `n` at `depth`.
fn path_of(mut n: usize, depth: usize, branching: usize) -> NodePath {
    let mut indices = vec![0; depth];
    for slot in indices.iter_mut().rev() {
        *slot = n % branching;
        n /= branching;
    }
    indices
        .into_iter()
        .fold(NodePath::root(), |path, i| path.child(i))
}

/// Every node's minimax value, level by level from the leaves up.
fn minimax_levels(tree: &SyntheticTree) -> Vec<Vec<Value>> {
    let spec = tree.spec();
    let (b, d) = (spec.branching, spec.depth);
    let leaves = tree.leaf_count().unwrap_or(0) as usize;
    let mut levels = vec![Vec::new(); d + 1];
    levels[d] = (0..leaves)
        .map(|n| tree.leaf_value_for_max(&path_of(n, d, b)))
        .collect();
    for k in (0..d).rev() {
        let below = &levels[k + 1];
        let maximize = k % 2 == 0;
        let level: Vec<Value> = below
            .chunks(b)
            .map(|siblings| {
                let it = siblings.iter().copied();
                if maximize { it.max() } else { it.min() }.unwrap_or(0)
            })
            .collect();
        levels[k] = level;
    }
    levels
}

impl GameTree for BoundedSyntheticTree {
    fn child_count(&self, node: &NodePath) -> usize {
        self.tree.child_count(node)
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

impl BoundedTree for BoundedSyntheticTree {
    fn bounds(&self, node: &NodePath) -> Bounds {
        let value = i64::from(self.minimax_value(node));
        let w = i64::from(self.width_at(node.depth()));
        let seed = self.spec().seed;
        let below = scale_to_range(hash_path(seed ^ LOWER_SALT, node), 0, w);
        let above = scale_to_range(hash_path(seed ^ UPPER_SALT, node), 0, w);
        let clamp = |v: i64| v.clamp(-i64::from(MAX_LEAF_VALUE), i64::from(MAX_LEAF_VALUE));
        Bounds::new(clamp(value - below) as Value, clamp(value + above) as Value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::leaves::LeafLog;
    use crate::research::trees::minimax::minimax;
    use crate::research::trees::synthetic::{ValueModel, ValueRange};

    fn spec(seed: u64, model: ValueModel) -> SyntheticSpec {
        SyntheticSpec {
            branching: 3,
            depth: 4,
            model,
            values: ValueRange::new(-50, 50).unwrap(),
            seed,
        }
    }

    fn all_nodes(b: usize, d: usize) -> Vec<NodePath> {
        let mut out = vec![NodePath::root()];
        let mut level = vec![NodePath::root()];
        for _ in 0..d {
            level = level
                .iter()
                .flat_map(|n| (0..b).map(move |i| n.child(i)))
                .collect();
            out.extend(level.iter().cloned());
        }
        out
    }

    #[test]
    fn node_values_are_minimax_and_intervals_hold_them() {
        for model in [ValueModel::Uniform, ValueModel::Incremental] {
            let t = BoundedSyntheticTree::new(spec(5, model), 40).unwrap();
            let mut log = LeafLog::new(&t, false);
            assert_eq!(t.minimax_value(&NodePath::root()), minimax(&t, &mut log));
            let (mut inside, mut lopsided) = (0, 0);
            for node in all_nodes(3, 4) {
                let (b, v) = (t.bounds(&node), t.minimax_value(&node));
                assert!(b.contains(v), "{node}: {b:?}");
                assert!(b.lower >= v - t.width_at(node.depth()));
                assert!(b.upper <= v + t.width_at(node.depth()));
                inside += usize::from(b.lower < v && v < b.upper);
                lopsided += usize::from(v - b.lower != b.upper - v);
            }
            // The value is strictly inside most intervals, and not at their
            // middle: the interval does not give the value away.
            assert!(inside > 20 && lopsided > 20, "{inside} {lopsided}");
        }
    }

    #[test]
    fn width_shrinks_to_zero_at_the_leaves() {
        let t = BoundedSyntheticTree::new(spec(1, ValueModel::Uniform), 100).unwrap();
        let widths: Vec<Value> = (0..=4).map(|d| t.width_at(d)).collect();
        assert_eq!(widths, [100, 75, 50, 25, 0]);
        let leaf = NodePath::root().child(1).child(2).child(0).child(1);
        assert!(t.bounds(&leaf).is_exact());
        let zero = BoundedSyntheticTree::new(spec(1, ValueModel::Uniform), 0).unwrap();
        assert!(zero.bounds(&NodePath::root().child(2)).is_exact());
    }

    #[test]
    fn bad_widths_and_huge_trees_are_errors() {
        assert!(BoundedSyntheticTree::new(spec(1, ValueModel::Uniform), -1).is_err());
        let mut big = spec(1, ValueModel::Uniform);
        big.depth = 20;
        assert!(BoundedSyntheticTree::new(big, 10).is_err());
    }
}
