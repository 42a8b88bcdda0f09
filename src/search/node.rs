//! The shared node procedure every back end calls: fail-soft negamax
//! alpha-beta with memory (the transposition table), and the quiescence
//! search below the horizon. Also the per-thread `Searcher` that carries the
//! board, the ordering tables, the counters and the stop checks.

mod move_loop;
mod pruning;
mod quiescence;

use super::capture_history::CaptureHistory;
use super::continuation::{ContinuationHistory, CounterMoves, LineContext, PieceTo};
use super::control::SearchControl;
use super::correction::{CorrectionHistory, DECIDED};
use super::grain::Grain;
use super::history::History;
use super::ordering::Killers;
use super::pv::PvTable;
use super::root_effort::RootEffort;
use super::selectivity::*;
use super::static_eval::{Evaluation, StaticEval};
use super::{SearchMode, SearchStats};
use crate::board::{Board, RepetitionRule};
use crate::known::TbProbe;
use crate::known::syzygy::TbValue;
use crate::score::{Depth, MAX_PLY, Ply, Score};
use crate::search::see::see_at_least;
use crate::search::tactical_moves::is_tactical;
use crate::search::time::TimeBudget;
use crate::search::tunables::*;
use crate::tp;
use crate::tt::{Bound, PackedMove, TranspositionTable, TtHit};
use move_loop::{MoveLoop, MovesSearched};
use shakmaty::{Color, Move, MoveList};
use std::ops::ControlFlow;
use std::sync::Arc;

/// How often (in nodes, a power of two) the clock and the stop flag are read.
const STOP_CHECK_INTERVAL: u64 = 1024;

/// How interior nodes search their children.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeScheme {
    /// Every child with the node's full window.
    AlphaBeta,
    /// First child with the full window, the rest with a null window and a
    /// re-search when one lands inside the window (NegaScout / PVS).
    Pvs,
}

/// What a node is expected to be (Knuth and Moore's node types): the
/// selective techniques that guess at a node's value apply only off the
/// principal variation, and a node expected to fail high reduces its late
/// moves more (one of them is likely to refute the move that led here).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// On the principal variation (the root, the first child of a PV node,
    /// a child re-searched because it became the best move of a PV node);
    /// a PV node also needs a window wider than null.
    Pv,
    /// Expected to fail high (CUT): reached by a late move of a PV or ALL
    /// node, by any reduced late move, or by the first move of an ALL node.
    Cut,
    /// Expected to fail low (ALL): reached by any move of a CUT node searched
    /// to full depth (the move expected to refute), or the side that passed
    /// in the null move, ProbCut's reply and the search without the TT move,
    /// each searched in the hope that it fails low.
    All,
}

impl NodeKind {
    /// The kind of the node that the first move (normally the TT move) leads to.
    pub fn first_child(self) -> NodeKind {
        match self {
            NodeKind::Pv => NodeKind::Pv,
            NodeKind::Cut => NodeKind::All,
            NodeKind::All => NodeKind::Cut,
        }
    }

    /// The kind of the node that a later move leads to when it is searched
    /// to full depth with the parent's scout window (a reduced search's
    /// node is a CUT node): a CUT node whose first move did not cut still
    /// expects one of the others to, so their nodes are ALL nodes; a later
    /// move of a PV or ALL node is expected to fail low, so its node is a
    /// CUT node.
    pub fn later_child(self) -> NodeKind {
        match self {
            NodeKind::Cut => NodeKind::All,
            NodeKind::Pv | NodeKind::All => NodeKind::Cut,
        }
    }
}

/// Which nodes of a null-window pass keep the principal variation's
/// privileges (no pruning before moves, a smaller reduction, every move
/// near a mate score). A null window has no PV node in Knuth and Moore's
/// sense; with `FirstMoveChain` the pass's first-move chain from the root
/// (the previous iteration's PV through the TT moves) is searched as one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PvLine {
    /// Only a node on the PV with a window wider than null.
    WideWindow,
    /// Also the first-move chain of a null-window pass (MTD(f)).
    FirstMoveChain,
}

/// What a node is on the principal variation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum PvStatus {
    /// Off the PV: every selective technique applies.
    Off,
    /// On a null-window pass's first-move chain: no pruning before moves, a
    /// smaller reduction and a full-width move loop near mate, but late quiet
    /// moves are still pruned and nothing is re-searched.
    Chain,
    /// On the PV with a window wider than null: the chain's privileges, no
    /// quiet-move pruning, and a move landing inside the window is searched
    /// again with it.
    Open,
}

