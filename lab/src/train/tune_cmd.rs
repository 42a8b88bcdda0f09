//! `stockman-lab tune`: loads and traces the data, fits K (unless given), runs
//! Adam for the epochs asked, and writes the rounded weights with their
//! provenance to `src/eval/tuned.rs` (or `--out`), checkpointing on the way.

use crate::args::positive;
use crate::data::dataset::Dataset;
use crate::train::texel::{
    Model, Penalty, Schedule, Weights, fit_k, occurrences, optimise, to_values, to_weights,
};
use crate::train::writer::{render, wrap, write_file};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use stockman::eval::registry::{Layout, WeightInfo};
use stockman::eval::tapered::S;
use stockman::eval::weights::registry;

/// `stockman-lab tune --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # Tune the evaluation weights on datagen's data; rewrites src/eval/tuned.rs
  stockman-lab tune --data selfplay.txt
  # On labelled data, holding the weights near their start and rare ones fixed
  stockman-lab tune --data sf.txt --l2 0.0002 --min-count 1000";

/// `stockman-lab tune` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
pub struct TuneArgs {
    /// Data file of `<FEN> [result]` lines (repeat for several files).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,

    /// Full passes over the data (one Adam step each); 0 only fits K and
    /// reports the error.
    #[arg(long, default_value_t = 1000)]
    pub epochs: usize,

    /// Adam's step size in centipawns at the start (it decays to a tenth).
    #[arg(long, default_value_t = 1.0, value_parser = positive)]
    pub rate: f64,

    /// Where the tuned weights go (the generated source file).
    #[arg(long, default_value = "src/eval/tuned.rs")]
    pub out: PathBuf,

    /// Sigmoid scale K: sigmoid(e) = 1 / (1 + 10^(-K e / 400)) [default: fitted].
    #[arg(long, value_parser = positive)]
    pub k: Option<f64>,

    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,

    /// Write the weights so far every this many epochs (0: only at the end).
    #[arg(long, default_value_t = 100)]
    pub save_every: usize,

    /// Weights used by fewer positions than this are left as they are
    /// (Adam would otherwise move rare ones as fast as common ones).
    #[arg(long, default_value_t = 100)]
    pub min_count: u64,

    /// L2 penalty towards the starting weights: the objective becomes the
    /// error plus LAMBDA times the sum over the tuned weights (mg and eg
    /// halves) of ((w - w0) / 100 cp)²; so a weight 100 cp from its start
    /// costs LAMBDA. 0.001 mostly holds back rarely used weights and
    /// correlated groups, 0.01 pulls common ones too; 0: no penalty.
    #[arg(long, value_name = "LAMBDA", default_value_t = 0.0, value_parser = non_negative)]
    pub l2: f64,

    /// A weight (by its name in `tuned.rs`, all its elements) the tuner
    /// leaves as it is; repeat for several. For terms whose direction a test
    /// pins down and the data does not see (king shelter, for example).
    #[arg(long, value_name = "NAME")]
    pub freeze: Vec<String>,
}

fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a non-negative number")),
    }
}

/// Runs `stockman-lab tune`.
pub fn run_tune(args: &TuneArgs) -> Result<(), String> {
    let pool = crate::pool::pool(args.threads.map(|t| t as usize))?;
    pool.install(|| tune(args))
}

/// What the provenance note says.
struct Note<'a> {
    args: &'a TuneArgs,
    data: &'a Dataset,
    k: f64,
    fitted: bool,
    before: f64,
    after: f64,
    /// The penalised objective after (the error when there is no penalty).
    objective: f64,
    epochs_done: usize,
}

