//! Material and piece-square terms, and the game phase. The tables are
//! generated at compile time from a few readable rules (centralisation,
//! advancement, king shelter) weighted in `params`, not typed in as numbers.

use super::params::*;
use super::tapered::{S, s};
use shakmaty::{Board, Role};

/// Distance of a file or rank index (0..7) from the centre line, in
/// half-squares: 1 for the two central lines, up to 7 for the edge.
const fn centre_distance(i: i32) -> i32 {
    let d = 2 * i - 7;
    if d < 0 { -d } else { d }
}

/// `v` if `cond`, else nothing.
const fn when(cond: bool, v: S) -> S {
    if cond { v } else { S::ZERO }
}

/// The positional part of a White piece of role index `r` on `file`/`rank`.
const fn placement(r: usize, file: i32, rank: i32) -> S {
    let cf = centre_distance(file);
    let centrality = PST_CENTRE_PIVOT - (cf + centre_distance(rank));
    match r {
        0 => {
            if rank == 0 || rank == 7 {
                S::ZERO
            } else {
                let middle = rank == 3 || rank == 4;
                PAWN_ADVANCE
                    .times(rank - 1)
                    .plus(when(middle && cf == 1, PAWN_CENTRE))
                    .plus(when(middle && cf == 3, PAWN_NEAR_CENTRE))
            }
        }
        1 => KNIGHT_CENTRALITY
            .times(centrality)
            .plus(when(rank == 0, KNIGHT_BACK_RANK)),
        2 => BISHOP_CENTRALITY
            .times(centrality)
            .plus(when(file == rank || file + rank == 7, BISHOP_LONG_DIAGONAL)),
        3 => when(cf == 1, ROOK_CENTRE_FILE),
        4 => QUEEN_CENTRALITY
            .times(centrality)
            .plus(when(rank >= 5, QUEEN_ADVANCED)),
        _ => KING_RANK
            .times(rank)
            .plus(KING_CENTRALITY.times(centrality))
            .plus(when(cf <= 3, KING_CENTRE_FILES))
            .plus(when(rank == 0 && cf >= 5, KING_CORNER)),
    }
}

/// `PST[ci(colour)][role index][square]`: material plus placement, with
/// Black's entries mirrored and negated so that summing gives White minus
/// Black.
static PST: [[[S; 64]; 6]; 2] = {
    let mut t = [[[S::ZERO; 64]; 6]; 2];
    let mut r = 0;
    while r < 6 {
        let material = s(MATERIAL_MG[r], MATERIAL_EG[r]);
        let mut sq = 0;
        while sq < 64 {
            let v = material.plus(placement(r, (sq % 8) as i32, (sq / 8) as i32));
            t[1][r][sq] = v;
            t[0][r][sq ^ 56] = v.times(-1);
            sq += 1;
        }
        r += 1;
    }
    t
};

/// Material and placement for White minus Black, and the game phase
/// (0..=MAX_PHASE).
pub fn material_pst(board: &Board) -> (S, i32) {
    let mut score = S::ZERO;
    for (c, side) in [board.black(), board.white()].into_iter().enumerate() {
        for (r, role) in Role::ALL.into_iter().enumerate() {
            for sq in board.by_role(role) & side {
                score += PST[c][r][sq as usize];
            }
        }
    }
    let phase: i32 = Role::ALL
        .into_iter()
        .zip(PHASE_WEIGHT)
        .filter(|&(_, w)| w != 0)
        .map(|(role, w)| w * board.by_role(role).count() as i32)
        .sum();
    (score, phase.min(MAX_PHASE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Square};

    fn value(c: Color, role: Role, sq: Square) -> S {
        PST[c as usize][role as usize - 1][sq as usize]
    }

    #[test]
    fn tables_are_mirrored_for_black() {
        for r in Role::ALL {
            for sq in Square::ALL {
                assert_eq!(
                    value(Color::White, r, sq),
                    -value(Color::Black, r, sq.flip_vertical())
                );
                // Left-right symmetric as well.
                assert_eq!(
                    value(Color::White, r, sq),
                    value(Color::White, r, sq.flip_horizontal())
                );
            }
        }
    }

    #[test]
    fn placement_rules_point_the_right_way() {
        let w = Color::White;
        assert!(value(w, Role::Knight, Square::D5).mg > value(w, Role::Knight, Square::A4).mg);
        assert!(value(w, Role::King, Square::G1).mg > value(w, Role::King, Square::E3).mg);
        assert!(value(w, Role::King, Square::E4).eg > value(w, Role::King, Square::H1).eg);
        assert!(value(w, Role::Pawn, Square::E4).mg > value(w, Role::Pawn, Square::E2).mg);
    }

    #[test]
    fn phase_counts_pieces_and_is_clamped() {
        let start = Board::default();
        assert_eq!(material_pst(&start), (S::ZERO, MAX_PHASE));
        let kings: Board = "4k3/8/8/8/8/8/8/4K3".parse().unwrap();
        assert_eq!(material_pst(&kings).1, 0);
        let queens: Board = "qqqqk3/8/8/8/8/8/8/QQQQK3".parse().unwrap();
        assert_eq!(material_pst(&queens).1, MAX_PHASE);
    }
}
