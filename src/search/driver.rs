//! Iterative deepening, shared by all back ends: one iteration per depth
//! (one per line with MultiPV), the soft time limit between iterations, the
//! hard one and the node limit inside them, and an `Info` report per finished line.

use super::backends::{self, Iteration};
use super::node::Searcher;
use super::pv_completion::{Completion, PvLength, continue_from_tt};
use super::{Limits, PvLine, SearchMode, SearchParams, SearchResult};
use crate::board::Board;
use crate::known::rank_root_moves;
use crate::known::root::TbOutcome;
use crate::score::{Depth, MAX_PLY, Score};
use crate::search::time::TimeBudget;
use crate::search::time::stability::{SoftScale, Stability};
use crate::search::tunables::NEXT_ITERATION_PERCENT;
use crate::tp;
use crate::tt::Bound;
use shakmaty::Move;
use std::time::Duration;

/// Deepest iteration the driver starts.
pub const MAX_DEPTH: Depth = MAX_PLY as Depth - 8;

/// What the driver reports after each finished line of an iteration.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: Depth,
    pub seldepth: usize,
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    pub score: Score,
    /// `Exact` for a finished line; `Lower` for the best move of a pass
    /// that was stopped (the root is worth at least that much).
    pub bound: Bound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Tablebase hits so far (`None`: no tables loaded).
    pub tbhits: Option<u64>,
    pub pv: Vec<Move>,
}

/// Runs a whole search from the searcher's board and returns the best move.
/// `report` is called once per finished line of each iteration.
///
/// The steps: `use_evaluation`, `prepare_root` (the moves, the tables, the
/// clock), `deepen` (per depth: `search_lines`, then `report_iteration`,
/// `Deepening::record` and `go_on`, or `take_stopped_pass`), `finish`.
pub fn search(
    s: &mut Searcher,
    params: &SearchParams,
    limits: &Limits,
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    use_evaluation(s, params);
    let Some(root) = prepare_root(s, params, limits) else {
        return no_move_result(s);
    };
    let result = deepen(s, &root, report);
    finish(s, &root, result)
}

/// What every iteration of one search shares: the request, the root moves
/// and what the tables know of the root, and the time budget.
struct Root<'a> {
    params: &'a SearchParams,
    limits: &'a Limits,
    /// The root moves to search: `searchmoves`' legal ones (all legal moves
    /// without them), narrowed by the tables.
    moves: Vec<Move>,
    /// The root's result in the tables, when they know it.
    tb: Option<TbOutcome>,
    budget: TimeBudget,
    /// The deepest iteration to start.
    max_depth: Depth,
    /// The lines each iteration searches (MultiPV, at most one per move).
    lines_wanted: usize,
}

impl Root<'_> {
    /// The score shown for `score` (see `shown_score`).
    fn shown(&self, score: Score) -> Score {
        shown_score(score, self.tb)
    }

    /// The tablebase hits to report (`None` without tables).
    fn tbhits(&self, s: &Searcher) -> Option<u64> {
        self.params.syzygy.tables.as_ref().map(|_| s.stats.tbhits)
    }
}

/// A searched line of an iteration.
struct Line {
    /// The back end's result: the value and the best move.
    it: Iteration,
    pv: Vec<Move>,
    /// The share (0 to 1) of the line's root nodes, over all its passes,
    /// that went to its best move (`None` when none were counted).
    best_move_share: Option<f64>,
}

/// What iterative deepening carries from one iteration to the next.
struct Deepening {
    /// The answer so far: the last finished iteration's (or a stopped
    /// pass's) best move.
    result: SearchResult,
    /// Each line's score in the last iteration, the next one's guess.
    guesses: Vec<Score>,
    stability: Stability,
    /// The small searches that carry a line's PV to its full length.
    completion: Completion,
}

/// Points the searcher at the evaluation, grain and network the search uses.
fn use_evaluation(s: &mut Searcher, params: &SearchParams) {
    s.evaluation = params.evaluation;
    s.grain = params.grain_for_searcher();
    s.tables.static_eval.use_network(&params.network);
}

