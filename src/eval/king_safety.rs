//! King safety, a middlegame term: the pawn shelter and storm on the king's
//! and the adjacent files, open files there, and the danger from enemy pieces
//! attacking the king zone (non-linear in their number and weight).

use super::bitboards::*;
use super::context::EvalContext;
use super::params::*;
use super::tapered::{S, s};
use crate::eval::role_index;
use shakmaty::{Bitboard, Color, File, Role, Square, attacks};

/// The pawn nearest to `c`'s back rank in `bb` (`bb` lies on one file).
fn nearest(c: Color, bb: Bitboard) -> Option<Square> {
    match c {
        Color::White => bb.first(),
        Color::Black => bb.last(),
    }
}

/// Shelter of `c`'s king: shield pawns, pawn storm and open files on its
/// file and the two beside it (b..g when the king is on an edge file).
pub fn shelter(ctx: &EvalContext, c: Color) -> S {
    let (us, them) = (ci(c), ci(!c));
    let king = ctx.king[us];
    let king_rank = relative_rank(c, king);
    let ahead = FORWARD_RANKS[us][king as usize];
    let middle = (king.file() as u32).clamp(1, 6);
    let mut score = S::ZERO;
    for f in middle - 1..=middle + 1 {
        let file = Bitboard::from_file(File::new(f));
        let own = ctx.pawns[us] & file;
        let theirs = ctx.pawns[them] & file;
        match nearest(c, own & ahead) {
            None => score += KING_SHIELD_MISSING,
            Some(p) if relative_rank(c, p) - king_rank >= 2 => score += KING_SHIELD_ADVANCED,
            Some(_) => {}
        }
        if own.is_empty() {
            score += KING_SEMI_OPEN_FILE;
            if theirs.is_empty() {
                score += KING_OPEN_FILE;
            }
        }
        if let Some(p) = nearest(c, theirs & ahead) {
            let distance = relative_rank(c, p) - king_rank;
            let blocked = own.intersects(forward(!c, Bitboard::from_square(p)));
            if !blocked && distance < KING_PAWN_STORM.len() {
                score += KING_PAWN_STORM[distance];
            }
        }
    }
    score
}

/// Danger to `c`'s king from the enemy pieces attacking its zone (tallied
/// by the piece terms) and the safe checks they have.
pub fn danger(ctx: &EvalContext, c: Color) -> S {
    let (us, them) = (ci(c), ci(!c));
    let attackers = ctx.king_attackers[us] as usize;
    let percent = KING_ATTACKERS_PERCENT[attackers.min(KING_ATTACKERS_PERCENT.len() - 1)];
    if percent == 0 {
        return S::ZERO;
    }
    let king = ctx.king[us];
    let safe = !ctx.attacked[us] & !ctx.pieces[them];
    let rook_lines = attacks::rook_attacks(king, ctx.occupied) & safe;
    let bishop_lines = attacks::bishop_attacks(king, ctx.occupied) & safe;
    let knight_jumps = attacks::knight_attacks(king) & safe;
    let by = &ctx.attacked_by[them];
    let mut units = ctx.king_attack_weight[us] + KING_ZONE_HIT * ctx.king_zone_hits[us];
    for (role, squares) in [
        (Role::Knight, knight_jumps),
        (Role::Bishop, bishop_lines),
        (Role::Rook, rook_lines),
        (Role::Queen, rook_lines | bishop_lines),
    ] {
        if squares.intersects(by[role_index(role)]) {
            units += KING_SAFE_CHECK[role_index(role)];
        }
    }
    if !ctx.board.queens().intersects(ctx.pieces[them]) {
        units = units * KING_NO_QUEEN_PERCENT / 100;
    }
    let scaled = units * percent / 100;
    s(
        -(scaled * scaled / KING_DANGER_DIVISOR).min(KING_DANGER_MAX),
        0,
    )
}

/// Both king-safety terms for `c` (negative: `c`'s king is in danger).
pub fn king_safety(ctx: &EvalContext, c: Color) -> S {
    shelter(ctx, c) + danger(ctx, c)
}
