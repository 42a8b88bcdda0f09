//! Threats: enemy pieces attacked by pawns, by minor pieces and by rooks
//! (when they are worth more or undefended), and hanging pieces. Needs the
//! attack maps of both sides, so it runs after the piece terms.

use super::bitboards::ci;
use super::context::EvalContext;
use super::material_pst::ROLES;
use super::params::*;
use super::tapered::S;
use crate::eval::role_index;
use shakmaty::{Bitboard, Color, Role};

/// Sum of `table[role]` over the pieces in `targets`.
fn by_victim(ctx: &EvalContext, targets: Bitboard, table: &[S; 6]) -> S {
    let mut score = S::ZERO;
    if targets.is_empty() {
        return score;
    }
    for (r, role) in ROLES.into_iter().enumerate() {
        score += table[r] * (targets & ctx.board.by_role(role)).count() as i32;
    }
    score
}

/// Threats made by colour `c` against the other side's pieces.
pub fn threats(ctx: &EvalContext, c: Color) -> S {
    let (us, them) = (ci(c), ci(!c));
    let b = ctx.board;
    let enemies = ctx.pieces[them] & !b.kings();
    let pieces = enemies & !b.pawns();
    let majors = enemies & (b.rooks() | b.queens());
    let undefended = enemies & ctx.attacked[us] & !ctx.attacked[them];
    let by = &ctx.attacked_by[us];

    let mut score = THREAT_BY_PAWN * (pieces & ctx.pawn_attacks[us]).count() as i32;
    let by_minor = by[role_index(Role::Knight)] | by[role_index(Role::Bishop)];
    score += by_victim(ctx, (undefended | majors) & by_minor, &THREAT_BY_MINOR);
    let queens = enemies & b.queens();
    score += by_victim(
        ctx,
        (undefended | queens) & by[role_index(Role::Rook)],
        &THREAT_BY_ROOK,
    );
    score += HANGING * (undefended & pieces).count() as i32;
    score
}
