//! Move-pair memory for quiet-move ordering: continuation history (how well
//! a quiet move did after a given piece moved to a given square, one and two
//! plies earlier) and the counter move (the quiet reply that last refuted it).

use crate::eval::role_index;
use crate::score::Depth;
use shakmaty::{Color, Move, Role, Square};

use super::history::{History, with_gravity};

/// Largest magnitude an entry reaches (gravity keeps it inside).
const CONTINUATION_MAX: i32 = 16_384;
/// Pieces (colour and role) by squares: the moves `PieceTo` tells apart.
pub(super) const PIECE_SQUARES: usize = 12 * 64;

/// A move as "this piece of this colour arrived on this square".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    pub fn new(color: Color, m: Move) -> PieceTo {
        PieceTo::of_role(color, m.role(), m.to())
    }

    /// A piece of `color` and `role` arriving on `to`.
    #[inline]
    pub fn of_role(color: Color, role: Role, to: Square) -> PieceTo {
        let piece = color as usize * 6 + role_index(role);
        PieceTo((piece * 64 + to as usize) as u16)
    }

    #[inline]
    pub(super) fn index(self) -> usize {
        self.0 as usize
    }

    /// The slot of the pair (`earlier`, `self`) in a table of
    /// `PIECE_SQUARES * PIECE_SQUARES` entries.
    #[inline]
    pub(super) fn after(self, earlier: PieceTo) -> usize {
        earlier.index() * PIECE_SQUARES + self.index()
    }
}

/// The quiet moves played at the two plies before a node (none after a
/// null move or at the root).
pub type LineContext = [Option<PieceTo>; 2];

/// Continuation history: [earlier piece-to][this piece-to].
pub struct ContinuationHistory {
    table: Vec<i16>,
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory {
            table: vec![0; PIECE_SQUARES * PIECE_SQUARES],
        }
    }
}

impl ContinuationHistory {
    #[inline]
    fn slot(earlier: PieceTo, now: PieceTo) -> usize {
        now.after(earlier)
    }

    /// The summed score of `now` after each earlier move of the line.
    #[inline]
    pub fn get(&self, line: &LineContext, now: PieceTo) -> i32 {
        line.iter()
            .flatten()
            .map(|&e| i32::from(self.table[Self::slot(e, now)]))
            .sum()
    }

    fn update(&mut self, line: &LineContext, now: PieceTo, bonus: i32) {
        for &earlier in line.iter().flatten() {
            let e = &mut self.table[Self::slot(earlier, now)];
            *e = with_gravity(i32::from(*e), bonus, CONTINUATION_MAX) as i16;
        }
    }

    /// Reward the quiet move that cut off and punish the quiets tried before it.
    pub fn reward(
        &mut self,
        line: &LineContext,
        color: Color,
        best: Move,
        tried: &[Move],
        depth: Depth,
    ) {
        if line.iter().all(Option::is_none) {
            return;
        }
        let bonus = History::bonus(depth);
        self.update(line, PieceTo::new(color, best), bonus);
        for &m in tried {
            if m != best {
                self.update(line, PieceTo::new(color, m), -bonus);
            }
        }
    }

    /// A bonus for the move `now` after the line (no malus for others).
    pub fn credit(&mut self, line: &LineContext, now: PieceTo, bonus: i32) {
        self.update(line, now, bonus);
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

/// The quiet move that last refuted each piece-to move.
pub struct CounterMoves {
    table: Vec<Option<Move>>,
}

impl Default for CounterMoves {
    fn default() -> Self {
        CounterMoves {
            table: vec![None; PIECE_SQUARES],
        }
    }
}

impl CounterMoves {
    #[inline]
    pub fn get(&self, previous: Option<PieceTo>) -> Option<Move> {
        previous.and_then(|p| self.table[p.index()])
    }

    pub fn record(&mut self, previous: Option<PieceTo>, m: Move) {
        if let Some(p) = previous {
            self.table[p.index()] = Some(m);
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    fn quiet(role: Role, from: Square, to: Square) -> Move {
        Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        }
    }

    #[test]
    fn rewards_follow_the_line_and_stay_bounded() {
        let mut h = ContinuationHistory::default();
        let e4 = PieceTo::new(Color::White, quiet(Role::Pawn, Square::E2, Square::E4));
        let line = [Some(e4), None];
        let nf6 = quiet(Role::Knight, Square::G8, Square::F6);
        let h6 = quiet(Role::Pawn, Square::H7, Square::H6);
        for _ in 0..1000 {
            h.reward(&line, Color::Black, nf6, &[h6], 20);
        }
        let good = h.get(&line, PieceTo::new(Color::Black, nf6));
        let bad = h.get(&line, PieceTo::new(Color::Black, h6));
        assert!((1..=CONTINUATION_MAX).contains(&good), "{good}");
        assert!((-CONTINUATION_MAX..0).contains(&bad), "{bad}");
        // Another line knows nothing of it.
        let d4 = PieceTo::new(Color::White, quiet(Role::Pawn, Square::D2, Square::D4));
        assert_eq!(h.get(&[Some(d4), None], PieceTo::new(Color::Black, nf6)), 0);
        h.clear();
        assert_eq!(h.get(&line, PieceTo::new(Color::Black, nf6)), 0);
    }

    #[test]
    fn counter_move_is_remembered_per_previous_move() {
        let mut c = CounterMoves::default();
        let e4 = PieceTo::new(Color::White, quiet(Role::Pawn, Square::E2, Square::E4));
        let nc6 = quiet(Role::Knight, Square::B8, Square::C6);
        c.record(Some(e4), nc6);
        assert_eq!(c.get(Some(e4)), Some(nc6));
        assert_eq!(c.get(None), None);
        c.record(None, nc6);
        c.clear();
        assert_eq!(c.get(Some(e4)), None);
    }
}
