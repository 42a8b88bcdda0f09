//! `stockman-lab train-net`: reads labelled positions (the text files `datagen`
//! and `label` write, or binary records, whose labels blend the search score
//! and the game result), holds some out for validation, trains the network
//! with Adam and writes the quantized file after every epoch.

use crate::args::positive;
use crate::data::dataset::parse_line;
use crate::data::packed::{
    RECORD_BYTES, Record, chunk_array, for_each_chunk, for_each_record, is_packed_file,
    record_place,
};
use crate::data::sample::GameResult;
use crate::progress::Progress;
use crate::train::king_layouts::king_layout;
use crate::train::scale_fit::{error_at, fit_scale, undecided};
use crate::train::train_net::{Adam, FloatNetwork, Minibatch, Sample, train_epoch};
use crate::train::warm_start;
use crate::win_probability::sigmoid;
use clap::Args;
use rayon::prelude::*;
use shakmaty::Position;
use std::path::{Path, PathBuf};
use std::time::Instant;
use stockman::board::parse_fen;
use stockman::files::{PartialFile, write_whole};
use stockman::nnue::{KingBuckets, Network};
use stockman::rng::SplitMix64;

/// `stockman-lab train-net --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # The scale S that fits the records' scores to their games' results
  stockman-lab train-net --fit-scale --data games.bin
  # Train with the S it printed; play with `setoption name EvalFile value my.nnue`
  stockman-lab train-net --data games.bin --scale 483 --out my.nnue";

/// Hidden units per side of a network trained from random weights.
const DEFAULT_HIDDEN: usize = 128;

/// `stockman-lab train-net` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
pub struct TrainNetArgs {
    /// Data file of labelled positions: `<FEN> | <eval> | <label>` or
    /// `<FEN> [result]` lines, or binary records (a `.bin` name or the
    /// STKDATA1 magic; see --lambda). Repeat for several files.
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,

    /// Where the network goes (replaced after every epoch, through OUT.partial).
    #[arg(long, required_unless_present = "fit_scale")]
    pub out: Option<PathBuf>,

    /// Full passes over the training positions.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub epochs: u64,

    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub batch: u64,

    /// Adam's step size at the start; it falls to a tenth by the last
    /// epoch along a cosine.
    #[arg(long, default_value_t = 0.002, value_parser = positive)]
    pub rate: f64,

    /// Sigmoid scale S of the labels: a label is 1 / (1 + 10^(-eval / S)),
    /// so the network learns centipawns on the labeller's scale.
    #[arg(long, default_value_t = 350.0, value_parser = positive)]
    pub scale: f64,

    /// Print the scale S that fits the binary records' scores to their
    /// games' results best, and exit without training (then train with
    /// `--scale S`).
    #[arg(long)]
    pub fit_scale: bool,

    /// Binary records' label: L·p + (1 − L)·result, p the score's win
    /// probability 1 / (1 + 10^(-score / S)) (S: --scale) and result the
    /// game's (1, ½, 0); a record without a score or without a result is
    /// labelled by the other alone. Text lines keep their own label.
    #[arg(long, default_value_t = 0.5, value_parser = unit_interval)]
    pub lambda: f64,

    /// The fraction of positions held out to measure the error on.
    #[arg(long, default_value_t = 0.02, value_parser = fraction)]
    pub validation: f64,

    /// Measure the held-out error on the positions of these files (other
    /// games than the training data's, say another datagen seed) instead of
    /// holding out a fraction of --data, which shares games with the
    /// positions trained on. Repeat for several files.
    #[arg(long, conflicts_with = "validation")]
    pub validation_data: Vec<PathBuf>,

    /// Also train on every training position mirrored left to right (files
    /// a and h swapped), which has the same value, except where a king and
    /// a rook still stand on their starting squares (castling may be
    /// possible there); the held-out positions are left as read.
    #[arg(long)]
    pub mirror: bool,

    /// Hidden units per side: 128, 256, 512, 768 or 1024 [default: 128,
    /// or --init's width].
    #[arg(long)]
    pub hidden: Option<usize>,

