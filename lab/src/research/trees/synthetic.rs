//! Seeded random game trees of uniform branching and depth. Nothing is stored:
//! every value is a hash of the seed and the node's Dewey path, so a tree with
//! millions of leaves costs no memory and is the same on every run.

use crate::research::trees::rng::hash_path;
use crate::research::trees::tree::{
    GameTree, MAX_BRANCHING, MAX_DEPTH, MAX_LEAF_VALUE, NodePath, Value,
};
use std::fmt;
use stockman::rng::scale_to_range;

/// The largest magnitude of a value-range bound. An incremental leaf sums up
/// to `MAX_DEPTH` edge values, which must stay within `MAX_LEAF_VALUE`.
pub const MAX_RANGE_BOUND: Value = MAX_LEAF_VALUE / MAX_DEPTH as Value;

/// How leaf values are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueModel {
    /// Every leaf value independent and uniform in the range.
    Uniform,
    /// Every edge gets a value uniform in the range; a leaf's value is the sum
    /// of the edge values on its path, so siblings' values are correlated.
    Incremental,
}

impl fmt::Display for ValueModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValueModel::Uniform => "uniform",
            ValueModel::Incremental => "incremental",
        })
    }
}

/// An inclusive range of values, `lo..=hi`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ValueRange {
    pub lo: Value,
    pub hi: Value,
}

impl ValueRange {
    pub fn new(lo: Value, hi: Value) -> Result<ValueRange, String> {
        if lo > hi {
            return Err(format!(
                "empty value range {lo}..{hi}: LO must not exceed HI"
            ));
        }
        if lo < -MAX_RANGE_BOUND || hi > MAX_RANGE_BOUND {
            return Err(format!(
                "value range {lo}..{hi} is too wide: bounds must lie within ±{MAX_RANGE_BOUND}"
            ));
        }
        Ok(ValueRange { lo, hi })
    }

    /// Parses `LO..HI` (both ends included).
    pub fn parse(text: &str) -> Result<ValueRange, String> {
        let (lo, hi) = text
            .split_once("..")
            .ok_or_else(|| format!("value range '{text}' is not of the form LO..HI"))?;
        let bound = |s: &str| {
            s.trim()
                .parse::<Value>()
                .map_err(|_| format!("value range '{text}': '{s}' is not an integer"))
        };
        ValueRange::new(bound(lo)?, bound(hi)?)
    }

    /// Middle of the range, rounded toward zero.
    pub fn midpoint(&self) -> Value {
        ((i64::from(self.lo) + i64::from(self.hi)) / 2) as Value
    }

    fn draw(&self, random: u64) -> Value {
        scale_to_range(random, i64::from(self.lo), i64::from(self.hi)) as Value
    }
}

impl fmt::Display for ValueRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.lo, self.hi)
    }
}

/// The parameters of a synthetic tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SyntheticSpec {
    pub branching: usize,
    pub depth: usize,
    pub model: ValueModel,
    pub values: ValueRange,
    pub seed: u64,
}

impl fmt::Display for SyntheticSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} tree b={} d={} values {} seed {}",
            self.model, self.branching, self.depth, self.values, self.seed
        )
    }
}

/// A uniform tree: every node above the horizon has `branching` children and
/// all leaves are at `depth`. Values are for MAX, the player at the root.
#[derive(Clone, Debug)]
pub struct SyntheticTree {
    spec: SyntheticSpec,
    leaf_count: u64,
}

impl SyntheticTree {
    pub fn new(spec: SyntheticSpec) -> Result<SyntheticTree, String> {
        if spec.branching == 0 {
            return Err("branching must be at least 1".into());
        }
        if spec.branching > MAX_BRANCHING {
            return Err(format!(
                "branching {} is too large (at most {MAX_BRANCHING})",
                spec.branching
            ));
        }
        if spec.depth > MAX_DEPTH {
            return Err(format!(
                "depth {} is too large (at most {MAX_DEPTH})",
                spec.depth
            ));
        }
        let leaf_count = leaf_count(spec.branching, spec.depth).ok_or_else(|| {
            format!(
                "a tree with branching {} and depth {} has more than 2^64 leaves",
                spec.branching, spec.depth
            )
        })?;
        Ok(SyntheticTree { spec, leaf_count })
    }

    pub fn spec(&self) -> &SyntheticSpec {
        &self.spec
    }

