//! The binary data format through the real binary: `datagen --out X.bin`
//! writes whole records of legal positions with their search scores (the
//! same positions as the text output), `convert` turns text lines into
//! records and refuses a bad line by number without leaving a file, and
//! `train-net` trains on records and refuses a damaged file.

mod common;

use common::cli::{assert_refused_keeping_outputs, lab, path, scratch, text};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
use std::path::Path;
use stockman_lab::data::packed::{HEADER_BYTES, MAX_SCORE, RECORD_BYTES, read_all};

fn datagen(out: &Path) -> String {
    let o = lab(&[
        "datagen",
        "--games",
        "2",
        "--nodes",
        "200",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        path(out),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout)
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn train(data: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "train-net",
        "--data",
        path(data),
        "--out",
        path(out),
        "--epochs",
        "1",
        "--threads",
        "2",
    ];
    args.extend(extra);
    lab(&args)
}

#[test]
fn datagen_writes_records_that_train_a_network() {
    let dir = scratch("binary-datagen");
    let (bin, txt) = (dir.join("t.bin"), dir.join("t.txt"));
    let said = datagen(&bin);
    let bytes = std::fs::read(&bin).unwrap();
    assert_eq!(&bytes[..8], b"STKDATA1");
    assert_eq!((bytes.len() - HEADER_BYTES) % RECORD_BYTES, 0);
    let records = read_all(&bin).unwrap();
    assert!(!records.is_empty());
    assert!(
        said.contains(&format!(" {} positions", records.len())),
        "{said}"
    );
    // The same games in text: the same positions and results, in order.
    datagen(&txt);
    let lines: Vec<String> = std::fs::read_to_string(&txt)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), records.len());
    for (r, line) in records.iter().zip(&lines) {
        let legal = r.position().unwrap_or_else(|e| panic!("{line}: {e}"));
        let (fen, result) = line.rsplit_once(' ').unwrap();
        let pos = position(fen);
        assert_eq!((legal.board(), legal.turn()), (pos.board(), pos.turn()));
        let score = r.score.expect("a search score");
        assert!(score.abs() <= MAX_SCORE, "{line}: {score}");
        let white = r.result.expect("a result").white_score();
        assert_eq!(format!("[{white:.1}]"), result, "{line}");
    }
    println!(
        "{} positions: {} bytes binary, {} bytes text",
        records.len(),
        bytes.len(),
        std::fs::metadata(&txt).unwrap().len()
    );
    let net = dir.join("net.nnue");
    let o = train(&bin, &net, &["--lambda", "0.7"]);
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("epoch 1/1"), "{err}");
    assert!(net.exists());
}

const UP: &str = "4k3/pppp4/8/8/8/8/PPPP4/3QK3";

#[test]
fn convert_turns_text_into_records() {
    let dir = scratch("binary-convert");
    let (input, out) = (dir.join("in.txt"), dir.join("out.bin"));
    std::fs::write(
        &input,
        format!(
            "# three positions\n{UP} w - - 0 1 | 900 | 1.0\n{UP} b - - 0 1 [0.5]\n\
             {UP} w - - 0 1 | 812 | 0.973\n"
        ),
    )
    .unwrap();
    let o = lab(&["convert", "--from", path(&input), "--out", path(&out)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    assert!(
        said.contains("3 records (1 without a score, 1 without a game result)"),
        "{said}"
    );
    assert_eq!(
        std::fs::metadata(&out).unwrap().len(),
        (HEADER_BYTES + 3 * RECORD_BYTES) as u64
    );
    let records = read_all(&out).unwrap();
    let scores: Vec<Option<i16>> = records.iter().map(|r| r.score).collect();
    assert_eq!(scores, [Some(900), None, Some(812)]);
    assert!(records[2].result.is_none());
    let o = train(&out, &dir.join("net.nnue"), &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));

    // A bad line: named by number, and no file left (an existing one kept).
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        format!("{UP} w - - 0 1 [1.0]\n\n{UP} w - - 0 1 | lots | 1.0\n"),
    )
    .unwrap();
    assert_refused_keeping_outputs(&["convert", "--from", path(&bad)], &out, |err| {
        err.contains("bad.txt:3:") && err.contains("lots")
    });
}

#[test]
fn damaged_binary_files_and_bad_options_are_refused() {
    let dir = scratch("binary-bad");
    let good = dir.join("good.bin");
    let input = dir.join("in.txt");
    std::fs::write(&input, format!("{UP} w - - 0 1 | 900 | 1.0\n").repeat(4)).unwrap();
    let o = lab(&["convert", "--from", path(&input), "--out", path(&good)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &bytes[..bytes.len() - 3]).unwrap();
    let mut piece = bytes.clone();
    piece[HEADER_BYTES + RECORD_BYTES + 8] = 0xdd;
    let bad_piece = dir.join("piece.bin");
    std::fs::write(&bad_piece, piece).unwrap();
    let mut magic = bytes.clone();
    magic[0] = b'X';
    let bad_magic = dir.join("magic.bin");
    std::fs::write(&bad_magic, magic).unwrap();
    let net = dir.join("net.nnue");
    let cases: [(&Path, &[&str], &str); 4] = [
        (&truncated, &[], "truncated"),
        (&bad_piece, &[], "record 2 (byte 40): piece code 13"),
        (&bad_magic, &[], "not a Stockman data file"),
        (&good, &["--lambda", "1.5"], "[0, 1]"),
    ];
    for (data, extra, says) in cases {
        let o = train(data, &net, extra);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{says}: succeeded");
        assert!(err.contains(says), "{says}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(!net.exists());
    // A failed binary datagen keeps the file it would have replaced.
    let pgn = dir.join("none.pgn");
    std::fs::write(&pgn, "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 *\n").unwrap();
    let o = lab(&["datagen", "--pgn", path(&pgn), "--out", path(&good)]);
    assert!(!o.status.success());
    assert_eq!(std::fs::read(&good).unwrap(), bytes);
}
