//! Choosing among a position's book moves: by weight with a seeded
//! generator (the same seed plays the same moves), or the heaviest only.

use super::book::WeightedMove;
use crate::rng::SplitMix64;

/// How a book move is picked (`BookBestMove`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum BookPick {
    /// At random, in proportion to the weights.
    #[default]
    ByWeight,
    /// The heaviest move (the first of equals).
    Best,
}

/// The seed of a new session's book generator: play is reproducible.
pub const BOOK_SEED: u64 = 0x0B00_C5EE_D022;

/// The book's seeded generator.
#[derive(Clone, Debug)]
pub struct BookChoice {
    rng: SplitMix64,
}

impl Default for BookChoice {
    fn default() -> Self {
        BookChoice::new(BOOK_SEED)
    }
}

impl BookChoice {
    pub fn new(seed: u64) -> BookChoice {
        BookChoice {
            rng: SplitMix64::new(seed),
        }
    }

    /// One of `moves` (weight 0 means "never play"); `None` when none may be played.
    pub fn pick(&mut self, moves: &[WeightedMove], how: BookPick) -> Option<WeightedMove> {
        let playable = moves.iter().filter(|m| m.weight > 0);
        match how {
            BookPick::Best => playable
                .copied()
                .reduce(|best, m| if m.weight > best.weight { m } else { best }),
            BookPick::ByWeight => {
                let total: u64 = playable.clone().map(|m| u64::from(m.weight)).sum();
                if total == 0 {
                    return None;
                }
                let mut r = self.rng.next_u64() % total;
                for m in playable {
                    let w = u64::from(m.weight);
                    if r < w {
                        return Some(*m);
                    }
                    r -= w;
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn moves() -> Vec<WeightedMove> {
        let b = Board::default();
        [("e2e4", 30), ("d2d4", 10), ("g1f3", 0)]
            .iter()
            .map(|(m, w)| WeightedMove {
                mv: b.parse_uci(m).unwrap(),
                weight: *w,
            })
            .collect()
    }

    #[test]
    fn weights_decide_and_zero_never_plays() {
        let ms = moves();
        let mut choice = BookChoice::default();
        let mut counts = [0; 3];
        for _ in 0..4000 {
            let m = choice.pick(&ms, BookPick::ByWeight).unwrap();
            counts[ms.iter().position(|x| *x == m).unwrap()] += 1;
        }
        assert_eq!(counts[2], 0);
        assert!((2800..3200).contains(&counts[0]), "{counts:?}");
        assert_eq!(choice.pick(&ms, BookPick::Best), Some(ms[0]));
        assert_eq!(choice.pick(&ms[2..], BookPick::ByWeight), None);
    }

    #[test]
    fn the_same_seed_picks_the_same_moves() {
        let ms = moves();
        let run = || {
            let mut c = BookChoice::default();
            (0..50)
                .map(|_| c.pick(&ms, BookPick::ByWeight).unwrap().weight)
                .collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
    }
}
