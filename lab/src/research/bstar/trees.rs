//! B* on bounded synthetic trees beside alpha-beta and MTD(f): per tree the
//! move B* chose, whether it has the minimax value, and each search's nodes
//! expanded and evaluated; and the means over many trees.

use crate::research::bstar::bounded_synthetic::BoundedSyntheticTree;
use crate::research::bstar::root::Strategy;
use crate::research::bstar::search::{BStarOptions, Termination, b_star};
use crate::research::trees::alphabeta::alpha_beta;
use crate::research::trees::counting::CountingTree;
use crate::research::trees::leaves::LeafLog;
use crate::research::trees::mt::mtd_f;
use crate::research::trees::tree::{NodePath, Value};

/// How good B*'s move is, judged by the tree's minimax values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveVerdict {
    /// The move's minimax value is the root's.
    MinimaxBest,
    /// The move is worse than the best by this much.
    Worse(Value),
    /// The root has no moves.
    NoMove,
}

/// What one search spent.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Interior nodes whose children were generated.
    pub expanded: u64,
    /// Nodes given a value: B*'s intervals and leaf values, the leaves a
    /// depth-first search evaluated (distinct).
    pub evaluated: u64,
}

/// B*, alpha-beta and MTD(f) on one tree.
#[derive(Clone, Debug)]
pub struct BStarTreeReport {
    pub seed: u64,
    pub minimax_value: Value,
    pub choice: Option<usize>,
    pub verdict: MoveVerdict,
    pub termination: Termination,
    pub prove_best: usize,
    pub disprove_rest: usize,
    pub bstar: Effort,
    pub alpha_beta: Effort,
    pub mtd_f: Effort,
}

/// Runs B* and, unless `with_rivals` is false, alpha-beta (full window) and
/// MTD(f) from `first_guess`, both to the horizon, on `tree`.
pub fn examine_bstar(
    tree: &BoundedSyntheticTree,
    first_guess: Value,
    options: BStarOptions,
    with_rivals: bool,
) -> BStarTreeReport {
    let outcome = b_star(tree, options);
    let root_value = tree.minimax_value(&NodePath::root());
    let verdict = match outcome.choice {
        None => MoveVerdict::NoMove,
        Some(i) => match root_value - tree.minimax_value(&NodePath::root().child(i)) {
            0 => MoveVerdict::MinimaxBest,
            loss => MoveVerdict::Worse(loss),
        },
    };
    let (alpha_beta, mtd_f) = if with_rivals {
        (alpha_beta_effort(tree), mtd_f_effort(tree, first_guess))
    } else {
        (Effort::default(), Effort::default())
    };
    BStarTreeReport {
        seed: tree.spec().seed,
        minimax_value: root_value,
        choice: outcome.choice,
        verdict,
        termination: outcome.termination,
        prove_best: outcome.expansions_for(Strategy::ProveBest),
        disprove_rest: outcome.expansions_for(Strategy::DisproveRest),
        bstar: Effort {
            expanded: outcome.expansions,
            evaluated: outcome.generated,
        },
        alpha_beta,
        mtd_f,
    }
}

fn alpha_beta_effort(tree: &BoundedSyntheticTree) -> Effort {
    let counting = CountingTree::new(tree);
    let mut log = LeafLog::new(&counting, false);
    alpha_beta(&counting, &mut log);
    Effort {
        expanded: counting.expanded(),
        evaluated: log.finish().distinct,
    }
}

fn mtd_f_effort(tree: &BoundedSyntheticTree, first_guess: Value) -> Effort {
    let counting = CountingTree::new(tree);
    let mut log = LeafLog::new(&counting, false);
    mtd_f(&counting, first_guess, &mut log);
    Effort {
        expanded: counting.expanded(),
        evaluated: log.finish().distinct,
    }
}

/// Means over the trees of one interval width.
#[derive(Clone, Debug, PartialEq)]
pub struct BStarSummary {
    pub width: Value,
    pub trees: usize,
    /// Trees where B*'s move had the minimax value.
    pub best: usize,
    /// Trees where B* separated within its budget.
    pub separated: usize,
    /// Trees where B* separated on a move that is not minimax-best
    /// (impossible with valid intervals).
    pub separated_but_worse: usize,
    pub bstar: [f64; 2],
    pub alpha_beta: [f64; 2],
    pub mtd_f: [f64; 2],
}

