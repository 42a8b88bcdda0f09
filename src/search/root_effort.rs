//! The root's effort: the nodes spent under each root move over every pass
//! of one line's iteration (aspiration re-searches, null-window passes), and
//! a move's share of them, which the time manager reads.

use crate::tt::PackedMove;
use shakmaty::Move;

/// More than the legal moves of any chess position (218 at most).
pub const MAX_ROOT_MOVES: usize = 256;

/// Nodes per root move, in fixed arrays (counting allocates nothing); the
/// moves are kept packed, so that finding one is a scan of 16-bit keys.
#[derive(Clone)]
pub struct RootEffort {
    moves: [PackedMove; MAX_ROOT_MOVES],
    nodes: [u64; MAX_ROOT_MOVES],
    len: usize,
    total: u64,
}

impl Default for RootEffort {
    fn default() -> RootEffort {
        RootEffort {
            moves: [PackedMove::NONE; MAX_ROOT_MOVES],
            nodes: [0; MAX_ROOT_MOVES],
            len: 0,
            total: 0,
        }
    }
}

impl RootEffort {
    /// Counting for `moves`.
    pub fn for_moves(moves: &[Move]) -> RootEffort {
        let mut effort = RootEffort::default();
        effort.set_moves(moves);
        effort
    }

    /// Starts counting afresh for `moves` (moves past `MAX_ROOT_MOVES`,
    /// which no legal position has, are not counted).
    pub fn set_moves(&mut self, moves: &[Move]) {
        self.len = moves.len().min(MAX_ROOT_MOVES);
        for (key, &m) in self.moves.iter_mut().zip(moves) {
            *key = PackedMove::pack(m);
        }
        self.nodes[..self.len].fill(0);
        self.total = 0;
    }

    /// Adds `nodes` spent under the root move `mv` (not one of the moves
    /// set: ignored).
    #[inline]
    pub fn add(&mut self, mv: Move, nodes: u64) {
        if let Some(index) = self.index(mv) {
            self.nodes[index] += nodes;
            self.total += nodes;
        }
    }

    /// The nodes counted under `mv`.
    pub fn nodes(&self, mv: Move) -> u64 {
        self.index(mv).map_or(0, |index| self.nodes[index])
    }

    /// The nodes counted under all root moves.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The share (0 to 1) of all counted nodes spent under `mv`; `None`
    /// before any node was counted.
    pub fn share(&self, mv: Move) -> Option<f64> {
        (self.total > 0).then(|| self.nodes(mv) as f64 / self.total as f64)
    }

    #[inline]
    fn index(&self, mv: Move) -> Option<usize> {
        let key = PackedMove::pack(mv);
        self.moves[..self.len].iter().position(|&k| k == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn the_share_is_the_moves_nodes_over_all_counted_nodes() {
        let board = Board::from_fen("4k3/8/8/8/8/8/4P3/4K2R w K - 0 1").unwrap();
        let legal = board.legal_moves();
        let [a, b, c, outside] =
            ["e2e3", "e1h1", "h1h8", "e2e4"].map(|m| board.parse_uci(m).unwrap());
        let mut effort = RootEffort::default();
        effort.set_moves(&[a, b, c]);
        assert_eq!(effort.share(a), None, "nothing counted yet");
        // Two passes over three moves: castling takes 600 of 1000 nodes.
        for (mv, nodes) in [(a, 100), (b, 400), (c, 50), (b, 200), (a, 150), (c, 100)] {
            effort.add(mv, nodes);
        }
        assert_eq!(effort.nodes(b), 600);
        assert_eq!(effort.total(), 1000);
        assert_eq!(effort.share(b), Some(0.6));
        assert_eq!(effort.share(a), Some(0.25));
        // A move outside the set is neither counted nor a panic.
        effort.add(outside, 1_000_000);
        assert_eq!(effort.share(outside), Some(0.0));
        assert_eq!(effort.share(b), Some(0.6));
        // Set again, every count starts from nothing.
        effort.set_moves(&legal);
        assert_eq!(effort.share(b), None);
        effort.add(outside, 10);
        assert_eq!(effort.share(outside), Some(1.0));
        assert_eq!(effort.nodes(b), 0);
    }
}
