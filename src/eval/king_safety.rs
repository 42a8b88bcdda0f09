//! King safety, a middlegame term: the pawn shelter and storm on the king's
//! and the adjacent files, open files there, and the danger from enemy pieces
//! attacking the king zone (non-linear in their number and weight).

use super::bitboards::*;
use super::context::EvalContext;
use super::tapered::{S, s};
use super::trace::{Tracer, term, unit};
use super::weights::*;
use crate::eval::role_index;
use shakmaty::{Bitboard, Color, File, Role, Square, attacks};

/// The pawn nearest to `c`'s back rank in `bb` (`bb` lies on one file).
fn nearest(c: Color, bb: Bitboard) -> Option<Square> {
    match c {
        Color::White => bb.first(),
        Color::Black => bb.last(),
    }
}

/// Shelter of `c`'s king on `king`: shield pawns, pawn storm and open files
/// on its file and the two beside it (b..g when the king is on an edge
/// file). Depends on the pawns (by colour index) and the king square only,
/// so the pawn cache keeps it.
pub fn shelter<T: Tracer>(c: Color, pawns: [Bitboard; 2], king: Square, t: &mut T) -> S {
    let (us, them) = (ci(c), ci(!c));
    let king_rank = relative_rank(c, king);
    let ahead = FORWARD_RANKS[us][king as usize];
    let middle = (king.file() as u32).clamp(1, 6);
    let mut score = S::ZERO;
    for f in middle - 1..=middle + 1 {
        let file = Bitboard::from_file(File::new(f));
        let own = pawns[us] & file;
        let theirs = pawns[them] & file;
        score += match nearest(c, own & ahead) {
            None => term!(t, c, KING_SHIELD_MISSING),
            Some(p) => term!(t, c, KING_SHIELD_DISTANCE[relative_rank(c, p) - king_rank]),
        };
        if own.is_empty() {
            score += term!(t, c, KING_SEMI_OPEN_FILE);
            if theirs.is_empty() {
                score += term!(t, c, KING_OPEN_FILE);
            }
        }
        if let Some(p) = nearest(c, theirs & ahead) {
            let distance = relative_rank(c, p) - king_rank;
            let blocked = own.intersects(forward(!c, Bitboard::from_square(p)));
            if !blocked && distance < KING_PAWN_STORM.len() {
                score += term!(t, c, KING_PAWN_STORM[distance]);
            }
        }
    }
    score
}

/// Danger to `c`'s king from the enemy pieces attacking its zone (tallied
/// by the piece terms) and the safe checks they have.
/// (The attacks' units are traced by `EvalContext::record_attacks`.)
pub fn danger<T: Tracer>(ctx: &EvalContext, c: Color, t: &mut T) -> S {
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
    let mut units =
        ctx.king_attack_weight[us] + unit!(t, c, KING_ZONE_HIT * ctx.king_zone_hits[us]);
    for (role, squares) in [
        (Role::Knight, knight_jumps),
        (Role::Bishop, bishop_lines),
        (Role::Rook, rook_lines),
        (Role::Queen, rook_lines | bishop_lines),
    ] {
        if squares.intersects(by[role_index(role)]) {
            units += unit!(t, c, KING_SAFE_CHECK[role_index(role)]);
        }
    }
    let no_queen = !ctx.board.queens().intersects(ctx.pieces[them]);
    t.danger(c, percent, no_queen);
    if no_queen {
        units = units * KING_NO_QUEEN_PERCENT / 100;
    }
    let scaled = units * percent / 100;
    s(
        -(scaled * scaled / KING_DANGER_DIVISOR).min(KING_DANGER_MAX),
        0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::{eval, with_analysis};
    use crate::eval::trace::NoTrace;

    fn white_king(fen: &str) -> S {
        with_analysis(fen, |ctx, pawn, _| {
            assert_eq!(
                pawn.shelter[1],
                shelter(Color::White, ctx.pawns, ctx.king[1], &mut NoTrace)
            );
            pawn.shelter[1] + danger(ctx, Color::White, &mut NoTrace)
        })
    }

    #[test]
    fn king_with_shield_is_safer() {
        // The same three pawns, in front of the king or far away. (With only
        // the queens left the phase is mostly endgame, where pawns away from
        // the king are worth something too: the margin is tuning's, 41 cp.)
        assert!(
            eval("q5k1/5ppp/8/8/8/8/5PPP/Q5K1 w - - 0 1")
                > eval("q5k1/5ppp/8/8/8/8/PPP5/Q5K1 w - - 0 1") + 30
        );
        let home = white_king("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1");
        let pushed = white_king("6k1/8/8/8/8/6P1/5P1P/6K1 w - - 0 1");
        let far = white_king("6k1/8/8/8/6P1/8/5P1P/6K1 w - - 0 1");
        // An intact shield beats none. (Only differences count: every shield
        // file scores one of its terms, so their common level cancels
        // between the two kings and tuning may leave it anywhere.)
        let bare = white_king("6k1/8/8/8/8/8/PPP5/6K1 w - - 0 1");
        assert!(home.mg > bare.mg + 30, "{home:?} {bare:?}");
        // Pushed shield pawns cost; one or two squares differ by tuning noise only.
        assert!(
            pushed.mg < home.mg && far.mg < home.mg,
            "{home:?} {pushed:?} {far:?}"
        );
        assert!((far.mg - pushed.mg).abs() <= 5, "{pushed:?} {far:?}");
    }

    #[test]
    fn open_files_near_the_king_hurt() {
        let closed = white_king("6k1/6p1/8/8/8/8/5PPP/6K1 w - - 0 1");
        let semi_open = white_king("6k1/6p1/8/8/8/8/5P1P/6K1 w - - 0 1");
        let open = white_king("6k1/8/8/8/8/8/5P1P/6K1 w - - 0 1");
        assert!(open.mg < semi_open.mg && semi_open.mg < closed.mg);
    }

    #[test]
    fn pawn_storm_hurts() {
        let quiet = white_king("6k1/7p/8/8/8/8/5PP1/6K1 w - - 0 1");
        let storm = white_king("6k1/8/8/8/8/7p/5PP1/6K1 w - - 0 1");
        assert!(storm.mg < quiet.mg);
    }

    #[test]
    fn attackers_on_the_king_zone_cost_more_than_linearly() {
        let black_danger =
            |fen| with_analysis(fen, |ctx, _, _| danger(ctx, Color::Black, &mut NoTrace));
        // One attacker alone is no attack.
        assert_eq!(black_danger("6k1/5ppp/8/7Q/8/8/8/6K1 w - - 0 1"), S::ZERO);
        let two = black_danger("6k1/5ppp/8/6NQ/8/8/8/6K1 w - - 0 1");
        let three = black_danger("6k1/5ppp/8/6NQ/8/8/8/5RK1 w - - 0 1");
        assert!(two.mg < 0 && three.mg < two.mg, "{two:?} {three:?}");
        // Three attackers cost more than three times a third of them.
        let per_attacker = two.mg / 2;
        assert!(three.mg < 3 * per_attacker);
        // Without the queen the same attack is much weaker.
        let no_queen = black_danger("6k1/5ppp/8/6NB/8/8/8/5RK1 w - - 0 1");
        assert!(no_queen.mg > three.mg);
        // Middlegame only.
        assert_eq!(three.eg, 0);
    }
}
