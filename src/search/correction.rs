//! Correction history: by how much the search found the static evaluation
//! off in positions with this pawn structure, for the side to move. The
//! search adds the learnt correction to the static evaluation it prunes with.

use crate::eval::pawn_hash;
use crate::score::{Depth, Score};
use shakmaty::{Chess, Color, Position};

/// Entries per side, indexed by this many bits of a hash of the pawns.
const CORRECTION_BITS: u32 = 14;
const CORRECTION_ENTRIES: usize = 1 << CORRECTION_BITS;
/// Entries hold corrections in 1/GRAIN of a centipawn.
const GRAIN: i32 = 256;
/// Weight of one update out of `WEIGHT_SCALE`: the depth plus one, at most this.
const MAX_UPDATE_WEIGHT: i32 = 16;
const WEIGHT_SCALE: i32 = 256;
/// Largest correction, in centipawns.
const MAX_CORRECTION: i32 = 256;

pub struct CorrectionHistory {
    table: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: vec![0; 2 * CORRECTION_ENTRIES],
        }
    }
}

impl CorrectionHistory {
    #[inline]
    fn slot(pos: &Chess) -> usize {
        let board = pos.board();
        let pawns = board.pawns();
        let hash = pawn_hash([pawns & board.white(), pawns & board.black()]);
        let index = (hash >> (u64::BITS - CORRECTION_BITS)) as usize;
        let side = match pos.turn() {
            Color::White => 0,
            Color::Black => CORRECTION_ENTRIES,
        };
        side + index
    }

    /// `raw` (the static evaluation of `pos`) with the learnt correction.
    #[inline]
    pub fn corrected(&self, pos: &Chess, raw: Score) -> Score {
        Score(raw.0 + self.table[Self::slot(pos)] / GRAIN)
    }

    /// The search at `depth` found `pos` worth `searched` where the static
    /// evaluation said `raw`: move the correction towards the difference.
    pub fn update(&mut self, pos: &Chess, raw: Score, searched: Score, depth: Depth) {
        let diff = (searched.0 - raw.0).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_UPDATE_WEIGHT);
        let e = &mut self.table[Self::slot(pos)];
        *e = (*e * (WEIGHT_SCALE - weight) + diff * weight) / WEIGHT_SCALE;
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
    fn corrections_follow_the_search_per_pawn_structure_and_side() {
        let b = Board::from_fen("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1").unwrap();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.corrected(b.pos(), Score(30)), Score(30));
        for _ in 0..200 {
            c.update(b.pos(), Score(30), Score(130), 20);
        }
        let after = c.corrected(b.pos(), Score(30)).0;
        assert!((120..=130).contains(&after), "{after}");
        // Huge differences are capped.
        for _ in 0..500 {
            c.update(b.pos(), Score(0), Score(5000), 20);
        }
        assert!(c.corrected(b.pos(), Score(0)).0 <= MAX_CORRECTION);
        // The other side to move, and another pawn structure, are apart.
        let black = Board::from_fen("4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1").unwrap();
        assert_eq!(c.corrected(black.pos(), Score(30)), Score(30));
        let other = Board::from_fen("4k3/p7/8/8/8/8/PP6/4K3 w - - 0 1").unwrap();
        assert_eq!(c.corrected(other.pos(), Score(30)), Score(30));
        c.clear();
        assert_eq!(c.corrected(b.pos(), Score(30)), Score(30));
    }
}
