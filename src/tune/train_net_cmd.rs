//! `stockman train-net`: reads labelled positions (the files `datagen` and
//! `label` write), holds some out for validation, trains the network with
//! Adam and writes the quantized file after every epoch.

use super::dataset::parse_line;
use super::train_net::{Adam, FloatNetwork, Sample, train_epoch};
use super::tune_cmd::positive;
use crate::board::parse_fen;
use crate::files::{PartialFile, write_whole};
use crate::research::progress::Progress;
use crate::rng::SplitMix64;
use clap::Args;
use rayon::prelude::*;
use shakmaty::Position;
use std::path::PathBuf;
use std::time::Instant;

/// `stockman train-net` arguments.
#[derive(Args, Debug, Clone)]
pub struct TrainNetArgs {
    /// Data file of labelled positions, `<FEN> | <eval> | <result>` or
    /// `<FEN> [result]` lines (repeat for several files).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,

    /// Where the network goes (replaced after every epoch, through OUT.partial).
    #[arg(long)]
    pub out: PathBuf,

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

    /// The fraction of positions held out to measure the error on.
    #[arg(long, default_value_t = 0.02, value_parser = fraction)]
    pub validation: f64,

    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
}

fn fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..0.5).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a fraction in [0, 0.5)")),
    }
}

/// Reads every position of `args.data` (file:line errors).
fn load(args: &TrainNetArgs) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in &args.data {
        let text = crate::files::read_text(path, crate::files::MAX_TEXT_BYTES)?;
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
    let pool = super::pool(args.threads.map(|t| t as usize))?;
    pool.install(|| train(args))
}

fn train(args: &TrainNetArgs) -> Result<(), String> {
    // An unwritable --out is found before minutes of reading and training.
    PartialFile::check_writable(&args.out)?;
    let started = Instant::now();
    let mut samples = load(args)?;
    let mut rng = SplitMix64::new(args.seed);
    shuffle(&mut samples, &mut rng);
    let held_out = ((samples.len() as f64 * args.validation) as usize).min(samples.len() - 1);
    let (validation, training) = samples.split_at_mut(held_out);
    eprintln!(
        "train-net: {} positions for training, {} held out, read in {:.1} s",
        training.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );
    let scale = args.scale as f32;
    let mut net = FloatNetwork::random(args.seed);
    let mut adam = Adam::new(&net, args.rate as f32);
    // One unit per position trained on, over every epoch: the estimate
    // moves within an epoch.
    let bar = Progress::new("train-net", training.len() * args.epochs as usize);
    for epoch in 1..=args.epochs {
        bar.set_message(format!("epoch {epoch}/{}", args.epochs));
        let progress = (epoch - 1) as f64 / args.epochs as f64;
        let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
        adam.rate = (args.rate * (0.1 + 0.9 * cosine)) as f32;
        shuffle(training, &mut rng);
        let train_error = train_epoch(
            &mut net,
            &mut adam,
            training,
            args.batch as usize,
            scale,
            |n| bar.inc(n as u64),
        );
        let held = if validation.is_empty() {
            String::new()
        } else {
            format!(", held out {:.6}", net.error(validation, scale))
        };
        // Through OUT.partial: a run killed while writing leaves the
        // previous epoch's network whole.
        write_whole(&args.out, &net.quantize().to_bytes())?;
        bar.log(&format!(
            "train-net: epoch {epoch}/{}: error {train_error:.6}{held}, rate {:.5}, {:.0} s",
            args.epochs,
            adam.rate,
            started.elapsed().as_secs_f64()
        ));
    }
    bar.finish();
    println!(
        "train-net: wrote {} ({} positions, {} epochs)",
        args.out.display(),
        training.len(),
        args.epochs
    );
    Ok(())
}
