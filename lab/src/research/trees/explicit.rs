//! A tree written out by hand: a uniform tree given by its branching factor
//! and its leaf values for MAX in left-to-right order, as textbook examples are.

use crate::research::trees::synthetic::leaf_count;
use crate::research::trees::tree::{
    GameTree, MAX_BRANCHING, MAX_DEPTH, MAX_LEAF_VALUE, NodePath, Value,
};

#[derive(Clone, Debug)]
pub struct ExplicitTree {
    branching: usize,
    depth: usize,
    /// Leaf values for MAX, leftmost first.
    leaves: Vec<Value>,
}

impl ExplicitTree {
    /// A tree whose `leaves.len()` must be `branching^depth` for some depth.
    pub fn new(leaves: Vec<Value>, branching: usize) -> Result<ExplicitTree, String> {
        if branching == 0 {
            return Err("branching must be at least 1".into());
        }
        if branching > MAX_BRANCHING {
            return Err(format!(
                "branching {branching} is too large (at most {MAX_BRANCHING})"
            ));
        }
        if leaves.is_empty() {
            return Err("no leaf values given".into());
        }
        let allowed = -MAX_LEAF_VALUE..=MAX_LEAF_VALUE;
        if let Some(v) = leaves.iter().find(|v| !allowed.contains(v)) {
            return Err(format!(
                "leaf value {v} is out of range (at most ±{MAX_LEAF_VALUE})"
            ));
        }
        let depth = (0..=MAX_DEPTH)
            .find(|&d| leaf_count(branching, d) == Some(leaves.len() as u64))
            .ok_or_else(|| {
                format!(
                    "{} leaves do not make a uniform tree with branching {branching}: \
                     the count must be a power of {branching} (branching^depth)",
                    leaves.len()
                )
            })?;
        Ok(ExplicitTree {
            branching,
            depth,
            leaves,
        })
    }

    /// Parses leaf values separated by spaces or commas.
    pub fn parse(text: &str, branching: usize) -> Result<ExplicitTree, String> {
        let leaves = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<Value>()
                    .map_err(|_| format!("leaf value '{s}' is not an integer"))
            })
            .collect::<Result<Vec<Value>, String>>()?;
        ExplicitTree::new(leaves, branching)
    }

    pub fn branching(&self) -> usize {
        self.branching
    }

    pub fn depth(&self) -> usize {
        self.depth
    }

    pub fn leaves(&self) -> &[Value] {
        &self.leaves
    }
}

impl GameTree for ExplicitTree {
    fn child_count(&self, node: &NodePath) -> usize {
        if node.depth() < self.depth {
            self.branching
        } else {
            0
        }
    }

    fn value_for_side_to_move(&self, leaf: &NodePath) -> Value {
        let index = self.leaf_index(leaf).expect("explicit leaves are indexed") as usize;
        super::tree::for_side_to_move(leaf, self.leaves[index])
    }

    fn leaf_index(&self, leaf: &NodePath) -> Option<u64> {
        let b = self.branching as u64;
        Some(
            leaf.indices()
                .iter()
                .fold(0, |index, &i| index * b + u64::from(i)),
        )
    }

    fn leaf_count(&self) -> Option<u64> {
        Some(self.leaves.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::tree::value_for_max;

    #[test]
    fn depth_follows_from_the_leaf_count() {
        let t = ExplicitTree::parse("3 12 8, 2 4 6, 14 5 2", 3).unwrap();
        assert_eq!(t.depth(), 2);
        let leaf = NodePath::root().child(2).child(0);
        assert_eq!(value_for_max(&t, &leaf), 14);
        // At depth 2 MAX is to move, so the negamax value is the same.
        assert_eq!(t.value_for_side_to_move(&leaf), 14);
        assert_eq!(t.leaf_index(&leaf), Some(6));
        let single = ExplicitTree::parse("5", 4).unwrap();
        assert_eq!(single.depth(), 0);
        assert_eq!(single.child_count(&NodePath::root()), 0);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(ExplicitTree::parse("1 2 3", 2).is_err());
        assert!(ExplicitTree::parse("1 2 x 4", 2).is_err());
        assert!(ExplicitTree::parse("", 2).is_err());
        assert!(ExplicitTree::parse("1 2", 0).is_err());
        assert!(ExplicitTree::parse("1 2", 1).is_err());
        assert!(ExplicitTree::parse("1 3000000000", 2).is_err());
        assert!(ExplicitTree::parse("1 2000000000", 2).is_err());
        assert!(ExplicitTree::parse("1 -2147483648", 2).is_err());
    }
}
