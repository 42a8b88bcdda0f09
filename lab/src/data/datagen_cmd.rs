//! `stockman-lab datagen`: self-play games (or the games of a PGN file) in
//! parallel, written in game order as `<FEN> [result]` lines after `#`
//! lines that say how the data was made, or as binary records with the
//! search scores (`--format bin`); progress on stderr, a summary as the last
//! line of stdout.

use crate::data::datagen::{Ending, GameRecord, MoveLimit, SelfPlay, play_game};
use crate::data::packed::{PackedWriter, Record};
use crate::data::pgn::{game_positions, parse_pgn};
use crate::data::sample::{GameResult, QuietCheck, format_line, keep_at_most};
use crate::progress::Progress;
use clap::{Args, ValueEnum};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use stockman::board::parse_fen;
use stockman::files::PartialFile;
use stockman::nnue::Network;
use stockman::positions::parse_epd_positions;
use stockman::rng::{SplitMix64, mix};
use stockman::score::Depth;
use stockman::search::Evaluation;

/// The default openings: 500 balanced positions 8 plies from the start.
pub const OPENINGS_EPD: &str = include_str!("../../../positions/openings.epd");
/// The deepest `--depth`: a self-play move searched deeper takes minutes.
const MAX_DATAGEN_DEPTH: i64 = 20;

/// Nodes per move when neither `--nodes` nor `--depth` is given.
pub const DEFAULT_NODES: u64 = 5000;

/// `stockman-lab datagen --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # 20,000 self-play games at 5,000 nodes a move, as binary records with scores
  stockman-lab datagen --out games.bin --games 20000 --nodes 5000 --seed 1
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

    /// Nodes searched per move [default: 5000].
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// Fixed search depth per move instead of a node limit (1..=20: deeper
    /// takes minutes to hours per move).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=MAX_DATAGEN_DEPTH))]
    pub depth: Option<Depth>,

    /// Worker threads, one game each [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,

    /// Seed of the opening choice and the random plies (game i depends only on it and i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// EPD file of start positions [default: the embedded positions/openings.epd].
    #[arg(long)]
    pub openings: Option<PathBuf>,

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
    #[arg(long, conflicts_with_all = ["games", "nodes", "depth", "openings", "random_plies", "seed"])]
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

    /// Start no more games after this many seconds: the games in flight
    /// finish and the file is written as for a full run, with fewer games
    /// (a burst on a borrowed machine) [default: no limit].
    #[arg(long, conflicts_with = "pgn", value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub time_limit: Option<u64>,
}

fn parse_evaluation(s: &str) -> Result<Evaluation, String> {
    s.parse()
}

/// The format of datagen's output.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DataFormat {
    Text,
    Bin,
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

/// Tallies of a run.
#[derive(Default)]
struct Totals {
    games: u64,
    positions: u64,
    results: BTreeMap<&'static str, u64>,
    endings: BTreeMap<String, u64>,
    skipped: u64,
}

impl Totals {
    fn add(&mut self, result: GameResult, positions: usize) {
        self.games += 1;
        self.positions += positions as u64;
        let key = match result {
            GameResult::WhiteWins => "+",
            GameResult::Draw => "=",
            GameResult::BlackWins => "-",
        };
        *self.results.entry(key).or_default() += 1;
    }

    fn wdl(&self) -> String {
        let n = |k| self.results.get(k).copied().unwrap_or(0);
        format!("+{} ={} -{}", n("+"), n("="), n("-"))
    }
}

/// Where the positions go: text lines or binary records. Either way the
/// output goes to `OUT.partial`, renamed to `OUT` when every game is
/// written: a failed or killed run leaves an existing `OUT` as it was.
enum Sink {
    Text(PartialFile, PathBuf),
    Bin(PackedWriter),
}

impl Sink {
    fn create(args: &DatagenArgs) -> Result<Sink, String> {
        Ok(match args.data_format() {
            DataFormat::Text => Sink::Text(PartialFile::create(&args.out)?, args.out.clone()),
            DataFormat::Bin => Sink::Bin(PackedWriter::create(&args.out)?),
        })
    }

    /// A `#` line saying how the data was made (binary files have none).
    fn comment(&mut self, text: &str) -> Result<(), String> {
        match self {
            Sink::Text(out, path) => writeln!(out, "# {text}").map_err(io(path)),
            Sink::Bin(_) => Ok(()),
        }
    }

