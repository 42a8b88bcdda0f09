//! `stockman-lab label`: relabels a data file with another engine's judgement
//! of each position (Stockfish's static evaluation, or a fixed search) as
//! White's win probability, engines side by side, written in input order;
//! reports how well the judgement predicts the games' results.

use crate::args::positive;
use crate::data::dataset::parse_line;
use crate::data::label_engine::{Judgement, Probe, UciProcess};
use crate::progress::Progress;
use crate::win_probability::sigmoid;
use clap::{ArgGroup, Args};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};
use stockman::files::{PartialFile, partial_path};

/// Positions one engine labels before it takes the next batch.
const BATCH: usize = 512;
/// The scale at which Stockfish 15.1's static evaluation best predicted the
/// results of Stockman's games (mean squared error 0.0757, docs/results/networks.md).
pub const STOCKFISH_SCALE: f64 = 350.0;
/// The search range and the final step of the best-scale fit.
const SCALE_RANGE: (f64, f64) = (25.0, 2000.0);
const SCALE_STEP: f64 = 1.0;

/// `stockman-lab label --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # Label datagen's positions with Stockfish's static evaluation
  stockman-lab label --data games.txt --out sf.txt --engine /usr/games/stockfish --static-eval
  # With a 10-ply search instead, one thread and 16 MB of hash per engine
  stockman-lab label --data games.txt --out sf-d10.txt --engine stockfish --depth 10 --option Threads=1 --option Hash=16";

/// `stockman-lab label` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
#[command(group(ArgGroup::new("probe").required(true).args(["static_eval", "depth", "nodes"])))]
pub struct LabelArgs {
    /// Data file to relabel (`<FEN> [result]` lines, as datagen writes them).
    #[arg(long)]
    pub data: PathBuf,

    /// Output file (overwritten): `<FEN> | <cp for White> | <label>` lines.
    #[arg(long)]
    pub out: PathBuf,

    /// The labelling UCI engine: a program and its arguments, split at spaces.
    #[arg(long)]
    pub engine: String,

    /// A UCI option for the engine, NAME=VALUE (repeat for several).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
    pub options: Vec<(String, String)>,

    /// Label with Stockfish's static evaluation (its `eval` command).
    #[arg(long)]
    pub static_eval: bool,

    /// Label with the score of a search to this depth (`ucinewgame` first).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,

    /// Label with the score of a search of this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// S of the label 1 / (1 + 10^(-cp / S)); the default is the scale at
    /// which Stockfish 15.1's static evaluation best predicts game results.
    #[arg(long, default_value_t = STOCKFISH_SCALE, value_parser = positive)]
    pub scale: f64,

    /// Engines run side by side [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,

    /// Seconds to wait for one answer before giving up (at most a day).
    #[arg(long, default_value_t = 60.0, value_parser = timeout_seconds)]
    pub timeout: f64,
}

/// The longest `--timeout`: a day.
const MAX_TIMEOUT_SECONDS: f64 = 86_400.0;

fn timeout_seconds(s: &str) -> Result<f64, String> {
    match positive(s)? {
        t if t <= MAX_TIMEOUT_SECONDS => Ok(t),
        _ => Err(format!(
            "'{s}' is more than a day ({MAX_TIMEOUT_SECONDS} s)"
        )),
    }
}

fn name_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().into(), v.trim().into())),
        _ => Err(format!("'{s}' is not NAME=VALUE")),
    }
}

impl LabelArgs {
    fn probe(&self) -> Probe {
        match (self.depth, self.nodes) {
            (Some(d), _) => Probe::Depth(d),
            (_, Some(n)) => Probe::Nodes(n),
            _ => Probe::StaticEval,
        }
    }
}

/// White's win probability for `cp` centipawns at scale `scale`: the
/// tuner's sigmoid with K = 400 / scale.
pub fn win_probability(cp: f64, scale: f64) -> f64 {
    sigmoid(400.0 / scale, cp)
}

/// The label of a judgement: a probability, or `None` without a value.
fn label(j: Judgement, scale: f64) -> Option<f64> {
    match j {
        Judgement::Centipawns(cp) => Some(win_probability(cp, scale)),
        Judgement::Mate(n) => Some(if n > 0 { 1.0 } else { 0.0 }),
        Judgement::Unavailable => None,
    }
}

/// The middle field of an output line: centipawns, or `#N` for a mate.
fn value_text(j: Judgement) -> String {
    match j {
        Judgement::Centipawns(cp) => format!("{cp:.0}"),
        Judgement::Mate(n) => format!("#{n}"),
        Judgement::Unavailable => "none".into(),
    }
}

/// Mean squared error of `win_probability(cp, scale)` against the results.
fn mean_squared_error(pairs: &[(f64, f64)], scale: f64) -> f64 {
    let sum: f64 = pairs
        .iter()
        .map(|&(cp, r)| (win_probability(cp, scale) - r).powi(2))
        .sum();
    sum / pairs.len().max(1) as f64
}