impl Note<'_> {
    fn lines(&self) -> Vec<String> {
        let files: Vec<String> = self
            .args
            .data
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let done = if self.epochs_done < self.args.epochs {
            format!(
                "{} of {} epochs (checkpoint)",
                self.epochs_done, self.args.epochs
            )
        } else {
            format!("{} epochs", self.epochs_done)
        };
        let mut text = format!(
            "Tuned by `stockman-lab tune` (Texel's method: mean squared error between game \
             results and 1 / (1 + 10^(-K eval / 400)) over the static evaluation, full-batch \
             Adam) on {} ({} positions). K = {:.4} ({}); error {:.6} before, {:.6} after \
             (rounded weights); {done} at rate {} decaying to a tenth.",
            files.join(", "),
            self.data.len(),
            self.k,
            if self.fitted { "fitted" } else { "given" },
            self.before,
            self.after,
            self.args.rate
        );
        if self.args.l2 > 0.0 {
            text += &format!(
                " L2 penalty towards the starting weights, lambda = {} (lambda times the sum \
                 over the tuned weights' halves of ((w - w0) / 100)²); penalised objective \
                 {:.6} after.",
                self.args.l2, self.objective
            );
        }
        text += &format!(
            " Elements used by fewer than {} positions were left as they were.",
            self.args.min_count
        );
        if !self.args.freeze.is_empty() {
            text += &format!(" Held as they were: {}.", self.args.freeze.join(", "));
        }
        if self.data.comments.is_empty() {
            text += " The data files say nothing of how they were made.";
        }
        let mut lines = wrap(&text, 76);
        if !self.data.comments.is_empty() {
            lines.push("The data, in its own words:".into());
            let mut seen = Vec::new();
            for c in &self.data.comments {
                if !seen.contains(c) {
                    lines.extend(wrap(c, 74).into_iter().map(|l| format!("  {l}")));
                    seen.push(c.clone());
                }
            }
        }
        lines
    }
}

fn tune(args: &TuneArgs) -> Result<(), String> {
    // Refuse an output that cannot be written before the long part.
    if args.epochs > 0 {
        stockman::files::PartialFile::check_writable(&args.out)?;
    }
    let reg = registry();
    check_frozen_names(&reg, &args.freeze)?;
    let data = load_data(&args.data)?;
    let layout = Layout::new(&reg);
    let model = Model::new();
    let start = Layout::values(&reg);
    let mut w: Weights = to_weights(&start);
    let (k, before) = match args.k {
        Some(k) => (k, model.error(&data, &w, k)),
        None => fit_k(&model, &data, &w),
    };
    eprintln!("tune: K = {k:.4}, error {before:.6}");
    if args.epochs == 0 {
        println!(
            "tune: {} positions, K = {k:.4}, error {before:.6}",
            data.len()
        );
        return Ok(());
    }
    let mut note = Note {
        args,
        data: &data,
        k,
        fitted: args.k.is_none(),
        before,
        after: before,
        objective: before,
        epochs_done: 0,
    };
    let start_w = w.clone();
    let save = |w: &Weights, note: &mut Note, frozen: &[bool], epochs_done: usize| {
        let values = to_values(w);
        let rounded = to_weights(&values);
        note.after = model.error(&data, &rounded, k);
        let penalty = Penalty {
            lambda: args.l2,
            start: &start_w,
            frozen,
        };
        note.objective = note.after + penalty.value(&rounded);
        note.epochs_done = epochs_done;
        write_file(&args.out, &render(&reg, &values, &note.lines()))?;
        Ok::<_, String>((note.after, note.objective))
    };
    let schedule = Schedule {
        epochs: args.epochs,
        rate: args.rate,
    };
    let frozen = frozen_elements(
        &reg,
        &layout,
        &occurrences(&model, &data, layout.len()),
        args,
    );
    let mut failure = None;
    let tuning = Instant::now();
    optimise(
        &model,
        &data,
        &layout,
        &mut w,
        k,
        schedule,
        &frozen,
        args.l2,
        &mut |epoch, err, objective, w| {
            report_epoch(args, schedule, tuning, epoch, err, objective);
            if args.save_every > 0 && epoch % args.save_every == 0 && epoch < args.epochs {
                match save(w, &mut note, &frozen, epoch) {
                    Ok((e, o)) => eprintln!(
                        "tune: saved {} (rounded error {e:.6}, objective {o:.6})",
                        args.out.display()
                    ),
                    Err(e) => failure = failure.take().or(Some(e)),
                }
            }
        },
    );
    if let Some(e) = failure {
        return Err(e);
    }
    let (after, objective) = save(&w, &mut note, &frozen, args.epochs)?;
    print_changes(&reg, &layout, &start, &to_values(&w));
    print_summary(args, data.len(), k, before, after, objective);
    Ok(())
}

