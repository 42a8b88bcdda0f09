//! Position lists in EPD form, as `bench` and `compare` read them: the FEN of
//! a line is its first four fields plus the two clocks when they are numbers;
//! operations after them (`bm`, `id`, ...) are ignored. Also the embedded bench set.

use crate::board::Board;
use shakmaty::{CastlingMode, Chess};

/// `positions/bench.epd`, compiled in so `stockman bench` works from any directory.
pub const BENCH_EPD: &str = include_str!("../positions/bench.epd");

/// The most positions one list may hold.
pub const MAX_POSITIONS: usize = 100_000;

/// One position of a list, with the line it came from.
#[derive(Clone, Debug)]
pub struct EpdPosition {
    /// 1-based line number in the file.
    pub line: usize,
    /// The normalized FEN (four or six fields).
    pub fen: String,
    /// The position (a `Board` is made on demand: each carries a large stack).
    pub pos: Chess,
}

impl EpdPosition {
    /// A fresh board at this position.
    pub fn board(&self) -> Board {
        Board::new(self.pos.clone(), CastlingMode::Standard)
    }
}

/// The FEN part of one EPD line, or `None` for a blank line or a `#` comment.
/// Errors name what is missing; the caller adds the line number.
pub fn epd_fen(line: &str) -> Result<Option<String>, String> {
    let line = line.trim().trim_start_matches('\u{feff}');
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!(
            "expected at least 4 FEN fields (placement, side, castling, en passant), found {}",
            fields.len()
        ));
    }
    let mut fen: Vec<&str> = fields[..4].to_vec();
    let is_number = |s: &&str| s.parse::<u32>().is_ok();
    if fields.len() >= 6 && is_number(&fields[4]) && is_number(&fields[5]) {
        fen.extend_from_slice(&fields[4..6]);
    }
    Ok(Some(fen.join(" ")))
}

/// Parses a whole list. Every bad line is reported with its line number;
/// any of them makes the list an error. An empty list is an error too.
pub fn parse_epd_positions(text: &str) -> Result<Vec<EpdPosition>, String> {
    let mut positions = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let parsed = epd_fen(line).and_then(|fen| match fen {
            Some(fen) => Board::from_fen(&fen).map(|board| Some((fen, board.pos().clone()))),
            None => Ok(None),
        });
        match parsed {
            Ok(Some((fen, pos))) => positions.push(EpdPosition {
                line: i + 1,
                fen,
                pos,
            }),
            Ok(None) => {}
            Err(e) => errors.push(format!("line {}: {e}", i + 1)),
        }
        if positions.len() > MAX_POSITIONS {
            return Err(format!("more than {MAX_POSITIONS} positions"));
        }
    }
    if !errors.is_empty() {
        const SHOWN: usize = 10;
        let more = errors.len().saturating_sub(SHOWN);
        let mut text = errors[..errors.len().min(SHOWN)].join("\n");
        if more > 0 {
            text += &format!("\n... and {more} more bad line(s)");
        }
        return Err(text);
    }
    if positions.is_empty() {
        return Err("no positions (only blank lines and comments)".into());
    }
    Ok(positions)
}

/// The bench positions (the embedded `positions/bench.epd`).
pub fn bench_positions() -> Vec<EpdPosition> {
    // Checked by a unit test below: the embedded file always parses.
    parse_epd_positions(BENCH_EPD).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_bench_set_parses_into_fifty_positions() {
        let positions = parse_epd_positions(BENCH_EPD).unwrap();
        assert_eq!(positions.len(), 50);
        assert_eq!(bench_positions().len(), 50);
        assert!(positions.iter().all(|p| p.fen.split(' ').count() == 6));
    }

    #[test]
    fn fen_takes_four_fields_and_numeric_clocks_only() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        assert_eq!(
            epd_fen(&format!("{start} bm e4; id \"x\";")).unwrap(),
            Some(start.to_string())
        );
        assert_eq!(
            epd_fen(&format!("{start} 3 17 ;D1 20")).unwrap(),
            Some(format!("{start} 3 17"))
        );
        assert_eq!(epd_fen("  # comment").unwrap(), None);
        assert_eq!(epd_fen("").unwrap(), None);
        assert!(epd_fen("8/8/8/8 w").is_err());
    }

    #[test]
    fn bad_lines_are_reported_with_their_numbers() {
        let text = "# header\n8/8/8/8/8/8/8/K6k w - - 0 1\n\nnot a fen at all\n";
        let err = parse_epd_positions(text).unwrap_err();
        assert!(err.starts_with("line 4:"), "{err}");
        assert!(parse_epd_positions("\n# only comments\n").is_err());
        let ok = parse_epd_positions("\u{feff}8/8/8/8/8/8/8/K6k w - - 0 1\n").unwrap();
        assert_eq!(ok[0].line, 1);
    }
}
