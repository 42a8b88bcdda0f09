//! `stockman-lab compare`: every selected engine back end on every position of an
//! EPD file at each depth 1..D (one thread, fresh TT per search); a table per
//! depth relative to AlphaBeta, the Pure-mode value check, CSV and SVG output.

use crate::progress::Progress;
use crate::research::compare::report::{
    Measurement, Totals, csv_text, depth_table, describe, disagreements, measure,
    positions_agreeing,
};
use crate::research::report::chart::{Series, nodes_chart};
use crate::research::report::stdout::emit;
use clap::Args;
use std::path::{Path, PathBuf};
use stockman::positions::{EpdPosition, parse_epd_positions};
use stockman::score::Depth;
use stockman::search::{Algorithm, SearchMode};

/// Deepest depth `compare` accepts.
pub const MAX_COMPARE_DEPTH: Depth = 20;
/// Largest EPD file read, in bytes.
pub const MAX_EPD_BYTES: u64 = 16 << 20;
/// Disagreements printed in full (the rest are counted).
const DISAGREEMENTS_SHOWN: usize = 20;

/// `stockman-lab compare --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # Every back end on the bench positions, depths 1 to 7
  stockman-lab compare --epd positions/bench.epd --depth 7
  # Two back ends in Pure mode, with a CSV table and an SVG chart
  stockman-lab compare --epd positions/bench.epd --depth 5 --pure --algorithms NegaScout,MTDf --csv pure5.csv --svg pure5.svg";

/// `stockman-lab compare` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
pub struct CompareArgs {
    /// EPD file: the FEN is the first four fields (plus the clocks when numeric).
    #[arg(long)]
    pub epd: PathBuf,

    /// Deepest search; every depth 1..=D is run, each from a fresh TT (1..=20).
    #[arg(long, allow_negative_numbers = true)]
    pub depth: i64,

    /// Back ends to compare: `all` or a comma-separated list (AlphaBeta, NegaScout, MTDf, SSS, DUAL).
    #[arg(long, default_value = "all")]
    pub algorithms: String,

    /// Pure mode: exact depth-d values; then every back end must return the same root value.
    #[arg(long)]
    pub pure: bool,

    /// Transposition table size per search, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,

    /// Also write one CSV row per (depth, back end, position) to this file.
    #[arg(long)]
    pub csv: Option<PathBuf>,

    /// Also draw total nodes against depth per back end as an SVG chart.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

/// Parses `all` or a comma-separated list of back-end names (any case),
/// keeping the order given and dropping repeats.
pub fn parse_algorithms(text: &str) -> Result<Vec<Algorithm>, String> {
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(Algorithm::ALL.to_vec());
    }
    let mut chosen = Vec::new();
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let a: Algorithm = name.parse()?;
        if !chosen.contains(&a) {
            chosen.push(a);
        }
    }
    if chosen.is_empty() {
        return Err("no back end given (use 'all' or e.g. 'alphabeta,mtdf')".into());
    }
    Ok(chosen)
}

/// Reads and parses the EPD file, refusing huge or unreadable ones.
pub fn load_epd(path: &Path) -> Result<Vec<EpdPosition>, String> {
    let shown = path.display();
    let text =
        stockman::files::read_text(path, MAX_EPD_BYTES).map_err(|e| format!("EPD file: {e}"))?;
    parse_epd_positions(&text).map_err(|e| format!("EPD file '{shown}':\n{e}"))
}