/// The result in a position without a legal move: mated or stalemate.
fn no_move_result(s: &Searcher) -> SearchResult {
    SearchResult {
        score: if s.board.in_check() {
            Score::mated_in(0)
        } else {
            Score::DRAW
        },
        ..SearchResult::default()
    }
}

/// Prepares the root: the moves to search, the tablebase probes, the
/// limits of the whole search; `None` when the side to move has no legal
/// move.
fn prepare_root<'a>(
    s: &mut Searcher,
    params: &'a SearchParams,
    limits: &'a Limits,
) -> Option<Root<'a>> {
    let legal = s.board.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let allowed = allowed_moves(&legal, &limits.searchmoves);
    let (moves, tb) = use_tablebases(s, params, allowed);
    let budget = start_clock(s, params, limits);
    Some(Root {
        params,
        limits,
        tb,
        budget,
        max_depth: limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH),
        lines_wanted: params.multipv.clamp(1, moves.len()),
        moves,
    })
}

/// The legal moves of `searchmoves`, or every legal move when it is empty
/// or names none.
fn allowed_moves(legal: &[Move], searchmoves: &[Move]) -> Vec<Move> {
    let allowed: Vec<Move> = searchmoves
        .iter()
        .copied()
        .filter(|m| legal.contains(m))
        .collect();
    if allowed.is_empty() {
        legal.to_vec()
    } else {
        allowed
    }
}

/// Sets the time budget and the node limit and starts a new search in the
/// TT; returns the budget.
fn start_clock(s: &mut Searcher, params: &SearchParams, limits: &Limits) -> TimeBudget {
    let overhead = Duration::from_millis(params.move_overhead_ms);
    let budget = TimeBudget::new(limits, s.board.turn(), overhead);
    s.set_limits(budget, limits.nodes);
    // The clock and the node limit hold from the first node on: a first
    // iteration can take for ever (a position full of pieces in Pure mode),
    // and the result's first root move is already a move to play.
    s.arm_hard_limit();
    s.tt.new_search();
    budget
}

/// The iteration loop: one iteration per depth, each reported and
/// recorded, until a stopped pass or `go_on` ends the search.
fn deepen(s: &mut Searcher, root: &Root, report: &mut dyn FnMut(&Info)) -> SearchResult {
    let mut d = Deepening {
        result: SearchResult {
            // A move to play even if the first iteration is interrupted by `stop`.
            best_move: Some(root.moves[0]),
            ..SearchResult::default()
        },
        guesses: vec![Score::ZERO; root.lines_wanted],
        stability: Stability::default(),
        completion: Completion::default(),
    };
    for depth in 1..=root.max_depth {
        let mut lines = search_lines(s, root, &d.guesses, &mut d.completion, depth);
        if lines.len() < root.lines_wanted {
            take_stopped_pass(s, root, depth, &mut d.result, report);
            break;
        }
        report_iteration(s, root, depth, &mut lines, report);
        d.record(depth, lines);
        if !go_on(s, root, depth, &d) {
            break;
        }
    }
    d.result
}

/// One iteration at `depth`: each line (MultiPV) searched in turn without
/// the best moves of the lines before it. Fewer lines than wanted when the
/// search was stopped.
fn search_lines(
    s: &mut Searcher,
    root: &Root,
    guesses: &[Score],
    completion: &mut Completion,
    depth: Depth,
) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::with_capacity(root.lines_wanted);
    let mut excluded: Vec<Move> = Vec::new();
    for (index, &guess) in guesses.iter().enumerate() {
        let Some(line) = search_line(s, root, completion, &excluded, depth, guess) else {
            break;
        };
        excluded.push(line.it.best);
        lines.push(line);
        if index + 1 < root.lines_wanted {
            s.poll_stop();
            if s.stopped() {
                break;
            }
        }
    }
    lines
}

