//! `stockman-lab datagen`: its arguments, and the self-play run they make —
//! the games' configuration, the header line and what defines the run for
//! a checkpoint, a fresh start or a resumption, and the summary (the last
//! line of stdout). `--pgn` hands over to `datagen_pgn`.

use crate::data::checkpoint::{Checkpoint, checkpoint_path, content_hash};
use crate::data::datagen::{MoveLimit, SelfPlay};
use crate::data::datagen_pgn::from_pgn;
use crate::data::game_sink::{DataFormat, Sink};
use crate::data::selfplay_run::{Done, RunPlan, Start, play_games};
use crate::data::tallies::Totals;
use clap::Args;
use shakmaty::Chess;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use stockman::files::partial_path;
use stockman::nnue::Network;
use stockman::positions::parse_epd_positions;
use stockman::score::Depth;
use stockman::search::Evaluation;

/// The default openings: 500 balanced positions 8 plies from the start.
pub const OPENINGS_EPD: &str = include_str!("../../../positions/openings.epd");
/// The deepest `--depth`: a self-play move searched deeper takes minutes.
const MAX_DATAGEN_DEPTH: i64 = 20;

/// Nodes per move when neither `--nodes` nor `--depth` nor `--soft-nodes` is given.
pub const DEFAULT_NODES: u64 = 5000;
/// With `--soft-nodes S` alone, the hard limit is this many times S, so it
/// only stops a search that explodes: on the 50 bench positions (one
/// thread, a fresh 8 MB table) soft limits of 2,000, 5,000 and 20,000
/// nodes ended the searches at 1.4 times the limit (median), about 2 times
/// at the 90th percentile and at most 3.2 times (2026-11-28).
pub const HARD_PER_SOFT_NODES: u64 = 4;
/// The share of DFRC starts when `--dfrc-percent` is not given.
pub const DEFAULT_DFRC_PERCENT: u8 = 10;
/// The least time between two checkpoints when `--checkpoint-seconds` is not given.
pub const DEFAULT_CHECKPOINT_SECONDS: u64 = 30;

/// `stockman-lab datagen --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # 20,000 self-play games at 5,000 nodes a move, as binary records with scores
  stockman-lab datagen --out games.bin --games 20000 --nodes 5000 --seed 1
  # A day of data: soft 5,000 / hard 20,000 nodes a move, 10 % DFRC starts
  stockman-lab datagen --out day.bin --games 100000000 --time-limit 86400 --soft-nodes 5000 --nodes 20000 --seed 1
  # The same run after a kill or a power cut: goes on from its last checkpoint
  stockman-lab datagen --out day.bin --games 100000000 --time-limit 86400 --soft-nodes 5000 --nodes 20000 --seed 1 --resume
  # Stopped early for good: day.bin with the games of the last checkpoint
  stockman-lab datagen --out day.bin --games 100000000 --time-limit 1 --soft-nodes 5000 --nodes 20000 --seed 1 --resume
  # The quiet positions of a PGN file's games, as text lines
  stockman-lab datagen --pgn games.pgn --out games.txt";

/// `stockman-lab datagen` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
pub struct DatagenArgs {
    /// Output file (replaced when the run succeeds): `<FEN> [result]` lines,
    /// or binary records (see --format).
    #[arg(long)]
    pub out: PathBuf,

    /// `text`: one `<FEN> [result]` line per position; `bin`: 32-byte
    /// records that also keep the search score (docs/training.md)
    /// [default: bin when --out ends in .bin, else text].
    #[arg(long, value_enum)]
    pub format: Option<DataFormat>,

    /// Number of self-play games.
    #[arg(long, required_unless_present = "pgn",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,

