//! The shared node procedure every back end calls: fail-soft negamax
//! alpha-beta with memory (the transposition table), and the quiescence
//! search below the horizon. Also the per-thread `Searcher` that carries the
//! board, the ordering tables, the counters and the stop checks.

use super::capture_history::CaptureHistory;
use super::continuation::{ContinuationHistory, CounterMoves, LineContext, PieceTo};
use super::control::SearchControl;
use super::correction::CorrectionHistory;
use super::grain::Grain;
use super::history::History;
use super::ordering::{CaptureOrder, Killers, MovePicker, OrderingContext};
use super::pv::PvTable;
use super::see::see_at_least;
use super::selectivity::*;
use super::static_eval::{Evaluation, StaticEval};
use super::{SearchMode, SearchStats};
use crate::board::{Board, RepetitionRule, gives_check};
use crate::eval::{SEE_VALUE, role_index};
use crate::known::TbProbe;
use crate::known::syzygy::TbValue;
use crate::score::{Depth, MAX_PLY, Ply, Score};
use crate::tactical_moves::{is_tactical, tactical_moves};
use crate::time::TimeBudget;
use crate::tp;
use crate::tt::{Bound, PackedMove, TranspositionTable, TtHit};
use arrayvec::ArrayVec;
use shakmaty::{Color, Move, MoveList};
use std::sync::Arc;

/// How often (in nodes, a power of two) the clock and the stop flag are read.
const STOP_CHECK_INTERVAL: u64 = 1024;
/// Quiet moves remembered per node for the history malus.
const MAX_QUIETS_TRACKED: usize = 64;
/// Captures remembered per node for the capture-history malus.
const MAX_CAPTURES_TRACKED: usize = 32;
/// A tablebase result is stored as this much deeper than the node: no
/// search of the usual depths knows more (Stockfish's +6).
const TB_DEPTH_BONUS: Depth = 6;

/// How interior nodes search their children.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeScheme {
    /// Every child with the node's full window.
    AlphaBeta,
    /// First child with the full window, the rest with a null window and a
    /// re-search when one lands inside the window (NegaScout / PVS).
    Pvs,
}

/// What a node is expected to be (Knuth and Moore's node types, the CUT and
/// ALL nodes folded into one): the selective techniques that guess at a
/// node's value apply only off the principal variation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// On the principal variation (the root, the first child of a PV node,
    /// a child re-searched because it became the best move of a PV node);
    /// a PV node also needs a window wider than null.
    Pv,
    /// Expected to fail high or low: pruned and reduced where that pays.
    NonPv,
}

/// What the move loop of one node knows before its first move, for the
/// steps it hands each move to (pruning, reduction, cutoff, store).
struct MoveLoop {
    depth: Depth,
    ply: Ply,
    pv_node: bool,
    in_check: bool,
    improving: bool,
    static_eval: Score,
    turn: Color,
    line_context: LineContext,
    killers: [Option<Move>; 2],
    tt_move_is_capture: bool,
    may_prune_quiets: bool,
    may_prune_by_see: bool,
    may_reduce: bool,
}

/// Move-ordering memory kept across searches by one thread.
#[derive(Default)]
pub struct SearchTables {
    pub history: History,
    pub killers: Killers,
    pub continuation: ContinuationHistory,
    pub counter_moves: CounterMoves,
    pub capture_history: CaptureHistory,
    pub correction: CorrectionHistory,
    pub static_eval: StaticEval,
}

impl SearchTables {
    pub fn clear(&mut self) {
        self.history.clear();
        self.killers.clear();
        self.continuation.clear();
        self.counter_moves.clear();
        self.capture_history.clear();
        self.correction.clear();
        self.static_eval.clear();
    }
}

/// The best root move of the last root search, with its (fail-soft) score.
#[derive(Copy, Clone, Debug)]
pub struct RootBest {
    pub mv: Move,
    pub score: Score,
}

/// What the search without the TT move says about it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Singularity {
    /// Every other move fails low by the margin: the TT move is extended.
    Singular,
    /// Other moves reach beta as well: the node fails high with this score.
    MultiCut(Score),
    /// Neither: the TT move is searched as usual.
    Ordinary,
}

