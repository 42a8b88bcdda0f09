//! The perft suite against the library (every standard position, plain and
//! hashed), Chess960 start positions, and the `stockman perft` command as a
//! user runs it: output format, exit codes and error messages.

mod common;

use common::cli::{scratch, stockman, text};
use common::scratch::Scratch;

use rayon::prelude::*;
use shakmaty::{CastlingSide, Color, File, Position, Square};
use std::path::{Path, PathBuf};
use stockman::perft::{EpdEntry, PerftTable, divide_with, parse_epd, perft, perft_with};

/// The deepest listed count checked by the suite test.
const MAX_NODES: u64 = 2_000_000;

fn positions(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("positions")
        .join(file)
}

fn load(file: &str) -> Vec<EpdEntry> {
    let text = std::fs::read_to_string(positions(file)).unwrap();
    parse_epd(&text, false).unwrap()
}

/// The deepest listed depth whose count is at most `MAX_NODES`, or the
/// shallowest listed one when all are larger (every position is checked).
fn pick(e: &EpdEntry) -> (u32, u64) {
    e.expected
        .iter()
        .copied()
        .rfind(|&(_, n)| n <= MAX_NODES)
        .unwrap_or(e.expected[0])
}

fn check_all(entries: &[EpdEntry], count: impl Fn(&EpdEntry, u32) -> u64 + Sync) -> Vec<String> {
    entries
        .par_iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let (depth, want) = pick(e);
            let got = count(e, depth);
            (got != want).then(|| format!("#{} {} D{depth}: got {got}, want {want}", i + 1, e.fen))
        })
        .collect()
}

