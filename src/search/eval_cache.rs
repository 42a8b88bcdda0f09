//! A small per-thread cache of static evaluations keyed by the position's
//! Zobrist key. The search evaluates many positions again (re-searches,
//! iterative deepening, quiescence stand pats); the evaluation depends only
//! on the position, so a hit returns exactly what `evaluate` would.

use crate::board::Board;
use crate::eval::evaluate;
use crate::score::Score;

/// Entries (a power of two): 16 bytes each, small enough to stay in L2.
const EVAL_CACHE_ENTRIES: usize = 1 << 13;

#[derive(Copy, Clone)]
struct CachedEval {
    key: u64,
    score: Score,
}

pub struct EvalCache {
    entries: Box<[Option<CachedEval>]>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            entries: vec![None; EVAL_CACHE_ENTRIES].into_boxed_slice(),
        }
    }
}

impl EvalCache {
    /// `evaluate(board)`, from the cache when the position was seen before.
    #[inline]
    pub fn evaluate(&mut self, board: &Board) -> Score {
        let key = board.key();
        let slot = &mut self.entries[key as usize & (EVAL_CACHE_ENTRIES - 1)];
        match *slot {
            Some(e) if e.key == key => e.score,
            _ => {
                let score = evaluate(board);
                *slot = Some(CachedEval { key, score });
                score
            }
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along random playouts (many keys sharing slots), every answer is the
    /// evaluation itself, first visit or repeat.
    #[test]
    fn answers_are_the_evaluation() {
        let mut cache = EvalCache::default();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut seen = Vec::new();
        for _ in 0..200 {
            let mut board = Board::default();
            for _ in 0..60 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                board.play(moves[seed as usize % moves.len()]);
                assert_eq!(cache.evaluate(&board), evaluate(&board));
                seen.push(board.pos().clone());
            }
        }
        // Repeats: the cache now holds some of these, and must agree.
        for pos in seen.iter().rev().take(2000) {
            let board = Board::new(pos.clone(), shakmaty::CastlingMode::Standard);
            assert_eq!(cache.evaluate(&board), evaluate(&board));
        }
    }
}
