//! What `stockman-lab compare` measures and prints: one search per (position,
//! back end, depth), the per-depth totals table with every figure relative to
//! a baseline back end, the CSV rows, and the root-value agreement check.

use crate::research::report::csv_table::CsvTable;
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use stockman::positions::EpdPosition;
use stockman::score::{Depth, Score};
use stockman::search::{
    Algorithm, Limits, SearchMode, SearchParams, SearchStats, Searcher, search,
};

/// One iterative-deepening search of one position to one depth.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// Index of the position in the list.
    pub position: usize,
    pub algorithm: Algorithm,
    pub depth: Depth,
    pub stats: SearchStats,
    pub score: Score,
    /// UCI text of the best move, `(none)` without legal moves.
    pub best: String,
    pub time: Duration,
}

/// Searches `position` to `depth` (iterations 1..=depth) with one thread, a
/// fresh TT of `hash_mb` and fresh ordering tables.
pub fn measure(
    position: &EpdPosition,
    index: usize,
    algorithm: Algorithm,
    depth: Depth,
    mode: SearchMode,
    hash_mb: usize,
) -> Result<Measurement, String> {
    let board = position.board();
    let mut searcher = Searcher::standalone(board.clone(), hash_mb, mode)?;
    let params = SearchParams {
        algorithm,
        mode,
        move_overhead_ms: 0,
        ..SearchParams::default()
    };
    let started = Instant::now();
    let result = search(&mut searcher, &params, &Limits::depth(depth), &mut |_| {});
    let time = started.elapsed();
    Ok(Measurement {
        position: index,
        algorithm,
        depth,
        stats: result.stats,
        score: result.score,
        best: result.best_move.map_or("(none)".into(), |m| board.uci(m)),
        time,
    })
}

/// One back end's sums over all positions at one depth.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Totals {
    pub nodes: u64,
    pub leaves: u64,
    pub qnodes: u64,
    pub passes: u64,
    pub researches: u64,
    pub millis: f64,
}

impl Totals {
    pub fn of<'a>(runs: impl IntoIterator<Item = &'a Measurement>) -> Totals {
        let mut t = Totals::default();
        for m in runs {
            t.nodes += m.stats.nodes;
            t.leaves += m.stats.leaves;
            t.qnodes += m.stats.qnodes;
            t.passes += m.stats.passes;
            t.researches += m.stats.researches;
            t.millis += m.time.as_secs_f64() * 1000.0;
        }
        t
    }

    fn figures(&self) -> [f64; 6] {
        [
            self.nodes as f64,
            self.leaves as f64,
            self.qnodes as f64,
            self.passes as f64,
            self.researches as f64,
            self.millis,
        ]
    }
}

const COLUMNS: [&str; 6] = [
    "nodes",
    "leaves",
    "qnodes",
    "passes",
    "re-searches",
    "time ms",
];

/// `value / base` with three decimals, `-` when the base is zero.
pub fn ratio(value: f64, base: f64) -> String {
    if base > 0.0 {
        format!("{:.3}", value / base)
    } else {
        "-".into()
    }
}

/// The table of one depth: a row per back end with each figure and its ratio
/// to `baseline`'s. `rows` must contain the baseline.
pub fn depth_table(depth: Depth, rows: &[(Algorithm, Totals)], baseline: Algorithm) -> String {
    let base = rows
        .iter()
        .find(|(a, _)| *a == baseline)
        .map(|(_, t)| t.figures())
        .unwrap_or_default();
    let mut out = format!(
        "depth {depth} (figures summed over all positions; ratio = value / {baseline}'s)\n"
    );
    let _ = write!(out, "{:<10}", "back end");
    for name in COLUMNS {
        let _ = write!(out, " {name:>12} {:>6}", "ratio");
    }
    out.push('\n');
    for (algorithm, totals) in rows {
        let _ = write!(out, "{:<10}", algorithm.name());
        for (i, value) in totals.figures().into_iter().enumerate() {
            let shown = if i == 5 {
                format!("{value:.1}")
            } else {
                format!("{value:.0}")
            };
            let _ = write!(out, " {shown:>12} {:>6}", ratio(value, base[i]));
        }
        out.push('\n');
    }
    out
}

pub const CSV_HEADER: [&str; 14] = [
    "depth",
    "algorithm",
    "mode",
    "line",
    "fen",
    "score",
    "best_move",
    "nodes",
    "leaves",
    "qnodes",
    "passes",
    "researches",
    "seldepth",
    "time_us",
];

/// The CSV file: a header and one row per measurement.
pub fn csv_text(runs: &[Measurement], mode: SearchMode, positions: &[EpdPosition]) -> String {
    let mut table = CsvTable::new(CSV_HEADER);
    for m in runs {
        table.row(csv_row(m, mode, positions));
    }
    table.into_text()
}

/// The fields of one measurement's row.
fn csv_row(m: &Measurement, mode: SearchMode, positions: &[EpdPosition]) -> [String; 14] {
    let p = &positions[m.position];
    let mode = if mode == SearchMode::Pure {
        "pure"
    } else {
        "normal"
    };
    [
        m.depth.to_string(),
        m.algorithm.name().to_string(),
        mode.to_string(),
        p.line.to_string(),
        p.fen.to_string(),
        m.score.0.to_string(),
        m.best.clone(),
        m.stats.nodes.to_string(),
        m.stats.leaves.to_string(),
        m.stats.qnodes.to_string(),
        m.stats.passes.to_string(),
        m.stats.researches.to_string(),
        m.stats.seldepth.to_string(),
        m.time.as_micros().to_string(),
    ]
}

