//! `stockman perft`: divide from a FEN, or check an EPD suite. Turns bad
//! input into error messages (non-zero exit), never into a panic.

use super::epd::{parse_epd, run_suite};
use super::{MAX_DEPTH, PerftTable, parse_fen, write_divide_with};
use clap::{ArgGroup, Args};
use shakmaty::{CastlingMode, Chess};
use std::path::PathBuf;

/// `stockman perft --help`'s examples.
const EXAMPLES: &str = "\
Examples:
  # Leaf nodes 6 plies from the start position, per root move
  stockman perft 6
  # From another position (Kiwipete), on one thread
  stockman perft 4 --fen \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\" --threads 1";

/// `stockman perft` arguments.
#[derive(Args, Debug, Clone)]
#[command(group(ArgGroup::new("what").required(true).args(["depth", "epd"])))]
#[command(after_help = EXAMPLES)]
pub struct PerftArgs {
    /// Depth in plies (1 to 15): prints the count below each root move.
    #[arg(value_parser = parse_depth, allow_negative_numbers = true)]
    pub depth: Option<u32>,

    /// Position to count from [default: the start position].
    #[arg(long, conflicts_with = "epd")]
    pub fen: Option<String>,

    /// Check an EPD perft suite (lines `fen ;D1 n ;D2 n ...`) instead.
    #[arg(long, value_name = "FILE")]
    pub epd: Option<PathBuf>,

    /// With --epd: check only the listed depths up to D [default: 15].
    // `conflicts_with` as well: clap lets any member of a group satisfy
    // `requires` (clap-rs/clap#4707), so `perft 3 --max-depth 2` would pass.
    #[arg(long, value_name = "D", requires = "epd", conflicts_with = "depth",
          value_parser = parse_depth,
          allow_negative_numbers = true)]
    pub max_depth: Option<u32>,

    /// Read FENs with Chess960 castling (also chosen by itself when the
    /// castling rights need it: a king off the e-file, a rook off its corner).
    #[arg(long)]
    pub chess960: bool,

    /// Worker threads [default: one per core].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,

    /// Perft hash table size in MB; 0 counts without a table.
    #[arg(long, value_name = "MB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(0..=PerftTable::MAX_MB as u64))]
    pub hash: u64,
}

fn parse_depth(s: &str) -> Result<u32, String> {
    let d: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("a depth is a positive integer, not '{s}'"))?;
    if d < 1 {
        Err(format!("a depth is a positive integer, not {d}"))
    } else if d > i64::from(MAX_DEPTH) {
        Err(format!(
            "depth {d} is more than {MAX_DEPTH}: that would take years"
        ))
    } else {
        Ok(d as u32)
    }
}

fn parse_threads(s: &str) -> Result<usize, String> {
    const MAX_THREADS: usize = 1024;
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "threads is a whole number from 1 to {MAX_THREADS}, not '{s}'"
        )),
    }
}

/// Runs `stockman perft`. A failed suite position is an error.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    // Parse everything before allocating the table or spawning threads.
    let job = Job::from_args(args)?;
    let table = match args.hash {
        0 => None,
        mb => Some(PerftTable::new(mb as usize)?),
    };
    match args.threads {
        None => job.run(table.as_ref()),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| format!("cannot start {n} threads: {e}"))?
            .install(|| job.run(table.as_ref())),
    }
}

/// Reads a suite file: at most `LIMIT` bytes (so `/dev/zero` is an error,
/// not an endless read), UTF-8, a leading byte order mark ignored.
fn read_suite(path: &std::path::Path) -> Result<String, String> {
    const LIMIT: u64 = 256 << 20;
    let text = crate::files::read_text(path, LIMIT)?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

enum Job {
    Divide {
        pos: Chess,
        castling: CastlingMode,
        depth: u32,
    },
    Suite {
        entries: Vec<super::EpdEntry>,
        max_depth: u32,
    },
}

impl Job {
    fn from_args(args: &PerftArgs) -> Result<Job, String> {
        match (&args.epd, args.depth) {
            (Some(path), _) => {
                let text = read_suite(path)?;
                let entries = parse_epd(&text, args.chess960)
                    .map_err(|e| format!("bad EPD file '{}':\n{e}", path.display()))?;
                Ok(Job::Suite {
                    entries,
                    max_depth: args.max_depth.unwrap_or(MAX_DEPTH),
                })
            }
            (None, Some(depth)) => {
                let (pos, castling) = match &args.fen {
                    Some(fen) => parse_fen(fen, args.chess960)?,
                    None if args.chess960 => (Chess::default(), CastlingMode::Chess960),
                    None => (Chess::default(), CastlingMode::Standard),
                };
                Ok(Job::Divide {
                    pos,
                    castling,
                    depth,
                })
            }
            (None, None) => Err("give a depth, or --epd FILE".into()),
        }
    }

    fn run(&self, table: Option<&PerftTable>) -> Result<(), String> {
        let mut out = std::io::stdout().lock();
        let io = |e: std::io::Error| format!("cannot write the output: {e}");
        match self {
            Job::Divide {
                pos,
                castling,
                depth,
            } => {
                write_divide_with(&mut out, pos, *depth, *castling, table).map_err(io)?;
                Ok(())
            }
            Job::Suite { entries, max_depth } => {
                let s = run_suite(&mut out, entries, *max_depth, table).map_err(io)?;
                if s.failed > 0 {
                    Err(format!(
                        "{} of {} perft positions FAILED",
                        s.failed,
                        entries.len()
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_argument() {
        assert_eq!(parse_depth("6"), Ok(6));
        assert_eq!(parse_depth("15"), Ok(15));
        for bad in ["0", "-3", "16", "99999999999999999999", "six", "", "4.5"] {
            assert!(parse_depth(bad).is_err(), "{bad}");
        }
        assert!(parse_threads("0").is_err());
        assert!(parse_threads("x").is_err());
        assert_eq!(parse_threads("2"), Ok(2));
    }
}
