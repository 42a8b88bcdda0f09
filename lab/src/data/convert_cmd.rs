//! `stockman-lab convert`: text data (`<FEN> | <eval> | <result>` and
//! `<FEN> [result]` lines) into the binary format of `packed`, lines parsed
//! in parallel and written in order; a bad line fails the run by its number.
//! With `--pgn`, games with engine scores in their move comments
//! (`convert_pgn`).

use crate::data::dataset::{parse_line, parse_result};
use crate::data::packed::{
    HEADER_BYTES, MAX_SCORE, PackedWriter, RECORD_BYTES, Record, clamp_score,
};
use crate::data::sample::GameResult;
use clap::{ArgGroup, Args};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use stockman::board::parse_fen;
use stockman::positions::epd_fen;

/// Lines parsed together.
const BATCH_LINES: usize = 1 << 16;

/// `stockman-lab convert --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # Stockfish-labelled text data (label's output) into binary records
  stockman-lab convert --from sf.txt --out sf.bin
  # Datagen's text data, on two threads
  stockman-lab convert --from games.txt --out games.bin --threads 2
  # Games from fastchess or OpenBench, with the engines' scores in the move comments
  stockman-lab convert --pgn games.pgn --out games.bin";

/// `stockman-lab convert` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
#[command(group(ArgGroup::new("input").required(true).args(["from", "pgn"])))]
pub struct ConvertArgs {
    /// Text data: `<FEN> | <eval> | <result>` lines (eval: centipawns for
    /// White, or `#N` for a mate, stored as ±3000) or `<FEN> [result]`
    /// lines (stored with no score).
    #[arg(long)]
    pub from: Option<PathBuf>,

    /// PGN games whose move comments carry the engine's score in pawns for
    /// the side that moved (fastchess `{+0.12/14 0.333s}`, OpenBench
    /// `{+0.35 12/20 100 5000}`): the position before each scored move, with
    /// its score and the game's result, filtered as datagen filters its own
    /// (docs/training.md). Moves with a mate score or none are skipped.
    #[arg(long)]
    pub pgn: Option<PathBuf>,

    /// The binary file to write (replaced only when the run succeeds).
    #[arg(long)]
    pub out: PathBuf,

    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
}

/// A label of 1, ½ or 0 is a game result; anything between is a
/// probability (`label`'s files), which the record does not keep.
fn game_result(label: f64) -> Option<GameResult> {
    match label {
        1.0 => Some(GameResult::WhiteWins),
        0.5 => Some(GameResult::Draw),
        0.0 => Some(GameResult::BlackWins),
        _ => None,
    }
}

/// An eval field: centipawns for White (clamped to ±`MAX_SCORE`), or a
/// mate, `#N` (White mates) or `#-N`, as ±`MAX_SCORE`.
fn parse_eval(text: &str) -> Result<i16, String> {
    let t = text.trim();
    if let Some(moves) = t.strip_prefix('#') {
        let n: i64 = moves.parse().map_err(|_| format!("bad mate score '{t}'"))?;
        return Ok(if n > 0 { MAX_SCORE } else { -MAX_SCORE });
    }
    match t.parse::<f64>() {
        Ok(cp) if cp.is_finite() => Ok(clamp_score(cp.round().clamp(-1e6, 1e6) as i32)),
        _ => Err(format!("bad eval '{t}': expected centipawns or #N")),
    }
}

/// One text line as a record: `Ok(None)` for a blank or `#` line.
fn parse_record(line: &str) -> Result<Option<Record>, String> {
    let (fen, score, label) = if line.contains('|') && !line.trim_start().starts_with('#') {
        let fields: Vec<&str> = line.split('|').collect();
        let [fen, eval, result] = fields[..] else {
            return Err(format!(
                "{} fields: expected '<FEN> | <eval> | <result>'",
                fields.len()
            ));
        };
        let fen = epd_fen(fen)?.ok_or("no FEN before the eval")?;
        (fen, Some(parse_eval(eval)?), parse_result(result)?)
    } else {
        match parse_line(line)? {
            Some((fen, result)) => (fen, None, result),
            None => return Ok(None),
        }
    };
    let result = game_result(label);
    if score.is_none() && result.is_none() {
        return Err(format!(
            "label {label} is not a game result (1, 0.5, 0) and there is no eval"
        ));
    }
    let (pos, _) = parse_fen(&fen, false)?;
    Ok(Some(Record::of(&pos, score, result)))
}