/// The scale (to `SCALE_STEP`) in `SCALE_RANGE` at which the centipawns
/// best predict the results, and its error: a coarse scan, then a fine one
/// around the coarse minimum.
pub fn best_scale(pairs: &[(f64, f64)]) -> (f64, f64) {
    let scan = |from: f64, to: f64, step: f64| {
        let mut best = (from, f64::INFINITY);
        let mut s = from;
        while s <= to {
            let e = mean_squared_error(pairs, s);
            if e < best.1 {
                best = (s, e);
            }
            s += step;
        }
        best
    };
    let coarse_step = 25.0;
    let (coarse, _) = scan(SCALE_RANGE.0, SCALE_RANGE.1, coarse_step);
    scan(
        (coarse - coarse_step).max(SCALE_RANGE.0),
        (coarse + coarse_step).min(SCALE_RANGE.1),
        SCALE_STEP,
    )
}

/// A data file's `#` lines and its (FEN, result) positions.
struct Data {
    comments: Vec<String>,
    positions: Vec<(String, f64)>,
}

fn read_data(path: &Path) -> Result<Data, String> {
    let text = stockman::files::read_text(path, stockman::files::MAX_TEXT_BYTES)?;
    let mut comments = Vec::new();
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            comments.push(line.trim_end().to_string());
            continue;
        }
        match parse_line(line) {
            Ok(Some(p)) => positions.push(p),
            Ok(None) => {}
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), i + 1)),
        }
    }
    if positions.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(Data {
        comments,
        positions,
    })
}

/// Tallies of a run.
#[derive(Default)]
struct Totals {
    unavailable: usize,
    mates: usize,
    /// (centipawns for White, the input's result) for the scale fit.
    pairs: Vec<(f64, f64)>,
}

/// Runs `stockman-lab label`. The labels go to `OUT.partial` first, renamed
/// to `OUT` only when every position is done, so a failed run leaves no
/// half-labelled file that `tune` could take for a whole one.
pub fn run_label(args: &LabelArgs) -> Result<(), String> {
    let mut out = PartialFile::create(&args.out)?;
    let summary = label_into(args, &mut out)?;
    out.finish()?;
    println!("{summary}");
    Ok(())
}

/// Labels `args.data` into `out`; the summary line, printed once the file
/// has its name.
fn label_into(args: &LabelArgs, out: &mut PartialFile) -> Result<String, String> {
    let probe = args.probe();
    let Data {
        comments,
        positions,
    } = read_data(&args.data)?;
    let batches = positions.len().div_ceil(BATCH);
    let engines = start_engines(args, batches)?;
    let engine_name = engines[0].name.clone();
    let partial = partial_path(&args.out);
    let err = |e: std::io::Error| format!("writing {}: {e}", partial.display());
    write_header(out, args, &comments, &engine_name).map_err(err)?;

    let started = Instant::now();
    let mut totals = Totals::default();
    let progress = Progress::new("label", positions.len());
    judge_in_order(engines, &positions, probe, |b, judged| {
        for ((fen, result), j) in positions[b * BATCH..].iter().zip(judged) {
            let Some(p) = label(j, args.scale) else {
                totals.unavailable += 1;
                continue;
            };
            match j {
                Judgement::Centipawns(cp) => totals.pairs.push((cp, *result)),
                _ => totals.mates += 1,
            }
            writeln!(out, "{fen} | {} | {p:.6}", value_text(j)).map_err(err)?;
        }
        let written = b + 1;
        let done = (written * BATCH).min(positions.len());
        progress.set_done(done as u64);
        if written % 16 == 0 || written == batches {
            progress.log(&format!(
                "label: {done}/{} positions, {:.0} per second",
                positions.len(),
                done as f64 / started.elapsed().as_secs_f64().max(1e-3)
            ));
        }
        Ok(())
    })?;
    progress.finish();
    report_against_input(&totals.pairs, args.scale);
    Ok(format!(
        "label: {} positions labelled by {engine_name} ({} mates, {} without a value skipped), \
         written to {}",
        totals.pairs.len() + totals.mates,
        totals.mates,
        totals.unavailable,
        args.out.display()
    ))
}

