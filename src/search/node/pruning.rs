//! The steps of a node before its move loop that may end it early: the
//! TT's and the tablebases' known values, reverse futility, the null move,
//! ProbCut, and the singular-extension search of the TT move.

use super::{Node, NodeKind, Searcher};
use crate::score::{Depth, MAX_PLY, Ply, Score};
use crate::search::SearchMode;
use crate::search::ordering::MovePicker;
use crate::search::see::see_at_least;
use crate::search::selectivity::*;
use crate::search::tactical_moves::tactical_moves;
use crate::search::tunables::*;
use crate::tp;
use crate::tt::{Bound, TtHit};
use shakmaty::Move;
use std::ops::ControlFlow;

/// A tablebase result is stored as this much deeper than the node: no
/// search of the usual depths knows more (Stockfish's +6).
const TB_DEPTH_BONUS: Depth = 6;

/// What the search without the TT move says about it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Singularity {
    /// Every other move fails low by the margin: the TT move is extended.
    Singular,
    /// Other moves reach beta as well: the node fails high with this score.
    MultiCut(Score),
    /// Neither: the TT move is searched as usual.
    Ordinary,
}

impl Searcher {
    /// The node's value when the TT or the tablebases already bound it on
    /// the right side of the window (the TT only to the node's depth; in
    /// Pure mode to exactly that depth, so that the value stays the
    /// depth-d minimax value).
    #[inline]
    pub(super) fn known_value(
        &mut self,
        hit: Option<TtHit>,
        key: u64,
        alpha: Score,
        beta: Score,
        depth: Depth,
        ply: Ply,
    ) -> Option<Score> {
        let selective = self.mode == SearchMode::Normal;
        if let Some(h) = hit
            && let Some(score) = h.cut(depth, alpha, beta, !selective)
        {
            return Some(score);
        }
        // The tablebases know this node's value (right after a capture or a
        // pawn move): a bound on the right side of the window ends the node.
        let tb = self.tablebase_value(depth, ply)?;
        let cuts = match tb.bound {
            Bound::Exact => true,
            Bound::Lower => tb.score >= beta,
            Bound::Upper => tb.score <= alpha,
        };
        if !cuts {
            return None;
        }
        let stored_depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as Depth - 1);
        self.tt
            .store(key, ply, None, tb.score, stored_depth, tb.bound);
        Some(tb.score)
    }

    /// Pruning before any move is searched, at a quiet non-PV node of
    /// Normal mode: reverse futility, the null move and ProbCut. The value
    /// to return when one of them ends the node (zero when stopped).
    #[inline]
    pub(super) fn prune_before_moves(
        &mut self,
        beta: Score,
        depth: Depth,
        ply: Ply,
        static_eval: Score,
        improving: bool,
        hit: Option<TtHit>,
    ) -> Option<Score> {
        // Reverse futility takes the static evaluation for the value:
        // only against a plain beta (against a beta that every value
        // reaches it would claim "not mated" from the evaluation alone).
        if is_plain(beta)
            && depth <= tp!(RFP_MAX_DEPTH)
            && static_eval - tp!(RFP_MARGIN_PER_DEPTH) * (depth - Depth::from(improving)) >= beta
        {
            return Some(static_eval);
        }
        if let Some(score) = self.null_move(beta, depth, ply, static_eval, hit) {
            return Some(score);
        }
        // ProbCut: a capture that beats beta by a margin in a shallow search
        // very likely beats beta in the full one (unless the TT says it does not).
        if depth >= tp!(PROBCUT_MIN_DEPTH) && is_plain(beta) {
            let probcut_beta = beta + tp!(PROBCUT_MARGIN);
            let tt_says_no = hit.is_some_and(|h| {
                h.depth > depth - tp!(PROBCUT_REDUCTION) && h.upper < probcut_beta
            });
            if is_plain(probcut_beta) && !tt_says_no {
                if let Some(score) = self.probcut(probcut_beta, static_eval, depth, ply) {
                    return Some(score);
                }
                if self.stopped {
                    return Some(Score::ZERO);
                }
            }
        }
        None
    }

    /// The null move: the side to move passes and the opponent searches a
    /// reduced null window around beta. That window may also be open (the
    /// first MT-DUAL* pass, the MIN nodes of the first MT-SSS* pass): then
    /// it shows a value from a real search. Not tried where the TT entry
    /// `hit` bounds the node below beta (a search found nothing reaching
    /// it). The node's value when passing already holds beta (zero when
    /// stopped).
    #[inline(always)]
    fn null_move(
        &mut self,
        beta: Score,
        depth: Depth,
        ply: Ply,
        static_eval: Score,
        hit: Option<TtHit>,
    ) -> Option<Score> {
        if (is_plain(beta) || beta_is_open(beta, ply))
            && depth >= tp!(NULL_MIN_DEPTH)
            && static_eval >= beta
            && hit.is_none_or(|h| h.upper >= beta)
            && !self.board.after_null()
            && self.board.has_non_pawn_material(self.board.turn())
            && self.board.play_null()
        {
            self.enter_null_line(ply);
            let reduction = tp!(NULL_BASE_REDUCTION)
                + depth / tp!(NULL_DEPTH_DIVISOR)
                + ((static_eval.0 - beta.0) / tp!(NULL_EVAL_STEP)).min(tp!(NULL_EVAL_MAX));
            let score = -self.negamax(
                -beta,
                -beta + 1,
                depth - 1 - reduction,
                ply + 1,
                NodeKind::All,
            );
            self.board.undo();
            if self.stopped {
                return Some(Score::ZERO);
            }
            // A win found after passing is a mate one ply too far (or
            // none: a zugzwang), so it only claims beta; any other value
            // is the null move's lower bound, a loss by mate included
            // (at an open bound it tells the MT drivers how far off the
            // mate is instead of one ply at a time).
            if score >= beta {
                return Some(if score < Score::TB_BOUND { score } else { beta });
            }
        }
        None
    }

    /// ProbCut's search: the captures that win at least `probcut_beta` less
    /// the static evaluation by exchange, each first in quiescence and then
    /// to `depth - PROBCUT_REDUCTION` with a null window at `probcut_beta`.
    /// The score of the first that holds (stored as a lower bound), else `None`.
    pub(super) fn probcut(
        &mut self,
        probcut_beta: Score,
        static_eval: Score,
        depth: Depth,
        ply: Ply,
    ) -> Option<Score> {
        let moves = tactical_moves(self.board.pos());
        let mut picker = MovePicker::empty();
        picker.fill_tactical(&moves, self.board.pos(), false);
        let key = self.board.key();
        let turn = self.board.turn();
        let exchange_needed = probcut_beta.0 - static_eval.0;
        for m in &mut picker {
            if !see_at_least(self.board.pos(), m, exchange_needed) {
                continue;
            }
            self.board.play(m);
            self.tt.prefetch(self.board.key());
            self.enter_line(ply, turn, m);
            let mut score = -self.qsearch(-probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta && !self.stopped {
                let reduced = depth - tp!(PROBCUT_REDUCTION);
                score = -self.negamax(
                    -probcut_beta,
                    -probcut_beta + 1,
                    reduced,
                    ply + 1,
                    NodeKind::All,
                );
            }
            self.board.undo();
            if self.stopped {
                return None;
            }
            if score >= probcut_beta {
                let stored_depth = depth - tp!(PROBCUT_REDUCTION) + 1;
                self.tt
                    .store(key, ply, Some(m), score, stored_depth, Bound::Lower);
                return Some(if is_plain(score) { score } else { probcut_beta });
            }
        }
        None
    }

    /// Is the TT move `tt_move`, whose stored lower bound is `tt_lower`,
    /// singular: do all the other moves fail low against that bound less a
    /// margin, in a null-window search to half the depth without it? Leaves
    /// the TT entry of the node as it was. `None` when the search was stopped.
    pub(super) fn singularity(
        &mut self,
        tt_move: Move,
        tt_lower: Score,
        beta: Score,
        depth: Depth,
        ply: Ply,
    ) -> Option<Singularity> {
        let singular_beta = self
            .grain
            .floor(tt_lower - tp!(SINGULAR_MARGIN_PER_DEPTH) * depth);
        self.excluded[ply] = Some(tt_move);
        let score = self.negamax(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            NodeKind::All,
        );
        self.excluded[ply] = None;
        if self.stopped {
            None
        } else if score < singular_beta {
            Some(Singularity::Singular)
        } else if singular_beta >= beta {
            Some(Singularity::MultiCut(singular_beta))
        } else {
            Some(Singularity::Ordinary)
        }
    }

    /// The TT move's extension: a ply when it is singular (see
    /// `singularity`), none otherwise; `Break` with the node's value when
    /// the search without it already fails high (multi-cut) or was stopped.
    #[inline]
    pub(super) fn singular_extension(
        &mut self,
        tt_first: Option<Move>,
        hit: Option<TtHit>,
        beta: Score,
        node: &Node,
    ) -> ControlFlow<Score, Depth> {
        let (depth, ply) = (node.depth, node.ply);
        if node.selective
            && !node.root
            && let Some(first) = tt_first
            && let Some(h) = hit
            && depth >= tp!(SINGULAR_MIN_DEPTH)
            && h.depth >= depth - tp!(SINGULAR_TT_DEPTH_SLACK)
            && is_plain(h.lower)
            && (ply as Depth) < 2 * self.root_depth
        {
            return match self.singularity(first, h.lower, beta, depth, ply) {
                None => ControlFlow::Break(Score::ZERO),
                Some(Singularity::Singular) => ControlFlow::Continue(1),
                Some(Singularity::MultiCut(score)) => ControlFlow::Break(score),
                Some(Singularity::Ordinary) => ControlFlow::Continue(0),
            };
        }
        ControlFlow::Continue(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::tt::PackedMove;

    /// A queen up with nothing to capture: above reverse futility's depths
    /// the null move alone can end the node against beta 0.
    const QUEEN_UP: &str = "7k/8/8/8/8/8/8/1Q5K w - - 0 1";

    /// What `prune_before_moves` says at depth `RFP_MAX_DEPTH + 1` one ply
    /// below the root against beta 0, with the TT entry `hit`, and how
    /// many nodes it searched.
    fn pruned_with(hit: Option<TtHit>) -> (Option<Score>, u64) {
        let board = Board::from_fen(QUEEN_UP).unwrap();
        let mut s = Searcher::standalone(board, 1, SearchMode::Normal).unwrap();
        let depth = tp!(RFP_MAX_DEPTH) + 1;
        let beta = Score(0);
        let eval = s.leaf_eval(1).1;
        assert!(eval > beta + 500, "{eval:?}");
        let before = s.stats.nodes;
        let value = s.prune_before_moves(beta, depth, 1, eval, true, hit);
        (value, s.stats.nodes - before)
    }

    #[test]
    fn the_null_move_is_not_tried_where_the_tt_bounds_the_node_below_beta() {
        let (value, nodes) = pruned_with(None);
        assert!(value.is_some_and(|v| v >= Score(0)) && nodes > 0);
        let entry = |upper| TtHit {
            mv: PackedMove::NONE,
            depth: 1,
            lower: -Score::INFINITE,
            upper,
        };
        // An upper bound at or above beta says nothing against it.
        let (value, nodes) = pruned_with(Some(entry(Score(0))));
        assert!(value.is_some() && nodes > 0);
        // Below beta: no null move (and nothing else here prunes).
        assert_eq!(pruned_with(Some(entry(Score(-1)))), (None, 0));
    }
}
