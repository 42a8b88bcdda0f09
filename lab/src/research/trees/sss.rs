//! Stockman's SSS* (1979), literally: an OPEN list of (node, LIVE|SOLVED, h)
//! states rewritten by the Γ operator's six cases until the root is solved;
//! and DUAL* (Marsland, Reinefeld & Schaeffer 1987), SSS* on the dual tree.

use crate::research::trees::leaves::LeafLog;
use crate::research::trees::open_list::{OpenList, State, Status};
use crate::research::trees::tree::{GameTree, INFINITY, NodePath, Side, Value};

/// Which player SSS* bounds from above. SSS* proper takes the real tree, where
/// MAX is at the root; DUAL* takes the dual tree, in which the players swap
/// roles and every value is negated, so MIN becomes the maximiser.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Orientation {
    Primal,
    Dual,
}

impl Orientation {
    /// The player who maximises the values SSS* sees.
    fn maximiser(self) -> Side {
        match self {
            Orientation::Primal => Side::Max,
            Orientation::Dual => Side::Min,
        }
    }

    /// Is `node` a MAX node of the tree SSS* runs on?
    fn is_max_node(self, node: &NodePath) -> bool {
        Side::to_move_at(node) == self.maximiser()
    }

    /// A leaf's value in the tree SSS* runs on.
    fn leaf_value<T: GameTree + ?Sized>(
        self,
        tree: &T,
        leaf: &NodePath,
        log: &mut LeafLog,
    ) -> Value {
        let value = log.value_for_max(tree, leaf);
        match self {
            Orientation::Primal => value,
            Orientation::Dual => -value,
        }
    }
}

/// Stockman's SSS*: the minimax value for MAX.
pub fn sss_star<T: GameTree + ?Sized>(tree: &T, log: &mut LeafLog) -> Value {
    stockman(tree, Orientation::Primal, log)
}

/// DUAL*: SSS* on the dual tree. Its h values are lower bounds on the value
/// for MAX; OPEN is in effect kept in non-decreasing order of them.
pub fn dual_star<T: GameTree + ?Sized>(tree: &T, log: &mut LeafLog) -> Value {
    -stockman(tree, Orientation::Dual, log)
}

/// The SSS* loop on the tree seen in `orientation`; returns the value there.
fn stockman<T: GameTree + ?Sized>(tree: &T, orientation: Orientation, log: &mut LeafLog) -> Value {
    let mut open = OpenList::new();
    open.insert(State {
        node: NodePath::root(),
        status: Status::Live,
        merit: INFINITY,
    });
    loop {
        let state = open
            .pop_first()
            .expect("OPEN holds a state until the root is solved");
        if state.node.is_root() && state.status == Status::Solved {
            return state.merit;
        }
        gamma(tree, orientation, &mut open, state, log);
    }
}

