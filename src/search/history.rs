//! The butterfly history table (Schaeffer 1989) and the gravity update that
//! the history tables share (quiet history here, continuation history and
//! capture history beside it): the bottom of move ordering's tables, which
//! `ordering` reads.

use crate::score::Depth;
use shakmaty::{Color, Move};

/// Largest magnitude a history entry reaches (gravity keeps it inside).
const HISTORY_MAX: i32 = 16_384;

/// The history bonus's scale against the tables' ±16,384: at 16, a move that
/// cuts off at depth 6 moves its entry by 768, so gravity (which pulls an
/// entry back by its share of the maximum) forgets old cutoffs within tens of
/// updates rather than hundreds. Shared by the quiet, continuation and
/// capture histories. (×16 against ×1: +11.5 ± 7.7 over 4,000 games at
/// 20,000 nodes, commit 65537d7 of 2026-11-27; docs/results/matches.md.)
const BONUS_SCALE: i32 = 16;

/// Butterfly history: how often a quiet move from-to caused a cutoff, for each side.
pub struct History {
    table: Box<[[[i32; 64]; 64]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl History {
    fn slot(color: Color, m: Move) -> (usize, usize, usize) {
        let from = m.from().map_or(0, |s| s as usize);
        (color as usize, from, m.to() as usize)
    }

    #[inline]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        let (c, f, t) = Self::slot(color, m);
        self.table[c][f][t]
    }

    fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let (c, f, t) = Self::slot(color, m);
        let e = &mut self.table[c][f][t];
        *e = with_gravity(*e, bonus, HISTORY_MAX);
    }

    /// The bonus for a cutoff at `depth`: (d² + 2d) × `BONUS_SCALE`, at most
    /// a table's bound (reached from depth 32 on).
    pub fn bonus(depth: Depth) -> i32 {
        ((depth * depth + 2 * depth) * BONUS_SCALE).min(HISTORY_MAX)
    }

    /// Reward the quiet move that cut off and punish the quiets tried before it.
    pub fn reward(&mut self, color: Color, best: Move, tried: &[Move], depth: Depth) {
        let bonus = Self::bonus(depth);
        self.update(color, best, bonus);
        for &m in tried {
            if m != best {
                self.update(color, m, -bonus);
            }
        }
    }

    pub fn clear(&mut self) {
        for side in self.table.iter_mut() {
            for row in side.iter_mut() {
                row.fill(0);
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
            h.reward(Color::White, m, &[], 20);
        }
        assert!(h.get(Color::White, m) <= HISTORY_MAX);
        assert!(h.get(Color::White, m) > HISTORY_MAX / 2);
    }
}
