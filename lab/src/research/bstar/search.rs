//! B* (Berliner 1979): a best-first search that keeps the whole tree it has
//! generated, an interval on every node, and expands one node at a time until
//! one root move's interval separates from all others or the budget runs out.

use crate::research::bstar::bounded::{BoundedTree, Bounds};
use crate::research::bstar::root::{Strategy, choose_strategy, contenders, most_secure, separated};
use crate::research::trees::tree::{NodePath, Side, value_for_max};

/// How far B* may go.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BStarOptions {
    /// The most nodes expanded (the root included) before B* stops unseparated.
    pub max_expansions: u64,
}

/// Why B* stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The chosen move's pessimistic bound reaches every other's optimistic one.
    Separated,
    /// The budget ran out first; the chosen move is the most secure one.
    BudgetExhausted,
    /// The root has no moves.
    NoMoves,
}

/// One expansion: the node whose children were generated, and the strategy
/// it served (`None` for the root's own expansion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expansion {
    pub node: NodePath,
    pub strategy: Option<Strategy>,
}

/// What B* did on one tree.
#[derive(Clone, Debug)]
pub struct BStarOutcome {
    /// The root move chosen (index of the root's child); `None` without moves.
    pub choice: Option<usize>,
    pub termination: Termination,
    /// The final interval of every root move.
    pub root_moves: Vec<Bounds>,
    /// Nodes whose children were generated, the root included.
    pub expansions: u64,
    /// Nodes generated and given an interval (or their exact value at a leaf).
    pub generated: u64,
    /// Every expansion in order.
    pub trace: Vec<Expansion>,
}

impl BStarOutcome {
    /// Expansions that served `strategy`.
    pub fn expansions_for(&self, strategy: Strategy) -> usize {
        self.trace
            .iter()
            .filter(|e| e.strategy == Some(strategy))
            .count()
    }
}

/// A generated node. Children are generated all at once, so they sit side by
/// side in the arena from `first_child`.
#[derive(Copy, Clone, Debug)]
struct Node {
    bounds: Bounds,
    first_child: usize,
    children: usize,
    expanded: bool,
}

/// The generated part of the tree.
struct Search<'a, T: ?Sized> {
    tree: &'a T,
    nodes: Vec<Node>,
    trace: Vec<Expansion>,
}

/// Runs B* from the root of `tree`.
pub fn b_star<T: BoundedTree + ?Sized>(tree: &T, options: BStarOptions) -> BStarOutcome {
    let mut search = Search::new(tree);
    search.expand(0, &NodePath::root(), None);
    let termination = loop {
        let moves = search.root_moves();
        let Some(c) = contenders(&moves) else {
            break Termination::NoMoves;
        };
        if separated(&moves, c) {
            break Termination::Separated;
        }
        if search.trace.len() as u64 >= options.max_expansions {
            break Termination::BudgetExhausted;
        }
        let strategy = choose_strategy(&moves, c);
        let target = match (strategy, c.rival) {
            (Strategy::DisproveRest, Some(rival)) => rival,
            _ => c.best,
        };
        if !search.expand_below(target, strategy) {
            // Unreachable with well-formed intervals; stop rather than spin.
            break Termination::BudgetExhausted;
        }
    };
    search.finish(termination)
}

impl<'a, T: BoundedTree + ?Sized> Search<'a, T> {
    fn new(tree: &'a T) -> Self {
        let root = Node {
            bounds: Bounds::exact(0),
            first_child: 0,
            children: 0,
            expanded: false,
        };
        Search {
            tree,
            nodes: vec![root],
            trace: Vec::new(),
        }
    }

    fn root_moves(&self) -> Vec<Bounds> {
        self.children_of(0).map(|i| self.nodes[i].bounds).collect()
    }

    fn children_of(&self, node: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[node];
        n.first_child..n.first_child + n.children
    }

    /// Generates the children of `node` (at `path`) with their intervals —
    /// a leaf's is its exact value — and backs them up into `node`.
    fn expand(&mut self, node: usize, path: &NodePath, strategy: Option<Strategy>) {
        let count = self.tree.child_count(path);
        let first_child = self.nodes.len();
        for i in 0..count {
            let child = path.child(i);
            let bounds = if self.tree.child_count(&child) == 0 {
                Bounds::exact(value_for_max(self.tree, &child))
            } else {
                self.tree.bounds(&child)
            };
            self.nodes.push(Node {
                bounds,
                first_child: 0,
                children: 0,
                expanded: false,
            });
        }
        let n = &mut self.nodes[node];
        n.first_child = first_child;
        n.children = count;
        n.expanded = true;
        if count == 0 {
            n.bounds = Bounds::exact(value_for_max(self.tree, path));
        }
        self.trace.push(Expansion {
            node: path.clone(),
            strategy,
        });
        self.back_up(node, Side::to_move_at(path));
    }

