//! `genfens N seed S book <None|FILE> [extra]`: OpenBench's request for N opening
//! positions, each a few seeded random plies from the start (or from a random line of
//! an EPD book), kept only when playable; printed as `info string genfens <FEN>`.

use crate::board::Board;
use crate::positions::epd_fen;
use crate::rng::{SplitMix64, mix};
use crate::score::{Depth, Score};
use crate::search::{Limits, ReusableSearch, SearchMode, SearchParams, search};
use std::path::PathBuf;

/// Most positions one request may ask for.
pub const MAX_COUNT: usize = 1_000_000;
/// Random plies from the start position (the higher one half of the time).
const START_PLIES: (i64, i64) = (8, 9);
/// Random plies from a book line.
const BOOK_PLIES: (i64, i64) = (2, 3);
/// The playability search: this depth, and a score within this many centipawns.
const CHECK_DEPTH: Depth = 4;
const CHECK_MARGIN: Score = Score(400);
/// Attempts per position before the request is given up as impossible.
const TRIES_PER_POSITION: usize = 1000;
/// The largest book read.
const MAX_BOOK_BYTES: u64 = 1 << 30;
const CHECK_HASH_MB: usize = 4;

/// Where the random plies start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Book {
    StartPosition,
    Epd(PathBuf),
}

/// One parsed `genfens` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenfensRequest {
    pub count: usize,
    pub seed: u64,
    pub book: Book,
}

/// Parses the words after `genfens`: `N [seed S] [book None|FILE]`; other
/// words (OpenBench's `extra`) are accepted and ignored.
pub fn parse_request(words: &[&str]) -> Result<GenfensRequest, String> {
    let usage = "expected 'genfens N seed S book <None|FILE>'";
    let first = words.first().ok_or_else(|| usage.to_string())?;
    let count = first
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_COUNT).contains(n))
        .ok_or_else(|| format!("count '{first}' is not a number in 1..={MAX_COUNT}; {usage}"))?;
    let mut request = GenfensRequest {
        count,
        seed: 0,
        book: Book::StartPosition,
    };
    let mut rest = words[1..].iter();
    while let Some(word) = rest.next() {
        if word.eq_ignore_ascii_case("seed") {
            let value = rest.next().ok_or("seed needs a value")?;
            request.seed = value
                .parse()
                .map_err(|_| format!("seed '{value}' is not a whole number in 0..2^64"))?;
        } else if word.eq_ignore_ascii_case("book") {
            let value = rest.next().ok_or("book needs a value (None or a file)")?;
            request.book = if value.eq_ignore_ascii_case("none") {
                Book::StartPosition
            } else {
                Book::Epd(PathBuf::from(value))
            };
        }
    }
    Ok(request)
}

/// The starting FENs of a book: every EPD line's position (blank lines and
/// comments skipped). A line that does not parse is refused when drawn.
fn read_book(book: &Book) -> Result<Vec<String>, String> {
    let Book::Epd(path) = book else {
        return Ok(Vec::new());
    };
    let text = crate::files::read_text(path, MAX_BOOK_BYTES)?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match epd_fen(line) {
            Ok(Some(fen)) => fens.push(fen),
            Ok(None) => {}
            Err(e) => return Err(format!("{} line {}: {e}", path.display(), i + 1)),
        }
    }
    if fens.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(fens)
}

/// Makes the request's positions, handing each FEN to `emit` as it is found.
/// The same request always gives the same positions.
pub fn generate(request: &GenfensRequest, mut emit: impl FnMut(&str)) -> Result<(), String> {
    let book = read_book(&request.book)?;
    let mut rng = SplitMix64::new(mix(request.seed));
    let mut checker = Checker::new()?;
    for made in 0..request.count {
        let board = (0..TRIES_PER_POSITION)
            .find_map(|_| candidate(&book, &mut rng).filter(|b| checker.playable(b)))
            .ok_or_else(|| {
                format!("no playable position after {TRIES_PER_POSITION} tries ({made} made)")
            })?;
        emit(&board.fen());
    }
    Ok(())
}