    /// Hard node limit per move: no search goes past it [default: 5000, or
    /// 4 x --soft-nodes when that is given].
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// Soft node limit per move: iterative deepening ends after the
    /// iteration that passed it (no new iteration starts), so each move
    /// ends on a whole iteration; --nodes still bounds that iteration.
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..))]
    pub soft_nodes: Option<u64>,

    /// Fixed search depth per move instead of node limits (1..=20: deeper
    /// takes minutes to hours per move).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=MAX_DATAGEN_DEPTH))]
    pub depth: Option<Depth>,

    /// Worker threads, one game each [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,

    /// Seed of the opening choice, the DFRC starts and the random plies
    /// (game i depends only on it and i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// EPD file of start positions [default: the embedded positions/openings.epd].
    #[arg(long)]
    pub openings: Option<PathBuf>,

    /// Percentage of the games (drawn per game with its seed) that start
    /// from a random double Fischer random position, played with Chess960
    /// castling, instead of an opening.
    #[arg(long, default_value_t = DEFAULT_DFRC_PERCENT, conflicts_with = "pgn",
          value_parser = clap::value_parser!(u8).range(0..=100))]
    pub dfrc_percent: u8,

    /// Random legal plies played after the opening.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub random_plies: u32,

    /// Games reaching this many plies (after the random ones) are adjudicated drawn.
    #[arg(long, default_value_t = 160, value_parser = clap::value_parser!(u32).range(1..=2000))]
    pub max_plies: u32,

    /// Transposition table per game, in MB.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,

    /// Take the positions from the games of this PGN file instead of playing.
    #[arg(long, conflicts_with_all = ["games", "nodes", "soft_nodes", "depth", "openings",
                                      "random_plies", "seed", "resume"])]
    pub pgn: Option<PathBuf>,

    /// The evaluation the players search with: `network` (the engine's) or
    /// `classical` (hand-written; data free of any network's origin).
    #[arg(long, default_value = "network", value_parser = parse_evaluation,
          conflicts_with = "pgn")]
    pub evaluation: Evaluation,

    /// The network the players search with instead of the built-in one (a
    /// file `train-net` wrote), as `setoption name EvalFile` does.
    #[arg(long, conflicts_with = "pgn")]
    pub eval_file: Option<PathBuf>,

    /// Keep at most this many positions of each game, chosen at random with
    /// the game's own seeded generator (with --pgn: one seeded by the game's
    /// number), so a run stays reproducible [default: all of them].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub per_game: Option<u64>,

    /// Start no more games after this many seconds of the run (a resumed
    /// run counts the time before its last checkpoint): the games in
    /// flight finish and the file is written as for a full run, with fewer
    /// games [default: no limit].
    #[arg(long, conflicts_with = "pgn", value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub time_limit: Option<u64>,

    /// Go on with the unfinished run of --out from its checkpoint
    /// (OUT.checkpoint beside OUT.partial), with the same arguments
    /// (--threads, --checkpoint-seconds and --time-limit may differ); the
    /// finished file is the one an uninterrupted run writes (with
    /// --time-limit, its first games: --time-limit 1 ends it at once).
    #[arg(long)]
    pub resume: bool,

    /// The least time between two checkpoints (the games written so far put
    /// on disk and OUT.checkpoint rewritten): a kill loses at most this
    /// much play and the games in flight.
    #[arg(long, default_value_t = DEFAULT_CHECKPOINT_SECONDS, conflicts_with = "pgn",
          value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub checkpoint_seconds: u64,
}

fn parse_evaluation(s: &str) -> Result<Evaluation, String> {
    s.parse()
}

impl DatagenArgs {
    /// `--format`, or the one `--out`'s name asks for.
    fn data_format(&self) -> DataFormat {
        self.format.unwrap_or_else(|| {
            if self.out.extension().is_some_and(|e| e == "bin") {
                DataFormat::Bin
            } else {
                DataFormat::Text
            }
        })
    }

    /// How the players evaluate, as the command line says it ("" by default).
    fn evaluation_text(&self) -> String {
        match (&self.eval_file, self.evaluation) {
            (Some(file), _) => format!(" --eval-file {}", file.display()),
            (None, Evaluation::Classical) => " --evaluation classical".to_string(),
            (None, Evaluation::Network) => String::new(),
        }
    }

    /// The network the players use: `--eval-file`'s or the built-in one.
    fn network(&self) -> Result<Arc<Network>, String> {
        match (&self.eval_file, self.evaluation) {
            (Some(_), Evaluation::Classical) => {
                Err("--eval-file names a network, which --evaluation classical does not use".into())
            }
            (Some(file), Evaluation::Network) => {
                Network::load(&file.display().to_string()).map(Arc::new)
            }
            (None, _) => Ok(Network::embedded()),
        }
    }