/// One line of an iteration: the back end's search of the root moves but
/// `excluded` from `guess` (its windows are its own), and the line's
/// principal variation; `None` when it was stopped.
fn search_line(
    s: &mut Searcher,
    root: &Root,
    completion: &mut Completion,
    excluded: &[Move],
    depth: Depth,
    guess: Score,
) -> Option<Line> {
    let remaining: Vec<Move> = root
        .moves
        .iter()
        .copied()
        .filter(|m| !excluded.contains(m))
        .collect();
    s.set_root_moves(&remaining);
    s.mate_found = guess.is_mate();
    let it = backends::iterate(root.params.algorithm, s, depth, guess)?;
    let best_move_share = s.root_move_share(it.best);
    let pv = principal_variation(s, root.params, completion, it.best, it.score, depth);
    Some(Line {
        it,
        pv,
        best_move_share,
    })
}

/// An iteration stopped inside its pass, after a move beat the pass's
/// alpha: the previous iteration's move (searched first) is known to be no
/// better, so that move becomes the result, reported as a lower bound.
/// (With MultiPV the finished lines stand.)
fn take_stopped_pass(
    s: &mut Searcher,
    root: &Root,
    depth: Depth,
    result: &mut SearchResult,
    report: &mut dyn FnMut(&Info),
) {
    if root.lines_wanted == 1
        && let Some(b) = s.root_best
        && result.best_move != Some(b.mv)
    {
        result.best_move = Some(b.mv);
        result.score = b.score;
        result.pv = pv_from_tt(&s.board, &s.tt, b.mv, depth);
        extend_mate_line(&s.board, &s.tt, &mut result.pv, b.score);
        end_with_the_game(&s.board, &mut result.pv);
        result.ponder_move = result.pv.get(1).copied();
        report(&Info {
            depth,
            seldepth: s.stats.seldepth,
            multipv: 1,
            score: root.shown(b.score),
            bound: Bound::Lower,
            nodes: s.stats.nodes,
            time: s.control().elapsed(),
            hashfull: s.tt.hashfull(),
            tbhits: root.tbhits(s),
            pv: result.pv.clone(),
        });
    }
}

/// Reports a finished iteration's lines, best first.
fn report_iteration(
    s: &Searcher,
    root: &Root,
    depth: Depth,
    lines: &mut [Line],
    report: &mut dyn FnMut(&Info),
) {
    lines.sort_by_key(|line| std::cmp::Reverse(line.it.score));
    let elapsed = s.control().elapsed();
    let hashfull = s.tt.hashfull();
    for (index, Line { it, pv, .. }) in lines.iter().enumerate() {
        report(&Info {
            depth,
            seldepth: s.stats.seldepth,
            multipv: index + 1,
            score: root.shown(it.score),
            bound: Bound::Exact,
            nodes: s.stats.nodes,
            time: elapsed,
            hashfull,
            tbhits: root.tbhits(s),
            pv: pv.clone(),
        });
    }
}

impl Deepening {
    /// Takes a finished iteration's lines (best first) as the result, the
    /// next iteration's guesses and a step of the stability.
    fn record(&mut self, depth: Depth, lines: Vec<Line>) {
        for (guess, line) in self.guesses.iter_mut().zip(&lines) {
            *guess = line.it.score;
        }
        let result = &mut self.result;
        let Line {
            it: best,
            pv: best_pv,
            best_move_share,
        } = &lines[0];
        if depth > 1 {
            self.stability.update(
                result.best_move == Some(best.best),
                result.score,
                best.score,
                *best_move_share,
            );
        }
        result.best_move = Some(best.best);
        result.score = best.score;
        result.depth = depth;
        result.pv = best_pv.clone();
        result.ponder_move = best_pv.get(1).copied();
        result.lines = lines
            .iter()
            .map(|Line { it, pv, .. }| PvLine {
                score: it.score,
                moves: pv.clone(),
            })
            .collect();
    }
}