/// One engine per thread asked for (all cores by default), no more than
/// there are batches.
fn start_engines(args: &LabelArgs, batches: usize) -> Result<Vec<UciProcess>, String> {
    let command: Vec<String> = args.engine.split_whitespace().map(String::from).collect();
    let threads = args
        .threads
        .map(|t| t as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(batches);
    let timeout = Duration::from_secs_f64(args.timeout);
    (0..threads)
        .map(|_| UciProcess::start(&command, &args.options, timeout))
        .collect()
}

/// The input's comments, then how the labels were made: the command and
/// the engine, and what a label means.
fn write_header(
    out: &mut impl Write,
    args: &LabelArgs,
    comments: &[String],
    engine_name: &str,
) -> std::io::Result<()> {
    for c in comments {
        writeln!(out, "{c}")?;
    }
    let options: String = args
        .options
        .iter()
        .map(|(n, v)| format!(" --option \"{n}={v}\""))
        .collect();
    writeln!(
        out,
        "# stockman-lab label --data {} --engine \"{}\"{options} {} --scale {} \
         (engine: {engine_name}; stockman {})",
        args.data.display(),
        args.engine,
        args.probe().describe(),
        args.scale,
        env!("CARGO_PKG_VERSION")
    )?;
    writeln!(
        out,
        "# labels: {engine_name}'s judgement as White's win probability \
         1/(1+10^(-cp/{})), mates 1 or 0; the input's labels replaced",
        args.scale
    )
}

/// Judges `positions` in batches of `BATCH`, each engine on a thread of its
/// own taking the next batch when done, and hands `take` each batch's
/// judgements in input order (batch index, judgements). The first engine
/// failure or error from `take` stops every engine and is returned.
fn judge_in_order(
    engines: Vec<UciProcess>,
    positions: &[(String, f64)],
    probe: Probe,
    mut take: impl FnMut(usize, Vec<Judgement>) -> Result<(), String>,
) -> Result<(), String> {
    let batches = positions.len().div_ceil(BATCH);
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (send, receive) = channel::<(usize, Result<Vec<Judgement>, String>)>();
    std::thread::scope(|scope| -> Result<(), String> {
        for mut engine in engines {
            let send = send.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || {
                loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= batches || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let batch = &positions[b * BATCH..((b + 1) * BATCH).min(positions.len())];
                    let judged: Result<Vec<Judgement>, String> = batch
                        .iter()
                        .map(|(fen, _)| engine.judge(fen, probe))
                        .collect();
                    let stop = judged.is_err();
                    if send.send((b, judged)).is_err() || stop {
                        failed.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut written = 0;
        for (b, judged) in receive {
            let judged = match judged {
                Ok(j) => j,
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            };
            waiting.insert(b, judged);
            while let Some(judged) = waiting.remove(&written) {
                if let Err(e) = take(written, judged) {
                    failed.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                written += 1;
            }
        }
        if written < batches {
            return Err("an engine stopped before the end".into());
        }
        Ok(())
    })
}

/// How well the judgements predict the input's own labels (game results):
/// the error at the scale used and at the best scale, when any position had
/// a centipawn value.
fn report_against_input(pairs: &[(f64, f64)], scale: f64) {
    if pairs.is_empty() {
        return;
    }
    let (best, error) = best_scale(pairs);
    println!(
        "label: against the input's labels: mean squared error {:.6} at scale {scale}; \
         the best scale {best} gives {error:.6}",
        mean_squared_error(pairs, scale),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use stockman::rng::SplitMix64;

    #[test]
    fn win_probability_is_a_logistic_in_centipawns() {
        assert_eq!(win_probability(0.0, 350.0), 0.5);
        assert!((win_probability(350.0, 350.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((win_probability(-350.0, 350.0) - 1.0 / 11.0).abs() < 1e-12);
        assert_eq!(label(Judgement::Mate(3), 350.0), Some(1.0));
        assert_eq!(label(Judgement::Mate(-1), 350.0), Some(0.0));
        assert_eq!(label(Judgement::Unavailable, 350.0), None);
        assert_eq!(value_text(Judgement::Centipawns(-12.4)), "-12");
        assert_eq!(value_text(Judgement::Mate(-2)), "#-2");
    }

    #[test]
    fn the_fit_finds_the_scale_the_results_were_drawn_at() {
        // Results drawn as wins with probability win_probability(cp, 300).
        let mut rng = SplitMix64::new(7);
        let pairs: Vec<(f64, f64)> = (0..40_000)
            .map(|_| {
                let cp = rng.in_range(-800, 800) as f64;
                let p = win_probability(cp, 300.0);
                let draw = rng.in_range(0, 1_000_000) as f64 / 1_000_000.0;
                (cp, if draw < p { 1.0 } else { 0.0 })
            })
            .collect();
        let (scale, error) = best_scale(&pairs);
        assert!((270.0..=330.0).contains(&scale), "fitted {scale}");
        assert!(error <= mean_squared_error(&pairs, 150.0));
        assert!(error <= mean_squared_error(&pairs, 600.0));
    }

    #[test]
    fn options_and_timeouts_are_checked() {
        assert_eq!(
            name_value("Hash=16"),
            Ok(("Hash".to_string(), "16".to_string()))
        );
        assert_eq!(
            name_value("Skill Level = 3"),
            Ok(("Skill Level".to_string(), "3".to_string()))
        );
        assert!(name_value("Hash").is_err());
        assert!(name_value("=3").is_err());
        assert_eq!(timeout_seconds("2.5"), Ok(2.5));
        assert!(timeout_seconds("1e300").is_err());
        assert!(timeout_seconds("0").is_err());
    }
}
