//! The static evaluation the search uses — the network or the classical
//! (hand-written, Texel-tuned) evaluation — behind one per-thread cache.
//! Pure mode always uses the classical one, which the research tools and
//! the minimax oracle share.

use super::algorithm::SearchMode;
use super::eval_cache::EvalCache;
use crate::board::Board;
use crate::eval::{evaluate, weights::EVAL_LIMIT};
use crate::nnue::{Network, NetworkEvaluator};
use crate::score::{Ply, Score};
use shakmaty::Position;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Which static evaluation a Normal-mode search uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The network of `crate::nnue`: the built-in one, or the `EvalFile` option's.
    Network,
    /// The tapered hand-written evaluation of `crate::eval`.
    Classical,
}

impl Evaluation {
    pub const ALL: [Evaluation; 2] = [Evaluation::Network, Evaluation::Classical];

    /// The evaluation a search uses unless told otherwise (the `Evaluation`
    /// option's default).
    pub const DEFAULT: Evaluation = Evaluation::Network;

    /// The names of `ALL`, in its order (the `Evaluation` option's values).
    pub const NAMES: [&'static str; Evaluation::ALL.len()] = {
        let mut names = [""; Evaluation::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Evaluation::ALL[i].name();
            i += 1;
        }
        names
    };

    pub const fn name(self) -> &'static str {
        match self {
            Evaluation::Network => "Network",
            Evaluation::Classical => "Classical",
        }
    }

    /// The evaluation a search in `mode` uses when this one is chosen:
    /// Pure mode always uses the classical one.
    pub fn in_mode(self, mode: SearchMode) -> Evaluation {
        match mode {
            SearchMode::Pure => Evaluation::Classical,
            SearchMode::Normal => self,
        }
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Evaluation {
    type Err = String;
    fn from_str(s: &str) -> Result<Evaluation, String> {
        Evaluation::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown evaluation '{s}' (Network or Classical)"))
    }
}

impl Default for Evaluation {
    fn default() -> Evaluation {
        Evaluation::DEFAULT
    }
}

/// The network's evaluation of `board`, clamped like the classical one.
/// Against a bare king the classical evaluation answers instead: the
/// network has seen few such endings and scores them all alike (a lone
/// rook about +2.4), where the classical one knows material and drives the
/// king to the edge, which the search needs to find the mate.
pub fn network_evaluate(network: &mut NetworkEvaluator, board: &Board, ply: Ply) -> Score {
    let pos = board.pos();
    let pieces = pos.board();
    if pieces.white().count() == 1 || pieces.black().count() == 1 {
        return evaluate(board);
    }
    let cp = network.evaluate(pos.board(), pos.turn(), ply);
    Score(cp.clamp(-EVAL_LIMIT, EVAL_LIMIT))
}

/// One thread's static evaluation.
#[derive(Default)]
pub struct StaticEval {
    cache: EvalCache,
    /// The evaluation whose values the cache holds.
    cached: Evaluation,
    network: NetworkEvaluator,
}

impl StaticEval {
    /// `board`'s evaluation by `kind`, reached at `ply` of the search line.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, ply: Ply, kind: Evaluation) -> Score {
        if kind != self.cached {
            self.cache.clear();
            self.cached = kind;
        }
        let network = &mut self.network;
        self.cache.get_or_insert_with(board.key(), || match kind {
            Evaluation::Classical => evaluate(board),
            Evaluation::Network => network_evaluate(network, board, ply),
        })
    }

    pub fn clear(&mut self) {
        self.cache.clear();
    }

    /// Evaluates with `network` from now on (the engine's `EvalFile`).
    pub fn use_network(&mut self, network: &Arc<Network>) {
        if !Arc::ptr_eq(self.network.network(), network) {
            self.network = NetworkEvaluator::new(network.clone());
            if self.cached == Evaluation::Network {
                self.cache.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::playout_fens;
    use crate::nnue::{OUTPUT_SCALE, QA, QB};

    #[test]
    fn names_parse_back_and_nonsense_is_refused() {
        for e in Evaluation::ALL {
            assert_eq!(e.name().parse::<Evaluation>(), Ok(e));
            assert_eq!(e.name().to_lowercase().parse::<Evaluation>(), Ok(e));
        }
        assert!("Neural".parse::<Evaluation>().is_err());
    }

    #[test]
    fn a_bare_king_is_left_to_the_classical_evaluation() {
        let mut network = NetworkEvaluator::default();
        for fen in [
            "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
            "8/8/8/4k3/8/8/4K3/8 b - - 0 1",
            "2k5/8/8/1K6/8/8/8/7R w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            assert_eq!(network_evaluate(&mut network, &board, 0), evaluate(&board));
        }
        // Otherwise it is the network's own.
        let board = Board::from_fen("4k3/p7/8/8/8/8/8/r3K2R w - - 0 1").unwrap();
        let pos = board.pos();
        let own = NetworkEvaluator::default().evaluate(pos.board(), pos.turn(), 0);
        assert_eq!(network_evaluate(&mut network, &board, 0), Score(own));
    }

    /// Cached or not, switching back and forth, every answer is the
    /// chosen evaluation's own.
    #[test]
    fn answers_are_the_chosen_evaluation() {
        let boards: Vec<Board> = playout_fens(20)
            .iter()
            .map(|f| Board::from_fen(f).unwrap())
            .collect();
        let mut fresh = NetworkEvaluator::default();
        let mut eval = StaticEval::default();
        for round in 0..4 {
            let kind = Evaluation::ALL[round % 2];
            for (i, board) in boards.iter().enumerate() {
                let expected = match kind {
                    Evaluation::Classical => evaluate(board),
                    Evaluation::Network => network_evaluate(&mut fresh, board, 0),
                };
                assert_eq!(eval.evaluate(board, (i % 7) as Ply, kind), expected);
            }
        }
    }

    /// After `use_network`, answers (cached or not) are the new network's;
    /// the same network again keeps the cache.
    #[test]
    fn another_network_takes_over() {
        let mut bytes = Network::embedded().to_bytes();
        // The output biases, one i32 per bucket, end the file; one pawn
        // more in each is one pawn more for every position.
        let biases_at = bytes.len() - 4 * Network::embedded().buckets();
        let pawn = 100 * QA * QB / OUTPUT_SCALE;
        for bias_bytes in bytes[biases_at..].chunks_exact_mut(4) {
            let bias = i32::from_le_bytes(bias_bytes.try_into().unwrap());
            bias_bytes.copy_from_slice(&(bias + pawn).to_le_bytes());
        }
        let other = Arc::new(Network::from_bytes(&bytes).unwrap());
        let board = Board::from_fen("4k3/p7/8/8/8/8/8/r3K2R w - - 0 1").unwrap();
        let mut eval = StaticEval::default();
        let before = eval.evaluate(&board, 0, Evaluation::Network);
        eval.use_network(&other);
        let after = eval.evaluate(&board, 0, Evaluation::Network);
        let expected = network_evaluate(&mut NetworkEvaluator::new(other.clone()), &board, 0);
        assert_eq!(after, expected);
        assert_ne!(after, before);
        eval.use_network(&other);
        assert_eq!(eval.evaluate(&board, 3, Evaluation::Network), expected);
    }
}
