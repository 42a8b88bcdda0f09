//! EPD perft suites: lines of the form `fen ;D1 20 ;D2 400 ...`, parsed into
//! positions with their expected counts, and the suite runner that checks
//! them and prints one line per position.

use super::{PerftTable, divide_with, nps, parse_fen};
use shakmaty::{CastlingMode, Chess};
use std::io::Write;
use std::time::Instant;

/// One suite position and its expected leaf counts.
#[derive(Clone, Debug)]
pub struct EpdEntry {
    pub fen: String,
    pub pos: Chess,
    pub castling: CastlingMode,
    /// `(depth, count)`, sorted by depth, depths distinct.
    pub expected: Vec<(u32, u64)>,
}

/// Parses one suite line. Blank lines and `#` comments are `Ok(None)`.
/// `chess960` forces Chess960 castling (otherwise detected as in
/// [`parse_fen`]).
pub fn parse_epd_line(line: &str, chess960: bool) -> Result<Option<EpdEntry>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split(';');
    let fen = fields.next().unwrap_or_default().trim();
    if fen.is_empty() {
        return Err("missing FEN before the first ';'".into());
    }
    let mut expected = Vec::new();
    for field in fields {
        let field = field.trim();
        if field.is_empty() {
            continue; // tolerate a trailing ';'
        }
        let mut tokens = field.split_whitespace();
        let (Some(name), Some(value), None) = (tokens.next(), tokens.next(), tokens.next()) else {
            return Err(format!("expected 'D<depth> <count>', found '{field}'"));
        };
        let depth = name
            .strip_prefix(['D', 'd'])
            .and_then(|d| d.parse::<u32>().ok())
            .ok_or_else(|| format!("bad depth '{name}' (expected D<depth>, e.g. D5)"))?;
        let count = value
            .parse::<u64>()
            .map_err(|_| format!("bad count '{value}' for {name}"))?;
        if expected.iter().any(|&(d, _)| d == depth) {
            return Err(format!("depth {depth} listed twice"));
        }
        expected.push((depth, count));
    }
    if expected.is_empty() {
        return Err("no ';D<depth> <count>' fields after the FEN".into());
    }
    expected.sort_unstable();
    let (pos, castling) = parse_fen(fen, chess960)?;
    Ok(Some(EpdEntry {
        fen: fen.to_string(),
        pos,
        castling,
        expected,
    }))
}

/// Parses a whole suite; every malformed line is reported (with its line
/// number), and any of them makes the suite an error.
pub fn parse_epd(text: &str, chess960: bool) -> Result<Vec<EpdEntry>, String> {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_epd_line(line, chess960) {
            Ok(Some(e)) => entries.push(e),
            Ok(None) => {}
            Err(e) => errors.push(format!("line {}: {e}", i + 1)),
        }
    }
    if !errors.is_empty() {
        const SHOWN: usize = 10;
        let more = errors.len().saturating_sub(SHOWN);
        errors.truncate(SHOWN);
        if more > 0 {
            errors.push(format!("... and {more} more bad lines"));
        }
        return Err(errors.join("\n"));
    }
    if entries.is_empty() {
        return Err("no positions in the suite".into());
    }
    Ok(entries)
}

/// The outcome of a suite run.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SuiteSummary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub nodes: u64,
}

/// How one suite position fared.
enum Outcome {
    /// Every listed count up to the depth limit matched; the deepest.
    Passed { depth: u32, got: u64 },
    /// The first listed count that did not match.
    Failed { depth: u32, got: u64, want: u64 },
    /// No count listed within the depth limit.
    Skipped,
}

/// Counts `e`'s position at each listed depth up to `max_depth`, shallowest
/// first, stopping at the first wrong count.
fn check_entry(e: &EpdEntry, max_depth: u32, table: Option<&PerftTable>) -> Outcome {
    let mut outcome = Outcome::Skipped;
    for &(depth, want) in e.expected.iter().filter(|(d, _)| *d <= max_depth) {
        let got: u64 = if depth == 0 {
            1
        } else {
            divide_with(&e.pos, depth, table)
                .iter()
                .map(|(_, n)| n)
                .sum()
        };
        if got != want {
            return Outcome::Failed { depth, got, want };
        }
        outcome = Outcome::Passed { depth, got };
    }
    outcome
}

