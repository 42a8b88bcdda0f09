//! A searcher's memory kept between searches of unrelated positions: the
//! transposition table, the ordering tables and the stop control. Self-play
//! data generation and the quiet-position check search one position after
//! another with it, without reallocating anything.

use super::{SearchControl, SearchMode, SearchTables, Searcher};
use crate::board::Board;
use crate::tt::TranspositionTable;
use std::sync::Arc;

pub struct ReusableSearch {
    tt: Arc<TranspositionTable>,
    /// Lent to each `Searcher` and taken back when it is done.
    tables: Option<Box<SearchTables>>,
    control: Arc<SearchControl>,
}

impl ReusableSearch {
    pub fn new(hash_mb: usize) -> Result<ReusableSearch, String> {
        Ok(ReusableSearch {
            tt: Arc::new(TranspositionTable::new(hash_mb)?),
            tables: Some(Box::default()),
            control: Arc::new(SearchControl::default()),
        })
    }

    /// Forgets the transposition table only.
    pub fn clear_tt(&mut self) {
        // Between searches no searcher holds the table, and it is cleared
        // as plain memory; a searcher still alive would keep it shared.
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear_owned(),
            None => self.tt.clear(),
        }
    }

    /// Forgets everything learnt: a new game.
    pub fn clear(&mut self) {
        self.clear_tt();
        self.tables = Some(Box::default());
    }

    /// Runs `f` on a searcher for `board` that uses this memory.
    pub fn run<R>(
        &mut self,
        board: &Board,
        mode: SearchMode,
        f: impl FnOnce(&mut Searcher) -> R,
    ) -> R {
        let tables = self.tables.take().unwrap_or_default();
        let mut searcher = Searcher::new(
            board.clone(),
            self.tt.clone(),
            tables,
            self.control.clone(),
            mode,
        );
        let result = f(&mut searcher);
        self.tables = Some(searcher.into_tables());
        result
    }
}