/// Runs `stockman-lab compare`.
pub fn run_compare(args: &CompareArgs) -> Result<(), String> {
    let (max_depth, algorithms) = checked_limits(args)?;
    let positions = load_epd(&args.epd)?;
    // Unwritable outputs are found before the searches, not after them.
    for (path, what) in [(&args.csv, "CSV"), (&args.svg, "SVG")] {
        if let Some(path) = path {
            stockman::files::PartialFile::check_writable(path)
                .map_err(|e| format!("cannot write {what} file '{}': {e}", path.display()))?;
        }
    }
    let mode = if args.pure {
        SearchMode::Pure
    } else {
        SearchMode::Normal
    };
    let baseline = algorithms
        .iter()
        .copied()
        .find(|&a| a == Algorithm::AlphaBeta)
        .unwrap_or(algorithms[0]);
    let names: Vec<&str> = algorithms.iter().map(|a| a.name()).collect();
    emit(&format!(
        "compare: {} positions from {}, depths 1..{max_depth}, {mode:?} mode, back ends {}; \
         one thread, fresh {} MB TT per search; each search is iterative deepening to its depth\n\n",
        positions.len(),
        args.epd.display(),
        names.join(", "),
        args.hash
    ))?;
    let runs = measure_all(
        &positions,
        &algorithms,
        max_depth,
        mode,
        args.hash,
        baseline,
    )?;
    let found = disagreements(&runs);
    let agreeing = positions_agreeing(positions.len(), &found);
    emit(&agreement_line(mode, agreeing, positions.len()))?;
    write_outputs(
        args,
        &positions,
        &algorithms,
        &runs,
        max_depth,
        mode,
        baseline,
    )?;
    if mode == SearchMode::Pure && !found.is_empty() {
        for d in found.iter().take(DISAGREEMENTS_SHOWN) {
            eprintln!("disagree: {}", describe(d, &positions));
        }
        if found.len() > DISAGREEMENTS_SHOWN {
            eprintln!("... and {} more", found.len() - DISAGREEMENTS_SHOWN);
        }
        return Err(format!(
            "back ends disagree on the root value of {} position(s) in Pure mode",
            positions.len() - agreeing
        ));
    }
    Ok(())
}

/// The depth and back ends asked for, refused with a message when out of
/// range (the hash size too).
fn checked_limits(args: &CompareArgs) -> Result<(Depth, Vec<Algorithm>), String> {
    if !(1..=i64::from(MAX_COMPARE_DEPTH)).contains(&args.depth) {
        return Err(format!(
            "depth {} is out of range (1..={MAX_COMPARE_DEPTH})",
            args.depth
        ));
    }
    let algorithms =
        parse_algorithms(&args.algorithms).map_err(|e| format!("--algorithms: {e}"))?;
    if !(1..=65536).contains(&args.hash) {
        return Err(format!(
            "--hash {} is out of range (1..=65536 MB)",
            args.hash
        ));
    }
    Ok((args.depth as Depth, algorithms))
}

/// Every back end on every position at each depth 1..=`max_depth`, a table
/// per depth on stdout as it completes; every search's measurement.
fn measure_all(
    positions: &[EpdPosition],
    algorithms: &[Algorithm],
    max_depth: Depth,
    mode: SearchMode,
    hash: usize,
    baseline: Algorithm,
) -> Result<Vec<Measurement>, String> {
    let mut runs: Vec<Measurement> = Vec::new();
    for depth in 1..=max_depth {
        let progress = Progress::new(format!("depth {depth}"), positions.len() * algorithms.len());
        let first = runs.len();
        for (index, position) in positions.iter().enumerate() {
            for &algorithm in algorithms {
                runs.push(measure(position, index, algorithm, depth, mode, hash)?);
                progress.tick();
            }
        }
        progress.finish();
        let rows: Vec<(Algorithm, Totals)> = algorithms
            .iter()
            .map(|&algorithm| {
                let totals = Totals::of(runs[first..].iter().filter(|m| m.algorithm == algorithm));
                (algorithm, totals)
            })
            .collect();
        emit(&format!("{}\n", depth_table(depth, &rows, baseline)))?;
    }
    Ok(runs)
}

/// What the root values say: in Pure mode every back end must agree, in
/// Normal mode the count is only reported.
fn agreement_line(mode: SearchMode, agreeing: usize, positions: usize) -> String {
    if mode == SearchMode::Pure {
        format!(
            "values-agree: {agreeing}/{positions} positions at every depth (Pure mode: every back end must return the depth-d minimax value)\n"
        )
    } else {
        format!(
            "normal-mode values: {agreeing}/{positions} positions with the same root value from every back end at every depth \
             (not checked: deeper TT entries may cut off)\n"
        )
    }
}