impl BStarSummary {
    pub fn of(width: Value, reports: &[BStarTreeReport]) -> BStarSummary {
        let n = reports.len().max(1) as f64;
        let mean = |f: &dyn Fn(&BStarTreeReport) -> Effort| {
            let (e, v) = reports
                .iter()
                .map(f)
                .fold((0, 0), |(e, v), x| (e + x.expanded, v + x.evaluated));
            [e as f64 / n, v as f64 / n]
        };
        BStarSummary {
            width,
            trees: reports.len(),
            best: count(reports, |r| r.verdict == MoveVerdict::MinimaxBest),
            separated: count(reports, |r| r.termination == Termination::Separated),
            separated_but_worse: count(reports, |r| {
                r.termination == Termination::Separated && r.verdict != MoveVerdict::MinimaxBest
            }),
            bstar: mean(&|r| r.bstar),
            alpha_beta: mean(&|r| r.alpha_beta),
            mtd_f: mean(&|r| r.mtd_f),
        }
    }
}

fn count(reports: &[BStarTreeReport], f: impl Fn(&BStarTreeReport) -> bool) -> usize {
    reports.iter().filter(|r| f(r)).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::trees::synthetic::{SyntheticSpec, ValueModel, ValueRange};

    const UNLIMITED: BStarOptions = BStarOptions {
        max_expansions: u64::MAX,
    };

    fn tree(i: u64, width: Value) -> BoundedSyntheticTree {
        let spec = SyntheticSpec {
            branching: 2 + (i % 4) as usize,
            depth: 2 + (i % 4) as usize,
            model: if i.is_multiple_of(2) {
                ValueModel::Uniform
            } else {
                ValueModel::Incremental
            },
            values: ValueRange::new(-100, 100).unwrap(),
            seed: 1000 + i,
        };
        BoundedSyntheticTree::new(spec, width).unwrap()
    }

    #[test]
    fn with_valid_intervals_bstar_always_chooses_a_minimax_best_move() {
        // 1,000 trees of branching 2..5, depth 2..5, both value models and
        // interval widths from exact to far wider than the value range.
        let widths = [0, 5, 50, 300, 3000];
        let mut disprove_used = 0;
        for i in 0..1000 {
            let t = tree(i, widths[(i / 4) as usize % widths.len()]);
            let report = examine_bstar(&t, 0, UNLIMITED, false);
            assert_eq!(report.verdict, MoveVerdict::MinimaxBest, "tree {i}");
            assert_eq!(report.termination, Termination::Separated, "tree {i}");
            disprove_used += usize::from(report.disprove_rest > 0);
        }
        assert!(
            disprove_used > 50,
            "DisproveRest used in {disprove_used} trees"
        );
    }

    #[test]
    fn exact_intervals_settle_at_the_root_and_wide_ones_cost_more() {
        let exact = examine_bstar(&tree(3, 0), 0, UNLIMITED, true);
        assert_eq!(exact.bstar.expanded, 1);
        assert_eq!(exact.verdict, MoveVerdict::MinimaxBest);
        // Alpha-beta and MTD(f) know nothing of intervals: they search on.
        assert!(exact.alpha_beta.evaluated > exact.bstar.evaluated);
        assert!(exact.mtd_f.evaluated > 0 && exact.alpha_beta.expanded > 1);
        let wide = examine_bstar(&tree(3, 3000), 0, UNLIMITED, true);
        assert!(wide.bstar.expanded > exact.bstar.expanded);
        assert_eq!(wide.alpha_beta, exact.alpha_beta);
    }

    #[test]
    fn a_tiny_budget_is_reported() {
        let report = examine_bstar(&tree(7, 3000), 0, BStarOptions { max_expansions: 1 }, false);
        assert_eq!(report.termination, Termination::BudgetExhausted);
        assert_eq!(report.bstar.expanded, 1);
        assert!(report.choice.is_some());
    }

    #[test]
    fn the_summary_counts_and_averages() {
        let reports: Vec<BStarTreeReport> = (0..8)
            .map(|i| examine_bstar(&tree(i, 50), 0, UNLIMITED, true))
            .collect();
        let s = BStarSummary::of(50, &reports);
        assert_eq!((s.trees, s.best, s.separated), (8, 8, 8));
        assert_eq!(s.separated_but_worse, 0);
        let total: u64 = reports.iter().map(|r| r.alpha_beta.evaluated).sum();
        assert_eq!(s.alpha_beta[1], total as f64 / 8.0);
    }
}