/// Root values that differ between back ends at one (position, depth).
#[derive(Clone, Debug, PartialEq)]
pub struct Disagreement {
    pub position: usize,
    pub depth: Depth,
    pub values: Vec<(Algorithm, Score)>,
}

/// Groups `runs` by (position, depth) and returns where the scores differ.
pub fn disagreements(runs: &[Measurement]) -> Vec<Disagreement> {
    let mut keys: Vec<(usize, Depth)> = runs.iter().map(|m| (m.position, m.depth)).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .filter_map(|(position, depth)| {
            let values: Vec<(Algorithm, Score)> = runs
                .iter()
                .filter(|m| m.position == position && m.depth == depth)
                .map(|m| (m.algorithm, m.score))
                .collect();
            let differ = values.windows(2).any(|w| w[0].1 != w[1].1);
            differ.then_some(Disagreement {
                position,
                depth,
                values,
            })
        })
        .collect()
}

/// Positions with no disagreement at any depth.
pub fn positions_agreeing(position_count: usize, found: &[Disagreement]) -> usize {
    let mut bad: Vec<usize> = found.iter().map(|d| d.position).collect();
    bad.sort_unstable();
    bad.dedup();
    position_count - bad.len()
}

pub fn describe(d: &Disagreement, positions: &[EpdPosition]) -> String {
    let values: Vec<String> = d.values.iter().map(|(a, s)| format!("{a} {s}")).collect();
    format!(
        "line {} depth {}: {} ({})",
        positions[d.position].line,
        d.depth,
        values.join(", "),
        positions[d.position].fen
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use stockman::positions::parse_epd_positions;

    fn fake(
        position: usize,
        algorithm: Algorithm,
        depth: Depth,
        score: i32,
        nodes: u64,
    ) -> Measurement {
        Measurement {
            position,
            algorithm,
            depth,
            stats: SearchStats {
                nodes,
                leaves: nodes / 2,
                passes: 1,
                ..SearchStats::default()
            },
            score: Score(score),
            best: "e2e4".into(),
            time: Duration::from_millis(2),
        }
    }

    #[test]
    fn ratios_and_totals() {
        assert_eq!(ratio(95.0, 100.0), "0.950");
        assert_eq!(ratio(3.0, 0.0), "-");
        let runs = [
            fake(0, Algorithm::MTDf, 2, 0, 10),
            fake(1, Algorithm::MTDf, 2, 0, 30),
        ];
        let t = Totals::of(&runs);
        assert_eq!((t.nodes, t.leaves, t.passes), (40, 20, 2));
        assert!((t.millis - 4.0).abs() < 1e-9);
    }

    #[test]
    fn the_table_has_a_row_per_back_end_relative_to_the_baseline() {
        let ab = Totals::of(&[fake(0, Algorithm::AlphaBeta, 3, 0, 200)]);
        let mtd = Totals::of(&[fake(0, Algorithm::MTDf, 3, 0, 150)]);
        let table = depth_table(
            3,
            &[(Algorithm::AlphaBeta, ab), (Algorithm::MTDf, mtd)],
            Algorithm::AlphaBeta,
        );
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[0].starts_with("depth 3"));
        assert!(lines[2].starts_with("AlphaBeta") && lines[2].contains("1.000"));
        assert!(lines[3].starts_with("MTDf") && lines[3].contains("0.750"));
        // No re-searches for either: the ratio is undefined.
        assert!(lines[3].contains(" 0      -"));
    }

    #[test]
    fn disagreements_are_found_per_position_and_depth() {
        let runs = [
            fake(0, Algorithm::AlphaBeta, 1, 10, 1),
            fake(0, Algorithm::MTDf, 1, 10, 1),
            fake(0, Algorithm::AlphaBeta, 2, 5, 1),
            fake(0, Algorithm::MTDf, 2, 6, 1),
            fake(1, Algorithm::AlphaBeta, 1, -3, 1),
            fake(1, Algorithm::MTDf, 1, -3, 1),
        ];
        let found = disagreements(&runs);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].position, found[0].depth), (0, 2));
        assert_eq!(positions_agreeing(2, &found), 1);
        let positions =
            parse_epd_positions("8/8/8/8/8/8/8/K6k w - - 0 1\n8/8/8/8/8/8/8/K5k1 w - - 0 1\n")
                .unwrap();
        let text = describe(&found[0], &positions);
        assert!(
            text.starts_with("line 1 depth 2: AlphaBeta cp 5, MTDf cp 6"),
            "{text}"
        );
    }

    #[test]
    fn csv_rows_match_the_header() {
        let positions = parse_epd_positions("8/8/8/8/8/8/8/K6k w - - 0 1\n").unwrap();
        let text = csv_text(
            &[fake(0, Algorithm::SSS, 4, -7, 99)],
            SearchMode::Pure,
            &positions,
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(lines[0], CSV_HEADER.join(","));
        assert_eq!(lines[1].split(',').count(), CSV_HEADER.len());
        assert!(lines[1].starts_with("4,SSS,pure,1,8/8/8/8/8/8/8/K6k w - - 0 1,-7,e2e4,99,49,"));
    }

    #[test]
    fn a_real_search_is_measured() {
        let positions = parse_epd_positions("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\n").unwrap();
        let m = measure(&positions[0], 0, Algorithm::MTDf, 3, SearchMode::Pure, 1).unwrap();
        assert_eq!(m.best, "d1d8");
        assert!(m.score.is_mate());
        assert!(m.stats.nodes > 0 && m.stats.passes >= 3);
    }
}