/// Refuses a `--freeze` name that is no weight of the registry.
fn check_frozen_names(reg: &[WeightInfo], freeze: &[String]) -> Result<(), String> {
    match freeze
        .iter()
        .find(|name| !reg.iter().any(|info| info.name == name.as_str()))
    {
        Some(unknown) => Err(format!(
            "--freeze {unknown}: no such weight (the names are those in tuned.rs)"
        )),
        None => Ok(()),
    }
}

/// Loads and traces every data file, saying how many positions and how long.
fn load_data(files: &[PathBuf]) -> Result<Dataset, String> {
    let started = Instant::now();
    let mut data = Dataset::default();
    for path in files {
        data.load_file(path)?;
    }
    eprintln!(
        "tune: {} positions traced in {:.1} s ({} coefficients)",
        data.len(),
        started.elapsed().as_secs_f64(),
        data.coefs.len()
    );
    Ok(data)
}

/// Which weight elements the tuner leaves as they are: those of the weights
/// named by `--freeze`, and those used by fewer than `--min-count` positions
/// (listed on stderr, when used at all).
fn frozen_elements(
    reg: &[WeightInfo],
    layout: &Layout,
    counts: &[u64],
    args: &TuneArgs,
) -> Vec<bool> {
    let mut frozen: Vec<bool> = counts.iter().map(|&n| n < args.min_count).collect();
    let mut rare = Vec::new();
    for (wi, info) in reg.iter().enumerate() {
        let held = args.freeze.iter().any(|name| name == info.name);
        for (i, slot) in layout.slots(wi).enumerate() {
            if counts[slot] > 0 && frozen[slot] {
                rare.push(format!("{} ({})", element_name(info, i), counts[slot]));
            }
            frozen[slot] |= held;
        }
    }
    if !rare.is_empty() {
        eprintln!(
            "tune: {} elements used by fewer than {} positions stay as they are: {}",
            rare.len(),
            args.min_count,
            rare.join(", ")
        );
    }
    frozen
}

/// One epoch's progress line on stderr.
fn report_epoch(
    args: &TuneArgs,
    schedule: Schedule,
    tuning: Instant,
    epoch: usize,
    err: f64,
    objective: f64,
) {
    let penalised = if args.l2 > 0.0 {
        format!(" objective {objective:.6}")
    } else {
        String::new()
    };
    eprintln!(
        "tune: epoch {epoch}/{} error {err:.6}{penalised} rate {:.3} ({:.1} s)",
        args.epochs,
        schedule.rate_at(epoch - 1),
        tuning.elapsed().as_secs_f64()
    );
}

/// The run's one line on stdout: the errors before and after, and where
/// the weights went.
fn print_summary(
    args: &TuneArgs,
    positions: usize,
    k: f64,
    before: f64,
    after: f64,
    objective: f64,
) {
    let penalised = if args.l2 > 0.0 {
        format!(" (objective with L2 {}: {objective:.6})", args.l2)
    } else {
        String::new()
    };
    println!(
        "tune: {positions} positions, K = {k:.4}, error {before:.6} -> {after:.6}{penalised}, {} epochs, \
         written to {}",
        args.epochs,
        args.out.display()
    );
}

/// `NAME` or `NAME[i]`.
fn element_name(info: &WeightInfo, i: usize) -> String {
    match info.shape.len {
        Some(_) => format!("{}[{i}]", info.name),
        None => info.name.to_string(),
    }
}

/// The largest changes, on stderr.
fn print_changes(reg: &[WeightInfo], layout: &Layout, start: &[S], end: &[S]) {
    let mut changes: Vec<(i32, String)> = Vec::new();
    for (wi, info) in reg.iter().enumerate() {
        for (i, slot) in layout.slots(wi).enumerate() {
            let (a, b) = (start[slot], end[slot]);
            let d = (b.mg - a.mg).abs().max((b.eg - a.eg).abs());
            if d > 0 {
                let name = element_name(info, i);
                changes.push((
                    d,
                    format!("{name}: ({}, {}) -> ({}, {})", a.mg, a.eg, b.mg, b.eg),
                ));
            }
        }
    }
    changes.sort_by_key(|c| std::cmp::Reverse(c.0));
    eprintln!("tune: {} elements changed; the largest:", changes.len());
    for (_, text) in changes.iter().take(15) {
        eprintln!("  {text}");
    }
}