/// What negamax knows of its node before the TT is read.
#[derive(Copy, Clone)]
struct Node {
    /// The remaining depth: extended by a check, reduced when the node has
    /// no TT move (internal iterative reduction).
    depth: Depth,
    ply: Ply,
    kind: NodeKind,
    root: bool,
    /// Its place on the principal variation (what selectivity it gets).
    pv: PvStatus,
    in_check: bool,
    /// Normal mode: the selective techniques apply.
    selective: bool,
    /// Set when this is a singular-extension search of the node: this
    /// move (the TT move) is left out, and the result is not the node's value.
    excluded: Option<Move>,
    key: u64,
}

/// The static evaluation of a node.
struct NodeEval {
    /// As the evaluation gave it (the correction history learns from it).
    raw: Score,
    /// Corrected and rounded to the grain (improving and the correction
    /// history read it).
    value: Score,
    /// What pruning compares: the value, lowered to a TT upper bound below
    /// it when `EVAL_LOWERED_BY_TT` is 1 (`lowered_by_tt`).
    refined: Score,
    /// Better for the side to move than two plies ago.
    improving: bool,
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

/// A move of the current line: the move itself (for the soundness of a
/// check it gives and whether it was quiet) and the piece it moved where
/// (for the continuation tables).
#[derive(Clone, Copy)]
struct LineMove {
    piece_to: PieceTo,
    m: Move,
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
    /// Which nodes of a null-window pass are searched as PV nodes (set by the back end).
    pub pv_line: PvLine,
    /// The static evaluation of Normal mode (Pure mode: always Classical).
    pub evaluation: Evaluation,
    /// Called at every poll of the stop flag: where a helper thread beyond
    /// the cores gives its turn (the pool sets `threads::turns::pause_point`;
    /// a no-op for every other search).
    pub pause: fn(),
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
    /// The nodes under each of `root_moves` since they were set: every pass
    /// of the current line's iteration (for the time manager).
    root_effort: RootEffort,
    /// The static evaluation at each ply of the current line (`-INFINITE`
    /// in check), for the improving flag.
    static_evals: [Score; MAX_PLY + 1],
    /// The move played at each ply of the current line (`None` for a null
    /// move), with the piece it moved and where to.
    line: [Option<LineMove>; MAX_PLY + 1],
    /// The move left out at each ply by a singular-extension search.
    excluded: [Option<Move>; MAX_PLY + 1],
    /// The depth of the current root search (bounds how far extensions reach).
    root_depth: Depth,
    /// The static evaluation is rounded to a multiple of this (see `Grain`).
    pub grain: Grain,
    /// The previous iteration found a mate (for either side): a node whose
    /// side to move already has a mate in hand then looks for a faster one
    /// without pruning or reducing its quiet moves.
    pub mate_found: bool,
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
        let root_effort = RootEffort::for_moves(&root_moves);
        Searcher {
            board,
            tt,
            tables,
            stats: SearchStats::default(),
            pv: PvTable::default(),
            mode,
            scheme: NodeScheme::Pvs,
            pv_line: PvLine::WideWindow,
            evaluation: Evaluation::default(),
            pause: || {},
            control,
            budget: TimeBudget::UNLIMITED,
            node_limit: None,
            hard_limit_armed: false,
            stopped: false,
            root_moves,
            root_restricted: false,
            root_best: None,
            root_effort,
            static_evals: [-Score::INFINITE; MAX_PLY + 1],
            line: [None; MAX_PLY + 1],
            excluded: [None; MAX_PLY + 1],
            root_depth: 0,
            grain: Grain::FULL,
            mate_found: false,
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

    /// Restricts the root to `moves` (a subset of the legal moves) and
    /// starts counting their nodes afresh (`root_move_share`).
    pub fn set_root_moves(&mut self, moves: &[Move]) {
        let all = self.board.legal_moves();
        self.root_moves.clear();
        for &m in moves {
            if all.contains(&m) && !self.root_moves.contains(&m) {
                self.root_moves.push(m);
            }
        }
        self.root_effort.set_moves(&self.root_moves);
        self.root_restricted = self.root_moves.len() < all.len();
    }

    /// The nodes counted under each root move since the root moves were set.
    pub fn root_effort(&self) -> &RootEffort {
        &self.root_effort
    }

    /// The share (0 to 1) of the root's nodes spent under `mv` since the
    /// root moves were set: over every pass of the line's iteration when the
    /// driver asks. `None` when nothing was counted.
    pub fn root_move_share(&self, mv: Move) -> Option<f64> {
        self.root_effort.share(mv)
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

    /// Remembers `m`, played by `turn` at `ply`, as the line's move there
    /// (read by the continuation tables, the fail-low credit, which asks
    /// whether it was quiet, and the soundness of a check it gives).
    #[inline(always)]
    fn enter_line(&mut self, ply: Ply, turn: Color, m: Move) {
        self.line[ply] = Some(LineMove {
            piece_to: PieceTo::new(turn, m),
            m,
        });
    }

    /// Remembers a null move at `ply`: no move in the line there.
    #[inline(always)]
    fn enter_null_line(&mut self, ply: Ply) {
        self.line[ply] = None;
    }

    /// The moves played one and two plies before `ply` (none before the
    /// root or for a null move).
    #[inline(always)]
    fn line_context(&self, ply: Ply) -> LineContext {
        let back = |n: Ply| {
            ply.checked_sub(n)
                .and_then(|p| self.line[p])
                .map(|l| l.piece_to)
        };
        [back(1), back(2)]
    }

    /// The static evaluation and the value the search uses at a leaf: in
    /// Normal mode the evaluation corrected by the correction history and
    /// rounded to the grain; in Pure mode the evaluation itself.
    #[inline]
    fn leaf_eval(&mut self, ply: Ply) -> (Score, Score) {
        let raw = self.static_eval(ply);
        let leaf = match self.mode {
            SearchMode::Normal => self.grain.round(self.tables.correction.corrected(
                self.board.pos(),
                raw,
                &self.line_context(ply),
            )),
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
    /// cores may first wait for its next turn: `pause`).
    pub fn poll_stop(&mut self) {
        (self.pause)();
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
    /// Its steps: arrive (draws, the ply limit), the horizon, the TT and the
    /// tablebases, the static evaluation and pruning before any move, the
    /// TT move's singular extension, the move loop, and the store.
    pub fn negamax(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: Depth,
        ply: Ply,
        kind: NodeKind,
    ) -> Score {
        self.pv.clear(ply);
        if let Some(score) = self.arrive(ply) {
            return score;
        }
        let mut node = self.node_facts(alpha, beta, depth, ply, kind);
        if node.depth <= 0 {
            // This node, already counted, is a horizon leaf and the first
            // node of the quiescence search.
            self.stats.leaves += 1;
            return self.quiescence_body(alpha, beta, ply);
        }
        let hit = self.tt.probe(node.key, ply);
        if !node.root
            && node.excluded.is_none()
            && let Some(score) = self.known_value(hit, node.key, alpha, beta, node.depth, ply)
        {
            return score;
        }
        let eval = self.node_evaluation(&node, hit);
        if node.selective
            && !node.root
            && node.pv == PvStatus::Off
            && !node.in_check
            && node.excluded.is_none()
            && let Some(score) =
                self.prune_before_moves(beta, node.depth, ply, eval.refined, eval.improving, hit)
        {
            return score;
        }
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.mv);
        if node.selective && !node.root && tt_move.is_none() && node.depth >= tp!(IIR_MIN_DEPTH) {
            node.depth -= 1;
        }
        let tt_first = self.playable_tt_move(tt_move, &node);
        let extension = match self.singular_extension(tt_first, hit, beta, &node) {
            ControlFlow::Continue(extension) => extension,
            ControlFlow::Break(score) => return score,
        };
        let cx = MoveLoop::new(
            self,
            node,
            eval,
            tt_move,
            tt_first,
            extension,
            (alpha, beta),
        );
        match self.search_moves(alpha, beta, &cx) {
            MovesSearched::Best { score, mv } => self.conclude(score, mv, alpha, beta, &cx),
            MovesSearched::Final(score) => score,
        }
    }

    /// Counts the node and ends it at once when the search stops, the
    /// position is drawn or the line has reached the ply limit (the root,
    /// counted here too, always goes on).
    #[inline(always)]
    fn arrive(&mut self, ply: Ply) -> Option<Score> {
        if ply == 0 {
            self.stats.nodes += 1;
            return None;
        }
        if self.enter_node(ply) {
            return Some(Score::ZERO);
        }
        if self.board.is_draw_by(self.repetition_rule()) {
            return Some(Score::DRAW);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.leaf_eval(ply).1);
        }
        None
    }

    /// What the node is, before the TT is read: Normal mode extends a
    /// check by a ply here (`extends_check`).
    #[inline(always)]
    fn node_facts(
        &self,
        alpha: Score,
        beta: Score,
        depth: Depth,
        ply: Ply,
        kind: NodeKind,
    ) -> Node {
        let root = ply == 0;
        let selective = self.mode == SearchMode::Normal;
        let in_check = self.board.in_check();
        Node {
            depth: depth + Depth::from(selective && in_check && !root && self.extends_check(ply)),
            ply,
            kind,
            root,
            pv: match kind {
                NodeKind::Cut | NodeKind::All => PvStatus::Off,
                NodeKind::Pv if beta.0 - alpha.0 > 1 => PvStatus::Open,
                NodeKind::Pv if self.pv_line == PvLine::FirstMoveChain => PvStatus::Chain,
                NodeKind::Pv => PvStatus::Off,
            },
            in_check,
            selective,
            excluded: self.excluded[ply],
            key: self.board.key(),
        }
    }

    /// Is the check that led to the node at `ply` worth a ply more? Every
    /// check is, unless `SOUND_CHECK_EXTENSION` asks for a `sound_check`.
    #[inline]
    fn extends_check(&self, ply: Ply) -> bool {
        tp!(SOUND_CHECK_EXTENSION) == 0 || self.sound_check(ply)
    }

    /// Does the move that led to the node at `ply` hold its material by
    /// exchange? A check that gives a piece away may not be worth a ply
    /// more: the reply takes it.
    #[inline]
    fn sound_check(&self, ply: Ply) -> bool {
        match (self.line[ply - 1], self.board.parent()) {
            (Some(played), Some(parent)) => see_at_least(parent, played.m, 0),
            _ => true,
        }
    }

    /// The static evaluation of a quiet node in Normal mode (minus infinity
    /// otherwise), remembered for the ply, and whether the side to move is
    /// doing better than two plies ago (then pruning can be bolder, and
    /// late quiet moves are reduced less); for pruning, lowered to a TT
    /// upper bound below it (`lowered_by_tt`) when `EVAL_LOWERED_BY_TT` is 1.
    #[inline(always)]
    fn node_evaluation(&mut self, node: &Node, hit: Option<TtHit>) -> NodeEval {
        let ply = node.ply;
        let (raw, value) = if node.selective && !node.in_check {
            self.leaf_eval(ply)
        } else {
            (-Score::INFINITE, -Score::INFINITE)
        };
        self.static_evals[ply] = value;
        let improving = !node.in_check
            && ply >= 2
            && (self.static_evals[ply - 2] == -Score::INFINITE
                || value > self.static_evals[ply - 2]);
        NodeEval {
            raw,
            value,
            refined: if tp!(EVAL_LOWERED_BY_TT) != 0 {
                lowered_by_tt(value, hit)
            } else {
                value
            },
            improving,
        }
    }

    /// The TT move when it is legal here, tried before the other moves are
    /// even generated or scored: when it cuts off, no move generation, SEE
    /// or history lookup is spent on the rest. None in a singular-extension
    /// search, which leaves it out.
    #[inline(always)]
    fn playable_tt_move(&self, tt_move: PackedMove, node: &Node) -> Option<Move> {
        if node.excluded.is_some() {
            None
        } else if node.root {
            tt_move.find_in(&self.root_moves)
        } else {
            tt_move.to_legal(self.board.pos())
        }
    }

    /// The node's result once its moves are searched: stored in the TT
    /// (unless the root was restricted to some moves, or this is the search
    /// without the TT move, whose result is not the node's value) and, at the
    /// root, kept as the best move.
    #[inline(always)]
    fn conclude(
        &mut self,
        best: Score,
        best_move: Option<Move>,
        alpha: Score,
        beta: Score,
        cx: &MoveLoop,
    ) -> Score {
        let node = &cx.node;
        if node.excluded.is_some() {
            // Only the excluded move, or only pruned ones: the others fail low.
            return if best == -Score::INFINITE {
                alpha
            } else {
                best
            };
        }
        if !(node.root && self.root_restricted) {
            let bound = Bound::of_result(best, alpha, beta);
            self.store_result(node, best, best_move, bound, &cx.eval);
        }
        if best <= alpha {
            self.credit_prior_move(node, &cx.eval);
        }
        if node.root
            && let Some(mv) = best_move
        {
            self.root_best = Some(RootBest { mv, score: best });
        }
        best
    }

    /// A node of Normal mode that failed low refuted none of the opponent's
    /// moves: the quiet move that led here was a good one, and the
    /// continuation history of the line before it learns so (Stockfish's
    /// prior countermove bonus), unless the position is decided.
    #[inline]
    fn credit_prior_move(&mut self, node: &Node, eval: &NodeEval) {
        if !node.selective || node.root {
            return;
        }
        let prior = node.ply - 1;
        // Not in a decided position (in check, where the node has no
        // evaluation, by its parent's): in a bare-king ending a few move
        // pairs cover the whole tree, and their credit reordered MT-SSS*
        // away from the KQK mate in 4 of tests/mates_and_draws.rs at depth 9.
        let judged = if node.in_check {
            self.static_evals[prior]
        } else {
            eval.raw
        };
        if judged.0.abs() >= DECIDED {
            return;
        }
        if let Some(played) = self.line[prior]
            && !is_tactical(played.m)
        {
            let line = self.line_context(prior);
            self.tables
                .continuation
                .credit(&line, played.piece_to, History::bonus(node.depth));
        }
    }

    /// Stores the node's result in the TT and teaches the correction
    /// history when the result says more than the static evaluation: an
    /// exact score, or a bound beyond it (tactical best moves are left out:
    /// their gain is not positional).
    #[inline]
    fn store_result(
        &mut self,
        node: &Node,
        best: Score,
        best_move: Option<Move>,
        bound: Bound,
        eval: &NodeEval,
    ) {
        // A fail low proves no move best: its highest upper bound says
        // little, so the entry keeps the move an earlier search found.
        let stored_move = if bound == Bound::Upper {
            None
        } else {
            best_move
        };
        self.tt
            .store(node.key, node.ply, stored_move, best, node.depth, bound);
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best > eval.value,
            Bound::Upper => best < eval.value,
        };
        if self.mode == SearchMode::Normal
            && !node.in_check
            && informative
            && is_plain(best)
            && best_move.is_none_or(|m| !is_tactical(m))
        {
            self.tables.correction.update(
                self.board.pos(),
                eval.raw,
                best,
                node.depth,
                &self.line_context(node.ply),
            );
        }
    }
}

/// The static evaluation `value` that pruning compares, lowered to the TT's
/// upper bound where a search proved the node worth less. Not raised to a
/// lower bound above it: a lower bound from a shallower search, fed to
/// reverse futility, hides quiet mates at the horizon (1.Ra6 bxa6 2.b7# of
/// tests/mates_and_draws.rs at depth 5, even from an entry one ply short).
#[inline(always)]
fn lowered_by_tt(value: Score, hit: Option<TtHit>) -> Score {
    match hit {
        Some(h) if value != -Score::INFINITE && is_plain(h.upper) && h.upper < value => h.upper,
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use super::pruning::Singularity;
    use super::*;
    use crate::tt::TtHit;

    /// A searcher whose TT holds a finished depth-`depth` search of `fen`.
    fn searched(fen: &str, depth: Depth) -> (Searcher, TtHit, Move) {
        let board = Board::from_fen(fen).unwrap();
        let mut s = Searcher::standalone(board, 1, SearchMode::Normal).unwrap();
        s.search_root(-Score::INFINITE, Score::INFINITE, depth);
        let best = s.root_best.expect("a best move").mv;
        let hit = s.tt.probe(s.board.key(), 0).expect("the root was stored");
        (s, hit, best)
    }

    /// The continuation-history entry of Black's `prior` after White's
    /// `earlier` (UCI moves from `fen`, White to move) once a node after
    /// them (White to move, at ply 2) fails low, in `mode`.
    fn credit_after_fail_low(fen: &str, mode: SearchMode, [earlier, prior]: [&str; 2]) -> i32 {
        let board = Board::from_fen(fen).unwrap();
        let mut s = Searcher::standalone(board, 1, mode).unwrap();
        for (ply, uci) in [earlier, prior].into_iter().enumerate() {
            let m = s.board.parse_uci(uci).unwrap();
            s.enter_line(ply, s.board.turn(), m);
            s.board.play(m);
        }
        let (earlier, prior) = (s.line[0].unwrap().piece_to, s.line[1].unwrap().piece_to);
        let read = |s: &Searcher| s.tables.continuation.get(&[Some(earlier), None], prior);
        assert_eq!(read(&s), 0);
        // No White move reaches +50 pawns: the node fails low.
        let score = s.negamax(Score(5_000), Score(5_001), 3, 2, NodeKind::All);
        assert!(score <= Score(5_000));
        read(&s)
    }

    /// After `uci` is played from `fen` (one ply below the root): whether
    /// the move holds its material by exchange, and the plies by which
    /// Normal mode extends the node.
    fn after_move(fen: &str, uci: &str) -> (bool, Depth) {
        let board = Board::from_fen(fen).unwrap();
        let mut s = Searcher::standalone(board, 1, SearchMode::Normal).unwrap();
        let m = s.board.parse_uci(uci).unwrap();
        s.enter_line(0, s.board.turn(), m);
        s.board.play(m);
        let node = s.node_facts(-Score::INFINITE, Score::INFINITE, 3, 1, NodeKind::All);
        (s.sound_check(1), node.depth - 3)
    }

    #[test]
    fn a_check_that_gives_material_away_is_not_sound() {
        // Ra8+ from afar: the rook stays; extended.
        assert_eq!(
            after_move("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"),
            (true, 1)
        );
        // Rd8+ next to the king, unguarded: Kxd8 wins it; extended only
        // while every check is.
        let unsound = after_move("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "d1d8");
        assert!(!unsound.0);
        assert_eq!(unsound.1, Depth::from(tp!(SOUND_CHECK_EXTENSION) == 0));
        // Guarded by the bishop on h4, the same check holds.
        assert_eq!(
            after_move("4k3/8/8/8/7B/8/8/3RK3 w - - 0 1", "d1d8"),
            (true, 1)
        );
        // A quiet move that gives no check: no extension.
        assert_eq!(after_move("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a2").1, 0);
    }

    #[test]
    fn a_fail_low_credits_the_quiet_move_that_led_to_it() {
        const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        const NF3_NF6: [&str; 2] = ["g1f3", "g8f6"];
        assert!(credit_after_fail_low(START, SearchMode::Normal, NF3_NF6) > 0);
        assert_eq!(credit_after_fail_low(START, SearchMode::Pure, NF3_NF6), 0);
        // Black's prior move a capture (2.Nc3 dxe4): no credit.
        const SCANDINAVIAN: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(
            credit_after_fail_low(SCANDINAVIAN, SearchMode::Normal, ["b1c3", "d5e4"]),
            0
        );
        // The same position, Black's prior move quiet (2.Nc3 Nf6): credit.
        assert!(credit_after_fail_low(SCANDINAVIAN, SearchMode::Normal, ["b1c3", "g8f6"]) > 0);
        // Black without its queen and rooks: decided, no credit.
        const DECIDED_FEN: &str = "1nb1kbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1";
        assert_eq!(
            credit_after_fail_low(DECIDED_FEN, SearchMode::Normal, NF3_NF6),
            0
        );
    }

    #[test]
    fn node_kinds_alternate_cut_and_all_below_the_principal_variation() {
        // Knuth and Moore: the first child of a PV node is PV, its later
        // children CUT; a CUT node's children are ALL, an ALL node's CUT.
        assert_eq!(NodeKind::Pv.first_child(), NodeKind::Pv);
        assert_eq!(NodeKind::Pv.later_child(), NodeKind::Cut);
        assert_eq!(NodeKind::Cut.first_child(), NodeKind::All);
        assert_eq!(NodeKind::Cut.later_child(), NodeKind::All);
        assert_eq!(NodeKind::All.first_child(), NodeKind::Cut);
        assert_eq!(NodeKind::All.later_child(), NodeKind::Cut);
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

    /// Pruning reads the evaluation lowered to an upper bound below it, and
    /// never raised: not by a lower bound above it, not past a mate score,
    /// and not where the node has no evaluation (in check, Pure mode).
    #[test]
    fn pruning_reads_the_evaluation_lowered_to_a_tt_upper_bound() {
        let hit = |lower, upper| {
            Some(TtHit {
                mv: PackedMove::NONE,
                depth: 3,
                lower,
                upper,
            })
        };
        let (inf, eval) = (Score::INFINITE, Score(120));
        assert_eq!(lowered_by_tt(eval, None), eval);
        assert_eq!(lowered_by_tt(eval, hit(-inf, Score(40))), Score(40));
        assert_eq!(lowered_by_tt(eval, hit(Score(40), Score(40))), Score(40));
        assert_eq!(lowered_by_tt(eval, hit(-inf, Score(200))), eval);
        assert_eq!(lowered_by_tt(eval, hit(Score(300), inf)), eval);
        let mated = Score(-Score::MATE_BOUND.0 + 5);
        assert_eq!(lowered_by_tt(eval, hit(-inf, mated)), eval);
        assert_eq!(lowered_by_tt(-inf, hit(-inf, Score(40))), -inf);
    }
}
