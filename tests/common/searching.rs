//! One search through the library, as the engine runs it: a searcher on the
//! board with fresh ordering tables and its own stop control, in the mode the
//! parameters name.

use std::sync::Arc;
use stockman::search::{Limits, SearchControl, SearchParams, SearchTables, Searcher, search};
use stockman::tt::TranspositionTable;
use stockman::{Board, SearchResult};

/// A search of `board` with `params` and `limits` on the table `tt`.
pub fn search_with_tt(
    board: &Board,
    params: &SearchParams,
    limits: &Limits,
    tt: &Arc<TranspositionTable>,
) -> SearchResult {
    let mut s = Searcher::new(
        board.clone(),
        tt.clone(),
        Box::<SearchTables>::default(),
        Arc::new(SearchControl::default()),
        params.mode,
    );
    search(&mut s, params, limits, &mut |_| {})
}

/// The same with a fresh 16 MB table.
pub fn search_fresh(board: &Board, params: &SearchParams, limits: &Limits) -> SearchResult {
    let tt = Arc::new(TranspositionTable::new(16).expect("a 16 MB table"));
    search_with_tt(board, params, limits, &tt)
}
