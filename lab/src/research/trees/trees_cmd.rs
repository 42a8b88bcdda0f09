//! `stockman-lab trees`: run the textbook algorithms on seeded synthetic trees (in
//! parallel) or on one tree given by its leaves, and print leaf counts, MT
//! passes and how many trees satisfied SSS* ≡ MT-SSS*.

use crate::research::report::stdout::emit;
use crate::research::trees::experiment::{ExamineOptions, TreeReport, examine};
use crate::research::trees::explicit::ExplicitTree;
use crate::research::trees::leaves::EvaluatedLeaf;
use crate::research::trees::summary::Summary;
use crate::research::trees::synthetic::{
    SyntheticSpec, SyntheticTree, ValueModel, ValueRange, leaf_count,
};
use crate::research::trees::tree::{MAX_DEPTH, Value};
use clap::{ArgGroup, Args, ValueEnum};
use rayon::prelude::*;
use std::path::PathBuf;

/// Synthetic trees larger than this are refused: minimax alone would take
/// too long per tree.
pub const MAX_LEAVES_PER_TREE: u64 = 1 << 25;

/// The most trees one run examines.
pub const MAX_TREE_COUNT: usize = 100_000;

/// `stockman-lab trees --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # Leaves each textbook algorithm evaluates, over 500 random trees
  stockman-lab trees --branching 8 --depth 5 --count 500
  # One explicit tree, with the leaves each algorithm evaluates in order
  stockman-lab trees --leaves \"41 5 12 20 10 30 25 3 34 50 36 35 40 38 2 60\" --branching 2 --trace";

/// `stockman-lab trees` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
#[command(group(ArgGroup::new("shape").required(true).args(["depth", "leaves"])))]
pub struct TreesArgs {
    /// Children per interior node.
    #[arg(long)]
    pub branching: usize,

    /// Depth of the synthetic trees (leaves at this ply).
    #[arg(long)]
    pub depth: Option<usize>,

    /// Number of synthetic trees.
    #[arg(long, default_value_t = 100, conflicts_with = "leaves")]
    pub count: usize,

    /// Seed of the first tree; tree i uses seed + i.
    #[arg(long, default_value_t = 1, conflicts_with = "leaves")]
    pub seed: u64,

    /// How leaf values are drawn.
    #[arg(long, value_enum, default_value_t = ModelArg::Uniform, conflicts_with = "leaves")]
    pub model: ModelArg,

    /// Inclusive range LO..HI of leaf values (uniform) or edge values
    /// (incremental). Narrow ranges give many ties.
    #[arg(
        long,
        default_value = "-1000..1000",
        allow_hyphen_values = true,
        conflicts_with = "leaves"
    )]
    pub values: String,

    /// One explicit tree: leaf values for MAX, left to right, separated by
    /// spaces or commas; their number must be a power of the branching.
    #[arg(long, allow_hyphen_values = true)]
    pub leaves: Option<String>,

    /// MTD(f)'s first guess [default: the middle of the possible root values].
    #[arg(long, allow_hyphen_values = true)]
    pub first_guess: Option<Value>,

    /// Print each algorithm's evaluated leaves in order (leaf index:value).
    #[arg(long)]
    pub trace: bool,

    /// Also write the table rows to this CSV file (with `bstar`: one row per tree).
    #[arg(long)]
    pub csv: Option<PathBuf>,

    /// `textbook`: the nine depth-first and SSS-family algorithms; `bstar`:
    /// B* on trees with intervals, beside alpha-beta and MTD(f).
    #[arg(long, value_enum, default_value_t = TreesAlgorithm::Textbook)]
    pub algorithm: TreesAlgorithm,

    /// B*: interval widths at the root, comma-separated (one table row each);
    /// a node at depth k gets [v - a, v + b], a and b drawn in 0..=W(d-k)/d.
    #[arg(long, default_value = "100")]
    pub width: String,

    /// B*: the most nodes expanded per tree before it stops unseparated.
    #[arg(long, default_value_t = 1_000_000)]
    pub budget: u64,

    /// B*: print one line per tree (move, verdict, nodes of each search).
    #[arg(long)]
    pub per_tree: bool,

    /// B*: draw mean nodes evaluated against interval width as an SVG chart.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

/// Which algorithms `stockman-lab trees` runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum TreesAlgorithm {
    Textbook,
    Bstar,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModelArg {
    Uniform,
    Incremental,
}

impl From<ModelArg> for ValueModel {
    fn from(m: ModelArg) -> ValueModel {
        match m {
            ModelArg::Uniform => ValueModel::Uniform,
            ModelArg::Incremental => ValueModel::Incremental,
        }
    }
}

/// Runs `stockman-lab trees --algorithm textbook` (the caller has checked
/// the arguments that both algorithms share: `crate::research::run_trees`).
pub fn run_textbook(args: &TreesArgs) -> Result<(), String> {
    match &args.leaves {
        Some(leaves) => run_explicit(args, leaves),
        None => run_synthetic(args),
    }
}

fn run_explicit(args: &TreesArgs, leaves: &str) -> Result<(), String> {
    let tree = ExplicitTree::parse(leaves, args.branching)?;
    let lowest = tree.leaves().iter().copied().min().unwrap_or(0);
    let highest = tree.leaves().iter().copied().max().unwrap_or(0);
    let first_guess = args
        .first_guess
        .unwrap_or(midpoint(i64::from(lowest), i64::from(highest)));
    let report = examine(
        &tree,
        ExamineOptions {
            first_guess,
            keep_orders: args.trace,
        },
    );
    emit(&format!(
        "explicit tree: branching {}, depth {}, {} leaves; minimax value {}; mtd(f) first guess {first_guess}\n\n",
        tree.branching(),
        tree.depth(),
        tree.leaves().len(),
        report.minimax_value
    ))?;
    if args.trace {
        emit(&format!("{}\n", trace(&report)))?;
    }
    let reports = [report];
    finish(args, &reports, "explicit", &|_| {
        "the explicit tree".to_string()
    })
}

