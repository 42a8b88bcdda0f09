//! One experiment on one tree: run every algorithm, then check what the
//! theorems promise — every value equals minimax, SSS* ≡ MT-SSS* and DUAL* ≡
//! MT-DUAL* (same leaves, same order), and SSS*/DUAL* leaves ⊆ alpha-beta's.

use crate::research::trees::algorithms::{Run, RunOptions, TreeAlgorithm, run};
use crate::research::trees::tree::{GameTree, NodePath, Value};
use std::collections::HashSet;

/// What to do besides the checks.
#[derive(Copy, Clone, Debug)]
pub struct ExamineOptions {
    /// MTD(f)'s first guess.
    pub first_guess: Value,
    /// Keep every algorithm's ordered leaf list in the report (for traces).
    pub keep_orders: bool,
}

/// Every algorithm's run on one tree and the verdicts of the checks.
#[derive(Clone, Debug)]
pub struct TreeReport {
    /// One run per algorithm, in `TreeAlgorithm::ALL` order.
    pub runs: Vec<Run>,
    pub minimax_value: Value,
    /// Algorithms whose value differs from minimax's (should be none).
    pub wrong_values: Vec<TreeAlgorithm>,
    /// SSS* and MT-SSS* evaluated the same leaves in the same order.
    pub sss_equivalent: bool,
    /// DUAL* and MT-DUAL* evaluated the same leaves in the same order.
    pub dual_equivalent: bool,
    /// Every leaf SSS* evaluated, alpha-beta evaluated too.
    pub sss_within_alpha_beta: bool,
    /// Every leaf DUAL* evaluated, alpha-beta evaluated too.
    pub dual_within_alpha_beta: bool,
    /// A sentence for each failed check, saying where it failed.
    pub failures: Vec<String>,
}

impl TreeReport {
    pub fn run_of(&self, algorithm: TreeAlgorithm) -> &Run {
        run_of(&self.runs, algorithm)
    }

    /// Did every check hold?
    pub fn all_checks_hold(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The run of `algorithm` among `runs`, which hold one run per algorithm.
fn run_of(runs: &[Run], algorithm: TreeAlgorithm) -> &Run {
    runs.iter()
        .find(|r| r.algorithm == algorithm)
        .expect("every algorithm is run")
}

/// Is the run's ordered leaf list needed by a check?
fn order_needed_for_checks(algorithm: TreeAlgorithm) -> bool {
    matches!(
        algorithm,
        TreeAlgorithm::AlphaBeta
            | TreeAlgorithm::Sss
            | TreeAlgorithm::MtSss
            | TreeAlgorithm::Dual
            | TreeAlgorithm::MtDual
    )
}

/// Runs every algorithm on `tree` and checks the results.
pub fn examine<T: GameTree + ?Sized>(tree: &T, options: ExamineOptions) -> TreeReport {
    let mut runs: Vec<Run> = TreeAlgorithm::ALL
        .iter()
        .map(|&algorithm| {
            let run_options = RunOptions {
                first_guess: options.first_guess,
                record_order: options.keep_orders || order_needed_for_checks(algorithm),
            };
            run(algorithm, tree, run_options)
        })
        .collect();
    let find = |algorithm| run_of(&runs, algorithm);
    let minimax_value = find(TreeAlgorithm::Minimax).value;
    let wrong_values = runs
        .iter()
        .filter(|r| r.value != minimax_value)
        .map(|r| r.algorithm)
        .collect();
    let alpha_beta = find(TreeAlgorithm::AlphaBeta);
    let sss = find(TreeAlgorithm::Sss);
    let dual = find(TreeAlgorithm::Dual);
    let (mt_sss, mt_dual) = (find(TreeAlgorithm::MtSss), find(TreeAlgorithm::MtDual));
    let mut report = TreeReport {
        minimax_value,
        wrong_values,
        sss_equivalent: same_leaves_same_order(sss, mt_sss),
        dual_equivalent: same_leaves_same_order(dual, mt_dual),
        sss_within_alpha_beta: leaves_within(sss, alpha_beta),
        dual_within_alpha_beta: leaves_within(dual, alpha_beta),
        failures: Vec::new(),
        runs: Vec::new(),
    };
    report.failures = describe_failures(&report, &runs);
    if !options.keep_orders {
        for r in &mut runs {
            r.leaves.order = Vec::new();
        }
    }
    report.runs = runs;
    report
}

/// A sentence for each failed check, with the first divergence of each
/// order check (needs the runs' ordered leaf lists).
fn describe_failures(report: &TreeReport, runs: &[Run]) -> Vec<String> {
    let run_of = |algorithm| run_of(runs, algorithm);
    let mut out = Vec::new();
    for &algorithm in &report.wrong_values {
        out.push(format!(
            "{algorithm} returned {} but minimax is {}",
            run_of(algorithm).value,
            report.minimax_value
        ));
    }
    let pairs = [
        (
            report.sss_equivalent,
            TreeAlgorithm::Sss,
            TreeAlgorithm::MtSss,
        ),
        (
            report.dual_equivalent,
            TreeAlgorithm::Dual,
            TreeAlgorithm::MtDual,
        ),
    ];
    for (holds, a, b) in pairs {
        if !holds {
            out.push(format!(
                "{a} and {b} differ: {}",
                first_difference(run_of(a), run_of(b))
            ));
        }
    }
    let subsets = [
        (report.sss_within_alpha_beta, TreeAlgorithm::Sss),
        (report.dual_within_alpha_beta, TreeAlgorithm::Dual),
    ];
    for (holds, a) in subsets {
        if !holds {
            out.push(format!("{a} evaluated a leaf alpha-beta did not"));
        }
    }
    out
}

fn paths(run: &Run) -> impl Iterator<Item = &NodePath> {
    run.leaves.order.iter().map(|leaf| &leaf.path)
}

/// Did both runs evaluate the same leaves for the first time in the same order?
pub fn same_leaves_same_order(a: &Run, b: &Run) -> bool {
    paths(a).eq(paths(b))
}

/// Is every leaf `inner` evaluated also evaluated by `outer`?
pub fn leaves_within(inner: &Run, outer: &Run) -> bool {
    let outer: HashSet<&NodePath> = paths(outer).collect();
    paths(inner).all(|p| outer.contains(p))
}

/// Where two ordered leaf lists first part.
fn first_difference(a: &Run, b: &Run) -> String {
    let (la, lb) = (&a.leaves.order, &b.leaves.order);
    match la.iter().zip(lb).position(|(x, y)| x.path != y.path) {
        Some(k) => format!(
            "evaluation {} is leaf {} for {} but leaf {} for {}",
            k + 1,
            la[k].path,
            a.algorithm,
            lb[k].path,
            b.algorithm
        ),
        None => format!(
            "{} evaluated {} leaves, {} evaluated {}",
            a.algorithm,
            la.len(),
            b.algorithm,
            lb.len()
        ),
    }
}