/// Whether another iteration starts after the one at `depth`: not once the
/// mate `go mate` asks for is found, the time is up, the node limit (hard
/// or soft) is reached or `stop` came.
fn go_on(s: &mut Searcher, root: &Root, depth: Depth, d: &Deepening) -> bool {
    if let Some(mate) = root.limits.mate
        && let Some(moves) = d.result.score.mate_moves()
        && moves > 0
        && moves as u32 <= mate
    {
        return false;
    }
    if time_is_up(s, root, depth, &d.stability) {
        return false;
    }
    if root.limits.nodes.is_some_and(|n| s.stats.nodes >= n) {
        return false;
    }
    if root.limits.soft_nodes.is_some_and(|n| s.stats.nodes >= n) {
        return false;
    }
    s.poll_stop();
    !s.stopped()
}

/// Whether a timed search stops after the iteration at `depth`: with one
/// root move, or once `next_iteration_until` has passed. Never while
/// pondering. (`movetime` has no soft limit: it searches until the hard one.)
fn time_is_up(s: &Searcher, root: &Root, depth: Depth, stability: &Stability) -> bool {
    let budget = root.budget;
    let spent = s.control().elapsed();
    let scale = stability.soft_scale();
    let next_iteration_until = next_iteration_until(budget, &scale);
    if let (Some(soft), Some(until)) = (budget.soft, next_iteration_until) {
        log::debug!(
            "time: depth {depth} done at {spent:?}; soft limit {soft:?} scaled by {:.2} \
             (best move {:.2}, score {:.2}, node share {} -> {:.2}), next iteration only before {until:?}",
            scale.total(),
            scale.by_move,
            scale.by_score,
            stability
                .best_move_share()
                .map_or("-".to_string(), |share| format!("{:.0} %", share * 100.0)),
            scale.by_nodes,
        );
    }
    !s.control().is_pondering()
        && budget.hard.is_some()
        && (root.moves.len() == 1 || next_iteration_until.is_some_and(|until| spent >= until))
}

/// The time after which no iteration starts: `NEXT_ITERATION_PERCENT` of
/// the soft limit times `scale` (how settled the search looks). `None`
/// without a soft limit (`movetime`, `go nodes`, `go depth`, `infinite`).
fn next_iteration_until(budget: TimeBudget, scale: &SoftScale) -> Option<Duration> {
    budget
        .soft
        .map(|soft| soft.mul_f64(next_iteration_share() * scale.total()))
}

/// The result as the user sees it: the search's statistics, and scores
/// shown as the tables know the root (the search compared the searched
/// values).
fn finish(s: &Searcher, root: &Root, mut result: SearchResult) -> SearchResult {
    result.stats = s.stats;
    result.score = root.shown(result.score);
    for line in &mut result.lines {
        line.score = root.shown(line.score);
    }
    result
}

/// Sets up the searcher's tablebase probes (none in Pure mode) and returns
/// the root moves to search: when the root is in the tables, only those
/// that keep its result (see `known::root`), and that result.
fn use_tablebases(
    s: &mut Searcher,
    params: &SearchParams,
    allowed: Vec<Move>,
) -> (Vec<Move>, Option<TbOutcome>) {
    s.tb = None;
    if params.mode == SearchMode::Pure {
        return (allowed, None);
    }
    s.tb = params.syzygy.search_probe();
    let Some(tables) = &params.syzygy.tables else {
        return (allowed, None);
    };
    let Some(ranking) = rank_root_moves(&s.board, tables, &allowed, params.syzygy.fifty_move_rule)
    else {
        return (allowed, None);
    };
    s.stats.tbhits += ranking.probes;
    s.control().count_tbhits(ranking.probes);
    if !ranking.search_probes() {
        s.tb = None;
    }
    (ranking.moves, Some(ranking.outcome))
}

/// The score shown for a root the tables know: their result, unless the
/// search has found a mate (a known win shows as the tablebase win at the
/// root, a draw as 0), so that a GUI or a bot reading the score sees a
/// won, drawn or lost ending for what it is.
fn shown_score(score: Score, root_tb: Option<TbOutcome>) -> Score {
    match root_tb {
        _ if score.is_mate() => score,
        Some(TbOutcome::Win) => Score::TB_WIN,
        Some(TbOutcome::Draw) => Score::DRAW,
        Some(TbOutcome::Loss) => -Score::TB_WIN,
        None => score,
    }
}