/// One thread's search state.
pub struct Searcher {
    pub board: Board,
    pub tt: Arc<TranspositionTable>,
    pub tables: Box<SearchTables>,
    pub stats: SearchStats,
    pub pv: PvTable,
    pub mode: SearchMode,
    pub scheme: NodeScheme,
    /// The static evaluation of Normal mode (Pure mode: always Classical).
    pub evaluation: Evaluation,
    control: Arc<SearchControl>,
    budget: TimeBudget,
    node_limit: Option<u64>,
    /// The hard time limit applies only once one iteration has completed,
    /// so there is always a move to play.
    hard_limit_armed: bool,
    stopped: bool,
    /// The moves searched at the root (searchmoves, MultiPV exclusions).
    root_moves: MoveList,
    /// Are `root_moves` fewer than all legal moves? Then the root's result
    /// is not the position's value and must not be stored in the TT.
    root_restricted: bool,
    pub root_best: Option<RootBest>,
    /// The static evaluation at each ply of the current line (`-INFINITE`
    /// in check), for the improving flag.
    static_evals: [Score; MAX_PLY + 1],
    /// The move played at each ply of the current line (`None` for a null move).
    line: [Option<PieceTo>; MAX_PLY + 1],
    /// The move left out at each ply by a singular-extension search.
    excluded: [Option<Move>; MAX_PLY + 1],
    /// The depth of the current root search (bounds how far extensions reach).
    root_depth: Depth,
    /// The static evaluation is rounded to a multiple of this (see `Grain`).
    pub grain: Grain,
    /// The WDL probe of the endgame tablebases (`None`: no probes).
    pub tb: Option<TbProbe>,
}

impl Searcher {
    pub fn new(
        board: Board,
        tt: Arc<TranspositionTable>,
        tables: Box<SearchTables>,
        control: Arc<SearchControl>,
        mode: SearchMode,
    ) -> Searcher {
        let mut board = board;
        board.set_root();
        let root_moves = board.legal_moves();
        Searcher {
            board,
            tt,
            tables,
            stats: SearchStats::default(),
            pv: PvTable::default(),
            mode,
            scheme: NodeScheme::Pvs,
            evaluation: Evaluation::default(),
            control,
            budget: TimeBudget::UNLIMITED,
            node_limit: None,
            hard_limit_armed: false,
            stopped: false,
            root_moves,
            root_restricted: false,
            root_best: None,
            static_evals: [-Score::INFINITE; MAX_PLY + 1],
            line: [None; MAX_PLY + 1],
            excluded: [None; MAX_PLY + 1],
            root_depth: 0,
            grain: Grain::FULL,
            tb: None,
        }
    }

    /// A searcher with its own table of `hash_mb` and fresh ordering tables,
    /// nothing shared: what fixed-depth measurements (bench, compare) want.
    pub fn standalone(board: Board, hash_mb: usize, mode: SearchMode) -> Result<Searcher, String> {
        let tt = TranspositionTable::new(hash_mb)?;
        Ok(Searcher::new(
            board,
            Arc::new(tt),
            Box::default(),
            Arc::new(SearchControl::default()),
            mode,
        ))
    }

    pub fn set_limits(&mut self, budget: TimeBudget, node_limit: Option<u64>) {
        self.budget = budget;
        self.node_limit = node_limit;
    }

    pub fn arm_hard_limit(&mut self) {
        self.hard_limit_armed = true;
    }

    /// Restricts the root to `moves` (a subset of the legal moves).
    pub fn set_root_moves(&mut self, moves: &[Move]) {
        let all = self.board.legal_moves();
        self.root_moves.clear();
        for &m in moves {
            if all.contains(&m) && !self.root_moves.contains(&m) {
                self.root_moves.push(m);
            }
        }
        self.root_restricted = self.root_moves.len() < all.len();
    }

    pub fn into_tables(self) -> Box<SearchTables> {
        self.tables
    }

    pub fn control(&self) -> &SearchControl {
        &self.control
    }

    /// Has the search been stopped (flag, time or node limit)?
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Pure mode keeps the value a function of the position (see `RepetitionRule`).
    #[inline]
    fn repetition_rule(&self) -> RepetitionRule {
        match self.mode {
            SearchMode::Normal => RepetitionRule::InSearch,
            SearchMode::Pure => RepetitionRule::GameHistoryOnly,
        }
    }

    /// The static evaluation of the current position, reached at `ply`.
    #[inline]
    fn static_eval(&mut self, ply: Ply) -> Score {
        let kind = self.evaluation.in_mode(self.mode);
        self.tables.static_eval.evaluate(&self.board, ply, kind)
    }

