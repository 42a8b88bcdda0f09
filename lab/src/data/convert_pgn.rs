//! `stockman-lab convert --pgn`: games whose move comments carry the
//! engine's score (fastchess, cutechess, OpenBench, tools/match.py) into
//! binary records. Each scored move gives the position before it with the
//! mover's score turned to White's and the game's result, through the same
//! filters as self-play (`filters::keep_position`). Mate scores are skipped, as
//! self-play skips them; other scores are clamped to ±`MAX_SCORE`. A game
//! that cannot be replayed, or has no result, is skipped and counted.

use crate::data::filters::{Unkept, keep_position};
use crate::data::packed::{HEADER_BYTES, PackedWriter, RECORD_BYTES, Record, clamp_score};
use crate::data::pgn::{CommentScore, PgnGame, comment_score, parse_pgn};
use crate::data::sample::QuietCheck;
use rayon::prelude::*;
use std::path::Path;

/// Games converted together (in parallel, written in order).
const BATCH_GAMES: usize = 256;

/// Tallies of a run, or of one game.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct PgnCounts {
    pub games: u64,
    /// Games skipped whole: no result, an illegal move, a variant.
    pub bad_games: u64,
    pub records: u64,
    /// Moves skipped: without a score in their comment (`book`, none) ...
    pub no_score: u64,
    /// ... with a mate score ...
    pub mate: u64,
    /// ... and those `keep_position` refuses, by its reason.
    pub opening: u64,
    pub in_check: u64,
    pub noisy: u64,
    pub not_quiet: u64,
}

impl PgnCounts {
    fn add(&mut self, o: &PgnCounts) {
        self.games += o.games;
        self.bad_games += o.bad_games;
        self.records += o.records;
        self.no_score += o.no_score;
        self.mate += o.mate;
        self.opening += o.opening;
        self.in_check += o.in_check;
        self.noisy += o.noisy;
        self.not_quiet += o.not_quiet;
    }

    fn unkept(&mut self, why: Unkept) {
        *match why {
            Unkept::Opening => &mut self.opening,
            Unkept::InCheck => &mut self.in_check,
            Unkept::MateScore => &mut self.mate,
            Unkept::Noisy => &mut self.noisy,
            Unkept::NotQuiet => &mut self.not_quiet,
        } += 1;
    }

    /// The moves not kept, by reason.
    fn skipped(&self) -> String {
        format!(
            "{} without a score, {} mate scores, {} opening plies, {} in check, \
             {} captures or promotions, {} not quiet",
            self.no_score, self.mate, self.opening, self.in_check, self.noisy, self.not_quiet
        )
    }
}

/// One game's records and tallies; `Err` says why the game is skipped.
pub fn game_records(
    game: &PgnGame,
    quiet: &mut QuietCheck,
) -> Result<(Vec<Record>, PgnCounts), String> {
    let result = game.result().ok_or("no result (1-0, 0-1 or 1/2-1/2)")?;
    let mut counts = PgnCounts {
        games: 1,
        ..PgnCounts::default()
    };
    let mut records = Vec::new();
    crate::data::pgn::replay(game, |ply, board, m| {
        let score = game.comments[ply].as_deref().and_then(comment_score);
        let cp = match score {
            None => return counts.no_score += 1,
            Some(CommentScore::Mate(_)) => return counts.mate += 1,
            Some(CommentScore::Centipawns(cp)) => cp,
        };
        if let Err(why) = keep_position(ply, board, m, quiet) {
            return counts.unkept(why);
        }
        let white = if board.turn().is_white() { cp } else { -cp };
        records.push(Record::of(
            board.pos(),
            Some(clamp_score(white)),
            Some(result),
        ));
    })?;
    counts.records = records.len() as u64;
    Ok((records, counts))
}

/// Converts the games of `pgn` into records in `out` (replaced only when
/// the run succeeds) and says how it went.
pub fn convert_pgn(pgn: &Path, out: &Path) -> Result<(), String> {
    let name = pgn.display().to_string();
    let text = stockman::files::read_text(pgn, stockman::files::MAX_TEXT_BYTES)?;
    let games = parse_pgn(&text).map_err(|e| format!("{name}: {e}"))?;
    if games.is_empty() {
        return Err(format!("{name}: no games"));
    }
    let mut writer = PackedWriter::create(out)?;
    let mut counts = PgnCounts::default();
    for (b, batch) in games.chunks(BATCH_GAMES).enumerate() {
        let done: Vec<_> = batch
            .par_iter()
            .map_init(QuietCheck::new, |quiet, game| game_records(game, quiet))
            .collect();
        for (i, d) in done.into_iter().enumerate() {
            match d {
                Ok((records, c)) => {
                    records.iter().try_for_each(|r| writer.write(r))?;
                    counts.add(&c);
                }
                Err(e) => {
                    eprintln!(
                        "convert: {name}: game {}: skipped: {e}",
                        b * BATCH_GAMES + i + 1
                    );
                    counts.bad_games += 1;
                }
            }
        }
    }
    if counts.records == 0 {
        return Err(format!(
            "{name}: {} games ({} skipped), no position with an engine score in its move \
             comment to keep ({}); scores are read from comments such as {{+0.12/14 0.333s}} \
             or {{+0.35 12/20 100 5000}}; nothing written",
            counts.games + counts.bad_games,
            counts.bad_games,
            counts.skipped()
        ));
    }
    writer.finish()?;
    let bytes = HEADER_BYTES as u64 + counts.records * RECORD_BYTES as u64;
    println!(
        "convert: {} games ({} skipped), {} positions written to {} ({bytes} bytes); \
         moves not kept: {}",
        counts.games + counts.bad_games,
        counts.bad_games,
        counts.records,
        out.display(),
        counts.skipped()
    );
    Ok(())
}
