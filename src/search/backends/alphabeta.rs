//! AlphaBeta: fail-soft negamax alpha-beta with memory, every node searched
//! with its full window and the root with (-infinity, +infinity).

use super::Iteration;
use crate::score::{Depth, Score};
use crate::search::node::{NodeScheme, Searcher};

pub fn iterate(s: &mut Searcher, depth: Depth) -> Option<Iteration> {
    s.scheme = NodeScheme::AlphaBeta;
    let score = s.search_root(-Score::INFINITE, Score::INFINITE, depth);
    if s.stopped() {
        return None;
    }
    let best = s.root_best?;
    Some(Iteration {
        score,
        best: best.mv,
    })
}
