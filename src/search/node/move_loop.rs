//! The move loop of a node: the moves in search order (the TT move before
//! any move is generated), which are pruned unplayed, how each later move is
//! reduced and re-searched, and what a cutoff teaches the ordering tables.

use super::{Node, NodeEval, NodeKind, NodeScheme, PvStatus, Searcher};
use crate::board::CheckSquares;
use crate::score::{Depth, Ply, Score};
use crate::search::continuation::{LineContext, PieceTo};
use crate::search::history::threats;
use crate::search::ordering::{CaptureOrder, MovePicker, OrderingContext};
use crate::search::see::see_at_least;
use crate::search::selectivity::*;
use crate::search::tactical_moves::is_tactical;
use crate::search::tunables::*;
use crate::tp;
use crate::tt::PackedMove;
use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Color, Move, MoveList};
use std::cell::Cell;

/// Quiet moves remembered per node for the history malus.
const MAX_QUIETS_TRACKED: usize = 64;
/// Captures remembered per node for the capture-history malus.
const MAX_CAPTURES_TRACKED: usize = 32;

/// What the move loop of one node knows before its first move, for the
/// steps it hands each move to (pruning, reduction, cutoff).
pub(super) struct MoveLoop {
    /// The node, as negamax found it (its depth after any reduction).
    pub(super) node: Node,
    pub(super) eval: NodeEval,
    turn: Color,
    line_context: LineContext,
    killers: [Option<Move>; 2],
    counter_move: Option<Move>,
    tt_move: PackedMove,
    /// The TT move, searched first (before any move is generated).
    tt_first: Option<Move>,
    /// The plies the TT move is extended by (singular extension).
    tt_move_extension: Depth,
    tt_move_is_capture: bool,
    /// The squares the opponent attacks (the history's threat cases),
    /// worked out on first use: a node that cuts off on its TT move before
    /// any quiet move is scored never needs them.
    threats: Cell<Option<Bitboard>>,
    /// Where our pieces would check the enemy king, worked out when a
    /// first move is about to be pruned (checks never are).
    check_squares: Cell<Option<CheckSquares>>,
    may_prune_quiets: bool,
    may_prune_by_see: bool,
    may_reduce: bool,
}

impl MoveLoop {
    /// The move loop of `node`. Near mate scores every move on the PV may
    /// matter: no move pruning or reductions there. Off the PV a null window
    /// asks one question, mate bound or not (the first MT-SSS* and MT-DUAL*
    /// passes, the mate-distance passes after them), and move pruning waits
    /// until a move has escaped being mated (`prunes_move`).
    #[inline(always)]
    pub(super) fn new(
        s: &Searcher,
        node: Node,
        eval: NodeEval,
        tt_move: PackedMove,
        tt_first: Option<Move>,
        tt_move_extension: Depth,
        (alpha, beta): (Score, Score),
    ) -> MoveLoop {
        let ply = node.ply;
        let line_context = s.line_context(ply);
        let pv_near_mate = node.pv != PvStatus::Off && !(is_plain(alpha) && is_plain(beta));
        let quiet_node = node.selective && !node.root && !node.in_check;
        // Once an iteration has found a mate, a node whose side to move
        // already holds a mate bound asks only for a faster mate, and the
        // mating moves of a bare-king ending are quiet ones: none is pruned
        // or reduced there. (Not before: the first passes of MT-SSS* and
        // MT-DUAL* meet mate bounds in every position, and walking them
        // full width cost those drivers 2 to 8 times the nodes.)
        let seeking_faster_mate = s.mate_found && alpha >= Score::MATE_BOUND && alpha < Score::MATE;
        MoveLoop {
            turn: s.board.turn(),
            line_context,
            killers: s.tables.killers.get(ply),
            counter_move: s.tables.counter_moves.get(line_context[0]),
            tt_move,
            tt_first,
            tt_move_extension,
            tt_move_is_capture: tt_first.is_some_and(|t| t.is_capture()),
            threats: Cell::new(None),
            check_squares: Cell::new(None),
            may_prune_quiets: quiet_node && node.pv != PvStatus::Open && !seeking_faster_mate,
            may_prune_by_see: quiet_node && !pv_near_mate,
            may_reduce: quiet_node && !pv_near_mate && !seeking_faster_mate,
            node,
            eval,
        }
    }

