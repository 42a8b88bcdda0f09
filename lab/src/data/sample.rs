//! What a training sample is: a position and its game's result from White's
//! point of view, one `<FEN> [1.0]` line of a data file; the game results;
//! and the quietness test both position sources (self-play and PGN) apply.

use shakmaty::Move;
use stockman::board::Board;
use stockman::eval::evaluate;
use stockman::rng::SplitMix64;
use stockman::score::Score;
use stockman::search::{Evaluation, ReusableSearch, SearchMode};

/// A finished game's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

impl GameResult {
    /// The label of the game's positions: 1, ½ or 0 for White.
    pub fn white_score(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        }
    }

    /// As a data line writes it.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0.0",
        }
    }

    /// From a PGN `Result` (`1-0`, `0-1`, `1/2-1/2`); `*` and others: `None`.
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text.trim() {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

/// One data line: `<FEN> [<result>]`.
pub fn format_line(fen: &str, result: GameResult) -> String {
    format!("{fen} [{}]", result.label())
}

/// Keeps at most `n` of `items`, chosen uniformly at random with `rng`
/// (a partial Fisher-Yates shuffle of the indices), in their original order;
/// draws nothing from `rng` when there are `n` or fewer.
pub fn keep_at_most<T>(items: &mut Vec<T>, n: usize, rng: &mut SplitMix64) {
    let len = items.len();
    if len <= n {
        return;
    }
    let mut order: Vec<usize> = (0..len).collect();
    for i in 0..n {
        let j = rng.in_range(i as i64, len as i64 - 1) as usize;
        order.swap(i, j);
    }
    let mut keep = vec![false; len];
    for &i in &order[..n] {
        keep[i] = true;
    }
    let mut i = 0;
    items.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

/// Is `m` a capture or a promotion (not a quiet best move)?
pub fn is_noisy(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// A small quiescence searcher for the quietness test, reusable across
/// positions (its table is cleared for each, so the answer depends on the
/// position alone).
pub struct QuietCheck {
    search: ReusableSearch,
}

impl Default for QuietCheck {
    fn default() -> Self {
        QuietCheck::new()
    }
}

impl QuietCheck {
    pub fn new() -> QuietCheck {
        QuietCheck {
            // The smallest table: quiescence searches are small.
            search: ReusableSearch::new(1).expect("a 1 MB table"),
        }
    }

    /// Forgets the ordering tables too: as if new.
    pub fn clear(&mut self) {
        self.search.clear();
    }

    /// Is the classical static evaluation of `board` (the one Texel tuning
    /// fits) also its quiescence value (no capture or promotion sequence
    /// changes it)? Positions in check are not quiet.
    pub fn is_quiet(&mut self, board: &Board) -> bool {
        if board.in_check() {
            return false;
        }
        self.search.clear_tt();
        let q = self.search.run(board, SearchMode::Normal, |s| {
            s.evaluation = Evaluation::Classical;
            s.qsearch(-Score::INFINITE, Score::INFINITE, 0)
        });
        q == evaluate(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_positions_are_told_from_tactical_ones() {
        let mut q = QuietCheck::new();
        assert!(q.is_quiet(&Board::default()));
        // A hanging queen: capturing it changes the value.
        let hanging = Board::from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
        assert!(!q.is_quiet(&hanging));
        // In check: never quiet.
        let check = Board::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        assert!(!q.is_quiet(&check));
    }

    #[test]
    fn at_most_n_are_kept_in_order_and_reproducibly() {
        let all: Vec<u32> = (0..50).collect();
        let pick = |n: usize, seed: u64| {
            let mut v = all.clone();
            keep_at_most(&mut v, n, &mut SplitMix64::new(seed));
            v
        };
        let a = pick(7, 1);
        assert_eq!(a.len(), 7);
        assert!(a.windows(2).all(|p| p[0] < p[1]), "{a:?}");
        assert_eq!(pick(7, 1), a);
        assert_ne!(pick(7, 2), a);
        assert!(pick(0, 1).is_empty());
        assert_eq!(pick(50, 1), all);
        assert_eq!(pick(80, 1), all);
        // Every position can be chosen.
        let mut seen = [false; 50];
        for seed in 0..200 {
            for i in pick(3, seed) {
                seen[i as usize] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn results_and_lines() {
        assert_eq!(GameResult::from_pgn("1-0"), Some(GameResult::WhiteWins));
        assert_eq!(GameResult::from_pgn(" 1/2-1/2"), Some(GameResult::Draw));
        assert_eq!(GameResult::from_pgn("*"), None);
        assert_eq!(GameResult::BlackWins.white_score(), 0.0);
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(format_line(fen, GameResult::Draw), format!("{fen} [0.5]"));
    }
}
