//! The back ends: each is only a root strategy — which windows it asks the
//! shared node procedure for, and in which order. `iterate` dispatches one
//! iteration of iterative deepening to the selected one.

pub mod alphabeta;
pub mod aspiration;
pub mod mtd;
pub mod negascout;

use super::Algorithm;
use super::node::Searcher;
use crate::score::{Depth, Score};
use shakmaty::Move;

/// The outcome of one completed iteration.
#[derive(Copy, Clone, Debug)]
pub struct Iteration {
    /// The exact value of the root at this depth (for the searched root moves).
    pub score: Score,
    pub best: Move,
}

/// Runs one iteration at `depth`; `guess` is the previous iteration's score.
/// `None` when the search was stopped before the iteration finished.
pub fn iterate(
    algorithm: Algorithm,
    s: &mut Searcher,
    depth: Depth,
    guess: Score,
) -> Option<Iteration> {
    match algorithm {
        Algorithm::AlphaBeta => alphabeta::iterate(s, depth, guess),
        Algorithm::NegaScout => negascout::iterate(s, depth, guess),
        Algorithm::MTDf => mtd::iterate(s, depth, mtd::FirstGuess::Previous, guess),
        Algorithm::SSS => mtd::iterate(s, depth, mtd::FirstGuess::PlusInfinity, guess),
        Algorithm::DUAL => mtd::iterate(s, depth, mtd::FirstGuess::MinusInfinity, guess),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::SearchMode;

    #[test]
    fn every_back_end_counts_each_root_moves_nodes_over_all_its_passes() {
        // A middlegame with captures and checks: several passes (aspiration
        // re-searches, null-window passes) per iteration.
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        for mode in [SearchMode::Normal, SearchMode::Pure] {
            for algorithm in Algorithm::ALL {
                let board = Board::from_fen(fen).unwrap();
                let mut s = Searcher::standalone(board, 4, mode).unwrap();
                let legal = s.board.legal_moves();
                let (mut guess, mut passes) = (Score::ZERO, 0);
                let depth = if mode == SearchMode::Pure { 3 } else { 6 };
                for d in 1..=depth {
                    s.set_root_moves(&legal);
                    let (nodes, before) = (s.stats.nodes, s.stats.passes);
                    let it = iterate(algorithm, &mut s, d, guess).expect("not stopped");
                    guess = it.score;
                    passes = s.stats.passes - before;
                    // Every node of the iteration but each pass's root node
                    // lies under one root move.
                    let effort = s.root_effort();
                    let by_move: u64 = legal.iter().map(|&m| effort.nodes(m)).sum();
                    assert_eq!(by_move, effort.total(), "{algorithm} {mode:?} depth {d}");
                    assert_eq!(
                        effort.total(),
                        s.stats.nodes - nodes - passes,
                        "{algorithm} {mode:?} depth {d}"
                    );
                    let share = s.root_move_share(it.best).expect("counted");
                    assert!(share > 0.0 && share <= 1.0, "{algorithm} {mode:?}: {share}");
                    assert_eq!(share, effort.nodes(it.best) as f64 / effort.total() as f64);
                }
                if matches!(
                    algorithm,
                    Algorithm::MTDf | Algorithm::SSS | Algorithm::DUAL
                ) {
                    assert!(passes > 1, "{algorithm}: one pass only, nothing summed");
                }
            }
        }
    }
}
