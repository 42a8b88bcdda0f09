//! NegaScout (principal variation search, Reinefeld 1983): interior nodes
//! search the first child with the full window and the rest with a null
//! window; the root adds an aspiration window around the previous score,
//! widened and re-searched until the value falls inside.

use super::Iteration;
use crate::score::{Depth, Score};
use crate::search::node::{NodeScheme, Searcher};

/// Half-width of the first aspiration window, in centipawns.
const ASPIRATION_WINDOW: i32 = 25;
/// Aspiration starts once iterations are this deep (earlier ones are cheap and noisy).
const ASPIRATION_MIN_DEPTH: Depth = 4;

pub fn iterate(s: &mut Searcher, depth: Depth, guess: Score) -> Option<Iteration> {
    s.scheme = NodeScheme::Pvs;
    let mut delta = ASPIRATION_WINDOW;
    let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && !guess.is_mate() {
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
