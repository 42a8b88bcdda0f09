//! Static evaluation: tapered (middlegame/endgame) material and piece-square
//! terms, from the side to move's point of view. The piece-square tables are
//! generated from a few readable rules (centralisation, advancement, king
//! shelter) rather than typed in as 768 numbers.

use crate::board::Board;
use crate::score::Score;
use shakmaty::{Color, Position, Role, Square};

/// Game phase weight of each role (pawn, knight, bishop, rook, queen, king).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting material; more (after promotions) is clamped.
pub const MAX_PHASE: i32 = 24;

/// Material in centipawns, middlegame and endgame, by role.
pub const MATERIAL_MG: [i32; 6] = [82, 337, 365, 477, 1025, 0];
pub const MATERIAL_EG: [i32; 6] = [94, 281, 297, 512, 936, 0];

/// Material values used by move ordering and SEE (one number per role).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

#[inline]
pub fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Piece-square tables from White's point of view, indexed by role and square
/// (a1 = 0), middlegame and endgame; each already includes the material value.
pub struct PieceSquareTables {
    mg: [[i32; 64]; 6],
    eg: [[i32; 64]; 6],
}

/// Distance of a file or rank index (0..7) from the centre line, in half-squares:
/// 1 for the two central lines, up to 7 for the edge.
const fn centre_distance(i: i32) -> i32 {
    let d = 2 * i - 7;
    if d < 0 { -d } else { d }
}

/// Builds the tables from rules. `file` and `rank` are 0..7 from White's side.
const fn build_tables() -> PieceSquareTables {
    let mut mg = [[0; 64]; 6];
    let mut eg = [[0; 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i32;
        let rank = (sq / 8) as i32;
        let cf = centre_distance(file); // 1..7
        let cr = centre_distance(rank); // 1..7
        let centre = cf + cr; // 2 (centre) .. 14 (corner)

        // Pawns: advance, central pawns more in the middlegame; much more in the endgame.
        let pawn_mg = if rank == 0 || rank == 7 {
            0
        } else {
            let central = if cf == 1 {
                12
            } else if cf == 3 {
                6
            } else {
                0
            };
            (rank - 1) * 4
                + central * (rank >= 3 && rank <= 4) as i32
                + if rank == 6 { 40 } else { 0 }
        };
        let pawn_eg = if rank == 0 || rank == 7 {
            0
        } else {
            (rank - 1) * (rank - 1) * 5
        };
        // Knights: strongly centralised.
        let knight_mg = 30 - 6 * centre + if rank == 0 { -10 } else { 0 };
        let knight_eg = 24 - 5 * centre;
        // Bishops: mildly centralised, avoid the edge.
        let bishop_mg = 14 - 3 * centre
            + if file == rank || file + rank == 7 {
                8
            } else {
                0
            };
        let bishop_eg = 10 - 2 * centre;
        // Rooks: seventh rank, central files in the middlegame.
        let rook_mg = if rank == 6 { 20 } else { 0 } + if cf == 1 { 6 } else { 0 };
        let rook_eg = if rank == 6 { 12 } else { 0 };
        // Queens: small centralisation, not too early off the back rank.
        let queen_mg = 6 - centre + if rank >= 5 { 4 } else { 0 };
        let queen_eg = 24 - 3 * centre;
        // King: shelter on the back rank and the wings in the middlegame,
        // centralised in the endgame.
        let king_mg =
            -12 * rank - if cf <= 3 { 24 } else { 0 } + if rank == 0 && cf >= 5 { 20 } else { 0 };
        let king_eg = 42 - 6 * centre;

        let mgv = [pawn_mg, knight_mg, bishop_mg, rook_mg, queen_mg, king_mg];
        let egv = [pawn_eg, knight_eg, bishop_eg, rook_eg, queen_eg, king_eg];
        let mut r = 0;
        while r < 6 {
            mg[r][sq] = MATERIAL_MG[r] + mgv[r];
            eg[r][sq] = MATERIAL_EG[r] + egv[r];
            r += 1;
        }
        sq += 1;
    }
    PieceSquareTables { mg, eg }
}

pub static PST: PieceSquareTables = build_tables();

/// Small bonus for having the move.
const TEMPO: i32 = 10;

/// Middlegame and endgame sums for White minus Black, and the game phase.
fn tapered_terms(board: &Board) -> (i32, i32, i32) {
    let b = board.pos().board();
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    for (sq, piece) in b.clone() {
        let r = role_index(piece.role);
        let idx = match piece.color {
            Color::White => sq as usize,
            Color::Black => sq.flip_vertical() as usize,
        };
        let sign = if piece.color == Color::White { 1 } else { -1 };
        mg += sign * PST.mg[r][idx];
        eg += sign * PST.eg[r][idx];
        phase += PHASE_WEIGHT[r];
    }
    (mg, eg, phase.min(MAX_PHASE))
}

/// The static evaluation of `board` from the side to move's point of view.
pub fn evaluate(board: &Board) -> Score {
    let (mg, eg, phase) = tapered_terms(board);
    let white = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let relative = if board.turn() == Color::White {
        white
    } else {
        -white
    };
    Score(relative + TEMPO)
}

/// The value of the piece on `sq` for ordering purposes (0 if empty).
pub fn piece_value_at(board: &Board, sq: Square) -> i32 {
    board
        .pos()
        .board()
        .role_at(sq)
        .map_or(0, |r| SEE_VALUE[role_index(r)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate(&Board::from_fen(fen).unwrap()).0
    }

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            TEMPO
        );
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
            TEMPO
        );
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let pairs = [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
            ),
            (
                "8/5k2/8/3P4/8/8/5K2/8 w - - 0 1",
                "8/5k2/8/8/3p4/8/5K2/8 b - - 0 1",
            ),
        ];
        for (a, b) in pairs {
            assert_eq!(eval(a), eval(b), "{a} vs {b}");
        }
    }

    #[test]
    fn material_and_placement_matter() {
        // A queen up is a lot.
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 800);
        // A central knight beats a knight on the rim.
        assert!(eval("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/N7/8/8/4K3 w - - 0 1"));
        // An advanced passed pawn in the endgame is worth more than one at home.
        assert!(eval("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1"));
    }
}
