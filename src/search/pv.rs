//! The triangular principal-variation table: each ply's best line, built
//! bottom-up as exact scores are found. Allocated once per searcher.

use crate::score::{MAX_PLY, Ply};
use arrayvec::ArrayVec;
use shakmaty::Move;

pub type Line = ArrayVec<Move, MAX_PLY>;

pub struct PvTable {
    lines: Vec<Line>,
}

impl Default for PvTable {
    fn default() -> Self {
        PvTable {
            lines: (0..=MAX_PLY).map(|_| Line::new()).collect(),
        }
    }
}

impl PvTable {
    #[inline]
    pub fn clear(&mut self, ply: Ply) {
        if ply <= MAX_PLY {
            self.lines[ply].clear();
        }
    }

    /// The line at `ply` becomes `m` followed by the line at `ply + 1`.
    #[inline]
    pub fn update(&mut self, ply: Ply, m: Move) {
        if ply >= MAX_PLY {
            return;
        }
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        for &c in tail[0].iter().take(MAX_PLY - 1) {
            line.push(c);
        }
    }

    pub fn line(&self, ply: Ply) -> &[Move] {
        &self.lines[ply.min(MAX_PLY)]
    }
}