    /// The static evaluation and the value the search uses at a leaf: in
    /// Normal mode the evaluation corrected by the correction history and
    /// rounded to the grain; in Pure mode the evaluation itself.
    #[inline]
    fn leaf_eval(&mut self, ply: Ply) -> (Score, Score) {
        let raw = self.static_eval(ply);
        let leaf = match self.mode {
            SearchMode::Normal => self
                .grain
                .round(self.tables.correction.corrected(self.board.pos(), raw)),
            SearchMode::Pure => raw,
        };
        (raw, leaf)
    }

    /// The tablebases' value of the current node, when they are probed here
    /// (counted as a tbhit).
    #[inline]
    fn tablebase_value(&mut self, depth: Depth, ply: Ply) -> Option<TbValue> {
        let tb = self.tb.as_ref()?;
        if !tb.wants(self.board.pos(), depth) {
            return None;
        }
        let value = tb.value(self.board.pos(), ply)?;
        self.stats.tbhits += 1;
        self.control.count_tbhits(1);
        Some(value)
    }

    /// Counts a node and decides whether the search must stop.
    #[inline]
    fn enter_node(&mut self, ply: Ply) -> bool {
        self.stats.nodes += 1;
        if ply > self.stats.seldepth {
            self.stats.seldepth = ply;
        }
        if let Some(limit) = self.node_limit
            && self.stats.nodes >= limit
            && self.hard_limit_armed
        {
            self.stopped = true;
        }
        if self.stats.nodes.is_multiple_of(STOP_CHECK_INTERVAL) {
            // For `info nodes` across threads (src/search/threads.rs).
            self.control.count_nodes(STOP_CHECK_INTERVAL);
            self.poll_stop();
        }
        self.stopped
    }

    /// Reads the stop flag and the hard time limit (a helper beyond the
    /// cores may first wait for its next turn: `turns`).
    pub fn poll_stop(&mut self) {
        super::turns::pause_point();
        if self.control.is_stopped() {
            self.stopped = true;
        } else if self.hard_limit_armed
            && !self.control.is_pondering()
            && let Some(hard) = self.budget.hard
            && self.control.elapsed() >= hard
        {
            self.stopped = true;
        }
    }

    /// Searches the root with the window (alpha, beta) to `depth`; the best
    /// move is left in `root_best`. Returns the fail-soft score. If the pass
    /// is stopped, `root_best` holds the last move that raised alpha in it
    /// (searched to the end), if any.
    pub fn search_root(&mut self, alpha: Score, beta: Score, depth: Depth) -> Score {
        self.stats.passes += 1;
        self.root_best = None;
        self.root_depth = depth.max(1);
        self.negamax(alpha, beta, depth.max(1), 0, NodeKind::Pv)
    }

    /// The moves of the current node: the root's (perhaps restricted)
    /// list, or every legal move.
    fn node_moves(&self, root: bool) -> MoveList {
        if root {
            self.root_moves.clone()
        } else {
            self.board.legal_moves()
        }
    }

    /// The shared node procedure: fail-soft negamax alpha-beta with memory.
    /// In Normal mode it also extends checks and prunes and reduces
    /// selectively (see `selectivity`); Pure mode searches the full tree.
    pub fn negamax(
        &mut self,
        mut alpha: Score,
        beta: Score,
        mut depth: Depth,
        ply: Ply,
        kind: NodeKind,
    ) -> Score {
        self.pv.clear(ply);
        let root = ply == 0;
        if !root {
            if self.enter_node(ply) {
                return Score::ZERO;
            }
            if self.board.is_draw_by(self.repetition_rule()) {
                return Score::DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return self.leaf_eval(ply).1;
            }
        } else {
            self.stats.nodes += 1;
        }
        let selective = self.mode == SearchMode::Normal;
        let in_check = self.board.in_check();
        if selective && in_check && !root {
            depth += 1;
        }
        if depth <= 0 {
            // This node, already counted, is a horizon leaf and the first
            // node of the quiescence search.
            self.stats.leaves += 1;
            return self.quiescence_body(alpha, beta, ply);
        }

        let pv_node = kind == NodeKind::Pv && beta.0 - alpha.0 > 1;
        // Set when this is a singular-extension search of the node: the
        // TT move is left out, and the result is not the node's value.
        let excluded = self.excluded[ply];
        let key = self.board.key();
        let hit = self.tt.probe(key, ply);
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.mv);
        if !root
            && excluded.is_none()
            && let Some(score) = self.known_value(hit, key, alpha, beta, depth, ply)
        {
            return score;
        }

