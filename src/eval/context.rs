//! `EvalContext`: what one evaluation computes once and the terms share —
//! occupancy, pawn attacks, king zones, mobility areas — and the attack maps
//! and king-attack tallies the piece terms fill in for the later terms.

use super::bitboards::{ci, forward, pawn_attacks_bb};
use super::trace::{Tracer, unit};
use super::weights::KING_ATTACK_WEIGHT;
use crate::eval::role_index;
use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

pub struct EvalContext<'a> {
    pub board: &'a Board,
    pub occupied: Bitboard,
    /// Indexed by `ci(colour)` like every array here.
    pub pieces: [Bitboard; 2],
    pub pawns: [Bitboard; 2],
    pub king: [Square; 2],
    pub pawn_attacks: [Bitboard; 2],
    /// Squares a side's pieces count for mobility.
    pub mobility_area: [Bitboard; 2],
    /// The king's square, its neighbours and the row in front of them.
    pub king_zone: [Bitboard; 2],
    /// Squares attacked by a side, by role of the attacker.
    pub attacked_by: [[Bitboard; 6]; 2],
    /// Squares attacked by a side at all.
    pub attacked: [Bitboard; 2],
    /// Indexed by the colour of the king attacked: enemy pieces attacking
    /// its zone, their summed weights, and their attacks next to the king.
    pub king_attackers: [i32; 2],
    pub king_attack_weight: [i32; 2],
    pub king_zone_hits: [i32; 2],
}

impl<'a> EvalContext<'a> {
    pub fn new(board: &'a Board) -> EvalContext<'a> {
        let pieces = [board.black(), board.white()];
        let pawns = [board.pawns() & pieces[0], board.pawns() & pieces[1]];
        let king = [Color::Black, Color::White]
            .map(|c| board.king_of(c).expect("a legal position has both kings"));
        let pawn_attacks = [
            pawn_attacks_bb(Color::Black, pawns[0]),
            pawn_attacks_bb(Color::White, pawns[1]),
        ];
        let mut ctx = EvalContext {
            board,
            occupied: board.occupied(),
            pieces,
            pawns,
            king,
            pawn_attacks,
            mobility_area: [Bitboard::EMPTY; 2],
            king_zone: [Bitboard::EMPTY; 2],
            attacked_by: [[Bitboard::EMPTY; 6]; 2],
            attacked: [Bitboard::EMPTY; 2],
            king_attackers: [0; 2],
            king_attack_weight: [0; 2],
            king_zone_hits: [0; 2],
        };
        for c in Color::ALL {
            let (us, them) = (ci(c), ci(!c));
            ctx.mobility_area[us] = !pieces[us] & !pawn_attacks[them];
            let king_attacks = attacks::king_attacks(king[us]);
            let ring = king_attacks | Bitboard::from_square(king[us]);
            ctx.king_zone[us] = ring | forward(c, ring);
            ctx.attacked_by[us][role_index(Role::Pawn)] = pawn_attacks[us];
            ctx.attacked_by[us][role_index(Role::King)] = king_attacks;
            ctx.attacked[us] = pawn_attacks[us] | king_attacks;
        }
        ctx
    }

    /// Records the attacks `att` of one piece of colour `c` and role `role`.
    #[inline]
    pub fn record_attacks<T: Tracer>(&mut self, c: Color, role: Role, att: Bitboard, t: &mut T) {
        let (us, them) = (ci(c), ci(!c));
        self.attacked_by[us][role_index(role)] |= att;
        self.attacked[us] |= att;
        if att.intersects(self.king_zone[them]) {
            self.king_attackers[them] += 1;
            self.king_attack_weight[them] += unit!(t, !c, KING_ATTACK_WEIGHT[role_index(role)]);
            let next_to_king = att & attacks::king_attacks(self.king[them]);
            self.king_zone_hits[them] += next_to_king.count() as i32;
        }
    }
}
