//! Averages over many trees: per algorithm the mean leaves evaluated, the
//! ratio to alpha-beta and the mean MT passes, plus how many trees passed each
//! check; printed as a table or written as CSV rows.

use crate::research::report::csv_table::CsvTable;
use crate::research::trees::algorithms::TreeAlgorithm;
use crate::research::trees::experiment::TreeReport;
use std::fmt::Write as _;

/// The means for one algorithm.
#[derive(Clone, Debug, PartialEq)]
pub struct AlgorithmRow {
    pub algorithm: TreeAlgorithm,
    /// Mean distinct leaves evaluated per tree.
    pub mean_leaves: f64,
    /// `mean_leaves` divided by alpha-beta's.
    pub relative_to_alpha_beta: f64,
    /// Mean leaf evaluations per tree, re-evaluations included.
    pub mean_evaluations: f64,
    /// Mean root calls per tree (MT passes for the MTD family).
    pub mean_passes: f64,
}

/// How many trees satisfied one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckCount {
    pub name: &'static str,
    pub meaning: &'static str,
    pub satisfied: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub trees: usize,
    pub rows: Vec<AlgorithmRow>,
    pub checks: Vec<CheckCount>,
}

impl Summary {
    pub fn of(reports: &[TreeReport]) -> Summary {
        let trees = reports.len();
        let mean = |f: &dyn Fn(&TreeReport) -> f64| {
            if trees == 0 {
                0.0
            } else {
                reports.iter().map(f).sum::<f64>() / trees as f64
            }
        };
        let mean_leaves_of =
            |algorithm| mean(&|r: &TreeReport| r.run_of(algorithm).leaves.distinct as f64);
        let alpha_beta_leaves = mean_leaves_of(TreeAlgorithm::AlphaBeta);
        let rows = TreeAlgorithm::ALL
            .iter()
            .map(|&algorithm| {
                let mean_leaves = mean_leaves_of(algorithm);
                AlgorithmRow {
                    algorithm,
                    mean_leaves,
                    relative_to_alpha_beta: if alpha_beta_leaves > 0.0 {
                        mean_leaves / alpha_beta_leaves
                    } else {
                        0.0
                    },
                    mean_evaluations: mean(&|r| r.run_of(algorithm).leaves.total as f64),
                    mean_passes: mean(&|r| f64::from(r.run_of(algorithm).passes)),
                }
            })
            .collect();
        let count = |f: &dyn Fn(&TreeReport) -> bool| reports.iter().filter(|r| f(r)).count();
        let checks = vec![
            CheckCount {
                name: "sss-equivalence",
                meaning: "SSS* and MT-SSS* evaluate the same leaves in the same order",
                satisfied: count(&|r| r.sss_equivalent),
            },
            CheckCount {
                name: "dual-equivalence",
                meaning: "DUAL* and MT-DUAL* evaluate the same leaves in the same order",
                satisfied: count(&|r| r.dual_equivalent),
            },
            CheckCount {
                name: "sss-within-alpha-beta",
                meaning: "every leaf SSS* evaluates, alpha-beta evaluates too",
                satisfied: count(&|r| r.sss_within_alpha_beta),
            },
            CheckCount {
                name: "dual-within-alpha-beta",
                meaning: "every leaf DUAL* evaluates, alpha-beta evaluates too",
                satisfied: count(&|r| r.dual_within_alpha_beta),
            },
            CheckCount {
                name: "minimax-agreement",
                meaning: "every algorithm returns the minimax value",
                satisfied: count(&|r| r.wrong_values.is_empty()),
            },
        ];
        Summary {
            trees,
            rows,
            checks,
        }
    }

    /// The table and the check lines, as printed by `stockman-lab trees`.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<18} {:>12} {:>14} {:>13} {:>9}",
            "algorithm", "leaves", "vs alpha-beta", "with repeats", "passes"
        );
        for row in &self.rows {
            let passes = if row.algorithm.is_mt_family() {
                format!("{:.2}", row.mean_passes)
            } else {
                "-".to_string()
            };
            let _ = writeln!(
                out,
                "{:<18} {:>12.1} {:>14.3} {:>13.1} {:>9}",
                row.algorithm.name(),
                row.mean_leaves,
                row.relative_to_alpha_beta,
                row.mean_evaluations,
                passes
            );
        }
        for check in &self.checks {
            let _ = writeln!(
                out,
                "{}: {}/{} trees ({})",
                check.name, check.satisfied, self.trees, check.meaning
            );
        }
        out
    }

    /// CSV: a header and one row per algorithm, each row prefixed by
    /// `context` (the experiment's parameters, one field per name of
    /// `context_header`).
    pub fn csv(&self, context_header: &[&str], context: &[String]) -> String {
        let mut table = CsvTable::new(context_header.iter().copied().chain([
            "algorithm",
            "mean_leaves",
            "relative_to_alpha_beta",
            "mean_evaluations",
            "mean_passes",
        ]));
        for row in &self.rows {
            table.row(context.iter().cloned().chain([
                row.algorithm.name().to_string(),
                format!("{:.3}", row.mean_leaves),
                format!("{:.5}", row.relative_to_alpha_beta),
                format!("{:.3}", row.mean_evaluations),
                format!("{:.3}", row.mean_passes),
            ]));
        }
        table.into_text()
    }
}
