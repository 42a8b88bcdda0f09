//! How settled the search looks after each iteration (the best move kept,
//! the score held, the best move's share of the root nodes) and the factor
//! the soft time limit is scaled by; its constants are in the tunables table.

use crate::score::Score;
use crate::search::tunables::{
    NODE_SHARE_PIVOT_PERCENT, NODE_SHARE_WEIGHT_PERCENT, SCORE_DROP_CP, SCORE_DROP_PERCENT,
    STABILITY_CHANGED_PERCENT, STABILITY_NEW_PERCENT, STABILITY_SETTLED_ITERATIONS,
    STABILITY_SETTLED_PERCENT, STABILITY_SETTLING_ITERATIONS, STABILITY_SETTLING_PERCENT,
    TIME_SCALE_MAX_PERCENT, TIME_SCALE_MIN_PERCENT,
};
use crate::tp;

/// What the iterations so far say about the search: a best move that stays
/// put, a score that holds and a best move that took most of the root's
/// nodes let the soft limit shrink; a new best move, a falling score or
/// effort spread over many moves make it grow.
#[derive(Clone, Debug, Default)]
pub struct Stability {
    /// Iterations in a row that kept the same best move.
    unchanged: u32,
    /// The last iteration changed the best move.
    changed_now: bool,
    /// The score fell by more than `SCORE_DROP_CP` in the last iteration.
    dropped_now: bool,
    /// The best move's share (0 to 1) of the root nodes in the last
    /// iteration and in the one before (`None`: not counted).
    last_share: Option<f64>,
    previous_share: Option<f64>,
}

/// The soft limit's scale after an iteration, factor by factor.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SoftScale {
    /// From how many iterations the best move has held.
    pub by_move: f64,
    /// From the score's fall in the last iteration.
    pub by_score: f64,
    /// From the best move's share of the last iteration's root nodes.
    pub by_nodes: f64,
}

impl SoftScale {
    /// The product of the factors, within `TIME_SCALE_MIN_PERCENT` and
    /// `TIME_SCALE_MAX_PERCENT`.
    pub fn total(&self) -> f64 {
        let min = percent(tp!(TIME_SCALE_MIN_PERCENT));
        let max = percent(tp!(TIME_SCALE_MAX_PERCENT)).max(min);
        (self.by_move * self.by_score * self.by_nodes).clamp(min, max)
    }
}

impl Stability {
    /// Takes in an iteration after the first: whether it kept the best move,
    /// the score before and after it, and the best move's share of its root
    /// nodes (`None`: not counted, no scaling by it).
    pub fn update(
        &mut self,
        same_move: bool,
        previous: Score,
        current: Score,
        best_move_share: Option<f64>,
    ) {
        self.changed_now = !same_move;
        self.unchanged = if same_move { self.unchanged + 1 } else { 0 };
        self.dropped_now = current.0 < previous.0 - tp!(SCORE_DROP_CP);
        self.previous_share = self.last_share;
        self.last_share = best_move_share;
    }

    /// The best move's share of the root nodes: the mean over the last two
    /// iterations when both counted it (the share swings between odd and
    /// even depths), else the last one's alone.
    pub fn best_move_share(&self) -> Option<f64> {
        match (self.previous_share, self.last_share) {
            (Some(before), Some(now)) => Some((before + now) / 2.0),
            (_, now) => now,
        }
    }

    /// The factors the soft limit is scaled by.
    pub fn soft_scale(&self) -> SoftScale {
        SoftScale {
            by_move: self.by_move(),
            by_score: if self.dropped_now {
                percent(tp!(SCORE_DROP_PERCENT))
            } else {
                1.0
            },
            by_nodes: self.best_move_share().map_or(1.0, node_share_factor),
        }
    }

    /// A new best move buys time; one that has held for a few iterations
    /// gives some back.
    fn by_move(&self) -> f64 {
        let factor = if self.changed_now {
            tp!(STABILITY_CHANGED_PERCENT)
        } else if self.unchanged >= tp!(STABILITY_SETTLED_ITERATIONS) {
            tp!(STABILITY_SETTLED_PERCENT)
        } else if self.unchanged >= tp!(STABILITY_SETTLING_ITERATIONS) {
            tp!(STABILITY_SETTLING_PERCENT)
        } else {
            tp!(STABILITY_NEW_PERCENT)
        };
        percent(factor)
    }
}

/// `1 + weight × (pivot - share)` at the table's constants (never below
/// 0): a best move that took nearly all the root's nodes had its rivals
/// refuted quickly (stop sooner); a small share means other moves needed a
/// deep look (think longer). The default weight is 0, which leaves the soft
/// limit to the other factors: no weight tried so far won games (see
/// docs/results/matches.md), so the factor waits for a tuning run.
fn node_share_factor(share: f64) -> f64 {
    node_share_factor_with(
        share,
        percent(tp!(NODE_SHARE_WEIGHT_PERCENT)),
        percent(tp!(NODE_SHARE_PIVOT_PERCENT)),
    )
}

/// `1 + weight × (pivot - share)`, the share held to 0..=1, never below 0.
fn node_share_factor_with(share: f64, weight: f64, pivot: f64) -> f64 {
    (1.0 + weight * (pivot - share.clamp(0.0, 1.0))).max(0.0)
}

