//! SSS*'s OPEN list: states (node, LIVE|SOLVED, merit h) in non-increasing h,
//! ties broken in favour of the leftmost node. Kept as a set ordered by
//! (h descending, path ascending) plus an index by path for the purge.

use crate::research::trees::tree::{NodePath, Value};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not yet solved: h is an upper bound on what the node can contribute.
    Live,
    /// Solved: h is the node's value within the current solution tree.
    Solved,
}

/// One entry of OPEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub node: NodePath,
    pub status: Status,
    pub merit: Value,
}

/// The OPEN list. The nodes in OPEN never include one another (no node is an
/// ancestor of another), so "leftmost" is well defined; `insert` checks that a
/// node is not already present.
#[derive(Default)]
pub struct OpenList {
    /// The list order: highest merit first, then leftmost.
    by_priority: BTreeSet<(Reverse<Value>, NodePath)>,
    /// The same states by path, for finding a subtree's states.
    by_node: BTreeMap<NodePath, (Status, Value)>,
}

impl OpenList {
    pub fn new() -> OpenList {
        OpenList::default()
    }

    pub fn len(&self) -> usize {
        self.by_node.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_node.is_empty()
    }

    pub fn insert(&mut self, state: State) {
        let previous = self
            .by_node
            .insert(state.node.clone(), (state.status, state.merit));
        assert!(previous.is_none(), "node {} is already in OPEN", state.node);
        self.by_priority.insert((Reverse(state.merit), state.node));
    }

    /// Removes and returns the first state: the highest merit, leftmost.
    pub fn pop_first(&mut self) -> Option<State> {
        let (Reverse(merit), node) = self.by_priority.pop_first()?;
        let (status, _) = self
            .by_node
            .remove(&node)
            .expect("both orders hold the same states");
        Some(State {
            node,
            status,
            merit,
        })
    }

    /// Removes every state of a proper descendant of `ancestor`.
    pub fn purge_descendants_of(&mut self, ancestor: &NodePath) {
        // Descendants follow their ancestor directly in path order.
        let doomed: Vec<(NodePath, Value)> = self
            .by_node
            .range(ancestor..)
            .take_while(|(node, _)| ancestor.is_ancestor_of(node) || *node == ancestor)
            .filter(|(node, _)| *node != ancestor)
            .map(|(node, &(_, merit))| (node.clone(), merit))
            .collect();
        for (node, merit) in doomed {
            self.by_node.remove(&node);
            self.by_priority.remove(&(Reverse(merit), node));
        }
    }

    /// The states in list order (for tests and traces).
    pub fn states(&self) -> Vec<State> {
        self.by_priority
            .iter()
            .map(|(Reverse(merit), node)| State {
                node: node.clone(),
                status: self.by_node[node].0,
                merit: *merit,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live(node: NodePath, merit: Value) -> State {
        State {
            node,
            status: Status::Live,
            merit,
        }
    }

    #[test]
    fn highest_merit_first_then_leftmost() {
        let root = NodePath::root();
        let mut open = OpenList::new();
        open.insert(live(root.child(2), 5));
        open.insert(live(root.child(0).child(1), 9));
        open.insert(live(root.child(1), 9));
        open.insert(live(root.child(0).child(0), 3));
        let order: Vec<String> = open.states().iter().map(|s| s.node.to_string()).collect();
        assert_eq!(order, ["0.1", "1", "2", "0.0"]);
        assert_eq!(open.pop_first().unwrap().node, root.child(0).child(1));
        assert_eq!(open.len(), 3);
    }

    #[test]
    fn purge_removes_exactly_the_subtree() {
        let root = NodePath::root();
        let mut open = OpenList::new();
        open.insert(live(root.child(0).child(0), 1));
        open.insert(live(root.child(1).child(0).child(2), 7));
        open.insert(live(root.child(1).child(1), 4));
        open.insert(live(root.child(2), 4));
        open.purge_descendants_of(&root.child(1));
        let order: Vec<String> = open.states().iter().map(|s| s.node.to_string()).collect();
        assert_eq!(order, ["2", "0.0"]);
    }

    #[test]
    #[should_panic(expected = "already in OPEN")]
    fn a_node_is_in_open_at_most_once() {
        let mut open = OpenList::new();
        open.insert(live(NodePath::root(), 1));
        open.insert(live(NodePath::root(), 2));
    }
}