    fn back_up(&mut self, node: usize, side: Side) {
        let children = self.children_of(node).map(|i| self.nodes[i].bounds);
        if let Some(bounds) = Bounds::back_up(side, children) {
            self.nodes[node].bounds = bounds;
        }
    }

    /// Descends from root move `target` to an unexpanded node, at each node
    /// into the child with the best optimistic bound for the side to move
    /// there (Berliner 1979), expands it and backs the intervals up to the
    /// root. False if there was no node to expand.
    fn expand_below(&mut self, target: usize, strategy: Strategy) -> bool {
        let mut path = NodePath::root().child(target);
        let mut stack = vec![0, self.nodes[0].first_child + target];
        let mut node = stack[1];
        while self.nodes[node].expanded {
            let Some(k) = self.most_optimistic_child(node, Side::to_move_at(&path)) else {
                return false;
            };
            path = path.child(k);
            node = self.nodes[node].first_child + k;
            stack.push(node);
        }
        self.expand(node, &path, Some(strategy));
        for (depth, &n) in stack.iter().enumerate().rev().skip(1) {
            let side = if depth.is_multiple_of(2) {
                Side::Max
            } else {
                Side::Min
            };
            self.back_up(n, side);
        }
        true
    }

    /// The open child (interval not exact) with the best optimistic bound for
    /// `side`, leftmost among equals.
    fn most_optimistic_child(&self, node: usize, side: Side) -> Option<usize> {
        let first = self.nodes[node].first_child;
        let open = self
            .children_of(node)
            .filter(|&i| !self.nodes[i].bounds.is_exact());
        let better = |a: usize, b: usize| {
            let (x, y) = (
                self.nodes[a].bounds.optimistic_for(side),
                self.nodes[b].bounds.optimistic_for(side),
            );
            match side {
                Side::Max => y > x,
                Side::Min => y < x,
            }
        };
        open.reduce(|a, b| if better(a, b) { b } else { a })
            .map(|i| i - first)
    }

