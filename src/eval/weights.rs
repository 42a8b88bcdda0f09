//! Every evaluation weight, in centipawns unless said otherwise. The weights
//! the tuner changes (material, piece-square rules, mobility, pawns, passers,
//! pieces, king shelter, storm and attack units, threats, tempo) are declared
//! in the generated `tuned.rs` and re-exported here; this file keeps the ones
//! that are not linear evaluation terms: phase weights, SEE values, the
//! shapes of the piece-square rules and passer terms, the king-danger curve,
//! the endgame scale factors and the evaluation limit.

use super::tapered::S;
pub use super::tuned::*;

// ---------------------------------------------------------------- material

/// Game phase weight of each role (pawn, knight, bishop, rook, queen, king);
/// their sum over the starting material is `tapered::MAX_PHASE`.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The halves of `MATERIAL`, by role (scaling measures material in
/// middlegame values).
pub const MATERIAL_MG: [i32; 6] = halves(MATERIAL).0;
pub const MATERIAL_EG: [i32; 6] = halves(MATERIAL).1;

/// Material values used by move ordering and SEE (one number per role).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

const fn halves(v: [S; 6]) -> ([i32; 6], [i32; 6]) {
    let (mut mg, mut eg) = ([0; 6], [0; 6]);
    let mut i = 0;
    while i < 6 {
        mg[i] = v[i].mg;
        eg[i] = v[i].eg;
        i += 1;
    }
    (mg, eg)
}

// ------------------------------------------------------ piece-square rules
// The tables are generated from rules (see `material_pst`) weighted in
// `tuned.rs`. "Centre distance" is the sum of the file's and rank's
// distances from the centre lines in half-squares: 2 in the four centre
// squares, 14 in a corner.

/// Centre distance at which a centralisation bonus is zero.
pub const PST_CENTRE_PIVOT: i32 = 5;

// ------------------------------------------------------------- passed pawns

/// The passer terms that depend on kings and pieces are multiplied by the
/// passer's advancement weight: its relative rank minus this (0 or less:
/// not applied).
pub const PASSER_WEIGHT_BASE_RANK: i32 = 2;
/// King distances to a passer's stop square count up to this many squares.
pub const PASSER_KING_DISTANCE_CAP: i32 = 5;

// -------------------------------------------------------------- king safety
// Middlegame only. Danger units (weights in `tuned.rs`): each enemy piece
// attacking the king zone adds its role's weight, each attack on a square
// next to the king adds `KING_ZONE_HIT`, each kind of safe check available
// adds its weight. The units are scaled by the number of attackers and the
// penalty is quadratic: units² / KING_DANGER_DIVISOR, at most KING_DANGER_MAX.

/// Percent of the units that count, by number of attackers (one attacker
/// alone is no attack).
pub const KING_ATTACKERS_PERCENT: [i32; 8] = [0, 0, 50, 75, 88, 94, 97, 99];
/// Percent of the units that count when the attacker has no queen.
pub const KING_NO_QUEEN_PERCENT: i32 = 40;
pub const KING_DANGER_DIVISOR: i32 = 20;
pub const KING_DANGER_MAX: i32 = 900;

// ------------------------------------------------------------- the whole

// Endgame scale factors, out of `SCALE_NORMAL`, for the side ahead: the
// four pawnless material draws scale the whole score, the rest the endgame
// half only.
pub const SCALE_NORMAL: i32 = 64;
/// No pawns, at most a bishop ahead, and only a minor piece: cannot win.
pub const SCALE_NO_WIN: i32 = 0;
/// No pawns, at most a bishop ahead, the defender has at most a minor.
pub const SCALE_ALMOST_DRAW: i32 = 4;
/// No pawns, at most a bishop ahead, the defender has more.
pub const SCALE_HARD_WIN: i32 = 14;
/// No pawns and nothing but one or two knights.
pub const SCALE_KNIGHTS_ONLY: i32 = 4;
/// Opposite-coloured bishops and no other pieces: base and per passer of
/// the side ahead.
pub const SCALE_OCB_ONLY: i32 = 18;
pub const SCALE_OCB_PER_PASSER: i32 = 6;
/// Opposite-coloured bishops with other pieces.
pub const SCALE_OCB_WITH_PIECES: i32 = 46;
/// Few pawns for the side ahead, less than a rook ahead in pieces: base
/// plus per pawn (capped at normal).
pub const SCALE_PAWNS_BASE: i32 = 36;
pub const SCALE_PER_PAWN: i32 = 7;

/// Evaluations are clamped well inside the mate range.
pub const EVAL_LIMIT: i32 = 20_000;

/// The registry the weights' declarations make (`registry`), checked
/// against the weights themselves.
#[cfg(test)]
mod registry_tests {
    use crate::eval::registry::{Kind, Layout};
    use crate::eval::tapered::s;
    use crate::eval::weights::{self, W, registry};

    #[test]
    fn registry_follows_the_declarations() {
        let reg = registry();
        assert_eq!(reg[W::MATERIAL as usize].name, "MATERIAL");
        assert_eq!(reg[W::MATERIAL as usize].values, weights::MATERIAL.to_vec());
        assert_eq!(reg[W::TEMPO as usize].values, vec![weights::TEMPO]);
        let zone = &reg[W::KING_ZONE_HIT as usize];
        assert_eq!(zone.shape.rust_type(), "i32");
        assert_eq!(zone.values, vec![s(weights::KING_ZONE_HIT, 0)]);
        let mobility = &reg[W::MOBILITY_QUEEN as usize];
        assert_eq!(mobility.shape.rust_type(), "[S; 28]");
        assert!(
            reg.iter().all(|w| !w.doc.is_empty()),
            "every weight is documented"
        );
        // Names are unique (the enum would not compile otherwise, but the
        // writer relies on it too).
        let mut names: Vec<&str> = reg.iter().map(|w| w.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), reg.len());
    }

    #[test]
    fn layout_numbers_every_element_once() {
        let reg = registry();
        let layout = Layout::new(&reg);
        let total: usize = reg.iter().map(|w| w.values.len()).sum();
        assert_eq!(layout.len(), total);
        assert_eq!(layout.slot(0, 0), 0);
        let q = W::MOBILITY_QUEEN as usize;
        assert_eq!(layout.slots(q).len(), 28);
        assert_eq!(layout.slot(q, 27) + 1, layout.slots(q).end);
        assert_eq!(
            layout.kind(layout.slot(W::KING_SAFE_CHECK as usize, 2)),
            Kind::Units
        );
        assert_eq!(layout.kind(layout.slot(W::HANGING as usize, 0)), Kind::Pair);
        let values = Layout::values(&reg);
        assert_eq!(
            values[layout.slot(W::BISHOP_PAIR as usize, 0)],
            weights::BISHOP_PAIR
        );
    }
}