/// Another iteration is started only while less than this share of the
/// (scaled) soft limit has gone: the next one takes longer than all before it
/// together, and one cut short by the hard limit is mostly wasted.
fn next_iteration_share() -> f64 {
    f64::from(tp!(NEXT_ITERATION_PERCENT)) / 100.0
}

/// The principal variation of a finished line: the triangular PV when it
/// starts with `best` (otherwise `best` alone), continued from the TT, to
/// the mate for a mate score, then by small searches (`pv_completion`) to
/// at least `depth` plies unless the game ends on it sooner; cut where the
/// game would end.
fn principal_variation(
    s: &Searcher,
    params: &SearchParams,
    completion: &mut Completion,
    best: Move,
    score: Score,
    depth: Depth,
) -> Vec<Move> {
    let tri = s.pv.line(0);
    let mut pv = if tri.first() == Some(&best) {
        tri.to_vec()
    } else {
        vec![best]
    };
    let plies = depth.max(1) as usize;
    let triangular = pv.len();
    continue_from_tt(&s.board, &s.tt, &mut pv, plies);
    extend_mate_line(&s.board, &s.tt, &mut pv, score);
    let known = pv.len();
    let started = std::time::Instant::now();
    if params.pv_length == PvLength::Full {
        completion.complete(&s.board, params, &mut pv, plies);
    }
    log::debug!(
        "pv at depth {depth}: {triangular} plies from the triangular table, {known} with the TT, {} searched on in {:?}",
        pv.len(),
        started.elapsed()
    );
    end_with_the_game(&s.board, &mut pv);
    pv
}

/// A mate score's PV must reach the mate (GUIs and fastchess check it): when
/// the line is shorter than the plies to mate, it is continued from the TT
/// (the mating line was searched, and its nodes stored, beyond the nominal
/// depth through check extensions), then, if the TT has lost an entry, by a
/// small search for the quickest mate in the plies left.
pub fn extend_mate_line(
    board: &Board,
    tt: &crate::tt::TranspositionTable,
    pv: &mut Vec<Move>,
    score: Score,
) {
    let Some(moves) = score.mate_moves() else {
        return;
    };
    let plies = (Score::MATE.0 - score.0.abs()) as usize;
    if pv.len() >= plies || pv.is_empty() || moves == 0 {
        return;
    }
    let mut b = board.clone();
    for &m in pv.iter() {
        b.play(m);
    }
    while pv.len() < plies && !b.legal_moves().is_empty() && !b.is_draw() {
        let legal = b.legal_moves();
        let from_tt = tt
            .probe(b.key(), pv.len())
            .and_then(|hit| hit.mv.find_in(&legal));
        let Some(m) = from_tt.or_else(|| mate_keeping_move(&mut b, plies - pv.len())) else {
            break;
        };
        pv.push(m);
        b.play(m);
    }
}

/// The longest remainder of a mating line the completion searches out
/// itself (a full-width search: 3 plies are a few thousand nodes, the last
/// ply's checks only).
const MATE_COMPLETION_PLIES: usize = 3;

/// The move that keeps the mate `plies` away: the side to move mates in
/// `plies` (odd) or is mated in `plies` (even, then the longest defence).
fn mate_keeping_move(b: &mut Board, plies: usize) -> Option<Move> {
    if plies > MATE_COMPLETION_PLIES {
        return None;
    }
    let legal = b.legal_moves();
    let keeps = |b: &mut Board, m: Move, quickest: usize, longest: usize| {
        b.play(m);
        let ok = if plies % 2 == 1 {
            mated_within(b, quickest)
        } else {
            mates_within(b, quickest) && (longest == 0 || !mates_within(b, longest))
        };
        b.undo();
        ok
    };
    let (within, not_within) = (plies - 1, plies.saturating_sub(3));
    let first = legal
        .iter()
        .copied()
        .find(|&m| keeps(b, m, within, not_within));
    first.or_else(|| legal.iter().copied().find(|&m| keeps(b, m, within, 0)))
}

