//! Piece terms: mobility by count, knight and bishop outposts, the bishop
//! pair and bad bishops, rooks on open and semi-open files and the 7th rank.
//! While counting mobility it records the attack maps later terms use.

use super::bitboards::*;
use super::context::EvalContext;
use super::pawns::PawnEntry;
use super::tapered::S;
use super::trace::{Tracer, term};
use super::weights::*;
use shakmaty::{Bitboard, Color, Role, attacks};

/// Relative ranks 4..6 (index 3..5), where outposts are.
fn outpost_ranks(c: Color) -> Bitboard {
    relative_rank_bb(c, 3) | relative_rank_bb(c, 4) | relative_rank_bb(c, 5)
}

/// The piece terms for colour `c`; fills `ctx`'s attack maps for `c`.
pub fn pieces<T: Tracer>(ctx: &mut EvalContext, c: Color, pawn: &PawnEntry, t: &mut T) -> S {
    let (us, them) = (ci(c), ci(!c));
    let b = ctx.board;
    let own = ctx.pieces[us];
    let occupied = ctx.occupied;
    let area = ctx.mobility_area[us];
    let outposts = outpost_ranks(c) & ctx.pawn_attacks[us] & !pawn.attack_span[them];
    let mut score = S::ZERO;

    for sq in b.knights() & own {
        let att = attacks::knight_attacks(sq);
        ctx.record_attacks(c, Role::Knight, att, t);
        score += term!(t, c, MOBILITY_KNIGHT[(att & area).count()]);
        if outposts.contains(sq) {
            score += term!(t, c, KNIGHT_OUTPOST);
        }
    }

    let bishops = b.bishops() & own;
    // Own pawns on dark and on light squares.
    let pawn_colours = if bishops.is_empty() {
        [0, 0]
    } else {
        [Bitboard::DARK_SQUARES, Bitboard::LIGHT_SQUARES]
            .map(|sq| (ctx.pawns[us] & sq).count() as i32)
    };
    for sq in bishops {
        let att = attacks::bishop_attacks(sq, occupied);
        ctx.record_attacks(c, Role::Bishop, att, t);
        score += term!(t, c, MOBILITY_BISHOP[(att & area).count()]);
        if outposts.contains(sq) {
            score += term!(t, c, BISHOP_OUTPOST);
        }
        score += term!(
            t,
            c,
            BISHOP_PAWNS_SAME_COLOUR * pawn_colours[usize::from(!sq.is_dark())]
        );
    }
    if bishops.intersects(Bitboard::DARK_SQUARES) && bishops.intersects(Bitboard::LIGHT_SQUARES) {
        score += term!(t, c, BISHOP_PAIR);
    }

    let all_pawns = ctx.pawns[0] | ctx.pawns[1];
    let seventh = relative_rank_bb(c, 6);
    let seventh_matters =
        relative_rank(c, ctx.king[them]) == 7 || ctx.pawns[them].intersects(seventh);
    for sq in b.rooks() & own {
        let att = attacks::rook_attacks(sq, occupied);
        ctx.record_attacks(c, Role::Rook, att, t);
        score += term!(t, c, MOBILITY_ROOK[(att & area).count()]);
        let file = Bitboard::from_file(sq.file());
        if !all_pawns.intersects(file) {
            score += term!(t, c, ROOK_OPEN_FILE);
        } else if !ctx.pawns[us].intersects(file) {
            score += term!(t, c, ROOK_SEMI_OPEN_FILE);
        }
        if seventh_matters && seventh.contains(sq) {
            score += term!(t, c, ROOK_SEVENTH);
        }
    }

    for sq in b.queens() & own {
        let att = attacks::queen_attacks(sq, occupied);
        ctx.record_attacks(c, Role::Queen, att, t);
        score += term!(t, c, MOBILITY_QUEEN[(att & area).count()]);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::{eval, with_analysis};

    fn white_pieces(fen: &str) -> S {
        with_analysis(fen, |_, _, p| p[1])
    }

    #[test]
    fn mobility_tables_rise() {
        const MOBILITY_WOBBLE: i32 = 8;
        for t in [
            &MOBILITY_KNIGHT[..],
            &MOBILITY_BISHOP[..],
            &MOBILITY_ROOK[..],
            &MOBILITY_QUEEN[..],
        ] {
            // The tuner does not keep tables monotonic, and rare counts (a
            // knight reaching 8 squares) are noisy: neighbours may wobble by
            // a few centipawns, but more squares are never clearly worse.
            for w in t.windows(2) {
                assert!(
                    w[1].mg >= w[0].mg - MOBILITY_WOBBLE && w[1].eg >= w[0].eg - MOBILITY_WOBBLE,
                    "{w:?}"
                );
            }
            let (first, last) = (t[0], t[t.len() - 1]);
            assert!(last.mg > first.mg + 40 && last.eg > first.eg + 40, "{t:?}");
        }
        // A bishop hemmed in by its own pawns is worth less than a free one.
        assert!(
            white_pieces("4k3/8/8/8/8/1P1P4/2B5/4K3 w - - 0 1").mg
                < white_pieces("4k3/8/8/8/8/8/1PBP4/4K3 w - - 0 1").mg
        );
    }

    #[test]
    fn bishop_pair_bonus() {
        // The two bishops do not see each other: the pair is the difference.
        let both = white_pieces("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
        let dark = white_pieces("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        let light = white_pieces("4k3/8/8/8/8/8/8/4KB2 w - - 0 1");
        assert_eq!(both, dark + light + BISHOP_PAIR);
    }

    #[test]
    fn rook_on_open_and_semi_open_files() {
        let open = white_pieces("4k3/8/8/8/8/8/8/3RK3 w - - 0 1");
        let semi_open = white_pieces("4k3/3p4/8/8/8/8/8/3RK3 w - - 0 1");
        let closed = white_pieces("4k3/3p4/8/8/8/8/3P4/3RK3 w - - 0 1");
        assert!(open.mg > semi_open.mg && semi_open.mg > closed.mg);
        assert!(
            eval("4k3/ppp2ppp/8/8/8/8/PPP2PPP/3R2K1 w - - 0 1")
                > eval("4k3/ppp2ppp/8/8/8/8/PPP2PPP/1R4K1 w - - 0 1")
        );
    }

    #[test]
    fn rook_on_seventh() {
        // Same mobility on a7 and a6; the 7th rank counts with the king on the 8th.
        let seventh = white_pieces("4k3/R7/8/8/8/8/8/4K3 w - - 0 1");
        let sixth = white_pieces("4k3/8/R7/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(seventh, sixth + ROOK_SEVENTH);
    }

    #[test]
    fn knight_outpost() {
        // The a7 pawn can never chase the d5 knight; a c7 pawn could. Both
        // take the b6 square away, so only the outpost differs.
        let outpost = white_pieces("4k3/p7/8/3N4/4P3/8/8/4K3 w - - 0 1");
        let chased = white_pieces("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(outpost, chased + KNIGHT_OUTPOST);
        // Unprotected: no outpost.
        let alone = white_pieces("4k3/p7/8/3N4/8/8/8/4K3 w - - 0 1");
        assert_eq!(alone, chased);
    }
}
