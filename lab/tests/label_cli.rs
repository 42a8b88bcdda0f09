//! `stockman-lab label` through the real binary: Stockfish-style static
//! evaluations (a python-chess stand-in that prints Stockfish's `eval`
//! lines), searches by Stockman itself as the labelling engine, the output
//! read back by `tune`, and bad engines or arguments refused with a message.

mod common;

use common::cli::{lab, path, scratch, text};
use common::scratch::Scratch;

use std::path::{Path, PathBuf};
use std::process::Output;

/// White a queen up, White to move; the same material, Black to move; Black
/// a rook up; the start position; White in check (no static value).
const DATA: &str = "\
# a hand-made file
4k3/8/8/8/8/8/8/3QK3 w - - 0 1 [1.0]
4k3/8/8/8/8/8/8/3QK3 b - - 0 1 [1.0]
r3k3/8/8/8/8/8/8/4K3 w - - 0 1 [0.0]
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [0.5]
4k3/8/8/8/8/8/8/r3K2R w - - 0 1 [0.5]
";

/// A scratch directory holding `DATA` (removed when dropped), the data
/// file and an output path.
fn data_file(name: &str) -> (Scratch, PathBuf, PathBuf) {
    let dir = scratch(name);
    let data = dir.join("data.txt");
    std::fs::write(&data, DATA).unwrap();
    let out = dir.join("labelled.txt");
    (dir, data, out)
}

/// `stockman-lab label --data DATA --out OUT` followed by `extra`.
fn label(data: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["label", "--data", path(data), "--out", path(out)];
    args.extend_from_slice(extra);
    lab(&args)
}

/// (FEN, middle field, label) of the output's position lines.
fn labelled(out: &Path) -> Vec<(String, String, f64)> {
    std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(" | ").collect();
            assert_eq!(f.len(), 3, "line {l}");
            (f[0].into(), f[1].into(), f[2].parse().unwrap())
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-5
}

#[test]
fn static_evaluations_become_win_probabilities_in_input_order() {
    let (_dir, data, out) = data_file("label-static");
    let mock = common::repo_path("tests/python/static_eval_engine.py");
    let engine = format!("{} {}", common::python(), mock.display());
    let run = label(
        &data,
        &out,
        &[
            "--engine",
            &engine,
            "--static-eval",
            "--scale",
            "400",
            "--threads",
            "1",
        ],
    );
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", text(&run.stderr));
    let lines = labelled(&out);
    // The position in check has no static value and is skipped.
    assert_eq!(lines.len(), 4, "{lines:?}");
    let p = |cp: f64| 1.0 / (1.0 + 10f64.powf(-cp / 400.0));
    assert!(lines[0].0.starts_with("4k3/8/8/8/8/8/8/3QK3 w"));
    assert_eq!(lines[0].1, "900");
    assert!(close(lines[0].2, p(900.0)));
    // The evaluation is White's already, whoever is to move.
    assert!(lines[1].0.contains(" b - -"));
    assert!(close(lines[1].2, p(900.0)));
    assert_eq!(lines[2].1, "-500");
    assert!(close(lines[2].2, p(-500.0)));
    assert!(close(lines[3].2, 0.5));
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.starts_with("# a hand-made file\n# stockman-lab label --data"));
    assert!(written.contains("(engine: Material Eval;"), "{written}");
    assert!(
        stdout.contains("4 positions labelled by Material Eval"),
        "{stdout}"
    );
    assert!(stdout.contains("1 without a value skipped"), "{stdout}");
    assert!(stdout.contains("the best scale"), "{stdout}");
}

#[test]
fn a_search_by_stockman_itself_labels_and_tune_reads_the_result() {
    let (_dir, data, out) = data_file("label-search");
    let engine = common::engine_bin();
    let me = path(&engine);
    let run = label(
        &data,
        &out,
        &[
            "--engine",
            me,
            "--option",
            "Hash=1",
            "--depth",
            "3",
            "--threads",
            "2",
        ],
    );
    let says = text(&run.stdout) + &text(&run.stderr);
    assert!(run.status.success(), "{says}");
    let lines = labelled(&out);
    assert_eq!(
        lines.len(),
        5,
        "a search scores positions in check too: {lines:?}"
    );
    // Queen up for White with either side to move, rook up for Black.
    assert!(lines[0].2 > 0.9 && lines[1].2 > 0.9, "{lines:?}");
    assert!(lines[2].2 < 0.1, "{lines:?}");
    assert!((0.3..0.7).contains(&lines[3].2), "{lines:?}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("--option \"Hash=1\" --depth 3 --scale 350 (engine: Stockman"));

    let tuned = out.with_file_name("tuned.rs");
    let tune = lab(&[
        "tune",
        "--data",
        path(&out),
        "--epochs",
        "0",
        "--k",
        "1",
        "--out",
        path(&tuned),
    ]);
    let says = text(&tune.stdout) + &text(&tune.stderr);
    assert!(tune.status.success(), "{says}");
    assert!(says.contains("5 positions"), "{says}");
}

#[test]
fn bad_engines_and_arguments_are_refused_with_a_message() {
    let (_dir, data, out) = data_file("label-bad");
    let engine = common::engine_bin();
    let me = path(&engine);
    let cases: [(&[&str], &str); 7] = [
        (
            &["--engine", "/nonexistent/engine", "--depth", "2"],
            "cannot start the engine",
        ),
        // A program that never answers costs the timeout, not a hang.
        (
            &["--engine", "sleep 30", "--depth", "2", "--timeout", "0.5"],
            "no 'uciok' within",
        ),
        (
            &["--engine", me, "--depth", "2", "--timeout", "1e300"],
            "more than a day",
        ),
        // Stockman has no Stockfish-style `eval` output.
        (
            &["--engine", me, "--static-eval"],
            "no 'Final evaluation' line",
        ),
        (&["--engine", me], "--static-eval"),
        (
            &["--engine", me, "--depth", "2", "--option", "Hash"],
            "is not NAME=VALUE",
        ),
        (
            &["--engine", me, "--depth", "2", "--scale", "0"],
            "not a positive number",
        ),
    ];
    let refused = |data: &Path, extra: &[&str], expected: &str| {
        let run = label(data, &out, extra);
        let says = text(&run.stdout) + &text(&run.stderr);
        assert!(!run.status.success(), "{extra:?} succeeded: {says}");
        assert!(says.contains(expected), "{extra:?}: {says}");
        assert!(!says.contains("panicked"), "{extra:?}: {says}");
        // Nothing half-labelled is left behind.
        let partial = out.with_file_name("labelled.txt.partial");
        assert!(!out.exists() && !partial.exists(), "{extra:?} left a file");
    };
    for (extra, expected) in cases {
        refused(&data, extra, expected);
    }
    let broken = data.with_file_name("broken.txt");
    std::fs::write(&broken, "not a fen [1.0]\n").unwrap();
    refused(&broken, &["--engine", me, "--depth", "2"], "broken.txt:1");
}