/// Checks every listed depth up to `max_depth` of every entry, shallow
/// first, stopping a position at its first mismatch. Prints one line per
/// position (its number, pass/FAIL/skip, the deepest depth checked, the
/// count there, the time) and a summary line.
pub fn run_suite(
    out: &mut impl Write,
    entries: &[EpdEntry],
    max_depth: u32,
    table: Option<&PerftTable>,
) -> std::io::Result<SuiteSummary> {
    let start = Instant::now();
    let mut s = SuiteSummary::default();
    let width = entries.len().to_string().len();
    for (i, e) in entries.iter().enumerate() {
        let t = Instant::now();
        let outcome = check_entry(e, max_depth, table);
        let ms = t.elapsed().as_millis();
        let n = i + 1;
        match outcome {
            Outcome::Failed { depth, got, want } => {
                s.failed += 1;
                s.nodes += got;
                writeln!(
                    out,
                    "{n:>width$} FAIL D{depth} {got} nodes, expected {want} ({ms} ms) {}",
                    e.fen
                )?;
            }
            Outcome::Passed { depth, got } => {
                s.passed += 1;
                s.nodes += got;
                writeln!(out, "{n:>width$} pass D{depth} {got} nodes ({ms} ms)")?;
            }
            Outcome::Skipped => {
                s.skipped += 1;
                writeln!(out, "{n:>width$} skip (no depth <= {max_depth} listed)")?;
            }
        }
        out.flush()?;
    }
    let elapsed = start.elapsed();
    writeln!(
        out,
        "{} positions: {} passed, {} failed, {} skipped; {} nodes in {} ms ({} nps)",
        entries.len(),
        s.passed,
        s.failed,
        s.skipped,
        s.nodes,
        elapsed.as_millis(),
        nps(s.nodes, elapsed)
    )?;
    out.flush()?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_suite_line() {
        let e = parse_epd_line(
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197",
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(e.fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(e.expected, vec![(1, 15), (2, 66), (3, 1197)]);
        assert_eq!(e.castling, CastlingMode::Standard);
        // Depths need not start at 1 nor be in order; a trailing ';' is fine.
        let e = parse_epd_line(
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D5 674624;D4 43238;",
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(e.expected, vec![(4, 43238), (5, 674624)]);
    }

    #[test]
    fn chess960_lines() {
        let line =
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528";
        let e = parse_epd_line(line, false).unwrap().unwrap();
        assert_eq!(e.castling, CastlingMode::Chess960);
        let e = parse_epd_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15", true)
            .unwrap()
            .unwrap();
        assert_eq!(e.castling, CastlingMode::Chess960);
    }

    #[test]
    fn blank_and_comment_lines_are_skipped() {
        assert!(parse_epd_line("", false).unwrap().is_none());
        assert!(parse_epd_line("   \r", false).unwrap().is_none());
        assert!(
            parse_epd_line("# a comment ;D1 3", false)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn malformed_lines_are_errors() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for (line, needle) in [
            (start.to_string(), "no ';D"),
            (format!("{start} ;"), "no ';D"),
            (";D1 20".to_string(), "missing FEN"),
            (format!("{start} ;D1"), "expected 'D<depth> <count>'"),
            (format!("{start} ;D1 20 7"), "expected 'D<depth> <count>'"),
            (format!("{start} ;X1 20"), "bad depth 'X1'"),
            (format!("{start} ;D 20"), "bad depth 'D'"),
            (format!("{start} ;D-1 20"), "bad depth"),
            (format!("{start} ;D1 twenty"), "bad count 'twenty'"),
            (format!("{start} ;D1 -20"), "bad count"),
            (format!("{start} ;D1 20 ;D1 20"), "twice"),
            ("not/a/fen w - - 0 1 ;D1 20".to_string(), "invalid FEN"),
            ("8/8/8/8/8/8/8/8 w - - 0 1 ;D1 0".to_string(), "invalid FEN"),
        ] {
            let err = parse_epd_line(&line, false).unwrap_err();
            assert!(err.contains(needle), "{line:?}: {err}");
        }
    }

    #[test]
    fn whole_file_errors_name_the_lines() {
        let text = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n\nbroken ;D1 1\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 x\n";
        let err = parse_epd(text, false).unwrap_err();
        assert!(err.contains("line 3:") && err.contains("line 4:"), "{err}");
        assert!(parse_epd("\n# nothing\n", false).is_err());
        assert_eq!(
            parse_epd(text.lines().next().unwrap(), false)
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn suite_reports_pass_fail_and_skip() {
        let text = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197\n\
                    4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D1 16 ;D2 72\n\
                    4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D4 7626\n";
        let entries = parse_epd(text, false).unwrap();
        let mut out = Vec::new();
        let s = run_suite(&mut out, &entries, 3, None).unwrap();
        assert_eq!(
            s,
            SuiteSummary {
                passed: 1,
                failed: 1,
                skipped: 1,
                nodes: 1197 + 71
            }
        );
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("1 pass D3 1197 nodes"), "{text}");
        assert!(
            lines[1].starts_with("2 FAIL D2 71 nodes, expected 72"),
            "{text}"
        );
        assert!(lines[2].starts_with("3 skip"), "{text}");
        assert!(
            lines[3].starts_with("3 positions: 1 passed, 1 failed, 1 skipped"),
            "{text}"
        );
    }
}
