//! Chess positions as a `GameTree`: children are the legal moves in a fixed
//! order, leaves are the horizon (static evaluation, no quiescence) and the
//! terminal positions (mate, stalemate, draws by rule).

use crate::research::trees::tree::{GameTree, MAX_DEPTH, NodePath, Value};
use shakmaty::Move;
use std::cell::RefCell;
use stockman::board::Board;
use stockman::eval::evaluate;
use stockman::score::Score;

/// In which fixed order a node's legal moves become its children.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum ChessMoveOrder {
    /// The move generator's order (what a search without move ordering sees).
    #[default]
    Generated,
    /// Sorted by UCI text: independent of the move generator's internals.
    UciText,
}

/// The game tree below a position, cut at a fixed depth.
pub struct ChessTree {
    depth: usize,
    order: ChessMoveOrder,
    /// Where the last question left us; moved along the tree on demand so a
    /// depth-first search replays only one move per step.
    cursor: RefCell<Cursor>,
}

/// A board positioned at `path`, with the ordered moves of every node on the
/// way (`moves[k]` belongs to the node at depth k).
struct Cursor {
    board: Board,
    path: NodePath,
    moves: Vec<Vec<Move>>,
}

impl ChessTree {
    /// The tree below `root` to `depth` plies. Repetitions of positions
    /// reached inside the tree are draws at twofold, as in the engine.
    pub fn new(mut root: Board, depth: usize, order: ChessMoveOrder) -> Result<ChessTree, String> {
        if depth > MAX_DEPTH {
            return Err(format!("depth {depth} is too large (at most {MAX_DEPTH})"));
        }
        root.set_root();
        let moves = vec![ordered_moves(&root, order)];
        Ok(ChessTree {
            depth,
            order,
            cursor: RefCell::new(Cursor {
                board: root,
                path: NodePath::root(),
                moves,
            }),
        })
    }

    pub fn from_fen(fen: &str, depth: usize, order: ChessMoveOrder) -> Result<ChessTree, String> {
        ChessTree::new(Board::from_fen(fen)?, depth, order)
    }

    /// The position at `node` (its history from the root included).
    pub fn board_at(&self, node: &NodePath) -> Board {
        let mut cursor = self.cursor.borrow_mut();
        cursor.go_to(node, self.order);
        cursor.board.clone()
    }

    /// The horizon: nodes this deep are leaves.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The moves from the root to `node`, in UCI notation.
    pub fn moves_to(&self, node: &NodePath) -> Vec<String> {
        let mut cursor = self.cursor.borrow_mut();
        cursor.go_to(node, self.order);
        node.indices()
            .iter()
            .enumerate()
            .map(|(k, &i)| cursor.board.uci(cursor.moves[k][usize::from(i)]))
            .collect()
    }
}

fn ordered_moves(board: &Board, order: ChessMoveOrder) -> Vec<Move> {
    let mut moves: Vec<Move> = board.legal_moves().into_iter().collect();
    if order == ChessMoveOrder::UciText {
        moves.sort_by_cached_key(|&m| board.uci(m));
    }
    moves
}

impl Cursor {
    fn go_to(&mut self, target: &NodePath, order: ChessMoveOrder) {
        let common = self
            .path
            .indices()
            .iter()
            .zip(target.indices())
            .take_while(|(a, b)| a == b)
            .count();
        while self.path.depth() > common {
            self.board.undo();
            self.moves.pop();
            self.path = self.path.parent().expect("deeper than the common prefix");
        }
        for &i in &target.indices()[common..] {
            let m = self.moves[self.path.depth()][usize::from(i)];
            self.board.play(m);
            self.path = self.path.child(usize::from(i));
            self.moves.push(ordered_moves(&self.board, order));
        }
    }

    /// Is the current node terminal: no legal moves, or drawn by rule?
    fn is_terminal(&self) -> bool {
        self.moves[self.path.depth()].is_empty() || self.board.is_draw()
    }
}

impl GameTree for ChessTree {
    fn child_count(&self, node: &NodePath) -> usize {
        if node.depth() >= self.depth {
            return 0;
        }
        let mut cursor = self.cursor.borrow_mut();
        cursor.go_to(node, self.order);
        if cursor.is_terminal() {
            0
        } else {
            cursor.moves[node.depth()].len()
        }
    }

    fn value_for_side_to_move(&self, leaf: &NodePath) -> Value {
        let mut cursor = self.cursor.borrow_mut();
        cursor.go_to(leaf, self.order);
        let score = if cursor.moves[leaf.depth()].is_empty() {
            if cursor.board.in_check() {
                Score::mated_in(leaf.depth())
            } else {
                Score::DRAW
            }
        } else if cursor.board.is_draw() {
            Score::DRAW
        } else {
            evaluate(&cursor.board)
        };
        score.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::leaves::LeafLog;
    use crate::research::trees::minimax::minimax;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn leaves_at_depth_three_are_perft_three() {
        let tree = ChessTree::from_fen(START, 3, ChessMoveOrder::Generated).unwrap();
        assert_eq!(tree.child_count(&NodePath::root()), 20);
        let mut log = LeafLog::new(&tree, false);
        let value = minimax(&tree, &mut log);
        assert_eq!(log.finish().distinct, 8902);
        let mut ab_log = LeafLog::new(&tree, false);
        assert_eq!(
            crate::research::trees::alphabeta::alpha_beta(&tree, &mut ab_log),
            value
        );
        assert!(ab_log.finish().distinct < 8902);
    }

    #[test]
    fn mate_and_stalemate_are_terminal() {
        // Back-rank mate in one: Ra8#.
        let tree = ChessTree::from_fen(
            "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1",
            2,
            ChessMoveOrder::UciText,
        )
        .unwrap();
        let mut log = LeafLog::new(&tree, false);
        assert_eq!(minimax(&tree, &mut log), Score::mate_in(1).0);
        // Black to move, stalemated: the root is a leaf worth a draw.
        let tree = ChessTree::from_fen(
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            3,
            ChessMoveOrder::Generated,
        )
        .unwrap();
        assert_eq!(tree.child_count(&NodePath::root()), 0);
        assert_eq!(tree.value_for_side_to_move(&NodePath::root()), 0);
    }

    #[test]
    fn move_orders_and_paths() {
        let tree = ChessTree::from_fen(START, 2, ChessMoveOrder::UciText).unwrap();
        let node = NodePath::root().child(0).child(0);
        // Sorted by UCI text, the first move is a2a3, and so is Black's a7a5.
        assert_eq!(tree.moves_to(&node), ["a2a3", "a7a5"]);
        // Jumping around the tree leaves the cursor consistent.
        let other = NodePath::root().child(19).child(19);
        assert_eq!(tree.moves_to(&other), ["h2h4", "h7h6"]);
        assert_eq!(tree.moves_to(&node), ["a2a3", "a7a5"]);
    }
}
