//! The oracle: plain negamax without a TT, move ordering or any pruning in
//! the full-width part, with the same evaluation, quiescence and draw rules
//! as the engine's Pure mode (repetitions count against the game before the
//! root only, so a value is a function of the position); and a plain fail-hard alpha-beta over the same
//! tree (exact by theorem, checked against minimax) for depths where plain
//! minimax is too slow to run in a test. Tests hold every back end to them.
//!
//! It serves only tests, yet stays in the core (public, not behind a
//! feature): the integration tests reach it through the library's public
//! API, which `cfg(test)` would hide from them, and it is small and imports
//! nothing but the board, the evaluation and move ordering.

use super::ordering::mvv_lva;
use crate::board::{Board, RepetitionRule};
use crate::eval::evaluate;
use crate::score::{Depth, MAX_PLY, Ply, Score};
use crate::search::tactical_moves::is_tactical;

/// The depth-`depth` minimax value of `board` (whose search root must be set
/// at the position `ply` plies above it).
pub fn minimax(board: &mut Board, depth: Depth, ply: Ply) -> Score {
    if ply > 0 {
        if board.is_draw_by(RepetitionRule::GameHistoryOnly) {
            return Score::DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(board);
        }
    }
    if depth <= 0 {
        return quiescence(board, -Score::INFINITE, Score::INFINITE, ply);
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        return if board.in_check() {
            Score::mated_in(ply)
        } else {
            Score::DRAW
        };
    }
    let mut best = -Score::INFINITE;
    for m in moves {
        board.play(m);
        let v = -minimax(board, depth - 1, ply + 1);
        board.undo();
        best = best.max(v);
    }
    best
}

/// The same value as `minimax` by plain fail-hard alpha-beta: children in
/// generation order, no TT, no heuristics. Returns the value clamped to
/// [alpha, beta]; with the full window that is the exact value.
pub fn alphabeta(
    board: &mut Board,
    mut alpha: Score,
    beta: Score,
    depth: Depth,
    ply: Ply,
) -> Score {
    if ply > 0 {
        if board.is_draw_by(RepetitionRule::GameHistoryOnly) {
            return Score::DRAW.max(alpha).min(beta);
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(board).max(alpha).min(beta);
        }
    }
    if depth <= 0 {
        return quiescence(board, alpha, beta, ply);
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        let v = if board.in_check() {
            Score::mated_in(ply)
        } else {
            Score::DRAW
        };
        return v.max(alpha).min(beta);
    }
    for m in moves {
        board.play(m);
        let v = -alphabeta(board, -beta, -alpha, depth - 1, ply + 1);
        board.undo();
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

/// The quiescence value: the side to move may stand pat (unless in check)
/// or play a capture or queen promotion (in check: any evasion). Computed by
/// fail-hard alpha-beta with captures tried most valuable victim first,
/// which changes how fast the value is found, not the value.
pub fn quiescence(board: &mut Board, mut alpha: Score, beta: Score, ply: Ply) -> Score {
    if ply >= MAX_PLY - 1 {
        return evaluate(board).max(alpha).min(beta);
    }
    let in_check = board.in_check();
    if !in_check {
        let stand_pat = evaluate(board);
        if stand_pat >= beta {
            return beta;
        }
        alpha = alpha.max(stand_pat);
    }
    let mut moves = board.legal_moves();
    if in_check && moves.is_empty() {
        return Score::mated_in(ply).max(alpha).min(beta);
    }
    if !in_check {
        moves.retain(|m| is_tactical(*m));
    }
    moves.sort_by_key(|m| std::cmp::Reverse(mvv_lva(*m)));
    for m in moves {
        board.play(m);
        let v = -quiescence(board, -beta, -alpha, ply + 1);
        board.undo();
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}
