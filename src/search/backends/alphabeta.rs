//! AlphaBeta: fail-soft negamax alpha-beta with memory, every child searched
//! with its node's full window. Pure mode searches the root with
//! (-infinity, +infinity), the textbook algorithm; Normal mode adds
//! aspiration windows at the root, as NegaScout does.

use super::{Iteration, aspiration};
use crate::score::{Depth, Score};
use crate::search::SearchMode;
use crate::search::node::{NodeScheme, PvLine, Searcher};

pub fn iterate(s: &mut Searcher, depth: Depth, guess: Score) -> Option<Iteration> {
    s.scheme = NodeScheme::AlphaBeta;
    s.pv_line = PvLine::WideWindow;
    if s.mode == SearchMode::Normal {
        return aspiration::iterate(s, depth, guess);
    }
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
