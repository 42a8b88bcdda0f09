//! The butterfly history table (Schaeffer 1989), kept apart by whether the
//! move leaves and enters attacked squares, and the gravity update that the
//! history tables share (quiet history here, continuation history and
//! capture history beside it): the bottom of move ordering's tables.

use crate::eval::bitboards::pawn_attacks_bb;
use crate::score::Depth;
use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

/// Largest magnitude a history entry reaches (gravity keeps it inside).
const HISTORY_MAX: i32 = 16_384;

/// The history bonus's scale against the tables' ±16,384: at 16, a move that
/// cuts off at depth 6 moves its entry by 768, so gravity (which pulls an
/// entry back by its share of the maximum) forgets old cutoffs within tens of
/// updates rather than hundreds. Shared by the quiet, continuation and
/// capture histories. (×16 against ×1: +11.5 ± 7.7 over 4,000 games at
/// 20,000 nodes, commit 65537d7 of 2026-11-27; docs/results/matches.md.)
const BONUS_SCALE: i32 = 16;

/// One side's from-to table for one threat case.
type FromTo = [[i32; 64]; 64];

/// Butterfly history: how often a quiet move from-to caused a cutoff, for
/// each side and each of the four cases of its from and to squares being
/// attacked by the opponent (`threats`) or not: the same move is good for
/// different reasons when it flees an attack or walks into one.
/// (Against one table per side: +9.8 ± 6.6 Elo over 5,365 games at 20,000
/// nodes against bd1be9e, 2026-11-29; docs/results/matches.md.)
pub struct History {
    table: Box<[[FromTo; 4]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[[[0; 64]; 64]; 4]; 2]),
        }
    }
}

/// The squares the side not to move attacks in `pos` (pinned pieces and the
/// king included): what the history's threat cases are read against.
#[inline]
pub fn threats(pos: &Chess) -> Bitboard {
    let them = !pos.turn();
    let board = pos.board();
    let pawns = board.by_role(Role::Pawn) & board.by_color(them);
    let mut attacked = pawn_attacks_bb(them, pawns);
    for sq in board.by_color(them) & !pawns {
        attacked |= board.attacks_from(sq);
    }
    attacked
}

impl History {
    #[inline]
    fn slot(color: Color, m: Move, threats: Bitboard) -> (usize, usize, usize, usize) {
        // Every chess move has a from square (only drops lack one).
        Self::slot_of_squares(color, m.from().unwrap_or(m.to()), m.to(), threats)
    }

    #[inline]
    fn slot_of_squares(
        color: Color,
        from: Square,
        to: Square,
        threats: Bitboard,
    ) -> (usize, usize, usize, usize) {
        let case = 2 * usize::from(threats.contains(from)) + usize::from(threats.contains(to));
        (color as usize, case, from as usize, to as usize)
    }

    #[inline]
    pub fn get(&self, color: Color, m: Move, threats: Bitboard) -> i32 {
        let (c, k, f, t) = Self::slot(color, m, threats);
        self.table[c][k][f][t]
    }

    /// `get` for a move from `from` to `to`, for a caller that has the
    /// squares already (the move picker).
    #[inline]
    pub fn get_squares(&self, color: Color, from: Square, to: Square, threats: Bitboard) -> i32 {
        let (c, k, f, t) = Self::slot_of_squares(color, from, to, threats);
        self.table[c][k][f][t]
    }

    fn update(&mut self, color: Color, m: Move, threats: Bitboard, bonus: i32) {
        let (c, k, f, t) = Self::slot(color, m, threats);
        let e = &mut self.table[c][k][f][t];
        *e = with_gravity(*e, bonus, HISTORY_MAX);
    }

    /// The bonus for a cutoff at `depth`: (d² + 2d) × `BONUS_SCALE`, at most
    /// a table's bound (reached from depth 32 on).
    pub fn bonus(depth: Depth) -> i32 {
        ((depth * depth + 2 * depth) * BONUS_SCALE).min(HISTORY_MAX)
    }

    /// Reward the quiet move that cut off and punish the quiets tried before
    /// it, all read against the node's `threats`.
    pub fn reward(
        &mut self,
        color: Color,
        best: Move,
        tried: &[Move],
        depth: Depth,
        threats: Bitboard,
    ) {
        let bonus = Self::bonus(depth);
        self.update(color, best, threats, bonus);
        for &m in tried {
            if m != best {
                self.update(color, m, threats, -bonus);
            }
        }
    }

    pub fn clear(&mut self) {
        for side in self.table.iter_mut() {
            for case in side.iter_mut() {
                for row in case.iter_mut() {
                    row.fill(0);
                }
            }
        }
    }
}

/// The history entry `value` after a `bonus` (clamped to ±`max`), with
/// gravity: the nearer the entry already is to ±`max`, the less it moves,
/// so entries saturate towards ±`max` and never pass it.
#[inline]
pub fn with_gravity(value: i32, bonus: i32, max: i32) -> i32 {
    let bonus = bonus.clamp(-max, max);
    value + bonus - value * bonus.abs() / max
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn history_gravity_stays_bounded() {
        let mut h = History::default();
        let b = Board::default();
        let m = b.parse_uci("e2e4").unwrap();
        for _ in 0..10_000 {
            h.reward(Color::White, m, &[], 20, Bitboard::EMPTY);
        }
        assert!(h.get(Color::White, m, Bitboard::EMPTY) <= HISTORY_MAX);
        assert!(h.get(Color::White, m, Bitboard::EMPTY) > HISTORY_MAX / 2);
    }

    #[test]
    fn threats_are_every_square_the_opponent_attacks() {
        // Black to move: White's pawn on e4 attacks d5 and f5, the knight on
        // f3 its eight-less-own squares, the king its ring; nothing else.
        let b = Board::from_fen("4k3/8/8/8/4P3/5N2/8/4K3 b - - 0 1").unwrap();
        let expected: Bitboard = ["d5", "f5", "e5", "g5", "h4", "h2", "g1", "d2", "d4", "e1"]
            .iter()
            .map(|s| s.parse::<shakmaty::Square>().unwrap())
            .chain(
                ["d1", "d2", "e2", "f2", "f1"]
                    .iter()
                    .map(|s| s.parse().unwrap()),
            )
            .collect();
        assert_eq!(threats(b.pos()), expected);
    }

    #[test]
    fn a_move_out_of_an_attack_is_remembered_apart_from_the_same_move_in_peace() {
        let b = Board::default();
        let m = b.parse_uci("g1f3").unwrap();
        let attacked_from: Bitboard = ["g1".parse::<shakmaty::Square>().unwrap()]
            .into_iter()
            .collect();
        let mut h = History::default();
        h.reward(Color::White, m, &[], 8, attacked_from);
        assert!(h.get(Color::White, m, attacked_from) > 0);
        assert_eq!(h.get(Color::White, m, Bitboard::EMPTY), 0);
    }
}
