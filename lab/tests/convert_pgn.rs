//! `convert --pgn` through the real binary: games whose move comments carry
//! the engines' scores (a real fastchess PGN, a hand-made OpenBench-form
//! one, one written by python-chess as tools/match.py writes it) become
//! records of the positions before the scored moves, with the mover's score
//! turned to White's, clamped, and the game's result, through datagen's
//! filters. Bad games are skipped and counted; a file without scores is
//! refused with a clear message and leaves no file.

mod common;

use common::cli::{assert_refused_keeping_outputs, lab, path, scratch, text};
use common::repo_path;
use std::path::Path;
use stockman_lab::data::packed::{HEADER_BYTES, MAX_SCORE, RECORD_BYTES, Record, read_all};
use stockman_lab::data::sample::GameResult;

/// A record as the test expects it: the board part of the FEN, the side to
/// move, the score for White.
type Expected = (&'static str, char, i16);

fn data(name: &str) -> std::path::PathBuf {
    repo_path(&format!("lab/tests/data/{name}"))
}

/// Runs `convert --pgn`, which must succeed; its summary and the records.
fn convert(pgn: &Path, out: &Path) -> (String, Vec<Record>) {
    let o = lab(&["convert", "--pgn", path(pgn), "--out", path(out)]);
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    let said = text(&o.stdout);
    let records = read_all(out).unwrap();
    assert_eq!(
        std::fs::metadata(out).unwrap().len(),
        (HEADER_BYTES + records.len() * RECORD_BYTES) as u64
    );
    assert!(
        said.contains(&format!(" {} positions written", records.len())),
        "{said}"
    );
    for r in &records {
        r.position().expect("a legal position");
        assert!(r.score.expect("a score").abs() <= MAX_SCORE);
    }
    (said, records)
}

/// The number the summary puts before `what`.
fn count(said: &str, what: &str) -> usize {
    let at = said
        .find(what)
        .unwrap_or_else(|| panic!("no '{what}' in {said}"));
    said[..at]
        .split_whitespace()
        .last()
        .and_then(|n| n.trim_start_matches('(').parse().ok())
        .unwrap_or_else(|| panic!("no count before '{what}' in {said}"))
}

fn as_expected(r: &Record) -> (String, char, i16) {
    let turn = if r.turn.is_white() { 'w' } else { 'b' };
    (r.board.to_string(), turn, r.score.unwrap())
}

/// The records are `candidates` (every scored position that passes the
/// filters but the quiescence test) less those the summary says were not
/// quiet, in order.
fn check_records(said: &str, records: &[Record], candidates: &[Expected]) {
    let got: Vec<(String, char, i16)> = records.iter().map(as_expected).collect();
    let not_quiet = count(said, "not quiet");
    assert_eq!(got.len() + not_quiet, candidates.len(), "{said}");
    let mut rest = candidates.iter();
    for g in &got {
        assert!(
            rest.any(|&(fen, turn, score)| (fen, turn, score) == (g.0.as_str(), g.1, g.2)),
            "{g:?} is not one of the expected records, in order: {candidates:?}"
        );
    }
}

/// OpenBench's comment form: score depth/seldepth time nodes.
const OPENBENCH: [Expected; 11] = [
    (
        "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R",
        'w',
        35,
    ),
    (
        "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1",
        'b',
        29,
    ),
    (
        "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1",
        'w',
        41,
    ),
    (
        "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQR1K1",
        'b',
        37,
    ),
    (
        "r1bqk2r/2ppbppp/p1n2n2/1p2p3/B3P3/5N2/PPPP1PPP/RNBQR1K1",
        'w',
        43,
    ),
    (
        "r1bqk2r/2ppbppp/p1n2n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1",
        'b',
        39,
    ),
    (
        "r1bqk2r/2p1bppp/p1np1n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1",
        'w',
        47,
    ),
    // Black's +0.05 is White's -5.
    (
        "r1bqk2r/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N2/PP1P1PPP/RNBQR1K1",
        'b',
        -5,
    ),
    // (9. h3's +M5 and Nb8 without a comment are skipped.)
    (
        "rnbq1rk1/2p1bppp/p2p1n2/1p2p3/4P3/1BP2N1P/PP1P1PP1/RNBQR1K1",
        'w',
        123,
    ),
    (
        "rnbq1rk1/2p1bppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1",
        'b',
        119,
    ),
    // +45.00 clamped.
    (
        "r1bq1rk1/2pnbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1",
        'w',
        MAX_SCORE,
    ),
];

#[test]
fn openbench_comments_give_scores_for_white() {
    let dir = scratch("convert-pgn-openbench");
    let out = dir.join("ob.bin");
    let (said, records) = convert(&data("openbench-scores.pgn"), &out);
    assert!(said.contains("1 games (0 skipped)"), "{said}");
    assert_eq!(
        count(&said, "without a score"),
        5,
        "four book moves, one bare"
    );
    assert_eq!(count(&said, "mate scores"), 1);
    assert_eq!(count(&said, "opening plies"), 4);
    assert!(count(&said, "not quiet") <= 2, "{said}");
    check_records(&said, &records, &OPENBENCH);
    assert!(
        records
            .iter()
            .all(|r| r.result == Some(GameResult::WhiteWins))
    );
}

/// tools/match.py's comments (`+0.31/12 0.105s`, python-chess's
/// `StringExporter(comments=True)` writing `{ ... }`), from a FEN with Black
/// to move; game drawn.
const MATCH_PY: [Expected; 8] = [
    (
        "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQR1K1",
        'b',
        36,
    ),
    (
        "r1bqk2r/2ppbppp/p1n2n2/1p2p3/B3P3/5N2/PPPP1PPP/RNBQR1K1",
        'w',
        44,
    ),
    (
        "r1bqk2r/2ppbppp/p1n2n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1",
        'b',
        40,
    ),
    (
        "r1bqk2r/2p1bppp/p1np1n2/1p2p3/4P3/1B3N2/PPPP1PPP/RNBQR1K1",
        'w',
        48,
    ),
    (
        "r1bqk2r/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N2/PP1P1PPP/RNBQR1K1",
        'b',
        -6,
    ),
    (
        "rnbq1rk1/2p1bppp/p2p1n2/1p2p3/4P3/1BP2N1P/PP1P1PP1/RNBQR1K1",
        'w',
        52,
    ),
    (
        "rnbq1rk1/2p1bppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1",
        'b',
        50,
    ),
    // The last comment also holds the reason the game ended.
    (
        "r1bq1rk1/2pnbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1",
        'w',
        -58,
    ),
];

/// The comments of a PGN text with every score taken out (what a runner
/// that prints only the time writes).
fn without_scores(pgn: &str) -> String {
    let mut out = String::new();
    for (i, part) in pgn.split('{').enumerate() {
        match part.split_once('}') {
            Some((comment, after)) if i > 0 => {
                let kept: Vec<&str> = comment
                    .split_whitespace()
                    .filter(|t| !t.contains('/') && !t.starts_with(['+', '-']))
                    .collect();
                out.push_str(&format!("{{ {} }}{after}", kept.join(" ")));
            }
            _ => out.push_str(part),
        }
    }
    out
}

#[test]
fn match_py_games_convert_and_a_file_without_scores_is_refused() {
    let dir = scratch("convert-pgn-match-py");
    let pgn = data("match-py-scores.pgn");
    let out = dir.join("m.bin");
    let (said, records) = convert(&pgn, &out);
    assert!(said.contains("1 games (0 skipped)"), "{said}");
    assert_eq!(count(&said, "without a score"), 1);
    assert_eq!(count(&said, "mate scores"), 1);
    assert_eq!(count(&said, "opening plies"), 8);
    check_records(&said, &records, &MATCH_PY);
    assert!(records.iter().all(|r| r.result == Some(GameResult::Draw)));

    // No scores at all: refused, saying so; an existing file is kept.
    let bare = dir.join("bare.pgn");
    let stripped = without_scores(&std::fs::read_to_string(&pgn).unwrap());
    assert!(stripped.contains("{ 0.100s }") && !stripped.contains("+0.22"));
    std::fs::write(&bare, stripped).unwrap();
    assert_refused_keeping_outputs(&["convert", "--pgn", path(&bare)], &out, |err| {
        err.contains("no position with an engine score") && err.contains("18 without a score")
    });
}

#[test]
fn fastchess_games_become_records_that_train() {
    let dir = scratch("convert-pgn-fastchess");
    let out = dir.join("fc.bin");
    let (said, records) = convert(&data("fastchess-stockman-stockfish.pgn"), &out);
    assert!(said.contains("2 games (0 skipped)"), "{said}");
    assert_eq!(count(&said, "without a score"), 0);
    // 31. Nf5 {+M9/49} to 35. Rh8# {+M1/245}.
    assert_eq!(count(&said, "mate scores"), 9);
    assert_eq!(count(&said, "opening plies"), 16);
    let kept = records.len()
        + ["in check", "captures or promotions", "not quiet"]
            .iter()
            .map(|w| count(&said, w))
            .sum::<usize>();
    assert_eq!(kept + 9 + 16, 204 + 69, "every ply counted once: {said}");
    // The drawn game's positions, then the one White won.
    let draws = records
        .iter()
        .take_while(|r| r.result == Some(GameResult::Draw))
        .count();
    assert!(draws > 100, "{draws}");
    assert!(
        records[draws..]
            .iter()
            .all(|r| r.result == Some(GameResult::WhiteWins))
    );
    assert!(records.len() - draws > 20);
    // The last of each game: Black's moves, 102... Ke5 {0.00/89} and
    // 30... Qd2 {-10.26/12} (White's +1026).
    let last_draw = as_expected(&records[draws - 1]);
    assert_eq!(
        (last_draw.0.as_str(), last_draw.1, last_draw.2),
        ("8/1pK5/p3k1p1/P5P1/1P2b1P1/8/8/6B1", 'b', 0)
    );
    let last = as_expected(records.last().unwrap());
    assert_eq!(
        (last.0.as_str(), last.1, last.2),
        ("r2r2k1/1p3pp1/p7/3pR3/3N2Q1/P6R/1q3PKP/8", 'b', 1026)
    );
    let net = dir.join("net.nnue");
    let o = lab(&[
        "train-net",
        "--data",
        path(&out),
        "--out",
        path(&net),
        "--epochs",
        "1",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(net.exists());
}

#[test]
fn bad_games_and_comments_are_skipped_and_counted() {
    let dir = scratch("convert-pgn-bad");
    let good = std::fs::read_to_string(data("openbench-scores.pgn")).unwrap();
    let pgn = dir.join("mixed.pgn");
    std::fs::write(
        &pgn,
        format!(
            "{good}\n\
             [Result \"1-0\"]\n\n1. e4 {{+0.2/10}} e5 {{-0.1/9}} 2. Ke3 {{+9.0/1}} 1-0\n\n\
             [Result \"*\"]\n\n1. d4 {{+0.2/10}} d5 {{-0.1/9}} *\n\n\
             [Variant \"Atomic\"]\n[Result \"0-1\"]\n\n1. e3 {{+0.1}} 0-1\n\n\
             [Result \"0-1\"]\n\n1. e4 {{+abc/3}} e5 {{M/4}} 2. Nf3 {{}} Nc6 {{-inf}} \
             3. Bc4 {{+1e5/3}} 0-1\n"
        ),
    )
    .unwrap();
    let (said, records) = convert(&pgn, &dir.join("mixed.bin"));
    assert!(said.contains("5 games (3 skipped)"), "{said}");
    assert_eq!(count(&said, "without a score"), 5 + 5);
    check_records(&said, &records, &OPENBENCH);
    let o = lab(&[
        "convert",
        "--pgn",
        path(&pgn),
        "--out",
        path(&dir.join("again.bin")),
    ]);
    let err = text(&o.stderr);
    assert!(err.contains("game 2: skipped: illegal move 'Ke3'"), "{err}");
    assert!(err.contains("game 3: skipped: no result"), "{err}");
    assert!(err.contains("game 4: skipped: variant 'Atomic'"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