/// The Γ operator: replaces the state just taken from OPEN by its successors.
///
/// Case numbering follows the usual statement of Stockman's algorithm after
/// Pearl ("Heuristics", 1984), as printed in the Wikipedia article "SSS*":
/// cases 1–3 take LIVE states (1 leaf, 2 MIN node, 3 MAX node), cases 4–6
/// SOLVED ones (4 MIN node, 5 MAX node that is the last child, 6 MAX node with
/// a next sibling). Plaat, Schaeffer, Pijls & de Bruin ("Best-first
/// fixed-depth minimax algorithms", Artificial Intelligence 87, 1996) call 4–6
/// the cases that back upper bounds up the tree, which matches. New states go
/// into OPEN in non-increasing h, ties to the leftmost node (`OpenList`).
fn gamma<T: GameTree + ?Sized>(
    tree: &T,
    orientation: Orientation,
    open: &mut OpenList,
    state: State,
    log: &mut LeafLog,
) {
    let State {
        node,
        status,
        merit,
    } = state;
    match status {
        Status::Live => {
            let children = tree.child_count(&node);
            if children == 0 {
                // Case 1: a LIVE leaf is solved, with h = min(h, its value).
                let value = orientation.leaf_value(tree, &node, log);
                open.insert(State {
                    node,
                    status: Status::Solved,
                    merit: merit.min(value),
                });
            } else if !orientation.is_max_node(&node) {
                // Case 2: a LIVE MIN node: its first child goes LIVE with the same h.
                open.insert(State {
                    node: node.child(0),
                    status: Status::Live,
                    merit,
                });
            } else {
                // Case 3: a LIVE MAX node: all its children go LIVE with the same h.
                for i in 0..children {
                    open.insert(State {
                        node: node.child(i),
                        status: Status::Live,
                        merit,
                    });
                }
            }
        }
        Status::Solved => {
            let parent = node
                .parent()
                .expect("a solved root ends the search before Γ");
            let index = node
                .index_in_parent()
                .expect("a non-root node has an index");
            if !orientation.is_max_node(&node) {
                // Case 4: a SOLVED MIN node solves its MAX parent with the same
                // h (no sibling can beat it: their h are no higher), and every
                // state below the parent leaves OPEN.
                open.purge_descendants_of(&parent);
                open.insert(State {
                    node: parent,
                    status: Status::Solved,
                    merit,
                });
            } else if index + 1 == tree.child_count(&parent) {
                // Case 5: a SOLVED MAX node that is its MIN parent's last child
                // solves the parent with the same h.
                open.insert(State {
                    node: parent,
                    status: Status::Solved,
                    merit,
                });
            } else {
                // Case 6: a SOLVED MAX node with a next sibling: the sibling goes
                // LIVE with the same h.
                open.insert(State {
                    node: node.next_sibling(),
                    status: Status::Live,
                    merit,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::examples::*;
    use crate::research::trees::explicit::ExplicitTree;
    use crate::research::trees::leaves::LeafRecord;

    fn run(
        tree: &ExplicitTree,
        search: fn(&ExplicitTree, &mut LeafLog) -> Value,
    ) -> (Value, LeafRecord) {
        let mut log = LeafLog::new(tree, true);
        let value = search(tree, &mut log);
        (value, log.finish())
    }

    #[test]
    fn russell_norvig_leaf_sequence() {
        let (value, leaves) = run(&russell_norvig(), sss_star);
        assert_eq!(value, RUSSELL_NORVIG_VALUE);
        assert_eq!(leaves.indices(), RUSSELL_NORVIG_SSS);
    }

    #[test]
    fn plaat_et_al_leaf_sequence() {
        let (value, leaves) = run(&plaat_et_al(), sss_star);
        assert_eq!(value, PLAAT_VALUE);
        assert_eq!(leaves.indices(), PLAAT_SSS);
        // SSS* never evaluates a leaf twice: it never returns to a solved subtree.
        assert_eq!(leaves.total, leaves.distinct);
    }

    #[test]
    fn dual_star_finds_the_value_from_below() {
        let (value, leaves) = run(&russell_norvig(), dual_star);
        assert_eq!(value, RUSSELL_NORVIG_VALUE);
        // The root is a MIN node of the dual tree: only its first child is
        // opened first, and it is solved at 3 before the others are refuted.
        assert_eq!(leaves.indices(), [0, 1, 2, 3, 6, 7, 8]);
        let (value, _) = run(&plaat_et_al(), dual_star);
        assert_eq!(value, PLAAT_VALUE);
    }

    #[test]
    fn degenerate_trees() {
        let single = ExplicitTree::parse("-7", 3).unwrap();
        assert_eq!(run(&single, sss_star).0, -7);
        assert_eq!(run(&single, dual_star).0, -7);
        // MAX to move over two leaves: both are needed to prove the value.
        let one_ply = ExplicitTree::parse("4 9", 2).unwrap();
        let (value, leaves) = run(&one_ply, sss_star);
        assert_eq!((value, leaves.indices()), (9, vec![0, 1]));
        let chain = ExplicitTree::parse("5", 1).unwrap();
        assert_eq!(run(&chain, sss_star).0, 5);
    }

    #[test]
    fn ties_go_to_the_leftmost_state() {
        // All leaves equal: SSS* solves the first MIN node's leaves one by one
        // (its state stays leftmost among equal merits) and stops there.
        let flat = ExplicitTree::parse("1 1 1 1 1 1 1 1 1", 3).unwrap();
        let (value, leaves) = run(&flat, sss_star);
        assert_eq!(value, 1);
        assert_eq!(leaves.indices(), [0, 3, 6, 1, 2]);
    }
}
