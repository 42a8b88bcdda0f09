//! `stockman-lab trees --algorithm bstar`: B* on seeded bounded synthetic trees,
//! one row per interval width (and a line per tree if asked) beside
//! alpha-beta and MTD(f); CSV of every tree and an SVG of nodes against width.

use crate::research::bstar::bounded_synthetic::BoundedSyntheticTree;
use crate::research::bstar::search::{BStarOptions, Termination};
use crate::research::bstar::trees::{BStarSummary, BStarTreeReport, MoveVerdict, examine_bstar};
use crate::research::report::chart::{Axes, Series, nodes_chart_over};
use crate::research::report::csv_table::CsvTable;
use crate::research::report::stdout::emit;
use crate::research::trees::synthetic::{SyntheticSpec, ValueModel, ValueRange};
use crate::research::trees::tree::{MAX_LEAF_VALUE, Value};
use crate::research::trees::trees_cmd::{TreesArgs, validate_synthetic};
use rayon::prelude::*;
use std::fmt::Write as _;

/// The most widths one run compares.
const MAX_WIDTHS: usize = 32;

/// What every tree of the run shares; tree i has seed `base.seed + i`.
struct Plan {
    base: SyntheticSpec,
    count: usize,
    first_guess: Value,
    options: BStarOptions,
}

impl Plan {
    fn tree(&self, i: usize, width: Value) -> Result<BoundedSyntheticTree, String> {
        let spec = SyntheticSpec {
            seed: self.base.seed.wrapping_add(i as u64),
            ..self.base
        };
        BoundedSyntheticTree::new(spec, width)
    }
}

/// Runs `stockman-lab trees --algorithm bstar`.
pub fn run_bstar_trees(args: &TreesArgs) -> Result<(), String> {
    let plan = plan(args)?;
    let widths = parse_widths(&args.width)?;
    for (path, what) in [(&args.csv, "CSV"), (&args.svg, "SVG")] {
        if let Some(path) = path {
            stockman::files::PartialFile::check_writable(path)
                .map_err(|e| format!("cannot write {what} file '{}': {e}", path.display()))?;
        }
    }
    let b = &plan.base;
    emit(&format!(
        "B* on {} {} trees per width: branching {}, depth {}; values {}; seeds {}..{}; \
         budget {} expansions; alpha-beta full window, mtd(f) first guess {}\n\n",
        plan.count,
        b.model,
        b.branching,
        b.depth,
        b.values,
        b.seed,
        b.seed.wrapping_add(plan.count as u64 - 1),
        plan.options.max_expansions,
        plan.first_guess
    ))?;
    let mut summaries = Vec::new();
    let mut csv = CsvTable::new(CSV_HEADER);
    for &width in &widths {
        let reports = (0..plan.count)
            .into_par_iter()
            .map(|i| {
                Ok(examine_bstar(
                    &plan.tree(i, width)?,
                    plan.first_guess,
                    plan.options,
                    true,
                ))
            })
            .collect::<Result<Vec<BStarTreeReport>, String>>()?;
        if args.per_tree {
            emit(&per_tree_lines(width, &reports))?;
        }
        for r in &reports {
            csv.row(csv_row(width, r));
        }
        summaries.push(BStarSummary::of(width, &reports));
    }
    emit(&summary_table(&summaries))?;
    write_outputs(args, &plan, &summaries, &csv.into_text())?;
    let wrong: usize = summaries.iter().map(|s| s.separated_but_worse).sum();
    if wrong > 0 {
        return Err(format!(
            "{wrong} tree(s) where B* separated on a move that is not minimax-best: \
             the intervals are valid, so this is a bug"
        ));
    }
    Ok(())
}

/// Checks the arguments and fixes what every tree shares.
fn plan(args: &TreesArgs) -> Result<Plan, String> {
    let depth = args.depth.ok_or("B* needs --depth")?;
    let values = ValueRange::parse(&args.values)?;
    let model = ValueModel::from(args.model);
    if args.budget == 0 {
        return Err("--budget must be at least 1 expansion".into());
    }
    validate_synthetic(args.branching, depth, args.count)?;
    let base = SyntheticSpec {
        branching: args.branching,
        depth,
        model,
        values,
        seed: args.seed,
    };
    BoundedSyntheticTree::new(base, 0)?;
    let first_guess = args.first_guess.unwrap_or(match model {
        ValueModel::Uniform => values.midpoint(),
        ValueModel::Incremental => values.midpoint() * depth as Value,
    });
    Ok(Plan {
        base,
        count: args.count,
        first_guess,
        options: BStarOptions {
            max_expansions: args.budget,
        },
    })
}

