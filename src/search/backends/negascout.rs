//! NegaScout (principal variation search, Reinefeld 1983): interior nodes
//! search the first child with the full window and the rest with a null
//! window; the root adds an aspiration window around the previous score,
//! widened and re-searched until the value falls inside.

use super::{Iteration, aspiration};
use crate::score::{Depth, Score};
use crate::search::node::{NodeScheme, PvLine, Searcher};

pub fn iterate(s: &mut Searcher, depth: Depth, guess: Score) -> Option<Iteration> {
    s.scheme = NodeScheme::Pvs;
    s.pv_line = PvLine::WideWindow;
    aspiration::iterate(s, depth, guess)
}