        // Pruning before any move is searched (Normal mode, quiet nodes only).
        // (Not refined by TT bounds: a bound from a shallower search, used
        // for reverse futility, hid the quiet mate of the mate-in-2 test.)
        // The evaluation, and that with the correction history's learnt offset.
        let (raw_eval, static_eval) = if selective && !in_check {
            self.leaf_eval(ply)
        } else {
            (-Score::INFINITE, -Score::INFINITE)
        };
        self.static_evals[ply] = static_eval;
        // Is the side to move doing better than two plies ago? Then pruning
        // can be bolder, and late quiet moves are reduced less.
        let improving = !in_check
            && ply >= 2
            && (self.static_evals[ply - 2] == -Score::INFINITE
                || static_eval > self.static_evals[ply - 2]);
        if selective
            && !root
            && !pv_node
            && !in_check
            && excluded.is_none()
            && let Some(score) =
                self.prune_before_moves(beta, depth, ply, static_eval, improving, hit)
        {
            return score;
        }
        if selective && !root && tt_move.is_none() && depth >= tp!(IIR_MIN_DEPTH) {
            depth -= 1;
        }

        // The TT move is tried before the other moves are even generated or
        // scored: when it cuts off, no move generation, SEE or history
        // lookup is spent on the rest. (Its legality is checked on its own.)
        let tt_first = if excluded.is_some() {
            None
        } else if root {
            tt_move.find_in(&self.root_moves)
        } else {
            tt_move.to_legal(self.board.pos())
        };

        // Singular extension (see `singularity`).
        let mut tt_move_extension = 0;
        if selective
            && !root
            && let Some(first) = tt_first
            && let Some(h) = hit
            && depth >= tp!(SINGULAR_MIN_DEPTH)
            && h.depth >= depth - tp!(SINGULAR_TT_DEPTH_SLACK)
            && is_plain(h.lower)
            && (ply as Depth) < 2 * self.root_depth
        {
            match self.singularity(first, h.lower, beta, depth, ply) {
                None => return Score::ZERO,
                Some(Singularity::Singular) => tt_move_extension = 1,
                Some(Singularity::MultiCut(score)) => return score,
                Some(Singularity::Ordinary) => {}
            }
        }
        let mut moves = MoveList::new();
        if tt_first.is_none() {
            moves = self.node_moves(root);
            if moves.is_empty() {
                return if in_check {
                    Score::mated_in(ply)
                } else {
                    Score::DRAW
                };
            }
        }

        let turn = self.board.turn();
        let killers = self.tables.killers.get(ply);
        let line_context: LineContext = [
            ply.checked_sub(1).and_then(|p| self.line[p]),
            ply.checked_sub(2).and_then(|p| self.line[p]),
        ];
        let counter_move = self.tables.counter_moves.get(line_context[0]);
        // Filled only past the TT move, in place (see MovePicker::empty).
        let mut picker = MovePicker::empty();
        let mut picker_filled = false;
        let mut index = 0;
        let alpha_orig = alpha;
        let mut best = -Score::INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets_tried: ArrayVec<Move, MAX_QUIETS_TRACKED> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, MAX_CAPTURES_TRACKED> = ArrayVec::new();
        // Near mate scores every move on the PV may matter: no move pruning
        // or reductions there. Off the PV a null window asks one question,
        // mate bound or not (the first MT-SSS* and MT-DUAL* passes, the
        // mate-distance passes after them), and move pruning waits until a
        // move has escaped being mated (`may_prune` below).
        let pv_near_mate = pv_node && !(is_plain(alpha) && is_plain(beta));
        let may_prune_quiets = selective && !root && !pv_node && !in_check;
        let may_prune_by_see = selective && !root && !in_check && !pv_near_mate;
        let cx = MoveLoop {
            depth,
            ply,
            pv_node,
            in_check,
            improving,
            static_eval,
            turn,
            line_context,
            killers,
            tt_move_is_capture: tt_first.is_some_and(|t| t.is_capture()),
            may_prune_quiets,
            may_prune_by_see,
            may_reduce: selective && !root && !pv_near_mate && !in_check,
        };

