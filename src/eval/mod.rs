//! Static evaluation, from the side to move's point of view: tapered
//! (middlegame/endgame) terms for White minus Black, endgame scaling, tempo.
//! One concern per submodule; every weight lives in `weights` (the tunable
//! ones in the generated `tuned`, declared through `registry`). The terms are
//! generic over a `trace::Tracer`, which the engine's `NoTrace` compiles away
//! and the tuner uses to read the weights' coefficients.

pub(crate) mod bitboards;
mod context;
mod king_safety;
mod material_pst;
mod pawns;
mod pieces;
pub mod registry;
mod scaling;
pub mod tapered;
#[cfg(test)]
pub(crate) mod tests;
mod threats;
pub mod trace;
mod tuned;
pub mod weights;

use crate::board::Board;
use crate::score::Score;
use context::EvalContext;
use shakmaty::{Bitboard, Color, Position, Role};
use tapered::{S, taper};
use trace::{NoTrace, Tracer};

pub use pawns::pawn_hash;
pub use scaling::Scale;
pub use tapered::MAX_PHASE;
pub use weights::{MATERIAL_EG, MATERIAL_MG, SEE_VALUE};

#[inline]
pub fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Every term for White minus Black, before tapering; the phase; and the
/// passed pawns by colour index (for scaling). Tells `t` the weights used.
fn terms<T: Tracer>(b: &shakmaty::Board, t: &mut T) -> (S, i32, [Bitboard; 2]) {
    let (mut score, phase) = material_pst::material_pst(b, t);
    let mut ctx = EvalContext::new(b);
    let pawn = if T::ON {
        // The cache keeps scores, not the weights they came from.
        pawns::PawnEntry::compute(ctx.pawns, ctx.king, t)
    } else {
        pawns::probe(ctx.pawns, ctx.king)
    };
    score += pawn.score;
    score += pieces::pieces(&mut ctx, Color::White, &pawn, t);
    score -= pieces::pieces(&mut ctx, Color::Black, &pawn, t);
    // From here on the attack maps of both sides are complete.
    for (c, sign) in [(Color::White, 1), (Color::Black, -1)] {
        let i = bitboards::ci(c);
        let side = pawns::passers(&ctx, c, pawn.passed[i], t)
            + pawn.shelter[i]
            + king_safety::danger(&ctx, c, t)
            + threats::threats(&ctx, c, t);
        score += side * sign;
    }
    (score, phase, pawn.passed)
}

/// The static evaluation of `board` from the side to move's point of view.
pub fn evaluate(board: &Board) -> Score {
    let b = board.pos().board();
    let (score, phase, passed) = terms(b, &mut NoTrace);
    let white = match scaling::scale(b, score.eg, &passed) {
        Scale::Endgame(f) => taper(
            S {
                mg: score.mg,
                eg: score.eg * f / weights::SCALE_NORMAL,
            },
            phase,
        ),
        Scale::Whole(f) => taper(score, phase) * f / weights::SCALE_NORMAL,
    };
    let relative = if board.turn() == Color::White {
        white
    } else {
        -white
    };
    let v = relative + taper(weights::TEMPO, phase);
    Score(v.clamp(-weights::EVAL_LIMIT, weights::EVAL_LIMIT))
}
