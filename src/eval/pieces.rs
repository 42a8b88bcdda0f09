//! Piece terms: mobility by count, knight and bishop outposts, the bishop
//! pair and bad bishops, rooks on open and semi-open files and the 7th rank.
//! While counting mobility it records the attack maps later terms use.

use super::bitboards::*;
use super::context::EvalContext;
use super::params::*;
use super::pawns::PawnEntry;
use super::tapered::S;
use shakmaty::{Bitboard, Color, Role, attacks};

/// Relative ranks 4..6 (index 3..5), where outposts are.
fn outpost_ranks(c: Color) -> Bitboard {
    relative_rank_bb(c, 3) | relative_rank_bb(c, 4) | relative_rank_bb(c, 5)
}

/// The piece terms for colour `c`; fills `ctx`'s attack maps for `c`.
pub fn pieces(ctx: &mut EvalContext, c: Color, pawn: &PawnEntry) -> S {
    let (us, them) = (ci(c), ci(!c));
    let b = ctx.board;
    let own = ctx.pieces[us];
    let occupied = ctx.occupied;
    let area = ctx.mobility_area[us];
    let outposts = outpost_ranks(c) & ctx.pawn_attacks[us] & !pawn.attack_span[them];
    let mut score = S::ZERO;

    for sq in b.knights() & own {
        let att = attacks::knight_attacks(sq);
        ctx.record_attacks(c, Role::Knight, att);
        score += MOBILITY_KNIGHT[(att & area).count()];
        if outposts.contains(sq) {
            score += KNIGHT_OUTPOST;
        }
    }

    let bishops = b.bishops() & own;
    for sq in bishops {
        let att = attacks::bishop_attacks(sq, occupied);
        ctx.record_attacks(c, Role::Bishop, att);
        score += MOBILITY_BISHOP[(att & area).count()];
        if outposts.contains(sq) {
            score += BISHOP_OUTPOST;
        }
        let colour = if sq.is_dark() {
            Bitboard::DARK_SQUARES
        } else {
            Bitboard::LIGHT_SQUARES
        };
        score += BISHOP_PAWNS_SAME_COLOUR * (ctx.pawns[us] & colour).count() as i32;
    }
    if bishops.intersects(Bitboard::DARK_SQUARES) && bishops.intersects(Bitboard::LIGHT_SQUARES) {
        score += BISHOP_PAIR;
    }

    let all_pawns = ctx.pawns[0] | ctx.pawns[1];
    let seventh = relative_rank_bb(c, 6);
    let seventh_matters =
        relative_rank(c, ctx.king[them]) == 7 || ctx.pawns[them].intersects(seventh);
    for sq in b.rooks() & own {
        let att = attacks::rook_attacks(sq, occupied);
        ctx.record_attacks(c, Role::Rook, att);
        score += MOBILITY_ROOK[(att & area).count()];
        let file = Bitboard::from_file(sq.file());
        if !all_pawns.intersects(file) {
            score += ROOK_OPEN_FILE;
        } else if !ctx.pawns[us].intersects(file) {
            score += ROOK_SEMI_OPEN_FILE;
        }
        if seventh_matters && seventh.contains(sq) {
            score += ROOK_SEVENTH;
        }
    }

    for sq in b.queens() & own {
        let att = attacks::queen_attacks(sq, occupied);
        ctx.record_attacks(c, Role::Queen, att);
        score += MOBILITY_QUEEN[(att & area).count()];
    }
    score
}
