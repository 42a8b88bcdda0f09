//! Data files and the traced data set: parsing `<FEN> [result]` lines (and
//! the common variants), and loading files into compact per-position traces
//! (sparse weight coefficients, phase, scale, king danger, result) that the
//! tuner evaluates without running the evaluation again.

use rayon::prelude::*;
use std::io::{BufRead, BufReader};
use std::path::Path;
use stockman::board::parse_fen;
use stockman::eval::Scale;
use stockman::eval::trace::{DangerTrace, PositionTrace, trace};
use stockman::positions::epd_fen;

/// Lines parsed and traced together.
const BATCH_LINES: usize = 1 << 16;

/// A result given as text: `1.0 0.5 0.0 1 0 1-0 0-1 1/2-1/2 1/2` (White's
/// point of view).
pub(crate) fn parse_result(text: &str) -> Result<f64, String> {
    let t = text.trim().trim_matches('"');
    let v = match t {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" | "1/2" => 0.5,
        _ => t
            .parse::<f64>()
            .map_err(|_| format!("bad result '{}'", text.trim()))?,
    };
    if !(0.0..=1.0).contains(&v) {
        return Err(format!("result {v} is outside 0..1"));
    }
    Ok(v)
}

/// One data line: `Ok(None)` for a blank line or a `#` comment, else the
/// FEN and the result for White. Accepted: `<FEN> [1.0]` (also `[1-0]`,
/// `[1/2-1/2]`, ...), `<FEN> | <eval> | <result>`, and EPD with the result
/// as the last quoted string (`<FEN> c9 "1-0";`).
pub fn parse_line(line: &str) -> Result<Option<(String, f64)>, String> {
    let line = line.trim().trim_start_matches('\u{feff}');
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (fen_part, result) = if let Some(open) = line.rfind('[') {
        let Some(inner) = line[open + 1..].strip_suffix(']') else {
            return Err("expected the result in brackets at the end: '<FEN> [1.0]'".into());
        };
        (&line[..open], inner)
    } else if line.contains('|') {
        let mut fields = line.split('|');
        let fen = fields.next().unwrap_or_default();
        (fen, fields.next_back().unwrap_or_default())
    } else if let Some(close) = line.rfind('"') {
        let open = line[..close]
            .rfind('"')
            .ok_or("unbalanced quotes around the result")?;
        (&line[..open], &line[open + 1..close])
    } else {
        return Err("no result: expected '<FEN> [1.0]'".into());
    };
    let result = parse_result(result)?;
    let fen = epd_fen(fen_part)?.ok_or("no FEN before the result")?;
    Ok(Some((fen, result)))
}

/// One weight's coefficient in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Coef {
    pub slot: u16,
    pub count: i16,
}

/// One position: where its coefficients are and how its evaluation is
/// put together (see `PositionTrace`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// First coefficient in `Dataset::coefs`: the linear ones, then the
    /// danger units against the Black king, then against the White king.
    pub start: usize,
    pub linear: u16,
    pub danger: [u8; 2],
    /// Percent of the danger units that count, by king colour index (0:
    /// no danger).
    pub danger_percent: [u8; 2],
    pub no_queen: [bool; 2],
    pub phase: u8,
    /// +1 White to move, -1 Black.
    pub stm: i8,
    /// Scale factor (out of `SCALE_NORMAL`) and whether it scales the whole
    /// score rather than the endgame half.
    pub scale: u8,
    pub scale_whole: bool,
    /// Game result for White (1, ½, 0).
    pub result: f32,
}

