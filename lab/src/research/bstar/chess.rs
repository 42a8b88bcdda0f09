//! Chess positions as a tree with intervals for B*: a node's interval is the
//! engine's shallow search value for the side to move ± a margin (heuristic:
//! nothing guarantees it holds the true value); mates and terminal positions
//! are exact.

use crate::research::bstar::bounded::{BoundedTree, Bounds};
use crate::research::trees::chess::{ChessMoveOrder, ChessTree};
use crate::research::trees::tree::{GameTree, NodePath, Value, for_side_to_move};
use std::cell::{Cell, RefCell};
use stockman::board::Board;
use stockman::score::{Depth, Score};
use stockman::search::{Limits, ReusableSearch, SearchMode, SearchParams, search};

/// How a chess node's interval is made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProbeSpec {
    /// Depth of the engine search (Normal mode, quiescence at its horizon).
    pub depth: Depth,
    /// Half-width of the interval around the search value, in centipawns.
    pub margin: Value,
    /// Plies below the root at which nodes become leaves valued by a probe.
    pub horizon: usize,
}

/// The legal-move tree below a position with engine-made intervals.
pub struct ChessBoundedTree {
    tree: ChessTree,
    probe: ProbeSpec,
    engine: RefCell<ReusableSearch>,
    params: SearchParams,
    /// Engine nodes spent on probes so far.
    nodes: Cell<u64>,
    probes: Cell<u64>,
}

impl ChessBoundedTree {
    pub fn new(root: Board, probe: ProbeSpec, hash_mb: usize) -> Result<ChessBoundedTree, String> {
        Ok(ChessBoundedTree {
            tree: ChessTree::new(root, probe.horizon, ChessMoveOrder::Generated)?,
            probe,
            engine: RefCell::new(ReusableSearch::new(hash_mb)?),
            params: SearchParams {
                move_overhead_ms: 0,
                ..SearchParams::default()
            },
            nodes: Cell::new(0),
            probes: Cell::new(0),
        })
    }

    /// Engine nodes searched by all probes so far.
    pub fn engine_nodes(&self) -> u64 {
        self.nodes.get()
    }

    /// Probes (engine searches) so far.
    pub fn probes(&self) -> u64 {
        self.probes.get()
    }

    /// The root move of child `index`, in UCI notation.
    pub fn root_move(&self, index: usize) -> String {
        let moves = self.tree.moves_to(&NodePath::root().child(index));
        moves.into_iter().next().unwrap_or_default()
    }

    /// The engine's value of `node` for the side to move there.
    fn probe(&self, node: &NodePath) -> Score {
        let board = self.tree.board_at(node);
        let limits = Limits::depth(self.probe.depth);
        let result = self
            .engine
            .borrow_mut()
            .run(&board, SearchMode::Normal, |searcher| {
                search(searcher, &self.params, &limits, &mut |_| {})
            });
        self.nodes.set(self.nodes.get() + result.stats.nodes);
        self.probes.set(self.probes.get() + 1);
        result.score
    }
}

impl GameTree for ChessBoundedTree {
    fn child_count(&self, node: &NodePath) -> usize {
        self.tree.child_count(node)
    }

    /// Terminal positions keep the chess tree's exact value; nodes at the
    /// horizon get the probe's value.
    fn value_for_side_to_move(&self, leaf: &NodePath) -> Value {
        if leaf.depth() >= self.tree.depth() {
            self.probe(leaf).0
        } else {
            self.tree.value_for_side_to_move(leaf)
        }
    }
}

impl BoundedTree for ChessBoundedTree {
    /// The probe value ± the margin, for the side to move; a mate score is
    /// taken as exact (the engine found the mate in its tree).
    fn bounds(&self, node: &NodePath) -> Bounds {
        let score = self.probe(node);
        let margin = if score.is_mate() {
            0
        } else {
            self.probe.margin
        };
        let (a, b) = (score.0 - margin, score.0 + margin);
        Bounds::new(for_side_to_move(node, a), for_side_to_move(node, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::bstar::search::{BStarOptions, Termination, b_star};

    fn tree(fen: &str, margin: Value) -> ChessBoundedTree {
        let spec = ProbeSpec {
            depth: 1,
            margin,
            horizon: 6,
        };
        ChessBoundedTree::new(Board::from_fen(fen).unwrap(), spec, 1).unwrap()
    }

    #[test]
    fn a_mate_in_one_separates_at_once() {
        // Ra8# is exact (a mate score); every other move's interval is below it.
        let t = tree("6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", 50);
        let outcome = b_star(&t, BStarOptions { max_expansions: 50 });
        assert_eq!(outcome.termination, Termination::Separated);
        assert_eq!(t.root_move(outcome.choice.unwrap()), "a1a8");
        assert!(t.engine_nodes() > 0 && t.probes() > 0);
    }

    #[test]
    fn intervals_are_centred_on_the_probe_for_the_mover() {
        let t = tree("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 30);
        let root_child = NodePath::root().child(0);
        let b = t.bounds(&root_child);
        assert_eq!(b.width(), 60);
        // White is a queen up: for MAX (White) the value is high even where
        // Black is to move.
        assert!(b.lower > 300, "{b:?}");
    }

    #[test]
    fn winning_a_queen_is_found_with_narrow_intervals() {
        // Rxd8+ wins the undefended queen (the king has h7); nothing comes close.
        let t = tree("3q2k1/5pp1/7p/8/8/8/5PPP/3R2K1 w - - 0 1", 40);
        let outcome = b_star(
            &t,
            BStarOptions {
                max_expansions: 200,
            },
        );
        assert_eq!(outcome.termination, Termination::Separated);
        assert_eq!(t.root_move(outcome.choice.unwrap()), "d1d8");
    }
}
