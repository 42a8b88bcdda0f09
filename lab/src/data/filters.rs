//! Which positions of a game become samples: the filters self-play, PGN
//! games and scored PGN games share, in the order they are applied, each
//! with the reason it gives, and the tally of the reasons over a run.

use crate::data::sample::{QuietCheck, is_noisy};
use shakmaty::Move;
use stockman::board::Board;
use stockman::score::Score;

/// Positions before this ply (counted from the start after the random
/// plies, or from a PGN game's first move) are not recorded: they are the
/// opening's, not the players'.
pub const RECORD_FROM_PLY: u32 = 8;

/// Why a position is not kept as a sample.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unkept {
    /// Before `RECORD_FROM_PLY`.
    Opening,
    /// The side to move is in check: the position is about the check.
    InCheck,
    /// The search found a mate: no centipawn score to learn from.
    MateScore,
    /// The move played is a capture or a promotion: the material is about
    /// to change, so the position's value is the exchange's.
    Noisy,
    /// A capture sequence changes the classical static evaluation (the
    /// quiescence test, the costly one, run last).
    NotQuiet,
}

/// The filters of the position before move `m` at `ply` (a game's move,
/// with no score): from `RECORD_FROM_PLY` on, not in check, a quiet move
/// played, quiet by the quiescence test.
pub fn keep_position(
    ply: usize,
    board: &Board,
    m: Move,
    quiet: &mut QuietCheck,
) -> Result<(), Unkept> {
    keep_scored_position(ply, board, m, None, quiet)
}

/// The filters of the position before move `m` at `ply`, which a search
/// scored `score` when there is one: `keep_position`'s, and no mate score.
pub fn keep_scored_position(
    ply: usize,
    board: &Board,
    m: Move,
    score: Option<Score>,
    quiet: &mut QuietCheck,
) -> Result<(), Unkept> {
    if (ply as u64) < u64::from(RECORD_FROM_PLY) {
        Err(Unkept::Opening)
    } else if board.in_check() {
        Err(Unkept::InCheck)
    } else if score.is_some_and(|s| s.is_mate()) {
        Err(Unkept::MateScore)
    } else if is_noisy(m) {
        Err(Unkept::Noisy)
    } else if !quiet.is_quiet(board) {
        Err(Unkept::NotQuiet)
    } else {
        Ok(())
    }
}

/// How many positions each filter left out.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct UnkeptCounts {
    pub opening: u64,
    pub in_check: u64,
    pub mate_score: u64,
    pub noisy: u64,
    pub not_quiet: u64,
}

impl UnkeptCounts {
    pub fn count(&mut self, why: Unkept) {
        *self.counter(why) += 1;
    }

    fn counter(&mut self, why: Unkept) -> &mut u64 {
        match why {
            Unkept::Opening => &mut self.opening,
            Unkept::InCheck => &mut self.in_check,
            Unkept::MateScore => &mut self.mate_score,
            Unkept::Noisy => &mut self.noisy,
            Unkept::NotQuiet => &mut self.not_quiet,
        }
    }

    pub fn add(&mut self, other: &UnkeptCounts) {
        for (mine, theirs) in self.fields_mut().into_iter().zip(other.fields()) {
            *mine.1 += theirs.1;
        }
    }

    /// Each count with its name, in the filters' order.
    pub fn fields(&self) -> [(&'static str, u64); 5] {
        [
            ("opening", self.opening),
            ("in-check", self.in_check),
            ("mate-score", self.mate_score),
            ("noisy", self.noisy),
            ("not-quiet", self.not_quiet),
        ]
    }

    /// Each count, to be read back by name.
    pub fn fields_mut(&mut self) -> [(&'static str, &mut u64); 5] {
        [
            ("opening", &mut self.opening),
            ("in-check", &mut self.in_check),
            ("mate-score", &mut self.mate_score),
            ("noisy", &mut self.noisy),
            ("not-quiet", &mut self.not_quiet),
        ]
    }

    /// For a summary: `N opening plies, N in check, ...`.
    pub fn describe(&self) -> String {
        format!(
            "{} opening plies, {} in check, {} mate scores, {} captures or promotions, {} not quiet",
            self.opening, self.in_check, self.mate_score, self.noisy, self.not_quiet
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(fen: &str, uci: &str, ply: usize, score: Option<Score>) -> Result<(), Unkept> {
        let board = Board::from_fen(fen).unwrap();
        let m = board.parse_uci(uci).unwrap();
        keep_scored_position(ply, &board, m, score, &mut QuietCheck::new())
    }

    #[test]
    fn each_filter_gives_its_reason_in_order() {
        let quiet = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        assert_eq!(reason(quiet, "f1b5", 8, Some(Score(20))), Ok(()));
        assert_eq!(reason(quiet, "f1b5", 7, None), Err(Unkept::Opening));
        let check = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1";
        assert_eq!(reason(check, "e1e2", 9, None), Err(Unkept::InCheck));
        let mate = Some(Score::mate_in(3));
        assert_eq!(reason(quiet, "f1b5", 8, mate), Err(Unkept::MateScore));
        assert_eq!(reason(quiet, "f3e5", 8, None), Err(Unkept::Noisy));
        // A hanging queen: the quiet move leaves a capture that changes the value.
        let hanging = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1";
        assert_eq!(reason(hanging, "e1f1", 8, None), Err(Unkept::NotQuiet));
        let board = Board::from_fen(quiet).unwrap();
        let m = board.parse_uci("f1b5").unwrap();
        assert_eq!(keep_position(8, &board, m, &mut QuietCheck::new()), Ok(()));
    }

    #[test]
    fn counts_add_up_by_reason() {
        let mut a = UnkeptCounts::default();
        a.count(Unkept::Noisy);
        a.count(Unkept::Noisy);
        a.count(Unkept::MateScore);
        let mut b = UnkeptCounts::default();
        b.count(Unkept::Opening);
        b.add(&a);
        assert_eq!((b.opening, b.noisy, b.mate_score, b.in_check), (1, 2, 1, 0));
        assert_eq!(
            b.describe(),
            "1 opening plies, 0 in check, 1 mate scores, 2 captures or promotions, 0 not quiet"
        );
        for (name, n) in b.fields_mut() {
            *n = name.len() as u64;
        }
        assert_eq!(b.not_quiet, "not-quiet".len() as u64);
    }
}
