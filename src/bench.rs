//! `stockman bench`: the node signature OpenBench reads. Every position of the
//! embedded positions/bench.epd is searched to a fixed depth with one thread, a
//! fresh TT and fresh tables; the last line is `<nodes> nodes <nps> nps`.

use crate::nnue::Isa;
use crate::positions::bench_positions;
use crate::score::Depth;
use crate::search::driver::MAX_DEPTH;
use crate::search::{
    Algorithm, Evaluation, Limits, SearchControl, SearchMode, SearchParams, Searcher, search,
};
use crate::tt::TranspositionTable;
use clap::Args;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Depth of a plain `stockman bench`: a few seconds for a release build with
/// the selective search (about 9 million nodes), well inside OpenBench's minute.
/// `stockman bench --help` states it (tests/cli_help.rs holds the two together).
pub const DEFAULT_DEPTH: Depth = 10;
/// Transposition table size for every bench position, in MB.
pub const BENCH_TT_MB: usize = 16;

/// `stockman bench --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # The node signature OpenBench reads, at the default depth
  stockman bench
  # Depth 8 with the MTD(f) back end
  stockman bench 8 --algorithm MTDf";

/// `stockman bench` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
pub struct BenchArgs {
    /// Search depth per position [default: 10, a few seconds].
    #[arg(value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    pub depth: Option<Depth>,

    /// Search back end (AlphaBeta, NegaScout, MTDf, SSS, DUAL; any case).
    #[arg(long, default_value_t = Algorithm::default(), value_parser = parse_algorithm)]
    pub algorithm: Algorithm,

    /// Pure mode: the exact depth-d minimax value, no selectivity.
    #[arg(long)]
    pub pure: bool,

    /// Static evaluation of Normal mode (Network, Classical; any case).
    #[arg(long, default_value_t = Evaluation::default(), value_parser = parse_evaluation)]
    pub evaluation: Evaluation,
}

fn parse_evaluation(s: &str) -> Result<Evaluation, String> {
    s.parse()
}

fn parse_algorithm(s: &str) -> Result<Algorithm, String> {
    s.parse()
}

/// What a bench run adds up to.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchTotals {
    pub positions: usize,
    pub nodes: u64,
    /// Time spent searching (table allocation excluded).
    pub elapsed: Duration,
}

impl BenchTotals {
    /// Nodes per second (searching time only; at least 1 ms counted).
    pub fn nps(&self) -> u64 {
        let ms = self.elapsed.as_millis().max(1);
        (u128::from(self.nodes) * 1000 / ms) as u64
    }
}

/// Runs `stockman bench`.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let mode = if args.pure {
        SearchMode::Pure
    } else {
        SearchMode::Normal
    };
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    // On stderr: stdout is the signature OpenBench reads.
    eprintln!("bench: network kernels {}", Isa::best().name());
    let mut out = io::stdout().lock();
    run_bench(depth, args.algorithm, mode, args.evaluation, &mut out)
        .map(|_| ())
        .map_err(|e| format!("bench: {e}"))
}

/// Searches every bench position to `depth` and writes one line per position,
/// then `<nodes> nodes <nps> nps` as the very last line. Depths outside
/// 1..=MAX_DEPTH are an `InvalidInput` error.
pub fn run_bench(
    depth: Depth,
    algorithm: Algorithm,
    mode: SearchMode,
    evaluation: Evaluation,
    out: &mut impl Write,
) -> io::Result<BenchTotals> {
    let control = Arc::new(SearchControl::default());
    run_bench_until(depth, algorithm, mode, evaluation, out, &control)
}

