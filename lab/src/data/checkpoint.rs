//! A self-play run's checkpoint, `OUT.checkpoint` beside `OUT.partial`: the
//! run it belongs to (its defining arguments), the next game, how many bytes
//! of `OUT.partial` hold the games before it, the time spent and the
//! tallies. Written whole through a temporary file and a rename, after the
//! data it counts is on disk, so it never claims more than the file holds.

use crate::data::tallies::Totals;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The first line of a checkpoint file (its format's version).
const FIRST_LINE: &str = "stockman-lab datagen checkpoint 1";
/// A checkpoint is a few hundred bytes; more is not one.
const MAX_CHECKPOINT_BYTES: u64 = 64 << 10;

/// Where a self-play run stands after its last whole game on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// What defines the run's games and file (`run_line` in datagen_cmd):
    /// a resumed run must have the same.
    pub run: String,
    /// The first game not yet in the file.
    pub next_game: u64,
    /// The length of `OUT.partial` holding the games before `next_game`.
    pub bytes: u64,
    /// Time spent playing those games (a time limit counts it).
    pub elapsed: Duration,
    pub totals: Totals,
}

/// `OUT.checkpoint`, the checkpoint of the run writing `out`.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".checkpoint");
    PathBuf::from(name)
}

impl Checkpoint {
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "{FIRST_LINE}\nrun {}\nnext-game {}\nbytes {}\nmilliseconds {}\n",
            self.run,
            self.next_game,
            self.bytes,
            self.elapsed.as_millis()
        );
        let mut totals = self.totals.clone();
        for (name, n) in totals.named_counts() {
            text += &format!("{name} {n}\n");
        }
        text
    }

    /// Reads `to_text`'s form back; every field must be there, once.
    pub fn parse(text: &str) -> Result<Checkpoint, String> {
        let mut lines = text.lines();
        if lines.next() != Some(FIRST_LINE) {
            return Err(format!(
                "not a checkpoint (its first line is not '{FIRST_LINE}')"
            ));
        }
        let mut fields: Vec<(&str, &str)> = Vec::new();
        for line in lines.filter(|l| !l.is_empty()) {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            if fields.iter().any(|(k, _)| *k == key) {
                return Err(format!("'{key}' is given twice"));
            }
            fields.push((key, value));
        }
        let mut take = |key: &str| -> Result<&str, String> {
            let at = fields.iter().position(|(k, _)| *k == key);
            at.map(|i| fields.swap_remove(i).1)
                .ok_or_else(|| format!("'{key}' is missing"))
        };
        let number = |key: &str, value: &str| -> Result<u64, String> {
            value
                .parse()
                .map_err(|_| format!("'{key} {value}' is not a count"))
        };
        let run = take("run")?.to_string();
        let next_game = number("next-game", take("next-game")?)?;
        let bytes = number("bytes", take("bytes")?)?;
        let elapsed = Duration::from_millis(number("milliseconds", take("milliseconds")?)?);
        let mut totals = Totals::default();
        for (name, n) in totals.named_counts() {
            *n = number(&name, take(&name)?)?;
        }
        if let Some((key, _)) = fields.first() {
            return Err(format!("unknown field '{key}'"));
        }
        if totals.games != next_game {
            return Err(format!(
                "{} games counted, but the next game is {next_game}",
                totals.games
            ));
        }
        Ok(Checkpoint {
            run,
            next_game,
            bytes,
            elapsed,
            totals,
        })
    }

    /// Writes the checkpoint to `path` through `path.partial` (synced, then
    /// renamed over the last one).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        stockman::files::write_whole(path, self.to_text().as_bytes())
    }

    /// The checkpoint at `path`.
    pub fn read(path: &Path) -> Result<Checkpoint, String> {
        let text = stockman::files::read_text(path, MAX_CHECKPOINT_BYTES)?;
        Checkpoint::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// A 64-bit FNV-1a hash of `bytes`: tells a resumed run whether its
/// openings or network are the ones the run started with.
pub fn content_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        let mut totals = Totals {
            games: 41,
            positions: 1234,
            white_wins: 20,
            draws: 11,
            black_wins: 10,
            dfrc_games: 4,
            ..Totals::default()
        };
        totals.endings[1] = 3;
        totals.unkept.not_quiet = 99;
        Checkpoint {
            run: "--games 100 --nodes 300 --seed 5 (openings #00ff; stockman 1.0.0)".into(),
            next_game: 41,
            bytes: 8 + 32 * 1234,
            elapsed: Duration::from_millis(12_345),
            totals,
        }
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let c = sample();
        let text = c.to_text();
        assert!(text.starts_with(FIRST_LINE));
        assert_eq!(Checkpoint::parse(&text).unwrap(), c);
        let dir = crate::scratch::Scratch::new("lab-checkpoint");
        let path = dir.join("run.bin.checkpoint");
        c.write(&path).unwrap();
        assert_eq!(Checkpoint::read(&path).unwrap(), c);
        assert_eq!(
            checkpoint_path(Path::new("d/day.bin")),
            Path::new("d/day.bin.checkpoint")
        );
    }

    #[test]
    fn damaged_checkpoints_are_refused_with_the_reason() {
        let text = sample().to_text();
        let refused = |t: &str, says: &str| {
            let e = Checkpoint::parse(t).unwrap_err();
            assert!(e.contains(says), "{says}: {e}");
        };
        refused("", "not a checkpoint");
        refused(
            &text.replace("checkpoint 1", "checkpoint 2"),
            "not a checkpoint",
        );
        refused(&text.replace("bytes ", "bites "), "'bytes' is missing");
        refused(&text.replace("next-game 41", "next-game 4x"), "not a count");
        refused(
            &text.replace("next-game 41", "next-game 40"),
            "41 games counted",
        );
        refused(&format!("{text}draws 3\n"), "'draws' is given twice");
        refused(&format!("{text}colour blue\n"), "unknown field 'colour'");
        refused(
            &text.replace("unkept-noisy 0\n", ""),
            "'unkept-noisy' is missing",
        );
    }

    #[test]
    fn the_hash_tells_contents_apart() {
        assert_eq!(content_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_ne!(content_hash(b"ab"), content_hash(b"ba"));
        assert_eq!(content_hash(b"abc"), content_hash(b"abc"));
    }
}