    /// The node or depth limits of each move.
    fn move_limit(&self) -> Result<MoveLimit, String> {
        match (self.depth, self.soft_nodes, self.nodes) {
            (Some(d), _, _) => Ok(MoveLimit::Depth(d)),
            (None, Some(soft), Some(hard)) if soft > hard => Err(format!(
                "--soft-nodes {soft} is above --nodes {hard}, the hard limit"
            )),
            (None, Some(soft), hard) => Ok(MoveLimit::Nodes {
                soft: Some(soft),
                hard: hard.unwrap_or(soft.saturating_mul(HARD_PER_SOFT_NODES)),
            }),
            (None, None, hard) => Ok(MoveLimit::Nodes {
                soft: None,
                hard: hard.unwrap_or(DEFAULT_NODES),
            }),
        }
    }

    /// ` --time-limit S` for the header line, or nothing.
    fn time_limit_text(&self) -> String {
        self.time_limit
            .map(|t| format!(" --time-limit {t}"))
            .unwrap_or_default()
    }

    /// ` --per-game N` for the header line, or nothing.
    fn per_game_text(&self) -> String {
        self.per_game
            .map(|n| format!(" --per-game {n}"))
            .unwrap_or_default()
    }
}

/// Runs `stockman-lab datagen`.
pub fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    match &args.pgn {
        Some(pgn) => {
            let pool = crate::pool::pool(args.threads.map(|t| t as usize))?;
            pool.install(|| from_pgn(pgn, &args.out, args.data_format(), args.per_game))
        }
        None => self_play(args),
    }
}

/// The opening positions, their name for the header and their text's hash.
fn openings(args: &DatagenArgs) -> Result<(Vec<Chess>, String, u64), String> {
    let (text, name) = match &args.openings {
        Some(path) => (
            stockman::files::read_text(path, stockman::files::MAX_TEXT_BYTES)?,
            path.display().to_string(),
        ),
        None => (
            OPENINGS_EPD.to_string(),
            "embedded positions/openings.epd".into(),
        ),
    };
    let positions = parse_epd_positions(&text)
        .map_err(|e| format!("{name}: {e}"))?
        .into_iter()
        .map(|p| p.pos)
        .collect();
    Ok((positions, name, content_hash(text.as_bytes())))
}

/// The command that defines the data, as the header line and the
/// checkpoint record it: without `--threads` and `--checkpoint-seconds`,
/// which change nothing in the file, and without `--time-limit`, which
/// only says after how many of the same games it ends (so a resumed run
/// may set another one: `--resume --time-limit 1` finishes the file at
/// its checkpoint).
fn command_text(args: &DatagenArgs, games: u64, limit: MoveLimit) -> String {
    let limit_text = match limit {
        MoveLimit::Nodes { soft: None, hard } => format!("--nodes {hard}"),
        MoveLimit::Nodes {
            soft: Some(soft),
            hard,
        } => format!("--nodes {hard} --soft-nodes {soft}"),
        MoveLimit::Depth(d) => format!("--depth {d}"),
    };
    format!(
        "stockman-lab datagen --games {games} {limit_text} --seed {} --random-plies {} \
         --max-plies {} --hash {} --dfrc-percent {}{}{}",
        args.seed,
        args.random_plies,
        args.max_plies,
        args.hash,
        args.dfrc_percent,
        args.per_game_text(),
        args.evaluation_text(),
    )
}

