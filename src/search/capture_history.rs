//! Capture history: how often a capture by this piece, to this square, of
//! this victim caused a cutoff. It orders captures of equal victims (where
//! MVV-LVA only guessed by the attacker) by what the search has seen.

use super::continuation::{PIECE_SQUARES, PieceTo};
use super::history::{History, with_gravity};
use crate::eval::role_index;
use crate::score::Depth;
use shakmaty::{Color, Move};

/// Largest magnitude an entry reaches (gravity keeps it inside).
const CAPTURE_HISTORY_MAX: i32 = 16_384;
/// Victims by role (a promotion without a capture counts as taking a pawn).
const VICTIMS: usize = 6;

/// [piece-to][victim] → score.
pub struct CaptureHistory {
    table: Vec<i16>,
}

impl Default for CaptureHistory {
    fn default() -> Self {
        CaptureHistory {
            table: vec![0; PIECE_SQUARES * VICTIMS],
        }
    }
}

impl CaptureHistory {
    #[inline]
    fn slot(color: Color, m: Move) -> usize {
        let victim = m.capture().map_or(0, role_index);
        PieceTo::new(color, m).index() * VICTIMS + victim
    }

    #[inline]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        i32::from(self.table[Self::slot(color, m)])
    }

    fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let e = &mut self.table[Self::slot(color, m)];
        *e = with_gravity(i32::from(*e), bonus, CAPTURE_HISTORY_MAX) as i16;
    }

    /// A cutoff at `depth`: reward the capture that caused it (if it was
    /// one) and punish the captures `tried` before it that did not.
    pub fn reward(&mut self, color: Color, best: Option<Move>, tried: &[Move], depth: Depth) {
        let bonus = History::bonus(depth);
        if let Some(best) = best {
            self.update(color, best, bonus);
        }
        for &m in tried {
            if Some(m) != best {
                self.update(color, m, -bonus);
            }
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn rewards_separate_captures_and_stay_bounded() {
        // Both the knight and the bishop can take the pawn on d5.
        let b = Board::from_fen("4k3/8/8/3p4/8/2N2B2/8/4K3 w - - 0 1").unwrap();
        let nxd5 = b.parse_uci("c3d5").unwrap();
        let bxd5 = b.parse_uci("f3d5").unwrap();
        let mut h = CaptureHistory::default();
        for _ in 0..1000 {
            h.reward(Color::White, Some(bxd5), &[nxd5], 20);
        }
        let good = h.get(Color::White, bxd5);
        let bad = h.get(Color::White, nxd5);
        assert!((1..=CAPTURE_HISTORY_MAX).contains(&good), "{good}");
        assert!((-CAPTURE_HISTORY_MAX..0).contains(&bad), "{bad}");
        // Black's captures are kept apart.
        assert_eq!(h.get(Color::Black, bxd5), 0);
        // A quiet cutoff only punishes.
        h.reward(Color::White, None, &[bxd5], 20);
        assert!(h.get(Color::White, bxd5) < good);
        h.clear();
        assert_eq!(h.get(Color::White, bxd5), 0);
    }
}