    /// Start from this network's weights instead of random ones (a file
    /// the engine reads): its width, its output layers (or one copied into
    /// each of --output-buckets), its input set (the factoriser of a
    /// --king-buckets layout of several sets, whose sets start at zero) or
    /// its king buckets (the same layout). Refines a network on new data;
    /// give a smaller --rate than a run from random weights.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,

    /// King buckets: the input weight set each side's king square picks.
    /// `none` (one set, the networks before 1.1), `mirror` (one set; a king
    /// on files e-h sees the board mirrored a<->h), and mirrored layouts of
    /// `4` (by rank: 1, 2, 3-4, 5-8), `8` or `16` sets, each trained with a
    /// factoriser (a set shared by all, folded into each when written).
    #[arg(long, default_value = "none", value_parser = king_layout)]
    pub king_buckets: KingBuckets,

    /// Output layers, one per range of piece counts (8: 2-5 pieces, 6-9,
    /// ..., 30-32); 1 makes the single-output network [default: 1, or
    /// --init's].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=stockman::nnue::MAX_BUCKETS as u64))]
    pub output_buckets: Option<u64>,

    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
}

/// The input layer as the first line says it: `768`, or the sets, their
/// mirror and the factoriser (`8x768 mirrored + factoriser`).
fn input_shape(kings: KingBuckets, factorised: bool) -> String {
    if kings.is_none() {
        return "768".to_string();
    }
    format!(
        "{}x768{}{}",
        kings.count(),
        if kings.mirrored() { " mirrored" } else { "" },
        if factorised { " + factoriser" } else { "" }
    )
}

fn fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..0.5).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a fraction in [0, 0.5)")),
    }
}

fn unit_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number in [0, 1]")),
    }
}

/// Binary records read and unpacked together.
const CHUNK_RECORDS: usize = 1 << 16;

/// White's expected result for a record: lambda · p(score) + (1 − lambda)
/// · result, or the one of them the record has.
fn record_label(r: &Record, lambda: f64, scale: f64) -> f64 {
    let from_score = r.score.map(|cp| sigmoid(400.0 / scale, f64::from(cp)));
    let from_result = r.result.map(GameResult::white_score);
    match (from_score, from_result) {
        (Some(p), Some(w)) => lambda * p + (1.0 - lambda) * w,
        (Some(p), None) => p,
        (None, Some(w)) => w,
        // `Record::unpack` refuses a record with neither.
        (None, None) => 0.5,
    }
}

/// The samples of a binary file, unpacked in parallel (record errors).
fn load_packed(path: &Path, args: &TrainNetArgs, samples: &mut Vec<Sample>) -> Result<(), String> {
    for_each_chunk(path, CHUNK_RECORDS, |first, bytes| {
        let parsed: Result<Vec<Sample>, String> = bytes
            .par_chunks_exact(RECORD_BYTES)
            .enumerate()
            .map(|(i, chunk)| {
                let at = |e: String| {
                    format!(
                        "{}: {}: {e}",
                        path.display(),
                        record_place(first + i as u64)
                    )
                };
                let r = Record::unpack(chunk_array(chunk)?).map_err(at)?;
                let label = record_label(&r, args.lambda, args.scale) as f32;
                Sample::new(&r.board, r.turn, label).map_err(at)
            })
            .collect();
        samples.extend(parsed?);
        Ok(())
    })
    .map(|_| ())
}

/// The samples of a text file, parsed in parallel (file:line errors).
fn load_text(path: &Path, samples: &mut Vec<Sample>) -> Result<(), String> {
    let text = stockman::files::read_text(path, stockman::files::MAX_TEXT_BYTES)?;
    let lines: Vec<(usize, &str)> = text.lines().enumerate().collect();
    let parsed: Result<Vec<Option<Sample>>, String> = lines
        .par_iter()
        .map(|&(i, line)| {
            let at = |e: String| format!("{}:{}: {e}", path.display(), i + 1);
            let Some((fen, result)) = parse_line(line).map_err(at)? else {
                return Ok(None);
            };
            let (pos, _) = parse_fen(&fen, false).map_err(at)?;
            Sample::new(pos.board(), pos.turn(), result as f32)
                .map(Some)
                .map_err(at)
        })
        .collect();
    samples.extend(parsed?.into_iter().flatten());
    Ok(())
}

