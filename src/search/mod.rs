//! The search: the `Algorithm` a user picks, the `Limits` of one `go`, and
//! what a search returns. The pieces live in submodules: the shared node
//! procedure, move ordering, the iterative-deepening driver and the back ends.

pub mod algorithm;
pub mod backends;
pub mod capture_history;
pub mod continuation;
pub mod control;
pub mod correction;
pub mod driver;
pub mod escapes;
pub mod eval_cache;
pub mod faults;
pub mod grain;
pub mod history;
pub mod limits;
pub mod node;
pub mod oracle;
pub mod ordering;
pub mod pv;
pub mod pv_completion;
pub mod reusable;
pub mod root_effort;
pub mod see;
pub mod selectivity;
pub mod static_eval;
pub mod tactical_moves;
pub mod threads;
pub mod time;
pub mod tunables;

pub use algorithm::{Algorithm, SearchMode};
pub use control::SearchControl;
pub use driver::{Info, search};
pub use limits::Limits;
pub use node::{SearchTables, Searcher};
pub use pv_completion::PvLength;
pub use reusable::ReusableSearch;
pub use static_eval::Evaluation;

use crate::known::SyzygyConfig;
use crate::nnue::Network;
use crate::score::{Depth, Score};
use grain::Grain;
use shakmaty::Move;
use std::sync::Arc;

/// How the search is configured (beside the limits of one `go`).
#[derive(Clone, Debug)]
pub struct SearchParams {
    pub algorithm: Algorithm,
    pub mode: SearchMode,
    /// The static evaluation of Normal mode.
    pub evaluation: Evaluation,
    /// The network `Evaluation::Network` computes.
    pub network: Arc<Network>,
    /// Number of principal variations to report (1 = normal play).
    pub multipv: usize,
    /// Milliseconds kept back from every time budget for communication lag.
    pub move_overhead_ms: u64,
    /// The evaluation's grain for the MT back ends (MTDf, SSS, DUAL) in
    /// Normal mode; the others, and Pure mode, always use the full resolution.
    pub mt_grain: Grain,
    /// The endgame tablebases and how the search uses them (not in Pure mode).
    pub syzygy: SyzygyConfig,
    /// Whether each line's PV is searched out to the iteration's depth.
    pub pv_length: PvLength,
}

impl SearchParams {
    /// The grain a searcher of this configuration rounds its evaluation to.
    pub fn grain_for_searcher(&self) -> Grain {
        match (self.mode, self.algorithm) {
            (SearchMode::Pure, _) => Grain::FULL,
            (_, Algorithm::AlphaBeta | Algorithm::NegaScout) => Grain::FULL,
            (_, Algorithm::MTDf | Algorithm::SSS | Algorithm::DUAL) => self.mt_grain,
        }
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            algorithm: Algorithm::default(),
            mode: SearchMode::Normal,
            evaluation: Evaluation::default(),
            network: Network::embedded(),
            multipv: 1,
            move_overhead_ms: 10,
            mt_grain: Grain::MT_DEFAULT,
            syzygy: SyzygyConfig::default(),
            pv_length: PvLength::Full,
        }
    }
}

/// Counters of one search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Every node entered, each counted once: the root, interior nodes and
    /// quiescence nodes (horizon leaves are the first quiescence nodes).
    pub nodes: u64,
    /// Horizon nodes: where the full-width search hands over to quiescence.
    pub leaves: u64,
    /// Nodes of the quiescence search, horizon leaves included.
    pub qnodes: u64,
    /// Greatest ply reached.
    pub seldepth: usize,
    /// Root searches made (null-window passes for the MTD family).
    pub passes: u64,
    /// Root re-searches after an aspiration or null-window failure.
    pub researches: u64,
    /// Tablebase probes that gave a result (in search and at the root).
    pub tbhits: u64,
}

/// One principal variation of a finished search.
#[derive(Clone, Debug)]
pub struct PvLine {
    pub score: Score,
    pub moves: Vec<Move>,
}

/// What a search returns.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move.
    pub best_move: Option<Move>,
    pub ponder_move: Option<Move>,
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: Depth,
    pub pv: Vec<Move>,
    /// All lines of the last completed iteration, best first (MultiPV).
    pub lines: Vec<PvLine>,
    pub stats: SearchStats,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_mt_drivers_in_normal_mode_round_the_evaluation() {
        let coarse = Grain::new(16).unwrap();
        for algorithm in Algorithm::ALL {
            for mode in [SearchMode::Normal, SearchMode::Pure] {
                let params = SearchParams {
                    algorithm,
                    mode,
                    mt_grain: coarse,
                    ..SearchParams::default()
                };
                let mt = matches!(
                    algorithm,
                    Algorithm::MTDf | Algorithm::SSS | Algorithm::DUAL
                );
                let expected = if mt && mode == SearchMode::Normal {
                    coarse
                } else {
                    Grain::FULL
                };
                assert_eq!(
                    params.grain_for_searcher(),
                    expected,
                    "{algorithm} {mode:?}"
                );
            }
        }
    }
}
