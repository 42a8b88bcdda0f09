//! The MT family (Plaat, Schaeffer, Pijls and de Bruin 1996): a sequence of
//! null-window calls of the node procedure with memory, each pass tightening
//! an upper or lower bound on the root value until they meet. The first guess
//! makes the algorithm: the previous value (MTD(f)), +infinity (MT-SSS*,
//! upper bounds falling) or -infinity (MT-DUAL*, lower bounds rising).

use super::Iteration;
use crate::score::{Depth, Score};
use crate::search::node::{NodeScheme, PvLine, RootBest, Searcher};
use crate::search::tunables::MT_CHAIN_WINDOW;
use shakmaty::Move;

/// Where the sequence of null-window passes starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FirstGuess {
    /// The previous iteration's value (MTD(f)).
    Previous,
    PlusInfinity,
    MinusInfinity,
}

impl FirstGuess {
    fn start(self, previous: Score) -> Score {
        match self {
            FirstGuess::Previous => previous,
            FirstGuess::PlusInfinity => Score::INFINITE,
            FirstGuess::MinusInfinity => -Score::INFINITE,
        }
    }

    /// Which nodes of the pass at `beta` keep the PV's privileges. Without
    /// them the principal line is pruned like a refutation line
    /// (docs/research.md: with the chain, commit 131e722 of 2026-11-26,
    /// MTDf against NegaScout at 10,000 nodes a move went from -73 to -44
    /// Elo). A pass asks about the principal line only when its bound is
    /// near the value: MTD(f)'s start there; MT-SSS*'s and MT-DUAL*'s arrive
    /// there from an infinite bound, and given the chain on every pass they
    /// lost (-34 and -51 Elo), given it only within `MT_CHAIN_WINDOW` of the
    /// previous iteration's value they gained (commit 4e7d770 of 2026-11-26:
    /// +14 ± 25 for MT-SSS*, +41 ± 23 for MT-DUAL* at 10,000 nodes).
    fn pv_line(self, beta: Score, previous: Score) -> PvLine {
        let near_value = (beta.0 - previous.0).abs() <= crate::tp!(MT_CHAIN_WINDOW);
        match self {
            FirstGuess::Previous => PvLine::FirstMoveChain,
            FirstGuess::PlusInfinity | FirstGuess::MinusInfinity if near_value => {
                PvLine::FirstMoveChain
            }
            FirstGuess::PlusInfinity | FirstGuess::MinusInfinity => PvLine::WideWindow,
        }
    }
}

/// Passes allowed before falling back to one wide-window search (search
/// instability can otherwise make the bounds oscillate).
pub const MAX_PASSES: u32 = 256;

/// One iteration: passes from `first` until the bounds meet; `previous` is
/// the previous iteration's value.
pub fn iterate(
    s: &mut Searcher,
    depth: Depth,
    first: FirstGuess,
    previous: Score,
) -> Option<Iteration> {
    s.scheme = NodeScheme::Pvs;
    let mut lower = -Score::INFINITE;
    let mut upper = Score::INFINITE;
    let mut g = first.start(previous);
    // The move that proved the best lower bound so far.
    let mut best: Option<Move> = None;
    let mut passes = 0;
    while lower < upper {
        if passes == MAX_PASSES {
            log::debug!(
                "MT passes did not converge in {MAX_PASSES}: searching ({lower:?}, {upper:?})"
            );
            return fallback(s, depth, lower, upper, best);
        }
        let beta = if g == lower { g + 1 } else { g };
        s.pv_line = first.pv_line(beta, previous);
        let before = s.stats.nodes;
        g = s.search_root(beta - 1, beta, depth);
        passes += 1;
        log::trace!(
            "MT depth {depth} pass {passes} beta {} -> {} nodes {}",
            beta.0,
            g.0,
            s.stats.nodes - before
        );
        if s.stopped() {
            keep_best_of_iteration(s, best, lower);
            return None;
        }
        if passes > 1 {
            s.stats.researches += 1;
        }
        // A pass that contradicts an earlier one (selective pruning depends
        // on the window, so a fail low can land below a proven lower bound)
        // leaves no bound to trust: one open-window search settles the value.
        let contradicts = if g < beta { g < lower } else { g > upper };
        if contradicts {
            log::debug!("MT pass at {beta:?} returned {g:?} outside ({lower:?}, {upper:?})");
            s.stats.researches += 1;
            return fallback(s, depth, lower.min(g), upper.max(g), best);
        }
        if g < beta {
            upper = g;
        } else {
            lower = g;
            best = s.root_best.map(|b| b.mv);
        }
    }
    let best = best.or(s.root_best.map(|b| b.mv))?;
    Some(Iteration { score: g, best })
}

/// A stopped pass that had not failed high leaves no root move; the
/// iteration's last fail-high pass proved its move worth at least `lower`,
/// and the previous iteration's move (searched first in that pass) less:
/// the driver may play it, reported as a lower bound.
fn keep_best_of_iteration(s: &mut Searcher, best: Option<Move>, lower: Score) {
    if s.root_best.is_none()
        && let Some(mv) = best
    {
        s.root_best = Some(RootBest { mv, score: lower });
    }
}

/// One search with the window just around `lower..=upper`; a value outside
/// it is only a bound, so then one more with the window fully open. Either
/// way the value returned is exact.
fn fallback(
    s: &mut Searcher,
    depth: Depth,
    lower: Score,
    upper: Score,
    best: Option<Move>,
) -> Option<Iteration> {
    let alpha = (lower - 1).max(-Score::INFINITE);
    let beta = (upper + 1).min(Score::INFINITE);
    let mut score = s.search_root(alpha, beta, depth);
    if !s.stopped() && (score <= alpha || score >= beta) {
        s.stats.researches += 1;
        score = s.search_root(-Score::INFINITE, Score::INFINITE, depth);
    }
    if s.stopped() {
        return None;
    }
    let best = s.root_best.map(|b| b.mv).or(best)?;
    Some(Iteration { score, best })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mtdf_passes_search_the_chain_and_the_infinite_starts_only_near_the_value() {
        let previous = Score(40);
        let window = crate::tp!(MT_CHAIN_WINDOW);
        let near = Score(previous.0 + window);
        let far = Score(previous.0 - window - 1);
        for beta in [near, far, Score::INFINITE, -Score::INFINITE + 1] {
            assert_eq!(
                FirstGuess::Previous.pv_line(beta, previous),
                PvLine::FirstMoveChain
            );
        }
        for first in [FirstGuess::PlusInfinity, FirstGuess::MinusInfinity] {
            assert_eq!(first.pv_line(near, previous), PvLine::FirstMoveChain);
            assert_eq!(first.pv_line(previous, previous), PvLine::FirstMoveChain);
            assert_eq!(first.pv_line(far, previous), PvLine::WideWindow);
            assert_eq!(first.pv_line(Score::INFINITE, previous), PvLine::WideWindow);
        }
    }
}
