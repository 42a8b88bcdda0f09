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
