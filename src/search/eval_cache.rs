//! A small per-thread cache of static evaluations keyed by the position's
//! Zobrist key. The search evaluates many positions again (re-searches,
//! iterative deepening, quiescence stand pats); an evaluation depends only
//! on the position, so a hit returns exactly what the evaluation would.

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
    /// The evaluation of the position with Zobrist key `key`: from the
    /// cache when it was seen before, else `evaluate()` (and remembered).
    #[inline]
    pub fn get_or_insert_with(&mut self, key: u64, evaluate: impl FnOnce() -> Score) -> Score {
        let slot = &mut self.entries[key as usize & (EVAL_CACHE_ENTRIES - 1)];
        match *slot {
            Some(e) if e.key == key => e.score,
            _ => {
                let score = evaluate();
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
    use crate::board::Board;
    use crate::eval::{evaluate, tests::playout_fens};

    /// Over the playout positions (about 3,000 keys in 8,192 slots, so many
    /// share one) and then again in reverse (many now cached), every answer
    /// is the evaluation itself.
    #[test]
    fn answers_are_the_evaluation() {
        let boards: Vec<Board> = playout_fens(60)
            .iter()
            .map(|f| Board::from_fen(f).unwrap())
            .collect();
        let mut cache = EvalCache::default();
        for board in boards.iter().chain(boards.iter().rev()) {
            assert_eq!(
                cache.get_or_insert_with(board.key(), || evaluate(board)),
                evaluate(board)
            );
        }
    }
}