/// A self-play run: set up, played (from its checkpoint with `--resume`),
/// finished and summed up.
fn self_play(args: &DatagenArgs) -> Result<(), String> {
    let games = args.games.ok_or("--games is required without --pgn")?;
    let threads = match args.threads {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let (openings, openings_name, openings_hash) = openings(args)?;
    let limit = args.move_limit()?;
    let network = args.network()?;
    let version = env!("CARGO_PKG_VERSION");
    let command = command_text(args, games, limit);
    let run_line = format!(
        "{command} --format {} (openings #{openings_hash:016x}; network #{:016x}; stockman {version})",
        args.data_format().name(),
        content_hash(&network.to_bytes()),
    );
    let cfg = SelfPlay {
        openings,
        limit,
        seed: args.seed,
        dfrc_percent: args.dfrc_percent,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        hash_mb: args.hash as usize,
        per_game: args.per_game.map(|n| n as usize),
        evaluation: args.evaluation,
        network,
    };
    let plan = RunPlan {
        cfg: &cfg,
        games,
        threads,
        time_limit: args.time_limit.map(Duration::from_secs),
        checkpoint_every: Duration::from_secs(args.checkpoint_seconds),
        checkpoint_path: checkpoint_path(&args.out),
        run_line,
    };
    let (mut sink, start) = if args.resume {
        resume(args, &plan)?
    } else {
        let header = format!(
            "{command}{} (openings: {openings_name}; stockman {version})",
            args.time_limit_text()
        );
        start_fresh(args, &plan, &header)?
    };
    let done = play_games(&plan, start, &mut sink).map_err(|e| {
        format!(
            "{e}\n{} and {} are kept: the same command with --resume goes on from the last checkpoint",
            partial_path(&args.out).display(),
            plan.checkpoint_path.display()
        )
    })?;
    sink.finish()?;
    if let Err(e) = std::fs::remove_file(&plan.checkpoint_path) {
        eprintln!(
            "datagen: cannot remove {}: {e}",
            plan.checkpoint_path.display()
        );
    }
    summarize(args, &done);
    Ok(())
}

/// A new `OUT.partial` with the header lines, and the checkpoint of its
/// start; refused while an unfinished run's checkpoint is there.
fn start_fresh(args: &DatagenArgs, plan: &RunPlan, header: &str) -> Result<(Sink, Start), String> {
    let checkpoint = &plan.checkpoint_path;
    if checkpoint.exists() {
        return Err(format!(
            "{} is there: a run of {} was not finished. Add --resume to go on with it, \
             or delete {} and {} to start again",
            checkpoint.display(),
            args.out.display(),
            checkpoint.display(),
            partial_path(&args.out).display()
        ));
    }
    let mut sink = Sink::create(args.data_format(), &args.out)?;
    sink.keep_when_unfinished();
    sink.comment(header)?;
    sink.comment("self-play, labels: the game result for White (1.0, 0.5, 0.0)")?;
    let start = Start {
        next_game: 0,
        totals: Totals::default(),
        elapsed: Duration::ZERO,
    };
    Checkpoint {
        run: plan.run_line.clone(),
        next_game: 0,
        bytes: sink.sync()?,
        elapsed: Duration::ZERO,
        totals: Totals::default(),
    }
    .write(checkpoint)?;
    Ok((sink, start))
}

/// The unfinished run's `OUT.partial`, cut to its checkpoint's length, and
/// where it stood; refused without a checkpoint or with other arguments.
fn resume(args: &DatagenArgs, plan: &RunPlan) -> Result<(Sink, Start), String> {
    let path = &plan.checkpoint_path;
    if !path.exists() {
        return Err(format!(
            "--resume: there is no checkpoint {}: no unfinished run of {} to go on with \
             (start one without --resume)",
            path.display(),
            args.out.display()
        ));
    }
    let checkpoint = Checkpoint::read(path)?;
    if checkpoint.run != plan.run_line {
        return Err(format!(
            "--resume: {} is the checkpoint of another run; the arguments must be the same \
             (--threads, --checkpoint-seconds and --time-limit aside):\n  the run:  {}\n  now:      {}",
            path.display(),
            checkpoint.run,
            plan.run_line
        ));
    }
    let sink = Sink::resume(args.data_format(), &args.out, checkpoint.bytes)?;
    eprintln!(
        "datagen: resuming {} at game {} of {} ({} positions written)",
        args.out.display(),
        checkpoint.next_game,
        plan.games,
        checkpoint.totals.positions
    );
    let start = Start {
        next_game: checkpoint.next_game,
        totals: checkpoint.totals,
        elapsed: checkpoint.elapsed,
    };
    Ok((sink, start))
}

/// The endings and the positions left out on stderr, the summary as the
/// last line of stdout.
fn summarize(args: &DatagenArgs, done: &Done) {
    let t = &done.totals;
    eprintln!("datagen: endings: {}", t.endings_text());
    eprintln!("datagen: positions not kept: {}", t.unkept_text());
    let per_second = t.positions as f64 / done.elapsed.as_secs_f64().max(1e-3);
    println!(
        "datagen: {} games, {} positions, {} for White, {} from DFRC starts, \
         {per_second:.0} positions/s, written to {}",
        t.games,
        t.positions,
        t.wdl(),
        t.dfrc_games,
        args.out.display()
    );
}