        loop {
            let m = match (index, tt_first) {
                (0, Some(first)) => first,
                _ => {
                    if !picker_filled {
                        if tt_first.is_some() {
                            moves = self.node_moves(root);
                        }
                        picker.fill(
                            &moves,
                            &OrderingContext {
                                pos: self.board.pos(),
                                tt_move,
                                killers,
                                history: &self.tables.history,
                                continuation: Some((&self.tables.continuation, line_context)),
                                counter_move,
                                captures: CaptureOrder::BySee,
                                capture_history: Some(&self.tables.capture_history),
                            },
                        );
                        picker_filled = true;
                        if tt_first.is_some() {
                            // The picker hands out the TT move first: already searched.
                            picker.next();
                        }
                    }
                    match picker.next() {
                        Some(m) => m,
                        None => break,
                    }
                }
            };
            let move_index = index;
            index += 1;
            if excluded == Some(m) {
                continue;
            }
            let quiet = !is_tactical(m);
            if self.prunes_move(m, quiet, &cx, alpha, best, quiets_tried.len()) {
                continue;
            }
            self.board.play(m);
            self.tt.prefetch(self.board.key());
            self.line[ply] = Some(PieceTo::new(turn, m));
            let gives_check = self.board.in_check();
            let score = if move_index == 0 {
                // Move 0 is the TT move whenever it may be extended.
                -self.negamax(-beta, -alpha, depth - 1 + tt_move_extension, ply + 1, kind)
            } else {
                self.search_later_move(m, move_index, quiet, gives_check, alpha, beta, &cx)
            };
            self.board.undo();
            if self.stopped {
                return Score::ZERO;
            }

            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, m);
                    if root {
                        // Known before the pass ends: a stopped iteration can still use it.
                        self.root_best = Some(RootBest { mv: m, score });
                    }
                    if score >= beta {
                        self.reward_cutoff(m, quiet, &cx, &quiets_tried, &captures_tried);
                        break;
                    }
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push(m);
            } else if !quiet && !captures_tried.is_full() {
                captures_tried.push(m);
            }
        }
        if excluded.is_some() {
            // Only the excluded move, or only pruned ones: the others fail low.
            return if best == -Score::INFINITE {
                alpha
            } else {
                best
            };
        }
        if !(root && self.root_restricted) {
            let bound = Bound::of_result(best, alpha_orig, beta);
            self.store_result(key, best, best_move, bound, raw_eval, &cx);
        }
        if root && let Some(mv) = best_move {
            self.root_best = Some(RootBest { mv, score: best });
        }
        best
    }

    /// Is `m` pruned before it is played? A move that does not give check
    /// is, when it is a late or futile quiet, or loses material by exchange
    /// at low depth; once some move has escaped being mated. The cheap tests
    /// come first: SEE (taken before the move is played) only for moves they
    /// keep.
    #[inline]
    fn prunes_move(
        &self,
        m: Move,
        quiet: bool,
        cx: &MoveLoop,
        alpha: Score,
        best: Score,
        quiets_tried: usize,
    ) -> bool {
        let depth = cx.depth;
        let may_prune = best > -Score::MATE_BOUND;
        let late_or_futile = cx.may_prune_quiets && quiet && may_prune && {
            let late =
                depth <= tp!(LMP_MAX_DEPTH) && quiets_tried >= late_move_limit(depth, cx.improving);
            let futile = depth <= tp!(FUTILITY_MAX_DEPTH)
                && is_plain(alpha)
                && cx.static_eval + tp!(FUTILITY_BASE) + tp!(FUTILITY_PER_DEPTH) * depth <= alpha;
            late || futile
        };
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
        (late_or_futile || loses_exchange) && !gives_check(self.board.pos(), m)
    }

    /// Searches a move after the first: reduced first if it is a late quiet
    /// one (a fail high is verified at full depth), with a null window
    /// unless the scheme is AlphaBeta, and again as a PV node when it
    /// becomes the best move of a PV node (NegaScout's re-search after its
    /// null window; for AlphaBeta, whose window was full already, a search
    /// without the pruning of non-PV nodes). The move is already played.
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
        let (depth, ply) = (cx.depth, cx.ply);
        let reduction = if cx.may_reduce
            && depth >= tp!(LMR_MIN_DEPTH)
            && move_index >= tp!(LMR_FIRST_MOVE)
            && quiet
            && !gives_check
        {
            self.late_move_reduction(m, move_index, cx)
        } else {
            0
        };
        let (lo, hi) = if self.scheme == NodeScheme::AlphaBeta {
            (-beta, -alpha)
        } else {
            (-alpha - 1, -alpha)
        };
        let mut score = -self.negamax(lo, hi, depth - 1 - reduction, ply + 1, NodeKind::NonPv);
        if reduction > 0 && score > alpha && !self.stopped {
            score = -self.negamax(lo, hi, depth - 1, ply + 1, NodeKind::NonPv);
        }
        if cx.pv_node && score > alpha && score < beta && !self.stopped {
            score = -self.negamax(-beta, -alpha, depth - 1, ply + 1, NodeKind::Pv);
        }
        score
    }

    /// How much shallower a late quiet move is searched first: the
    /// logarithmic base, less on the PV, for an improving side, for a move
    /// with good history and for a killer; more when the TT move captures
    /// (the best move here is likely that capture).
    #[inline]
    fn late_move_reduction(&self, m: Move, move_index: usize, cx: &MoveLoop) -> Depth {
        let depth = cx.depth;
        let history = self.tables.history.get(cx.turn, m)
            + self
                .tables
                .continuation
                .get(&cx.line_context, PieceTo::new(cx.turn, m));
        let mut reduction = lmr_reduction(depth, move_index) - Depth::from(cx.pv_node)
            + Depth::from(!cx.improving)
            - (history / tp!(LMR_HISTORY_DIVISOR))
                .clamp(-tp!(LMR_HISTORY_MAX), tp!(LMR_HISTORY_MAX));
        if cx.killers.contains(&Some(m)) {
            reduction -= 1;
        }
        if cx.tt_move_is_capture {
            reduction += 1;
        }
        reduction.clamp(0, depth - 2)
    }

    /// A cutoff by `m` teaches the move-ordering tables: the capture history,
    /// and for a quiet move the killers, the history, the continuation
    /// history and the counter move (the moves tried before it get a malus).
    #[inline]
    fn reward_cutoff(
        &mut self,
        m: Move,
        quiet: bool,
        cx: &MoveLoop,
        quiets_tried: &[Move],
        captures_tried: &[Move],
    ) {
        self.tables.capture_history.reward(
            cx.turn,
            (!quiet).then_some(m),
            captures_tried,
            cx.depth,
        );
        if quiet {
            self.tables.killers.record(cx.ply, m);
            self.tables
                .history
                .reward(cx.turn, m, quiets_tried, cx.depth);
            self.tables
                .continuation
                .reward(&cx.line_context, cx.turn, m, quiets_tried, cx.depth);
            self.tables.counter_moves.record(cx.line_context[0], m);
        }
    }

    /// Stores the node's result in the TT and teaches the correction
    /// history when the result says more than the static evaluation: an
    /// exact score, or a bound beyond it (tactical best moves are left out:
    /// their gain is not positional).
    #[inline]
    fn store_result(
        &mut self,
        key: u64,
        best: Score,
        best_move: Option<Move>,
        bound: Bound,
        raw_eval: Score,
        cx: &MoveLoop,
    ) {
        // A fail low proves no move best: its highest upper bound says
        // little, so the entry keeps the move an earlier search found.
        let stored_move = if bound == Bound::Upper {
            None
        } else {
            best_move
        };
        self.tt
            .store(key, cx.ply, stored_move, best, cx.depth, bound);
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best > cx.static_eval,
            Bound::Upper => best < cx.static_eval,
        };
        if self.mode == SearchMode::Normal
            && !cx.in_check
            && informative
            && is_plain(best)
            && best_move.is_none_or(|m| !is_tactical(m))
        {
            self.tables
                .correction
                .update(self.board.pos(), raw_eval, best, cx.depth);
        }
    }

    /// The node's value when the TT or the tablebases already bound it on
    /// the right side of the window (the TT only to the node's depth; in
    /// Pure mode to exactly that depth, so that the value stays the
    /// depth-d minimax value).
    #[inline]
    fn known_value(
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
    fn prune_before_moves(
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
        // The null move searches its own null window around beta, which
        // may also be open (the first MT-DUAL* pass, the MIN nodes of the
        // first MT-SSS* pass): then it shows a value from a real search.
        if (is_plain(beta) || beta_is_open(beta, ply))
            && depth >= tp!(NULL_MIN_DEPTH)
            && static_eval >= beta
            && !self.board.after_null()
            && self.board.has_non_pawn_material(self.board.turn())
            && self.board.play_null()
        {
            self.line[ply] = None;
            let reduction = tp!(NULL_BASE_REDUCTION)
                + depth / tp!(NULL_DEPTH_DIVISOR)
                + ((static_eval.0 - beta.0) / tp!(NULL_EVAL_STEP)).min(tp!(NULL_EVAL_MAX));
            let score = -self.negamax(
                -beta,
                -beta + 1,
                depth - 1 - reduction,
                ply + 1,
                NodeKind::NonPv,
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

    /// ProbCut's search: the captures that win at least `probcut_beta` less
    /// the static evaluation by exchange, each first in quiescence and then
    /// to `depth - PROBCUT_REDUCTION` with a null window at `probcut_beta`.
    /// The score of the first that holds (stored as a lower bound), else `None`.
    fn probcut(
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
            self.line[ply] = Some(PieceTo::new(turn, m));
            let mut score = -self.qsearch(-probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta && !self.stopped {
                let reduced = depth - tp!(PROBCUT_REDUCTION);
                score = -self.negamax(
                    -probcut_beta,
                    -probcut_beta + 1,
                    reduced,
                    ply + 1,
                    NodeKind::NonPv,
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
    fn singularity(
        &mut self,
        tt_move: Move,
        tt_lower: Score,
        beta: Score,
        depth: Depth,
        ply: Ply,
    ) -> Option<Singularity> {
        let singular_beta = tt_lower - tp!(SINGULAR_MARGIN_PER_DEPTH) * depth;
        self.excluded[ply] = Some(tt_move);
        let score = self.negamax(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            NodeKind::NonPv,
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
    fn quiescence_body(&mut self, mut alpha: Score, beta: Score, ply: Ply) -> Score {
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
        let moves = if in_check {
            let evasions = self.board.legal_moves();
            if evasions.is_empty() {
                return Score::mated_in(ply);
            }
            evasions
        } else {
            tactical_moves(self.board.pos())
        };
        let skip_losing = !in_check && self.mode == SearchMode::Normal;
        let mut picker = MovePicker::empty();
        if in_check {
            picker.fill(
                &moves,
                &OrderingContext {
                    pos: self.board.pos(),
                    tt_move: PackedMove::NONE,
                    killers: [None, None],
                    history: &self.tables.history,
                    continuation: None,
                    counter_move: None,
                    captures: CaptureOrder::MvvLvaOnly,
                    capture_history: None,
                },
            );
        } else {
            picker.fill_tactical(&moves, self.board.pos(), skip_losing);
        }
        let mut best_move = None;
        for m in &mut picker {
            if delta_prune
                && m.promotion().is_none()
                && stand_pat
                    + m.capture().map_or(0, |r| SEE_VALUE[role_index(r)])
                    + tp!(DELTA_MARGIN)
                    <= alpha
            {
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
}

/// The static evaluation, replaced by a stored search bound that is known to
/// lie on the far side of it (a better estimate of the node's value).
fn refine_with_tt(eval: Score, hit: Option<TtHit>) -> Score {
    match hit {
        Some(h) if is_plain(h.lower) && h.lower > eval => h.lower,
        Some(h) if is_plain(h.upper) && h.upper < eval => h.upper,
        _ => eval,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A searcher whose TT holds a finished depth-`depth` search of `fen`.
    fn searched(fen: &str, depth: Depth) -> (Searcher, TtHit, Move) {
        let board = Board::from_fen(fen).unwrap();
        let mut s = Searcher::standalone(board, 1, SearchMode::Normal).unwrap();
        s.search_root(-Score::INFINITE, Score::INFINITE, depth);
        let best = s.root_best.expect("a best move").mv;
        let hit = s.tt.probe(s.board.key(), 0).expect("the root was stored");
        (s, hit, best)
    }

    #[test]
    fn a_stopped_pass_keeps_the_move_that_beat_the_first() {
        // Nxd4 wins the queen; the TT says h3 first, so h3 is searched first.
        let fen = "r1b1kbnr/pppp1ppp/2n5/4p3/2BqP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1";
        let seeded = |limit: u64| {
            let board = Board::from_fen(fen).unwrap();
            let mut s = Searcher::standalone(board, 1, SearchMode::Normal).unwrap();
            let h3 = s.board.parse_uci("h2h3").unwrap();
            s.tt.store(s.board.key(), 0, Some(h3), Score(0), 1, Bound::Lower);
            s.set_limits(TimeBudget::UNLIMITED, Some(limit));
            s.arm_hard_limit();
            s.search_root(-Score::INFINITE, Score::INFINITE, 10);
            s
        };
        // The whole pass, unlimited: Nxd4 is its best move.
        let full = seeded(u64::MAX);
        assert!(!full.stopped());
        assert_eq!(
            full.root_best.map(|b| full.board.uci(b.mv)),
            Some("f3d4".into())
        );
        let total = full.stats.nodes;
        // Limits 2 % apart, then one node short of the whole pass: h3 leads
        // first, the best move is never lost, and once Nxd4 leads it stays.
        let mut saw_first_only = false;
        let mut saw_nxd4 = false;
        let mut limit = 100;
        loop {
            limit = (limit + limit / 50).min(total - 1);
            let s = seeded(limit);
            assert!(s.stopped(), "the pass must be cut short at {limit} nodes");
            match s.root_best.map(|b| s.board.uci(b.mv)) {
                None => assert!(!saw_first_only, "root_best is never lost"),
                Some(m) if m == "h2h3" => {
                    assert!(!saw_nxd4, "Nxd4 stays once it leads");
                    saw_first_only = true;
                }
                Some(m) => {
                    assert_eq!(m, "f3d4");
                    assert!(saw_first_only, "h3 was searched first");
                    saw_nxd4 = true;
                }
            }
            if limit == total - 1 {
                break;
            }
        }
        assert!(saw_nxd4, "the pass stopped one node short keeps Nxd4");
    }

    #[test]
    fn probcut_takes_the_winning_capture_and_nothing_short_of_its_bound() {
        // Nxd5 wins the queen.
        let fen = "4k3/pppp4/8/3q4/8/2N5/PPPP4/4K3 w - - 0 1";
        let board = Board::from_fen(fen).unwrap();
        let mut s = Searcher::standalone(board, 1, SearchMode::Normal).unwrap();
        let eval = s.static_eval(0);
        assert!(eval < Score(-500), "{eval:?}");
        // Against a beta of a draw the capture holds, and the TT learns it.
        let cut = s
            .probcut(Score::DRAW, eval, 6, 0)
            .expect("Nxd5 beats a draw");
        assert!(cut >= Score::DRAW);
        let hit = s.tt.probe(s.board.key(), 0).expect("stored");
        assert_eq!(hit.lower, cut);
        assert_eq!(hit.mv, PackedMove::pack(s.board.parse_uci("c3d5").unwrap()));
        // No capture wins enough to beat a bound of two queens.
        let mut s = Searcher::standalone(s.board.clone(), 1, SearchMode::Normal).unwrap();
        assert_eq!(s.probcut(Score(2000), eval, 6, 0), None);
        assert!(s.tt.probe(s.board.key(), 0).is_none());
    }

    /// dxe4 wins the knight; every other move leaves a drawn KP v KN.
    const ONLY_CAPTURE_WINS: &str = "4k3/8/8/8/4n3/3P4/8/4K3 w - - 0 1";

    #[test]
    fn the_only_winning_capture_is_singular() {
        let (mut s, hit, best) = searched(ONLY_CAPTURE_WINS, 8);
        assert_eq!(s.board.uci(best), "d3e4");
        let verdict = s.singularity(best, hit.lower, hit.lower + 1, 8, 0);
        assert_eq!(verdict, Some(Singularity::Singular));
        let after = s.tt.probe(s.board.key(), 0).unwrap();
        assert_eq!(hit, after);
    }

    #[test]
    fn the_search_without_the_tt_move_stores_nothing_at_its_node() {
        let board = Board::from_fen(ONLY_CAPTURE_WINS).unwrap();
        let mut s = Searcher::standalone(board, 1, SearchMode::Normal).unwrap();
        let capture = s.board.parse_uci("d3e4").unwrap();
        let verdict = s.singularity(capture, Score(600), Score(601), 8, 0);
        assert_eq!(verdict, Some(Singularity::Singular));
        assert!(s.tt.probe(s.board.key(), 0).is_none());
    }

    #[test]
    fn among_equal_moves_none_is_singular() {
        // A dead draw: every move scores the same.
        let (mut s, hit, best) = searched("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", 8);
        assert_eq!(hit.lower, Score::DRAW);
        let verdict = s.singularity(best, hit.lower, Score(1), 8, 0);
        assert_eq!(verdict, Some(Singularity::Ordinary));
        // With beta below the margin the other moves cut off as well.
        let low_beta = Score(-tp!(SINGULAR_MARGIN_PER_DEPTH) * 8 - 1);
        let verdict = s.singularity(best, hit.lower, low_beta, 8, 0);
        assert_eq!(
            verdict,
            Some(Singularity::MultiCut(Score(
                -tp!(SINGULAR_MARGIN_PER_DEPTH) * 8
            )))
        );
    }
}