    fn finish(self, termination: Termination) -> BStarOutcome {
        let root_moves = self.root_moves();
        let choice = match termination {
            Termination::Separated => contenders(&root_moves).map(|c| c.best),
            Termination::BudgetExhausted => most_secure(&root_moves),
            Termination::NoMoves => None,
        };
        BStarOutcome {
            choice,
            termination,
            root_moves,
            expansions: self.trace.len() as u64,
            generated: self.nodes.len() as u64 - 1,
            trace: self.trace,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::explicit::ExplicitTree;
    use crate::research::trees::tree::{GameTree, Value};

    /// An explicit tree with intervals written out per node in Dewey notation.
    struct HandTree {
        tree: ExplicitTree,
        bounds: Vec<(&'static str, Value, Value)>,
    }

    impl GameTree for HandTree {
        fn child_count(&self, node: &NodePath) -> usize {
            self.tree.child_count(node)
        }
        fn value_for_side_to_move(&self, leaf: &NodePath) -> Value {
            self.tree.value_for_side_to_move(leaf)
        }
    }

    impl BoundedTree for HandTree {
        fn bounds(&self, node: &NodePath) -> Bounds {
            let name = node.to_string();
            let &(_, lower, upper) = self
                .bounds
                .iter()
                .find(|(n, _, _)| *n == name)
                .unwrap_or_else(|| panic!("the test gives no interval for {name}"));
            Bounds::new(lower, upper)
        }
    }

    fn expanded(outcome: &BStarOutcome) -> Vec<(String, Option<Strategy>)> {
        let trace = outcome.trace.iter();
        trace.map(|e| (e.node.to_string(), e.strategy)).collect()
    }

    const ENOUGH: BStarOptions = BStarOptions {
        max_expansions: 1000,
    };

    /// Depth 3, binary. MIN nodes A = 0 and B = 1; A.0 = 6, A.1 = 8, so A = 6;
    /// B.0 = 3, B.1 = 5, so B = 3. Every interval holds its node's value.
    fn three_ply() -> HandTree {
        HandTree {
            tree: ExplicitTree::parse("4 6 8 2  1 3 5 0", 2).unwrap(),
            bounds: vec![
                ("0", 2, 9),
                ("1", 1, 7),
                ("0.0", 5, 8),
                ("0.1", 4, 10),
                ("1.0", 2, 5),
                ("1.1", 3, 6),
            ],
        }
    }

    #[test]
    fn a_likely_disproof_is_tried_first_and_settles_it() {
        // Root moves A (6,12) and B (0,8): ProveBest succeeds with odds
        // (12-8)/6 = 0.67, DisproveRest with (6-0)/8 = 0.75. B's leaves are
        // 4 and 2, so B = (2,2) and A's pessimistic 6 separates: A is never
        // expanded.
        let tree = HandTree {
            tree: ExplicitTree::parse("7 9 4 2", 2).unwrap(),
            bounds: vec![("0", 6, 12), ("1", 0, 8)],
        };
        let outcome = b_star(&tree, ENOUGH);
        assert_eq!(outcome.termination, Termination::Separated);
        assert_eq!(outcome.choice, Some(0));
        let disprove = Some(Strategy::DisproveRest);
        assert_eq!(
            expanded(&outcome),
            [("root".to_string(), None), ("1".to_string(), disprove)]
        );
        assert_eq!(outcome.root_moves, [Bounds::new(6, 12), Bounds::exact(2)]);
        assert_eq!((outcome.expansions, outcome.generated), (2, 4));
    }

    #[test]
    fn prove_best_can_move_the_lead_to_the_other_move() {
        // A (2,10), B (0,7): prove (10-7)/8 = 0.375 beats disprove 2/7. A's
        // leaves 5, 8 make A = 5, so B (0,7) leads, A = (5,5) is an exact
        // rival; B is proved: its leaves 3, 9 give B = 3 and A separates.
        let tree = HandTree {
            tree: ExplicitTree::parse("5 8 3 9", 2).unwrap(),
            bounds: vec![("0", 2, 10), ("1", 0, 7)],
        };
        let outcome = b_star(&tree, ENOUGH);
        let prove = Some(Strategy::ProveBest);
        let order: Vec<(String, Option<Strategy>)> = vec![
            ("root".into(), None),
            ("0".into(), prove),
            ("1".into(), prove),
        ];
        assert_eq!(expanded(&outcome), order);
        assert_eq!(outcome.choice, Some(0));
        assert_eq!(outcome.termination, Termination::Separated);
    }

    #[test]
    fn below_the_root_the_most_optimistic_child_for_the_mover_is_expanded() {
        // Root: A (2,9), B (1,7): prove 2/7 beats disprove 1/6. A's children
        // (5,8), (4,10) make A = (4,8). Now prove (8-7)/4 = 0.25 loses to
        // disprove (4-1)/6 = 0.5: B's children (2,5), (3,6) make B = (2,5).
        // Prove (8-5)/4 = 0.75 beats disprove (4-2)/3: at MIN node A the
        // child with the lowest pessimistic-for-MAX bound, A.1 (4,10), is
        // expanded; its leaves 8, 2 give 8, so A = (5,8) and 5 >= 5 separates.
        let outcome = b_star(&three_ply(), ENOUGH);
        let (prove, disprove) = (Some(Strategy::ProveBest), Some(Strategy::DisproveRest));
        let order: Vec<(String, Option<Strategy>)> = vec![
            ("root".into(), None),
            ("0".into(), prove),
            ("1".into(), disprove),
            ("0.1".into(), prove),
        ];
        assert_eq!(expanded(&outcome), order);
        assert_eq!(outcome.choice, Some(0));
        assert_eq!(outcome.root_moves, [Bounds::new(5, 8), Bounds::new(2, 5)]);
        assert_eq!(outcome.expansions_for(Strategy::ProveBest), 2);
        assert_eq!(outcome.expansions_for(Strategy::DisproveRest), 1);
        // Root's 2 + A's 2 + B's 2 + A.1's 2 leaves.
        assert_eq!(outcome.generated, 8);
    }

    #[test]
    fn a_spent_budget_is_reported_and_the_most_secure_move_chosen() {
        // After the root and A: A = (4,8), B = (1,7), not separated.
        let outcome = b_star(&three_ply(), BStarOptions { max_expansions: 2 });
        assert_eq!(outcome.termination, Termination::BudgetExhausted);
        assert_eq!(outcome.expansions, 2);
        assert_eq!(outcome.root_moves, [Bounds::new(4, 8), Bounds::new(1, 7)]);
        assert_eq!(outcome.choice, Some(0));
    }

    #[test]
    fn invalid_intervals_can_mislead_it() {
        // A = 7 and B = 2, but A's interval (0,3) and B's (5,8) both miss:
        // B separates at once and is chosen. The guarantee needs valid ones.
        let tree = HandTree {
            tree: ExplicitTree::parse("7 9 4 2", 2).unwrap(),
            bounds: vec![("0", 0, 3), ("1", 5, 8)],
        };
        let outcome = b_star(&tree, ENOUGH);
        assert_eq!(outcome.termination, Termination::Separated);
        assert_eq!((outcome.choice, outcome.expansions), (Some(1), 1));
    }

    #[test]
    fn a_root_without_moves_has_no_choice() {
        let leaf = HandTree {
            tree: ExplicitTree::parse("5", 3).unwrap(),
            bounds: vec![],
        };
        let outcome = b_star(&leaf, ENOUGH);
        assert_eq!(outcome.termination, Termination::NoMoves);
        assert_eq!((outcome.choice, outcome.expansions), (None, 1));
    }
}