/// [`run_bench`] that `control.stop()` ends (the UCI `bench`): an
/// `Interrupted` error then, without the closing signature line.
pub fn run_bench_until(
    depth: Depth,
    algorithm: Algorithm,
    mode: SearchMode,
    evaluation: Evaluation,
    out: &mut impl Write,
    control: &Arc<SearchControl>,
) -> io::Result<BenchTotals> {
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("depth {depth} is out of range (1..={MAX_DEPTH})"),
        ));
    }
    let params = SearchParams {
        algorithm,
        mode,
        evaluation,
        move_overhead_ms: 0,
        ..SearchParams::default()
    };
    let limits = Limits::depth(depth);
    let positions = bench_positions();
    let mut totals = BenchTotals::default();
    for (index, position) in positions.iter().enumerate() {
        let board = position.board();
        let tt = TranspositionTable::new(BENCH_TT_MB).map_err(io::Error::other)?;
        let mut searcher = Searcher::new(
            board.clone(),
            Arc::new(tt),
            Box::default(),
            control.clone(),
            mode,
        );
        let started = Instant::now();
        let result = search(&mut searcher, &params, &limits, &mut |_| {});
        if control.is_stopped() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "bench stopped"));
        }
        totals.elapsed += started.elapsed();
        totals.nodes += result.stats.nodes;
        totals.positions += 1;
        let best = result
            .best_move
            .map_or("(none)".to_string(), |m| board.uci(m));
        writeln!(
            out,
            "{:>3}/{} {:<72} bestmove {:<6} score {:<9} nodes {}",
            index + 1,
            positions.len(),
            position.fen,
            best,
            result.score.to_string(),
            result.stats.nodes
        )?;
    }
    writeln!(out, "{} nodes {} nps", totals.nodes, totals.nps())?;
    out.flush()?;
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench_text(depth: Depth, algorithm: Algorithm, mode: SearchMode) -> (String, BenchTotals) {
        let mut out = Vec::new();
        let totals = run_bench(depth, algorithm, mode, Evaluation::default(), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), totals)
    }

    #[test]
    fn last_line_is_the_node_signature() {
        let (text, totals) = bench_text(2, Algorithm::NegaScout, SearchMode::Normal);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 51);
        assert_eq!(totals.positions, 50);
        let last = lines.last().unwrap();
        assert_eq!(
            *last,
            format!("{} nodes {} nps", totals.nodes, totals.nps())
        );
        let per_position: u64 = lines[..50]
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(per_position, totals.nodes);
    }

    #[test]
    fn node_counts_repeat_exactly() {
        for algorithm in [Algorithm::MTDf, Algorithm::AlphaBeta] {
            let a = bench_text(3, algorithm, SearchMode::Pure).1.nodes;
            let b = bench_text(3, algorithm, SearchMode::Pure).1.nodes;
            assert_eq!(a, b, "{algorithm}");
        }
    }

    /// Every back end's Normal-mode signature is deterministic, and none runs
    /// away: a full-window AlphaBeta and the first MT-SSS* / MT-DUAL* passes
    /// (at +-infinity) once searched without any selectivity, 10 to 60 times
    /// NegaScout's nodes at depth 7. Now each stays within a small factor.
    #[test]
    fn every_back_end_has_a_repeatable_signature_of_the_same_order() {
        let depth = 6;
        let negascout = bench_text(depth, Algorithm::NegaScout, SearchMode::Normal)
            .1
            .nodes;
        for algorithm in Algorithm::ALL {
            let (text, totals) = bench_text(depth, algorithm, SearchMode::Normal);
            let (again, _) = bench_text(depth, algorithm, SearchMode::Normal);
            // Every line but the last (which adds the nps) names the
            // position's best move, score and nodes.
            let per_position = |t: &str| t.lines().take(50).collect::<Vec<_>>().join("\n");
            assert_eq!(per_position(&text), per_position(&again), "{algorithm}");
            assert!(
                totals.nodes <= 3 * negascout,
                "{algorithm}: {} nodes at depth {depth}, NegaScout {negascout}",
                totals.nodes
            );
        }
    }

    #[test]
    fn depths_out_of_range_are_refused() {
        let mut out = Vec::new();
        for depth in [0, -1, MAX_DEPTH + 1] {
            let err = run_bench(
                depth,
                Algorithm::NegaScout,
                SearchMode::Normal,
                Evaluation::default(),
                &mut out,
            )
            .unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        }
        assert!(out.is_empty());
    }

    #[test]
    fn nps_never_divides_by_zero() {
        let t = BenchTotals {
            positions: 1,
            nodes: 5000,
            elapsed: Duration::ZERO,
        };
        assert_eq!(t.nps(), 5_000_000);
    }
}