/// A random start (the start position or a book line) and random plies after
/// it; `None` when the line is broken or the game ends on the way.
fn candidate(book: &[String], rng: &mut SplitMix64) -> Option<Board> {
    let (mut board, (lo, hi)) = if book.is_empty() {
        (Board::default(), START_PLIES)
    } else {
        let fen = &book[rng.in_range(0, book.len() as i64 - 1) as usize];
        (Board::from_fen(fen).ok()?, BOOK_PLIES)
    };
    for _ in 0..rng.in_range(lo, hi) {
        let moves = board.legal_moves();
        if moves.is_empty() {
            return None;
        }
        board.play(moves[rng.in_range(0, moves.len() as i64 - 1) as usize]);
    }
    Some(board)
}

/// The playability filter: legal moves, no draw by rule, and a shallow
/// search that finds neither side already winning.
struct Checker {
    search: ReusableSearch,
    params: SearchParams,
    limits: Limits,
}

impl Checker {
    fn new() -> Result<Checker, String> {
        Ok(Checker {
            search: ReusableSearch::new(CHECK_HASH_MB)?,
            params: SearchParams {
                move_overhead_ms: 0,
                ..SearchParams::default()
            },
            limits: Limits::depth(CHECK_DEPTH),
        })
    }

    fn playable(&mut self, board: &Board) -> bool {
        let mut root = board.clone();
        root.set_root();
        if root.legal_moves().is_empty() || root.is_draw() {
            return false;
        }
        // Each check starts afresh: a position's fate does not depend on the ones before.
        self.search.clear();
        let (params, limits) = (&self.params, &self.limits);
        let result = self.search.run(&root, SearchMode::Normal, |s| {
            search(s, params, limits, &mut |_| {})
        });
        result.best_move.is_some() && result.score.0.abs() <= CHECK_MARGIN.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fens(line: &str) -> Vec<String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut out = Vec::new();
        generate(&parse_request(&words).unwrap(), |f| out.push(f.to_string())).unwrap();
        out
    }

    #[test]
    fn requests_parse_with_extras_and_refuse_nonsense() {
        let r = parse_request(&["5", "seed", "18446744073709551615", "book", "None", "x"]);
        assert_eq!(
            r,
            Ok(GenfensRequest {
                count: 5,
                seed: u64::MAX,
                book: Book::StartPosition
            })
        );
        let r = parse_request(&["2", "seed", "3", "book", "b.epd"]).unwrap();
        assert_eq!(r.book, Book::Epd(PathBuf::from("b.epd")));
        for bad in [
            &[][..],
            &["0"],
            &["-3"],
            &["many"],
            &["4", "seed"],
            &["4", "seed", "-1"],
            &["4", "seed", "x"],
            &["4", "book"],
        ] {
            assert!(parse_request(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn positions_are_legal_playable_and_repeat_for_a_seed() {
        let a = fens("12 seed 7 book None");
        assert_eq!(a.len(), 12);
        assert_eq!(a, fens("12 seed 7 book None"));
        assert_ne!(a, fens("12 seed 8 book None"));
        for fen in &a {
            let board = Board::from_fen(fen).unwrap();
            assert!(!board.legal_moves().is_empty(), "{fen}");
            // Eight or nine plies from the start: Black to move after nine.
            let fullmove: u32 = fen.rsplit(' ').next().unwrap().parse().unwrap();
            assert!((5..=5).contains(&fullmove), "{fen}");
        }
        assert_eq!(&fens("3 seed 7 book None")[..], &a[..3], "a prefix");
    }

    #[test]
    fn a_book_gives_two_or_three_plies_after_its_lines() {
        let path = std::env::temp_dir().join(format!("genfens-book-{}.epd", std::process::id()));
        let line = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 c0 \"e4\";";
        std::fs::write(&path, format!("# a book\n\n{line}\n")).unwrap();
        let out = fens(&format!("6 seed 1 book {}", path.display()));
        std::fs::remove_file(&path).unwrap();
        assert_eq!(out.len(), 6);
        for fen in &out {
            // From Black to move at move 1: two plies end at Black, move 2; three at White, move 3.
            let fields: Vec<&str> = fen.split(' ').collect();
            match fields[1] {
                "b" => assert_eq!(fields[5], "2", "{fen}"),
                _ => assert_eq!(fields[5], "3", "{fen}"),
            }
        }
    }

    #[test]
    fn an_unreadable_book_is_an_error() {
        let r = parse_request(&["1", "book", "/no/such/book.epd"]).unwrap();
        assert!(generate(&r, |_| {}).is_err());
    }
}