/// Reads every position of `paths`.
fn load(paths: &[PathBuf], args: &TrainNetArgs) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        if is_packed_file(path) {
            load_packed(path, args, &mut samples)?;
        } else {
            load_text(path, &mut samples)?;
        }
    }
    if samples.is_empty() {
        return Err("no positions in the data".to_string());
    }
    Ok(samples)
}

fn shuffle<T>(items: &mut [T], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

pub fn run_train_net(args: &TrainNetArgs) -> Result<(), String> {
    let pool = crate::pool::pool(args.threads.map(|t| t as usize))?;
    if args.fit_scale {
        return pool.install(|| print_fitted_scale(args));
    }
    pool.install(|| train(args))
}

/// `--fit-scale`: the scale that fits the records' scores to their results.
fn print_fitted_scale(args: &TrainNetArgs) -> Result<(), String> {
    let mut pairs: Vec<(i16, f64)> = Vec::new();
    for path in &args.data {
        if !is_packed_file(path) {
            return Err(format!(
                "{}: --fit-scale reads binary records (scores and results)",
                path.display()
            ));
        }
        for_each_record(path, |r| {
            if let (Some(score), Some(result)) = (r.score, r.result) {
                pairs.push((score, result.white_score()));
            }
        })?;
    }
    let (scale, error) =
        fit_scale(&pairs).ok_or("no record with both a score (below 2000 cp) and a result")?;
    let kept = undecided(&pairs);
    println!(
        "train-net: scale {scale:.0} fits the results of {} records best (error {error:.6}; at --scale {}: {:.6})",
        kept.len(),
        args.scale,
        error_at(&kept, args.scale)
    );
    Ok(())
}

fn train(args: &TrainNetArgs) -> Result<(), String> {
    // A bad width or an unwritable --out is found before minutes of reading
    // and training.
    let mut net = first_network(args)?;
    let out = args.out.as_ref().ok_or("--out names the network file")?;
    PartialFile::check_writable(out)?;
    let started = Instant::now();
    let mut rng = SplitMix64::new(args.seed);
    let (mut training, validation) = training_and_validation(args, &mut rng)?;
    let mirrored = add_mirrors(args, &net, &mut training);
    eprintln!(
        "train-net: {} -> 2x{} -> 1 ({} output {}){}, {} positions for training{mirrored}, {} held out, read in {:.1} s",
        input_shape(net.kings(), net.factorised()),
        net.hidden_units(),
        net.buckets(),
        if net.buckets() == 1 {
            "layer"
        } else {
            "buckets"
        },
        match &args.init {
            Some(path) => format!(", from {}", path.display()),
            None => String::new(),
        },
        training.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );
    let scale = args.scale as f32;
    let mut adam = Adam::new(&net, args.rate as f32);
    let batch = (args.batch as usize).min(training.len());
    let mut room = Minibatch::new(&net, batch);
    // One unit per position trained on, over every epoch: the estimate
    // moves within an epoch.
    let bar = Progress::new("train-net", training.len() * args.epochs as usize);
    for epoch in 1..=args.epochs {
        bar.set_message(format!("epoch {epoch}/{}", args.epochs));
        adam.rate = rate_at(args, epoch);
        shuffle(&mut training, &mut rng);
        let pass = Instant::now();
        let train_error = train_epoch(
            &mut net,
            &mut adam,
            &mut room,
            &training,
            batch,
            scale,
            |n, error| {
                bar.set_message(format!("epoch {epoch}/{}, error {error:.6}", args.epochs));
                bar.inc(n as u64)
            },
        );
        let speed = training.len() as f64 / pass.elapsed().as_secs_f64();
        let held = if validation.is_empty() {
            String::new()
        } else {
            format!(", held out {:.6}", net.error(&validation, scale))
        };
        // Through OUT.partial: a run killed while writing leaves the
        // previous epoch's network whole.
        write_whole(out, &net.quantize().to_bytes())?;
        bar.log(&format!(
            "train-net: epoch {epoch}/{}: error {train_error:.6}{held}, rate {:.5}, {speed:.0} positions/s, {:.0} s",
            args.epochs,
            adam.rate,
            started.elapsed().as_secs_f64()
        ));
    }
    bar.finish();
    println!(
        "train-net: wrote {} ({} positions, {} epochs)",
        out.display(),
        training.len(),
        args.epochs
    );
    Ok(())
}

/// The network training starts from: `--init`'s weights, or random ones
/// of the shape asked for.
fn first_network(args: &TrainNetArgs) -> Result<FloatNetwork, String> {
    let buckets = args.output_buckets.map(|b| b as usize);
    let Some(path) = &args.init else {
        let hidden = args.hidden.unwrap_or(DEFAULT_HIDDEN);
        return FloatNetwork::random(hidden, buckets.unwrap_or(1), args.king_buckets, args.seed);
    };
    let start = Network::load(&path.to_string_lossy())?;
    if let Some(hidden) = args.hidden.filter(|&h| h != start.hidden()) {
        return Err(format!(
            "{}: --init is {} units wide, not --hidden {hidden}",
            path.display(),
            start.hidden()
        ));
    }
    warm_start::from_network(
        &start,
        buckets.unwrap_or(start.buckets()),
        args.king_buckets,
    )
    .map_err(|e| format!("{}: {e}", path.display()))
}

/// The positions to train on and those to measure on, shuffled: a share
/// of `--data` held out, or all of `--validation-data` when given.
fn training_and_validation(
    args: &TrainNetArgs,
    rng: &mut SplitMix64,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let mut samples = load(&args.data, args)?;
    shuffle(&mut samples, rng);
    if args.validation_data.is_empty() {
        let held_out = ((samples.len() as f64 * args.validation) as usize).min(samples.len() - 1);
        let training = samples.split_off(held_out);
        Ok((training, samples))
    } else {
        Ok((samples, load(&args.validation_data, args)?))
    }
}

/// With `--mirror`, adds each training position's left-right mirror (after
/// the split, so no position is held out while its mirror is trained on);
/// what the start line says of it.
fn add_mirrors(args: &TrainNetArgs, net: &FloatNetwork, training: &mut Vec<Sample>) -> String {
    if !args.mirror {
        return String::new();
    }
    if net.kings().mirrored() {
        // Each side then sees a position and its mirror alike: the same
        // inputs, nothing more to learn.
        return " (--mirror skipped: the layout mirrors)".to_string();
    }
    let mirrors: Vec<Sample> = training
        .par_iter()
        .filter_map(Sample::file_mirrored)
        .collect();
    let said = format!(" ({} of them mirrors)", mirrors.len());
    training.extend(mirrors);
    said
}

/// Adam's step size in epoch `epoch` (from 1): `--rate` falling along half
/// a cosine towards a tenth of it.
fn rate_at(args: &TrainNetArgs, epoch: u64) -> f32 {
    let progress = (epoch - 1) as f64 / args.epochs as f64;
    let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
    (args.rate * (0.1 + 0.9 * cosine)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    #[test]
    fn record_labels_blend_score_and_result() {
        let pos = Chess::default();
        let label =
            |score, result, lambda| record_label(&Record::of(&pos, score, result), lambda, 400.0);
        let win = Some(GameResult::WhiteWins);
        // 400 cp at scale 400: 10 to 1, p = 10/11.
        let p = 10.0 / 11.0;
        assert!((label(Some(400), win, 0.5) - (0.5 * p + 0.5)).abs() < 1e-9);
        assert!((label(Some(400), win, 1.0) - p).abs() < 1e-9);
        assert_eq!(label(Some(400), win, 0.0), 1.0);
        assert!((label(Some(-400), None, 0.0) - (1.0 - p)).abs() < 1e-9);
        assert_eq!(label(None, Some(GameResult::Draw), 1.0), 0.5);
        assert!(unit_interval("1.5").is_err() && unit_interval("0.25").is_ok());
    }
}
