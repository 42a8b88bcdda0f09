//! The quiescence search below the horizon: stand pat, then captures and
//! queen promotions (every evasion in check), with delta pruning and the TT
//! in Normal mode.

use super::Searcher;
use crate::score::{MAX_PLY, Ply, Score};
use crate::search::SearchMode;
use crate::search::history::threats;
use crate::search::ordering::{CaptureOrder, MovePicker, OrderingContext};
use crate::search::selectivity::*;
use crate::search::tactical_moves::tactical_moves;
use crate::search::tunables::*;
use crate::tp;
use crate::tt::{Bound, PackedMove, TtHit};

impl Searcher {
    /// Quiescence: stand pat or try captures and queen promotions; in check,
    /// every evasion. Normal mode leaves out captures that lose by SEE.
    pub fn qsearch(&mut self, alpha: Score, beta: Score, ply: Ply) -> Score {
        if ply > 0 && self.enter_node(ply) {
            return Score::ZERO;
        }
        self.quiescence_body(alpha, beta, ply)
    }

    /// The quiescence search of a node already counted by `enter_node`.
    /// In Normal mode it reads and writes the TT (at depth 0) and skips
    /// captures that cannot bring the score back to alpha (delta pruning).
    pub(super) fn quiescence_body(&mut self, mut alpha: Score, beta: Score, ply: Ply) -> Score {
        self.stats.qnodes += 1;
        if ply >= MAX_PLY - 1 {
            return self.leaf_eval(ply).1;
        }
        let selective = self.mode == SearchMode::Normal;
        let key = self.board.key();
        let hit = if selective {
            self.tt.probe(key, ply)
        } else {
            None
        };
        if let Some(h) = hit
            && let Some(score) = h.cut(QSEARCH_DEPTH, alpha, beta, false)
        {
            return score;
        }
        let alpha_orig = alpha;
        let in_check = self.board.in_check();
        let mut best = -Score::INFINITE;
        let mut stand_pat = -Score::INFINITE;
        if !in_check {
            let (_, eval) = self.leaf_eval(ply);
            stand_pat = refine_with_tt(eval, hit);
            if stand_pat >= beta {
                return stand_pat;
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
        }
        let delta_prune = selective && !in_check && is_plain(alpha);
        let mut picker = MovePicker::empty();
        if !self.fill_quiescence_picker(&mut picker, in_check) {
            return Score::mated_in(ply);
        }
        let mut best_move = None;
        for m in &mut picker {
            if delta_prune && capture_is_futile(stand_pat, m, tp!(DELTA_MARGIN), alpha) {
                continue;
            }
            self.board.play(m);
            self.tt.prefetch(self.board.key());
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.board.undo();
            if self.stopped {
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if selective {
            let bound = Bound::of_result(best, alpha_orig, beta);
            self.tt
                .store(key, ply, best_move, best, QSEARCH_DEPTH, bound);
        }
        best
    }

    /// Fills the picker with a quiescence node's moves: every evasion in
    /// check (false when there is none: mate), else the captures and queen
    /// promotions (Normal mode leaves out those that lose by SEE).
    #[inline(always)]
    fn fill_quiescence_picker(&self, picker: &mut MovePicker, in_check: bool) -> bool {
        if !in_check {
            let moves = tactical_moves(self.board.pos());
            let skip_losing = self.mode == SearchMode::Normal;
            picker.fill_tactical(&moves, self.board.pos(), skip_losing);
            return true;
        }
        let evasions = self.board.legal_moves();
        if evasions.is_empty() {
            return false;
        }
        picker.fill(
            &evasions,
            &OrderingContext {
                pos: self.board.pos(),
                tt_move: PackedMove::NONE,
                killers: [None, None],
                history: &self.tables.history,
                threats: threats(self.board.pos()),
                continuation: None,
                counter_move: None,
                captures: CaptureOrder::MvvLvaOnly,
                capture_history: None,
            },
        );
        true
    }
}

/// The static evaluation, replaced by a stored search bound that is known to
/// lie on the far side of it (a better estimate of the node's value): raised
/// to a lower bound above it, else lowered as the main search's pruning may
/// lower it (`lowered_by_tt`).
fn refine_with_tt(eval: Score, hit: Option<TtHit>) -> Score {
    match hit {
        Some(h) if is_plain(h.lower) && h.lower > eval => h.lower,
        _ => super::lowered_by_tt(eval, hit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// Quiescence searches captures and promotions: Chess960 castling, which
    /// shakmaty writes as the king taking its own rook, is not one. Where
    /// castling is the only move that could pass for a capture, quiescence
    /// searches the node alone.
    #[test]
    fn castling_is_not_searched_in_quiescence() {
        for fen in [
            "4k3/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HA - 0 1",
            "1k6/8/8/8/8/8/8/1KR4R w C - 0 1",
            "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR b HAha - 0 1",
            "3rkr2/pppppppp/8/8/8/8/PPPPPPPP/3RKR2 w FDfd - 0 1",
        ] {
            let board = Board::from_fen_960(fen, true).unwrap();
            assert!(board.legal_moves().iter().any(|m| m.is_castle()), "{fen}");
            for mode in [SearchMode::Normal, SearchMode::Pure] {
                let mut s = Searcher::standalone(board.clone(), 1, mode).unwrap();
                s.qsearch(-Score::INFINITE, Score::INFINITE, 0);
                assert_eq!(s.stats.qnodes, 1, "{fen} {mode:?}");
            }
        }
    }
}
