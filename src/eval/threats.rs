//! Threats: enemy pieces attacked by pawns, by minor pieces and by rooks
//! (when they are worth more or undefended), and hanging pieces. Needs the
//! attack maps of both sides, so it runs after the piece terms.

use super::bitboards::ci;
use super::context::EvalContext;
use super::tapered::S;
use super::trace::{Tracer, term};
use super::weights::*;
use crate::eval::role_index;
use shakmaty::{Color, Role};

/// Sum of `TABLE[role]` over the pieces in `targets` (usually none or few),
/// for colour `c`.
macro_rules! by_victim {
    ($ctx:expr, $targets:expr, $t:expr, $c:expr, $table:ident) => {{
        let mut score = S::ZERO;
        for sq in $targets {
            if let Some(role) = $ctx.board.role_at(sq) {
                score += term!($t, $c, $table[role_index(role)]);
            }
        }
        score
    }};
}

/// Threats made by colour `c` against the other side's pieces.
pub fn threats<T: Tracer>(ctx: &EvalContext, c: Color, t: &mut T) -> S {
    let (us, them) = (ci(c), ci(!c));
    let b = ctx.board;
    let enemies = ctx.pieces[them] & !b.kings();
    let pieces = enemies & !b.pawns();
    let majors = enemies & (b.rooks() | b.queens());
    let undefended = enemies & ctx.attacked[us] & !ctx.attacked[them];
    let by = &ctx.attacked_by[us];

    let mut score = term!(
        t,
        c,
        THREAT_BY_PAWN * (pieces & ctx.pawn_attacks[us]).count() as i32
    );
    let by_minor = by[role_index(Role::Knight)] | by[role_index(Role::Bishop)];
    score += by_victim!(ctx, (undefended | majors) & by_minor, t, c, THREAT_BY_MINOR);
    let queens = enemies & b.queens();
    let by_rook = by[role_index(Role::Rook)];
    score += by_victim!(ctx, (undefended | queens) & by_rook, t, c, THREAT_BY_ROOK);
    score += term!(t, c, HANGING * (undefended & pieces).count() as i32);
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::with_analysis;
    use crate::eval::trace::NoTrace;

    fn white_threats(fen: &str) -> S {
        with_analysis(fen, |ctx, _, _| threats(ctx, Color::White, &mut NoTrace))
    }

    #[test]
    fn piece_attacked_by_a_pawn() {
        // The knight is defended by its pawn, so only the pawn threat counts.
        let t = white_threats("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(t, THREAT_BY_PAWN);
        assert_eq!(
            white_threats("4k3/8/2p5/3n4/8/4P3/8/4K3 w - - 0 1"),
            S::ZERO
        );
    }

    #[test]
    fn major_attacked_by_a_lesser_piece() {
        // A defended rook attacked by a knight still counts; a defended
        // knight attacked by a knight does not.
        let rook = white_threats("4k3/8/2p5/3r4/8/4N3/8/4K3 w - - 0 1");
        assert_eq!(rook, THREAT_BY_MINOR[role_index(Role::Rook)]);
        assert_eq!(
            white_threats("4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1"),
            S::ZERO
        );
        // A queen attacked by a rook.
        let queen = white_threats("4k3/8/2p5/3q4/8/8/8/3RK3 w - - 0 1");
        assert_eq!(queen, THREAT_BY_ROOK[role_index(Role::Queen)]);
    }

    #[test]
    fn hanging_pieces() {
        let hanging = white_threats("4k3/8/8/3n4/8/4N3/8/4K3 w - - 0 1");
        let defended = white_threats("4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1");
        assert_eq!(hanging, THREAT_BY_MINOR[role_index(Role::Knight)] + HANGING);
        assert!(hanging.mg > defended.mg);
        // Attacked by nothing: no threat.
        assert_eq!(white_threats("4k3/8/8/3n4/8/8/8/4K3 w - - 0 1"), S::ZERO);
    }
}