/// Tallies of a run.
#[derive(Default)]
struct Counts {
    lines: usize,
    records: u64,
    no_score: u64,
    no_result: u64,
}

/// Parses `lines` (the first numbered `first_line`) in parallel and writes
/// their records in order.
fn convert_batch(
    name: &str,
    first_line: usize,
    lines: &[&str],
    out: &mut PackedWriter,
    counts: &mut Counts,
) -> Result<(), String> {
    let parsed: Vec<Result<Option<Record>, String>> =
        lines.par_iter().map(|line| parse_record(line)).collect();
    for (i, record) in parsed.into_iter().enumerate() {
        let at = |e: String| format!("{name}:{}: {e}", first_line + i);
        if let Some(record) = record.map_err(at)? {
            out.write(&record).map_err(at)?;
            counts.records += 1;
            counts.no_score += u64::from(record.score.is_none());
            counts.no_result += u64::from(record.result.is_none());
        }
    }
    counts.lines += lines.len();
    Ok(())
}

/// Runs `stockman-lab convert`.
pub fn run_convert(args: &ConvertArgs) -> Result<(), String> {
    let pool = crate::pool::pool(args.threads.map(|t| t as usize))?;
    match (&args.pgn, &args.from) {
        (Some(pgn), _) => pool.install(|| crate::data::convert_pgn::convert_pgn(pgn, &args.out)),
        (None, Some(from)) => pool.install(|| convert(from, args)),
        (None, None) => Err("--from or --pgn is required".into()),
    }
}

fn convert(from: &Path, args: &ConvertArgs) -> Result<(), String> {
    let name = from.display().to_string();
    let text = stockman::files::read_text(from, stockman::files::MAX_TEXT_BYTES)?;
    let mut out = PackedWriter::create(&args.out)?;
    let mut counts = Counts::default();
    let lines: Vec<&str> = text.lines().collect();
    for (b, batch) in lines.chunks(BATCH_LINES).enumerate() {
        convert_batch(&name, b * BATCH_LINES + 1, batch, &mut out, &mut counts)?;
    }
    if counts.records == 0 {
        return Err(format!("{name}: no positions"));
    }
    out.finish()?;
    let bytes = HEADER_BYTES as u64 + counts.records * RECORD_BYTES as u64;
    println!(
        "convert: {} lines, {} records ({} without a score, {} without a game result), \
         written to {} ({bytes} bytes)",
        counts.lines,
        counts.records,
        counts.no_score,
        counts.no_result,
        args.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

    fn record(line: &str) -> Record {
        parse_record(line).unwrap().unwrap()
    }

    #[test]
    fn the_text_formats_become_records() {
        let r = record(&format!("{FEN} | 35 | 1.0"));
        assert_eq!((r.score, r.result), (Some(35), Some(GameResult::WhiteWins)));
        let r = record(&format!("{FEN} | -12.6 | 0.731"));
        assert_eq!((r.score, r.result), (Some(-13), None));
        let r = record(&format!("{FEN} | #-3 | 0.000000"));
        assert_eq!(
            (r.score, r.result),
            (Some(-MAX_SCORE), Some(GameResult::BlackWins))
        );
        assert_eq!(
            record(&format!("{FEN} | 99999 | 0.5")).score,
            Some(MAX_SCORE)
        );
        let r = record(&format!("{FEN} [0.5]"));
        assert_eq!((r.score, r.result), (None, Some(GameResult::Draw)));
        assert_eq!(r.turn, shakmaty::Color::White);
        assert!(parse_record("# a comment | with bars").unwrap().is_none());
        assert!(parse_record("  ").unwrap().is_none());
    }

    #[test]
    fn bad_lines_are_refused() {
        for bad in [
            format!("{FEN} | 35"),
            format!("{FEN} | 35 | 1.0 | 2"),
            format!("{FEN} | x | 1.0"),
            format!("{FEN} | #x | 1.0"),
            format!("{FEN} | 35 | 1.5"),
            format!("{FEN} [0.7]"),
            "8/8 w | 3 | 0.5".to_string(),
            FEN.to_string(),
        ] {
            assert!(parse_record(&bad).is_err(), "{bad}");
        }
    }
}