/// The CSV and the SVG chart, when asked for.
fn write_outputs(
    args: &CompareArgs,
    positions: &[EpdPosition],
    algorithms: &[Algorithm],
    runs: &[Measurement],
    max_depth: Depth,
    mode: SearchMode,
    baseline: Algorithm,
) -> Result<(), String> {
    if let Some(path) = &args.csv {
        write_file(path, &csv_text(runs, mode, positions), "CSV")?;
    }
    if let Some(path) = &args.svg {
        let title = format!(
            "{} positions from {}, {mode:?} mode",
            positions.len(),
            file_name(&args.epd)
        );
        let svg = nodes_chart(
            &title,
            &chart_series(algorithms, runs, max_depth),
            baseline_index(algorithms, baseline),
        )?;
        write_file(path, &svg, "SVG")?;
    }
    Ok(())
}

fn baseline_index(algorithms: &[Algorithm], baseline: Algorithm) -> usize {
    algorithms.iter().position(|&a| a == baseline).unwrap_or(0)
}

/// Total nodes per depth for each back end.
fn chart_series(algorithms: &[Algorithm], runs: &[Measurement], max_depth: Depth) -> Vec<Series> {
    algorithms
        .iter()
        .map(|&a| Series {
            name: a.name().to_string(),
            points: (1..=max_depth)
                .map(|d| {
                    let nodes = runs
                        .iter()
                        .filter(|m| m.algorithm == a && m.depth == d)
                        .map(|m| m.stats.nodes)
                        .sum();
                    (d as u32, nodes)
                })
                .collect(),
        })
        .collect()
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Writes through `NAME.partial`: a failed run keeps an existing file whole.
fn write_file(path: &Path, text: &str, what: &str) -> Result<(), String> {
    stockman::files::write_whole(path, text.as_bytes())
        .map_err(|e| format!("cannot write {what} file '{}': {e}", path.display()))?;
    emit(&format!("wrote {what} to {}\n", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_lists_parse() {
        assert_eq!(parse_algorithms("all").unwrap(), Algorithm::ALL.to_vec());
        assert_eq!(parse_algorithms(" ALL ").unwrap(), Algorithm::ALL.to_vec());
        assert_eq!(
            parse_algorithms("mtdf, alphabeta,MTDF").unwrap(),
            vec![Algorithm::MTDf, Algorithm::AlphaBeta]
        );
        assert!(
            parse_algorithms("mtdf,minimax")
                .unwrap_err()
                .contains("minimax")
        );
        assert!(parse_algorithms(" , ").is_err());
    }

    fn args(epd: &str, depth: i64) -> CompareArgs {
        CompareArgs {
            epd: PathBuf::from(epd),
            depth,
            algorithms: "all".into(),
            pure: true,
            hash: 1,
            csv: None,
            svg: None,
        }
    }

    #[test]
    fn bad_arguments_are_errors_before_any_search() {
        let missing = run_compare(&args("/nonexistent/x.epd", 2)).unwrap_err();
        assert!(missing.contains("EPD file: cannot read"), "{missing}");
        assert!(
            run_compare(&args("positions/bench.epd", 0))
                .unwrap_err()
                .contains("out of range")
        );
        assert!(
            run_compare(&args("positions/bench.epd", 21))
                .unwrap_err()
                .contains("out of range")
        );
        let mut a = args("positions/bench.epd", 2);
        a.algorithms = "negamax".into();
        assert!(run_compare(&a).unwrap_err().contains("unknown algorithm"));
        assert!(
            load_epd(Path::new("src"))
                .unwrap_err()
                .contains("directory")
        );
    }

    #[test]
    fn chart_series_sum_nodes_per_depth() {
        let m = |a, d, n| Measurement {
            position: 0,
            algorithm: a,
            depth: d,
            stats: stockman::search::SearchStats {
                nodes: n,
                ..Default::default()
            },
            score: stockman::score::Score(0),
            best: String::new(),
            time: std::time::Duration::ZERO,
        };
        let runs = [
            m(Algorithm::SSS, 1, 5),
            m(Algorithm::SSS, 1, 7),
            m(Algorithm::SSS, 2, 40),
        ];
        let s = chart_series(&[Algorithm::SSS], &runs, 2);
        assert_eq!(s[0].points, vec![(1, 12), (2, 40)]);
    }
}