    /// The value of a leaf for MAX.
    pub fn leaf_value_for_max(&self, leaf: &NodePath) -> Value {
        let spec = &self.spec;
        match spec.model {
            ValueModel::Uniform => spec.values.draw(hash_path(spec.seed, leaf)),
            ValueModel::Incremental => {
                // The edge into each node on the path is named by that node.
                let mut node = leaf.clone();
                let mut sum = 0;
                while let Some(parent) = node.parent() {
                    sum += spec.values.draw(hash_path(spec.seed, &node));
                    node = parent;
                }
                sum
            }
        }
    }
}

/// `branching^depth`, if it fits in a u64.
pub fn leaf_count(branching: usize, depth: usize) -> Option<u64> {
    let depth = u32::try_from(depth).ok()?;
    u64::try_from(branching).ok()?.checked_pow(depth)
}

impl GameTree for SyntheticTree {
    fn child_count(&self, node: &NodePath) -> usize {
        if node.depth() < self.spec.depth {
            self.spec.branching
        } else {
            0
        }
    }

    fn value_for_side_to_move(&self, leaf: &NodePath) -> Value {
        crate::research::trees::tree::for_side_to_move(leaf, self.leaf_value_for_max(leaf))
    }

    fn leaf_index(&self, leaf: &NodePath) -> Option<u64> {
        let b = self.spec.branching as u64;
        Some(
            leaf.indices()
                .iter()
                .fold(0, |index, &i| index * b + u64::from(i)),
        )
    }

    fn leaf_count(&self) -> Option<u64> {
        Some(self.leaf_count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::tree::value_for_max;

    fn spec(model: ValueModel, lo: Value, hi: Value) -> SyntheticSpec {
        SyntheticSpec {
            branching: 3,
            depth: 4,
            model,
            values: ValueRange::new(lo, hi).unwrap(),
            seed: 11,
        }
    }

    fn all_leaves(b: usize, d: usize) -> Vec<NodePath> {
        let mut level = vec![NodePath::root()];
        for _ in 0..d {
            level = level
                .iter()
                .flat_map(|n| (0..b).map(move |i| n.child(i)))
                .collect();
        }
        level
    }

    #[test]
    fn uniform_values_are_deterministic_and_in_range() {
        let t = SyntheticTree::new(spec(ValueModel::Uniform, -5, 5)).unwrap();
        let again = SyntheticTree::new(spec(ValueModel::Uniform, -5, 5)).unwrap();
        for leaf in all_leaves(3, 4) {
            let v = value_for_max(&t, &leaf);
            assert!((-5..=5).contains(&v));
            assert_eq!(v, value_for_max(&again, &leaf));
        }
    }

    #[test]
    fn incremental_values_are_sums_of_edges() {
        let t = SyntheticTree::new(spec(ValueModel::Incremental, 0, 10)).unwrap();
        let leaves = all_leaves(3, 4);
        for leaf in &leaves {
            let v = value_for_max(&t, leaf);
            assert!((0..=40).contains(&v));
        }
        // Siblings share all edges but the last: they differ by at most one edge range.
        for pair in leaves.chunks(3) {
            let vs: Vec<Value> = pair.iter().map(|l| value_for_max(&t, l)).collect();
            let spread = vs.iter().max().unwrap() - vs.iter().min().unwrap();
            assert!(spread <= 10);
        }
    }

    #[test]
    fn leaf_indices_run_left_to_right() {
        let t = SyntheticTree::new(spec(ValueModel::Uniform, 0, 1)).unwrap();
        let indices: Vec<u64> = all_leaves(3, 4)
            .iter()
            .map(|l| t.leaf_index(l).unwrap())
            .collect();
        assert_eq!(indices, (0..81).collect::<Vec<u64>>());
        assert_eq!(t.leaf_count(), Some(81));
    }

    #[test]
    fn bad_parameters_are_errors() {
        let mut s = spec(ValueModel::Uniform, 0, 1);
        s.branching = 0;
        assert!(SyntheticTree::new(s).is_err());
        s.branching = 300;
        assert!(SyntheticTree::new(s).is_err());
        s.branching = 2;
        s.depth = 1000;
        assert!(SyntheticTree::new(s).is_err());
        assert!(ValueRange::parse("5..1").is_err());
        assert!(ValueRange::parse("a..1").is_err());
        assert!(ValueRange::parse("17").is_err());
        assert!(ValueRange::parse("-2000000000..0").is_err());
        assert_eq!(
            ValueRange::parse("-3..7").unwrap(),
            ValueRange { lo: -3, hi: 7 }
        );
    }
}
