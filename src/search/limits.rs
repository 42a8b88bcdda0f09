//! `Limits`: what one `go` asks for — depth, nodes, mate, clocks, move time,
//! infinite or ponder, and the root moves to consider — independent of UCI text.

use crate::score::Depth;
use shakmaty::{Color, Move};
use std::time::Duration;

/// The clocks of both sides as `go` gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    /// Moves to the next time control; `None` is sudden death.
    pub movestogo: Option<u32>,
}

impl Clock {
    pub fn is_set(&self) -> bool {
        self.wtime.is_some() || self.btime.is_some()
    }
}

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<Depth>,
    /// The hard node limit: the search stops inside an iteration on reaching it.
    pub nodes: Option<u64>,
    /// The soft node limit: no iteration starts once this many nodes are
    /// searched, so the search ends after the iteration that passed it
    /// (self-play data generation; `nodes` still bounds that iteration).
    pub soft_nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub clock: Clock,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: Depth) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Does the search end by itself, `turn` to move: a depth, node (hard
    /// or soft), mate or time limit, or a clock for the side to move, and neither
    /// `infinite` nor `ponder` (those wait for `stop` or `ponderhit`)?
    pub fn is_finite(&self, turn: Color) -> bool {
        let own_clock = match turn {
            Color::White => self.clock.wtime,
            Color::Black => self.clock.btime,
        };
        let limited = self.depth.is_some()
            || self.nodes.is_some()
            || self.soft_nodes.is_some()
            || self.mate.is_some()
            || self.movetime.is_some()
            || own_clock.is_some();
        limited && !self.infinite && !self.ponder
    }
}
