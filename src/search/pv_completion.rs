//! Completing the principal variation a finished iteration shows. The
//! triangular table's line stops where the search stopped building it: at a
//! TT cutoff on the PV, at a node whose depth internal iterative reduction
//! cut, and, for the null-window passes of the MT back ends, after the best
//! move. The line is continued first with the TT's moves, then by small
//! searches of its own (their own table and counters: the searched tree, and
//! so the node counts, stay as they were), until it is as long as the
//! iteration is deep or the game ends on it.

use super::node::Searcher;
use super::{SearchMode, SearchParams, SearchStats};
use crate::board::Board;
use crate::score::{Depth, Score};
use crate::search::time::TimeBudget;
use crate::tt::TranspositionTable;
use shakmaty::Move;

/// How long the principal variation of a finished line is made.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PvLength {
    /// As deep as the iteration at least: continued from the TT and then
    /// by the small searches here, what a GUI shows.
    #[default]
    Full,
    /// As the search and the TT left it, with no search added: for callers
    /// that read only the move and the score (self-play data). The move,
    /// the score and the searched tree are the same either way.
    AsSearched,
}

/// The deepest search one completion step runs (a few thousand nodes at
/// most); a longer remainder takes several steps.
const COMPLETION_DEPTH: Depth = 4;

/// The table of a completion search (MB).
const COMPLETION_HASH_MB: usize = 1;

/// A completion step that needs more nodes than this (tens of times what a
/// step usually takes) is given up, and the line left as long as it is:
/// the steps answer to no `stop`.
const COMPLETION_NODES: u64 = 50_000;

/// Does the line end the game, or end where the search scores a draw (a
/// repetition inside the line counts, as it does in the tree)? Then it is
/// complete whatever its length.
fn ends_here(b: &Board) -> bool {
    b.is_draw() || b.legal_moves().is_empty()
}

/// The board after the line.
fn after(board: &Board, pv: &[Move]) -> Board {
    let mut b = board.clone();
    for &m in pv {
        b.play(m);
    }
    b
}

/// Continues `pv` with the TT's moves, legal and not past a draw, until it
/// has `plies` moves.
pub fn continue_from_tt(board: &Board, tt: &TranspositionTable, pv: &mut Vec<Move>, plies: usize) {
    let mut b = after(board, pv);
    while pv.len() < plies && !b.is_draw() {
        let Some(hit) = tt.probe(b.key(), pv.len()) else {
            break;
        };
        let Some(m) = hit.mv.find_in(&b.legal_moves()) else {
            break;
        };
        pv.push(m);
        b.play(m);
    }
}

/// The searcher of the completion steps, made at the first step a search
/// needs and kept for the rest of it: its table, warm from the earlier
/// iterations' steps along much the same line, makes the later ones cheap.
#[derive(Default)]
pub struct Completion {
    searcher: Option<Searcher>,
}

impl Completion {
    /// Continues `pv` until it has `plies` moves or ends the game: each
    /// step searches the position at its end (at most `COMPLETION_DEPTH`
    /// deep) and appends that search's line.
    pub fn complete(
        &mut self,
        board: &Board,
        params: &SearchParams,
        pv: &mut Vec<Move>,
        plies: usize,
    ) {
        let mut b = after(board, pv);
        while pv.len() < plies && !ends_here(&b) {
            let left = (plies - pv.len()) as Depth;
            let line = self.searched_line(&b, params, left.min(COMPLETION_DEPTH));
            if line.is_empty() {
                break;
            }
            for m in line {
                if pv.len() >= plies || ends_here(&b) || !b.legal_moves().contains(&m) {
                    break;
                }
                pv.push(m);
                b.play(m);
            }
        }
    }

    /// The line of a full-window search of `board` to `depth` (the main
    /// search's evaluation), continued from its table; none when the
    /// search needed more than `COMPLETION_NODES`.
    fn searched_line(&mut self, board: &Board, params: &SearchParams, depth: Depth) -> Vec<Move> {
        let Some(s) = self.searcher_at(board, params) else {
            return Vec::new();
        };
        s.search_root(-Score::INFINITE, Score::INFINITE, depth);
        if s.stopped() {
            // At the node limit: its line is no search's result, and a
            // stopped searcher stays stopped.
            self.searcher = None;
            return Vec::new();
        }
        let Some(best) = s.root_best else {
            return Vec::new();
        };
        let tri = s.pv.line(0);
        let mut line = if tri.first() == Some(&best.mv) {
            tri.to_vec()
        } else {
            vec![best.mv]
        };
        continue_from_tt(&s.board, &s.tt, &mut line, depth as usize);
        line
    }

    /// The searcher, made if need be, rooted at `board` with a fresh node
    /// count. It searches in Normal mode whatever the main search's mode:
    /// a Pure search to the same depth from a crowded position can take
    /// far longer than the iteration did, and this is only the line's tail.
    fn searcher_at(&mut self, board: &Board, params: &SearchParams) -> Option<&mut Searcher> {
        if self.searcher.is_none() {
            let mut s =
                Searcher::standalone(board.clone(), COMPLETION_HASH_MB, SearchMode::Normal).ok()?;
            s.evaluation = params.evaluation;
            s.grain = params.grain_for_searcher();
            s.tables.static_eval.use_network(&params.network);
            s.set_limits(TimeBudget::UNLIMITED, Some(COMPLETION_NODES));
            s.arm_hard_limit();
            self.searcher = Some(s);
        }
        let s = self.searcher.as_mut()?;
        s.stats = SearchStats::default();
        s.board = board.clone();
        s.board.set_root();
        let moves = s.board.legal_moves();
        s.set_root_moves(&moves);
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_searched_out_to_the_plies_wanted() {
        let board =
            Board::from_fen("r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14")
                .unwrap();
        let first = board.parse_uci("e1g1").unwrap();
        let mut pv = vec![first];
        Completion::default().complete(&board, &SearchParams::default(), &mut pv, 9);
        assert_eq!(pv.len(), 9);
        assert_eq!(pv[0], first);
        // Legal in sequence.
        let mut b = board.clone();
        for &m in &pv {
            assert!(b.legal_moves().contains(&m));
            b.play(m);
        }
    }

    #[test]
    fn a_completion_too_big_to_search_is_given_up() {
        // Nine queens a side: a Pure search of even depth 1 never ends here,
        // and a Normal one needs more than the steps' node limit.
        let board =
            Board::from_fen("rnbqkbnr/qqqqqqqq/8/8/8/8/QQQQQQQQ/RNBQKBNR w - - 0 1").unwrap();
        let params = SearchParams {
            mode: SearchMode::Pure,
            ..SearchParams::default()
        };
        let mut pv = Vec::new();
        let mut completion = Completion::default();
        completion.complete(&board, &params, &mut pv, 3);
        assert!(pv.is_empty());
        assert!(
            completion.searcher.is_none(),
            "a stopped searcher is dropped"
        );
        // The next step starts afresh.
        let quiet = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        completion.complete(&quiet, &params, &mut pv, 3);
        assert_eq!(pv.len(), 3);
    }

    #[test]
    fn a_line_that_ends_the_game_is_left_as_it_is() {
        // Fool's mate: nothing follows the mate.
        let mut board =
            Board::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")
                .unwrap();
        let mate = board.parse_uci("d8h4").unwrap();
        let mut pv = vec![mate];
        Completion::default().complete(&board, &SearchParams::default(), &mut pv, 6);
        assert_eq!(pv, vec![mate]);
        board.play(mate);
        assert!(board.legal_moves().is_empty());
    }
}
