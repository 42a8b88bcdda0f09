//! `stockman-lab bstar`: B* on the positions of an EPD file with engine-made
//! intervals, beside the engine's AlphaBeta and MTD(f) at a fixed depth; each
//! move is checked against a deeper AlphaBeta search and the EPD's `bm`.

use crate::progress::Progress;
use crate::research::bstar::chess::{ChessBoundedTree, ProbeSpec};
use crate::research::bstar::search::{BStarOptions, b_star};
use crate::research::bstar::trees_cmd::termination_text;
use crate::research::compare::compare_cmd::{MAX_COMPARE_DEPTH, load_epd};
use crate::research::compare::report::measure;
use crate::research::report::stdout::emit;
use crate::research::trees::tree::{MAX_DEPTH, Value};
use clap::Args;
use shakmaty::Position as _;
use shakmaty::san::San;
use std::path::PathBuf;
use stockman::positions::EpdPosition;
use stockman::score::Depth;
use stockman::search::{Algorithm, SearchMode};

/// `stockman-lab bstar --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # B* on the first 100 Win at Chess positions, against their best moves
  stockman-lab bstar --epd positions/wac.epd --limit 100
  # Narrower intervals from deeper probes, with more nodes to expand
  stockman-lab bstar --epd positions/wac.epd --limit 100 --margin 30 --probe-depth 2 --budget 500";

/// `stockman-lab bstar` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
pub struct BStarChessArgs {
    /// EPD file; a `bm` operation, if present, names the best move(s).
    #[arg(long)]
    pub epd: PathBuf,

    /// Half-width of every interval around the probe value, in centipawns.
    #[arg(long, default_value_t = 50, allow_negative_numbers = true)]
    pub margin: Value,

    /// Depth of the engine search that values each node (1..=8).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub probe_depth: i64,

    /// Plies below the root where B*'s tree ends (its nodes are probed leaves).
    #[arg(long, default_value_t = 16)]
    pub horizon: usize,

    /// The most nodes B* expands per position (the root included).
    #[arg(long, default_value_t = 200)]
    pub budget: u64,

    /// Depth of the AlphaBeta and MTD(f) searches compared with B*.
    #[arg(long, default_value_t = 6, allow_negative_numbers = true)]
    pub depth: i64,

    /// Depth of the AlphaBeta search whose move counts as the best one.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true)]
    pub reference_depth: i64,

    /// Only the first N positions.
    #[arg(long)]
    pub limit: Option<usize>,