fn write_outputs(
    args: &TreesArgs,
    plan: &Plan,
    rows: &[BStarSummary],
    csv: &str,
) -> Result<(), String> {
    if let Some(path) = &args.csv {
        stockman::files::write_whole(path, csv.as_bytes())
            .map_err(|e| format!("cannot write CSV file '{}': {e}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        let b = &plan.base;
        let title = format!(
            "{} {} trees b={} d={} per width: mean nodes evaluated",
            plan.count, b.model, b.branching, b.depth
        );
        let svg = nodes_chart_over(
            &title,
            Axes {
                x: "interval width at the root",
                nodes: "mean nodes evaluated",
            },
            &chart_series(rows),
            1,
        )?;
        stockman::files::write_whole(path, svg.as_bytes())
            .map_err(|e| format!("cannot write SVG file '{}': {e}", path.display()))?;
    }
    Ok(())
}

/// Parses `W` or `W1,W2,...` (each 0..=MAX_LEAF_VALUE), keeping the order.
pub fn parse_widths(text: &str) -> Result<Vec<Value>, String> {
    let widths = text
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(|w| match w.parse::<Value>() {
            Ok(v) if (0..=MAX_LEAF_VALUE).contains(&v) => Ok(v),
            _ => Err(format!(
                "--width: '{w}' is not a width in 0..={MAX_LEAF_VALUE}"
            )),
        })
        .collect::<Result<Vec<Value>, String>>()?;
    if widths.is_empty() || widths.len() > MAX_WIDTHS {
        return Err(format!(
            "--width: give 1 to {MAX_WIDTHS} widths, comma-separated"
        ));
    }
    Ok(widths)
}

const CSV_HEADER: [&str; 15] = [
    "width",
    "seed",
    "minimax_value",
    "choice",
    "verdict",
    "loss",
    "termination",
    "prove_best",
    "disprove_rest",
    "bstar_expanded",
    "bstar_evaluated",
    "alpha_beta_expanded",
    "alpha_beta_evaluated",
    "mtdf_expanded",
    "mtdf_evaluated",
];

fn csv_row(width: Value, r: &BStarTreeReport) -> [String; 15] {
    let (verdict, loss) = verdict_text(r.verdict);
    [
        width.to_string(),
        r.seed.to_string(),
        r.minimax_value.to_string(),
        r.choice.map_or(String::new(), |c| c.to_string()),
        verdict.to_string(),
        loss.to_string(),
        termination_text(r.termination).to_string(),
        r.prove_best.to_string(),
        r.disprove_rest.to_string(),
        r.bstar.expanded.to_string(),
        r.bstar.evaluated.to_string(),
        r.alpha_beta.expanded.to_string(),
        r.alpha_beta.evaluated.to_string(),
        r.mtd_f.expanded.to_string(),
        r.mtd_f.evaluated.to_string(),
    ]
}

fn verdict_text(v: MoveVerdict) -> (&'static str, Value) {
    match v {
        MoveVerdict::MinimaxBest => ("best", 0),
        MoveVerdict::Worse(loss) => ("worse", loss),
        MoveVerdict::NoMove => ("no-move", 0),
    }
}

pub(crate) fn termination_text(t: Termination) -> &'static str {
    match t {
        Termination::Separated => "separated",
        Termination::BudgetExhausted => "budget-exhausted",
        Termination::NoMoves => "no-moves",
    }
}

fn per_tree_lines(width: Value, reports: &[BStarTreeReport]) -> String {
    let mut out = format!(
        "width {width}: seed, move, verdict, B* stop, B* expanded/evaluated (prove/disprove), \
         alpha-beta expanded/evaluated, mtd(f) expanded/evaluated\n"
    );
    for r in reports {
        let (verdict, loss) = verdict_text(r.verdict);
        let verdict = if loss > 0 {
            format!("{verdict} by {loss}")
        } else {
            verdict.into()
        };
        let _ = writeln!(
            out,
            "  seed {:<6} move {:<4} {:<12} {:<16} B* {}/{} ({}/{})  alpha-beta {}/{}  mtd(f) {}/{}",
            r.seed,
            r.choice.map_or("-".into(), |c| c.to_string()),
            verdict,
            termination_text(r.termination),
            r.bstar.expanded,
            r.bstar.evaluated,
            r.prove_best,
            r.disprove_rest,
            r.alpha_beta.expanded,
            r.alpha_beta.evaluated,
            r.mtd_f.expanded,
            r.mtd_f.evaluated
        );
    }
    out + "\n"
}

/// One row per width: agreement, separation and the mean nodes of each search.
pub fn summary_table(rows: &[BStarSummary]) -> String {
    let mut out = format!(
        "{:>8} {:>7} {:>9} {:>9} | {:>21} | {:>21} | {:>21} | {:>9}\n",
        "width",
        "trees",
        "best",
        "separated",
        "B* expanded/evaluated",
        "a-b expanded/evaluated",
        "mtd(f) expanded/eval",
        "B*/a-b"
    );
    for s in rows {
        let pair = |m: [f64; 2]| format!("{:.1}/{:.1}", m[0], m[1]);
        let ratio = if s.alpha_beta[1] > 0.0 {
            format!("{:.3}", s.bstar[1] / s.alpha_beta[1])
        } else {
            "-".into()
        };
        let _ = writeln!(
            out,
            "{:>8} {:>7} {:>9} {:>9} | {:>21} | {:>21} | {:>21} | {:>9}",
            s.width,
            s.trees,
            s.best,
            s.separated,
            pair(s.bstar),
            pair(s.alpha_beta),
            pair(s.mtd_f),
            ratio
        );
    }
    out + "best: B*'s move has the minimax value; B*/a-b: nodes evaluated (B*: intervals and leaves generated; a-b: leaves)\n"
}

/// Mean nodes evaluated per width for each search (alpha-beta is the baseline).
fn chart_series(rows: &[BStarSummary]) -> Vec<Series> {
    let series = |name: &str, f: &dyn Fn(&BStarSummary) -> f64| Series {
        name: name.into(),
        points: rows
            .iter()
            .map(|s| (s.width.max(0) as u32, f(s).round() as u64))
            .collect(),
    };
    vec![
        series("B*", &|s| s.bstar[1]),
        series("alpha-beta", &|s| s.alpha_beta[1]),
        series("MTD(f)", &|s| s.mtd_f[1]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_parse_as_a_list() {
        assert_eq!(parse_widths("0, 50,400").unwrap(), vec![0, 50, 400]);
        assert!(parse_widths("").is_err());
        assert!(parse_widths("-5").is_err());
        assert!(parse_widths("ten").is_err());
        assert!(parse_widths(&"1,".repeat(40)).is_err());
    }
}
