//! Static evaluation, from the side to move's point of view: tapered
//! (middlegame/endgame) terms for White minus Black, endgame scaling, tempo.
//! One concern per submodule; every weight lives in `params`.

mod bitboards;
mod context;
mod king_safety;
mod material_pst;
pub mod params;
mod pawns;
mod pieces;
mod scaling;
pub mod tapered;
#[cfg(test)]
mod tests;
mod threats;

use crate::board::Board;
use crate::score::Score;
use context::EvalContext;
use scaling::Scale;
use shakmaty::{Bitboard, Color, Position, Role};
use tapered::{S, taper};

pub use params::{MATERIAL_EG, MATERIAL_MG, MAX_PHASE, SEE_VALUE};

#[inline]
pub fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Every term for White minus Black, before tapering; the phase; and the
/// passed pawns by colour index (for scaling).
fn terms(b: &shakmaty::Board) -> (S, i32, [Bitboard; 2]) {
    let (mut score, phase) = material_pst::material_pst(b);
    let mut ctx = EvalContext::new(b);
    let pawn = pawns::probe(ctx.pawns, ctx.king);
    score += pawn.score;
    score += pieces::pieces(&mut ctx, Color::White, &pawn);
    score -= pieces::pieces(&mut ctx, Color::Black, &pawn);
    // From here on the attack maps of both sides are complete.
    for (c, sign) in [(Color::White, 1), (Color::Black, -1)] {
        let i = bitboards::ci(c);
        let side = pawns::passers(&ctx, c, pawn.passed[i])
            + pawn.shelter[i]
            + king_safety::danger(&ctx, c)
            + threats::threats(&ctx, c);
        score += side * sign;
    }
    (score, phase, pawn.passed)
}

/// The static evaluation of `board` from the side to move's point of view.
pub fn evaluate(board: &Board) -> Score {
    let b = board.pos().board();
    let (score, phase, passed) = terms(b);
    let white = match scaling::scale(b, score.eg, &passed) {
        Scale::Endgame(f) => taper(
            S {
                mg: score.mg,
                eg: score.eg * f / params::SCALE_NORMAL,
            },
            phase,
        ),
        Scale::Whole(f) => taper(score, phase) * f / params::SCALE_NORMAL,
    };
    let relative = if board.turn() == Color::White {
        white
    } else {
        -white
    };
    let v = relative + taper(params::TEMPO, phase);
    Score(v.clamp(-params::EVAL_LIMIT, params::EVAL_LIMIT))
}
