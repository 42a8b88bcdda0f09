//! Endgame scaling: how much of the endgame half the side ahead keeps when
//! its material may not win — too little material without pawns, lone
//! knights, opposite-coloured bishops, few pawns without a decisive edge.

use super::bitboards::ci;
use super::weights::*;
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
    let our_pawns = (b.pawns() & ours).count() as i32;
    let bishop = MATERIAL_MG[role_index(Role::Bishop)];
    let rook = MATERIAL_MG[role_index(Role::Rook)];

    if our_pawns == 0 {
        let (our_npm, their_npm) = (non_pawn_material(b, ours), non_pawn_material(b, theirs));
        if our_npm - their_npm <= bishop {
            return Scale::Whole(if our_npm < rook {
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
    let one_each = our_bishops.any()
        && their_bishops.any()
        && !our_bishops.more_than_one()
        && !their_bishops.more_than_one();
    if one_each
        && (our_bishops | their_bishops).intersects(Bitboard::DARK_SQUARES)
        && (our_bishops | their_bishops).intersects(Bitboard::LIGHT_SQUARES)
    {
        let pieces = !b.pawns() & !b.kings();
        let only_bishops = ours & pieces == our_bishops && theirs & pieces == their_bishops;
        return Scale::Endgame(if only_bishops {
            (SCALE_OCB_ONLY + SCALE_OCB_PER_PASSER * passed[ci(strong)].count() as i32)
                .min(SCALE_NORMAL)
        } else {
            SCALE_OCB_WITH_PIECES
        });
    }

    // Few pawns give the defender drawing chances, unless the side ahead is
    // a rook or more up in pieces (pawnless endings were handled above).
    let few_pawns = SCALE_PAWNS_BASE + SCALE_PER_PAWN * our_pawns;
    if our_pawns > 0
        && few_pawns < SCALE_NORMAL
        && non_pawn_material(b, ours) - non_pawn_material(b, theirs) < rook
    {
        return Scale::Endgame(few_pawns);
    }
    Scale::Endgame(SCALE_NORMAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::{eval, mirror_fen};

    fn scale_of(fen: &str) -> Scale {
        let board: Board = fen.split(' ').next().unwrap().parse().unwrap();
        let passed = [Bitboard::EMPTY, board.pawns() & board.white()];
        scale(&board, 100, &passed)
    }

    #[test]
    fn opposite_bishops_endgame_scaled_towards_zero() {
        // Two pawns up with bishops of opposite colours vs the same colour.
        let ocb = "4k3/8/3b4/8/3P4/2P5/8/3BK3 w - - 0 1";
        let same = "4k3/3b4/8/8/3P4/2P5/8/3BK3 w - - 0 1";
        assert_eq!(
            scale_of(ocb),
            Scale::Endgame(SCALE_OCB_ONLY + 2 * SCALE_OCB_PER_PASSER)
        );
        assert!(
            eval(ocb) * 4 < eval(same) * 3,
            "{} {}",
            eval(ocb),
            eval(same)
        );
        // With rooks on as well, less so.
        let with_rooks = "r3k3/8/3b4/8/3P4/2P5/8/R2BK3 w - - 0 1";
        assert_eq!(scale_of(with_rooks), Scale::Endgame(SCALE_OCB_WITH_PIECES));
    }

    #[test]
    fn minor_piece_endings_are_drawish() {
        for fen in [
            "8/8/8/4k3/8/8/4K3/4N3 w - - 0 1",
            "8/8/8/4k3/8/8/4K3/4B3 b - - 0 1",
            "8/8/8/4k3/8/3b4/4K3/3R4 w - - 0 1",
            "8/8/8/4k3/8/3n4/4K3/3R4 b - - 0 1",
        ] {
            for f in [fen.to_string(), mirror_fen(fen)] {
                assert!(eval(&f).abs() <= 30, "{f}: {}", eval(&f));
            }
        }
        assert!(eval("8/8/8/4k3/8/8/4K3/3NN3 w - - 0 1") <= 50);
        assert_eq!(
            scale_of("8/8/8/4k3/8/8/4K3/4N3 w - - 0 1"),
            Scale::Whole(SCALE_NO_WIN)
        );
    }

    #[test]
    fn winning_material_is_not_scaled_away() {
        assert!(eval("8/8/8/4k3/8/8/4K3/3NB3 w - - 0 1") > 250);
        assert!(eval("8/8/8/4k3/8/8/4K3/4R3 w - - 0 1") > 250);
        assert!(eval("8/8/8/4k3/8/8/3QK3/3r4 w - - 0 1") > 250);
        assert_eq!(
            scale_of("4k3/pppp4/8/8/8/8/PPPPP3/4K3 w - - 0 1"),
            Scale::Endgame(SCALE_NORMAL)
        );
    }
}
