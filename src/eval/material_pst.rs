//! Material and piece-square terms, and the game phase. The tables are
//! generated at compile time from a few readable rules (centralisation,
//! advancement, king shelter) weighted in `weights`, plus tuned per-square
//! corrections (half a board each, files mirrored).

use super::tapered::{MAX_PHASE, S};
use super::trace::Tracer;
use super::weights::*;
use shakmaty::{Board, Color, Role};

/// Distance of a file or rank index (0..7) from the centre line, in
/// half-squares: 1 for the two central lines, up to 7 for the edge.
const fn centre_distance(i: i32) -> i32 {
    let d = 2 * i - 7;
    if d < 0 { -d } else { d }
}

/// The placement rules, each a weight in `tuned.rs`: `Rule::X` indexes the
/// features of a square, `RULE_VALUES` and `RULE_WEIGHTS` the weight `X`.
macro_rules! placement_rules {
    ($($name:ident),* $(,)?) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Copy, Clone)]
        enum Rule {
            $($name),*
        }
        const RULE_COUNT: usize = [$(Rule::$name),*].len();
        const RULE_VALUES: [S; RULE_COUNT] = [$($name),*];
        const RULE_WEIGHTS: [W; RULE_COUNT] = [$(W::$name),*];
    };
}

placement_rules!(
    PAWN_ADVANCE,
    PAWN_CENTRE,
    PAWN_NEAR_CENTRE,
    KNIGHT_CENTRALITY,
    KNIGHT_BACK_RANK,
    BISHOP_CENTRALITY,
    BISHOP_LONG_DIAGONAL,
    ROOK_CENTRE_FILE,
    QUEEN_CENTRALITY,
    QUEEN_ADVANCED,
    KING_RANK,
    KING_CENTRALITY,
    KING_CENTRE_FILES,
    KING_CORNER,
);

/// How often each placement rule applies to a White piece of role index `r`
/// on `file`/`rank` (its placement is the sum of rule times weight).
const fn placement_features(r: usize, file: i32, rank: i32) -> [i32; RULE_COUNT] {
    let mut f = [0; RULE_COUNT];
    let cf = centre_distance(file);
    let centrality = PST_CENTRE_PIVOT - (cf + centre_distance(rank));
    let middle = rank == 3 || rank == 4;
    match r {
        0 => {
            if rank != 0 && rank != 7 {
                f[Rule::PAWN_ADVANCE as usize] = rank - 1;
                f[Rule::PAWN_CENTRE as usize] = (middle && cf == 1) as i32;
                f[Rule::PAWN_NEAR_CENTRE as usize] = (middle && cf == 3) as i32;
            }
        }
        1 => {
            f[Rule::KNIGHT_CENTRALITY as usize] = centrality;
            f[Rule::KNIGHT_BACK_RANK as usize] = (rank == 0) as i32;
        }
        2 => {
            f[Rule::BISHOP_CENTRALITY as usize] = centrality;
            f[Rule::BISHOP_LONG_DIAGONAL as usize] = (file == rank || file + rank == 7) as i32;
        }
        3 => f[Rule::ROOK_CENTRE_FILE as usize] = (cf == 1) as i32,
        4 => {
            f[Rule::QUEEN_CENTRALITY as usize] = centrality;
            f[Rule::QUEEN_ADVANCED as usize] = (rank >= 5) as i32;
        }
        _ => {
            f[Rule::KING_RANK as usize] = rank;
            f[Rule::KING_CENTRALITY as usize] = centrality;
            f[Rule::KING_CENTRE_FILES as usize] = (cf <= 3) as i32;
            f[Rule::KING_CORNER as usize] = (rank == 0 && cf >= 5) as i32;
        }
    }
    f
}

/// The positional part of a White piece of role index `r` on `file`/`rank`.
const fn placement(r: usize, file: i32, rank: i32) -> S {
    let f = placement_features(r, file, rank);
    let mut v = S::ZERO;
    let mut k = 0;
    while k < RULE_COUNT {
        v = v.plus(RULE_VALUES[k].times(f[k]));
        k += 1;
    }
    v
}