/// Can the side to move checkmate within `plies` (its moves and the replies)?
fn mates_within(b: &mut Board, plies: usize) -> bool {
    if plies == 0 {
        return false;
    }
    // On the last ply only a check can mate (and checks are cheap to find).
    let last = plies == 1;
    b.legal_moves().iter().any(|&m| {
        if last && !crate::board::gives_check(b.pos(), m) {
            return false;
        }
        b.play(m);
        let mated = mated_within(b, plies - 1);
        b.undo();
        mated
    })
}

/// Is the side to move checkmated now, or within `plies` whatever it plays?
fn mated_within(b: &mut Board, plies: usize) -> bool {
    let legal = b.legal_moves();
    if legal.is_empty() {
        return b.in_check();
    }
    if plies == 0 || b.is_draw() {
        return false;
    }
    legal.iter().all(|&m| {
        b.play(m);
        let mates = mates_within(b, plies - 1);
        b.undo();
        mates
    })
}

/// A shown PV stops where the game would: a line through a third
/// repetition (Pure mode searches on through repetitions inside the tree),
/// the fifty-move rule or a dead position ends at the move that ends the game.
pub fn end_with_the_game(board: &Board, pv: &mut Vec<Move>) {
    let mut b = board.clone();
    for (i, &m) in pv.iter().enumerate() {
        b.play(m);
        if b.game_over_by_rule() {
            pv.truncate(i + 1);
            return;
        }
    }
}

