//! The `GameTree` trait: what every textbook algorithm here needs from a game
//! tree — children in a fixed order, a static value at the leaves, and a
//! stable node identity, the Dewey path of child indices from the root.

use arrayvec::ArrayVec;
use std::fmt;

/// A minimax value. Leaf values lie within `-MAX_LEAF_VALUE..=MAX_LEAF_VALUE`.
pub type Value = i32;

/// Larger than any value a tree can produce: the bound of a full window (+∞).
/// Its negation is representable, so negamax never overflows.
pub const INFINITY: Value = i32::MAX;

/// The largest magnitude of a leaf value. It leaves room below `INFINITY` for
/// the `γ + 1` and `γ - 1` of null-window searches.
pub const MAX_LEAF_VALUE: Value = 1 << 30;

/// The deepest node a path can name (the root has depth 0).
pub const MAX_DEPTH: usize = 32;

/// The most children a node may have: a child index must fit in a byte.
/// (Chess has at most 218 legal moves.)
pub const MAX_BRANCHING: usize = u8::MAX as usize + 1;

/// A node's identity: the child indices on the way from the root (Dewey
/// notation, 0-based). Lexicographic order is left-to-right order in the tree,
/// with an ancestor before its descendants.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodePath(ArrayVec<u8, MAX_DEPTH>);

impl NodePath {
    pub fn root() -> NodePath {
        NodePath(ArrayVec::new())
    }

    /// Distance from the root in plies.
    pub fn depth(&self) -> usize {
        self.0.len()
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The child indices from the root down to this node.
    pub fn indices(&self) -> &[u8] {
        &self.0
    }

    /// The path of this node's child number `index`.
    ///
    /// Panics if `index >= MAX_BRANCHING` or the path is already `MAX_DEPTH`
    /// long; trees are validated against both limits when they are built.
    pub fn child(&self, index: usize) -> NodePath {
        let index = u8::try_from(index).expect("child index below MAX_BRANCHING");
        let mut path = self.clone();
        path.0.push(index);
        path
    }

    /// The parent's path, or `None` at the root.
    pub fn parent(&self) -> Option<NodePath> {
        let mut path = self.clone();
        path.0.pop().map(|_| path)
    }

    /// Which child of its parent this node is (`None` at the root).
    pub fn index_in_parent(&self) -> Option<usize> {
        self.0.last().map(|&i| usize::from(i))
    }

    /// The path of the next sibling to the right (which may not exist in the
    /// tree; the caller checks against the parent's child count).
    pub fn next_sibling(&self) -> NodePath {
        let mut path = self.clone();
        let last = path.0.last_mut().expect("the root has no siblings");
        *last = last
            .checked_add(1)
            .expect("sibling index below MAX_BRANCHING");
        path
    }

    /// Is this node a proper ancestor of `other`?
    pub fn is_ancestor_of(&self, other: &NodePath) -> bool {
        other.depth() > self.depth() && other.0.starts_with(&self.0)
    }
}

/// Dewey notation: `root`, or the child indices joined by dots (`0.2.1`).
impl fmt::Display for NodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_root() {
            return write!(f, "root");
        }
        for (k, i) in self.0.iter().enumerate() {
            if k > 0 {
                write!(f, ".")?;
            }
            write!(f, "{i}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for NodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Who moves at a node. The root is MAX; the sides alternate by ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    Max,
    Min,
}

impl Side {
    pub fn to_move_at(node: &NodePath) -> Side {
        if node.depth().is_multiple_of(2) {
            Side::Max
        } else {
            Side::Min
        }
    }

    pub fn opponent(self) -> Side {
        match self {
            Side::Max => Side::Min,
            Side::Min => Side::Max,
        }
    }
}

/// A finite game tree searched to a fixed horizon. Nodes are named by their
/// paths; a node with no children is a leaf (the horizon, or a terminal
/// position such as mate). Implementations must be deterministic: the same
/// path always has the same children and value.
pub trait GameTree {
    /// How many children the node has, numbered `0..n` in a fixed order;
    /// 0 for a leaf.
    fn child_count(&self, node: &NodePath) -> usize;

    /// The static value of a leaf from the point of view of the side to move
    /// there (the negamax convention, like `eval::evaluate`), within
    /// `-MAX_LEAF_VALUE..=MAX_LEAF_VALUE`.
    fn value_for_side_to_move(&self, leaf: &NodePath) -> Value;

    /// The leaf's position in left-to-right order, for trees whose leaves can
    /// be numbered densely (uniform trees). Used for compact bookkeeping and
    /// for printing traces.
    fn leaf_index(&self, _leaf: &NodePath) -> Option<u64> {
        None
    }

    /// The number of leaves, when `leaf_index` numbers them.
    fn leaf_count(&self) -> Option<u64> {
        None
    }
}

/// The static value of a leaf from MAX's (the root player's) point of view.
pub fn value_for_max<T: GameTree + ?Sized>(tree: &T, leaf: &NodePath) -> Value {
    let value = tree.value_for_side_to_move(leaf);
    match Side::to_move_at(leaf) {
        Side::Max => value,
        Side::Min => -value,
    }
}

/// Converts a value for MAX into the value for the side to move at `node`.
pub fn for_side_to_move(node: &NodePath, value_for_max: Value) -> Value {
    match Side::to_move_at(node) {
        Side::Max => value_for_max,
        Side::Min => -value_for_max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_order_left_to_right_with_ancestors_first() {
        let root = NodePath::root();
        let a = root.child(0);
        let a1 = a.child(1);
        let b = root.child(1);
        assert!(root < a && a < a1 && a1 < b);
        assert!(a.is_ancestor_of(&a1) && root.is_ancestor_of(&b));
        assert!(!a.is_ancestor_of(&a) && !a.is_ancestor_of(&b));
        assert_eq!(a1.parent(), Some(a.clone()));
        assert_eq!(root.parent(), None);
        assert_eq!(a.next_sibling(), b);
        assert_eq!(a1.index_in_parent(), Some(1));
        assert_eq!(a1.to_string(), "0.1");
        assert_eq!(root.to_string(), "root");
    }

    #[test]
    fn sides_alternate_from_max_at_the_root() {
        let root = NodePath::root();
        assert_eq!(Side::to_move_at(&root), Side::Max);
        assert_eq!(Side::to_move_at(&root.child(3)), Side::Min);
        assert_eq!(Side::to_move_at(&root.child(3).child(0)), Side::Max);
        assert_eq!(for_side_to_move(&root.child(0), 7), -7);
    }
}