    /// The squares the opponent attacks at this node; `pos` must be the
    /// node's own position (no move of it on the board).
    #[inline(always)]
    fn threats(&self, pos: &Chess) -> Bitboard {
        on_first_use(&self.threats, || threats(pos))
    }

    /// Does `m` give check? `pos` must be the node's own position.
    #[inline(always)]
    fn gives_check(&self, pos: &Chess, m: Move) -> bool {
        on_first_use(&self.check_squares, || CheckSquares::new(pos)).gives_check(pos, m)
    }

    /// The threats once the picker has been filled (a late move's
    /// reduction is worked out with the move on the board, so the node's
    /// position is no longer there to compute them from).
    #[inline(always)]
    fn threats_known(&self) -> Bitboard {
        debug_assert!(self.threats.get().is_some(), "the picker fills first");
        self.threats.get().unwrap_or(Bitboard::EMPTY)
    }
}

/// The value in `cell`, made by `make` and kept there on first use (what a
/// node works out only if some move needs it).
#[inline(always)]
fn on_first_use<T: Copy>(cell: &Cell<Option<T>>, make: impl FnOnce() -> T) -> T {
    match cell.get() {
        Some(value) => value,
        None => {
            let value = make();
            cell.set(Some(value));
            value
        }
    }
}

/// How the move loop of a node ended.
pub(super) enum MovesSearched {
    /// The moves were searched (to a cutoff, or all): the best score, and
    /// the move that reached it (none when every move was pruned).
    Best { score: Score, mv: Option<Move> },
    /// The node's value, not to be stored: mate or stalemate (no legal
    /// move), or zero from a stopped search.
    Final(Score),
}

/// The moves searched so far at a node that did not cut off, for the
/// history malus when a later one does.
struct Tried {
    quiets: ArrayVec<Move, MAX_QUIETS_TRACKED>,
    captures: ArrayVec<Move, MAX_CAPTURES_TRACKED>,
}

impl Tried {
    /// (`ArrayVec::new`, not `new_const`: copying the constant, the
    /// compiler zeroed its uninitialised storage at every node.)
    #[inline(always)]
    fn new() -> Tried {
        Tried {
            quiets: ArrayVec::new(),
            captures: ArrayVec::new(),
        }
    }

    #[inline(always)]
    fn record(&mut self, m: Move, quiet: bool) {
        if quiet {
            let _ = self.quiets.try_push(m);
        } else {
            let _ = self.captures.try_push(m);
        }
    }
}

