//! `datagen --pgn`: the positions of the games of a PGN file that pass
//! self-play's filters, labelled with each game's result, written in the
//! file's order as text lines or binary records without a score.

use crate::data::game_sink::{DataFormat, Sink};
use crate::data::pgn::{PgnGame, game_positions, parse_pgn};
use crate::data::sample::{GameResult, QuietCheck, keep_at_most};
use crate::data::tallies::Totals;
use crate::progress::Progress;
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;
use stockman::rng::{SplitMix64, mix};

/// The recorded FENs of one PGN game, or why it was skipped.
type GamePositions = Result<Vec<String>, String>;

/// Games whose positions are gathered in parallel before they are written.
const CHUNK: usize = 256;

/// Writes the positions of the games of `pgn` to `out`.
pub fn from_pgn(
    pgn: &Path,
    out_path: &Path,
    format: DataFormat,
    per_game: Option<u64>,
) -> Result<(), String> {
    let text = stockman::files::read_text(pgn, stockman::files::MAX_TEXT_BYTES)?;
    let games = parse_pgn(&text).map_err(|e| format!("{}: {e}", pgn.display()))?;
    if games.is_empty() {
        return Err(format!("{}: no games", pgn.display()));
    }
    let mut out = Sink::create(format, out_path)?;
    write_header(&mut out, pgn, per_game, games.len())?;
    let started = Instant::now();
    let mut totals = Totals::default();
    let progress = Progress::new("datagen", games.len());
    for (c, part) in games.chunks(CHUNK).enumerate() {
        let first_number = c * CHUNK + 1;
        let gathered = gather(part, first_number, per_game);
        write_games(&mut out, gathered, first_number, &mut totals, &progress)?;
        progress.inc(part.len() as u64);
        progress.set_message(format!("{} positions", totals.positions));
        progress.log(&format!(
            "datagen: {}/{} games, {} positions, {:.0} positions/s",
            (c * CHUNK + part.len()),
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
        out_path.display()
    );
    Ok(())
}

/// The file's comment lines: the command and what the labels are.
fn write_header(
    out: &mut Sink,
    pgn: &Path,
    per_game: Option<u64>,
    games: usize,
) -> Result<(), String> {
    out.comment(&format!(
        "stockman-lab datagen --pgn {}{} ({} games; stockman {})",
        pgn.display(),
        per_game
            .map(|n| format!(" --per-game {n}"))
            .unwrap_or_default(),
        games,
        env!("CARGO_PKG_VERSION")
    ))?;
    out.comment("positions of the games, labels: the game result for White")
}

/// The result and kept positions of each game of `part`, in parallel;
/// `None` for a game without a result. Games are numbered from
/// `first_number` (from 1, as the messages count them), which seeds the
/// choice of `--per-game`.
fn gather(
    part: &[PgnGame],
    first_number: usize,
    per_game: Option<u64>,
) -> Vec<Option<(GameResult, GamePositions)>> {
    part.par_iter()
        .enumerate()
        .map_init(QuietCheck::new, |quiet, (i, g)| {
            g.result().map(|r| {
                let mut fens = game_positions(g, quiet);
                if let (Some(n), Ok(fens)) = (per_game, &mut fens) {
                    let number = (first_number + i) as u64;
                    keep_at_most(fens, n as usize, &mut SplitMix64::new(mix(number)));
                }
                (r, fens)
            })
        })
        .collect()
}

/// Writes the gathered games in order and counts them; a skipped game is
/// logged with its number.
fn write_games(
    out: &mut Sink,
    gathered: Vec<Option<(GameResult, GamePositions)>>,
    first_number: usize,
    totals: &mut Totals,
    progress: &Progress,
) -> Result<(), String> {
    for (i, game) in gathered.into_iter().enumerate() {
        match game {
            Some((result, Ok(fens))) => {
                out.fens(&fens, result)?;
                totals.add(result, fens.len());
            }
            Some((_, Err(e))) => {
                progress.log(&format!("datagen: game {}: skipped: {e}", first_number + i));
                totals.skipped += 1;
            }
            None => totals.skipped += 1,
        }
    }
    out.flush()
}
