//! Time management: turns the clocks of a `go` into a soft limit (checked
//! between iterations: don't start another) and a hard limit (checked inside
//! the search: stop now), with the move overhead and a small clock
//! reserve kept back from both.
//! `stability` scales the soft limit by how settled the search looks.

pub mod stability;

use crate::search::limits::Limits;
use crate::search::tunables::{
    CLOCK_RESERVE_MS, HARD_OVER_SOFT, INCREMENT_SHARE_PERCENT, MAX_SHARE_PERCENT,
    SUDDEN_DEATH_MOVES,
};
use crate::tp;
use shakmaty::Color;
use std::time::Duration;

/// The shortest budget ever handed out, so that a move is always found.
const MIN_BUDGET: Duration = Duration::from_millis(1);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl TimeBudget {
    pub const UNLIMITED: TimeBudget = TimeBudget {
        soft: None,
        hard: None,
    };

    /// The budget for `side` to move under `limits`.
    pub fn new(limits: &Limits, side: Color, overhead: Duration) -> TimeBudget {
        if limits.infinite {
            return TimeBudget::UNLIMITED;
        }
        let mut budget = TimeBudget::UNLIMITED;
        if let Some(movetime) = limits.movetime {
            // All of it, less the overhead: no soft limit stops the search
            // early (what GUIs, lichess-bot and python-chess expect).
            let t = movetime.saturating_sub(overhead).max(MIN_BUDGET);
            budget = TimeBudget {
                soft: None,
                hard: Some(t),
            };
        }
        let (time, inc) = match side {
            Color::White => (limits.clock.wtime, limits.clock.winc),
            Color::Black => (limits.clock.btime, limits.clock.binc),
        };
        if let Some(time) = time {
            let inc = inc.unwrap_or_default();
            // The reserve is never planned on: the clock stays above the
            // increment even when every reply runs a little late.
            let reserve = Duration::from_millis(u64::from(tp!(CLOCK_RESERVE_MS)));
            let left = time.saturating_sub(overhead + reserve);
            let moves = limits
                .clock
                .movestogo
                .unwrap_or(tp!(SUDDEN_DEATH_MOVES))
                .clamp(1, tp!(SUDDEN_DEATH_MOVES));
            let ceiling = left * tp!(MAX_SHARE_PERCENT) / 100;
            let ideal = left / moves + inc * tp!(INCREMENT_SHARE_PERCENT) / 100;
            let soft = ideal.min(ceiling).max(MIN_BUDGET);
            let hard = (soft * tp!(HARD_OVER_SOFT)).min(ceiling).max(soft);
            let clock_budget = TimeBudget {
                soft: Some(soft),
                hard: Some(hard),
            };
            budget = budget.tighter(clock_budget);
        }
        budget
    }

    fn tighter(self, other: TimeBudget) -> TimeBudget {
        let min = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, None) => x,
            (None, y) => y,
        };
        TimeBudget {
            soft: min(self.soft, other.soft),
            hard: min(self.hard, other.hard),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn clock(wtime: u64, winc: u64, movestogo: Option<u32>) -> Limits {
        Limits {
            clock: Clock {
                wtime: Some(ms(wtime)),
                btime: Some(ms(1)),
                winc: Some(ms(winc)),
                binc: None,
                movestogo,
            },
            ..Limits::default()
        }
    }

    #[test]
    fn movetime_keeps_the_overhead_back() {
        let l = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        let b = TimeBudget::new(&l, Color::White, ms(50));
        assert_eq!(b.hard, Some(ms(950)));
        assert_eq!(b.soft, None, "movetime is searched to its end");
        // With a clock as well, the clock's soft limit may end it sooner.
        let both = Limits {
            movetime: Some(ms(1000)),
            ..clock(10_000, 0, None)
        };
        let b = TimeBudget::new(&both, Color::White, ms(50));
        assert_eq!(b.hard, Some(ms(950)));
        assert!(b.soft.is_some_and(|s| s < ms(950)));
        // A movetime below the overhead still leaves a minimal budget.
        let l = Limits {
            movetime: Some(ms(5)),
            ..Limits::default()
        };
        assert_eq!(
            TimeBudget::new(&l, Color::White, ms(50)).hard,
            Some(MIN_BUDGET)
        );
    }

    #[test]
    fn clock_budgets_stay_inside_the_clock() {
        for (t, inc, mtg) in [
            (60_000, 0, None),
            (1000, 10, None),
            (100, 0, None),
            (10, 1000, None),
            (30_000, 0, Some(1)),
            (0, 0, None),
        ] {
            let b = TimeBudget::new(&clock(t, inc, mtg), Color::White, ms(10));
            let hard = b.hard.unwrap();
            let soft = b.soft.unwrap();
            assert!(soft <= hard, "{t} {inc}");
            assert!(hard <= ms(t).max(MIN_BUDGET), "{t} {inc}: {hard:?}");
            assert!(hard >= MIN_BUDGET);
        }
        // Sudden death with a minute: about two seconds, never more than 40 %.
        let b = TimeBudget::new(&clock(60_000, 0, None), Color::White, ms(10));
        assert!(b.soft.unwrap() > ms(1500) && b.soft.unwrap() < ms(3000));
    }

    #[test]
    fn a_low_clock_spends_less_than_the_increment() {
        // 5+0.05 late in a game: 150 ms left. Spending the whole increment
        // every move would keep the clock there, one stall from a loss.
        let b = TimeBudget::new(&clock(150, 50, None), Color::White, ms(10));
        assert!(b.soft.unwrap() < ms(50), "{b:?}");
        // With a comfortable clock the increment is still mostly spent.
        let b = TimeBudget::new(&clock(10_000, 100, None), Color::White, ms(10));
        assert!(b.soft.unwrap() > ms(500), "{b:?}");
    }

    #[test]
    fn a_clock_inside_the_reserve_gets_the_least_budget() {
        let reserve = u64::from(tp!(CLOCK_RESERVE_MS));
        assert!(reserve >= 50, "the reserve covers a few late replies");
        // Overhead and reserve are all that is left: only the minimum,
        // whatever the increment, so the increment rebuilds the clock.
        let b = TimeBudget::new(&clock(10 + reserve, 10, None), Color::White, ms(10));
        assert_eq!(b.soft, Some(MIN_BUDGET), "{b:?}");
        assert_eq!(b.hard, Some(MIN_BUDGET), "{b:?}");
        // Ten milliseconds beyond it: the budget stays below those ten.
        let b = TimeBudget::new(&clock(20 + reserve, 10, None), Color::White, ms(10));
        assert!(b.hard.unwrap() < ms(10), "{b:?}");
    }

    #[test]
    fn side_to_move_clock_is_used_and_infinite_is_unlimited() {
        let b = TimeBudget::new(&clock(60_000, 0, None), Color::Black, ms(10));
        assert_eq!(b.hard, Some(MIN_BUDGET));
        let l = Limits {
            infinite: true,
            ..clock(10_000, 0, None)
        };
        assert_eq!(
            TimeBudget::new(&l, Color::White, ms(10)),
            TimeBudget::UNLIMITED
        );
    }
}