#[test]
fn every_standard_position_plain() {
    let entries = load("perft-standard.epd");
    assert_eq!(entries.len(), 128);
    let failures = check_all(&entries, |e, d| perft(&e.pos, d));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_standard_position_hashed_and_divided() {
    // A small table so that replacement and reuse across positions happen.
    let table = PerftTable::new(2).unwrap();
    let entries = load("perft-standard.epd");
    let failures = check_all(&entries, |e, d| perft_with(&e.pos, d, Some(&table)));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let failures = check_all(&entries, |e, d| {
        divide_with(&e.pos, d, Some(&table))
            .iter()
            .map(|(_, n)| n)
            .sum()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn chess960_start_positions_to_depth_3() {
    let entries = load("perft-chess960.epd");
    assert_eq!(entries.len(), 960);
    // Castling rights standard chess cannot castle with (a king off the
    // e-file, a rook off its corner) select Chess960 castling by themselves;
    // the others read as standard chess (the same moves either way).
    let mut chess960 = 0;
    for e in &entries {
        let castles = e.pos.castles();
        let board = e.pos.board();
        let standard = Color::ALL.into_iter().all(|color| {
            let back = color.backrank();
            CastlingSide::ALL.into_iter().all(|side| {
                castles.rook(color, side).is_none_or(|rook| {
                    let corner = if side == CastlingSide::KingSide {
                        File::H
                    } else {
                        File::A
                    };
                    rook == Square::from_coords(corner, back)
                        && board.king_of(color) == Some(Square::from_coords(File::E, back))
                })
            })
        });
        assert_eq!(e.castling.is_chess960(), !standard, "{}", e.fen);
        chess960 += usize::from(!standard);
    }
    assert!(chess960 > 900, "{chess960}");
    let table = PerftTable::new(2).unwrap();
    let failures: Vec<String> = entries
        .par_iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let want = e.expected.iter().find(|&&(d, _)| d == 3)?.1;
            let plain = perft(&e.pos, 3);
            let hashed = perft_with(&e.pos, 3, Some(&table));
            (plain != want || hashed != want).then(|| {
                format!(
                    "#{} {}: plain {plain}, hashed {hashed}, want {want}",
                    i + 1,
                    e.fen
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Writes `contents` to `name` in the test's scratch folder.
fn temp_file(dir: &Scratch, name: &str, contents: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn binary_perft_3_prints_stockfish_style_divide() {
    let out = stockman(&["perft", "3"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 23, "{stdout}");
    let mut sum = 0;
    for line in &lines[..20] {
        let (mv, n) = line.split_once(": ").expect("'move: count'");
        let b = mv.as_bytes();
        assert!(
            b.len() == 4
                && (b'a'..=b'h').contains(&b[0])
                && (b'1'..=b'8').contains(&b[1])
                && (b'a'..=b'h').contains(&b[2])
                && (b'1'..=b'8').contains(&b[3]),
            "{line}"
        );
        sum += n.parse::<u64>().expect("a count");
    }
    assert!(lines.contains(&"e2e4: 600") && lines.contains(&"b1c3: 440"));
    assert_eq!(sum, 8902);
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
    let time = lines[22];
    let rest = time.strip_prefix("Time: ").expect(time);
    let (ms, nps) = rest.split_once(" ms, ").expect(time);
    assert!(ms.parse::<u64>().is_ok() && nps.strip_suffix(" nps").unwrap().parse::<u64>().is_ok());
}

#[test]
fn binary_counts_agree_with_and_without_hash_and_threads() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let runs: Vec<String> = [
        vec!["perft", "4", "--fen", kiwipete],
        vec![
            "perft",
            "4",
            "--fen",
            kiwipete,
            "--hash",
            "0",
            "--threads",
            "1",
        ],
        vec![
            "perft",
            "4",
            "--fen",
            kiwipete,
            "--hash",
            "1",
            "--threads",
            "2",
        ],
    ]
    .iter()
    .map(|args| {
        let out = stockman(args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        // Everything but the timing line.
        let s = text(&out.stdout);
        s.lines()
            .filter(|l| !l.starts_with("Time:"))
            .collect::<Vec<_>>()
            .join("\n")
    })
    .collect();
    assert!(runs[0].contains("Nodes searched: 4085603"), "{}", runs[0]);
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
}

#[test]
fn binary_chess960_castling_is_king_takes_rook() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let out = stockman(&["perft", "2", "--fen", fen]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("Nodes searched: 528"), "{s}");
    let out = stockman(&[
        "perft",
        "1",
        "--fen",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "--chess960",
    ]);
    let s = text(&out.stdout);
    assert!(s.contains("e1h1: 1") && s.contains("e1a1: 1"), "{s}");
}

#[test]
fn binary_epd_suite_passes_and_fails_with_the_right_exit_code() {
    let dir = scratch("perft-suite-exit-code");
    let good = temp_file(
        &dir,
        "good.epd",
        "# comment\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197\n\n\
         4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D1 16 ;D2 71 ;D6 846648\n",
    );
    let out = stockman(&["perft", "--epd", good.to_str().unwrap(), "--max-depth", "3"]);
    let s = text(&out.stdout);
    assert!(out.status.success(), "{s}{}", text(&out.stderr));
    assert!(
        s.contains("1 pass D3 1197 nodes") && s.contains("2 pass D2 71 nodes"),
        "{s}"
    );
    assert!(
        s.contains("2 positions: 2 passed, 0 failed, 0 skipped"),
        "{s}"
    );

    // The second position's D2 count is deliberately wrong.
    let bad = temp_file(
        &dir,
        "wrong-count.epd",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D1 16 ;D2 70\n",
    );
    let out = stockman(&["perft", "--epd", bad.to_str().unwrap()]);
    let s = text(&out.stdout);
    assert!(!out.status.success(), "{s}");
    assert!(s.contains("2 FAIL D2 71 nodes, expected 70"), "{s}");
    assert!(s.contains("1 passed, 1 failed"), "{s}");
    assert!(text(&out.stderr).contains("1 of 2 perft positions FAILED"));
}

#[test]
fn binary_bad_input_is_a_message_and_a_failure_never_a_panic() {
    let dir = scratch("perft-bad-input");
    let bad_line = temp_file(
        &dir,
        "bad-line.epd",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 fifteen\n",
    );
    let missing = dir.join("no-such-file.epd");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["perft", "3", "--fen", "not a fen"], "invalid FEN"),
        (
            vec!["perft", "3", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
            "invalid FEN",
        ),
        (vec!["perft", "3", "--fen", ""], "empty FEN"),
        (vec!["perft", "three"], "positive integer"),
        (vec!["perft", "0"], "positive integer"),
        (vec!["perft", "-2"], "positive integer"),
        (vec!["perft", "16"], "more than 15"),
        (vec!["perft"], "required"),
        (
            vec!["perft", "3", "--max-depth", "2"],
            "cannot be used with",
        ),
        (vec!["perft", "3", "--epd", "x.epd"], "cannot be used with"),
        (
            vec![
                "perft",
                "--epd",
                "x.epd",
                "--fen",
                "8/8/8/8/8/8/8/8 w - - 0 1",
            ],
            "cannot be used with",
        ),
        (vec!["perft", "3", "--threads", "0"], "threads"),
        (
            vec!["perft", "--epd", missing.to_str().unwrap()],
            "cannot read",
        ),
        (
            vec!["perft", "--epd", bad_line.to_str().unwrap()],
            "line 2: bad count 'fifteen'",
        ),
        (
            vec![
                "perft",
                "--epd",
                bad_line.to_str().unwrap(),
                "--max-depth",
                "x",
            ],
            "positive integer",
        ),
    ];
    for (args, needle) in cases {
        let out = stockman(&args);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: stderr {err:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn an_out_of_range_halfmove_clock_is_refused() {
    for clock in ["151", "4294967296", "-3"] {
        let fen = format!("4k3/8/8/8/8/8/8/4K3 w - - {clock} 1");
        let o = stockman(&["perft", "1", "--fen", &fen]);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{fen} was taken");
        assert!(
            err.contains("halfmove clock") && !err.contains("panicked"),
            "{err}"
        );
    }
    let o = stockman(&["perft", "1", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 150 1"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}
