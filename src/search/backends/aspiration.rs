//! Aspiration windows at the root: the iteration's first search uses a
//! window around the previous score, widened and repeated until the value
//! falls inside. Shared by NegaScout and, in Normal mode, AlphaBeta.

use super::Iteration;
use crate::score::{Depth, Score};
use crate::search::node::Searcher;
use crate::search::tunables::{ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW};

/// One iteration at `depth` whose first window is centred on `guess`, with the
/// node scheme the caller has set. `None` when the search was stopped.
pub fn iterate(s: &mut Searcher, depth: Depth, guess: Score) -> Option<Iteration> {
    let mut delta = crate::tp!(ASPIRATION_WINDOW);
    let (mut alpha, mut beta) = if depth >= crate::tp!(ASPIRATION_MIN_DEPTH) && !guess.is_decisive()
    {
        (guess - delta, guess + delta)
    } else {
        (-Score::INFINITE, Score::INFINITE)
    };
    loop {
        let score = s.search_root(alpha, beta, depth);
        if s.stopped() {
            return None;
        }
        if score <= alpha && alpha > -Score::INFINITE {
            s.stats.researches += 1;
            delta *= 2;
            alpha = (score - delta).max(-Score::INFINITE);
        } else if score >= beta && beta < Score::INFINITE {
            s.stats.researches += 1;
            delta *= 2;
            beta = (score + delta).min(Score::INFINITE);
        } else {
            let best = s.root_best?;
            return Some(Iteration {
                score,
                best: best.mv,
            });
        }
    }
}