fn run_synthetic(args: &TreesArgs) -> Result<(), String> {
    let depth = args.depth.expect("clap requires --depth or --leaves");
    let values = ValueRange::parse(&args.values)?;
    let model = ValueModel::from(args.model);
    validate_synthetic(args.branching, depth, args.count)?;
    let spec_of = |i: usize| SyntheticSpec {
        branching: args.branching,
        depth,
        model,
        values,
        seed: args.seed.wrapping_add(i as u64),
    };
    // Validate the shape once; every tree shares it.
    SyntheticTree::new(spec_of(0))?;
    let first_guess = args.first_guess.unwrap_or(match model {
        ValueModel::Uniform => values.midpoint(),
        ValueModel::Incremental => values.midpoint() * depth as Value,
    });
    let options = ExamineOptions {
        first_guess,
        keep_orders: args.trace,
    };
    let leaves = leaf_count(args.branching, depth).unwrap_or(u64::MAX);
    emit(&format!(
        "{} {model} trees: branching {}, depth {depth} ({leaves} leaves each); values {values}; seeds {}..{}; mtd(f) first guess {first_guess}\n\n",
        args.count,
        args.branching,
        args.seed,
        args.seed.wrapping_add(args.count as u64 - 1),
    ))?;
    let reports: Vec<TreeReport> = (0..args.count)
        .into_par_iter()
        .map(|i| {
            let tree = SyntheticTree::new(spec_of(i)).expect("shape validated above");
            examine(&tree, options)
        })
        .collect();
    if args.trace {
        for (i, report) in reports.iter().enumerate() {
            emit(&format!(
                "tree seed {}:\n{}\n",
                spec_of(i).seed,
                trace(report)
            ))?;
        }
    }
    finish(args, &reports, &model.to_string(), &|i| {
        spec_of(i).to_string()
    })
}

/// Rejects shapes that are meaningless or would not finish.
pub(crate) fn validate_synthetic(
    branching: usize,
    depth: usize,
    count: usize,
) -> Result<(), String> {
    if branching == 0 {
        return Err("branching must be at least 1".into());
    }
    if depth > MAX_DEPTH {
        return Err(format!("depth {depth} is too large (at most {MAX_DEPTH})"));
    }
    match leaf_count(branching, depth) {
        Some(n) if n <= MAX_LEAVES_PER_TREE => {}
        _ => {
            return Err(format!(
                "branching {branching} and depth {depth} give more than {MAX_LEAVES_PER_TREE} leaves per tree; \
                 choose a smaller tree"
            ));
        }
    }
    if count == 0 || count > MAX_TREE_COUNT {
        return Err(format!(
            "count must be between 1 and {MAX_TREE_COUNT}, not {count}"
        ));
    }
    Ok(())
}

fn midpoint(lo: i64, hi: i64) -> Value {
    ((lo + hi) / 2) as Value
}

/// Prints the table, reports failed checks, writes the CSV.
fn finish(
    args: &TreesArgs,
    reports: &[TreeReport],
    model: &str,
    describe_tree: &dyn Fn(usize) -> String,
) -> Result<(), String> {
    let summary = Summary::of(reports);
    emit(&summary.table())?;
    let mut wrong_value_trees = 0;
    for (i, report) in reports.iter().enumerate() {
        if !report.all_checks_hold() {
            eprintln!("check failed on {}:", describe_tree(i));
            for failure in &report.failures {
                eprintln!("  {failure}");
            }
        }
        if !report.wrong_values.is_empty() {
            wrong_value_trees += 1;
        }
    }
    if let Some(path) = &args.csv {
        let depth = args.depth.map_or(String::new(), |d| d.to_string());
        let (values, seed) = match args.leaves {
            Some(_) => (String::new(), String::new()),
            None => (args.values.clone(), args.seed.to_string()),
        };
        let context = [
            model.to_string(),
            args.branching.to_string(),
            depth,
            values,
            reports.len().to_string(),
            seed,
        ];
        let csv = summary.csv(
            &[
                "model",
                "branching",
                "depth",
                "values",
                "trees",
                "first_seed",
            ],
            &context,
        );
        stockman::files::write_whole(path, csv.as_bytes())
            .map_err(|e| format!("cannot write CSV file '{}': {e}", path.display()))?;
    }
    if wrong_value_trees > 0 {
        return Err(format!(
            "{wrong_value_trees} tree(s) where an algorithm disagreed with minimax (details above)"
        ));
    }
    Ok(())
}

/// Each algorithm's first-time leaf evaluations in order.
fn trace(report: &TreeReport) -> String {
    let mut out = format!(
        "leaves evaluated in order (leaf index:value for MAX); minimax value {}\n",
        report.minimax_value
    );
    for run in &report.runs {
        let leaves: Vec<String> = run.leaves.order.iter().map(leaf_label).collect();
        out += &format!(
            "  {:<18} {:>5} leaves: {}\n",
            run.algorithm.name(),
            run.leaves.distinct,
            leaves.join(" ")
        );
    }
    out
}

fn leaf_label(leaf: &EvaluatedLeaf) -> String {
    match leaf.index {
        Some(i) => format!("{i}:{}", leaf.value_for_max),
        None => format!("{}:{}", leaf.path, leaf.value_for_max),
    }
}