/// The per-square corrections by role index, and the weight each is traced as.
const SQUARE_CORRECTIONS: [[S; 32]; 6] = [
    PAWN_SQUARES,
    KNIGHT_SQUARES,
    BISHOP_SQUARES,
    ROOK_SQUARES,
    QUEEN_SQUARES,
    KING_SQUARES,
];
const SQUARE_WEIGHTS: [W; 6] = [
    W::PAWN_SQUARES,
    W::KNIGHT_SQUARES,
    W::BISHOP_SQUARES,
    W::ROOK_SQUARES,
    W::QUEEN_SQUARES,
    W::KING_SQUARES,
];

/// Index into a correction table of White's `file`/`rank` (files mirrored).
const fn half_board(file: i32, rank: i32) -> usize {
    let mirrored = if file < 4 { file } else { 7 - file };
    (4 * rank + mirrored) as usize
}

/// `PST[ci(colour)][role index][square]`: material plus placement, with
/// Black's entries mirrored and negated so that summing gives White minus
/// Black.
static PST: [[[S; 64]; 6]; 2] = {
    let mut t = [[[S::ZERO; 64]; 6]; 2];
    let mut r = 0;
    while r < 6 {
        let material = MATERIAL[r];
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
            let v = material
                .plus(placement(r, file, rank))
                .plus(SQUARE_CORRECTIONS[r][half_board(file, rank)]);
            t[1][r][sq] = v;
            t[0][r][sq ^ 56] = v.times(-1);
            sq += 1;
        }
        r += 1;
    }
    t
};

/// Tells `t` the weights of a piece of colour `c` and role index `r` on
/// `sq`: its material and the placement rules that apply.
fn trace_piece<T: Tracer>(t: &mut T, c: Color, r: usize, sq: usize) {
    let sq = if c.is_white() { sq } else { sq ^ 56 };
    t.add(c, W::MATERIAL, r, 1);
    let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
    t.add(c, SQUARE_WEIGHTS[r], half_board(file, rank), 1);
    let f = placement_features(r, file, rank);
    for (k, &n) in f.iter().enumerate() {
        if n != 0 {
            t.add(c, RULE_WEIGHTS[k], 0, n);
        }
    }
}

/// Material and placement for White minus Black, and the game phase
/// (0..=MAX_PHASE).
pub fn material_pst<T: Tracer>(board: &Board, t: &mut T) -> (S, i32) {
    let mut score = S::ZERO;
    for (c, side) in [board.black(), board.white()].into_iter().enumerate() {
        for (r, role) in Role::ALL.into_iter().enumerate() {
            for sq in board.by_role(role) & side {
                score += PST[c][r][sq as usize];
                if T::ON {
                    trace_piece(t, Color::from_white(c == 1), r, sq as usize);
                }
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
    use crate::eval::trace::NoTrace;
    use shakmaty::Square;

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
    fn correction_tables_cover_half_a_board() {
        let index = |sq: Square| half_board(sq.file() as i32, sq.rank() as i32);
        assert_eq!(index(Square::A1), 0);
        assert_eq!(index(Square::H1), 0);
        assert_eq!(index(Square::D4), 15);
        assert_eq!(index(Square::E4), 15);
        assert_eq!(index(Square::E8), 31);
        let mut seen = [0; 32];
        for sq in Square::ALL {
            seen[index(sq)] += 1;
        }
        assert!(seen.iter().all(|&n| n == 2));
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
        assert_eq!(material_pst(&start, &mut NoTrace), (S::ZERO, MAX_PHASE));
        let kings: Board = "4k3/8/8/8/8/8/8/4K3".parse().unwrap();
        assert_eq!(material_pst(&kings, &mut NoTrace).1, 0);
        let queens: Board = "qqqqk3/8/8/8/8/8/8/QQQQK3".parse().unwrap();
        assert_eq!(material_pst(&queens, &mut NoTrace).1, MAX_PHASE);
    }
}