    /// Transposition table per search (and for B*'s probes), in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

/// What every position is searched with.
#[derive(Copy, Clone, Debug)]
struct Setup {
    probe: ProbeSpec,
    budget: u64,
    depth: Depth,
    reference_depth: Depth,
    hash: usize,
}

/// One position's results.
struct Row {
    line: usize,
    bstar: String,
    stop: &'static str,
    expansions: u64,
    bstar_nodes: u64,
    reference: String,
    alpha_beta: (String, u64),
    mtd_f: (String, u64),
    /// The EPD's best moves in UCI (empty without `bm`).
    best_moves: Vec<String>,
}

/// Runs `stockman-lab bstar`.
pub fn run_bstar_chess(args: &BStarChessArgs) -> Result<(), String> {
    let setup = setup(args)?;
    let text = stockman::files::read_text(
        &args.epd,
        crate::research::compare::compare_cmd::MAX_EPD_BYTES,
    )
    .map_err(|e| format!("EPD file: {e}"))?;
    let mut positions = load_epd(&args.epd)?;
    positions.truncate(args.limit.unwrap_or(usize::MAX));
    let lines: Vec<&str> = text.lines().collect();
    emit(&format!(
        "B* on {} positions from {}: intervals = depth-{} search ± {} cp (mates exact), horizon {}, \
         budget {} expansions; AlphaBeta and MTDf to depth {}; reference AlphaBeta depth {}; \
         Normal mode, one thread\n\n",
        positions.len(),
        args.epd.display(),
        setup.probe.depth,
        setup.probe.margin,
        setup.probe.horizon,
        setup.budget,
        setup.depth,
        setup.reference_depth
    ))?;
    let mut rows = Vec::new();
    let progress = Progress::new("bstar", positions.len());
    for (index, position) in positions.iter().enumerate() {
        let best_moves = lines
            .get(position.line - 1)
            .map_or(Vec::new(), |l| epd_best_moves(l, position));
        rows.push(one_position(setup, position, index, best_moves)?);
        progress.tick();
    }
    progress.finish();
    emit(&(table(&rows) + &totals(&rows, setup)))
}

/// Checks the arguments' ranges.
fn setup(args: &BStarChessArgs) -> Result<Setup, String> {
    let max = i64::from(MAX_COMPARE_DEPTH);
    let in_range = |name: &str, value: i64, lo: i64, hi: i64| {
        if (lo..=hi).contains(&value) {
            Ok(value)
        } else {
            Err(format!("--{name} {value} is out of range ({lo}..={hi})"))
        }
    };
    let margin = in_range("margin", i64::from(args.margin), 0, 5000)?;
    let horizon = in_range("horizon", args.horizon as i64, 1, MAX_DEPTH as i64)?;
    let budget = in_range(
        "budget",
        args.budget.min(i64::MAX as u64) as i64,
        1,
        100_000,
    )?;
    let hash = in_range("hash", args.hash.min(i64::MAX as usize) as i64, 1, 4096)?;
    Ok(Setup {
        probe: ProbeSpec {
            depth: in_range("probe-depth", args.probe_depth, 1, 8)? as Depth,
            margin: margin as Value,
            horizon: horizon as usize,
        },
        budget: budget as u64,
        depth: in_range("depth", args.depth, 1, max)? as Depth,
        reference_depth: in_range("reference-depth", args.reference_depth, 1, max)? as Depth,
        hash: hash as usize,
    })
}

fn one_position(
    setup: Setup,
    position: &EpdPosition,
    index: usize,
    best_moves: Vec<String>,
) -> Result<Row, String> {
    let tree = ChessBoundedTree::new(position.board(), setup.probe, setup.hash)?;
    let outcome = b_star(
        &tree,
        BStarOptions {
            max_expansions: setup.budget,
        },
    );
    let bstar = outcome
        .choice
        .map_or("(none)".into(), |c| tree.root_move(c));
    let mode = SearchMode::Normal;
    let run = |algorithm, d| measure(position, index, algorithm, d, mode, setup.hash);
    let reference = run(Algorithm::AlphaBeta, setup.reference_depth)?;
    let alpha_beta = run(Algorithm::AlphaBeta, setup.depth)?;
    let mtd_f = run(Algorithm::MTDf, setup.depth)?;
    Ok(Row {
        line: position.line,
        bstar,
        stop: termination_text(outcome.termination),
        expansions: outcome.expansions,
        bstar_nodes: tree.engine_nodes(),
        reference: reference.best,
        alpha_beta: (alpha_beta.best, alpha_beta.stats.nodes),
        mtd_f: (mtd_f.best, mtd_f.stats.nodes),
        best_moves,
    })
}

/// The moves of an EPD line's `bm` operation, in UCI (unreadable ones dropped).
pub fn epd_best_moves(line: &str, position: &EpdPosition) -> Vec<String> {
    let Some(start) = line.find(" bm ") else {
        return Vec::new();
    };
    let ops = &line[start + 4..];
    let moves = ops.split(';').next().unwrap_or("");
    moves
        .split_whitespace()
        .filter_map(|san| san.parse::<San>().ok())
        .filter_map(|san| san.to_move(&position.pos).ok())
        .map(|m| m.to_uci(position.pos.castles().mode()).to_string())
        .collect()
}

/// One line per position.
fn table(rows: &[Row]) -> String {
    let mut out = format!(
        "{:>5} {:<7} {:<16} {:>6} {:>11} | {:<7} | {:<7} {:>10} | {:<7} {:>10} | {}\n",
        "line",
        "B*",
        "B* stop",
        "expand",
        "B* nodes",
        "ref",
        "AB",
        "AB nodes",
        "MTDf",
        "MTDf nodes",
        "bm"
    );
    for r in rows {
        out += &format!(
            "{:>5} {:<7} {:<16} {:>6} {:>11} | {:<7} | {:<7} {:>10} | {:<7} {:>10} | {}\n",
            r.line,
            r.bstar,
            r.stop,
            r.expansions,
            r.bstar_nodes,
            r.reference,
            r.alpha_beta.0,
            r.alpha_beta.1,
            r.mtd_f.0,
            r.mtd_f.1,
            r.best_moves.join(" ")
        );
    }
    out
}

/// Separations, agreement with the reference and the `bm`, node totals.
fn totals(rows: &[Row], setup: Setup) -> String {
    let (n, d, rd) = (rows.len(), setup.depth, setup.reference_depth);
    let agree = |f: &dyn Fn(&Row) -> &str| rows.iter().filter(|r| f(r) == r.reference).count();
    let separated = rows.iter().filter(|r| r.stop == "separated").count();
    let sum = |f: &dyn Fn(&Row) -> u64| rows.iter().map(f).sum::<u64>();
    let mut out = format!(
        "\nB* separated on {separated}/{n} positions (the rest ran out of budget)\n\
         same move as the depth-{rd} reference: B* {}/{n}, AlphaBeta d{d} {}/{n}, MTDf d{d} {}/{n}\n\
         engine nodes in total: B* probes {}, AlphaBeta d{d} {}, MTDf d{d} {}\n",
        agree(&|r| &r.bstar),
        agree(&|r| &r.alpha_beta.0),
        agree(&|r| &r.mtd_f.0),
        sum(&|r| r.bstar_nodes),
        sum(&|r| r.alpha_beta.1),
        sum(&|r| r.mtd_f.1),
    );
    let with_bm: Vec<&Row> = rows.iter().filter(|r| !r.best_moves.is_empty()).collect();
    let solved = |f: &dyn Fn(&Row) -> &str| {
        let found = |r: &&&Row| r.best_moves.iter().any(|m| m == f(r));
        with_bm.iter().filter(found).count()
    };
    if !with_bm.is_empty() {
        let m = with_bm.len();
        out += &format!(
            "EPD bm found: B* {}/{m}, AlphaBeta d{d} {}/{m}, MTDf d{d} {}/{m}, reference d{rd} {}/{m}\n",
            solved(&|r| &r.bstar),
            solved(&|r| &r.alpha_beta.0),
            solved(&|r| &r.mtd_f.0),
            solved(&|r| &r.reference),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use stockman::positions::parse_epd_positions;

    #[test]
    fn bm_operations_become_uci_moves() {
        let line =
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";";
        let position = &parse_epd_positions(line).unwrap()[0];
        assert_eq!(epd_best_moves(line, position), ["g3g6"]);
        let two = "K7/8/8/8/8/2k5/8/7R w - - bm Rh2 Kb1?; id \"x\";";
        let position = &parse_epd_positions(two).unwrap()[0];
        // The king cannot reach b1: that move is dropped, not a panic.
        assert_eq!(epd_best_moves(two, position), ["h1h2"]);
        assert!(epd_best_moves("K7/8/8/8/8/2k5/8/7R w - -", position).is_empty());
    }
}
