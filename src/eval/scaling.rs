//! Endgame scaling: how much of the endgame half the side ahead keeps when
//! its material may not win — too little material without pawns, lone
//! knights, opposite-coloured bishops, few pawns.

use super::bitboards::ci;
use super::params::*;
use crate::eval::role_index;
use shakmaty::{Bitboard, Board, Color, Role};

/// Non-pawn material of `side` in middlegame values.
fn non_pawn_material(b: &Board, side: Bitboard) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|r| MATERIAL_MG[role_index(r)] * (b.by_role(r) & side).count() as i32)
        .sum()
}

/// How far the side ahead's advantage counts, out of `SCALE_NORMAL`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Scales the endgame half (the middlegame half is what it is).
    Endgame(i32),
    /// A material draw: scales the whole score, since a few pieces left
    /// still give the middlegame half some weight.
    Whole(i32),
}

/// The scale for an endgame value `eg` (White's point of view); `passed`
/// are the passed pawns by colour index.
pub fn scale(b: &Board, eg: i32, passed: &[Bitboard; 2]) -> Scale {
    if eg == 0 {
        return Scale::Endgame(SCALE_NORMAL);
    }
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let side = [b.black(), b.white()];
    let (ours, theirs) = (side[ci(strong)], side[ci(!strong)]);
    let (our_npm, their_npm) = (non_pawn_material(b, ours), non_pawn_material(b, theirs));
    let our_pawns = (b.pawns() & ours).count() as i32;
    let bishop = MATERIAL_MG[role_index(Role::Bishop)];

    if our_pawns == 0 {
        if our_npm - their_npm <= bishop {
            return Scale::Whole(if our_npm < MATERIAL_MG[role_index(Role::Rook)] {
                SCALE_NO_WIN
            } else if their_npm <= bishop {
                SCALE_ALMOST_DRAW
            } else {
                SCALE_HARD_WIN
            });
        }
        let knights = b.knights() & ours;
        if ours & !b.kings() == knights && knights.count() <= 2 {
            return Scale::Whole(SCALE_KNIGHTS_ONLY);
        }
    }

    let (our_bishops, their_bishops) = (b.bishops() & ours, b.bishops() & theirs);
    let opposite_bishops = our_bishops.count() == 1
        && their_bishops.count() == 1
        && (our_bishops | their_bishops)
            .intersect(Bitboard::DARK_SQUARES)
            .count()
            == 1;
    if opposite_bishops {
        return Scale::Endgame(if our_npm == bishop && their_npm == bishop {
            (SCALE_OCB_ONLY + SCALE_OCB_PER_PASSER * passed[ci(strong)].count() as i32)
                .min(SCALE_NORMAL)
        } else {
            SCALE_OCB_WITH_PIECES
        });
    }
    Scale::Endgame((SCALE_PAWNS_BASE + SCALE_PER_PAWN * our_pawns).min(SCALE_NORMAL))
}