/// The traced positions of one or more data files.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub coefs: Vec<Coef>,
    pub samples: Vec<Sample>,
    /// The `#` comment lines of the files: how the data was made.
    pub comments: Vec<String>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The linear coefficients and the danger units (by king colour index)
    /// of a sample.
    #[inline]
    pub fn parts<'a>(&'a self, s: &Sample) -> (&'a [Coef], [&'a [Coef]; 2]) {
        let l = s.start + s.linear as usize;
        let b = l + s.danger[0] as usize;
        let w = b + s.danger[1] as usize;
        (
            &self.coefs[s.start..l],
            [&self.coefs[l..b], &self.coefs[b..w]],
        )
    }

    /// Adds one traced position.
    pub fn push(&mut self, t: &PositionTrace, result: f64) -> Result<(), String> {
        let start = self.coefs.len();
        let coef = |&(slot, count): &(usize, i32)| -> Result<Coef, String> {
            Ok(Coef {
                slot: u16::try_from(slot).map_err(|_| "too many weights")?,
                count: i16::try_from(count)
                    .map_err(|_| format!("coefficient {count} too large"))?,
            })
        };
        for c in &t.linear {
            self.coefs.push(coef(c)?);
        }
        let mut danger = [0u8; 2];
        let mut percent = [0u8; 2];
        let mut no_queen = [false; 2];
        for (k, d) in t.danger.iter().enumerate() {
            if let Some(DangerTrace {
                units,
                percent: p,
                no_queen: q,
            }) = d
            {
                for c in units {
                    self.coefs.push(coef(c)?);
                }
                danger[k] = units.len() as u8;
                percent[k] = *p as u8;
                no_queen[k] = *q;
            }
        }
        let (scale, scale_whole) = match t.scale {
            Scale::Endgame(f) => (f, false),
            Scale::Whole(f) => (f, true),
        };
        self.samples.push(Sample {
            start,
            linear: t.linear.len() as u16,
            danger,
            danger_percent: percent,
            no_queen,
            phase: t.phase as u8,
            stm: t.stm as i8,
            scale: scale as u8,
            scale_whole,
            result: result as f32,
        });
        Ok(())
    }

    /// Parses and traces `lines` (numbered from `first_line`) in parallel
    /// and adds them in order; errors name `name` and the line.
    fn add_lines(&mut self, name: &str, first_line: usize, lines: &[String]) -> Result<(), String> {
        let traced: Vec<Result<Option<(PositionTrace, f64)>, String>> = lines
            .par_iter()
            .map(|line| {
                let Some((fen, result)) = parse_line(line)? else {
                    return Ok(None);
                };
                let (pos, _) = parse_fen(&fen, false)?;
                Ok(Some((trace(&pos), result)))
            })
            .collect();
        for (i, t) in traced.into_iter().enumerate() {
            let at = |e: String| format!("{name}:{}: {e}", first_line + i);
            if let Some((t, result)) = t.map_err(at)? {
                self.push(&t, result).map_err(at)?;
            }
        }
        Ok(())
    }

    /// Loads a data file (adding to what is loaded already).
    pub fn load_file(&mut self, path: &Path) -> Result<(), String> {
        let name = path.display().to_string();
        let file = stockman::files::open_regular(path, stockman::files::MAX_TEXT_BYTES)?;
        let before = self.len();
        let mut batch = Vec::with_capacity(BATCH_LINES);
        let mut first_line = 1;
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{name}:{}: {e}", i + 1))?;
            if let Some(comment) = line.trim().strip_prefix('#') {
                self.comments.push(comment.trim().to_string());
                continue;
            }
            if batch.is_empty() {
                first_line = i + 1;
            }
            batch.push(line);
            if batch.len() == BATCH_LINES {
                self.add_lines(&name, first_line, &batch)?;
                batch.clear();
            }
        }
        self.add_lines(&name, first_line, &batch)?;
        if self.len() == before {
            return Err(format!("{name}: no positions"));
        }
        Ok(())
    }

    /// A data set from `(FEN, result)` pairs (tests, small tools).
    pub fn from_positions(positions: &[(&str, f64)]) -> Result<Dataset, String> {
        let mut ds = Dataset::default();
        for &(fen, result) in positions {
            let (pos, _) = parse_fen(fen, false)?;
            ds.push(&trace(&pos), result)?;
        }
        Ok(ds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

    #[test]
    fn lines_in_the_usual_formats() {
        let ok = |line: &str| parse_line(line).unwrap().unwrap();
        assert_eq!(ok(&format!("{FEN} [1.0]")), (FEN.to_string(), 1.0));
        assert_eq!(ok(&format!("{FEN} [0.5]")).1, 0.5);
        assert_eq!(ok(&format!("{FEN} [0-1]")).1, 0.0);
        assert_eq!(ok(&format!("{FEN} [1/2-1/2]")).1, 0.5);
        assert_eq!(ok(&format!("{FEN} | 35 | 1.0")).1, 1.0);
        let epd = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -";
        assert_eq!(
            ok(&format!("{epd} c9 \"1/2-1/2\";")),
            (epd.to_string(), 0.5)
        );
        assert_eq!(parse_line("  ").unwrap(), None);
        assert_eq!(parse_line("# made by hand").unwrap(), None);
    }

    #[test]
    fn malformed_lines_are_errors() {
        for bad in [
            FEN.to_string(),
            format!("{FEN} [2.0]"),
            format!("{FEN} [win]"),
            format!("{FEN} [1.0"),
            "8/8 w [1.0]".to_string(),
            "[1.0]".to_string(),
        ] {
            assert!(parse_line(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn samples_keep_the_trace() {
        let fens = [(FEN, 1.0), ("4k3/8/8/3q4/8/8/3R4/4K3 b - - 0 1", 0.0)];
        let ds = Dataset::from_positions(&fens).unwrap();
        assert_eq!(ds.len(), 2);
        for (s, (fen, result)) in ds.samples.iter().zip(fens) {
            let t = trace(&parse_fen(fen, false).unwrap().0);
            let (linear, _) = ds.parts(s);
            let back: Vec<(usize, i32)> = linear
                .iter()
                .map(|c| (c.slot as usize, c.count as i32))
                .collect();
            assert_eq!(back, t.linear);
            assert_eq!(
                (s.phase as i32, s.stm as i32, s.result as f64),
                (t.phase, t.stm, result)
            );
        }
    }

    #[test]
    fn files_load_with_comments_and_report_bad_lines() {
        let dir = crate::scratch::Scratch::new("lab-dataset");
        let good = dir.join("good.txt");
        std::fs::write(&good, format!("# test data\n{FEN} [1.0]\n\n{FEN} [0.0]\n")).unwrap();
        let mut ds = Dataset::default();
        ds.load_file(&good).unwrap();
        assert_eq!(
            (ds.len(), ds.comments.clone()),
            (2, vec!["test data".to_string()])
        );
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, format!("{FEN} [1.0]\nnonsense [1.0]\n")).unwrap();
        let err = Dataset::default().load_file(&bad).unwrap_err();
        assert!(err.contains("bad.txt:2:"), "{err}");
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, "# nothing\n").unwrap();
        assert!(Dataset::default().load_file(&empty).is_err());
        assert!(
            Dataset::default()
                .load_file(&dir.join("missing.txt"))
                .is_err()
        );
    }
}