    /// A self-play game's positions (with their scores in binary).
    fn game(&mut self, game: &GameRecord) -> Result<(), String> {
        match self {
            Sink::Text(out, path) => game
                .lines()
                .try_for_each(|line| writeln!(out, "{line}").map_err(io(path))),
            Sink::Bin(out) => game.records().try_for_each(|r| out.write(&r)),
        }
    }

    /// A PGN game's positions: no search score.
    fn fens(&mut self, fens: &[String], result: GameResult) -> Result<(), String> {
        match self {
            Sink::Text(out, path) => fens.iter().try_for_each(|fen| {
                writeln!(out, "{}", format_line(fen, result)).map_err(io(path))
            }),
            Sink::Bin(out) => fens.iter().try_for_each(|fen| {
                let (pos, _) = parse_fen(fen, false)?;
                out.write(&Record::of(&pos, None, Some(result)))
            }),
        }
    }

    fn flush(&mut self) -> Result<(), String> {
        match self {
            Sink::Text(out, path) => out.flush().map_err(io(path)),
            Sink::Bin(out) => out.flush(),
        }
    }

    fn finish(self) -> Result<(), String> {
        match self {
            Sink::Text(out, _) => out.finish(),
            Sink::Bin(out) => out.finish().map(|_| ()),
        }
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("writing {}: {e}", path.display())
}

/// Runs `stockman-lab datagen`.
pub fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    let pool = crate::pool::pool(args.threads.map(|t| t as usize))?;
    let threads = pool.current_num_threads();
    match &args.pgn {
        Some(pgn) => pool.install(|| from_pgn(args, pgn)),
        None => pool.install(|| self_play(args, threads)),
    }
}

fn self_play(args: &DatagenArgs, threads: usize) -> Result<(), String> {
    let games = args.games.ok_or("--games is required without --pgn")?;
    let (openings_text, openings_name) = match &args.openings {
        Some(path) => (
            stockman::files::read_text(path, stockman::files::MAX_TEXT_BYTES)?,
            path.display().to_string(),
        ),
        None => (
            OPENINGS_EPD.to_string(),
            "embedded positions/openings.epd".into(),
        ),
    };
    let openings = parse_epd_positions(&openings_text)
        .map_err(|e| format!("{openings_name}: {e}"))?
        .into_iter()
        .map(|p| p.pos)
        .collect();
    let limit = match (args.nodes, args.depth) {
        (_, Some(d)) => MoveLimit::Depth(d),
        (n, None) => MoveLimit::Nodes(n.unwrap_or(DEFAULT_NODES)),
    };
    let cfg = SelfPlay {
        openings,
        limit,
        seed: args.seed,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        hash_mb: args.hash as usize,
        per_game: args.per_game.map(|n| n as usize),
        evaluation: args.evaluation,
        network: args.network()?,
    };
    let limit_text = match limit {
        MoveLimit::Nodes(n) => format!("--nodes {n}"),
        MoveLimit::Depth(d) => format!("--depth {d}"),
    };
    let mut out = Sink::create(args)?;
    out.comment(&format!(
        "stockman-lab datagen --games {games} {limit_text} --seed {} --random-plies {} \
         --max-plies {} --hash {}{}{}{} (openings: {openings_name}; stockman {})",
        args.seed,
        args.random_plies,
        args.max_plies,
        args.hash,
        args.time_limit_text(),
        args.per_game_text(),
        args.evaluation_text(),
        env!("CARGO_PKG_VERSION")
    ))?;
    out.comment("self-play, labels: the game result for White (1.0, 0.5, 0.0)")?;

    let started = Instant::now();
    let mut totals = Totals::default();
    let chunk = (threads as u64 * 16).max(1);
    let progress = Progress::new("datagen", games as usize);
    let time_limit = args.time_limit.map(Duration::from_secs);
    let mut next = 0;
    while next < games {
        if time_limit.is_some_and(|limit| started.elapsed() >= limit) {
            progress.log(&format!(
                "datagen: --time-limit reached after {next} of {games} games; no more are started"
            ));
            break;
        }
        let end = (next + chunk).min(games);
        let records: Vec<Result<GameRecord, String>> = (next..end)
            .into_par_iter()
            .map(|i| play_game(&cfg, i))
            .collect();
        for (i, record) in (next..end).zip(records) {
            let record = record.map_err(|e| format!("game {i}: {e}"))?;
            out.game(&record)?;
            totals.add(record.result, record.positions.len());
            *totals
                .endings
                .entry(ending_name(record.ending).into())
                .or_default() += 1;
        }
        out.flush()?;
        next = end;
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        progress.set_done(next);
        progress.set_message(format!("{} positions", totals.positions));
        progress.log(&format!(
            "datagen: {next}/{games} games, {} positions, {} (White), {:.2} games/s, \
             {:.0} positions/s ({:.1} per thread)",
            totals.positions,
            totals.wdl(),
            next as f64 / secs,
            totals.positions as f64 / secs,
            totals.positions as f64 / secs / threads as f64
        ));
    }
    progress.finish();
    let endings: Vec<String> = totals
        .endings
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    eprintln!("datagen: endings: {}", endings.join(", "));
    out.finish()?;
    println!(
        "datagen: {} games, {} positions, {} for White, written to {}",
        totals.games,
        totals.positions,
        totals.wdl(),
        args.out.display()
    );
    Ok(())
}