fn percent(value: u32) -> f64 {
    f64::from(value) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(iterations: &[(bool, i32, i32, Option<f64>)]) -> Stability {
        let mut s = Stability::default();
        for &(same, before, now, share) in iterations {
            s.update(same, Score(before), Score(now), share);
        }
        s
    }

    #[test]
    fn stable_searches_get_less_time_and_unstable_ones_more() {
        let s = Stability::default();
        assert_eq!(s.soft_scale().total(), 1.0, "nothing known: no scaling");
        let settled = after(&[(true, 20, 22, None); 5]);
        assert!(settled.soft_scale().total() < 1.0);
        let changed = after(&[(true, 20, 22, None), (false, 22, 25, None)]);
        assert!(changed.soft_scale().total() > 1.0);
        let dropped = after(&[(true, 25, -40, None)]);
        assert!(
            dropped.soft_scale().by_score > 1.0,
            "a falling score buys time"
        );
        assert!(dropped.soft_scale().total() > 1.0);
    }

    #[test]
    fn a_low_node_share_buys_time_and_a_high_one_gives_it_back() {
        // The form measured in play: weight 1.1, pivot 0.6.
        let factor = |share| node_share_factor_with(share, 1.1, 0.6);
        let shares = [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0];
        for pair in shares.windows(2) {
            assert!(factor(pair[0]) > factor(pair[1]), "{pair:?}");
        }
        assert!(
            (factor(1.0) - 0.56).abs() < 1e-9,
            "every node on the best move"
        );
        assert!((factor(0.6) - 1.0).abs() < 1e-9, "the pivot is neutral");
        assert!((factor(0.2) - 1.44).abs() < 1e-9, "the effort spread out");
        assert_eq!(factor(-3.0), factor(0.0), "the share is held to 0..=1");
        assert_eq!(node_share_factor_with(1.0, 5.0, 0.6), 0.0, "never below 0");
        for share in shares {
            assert_eq!(
                node_share_factor_with(share, 0.0, 0.6),
                1.0,
                "weight 0: neutral"
            );
        }
        // The table's constants are what the search uses.
        let with_share = |share| after(&[(true, 20, 20, Some(share))]).soft_scale();
        let (weight, pivot) = (
            percent(tp!(NODE_SHARE_WEIGHT_PERCENT)),
            percent(tp!(NODE_SHARE_PIVOT_PERCENT)),
        );
        for share in shares {
            let expected = node_share_factor_with(share, weight, pivot);
            assert_eq!(with_share(share).by_nodes, expected, "{share}");
        }
        // Without a count the factor is neutral.
        assert_eq!(after(&[(true, 20, 20, None)]).soft_scale().by_nodes, 1.0);
    }

    #[test]
    fn the_share_is_the_mean_of_the_last_two_iterations() {
        let s = after(&[(true, 0, 0, Some(0.8)), (true, 0, 0, Some(0.4))]);
        assert!((s.best_move_share().unwrap() - 0.6).abs() < 1e-9);
        let s = after(&[
            (true, 0, 0, Some(0.2)),
            (true, 0, 0, Some(0.8)),
            (true, 0, 0, Some(1.0)),
        ]);
        assert!((s.best_move_share().unwrap() - 0.9).abs() < 1e-9);
        let first = after(&[(true, 0, 0, None), (true, 0, 0, Some(0.7))]);
        assert_eq!(first.best_move_share(), Some(0.7), "one count alone");
        let none = after(&[(true, 0, 0, Some(0.7)), (true, 0, 0, None)]);
        assert_eq!(none.best_move_share(), None, "no count now: no scaling");
    }

    #[test]
    fn the_scale_stays_within_its_bounds() {
        let min = percent(tp!(TIME_SCALE_MIN_PERCENT));
        let max = percent(tp!(TIME_SCALE_MAX_PERCENT));
        // Every combination, the extremes included: a new best move with a
        // falling score and no effort on it, a long-settled one with all of it.
        for iterations in [1, 2, 3, 4, 6, 10] {
            for change_last in [false, true] {
                for drop_cp in [0, 1000] {
                    for share in [None, Some(0.0), Some(0.5), Some(1.0), Some(2.0), Some(-1.0)] {
                        let mut history = vec![(true, 0, 0, share); iterations];
                        history.push((!change_last, 0, -drop_cp, share));
                        let total = after(&history).soft_scale().total();
                        assert!((min..=max).contains(&total), "{total}");
                    }
                }
            }
        }
        // A new best move, a falling score and no effort on it: the
        // product, held to the ceiling where it passes it.
        let worst = after(&[(true, 0, 0, None), (false, 0, -1000, Some(0.0))]).soft_scale();
        let product = worst.by_move * worst.by_score * worst.by_nodes;
        assert!(product > 1.0);
        assert_eq!(worst.total(), product.min(max));
        // Factors far out of range are held to the bounds.
        let extreme = SoftScale {
            by_move: 10.0,
            by_score: 10.0,
            by_nodes: 10.0,
        };
        assert_eq!(extreme.total(), max);
        let tiny = SoftScale {
            by_move: 0.01,
            by_score: 1.0,
            by_nodes: 0.01,
        };
        assert_eq!(tiny.total(), min);
    }
}