/// Follows the TT from the position after `best`.
pub fn pv_from_tt(
    board: &Board,
    tt: &crate::tt::TranspositionTable,
    best: Move,
    depth: Depth,
) -> Vec<Move> {
    let mut pv = vec![best];
    continue_from_tt(board, tt, &mut pv, depth.max(1) as usize);
    pv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(board: &Board, moves: &[&str]) -> Vec<Move> {
        let mut b = board.clone();
        moves.iter().map(|m| b.play_uci(m).unwrap()).collect()
    }

    #[test]
    fn a_shown_line_ends_at_the_third_repetition() {
        // Kings only walking back and forth, with one round already played
        // before the root: the position after the fourth PV move is the
        // third occurrence of the root's.
        let mut board = Board::from_fen("8/8/1p2k1p1/3p3p/1p1P1P1P/1P1K4/8/8 b - - 3 54").unwrap();
        for m in ["e6e7", "d3e3", "e7e6", "e3d3"] {
            board.play_uci(m).unwrap();
        }
        let mut pv = line(&board, &["e6e7", "d3e3", "e7e6", "e3d3", "e6e7", "d3e3"]);
        end_with_the_game(&board, &mut pv);
        assert_eq!(pv.len(), 4);
        // A line without repetitions is left whole.
        let mut pv = line(&board, &["e6e7", "d3e3", "e7f6", "e3f3"]);
        end_with_the_game(&board, &mut pv);
        assert_eq!(pv.len(), 4);
    }

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    /// The scale after one more iteration that kept the best move and the
    /// score, its share of the root nodes `share`.
    fn scale_with_share(share: Option<f64>) -> SoftScale {
        let mut stability = Stability::default();
        stability.update(true, Score(10), Score(10), share);
        stability.soft_scale()
    }

    #[test]
    fn the_next_iteration_waits_longer_when_the_best_move_took_less_of_the_nodes() {
        let budget = TimeBudget {
            soft: Some(ms(1000)),
            hard: Some(ms(3000)),
        };
        let unscaled = next_iteration_until(budget, &scale_with_share(None)).unwrap();
        assert_eq!(unscaled, ms(1000).mul_f64(next_iteration_share()));
        // The node-share factor as a positive weight makes it (its default
        // weight is 0: see time::stability).
        let by_nodes = |by_nodes| SoftScale {
            by_move: 1.0,
            by_score: 1.0,
            by_nodes,
        };
        let spread = next_iteration_until(budget, &by_nodes(1.44)).unwrap();
        let focused = next_iteration_until(budget, &by_nodes(0.56)).unwrap();
        assert!(
            spread > unscaled && unscaled > focused,
            "{spread:?} {focused:?}"
        );
        assert_eq!(spread, ms(1000).mul_f64(next_iteration_share() * 1.44));
        // The search's own scale after an iteration is what is applied.
        let now = scale_with_share(Some(0.2));
        assert_eq!(
            next_iteration_until(budget, &now).unwrap(),
            ms(1000).mul_f64(next_iteration_share() * now.total())
        );
        // `movetime`, `go nodes`, `go depth`: no soft limit, nothing to scale.
        let movetime = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        let budget = TimeBudget::new(&movetime, shakmaty::Color::White, ms(10));
        assert_eq!(
            next_iteration_until(budget, &scale_with_share(Some(0.2))),
            None
        );
        for limits in [
            Limits::depth(5),
            Limits {
                nodes: Some(1000),
                ..Limits::default()
            },
        ] {
            let budget = TimeBudget::new(&limits, shakmaty::Color::White, ms(10));
            assert_eq!(budget, TimeBudget::UNLIMITED);
            assert_eq!(
                next_iteration_until(budget, &scale_with_share(Some(0.2))),
                None
            );
        }
    }

    /// Far more than the clock's poll (every 1024 nodes) and a PV's
    /// completion need; only a search that ignored the hard limit exceeds it.
    const HARD_LIMIT_SLACK: Duration = Duration::from_secs(1);

    #[test]
    fn a_clock_search_returns_within_its_hard_limit_with_every_back_end() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        for algorithm in crate::search::Algorithm::ALL {
            for (wtime, winc, movestogo) in [(300, 0, None), (2000, 20, None), (1000, 0, Some(1))] {
                let limits = Limits {
                    clock: crate::search::limits::Clock {
                        wtime: Some(ms(wtime)),
                        btime: Some(ms(wtime)),
                        winc: Some(ms(winc)),
                        binc: Some(ms(winc)),
                        movestogo,
                    },
                    ..Limits::default()
                };
                let params = SearchParams {
                    algorithm,
                    ..SearchParams::default()
                };
                let board = Board::from_fen(fen).unwrap();
                let mut s = Searcher::standalone(board, 4, SearchMode::Normal).unwrap();
                let overhead = ms(params.move_overhead_ms);
                let hard = TimeBudget::new(&limits, shakmaty::Color::White, overhead)
                    .hard
                    .unwrap();
                let started = std::time::Instant::now();
                let result = search(&mut s, &params, &limits, &mut |_| {});
                let elapsed = started.elapsed();
                let case = format!("{algorithm} wtime {wtime} winc {winc} movestogo {movestogo:?}");
                assert!(result.best_move.is_some(), "{case}");
                assert!(
                    elapsed <= hard + HARD_LIMIT_SLACK,
                    "{case}: {elapsed:?}, hard limit {hard:?}"
                );
            }
        }
    }

    #[test]
    fn a_mating_line_is_completed_without_the_tt() {
        let tt = crate::tt::TranspositionTable::new(1).unwrap();
        let board = Board::from_fen("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1").unwrap();
        // Mate in 3 (5 plies), 3 of them left to find by search.
        let mut pv = line(&board, &["f6a6", "f7f6"]);
        extend_mate_line(&board, &tt, &mut pv, Score::mate_in(5));
        assert_eq!(pv, line(&board, &["f6a6", "f7f6", "e5f6", "g8g7", "a6a8"]));
        let mut end = board.clone();
        pv.iter().for_each(|&m| end.play(m));
        assert!(shakmaty::Position::is_checkmate(end.pos()));
        // Too much left to search, nothing in the TT: left as it was.
        let mut pv = line(&board, &["f6a6"]);
        extend_mate_line(&board, &tt, &mut pv, Score::mate_in(5));
        assert_eq!(pv.len(), 1);
        // The mated side: its only move, then the mate.
        let mated = Board::from_fen("k7/8/1K6/8/8/8/8/7R b - - 0 1").unwrap();
        let mut pv = line(&mated, &["a8b8"]);
        extend_mate_line(&mated, &tt, &mut pv, Score::mated_in(2));
        assert_eq!(pv, line(&mated, &["a8b8", "h1h8"]));
        // A score that is no mate changes nothing.
        let mut pv = line(&board, &["f6a6"]);
        extend_mate_line(&board, &tt, &mut pv, Score(300));
        assert_eq!(pv.len(), 1);
    }

    /// A node-limited search from `fen` with one thread and fresh tables:
    /// its result and the node count at the end of each finished iteration.
    fn nodes_per_iteration(fen: &str, limits: &Limits) -> (SearchResult, Vec<u64>) {
        let board = Board::from_fen(fen).unwrap();
        let params = SearchParams::default();
        let mut iterations = Vec::new();
        let mut search_memory = crate::search::ReusableSearch::new(1).unwrap();
        let result = search_memory.run(&board, params.mode, |s| {
            search(s, &params, limits, &mut |info| {
                if info.bound == Bound::Exact {
                    iterations.push(info.nodes);
                }
            })
        });
        (result, iterations)
    }

    #[test]
    fn a_soft_node_limit_ends_the_search_after_the_iteration_that_passed_it() {
        const MIDDLEGAME: &str =
            "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8";
        let (soft, hard) = (3_000, 1_000_000);
        let limits = Limits {
            soft_nodes: Some(soft),
            nodes: Some(hard),
            ..Limits::default()
        };
        assert!(limits.is_finite(shakmaty::Color::White));
        let (result, iterations) = nodes_per_iteration(MIDDLEGAME, &limits);
        let (&last, before) = iterations.split_last().unwrap();
        assert!(last >= soft, "{iterations:?}");
        assert!(before.iter().all(|&n| n < soft), "{iterations:?}");
        assert_eq!(result.stats.nodes, last);
        assert!(result.stats.nodes < hard);
        // The same soft limit alone (no hard one) stops at the same place.
        let soft_only = Limits {
            soft_nodes: Some(soft),
            ..Limits::default()
        };
        assert!(soft_only.is_finite(shakmaty::Color::White));
        assert_eq!(nodes_per_iteration(MIDDLEGAME, &soft_only).1, iterations);
        // A hard limit below the iteration that passes the soft one cuts that
        // iteration short at exactly the hard limit.
        let cut = Limits {
            nodes: Some(last - 1),
            ..limits
        };
        let (result, cut_iterations) = nodes_per_iteration(MIDDLEGAME, &cut);
        assert_eq!(result.stats.nodes, last - 1);
        assert_eq!(cut_iterations, before);
    }

    #[test]
    fn a_pv_left_as_searched_changes_neither_the_move_nor_the_tree() {
        // Searches of self-play's size, where TT cutoffs on the PV and IIR
        // leave some lines short of the depth.
        let limits = Limits {
            nodes: Some(3_000),
            ..Limits::default()
        };
        let mut completed_longer = 0;
        for position in crate::positions::bench_positions() {
            let board = Board::from_fen(&position.fen).unwrap();
            let run = |pv_length| {
                let params = SearchParams {
                    pv_length,
                    ..SearchParams::default()
                };
                let mut memory = crate::search::ReusableSearch::new(1).unwrap();
                memory.run(&board, params.mode, |s| {
                    search(s, &params, &limits, &mut |_| {})
                })
            };
            let (full, searched) = (run(PvLength::Full), run(PvLength::AsSearched));
            let fen = &position.fen;
            assert_eq!(searched.best_move, full.best_move, "{fen}");
            assert_eq!(searched.score, full.score, "{fen}");
            assert_eq!(searched.depth, full.depth, "{fen}");
            assert_eq!(searched.stats.nodes, full.stats.nodes, "{fen}");
            assert!(full.pv.starts_with(&searched.pv), "{fen}");
            completed_longer += usize::from(full.pv.len() > searched.pv.len());
        }
        assert!(completed_longer > 0, "no line was left short to complete");
    }
}