impl Searcher {
    /// Searches the node's moves in order until one reaches beta.
    #[inline(always)]
    pub(super) fn search_moves(
        &mut self,
        mut alpha: Score,
        beta: Score,
        cx: &MoveLoop,
    ) -> MovesSearched {
        let mut moves = MoveList::new();
        if cx.tt_first.is_none() {
            moves = self.node_moves(cx.node.root);
            if moves.is_empty() {
                let score = if cx.node.in_check {
                    Score::mated_in(cx.node.ply)
                } else {
                    Score::DRAW
                };
                return MovesSearched::Final(score);
            }
        }
        let mut picker = MovePicker::empty();
        let mut picker_filled = false;
        let mut best = -Score::INFINITE;
        let mut best_move = None;
        let mut tried = Tried::new();
        let mut index = 0;
        loop {
            // The TT move first, then the picker's moves.
            let m = match (index, cx.tt_first) {
                (0, Some(first)) => first,
                _ => {
                    if !picker_filled {
                        self.fill_picker(&mut picker, &mut moves, cx);
                        picker_filled = true;
                    }
                    match picker.next() {
                        Some(m) => m,
                        None => break,
                    }
                }
            };
            let move_index = index;
            index += 1;
            if cx.node.excluded == Some(m) {
                continue;
            }
            let quiet = !is_tactical(m);
            if self.prunes_move(m, quiet, cx, alpha, best, tried.quiets.len()) {
                continue;
            }
            let nodes_before = self.stats.nodes;
            let score = self.search_move(m, move_index, quiet, alpha, beta, cx);
            if self.stopped {
                return MovesSearched::Final(Score::ZERO);
            }
            if cx.node.root {
                self.root_effort.add(m, self.stats.nodes - nodes_before);
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.raise_alpha(m, score, cx.node.ply);
                    if score >= beta {
                        self.reward_cutoff(m, quiet, cx, &tried);
                        break;
                    }
                }
            }
            tried.record(m, quiet);
        }
        MovesSearched::Best {
            score: best,
            mv: best_move,
        }
    }

    /// Fills the picker with the node's moves once the TT move (if any)
    /// has been searched; the picker then skips the TT move.
    #[inline(always)]
    fn fill_picker(&self, picker: &mut MovePicker, moves: &mut MoveList, cx: &MoveLoop) {
        if cx.tt_first.is_some() {
            *moves = self.node_moves(cx.node.root);
        }
        picker.fill(
            moves,
            &OrderingContext {
                pos: self.board.pos(),
                tt_move: cx.tt_move,
                killers: cx.killers,
                history: &self.tables.history,
                threats: cx.threats(self.board.pos()),
                continuation: Some((&self.tables.continuation, cx.line_context)),
                counter_move: cx.counter_move,
                captures: CaptureOrder::BySee,
                capture_history: Some(&self.tables.capture_history),
            },
        );
        if cx.tt_first.is_some() {
            // The picker hands out the TT move first: already searched.
            picker.next();
        }
    }

    /// Plays `m`, searches it and takes it back. Move 0 is the TT move
    /// whenever it may be extended; it and the first move of any node get
    /// the full window, the rest `search_later_move`'s.
    #[inline(always)]
    fn search_move(
        &mut self,
        m: Move,
        move_index: usize,
        quiet: bool,
        alpha: Score,
        beta: Score,
        cx: &MoveLoop,
    ) -> Score {
        self.board.play(m);
        self.tt.prefetch(self.board.key());
        self.enter_line(cx.node.ply, cx.turn, m);
        let gives_check = self.board.in_check();
        let score = if move_index == 0 {
            let depth = cx.node.depth - 1 + cx.tt_move_extension;
            -self.negamax(
                -beta,
                -alpha,
                depth,
                cx.node.ply + 1,
                cx.node.kind.first_child(),
            )
        } else {
            self.search_later_move(m, move_index, quiet, gives_check, alpha, beta, cx)
        };
        self.board.undo();
        score
    }

    /// A new best move inside the window: the PV goes through it, and at the
    /// root it is known before the pass ends (a stopped iteration can use it).
    #[inline]
    fn raise_alpha(&mut self, m: Move, score: Score, ply: Ply) {
        self.pv.update(ply, m);
        if ply == 0 {
            self.root_best = Some(super::RootBest { mv: m, score });
        }
    }

    /// Is `m` pruned before it is played? A move that does not give check
    /// is, when it is a late or futile quiet, a futile capture, or loses
    /// material by exchange at low depth; once some move has escaped being
    /// mated. The cheap tests come first: SEE (taken before the move is
    /// played) only for moves they keep.
    #[inline(always)]
    fn prunes_move(
        &self,
        m: Move,
        quiet: bool,
        cx: &MoveLoop,
        alpha: Score,
        best: Score,
        quiets_tried: usize,
    ) -> bool {
        let depth = cx.node.depth;
        let may_prune = best > -Score::MATE_BOUND;
        let late_or_futile = cx.may_prune_quiets && quiet && may_prune && {
            let late = depth <= tp!(LMP_MAX_DEPTH)
                && quiets_tried >= late_move_limit(depth, cx.eval.improving);
            let futile = depth <= tp!(FUTILITY_MAX_DEPTH)
                && is_plain(alpha)
                && cx.eval.refined + tp!(FUTILITY_BASE) + tp!(FUTILITY_PER_DEPTH) * depth <= alpha;
            late || futile
        };
        // Captures are futile where quiets may be pruned (a quiet node off
        // the open PV, not seeking a faster mate).
        let futile_capture = !late_or_futile
            && cx.may_prune_quiets
            && !quiet
            && may_prune
            && depth <= tp!(CAPTURE_FUTILITY_MAX_DEPTH)
            && is_plain(alpha)
            && capture_is_futile(
                cx.eval.refined,
                m,
                tp!(CAPTURE_FUTILITY_BASE) + tp!(CAPTURE_FUTILITY_PER_DEPTH) * depth,
                alpha,
            );
        let late_or_futile = late_or_futile || futile_capture;
        let loses_exchange = !late_or_futile
            && cx.may_prune_by_see
            && may_prune
            && depth <= tp!(SEE_PRUNE_MAX_DEPTH)
            && !see_at_least(
                self.board.pos(),
                m,
                if quiet {
                    -tp!(SEE_QUIET_MARGIN) * depth
                } else {
                    -tp!(SEE_CAPTURE_MARGIN) * depth
                },
            );
        // Checks are never pruned; a pruned move is not even played.
        (late_or_futile || loses_exchange) && !cx.gives_check(self.board.pos(), m)
    }

    /// Searches a move after the first: reduced first if it is a late quiet
    /// one, a check included (a fail high is verified at full depth), with
    /// a null window unless the scheme is AlphaBeta, and again as a PV node
    /// when it becomes the best move of a PV node (NegaScout's re-search
    /// after its null window; for AlphaBeta, whose window was full already,
    /// a search without the pruning of non-PV nodes). The move is already
    /// played.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn search_later_move(
        &mut self,
        m: Move,
        move_index: usize,
        quiet: bool,
        gives_check: bool,
        alpha: Score,
        beta: Score,
        cx: &MoveLoop,
    ) -> Score {
        let (depth, ply) = (cx.node.depth, cx.node.ply);
        let reduction = if cx.may_reduce
            && depth >= tp!(LMR_MIN_DEPTH)
            && move_index >= tp!(LMR_FIRST_MOVE)
            && quiet
        {
            self.late_move_reduction(m, move_index, gives_check, cx)
        } else {
            0
        };
        let (lo, hi) = if self.scheme == NodeScheme::AlphaBeta {
            (-beta, -alpha)
        } else {
            (-alpha - 1, -alpha)
        };
        let child = if reduction > 0 {
            NodeKind::Cut
        } else {
            cx.node.kind.later_child()
        };
        let mut score = -self.negamax(lo, hi, depth - 1 - reduction, ply + 1, child);
        if reduction > 0 && score > alpha && !self.stopped {
            let child = cx.node.kind.later_child();
            score = -self.negamax(lo, hi, depth - 1, ply + 1, child);
        }
        if cx.node.pv == PvStatus::Open && score > alpha && score < beta && !self.stopped {
            score = -self.negamax(-beta, -alpha, depth - 1, ply + 1, NodeKind::Pv);
        }
        score
    }

    /// How much shallower a late quiet move is searched first: the
    /// logarithmic base, less on the PV, for an improving side, for a move
    /// with good history and for a killer; more at a CUT node and when the
    /// TT move captures (the best move here is likely that capture). A
    /// quiet check (`gives_check`, the move on the board) is then reduced a
    /// ply less: it may be the start of an attack, but not reducing it at
    /// all spent nodes on checks that lead nowhere (+11.5 ± 7.3 over 4,630
    /// games at 20,000 nodes against 1.4.0; docs/results/matches.md).
    #[inline]
    fn late_move_reduction(
        &self,
        m: Move,
        move_index: usize,
        gives_check: bool,
        cx: &MoveLoop,
    ) -> Depth {
        let depth = cx.node.depth;
        let history = self.tables.history.get(cx.turn, m, cx.threats_known())
            + self
                .tables
                .continuation
                .get(&cx.line_context, PieceTo::new(cx.turn, m));
        let mut reduction = lmr_reduction(depth, move_index)
            - Depth::from(cx.node.pv != PvStatus::Off)
            + Depth::from(!cx.eval.improving)
            + tp!(CUT_NODE_REDUCTION) * Depth::from(cx.node.kind == NodeKind::Cut)
            - (history / tp!(LMR_HISTORY_DIVISOR))
                .clamp(-tp!(LMR_HISTORY_MAX), tp!(LMR_HISTORY_MAX));
        if cx.killers.contains(&Some(m)) {
            reduction -= 1;
        }
        if cx.tt_move_is_capture {
            reduction += 1;
        }
        (reduction.clamp(0, depth - 2) - Depth::from(gives_check)).max(0)
    }

    /// A cutoff by `m` teaches the move-ordering tables: the capture history,
    /// and for a quiet move the killers, the history, the continuation
    /// history and the counter move (the moves tried before it get a malus).
    #[inline]
    fn reward_cutoff(&mut self, m: Move, quiet: bool, cx: &MoveLoop, tried: &Tried) {
        self.tables.capture_history.reward(
            cx.turn,
            (!quiet).then_some(m),
            &tried.captures,
            cx.node.depth,
        );
        if quiet {
            self.tables.killers.record(cx.node.ply, m);
            self.tables.history.reward(
                cx.turn,
                m,
                &tried.quiets,
                cx.node.depth,
                cx.threats(self.board.pos()),
            );
            self.tables.continuation.reward(
                &cx.line_context,
                cx.turn,
                m,
                &tried.quiets,
                cx.node.depth,
            );
            self.tables.counter_moves.record(cx.line_context[0], m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::SearchMode;

    /// Is the capture `uci` pruned unplayed at a depth-`depth` ALL node of
    /// `fen` one ply below the root, against alpha 0?
    fn capture_pruned(fen: &str, uci: &str, depth: Depth) -> bool {
        let board = Board::from_fen(fen).unwrap();
        let mut s = Searcher::standalone(board, 1, SearchMode::Normal).unwrap();
        let window = (Score(0), Score(1));
        let node = s.node_facts(window.0, window.1, depth, 1, NodeKind::All);
        let eval = s.node_evaluation(&node, None);
        let cx = MoveLoop::new(&s, node, eval, PackedMove::NONE, None, 0, window);
        let m = s.board.parse_uci(uci).unwrap();
        // Some move has escaped being mated already (best above the mate bound).
        s.prunes_move(m, false, &cx, window.0, Score(-100), 0)
    }

    #[test]
    fn a_capture_far_below_alpha_is_pruned_at_low_depth() {
        // Two rooks and a queen down: taking a pawn cannot reach alpha 0.
        const LOST: &str = "r3k2q/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        assert!(capture_pruned(LOST, "e4d5", 1));
        // Above the depth limit it is searched.
        assert!(!capture_pruned(
            LOST,
            "e4d5",
            tp!(CAPTURE_FUTILITY_MAX_DEPTH) + 1
        ));
        // Level material: the same capture is searched.
        const LEVEL: &str = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        assert!(!capture_pruned(LEVEL, "e4d5", 1));
        // A capture that gives check is never pruned.
        const CHECKING: &str = "r3k3/7q/8/4p3/8/8/4R3/2K5 w - - 0 1";
        assert!(!capture_pruned(CHECKING, "e2e5", 1));
    }

    /// The reduction of the quiet move `uci` of `fen` as the `index`-th
    /// move of a depth-`depth` node of `kind` one ply below the root, with
    /// the window `window`, improving or not, and said to give check or not.
    fn reduction_of(
        (fen, uci): (&str, &str),
        (depth, kind, window): (Depth, NodeKind, (Score, Score)),
        (index, improving): (usize, bool),
        gives_check: bool,
    ) -> Depth {
        let board = Board::from_fen(fen).unwrap();
        let s = Searcher::standalone(board, 1, SearchMode::Normal).unwrap();
        let node = s.node_facts(window.0, window.1, depth, 1, kind);
        let eval = NodeEval {
            raw: Score(0),
            value: Score(0),
            refined: Score(0),
            improving,
        };
        let cx = MoveLoop::new(&s, node, eval, PackedMove::NONE, None, 0, window);
        cx.threats(s.board.pos());
        let m = s.board.parse_uci(uci).unwrap();
        s.late_move_reduction(m, index, gives_check, &cx)
    }

    #[test]
    fn a_late_quiet_check_is_reduced_a_ply_less_than_other_quiets() {
        // Ra8+ (a quiet check) as the 30th move of a depth-12 CUT node.
        let rook = ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8");
        let cut = (12, NodeKind::Cut, (Score(0), Score(1)));
        let quiet = reduction_of(rook, cut, (30, false), false);
        let check = reduction_of(rook, cut, (30, false), true);
        assert!(
            quiet >= 2,
            "a late quiet move at a CUT node is reduced: {quiet}"
        );
        assert_eq!(check, quiet - 1);
        // Where a quiet move would not be reduced, the check is not either
        // (no negative reduction): an early move of an improving PV node.
        let pv = (3, NodeKind::Pv, (-Score(100), Score(100)));
        assert_eq!(reduction_of(rook, pv, (3, true), false), 0);
        assert_eq!(reduction_of(rook, pv, (3, true), true), 0);
    }
}
