//! B*'s decisions at the root: which move is best so far and which is its
//! rival, whether the best one has separated from the rest, and which strategy
//! — ProveBest or DisproveRest — the next expansion serves.

use crate::research::bstar::bounded::Bounds;
use std::fmt;

/// What the next expansion tries to do (Berliner 1979).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Raise the best move's pessimistic bound to the others' optimistic ones.
    ProveBest,
    /// Lower the rival's optimistic bound to the best move's pessimistic one.
    DisproveRest,
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strategy::ProveBest => "ProveBest",
            Strategy::DisproveRest => "DisproveRest",
        })
    }
}

/// The root moves B* compares: the best so far and, with two or more moves,
/// the rival (indices into the root's children).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Contenders {
    pub best: usize,
    pub rival: Option<usize>,
}

/// The best move has the highest optimistic bound (ties: the higher
/// pessimistic bound, then the leftmost); the rival is the highest optimistic
/// bound among the others (ties: leftmost). `None` without moves.
pub fn contenders(children: &[Bounds]) -> Option<Contenders> {
    let best = (0..children.len()).reduce(|a, b| {
        let (x, y) = (children[a], children[b]);
        if (y.upper, y.lower) > (x.upper, x.lower) {
            b
        } else {
            a
        }
    })?;
    let rival = (0..children.len()).filter(|&i| i != best).reduce(|a, b| {
        if children[b].upper > children[a].upper {
            b
        } else {
            a
        }
    });
    Some(Contenders { best, rival })
}

/// Separation: the best move's pessimistic bound is no lower than every other
/// move's optimistic bound (the rival's is the highest of those).
pub fn separated(children: &[Bounds], c: Contenders) -> bool {
    c.rival
        .is_none_or(|rival| children[c.best].lower >= children[rival].upper)
}

/// The strategy for the next expansion, before separation (so the best move's
/// interval is not exact: its upper bound would be the highest and equal its
/// lower bound, which is separation). The rule:
/// 1. if another move's pessimistic bound is above the best's, no amount of
///    disproving separates them: ProveBest (DisproveRest is pointless until
///    the best move also has the highest pessimistic bound; this covers an
///    exact rival, which cannot fall);
/// 2. otherwise the strategy more likely to succeed, with each true value taken
///    as uniform over its interval — a simplification of Palay's (1985)
///    probability-based choice: ProveBest succeeds if the best move's value is
///    at least the rival's optimistic bound, DisproveRest if every move whose
///    optimistic bound is above the best's pessimistic one has a value at most
///    that pessimistic bound. Ties go to ProveBest.
pub fn choose_strategy(children: &[Bounds], c: Contenders) -> Strategy {
    let best = children[c.best];
    let Some(rival) = c.rival.map(|r| children[r]) else {
        return Strategy::ProveBest;
    };
    let others = children
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != c.best)
        .map(|(_, b)| *b);
    if others.clone().any(|b| b.lower > best.lower) {
        return Strategy::ProveBest;
    }
    let prove = fraction(i64::from(best.upper) - i64::from(rival.upper), best.width());
    let disprove: f64 = others
        .filter(|b| b.upper > best.lower)
        .map(|b| fraction(i64::from(best.lower) - i64::from(b.lower), b.width()))
        .product();
    if prove >= disprove {
        Strategy::ProveBest
    } else {
        Strategy::DisproveRest
    }
}

/// `part / whole` within 0..=1 (for an empty interval: 1 when `part >= 0`).
fn fraction(part: i64, whole: i64) -> f64 {
    if whole <= 0 {
        if part >= 0 { 1.0 } else { 0.0 }
    } else {
        (part as f64 / whole as f64).clamp(0.0, 1.0)
    }
}

/// Without separation (the budget ran out), the move with the highest
/// pessimistic bound (ties: the higher optimistic bound, then the leftmost).
pub fn most_secure(children: &[Bounds]) -> Option<usize> {
    (0..children.len()).reduce(|a, b| {
        let (x, y) = (children[a], children[b]);
        if (y.lower, y.upper) > (x.lower, x.upper) {
            b
        } else {
            a
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(lower: i32, upper: i32) -> Bounds {
        Bounds::new(lower, upper)
    }

    #[test]
    fn best_has_the_highest_optimistic_bound_and_rival_the_next() {
        let children = [b(0, 7), b(2, 10), b(3, 10), b(-5, 8)];
        let c = contenders(&children).unwrap();
        assert_eq!(
            c,
            Contenders {
                best: 2,
                rival: Some(1)
            }
        );
        assert!(!separated(&children, c));
        assert_eq!(contenders(&[b(1, 2)]).unwrap().rival, None);
        assert!(contenders(&[]).is_none());
        let apart = [b(5, 9), b(0, 5), b(1, 4)];
        assert!(separated(&apart, contenders(&apart).unwrap()));
    }

    #[test]
    fn an_exact_rival_means_prove_best() {
        // Best by optimistic bound is (5,9); the rival (6,6) cannot fall.
        let children = [b(6, 6), b(5, 9)];
        let c = contenders(&children).unwrap();
        assert_eq!(
            c,
            Contenders {
                best: 1,
                rival: Some(0)
            }
        );
        assert_eq!(choose_strategy(&children, c), Strategy::ProveBest);
        // An exact best move is already separated.
        let best_exact = [b(5, 5), b(2, 5), b(0, 4)];
        assert!(separated(&best_exact, contenders(&best_exact).unwrap()));
    }

    #[test]
    fn a_higher_pessimistic_bound_elsewhere_means_prove_best() {
        // The rival's pessimistic 5 is above the best's 1: disproving cannot help.
        let children = [b(1, 20), b(5, 6)];
        let c = contenders(&children).unwrap();
        assert_eq!(choose_strategy(&children, c), Strategy::ProveBest);
    }

    #[test]
    fn otherwise_the_likelier_strategy() {
        // Prove: (12-8)/6 = 0.67; disprove: (6-0)/8 = 0.75.
        let children = [b(6, 12), b(0, 8)];
        let c = contenders(&children).unwrap();
        assert_eq!(choose_strategy(&children, c), Strategy::DisproveRest);
        // Prove: (12-8)/6 = 0.67; disprove: 0.75 * (6-4)/(7-4) = 0.5.
        let children = [b(6, 12), b(0, 8), b(4, 7)];
        let c = contenders(&children).unwrap();
        assert_eq!(choose_strategy(&children, c), Strategy::ProveBest);
    }

    #[test]
    fn the_most_secure_move_has_the_highest_pessimistic_bound() {
        assert_eq!(most_secure(&[b(0, 9), b(3, 4), b(3, 5)]), Some(2));
        assert_eq!(most_secure(&[]), None);
    }
}
