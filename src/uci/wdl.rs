//! Win/draw/loss estimates for `UCI_ShowWDL`: the chances, in per mille,
//! that the side to move wins, draws or loses from a search score, by a
//! model fitted to Stockman's own games (docs/wdl.md, scripts/wdl_fit.py).
//!
//! The model is Stockfish's: `win(s) = 1 / (1 + exp(-(s - a) / b))`,
//! `loss(s) = win(-s)`, the draw the rest, where `a` (the score at which a
//! win is as likely as not) and `b` (how fast that changes with the score)
//! are cubic polynomials of the material on the board.

use crate::board::Board;
use crate::score::Score;
use shakmaty::{Position, Role};

/// `a(m)` in centipawns, highest power of `m` first: scripts/wdl_fit.py
/// on docs/data/wdl-selfplay-99b72e5-s32-s33-n20000.pgn.gz (tests/wdl_fit.rs
/// fits them again).
pub const A: [f64; 4] = [-1517.701, 4067.958, -3468.549, 1090.391];
/// `b(m)` in centipawns, highest power of `m` first.
pub const B: [f64; 4] = [-426.993, 1036.759, -757.028, 257.605];

/// Material is clamped to this range (the fit's data covers it) ...
pub const MATERIAL_MIN: i32 = 17;
pub const MATERIAL_MAX: i32 = 78;
/// ... and divided by this to give `m` (the material of a typical middle game).
pub const MATERIAL_NORM: f64 = 58.0;

/// Both sides' material, pawn 1, knight and bishop 3, rook 5, queen 9: 78
/// in the start position.
pub fn material(board: &Board) -> i32 {
    let b = board.pos().board();
    let count = |role: Role| b.by_role(role).count() as i32;
    count(Role::Pawn)
        + 3 * (count(Role::Knight) + count(Role::Bishop))
        + 5 * count(Role::Rook)
        + 9 * count(Role::Queen)
}

fn polynomial(coefficients: &[f64], m: f64) -> f64 {
    coefficients.iter().fold(0.0, |v, c| v * m + c)
}

/// The model's `a` and `b` for `material`.
pub fn parameters(material: i32) -> (f64, f64) {
    let m = material.clamp(MATERIAL_MIN, MATERIAL_MAX) as f64 / MATERIAL_NORM;
    (polynomial(&A, m), polynomial(&B, m))
}

/// The win chance in per mille for `cp` centipawns with `material` on the board.
fn win_per_mille(cp: f64, material: i32) -> u32 {
    let (a, b) = parameters(material);
    (1000.0 / (1.0 + (-(cp - a) / b).exp())).round() as u32
}

/// Win, draw and loss for the side to move, in per mille summing to 1000.
/// A mate or a tablebase result is certain.
pub fn wdl(score: Score, material: i32) -> (u32, u32, u32) {
    if score.is_decisive() {
        return if score.0 > 0 {
            (1000, 0, 0)
        } else {
            (0, 0, 1000)
        };
    }
    let cp = score.0 as f64;
    let win = win_per_mille(cp, material);
    let loss = win_per_mille(-cp, material);
    // a > 0, so win + loss < 1000 before rounding and at most 1000 after.
    let loss = loss.min(1000 - win);
    (win, 1000 - win - loss, loss)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCORES: [i32; 17] = [
        -30_000, -5000, -1000, -600, -400, -300, -200, -100, 0, 100, 200, 300, 400, 600, 1000,
        5000, 30_000,
    ];

    #[test]
    fn the_start_position_has_78_points_of_material() {
        assert_eq!(material(&Board::default()), 78);
        let kings_only = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(material(&kings_only), 0);
    }

    #[test]
    fn the_model_is_well_formed_at_every_material() {
        for mat in 0..=104 {
            let (a, b) = parameters(mat);
            assert!(a > 0.0 && b > 0.0, "material {mat}: a {a}, b {b}");
        }
    }

    #[test]
    fn sums_to_a_thousand() {
        for mat in (0..=80).step_by(4) {
            for cp in -1500..=1500 {
                let (w, d, l) = wdl(Score(cp), mat);
                assert_eq!(w + d + l, 1000, "{cp} cp, material {mat}");
            }
        }
    }

    #[test]
    fn symmetric_in_the_score() {
        for mat in (0..=80).step_by(4) {
            for cp in SCORES {
                let (w, d, l) = wdl(Score(cp), mat);
                assert_eq!(wdl(Score(-cp), mat), (l, d, w), "{cp} cp, material {mat}");
            }
        }
    }

    #[test]
    fn monotone_in_the_score() {
        for mat in (0..=80).step_by(4) {
            let mut last = wdl(Score(-3000), mat);
            for cp in -2999..=3000 {
                let now = wdl(Score(cp), mat);
                assert!(
                    now.0 >= last.0 && now.2 <= last.2,
                    "{cp} cp, material {mat}"
                );
                last = now;
            }
            assert_eq!(wdl(Score(3000), mat).0, 1000);
        }
    }

    #[test]
    fn level_is_likeliest_a_draw_and_a_piece_up_likeliest_a_win() {
        for mat in [20, 30, 40, 60, 78] {
            let (w, d, l) = wdl(Score(0), mat);
            assert_eq!(w, l);
            assert!(d > w, "material {mat}: {w} {d} {l}");
            let (w, _, l) = wdl(Score(350), mat);
            assert!(w > 20 * l, "material {mat}: {w} {l}");
            // In the lightest endgames the symmetric logistic rates a
            // piece up as about as likely a draw as a win (docs/wdl.md:
            // its draw rate there is above the games' own); from 30
            // points of material on, the win is the likeliest result.
            if mat >= 30 {
                assert!(w > 500, "material {mat}: {w} {l}");
            }
        }
    }

    #[test]
    fn mates_and_tablebase_results_are_certain() {
        for mat in [0, 30, 78] {
            assert_eq!(wdl(Score::mate_in(5), mat), (1000, 0, 0));
            assert_eq!(wdl(Score::mated_in(0), mat), (0, 0, 1000));
            assert_eq!(wdl(Score::tb_win_in(9), mat), (1000, 0, 0));
            assert_eq!(wdl(Score::tb_loss_in(9), mat), (0, 0, 1000));
        }
    }
}
