//! The Polyglot book against python-chess's reader (`chess.polyglot`) on a
//! book the test writes with python-chess's keys (en passant, castling,
//! promotions); the engine's book play through the protocol (weights, best
//! move, reproducible choice, leaving the book after a miss); broken books
//! refused with a message while the engine plays on.

mod common;

use common::engine_process::{EngineProcess, bestmove_of};
use common::scratch::Scratch;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use stockman::Board;
use stockman::known::Book;

const TIMEOUT: Duration = Duration::from_secs(60);

/// Writes the book into a fresh folder; returns the folder (removed when
/// dropped), the book's path and python-chess's `(fen, sorted "uci:weight"
/// list)` for each position.
fn made_book(name: &str) -> (Scratch, PathBuf, Vec<(String, Vec<String>)>) {
    let dir = Scratch::new(&format!("book-{name}"));
    let file = dir.join("book.bin");
    let lines = common::python_oracle("polyglot_book.py", &[file.as_os_str()]);
    let expected = lines
        .lines()
        .map(|l| {
            let (fen, moves) = l.split_once(';').unwrap();
            let mut moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
            moves.sort();
            (fen.to_string(), moves)
        })
        .collect();
    (dir, file, expected)
}

#[test]
fn book_moves_and_weights_agree_with_python_chess() {
    let (_dir, file, expected) = made_book("reader");
    let book = Book::load(&file).unwrap();
    for (fen, want) in &expected {
        let board = Board::from_fen(fen).unwrap();
        let mut ours: Vec<String> = book
            .moves(&board)
            .iter()
            .filter(|m| m.weight > 0)
            .map(|m| format!("{}:{}", board.uci(m.mv), m.weight))
            .collect();
        ours.sort();
        assert_eq!(&ours, want, "{fen}");
    }
    assert!(
        expected
            .iter()
            .any(|(_, m)| m.iter().any(|m| m.starts_with("e1g1")))
    );
}

fn engine_with_book(file: &Path, best: bool) -> EngineProcess {
    let mut e = EngineProcess::spawn();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookBestMove value {best}"));
    e.send(&format!("setoption name BookFile value {}", file.display()));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string book ") && l.ends_with(" entries")),
        "{lines:?}"
    );
    e
}

/// `go` from `position`; returns (the book move and weight if one was
/// played without a search, the bestmove).
fn go(e: &mut EngineProcess, position: &str) -> (Option<(String, u32)>, String) {
    e.send(position);
    e.send("go movetime 200");
    let lines = e.read_until("bestmove", TIMEOUT);
    let best = bestmove_of(&lines);
    let book = lines.iter().find_map(|l| {
        let rest = l.strip_prefix("info string book move ")?;
        let (mv, weight) = rest.split_once(" (weight ")?;
        Some((mv.to_string(), weight.trim_end_matches(')').parse().ok()?))
    });
    if let Some((mv, _)) = &book {
        assert_eq!(mv, &best, "{lines:?}");
        assert!(
            !lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
    }
    (book, best)
}

#[test]
fn the_engine_plays_book_moves_by_weight_reproducibly() {
    let (_dir, file, expected) = made_book("play");
    let start = &expected[0].1;
    let picks = |e: &mut EngineProcess| -> Vec<String> {
        (0..12)
            .map(|_| {
                e.send("ucinewgame");
                let (book, _) = go(e, "position startpos");
                let (mv, weight) = book.expect("the start position is in the book");
                assert!(start.contains(&format!("{mv}:{weight}")), "{mv} {weight}");
                mv
            })
            .collect()
    };
    let first = picks(&mut engine_with_book(&file, false));
    assert_eq!(first, picks(&mut engine_with_book(&file, false)));
    assert!(first.iter().any(|m| m != &first[0]), "{first:?}");
    // Best only: d2d3 has the greatest weight.
    let mut e = engine_with_book(&file, true);
    assert_eq!(
        go(&mut e, "position startpos").0,
        Some(("d2d3".into(), 453))
    );
}

#[test]
fn the_book_is_left_after_a_miss_until_a_new_game() {
    let (_dir, file, _) = made_book("leave");
    let mut e = engine_with_book(&file, true);
    assert!(go(&mut e, "position startpos").0.is_some());
    assert!(go(&mut e, "position startpos moves a2a3").0.is_none());
    assert!(
        go(&mut e, "position startpos moves e2e4").0.is_none(),
        "left"
    );
    e.send("ucinewgame");
    assert!(go(&mut e, "position startpos moves e2e4").0.is_some());
}

#[test]
fn broken_books_are_refused_and_the_engine_plays_on() {
    let (_dir, file, _) = made_book("broken");
    let bytes = std::fs::read(&file).unwrap();
    let dir = file.parent().unwrap();
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &bytes[..bytes.len() - 5]).unwrap();
    let unsorted = dir.join("unsorted.bin");
    // The last record (the greatest key) first.
    let mut swapped = bytes[bytes.len() - 16..].to_vec();
    swapped.extend(&bytes[..bytes.len() - 16]);
    std::fs::write(&unsorted, swapped).unwrap();
    let fifo = dir.join("fifo.bin");
    let _ = Command::new("mkfifo").arg(&fifo).status();
    let cases = [
        (truncated, "truncated"),
        (unsorted, "not sorted"),
        (dir.join("missing.bin"), "cannot read"),
        (fifo, "not a regular file"),
    ];
    let mut e = EngineProcess::spawn();
    e.send("setoption name OwnBook value true");
    for (path, why) in cases {
        e.send(&format!("setoption name BookFile value {}", path.display()));
        let lines = e.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string book not loaded") && l.contains(why)),
            "{why}: {lines:?}"
        );
        let (book, best) = go(&mut e, "position startpos");
        assert!(book.is_none() && !best.is_empty());
    }
}
