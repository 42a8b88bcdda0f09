//! Where datagen's positions go: `<FEN> [result]` text lines after `#`
//! lines, or binary records with the search scores. Either way into
//! `OUT.partial`, renamed to `OUT` when the run is done; a self-play run
//! keeps the partial file when it stops unfinished, to resume it.

use crate::data::datagen::GameRecord;
use crate::data::packed::{PackedWriter, Record};
use crate::data::sample::{GameResult, format_line};
use clap::ValueEnum;
use std::io::Write;
use std::path::{Path, PathBuf};
use stockman::board::parse_fen;
use stockman::files::PartialFile;

/// The format of datagen's output.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DataFormat {
    Text,
    Bin,
}

impl DataFormat {
    /// As `--format` names it.
    pub fn name(self) -> &'static str {
        match self {
            DataFormat::Text => "text",
            DataFormat::Bin => "bin",
        }
    }
}

pub enum Sink {
    Text(PartialFile, PathBuf),
    Bin(PackedWriter),
}

impl Sink {
    /// A new `out.partial` (replacing a stale one).
    pub fn create(format: DataFormat, out: &Path) -> Result<Sink, String> {
        Ok(match format {
            DataFormat::Text => Sink::Text(PartialFile::create(out)?, out.to_path_buf()),
            DataFormat::Bin => Sink::Bin(PackedWriter::create(out)?),
        })
    }

    /// The `out.partial` an unfinished run left, cut to its first `bytes`
    /// (kept when dropped unfinished).
    pub fn resume(format: DataFormat, out: &Path, bytes: u64) -> Result<Sink, String> {
        Ok(match format {
            DataFormat::Text => Sink::Text(PartialFile::resume(out, bytes)?, out.to_path_buf()),
            DataFormat::Bin => Sink::Bin(PackedWriter::resume(out, bytes)?),
        })
    }

    /// Keeps `out.partial` if the run stops unfinished.
    pub fn keep_when_unfinished(&mut self) {
        match self {
            Sink::Text(out, _) => out.keep_when_unfinished(),
            Sink::Bin(out) => out.keep_when_unfinished(),
        }
    }

    /// A `#` line saying how the data was made (binary files have none).
    pub fn comment(&mut self, text: &str) -> Result<(), String> {
        match self {
            Sink::Text(out, path) => writeln!(out, "# {text}").map_err(io(path)),
            Sink::Bin(_) => Ok(()),
        }
    }

    /// A self-play game's positions (with their scores in binary).
    pub fn game(&mut self, game: &GameRecord) -> Result<(), String> {
        match self {
            Sink::Text(out, path) => game
                .lines()
                .try_for_each(|line| writeln!(out, "{line}").map_err(io(path))),
            Sink::Bin(out) => game.records().try_for_each(|r| out.write(&r)),
        }
    }

    /// A PGN game's positions: no search score.
    pub fn fens(&mut self, fens: &[String], result: GameResult) -> Result<(), String> {
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

    pub fn flush(&mut self) -> Result<(), String> {
        match self {
            Sink::Text(out, path) => out.flush().map_err(io(path)),
            Sink::Bin(out) => out.flush(),
        }
    }

    /// Writes everything so far through to the disk; returns the length of
    /// `out.partial`.
    pub fn sync(&mut self) -> Result<u64, String> {
        match self {
            Sink::Text(out, _) => out.sync(),
            Sink::Bin(out) => out.sync(),
        }
    }

    /// Renames the finished file into place.
    pub fn finish(self) -> Result<(), String> {
        match self {
            Sink::Text(out, _) => out.finish(),
            Sink::Bin(out) => out.finish().map(|_| ()),
        }
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("writing {}: {e}", path.display())
}