fn ending_name(e: Ending) -> &'static str {
    match e {
        Ending::Checkmate => "checkmate",
        Ending::Stalemate => "stalemate",
        Ending::DrawRule => "draw rule",
        Ending::Resigned => "resigned",
        Ending::DrawAdjudicated => "draw adjudicated",
        Ending::MaxLength => "max length",
    }
}

/// The recorded FENs of one PGN game, or why it was skipped.
type GamePositions = Result<Vec<String>, String>;

fn from_pgn(args: &DatagenArgs, pgn: &Path) -> Result<(), String> {
    let text = stockman::files::read_text(pgn, stockman::files::MAX_TEXT_BYTES)?;
    let games = parse_pgn(&text).map_err(|e| format!("{}: {e}", pgn.display()))?;
    if games.is_empty() {
        return Err(format!("{}: no games", pgn.display()));
    }
    let mut out = Sink::create(args)?;
    out.comment(&format!(
        "stockman-lab datagen --pgn {}{} ({} games; stockman {})",
        pgn.display(),
        args.per_game_text(),
        games.len(),
        env!("CARGO_PKG_VERSION")
    ))?;
    out.comment("positions of the games, labels: the game result for White")?;
    let started = Instant::now();
    let mut totals = Totals::default();
    let chunk = 256;
    let progress = Progress::new("datagen", games.len());
    for (c, part) in games.chunks(chunk).enumerate() {
        let done: Vec<Option<(GameResult, GamePositions)>> = part
            .par_iter()
            .enumerate()
            .map_init(QuietCheck::new, |quiet, (i, g)| {
                g.result().map(|r| {
                    let mut fens = game_positions(g, quiet);
                    if let (Some(n), Ok(fens)) = (args.per_game, &mut fens) {
                        // Game numbers from 1, as the messages count them.
                        let number = (c * chunk + i + 1) as u64;
                        keep_at_most(fens, n as usize, &mut SplitMix64::new(mix(number)));
                    }
                    (r, fens)
                })
            })
            .collect();
        for (i, d) in done.into_iter().enumerate() {
            match d {
                Some((result, Ok(fens))) => {
                    out.fens(&fens, result)?;
                    totals.add(result, fens.len());
                }
                Some((_, Err(e))) => {
                    progress.log(&format!(
                        "datagen: game {}: skipped: {e}",
                        c * chunk + i + 1
                    ));
                    totals.skipped += 1;
                }
                None => totals.skipped += 1,
            }
        }
        out.flush()?;
        progress.inc(part.len() as u64);
        progress.set_message(format!("{} positions", totals.positions));
        progress.log(&format!(
            "datagen: {}/{} games, {} positions, {:.0} positions/s",
            (c * chunk + part.len()),
            games.len(),
            totals.positions,
            totals.positions as f64 / started.elapsed().as_secs_f64().max(1e-3)
        ));
    }
    progress.finish();
    if totals.games == 0 {
        return Err(format!("{}: no game with a result", pgn.display()));
    }
    out.finish()?;
    println!(
        "datagen: {} games ({} skipped), {} positions, {} for White, written to {}",
        totals.games,
        totals.skipped,
        totals.positions,
        totals.wdl(),
        args.out.display()
    );
    Ok(())
}
