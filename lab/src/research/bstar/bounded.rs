//! What B* needs beyond a `GameTree`: every interior node carries an interval
//! [lower, upper] for MAX — MAX's pessimistic and optimistic values — meant to
//! contain the node's minimax value; and the rule that backs intervals up.

use crate::research::trees::tree::{GameTree, MAX_LEAF_VALUE, NodePath, Side, Value};

/// An interval of values for MAX, `lower <= upper`. For MAX, `lower` is the
/// pessimistic and `upper` the optimistic bound; for MIN it is the reverse.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lower: Value,
    pub upper: Value,
}

impl Bounds {
    /// The interval between `a` and `b`, whichever is smaller first, clamped
    /// to the values a tree can hold.
    pub fn new(a: Value, b: Value) -> Bounds {
        let clamp = |v: Value| v.clamp(-MAX_LEAF_VALUE, MAX_LEAF_VALUE);
        Bounds {
            lower: clamp(a.min(b)),
            upper: clamp(a.max(b)),
        }
    }

    /// A known value: both bounds equal.
    pub fn exact(value: Value) -> Bounds {
        Bounds::new(value, value)
    }

    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    pub fn width(&self) -> i64 {
        i64::from(self.upper) - i64::from(self.lower)
    }

    pub fn contains(&self, value: Value) -> bool {
        (self.lower..=self.upper).contains(&value)
    }

    /// The bound `side` hopes for: MAX's is the upper one, MIN's the lower.
    pub fn optimistic_for(&self, side: Side) -> Value {
        match side {
            Side::Max => self.upper,
            Side::Min => self.lower,
        }
    }

    /// Backs children's intervals up to a node where `side` moves: at a MAX
    /// node the max of the lower and the max of the upper bounds, at a MIN
    /// node the min of each (Berliner 1979). `None` without children.
    pub fn back_up(side: Side, children: impl IntoIterator<Item = Bounds>) -> Option<Bounds> {
        let pick = |a: Value, b: Value| match side {
            Side::Max => a.max(b),
            Side::Min => a.min(b),
        };
        children.into_iter().reduce(|a, b| Bounds {
            lower: pick(a.lower, b.lower),
            upper: pick(a.upper, b.upper),
        })
    }
}

/// A game tree whose interior nodes have bounds. B* never asks for a leaf's
/// bounds: a leaf's value is known exactly (`GameTree::value_for_side_to_move`).
pub trait BoundedTree: GameTree {
    /// Bounds for MAX on the minimax value of an interior node.
    fn bounds(&self, node: &NodePath) -> Bounds;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backing_up_takes_max_at_max_and_min_at_min() {
        let children = [Bounds::new(1, 9), Bounds::new(4, 6), Bounds::new(-3, 7)];
        assert_eq!(
            Bounds::back_up(Side::Max, children),
            Some(Bounds::new(4, 9))
        );
        assert_eq!(
            Bounds::back_up(Side::Min, children),
            Some(Bounds::new(-3, 6))
        );
        assert_eq!(Bounds::back_up(Side::Max, []), None);
    }

    #[test]
    fn intervals_are_ordered_and_clamped() {
        let b = Bounds::new(5, -2);
        assert_eq!((b.lower, b.upper, b.width()), (-2, 5, 7));
        assert!(b.contains(0) && !b.contains(6) && !b.is_exact());
        assert_eq!(b.optimistic_for(Side::Max), 5);
        assert_eq!(b.optimistic_for(Side::Min), -2);
        assert!(Bounds::exact(3).is_exact());
        assert_eq!(Bounds::new(Value::MIN, 0).lower, -MAX_LEAF_VALUE);
    }
}
