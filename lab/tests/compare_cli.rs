//! `stockman-lab compare` through the real binary on a small EPD file: the
//! per-depth tables, the Pure-mode values-agree line, the CSV and SVG files,
//! and clear errors (never a panic) for bad input.

mod common;

use common::cli::{lab, scratch, text};

use std::path::PathBuf;

const SMALL_EPD: &str = "\
# three bench positions and a mate in one, with EPD operations after the FEN
r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14
4rrk1/2p1b1p1/p1p3q1/4p3/2P2n1p/1P1NR2P/PB3PP1/3R1QK1 b - - 2 24

8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"mate in one\";
";

fn write_epd(dir: &std::path::Path, text: &str) -> PathBuf {
    let path = dir.join("positions.epd");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn pure_compare_agrees_and_writes_csv_and_svg() {
    let dir = scratch("pure");
    let epd = write_epd(&dir, SMALL_EPD);
    let (csv, svg) = (dir.join("out.csv"), dir.join("out.svg"));
    let o = lab(&[
        "compare",
        "--epd",
        epd.to_str().unwrap(),
        "--depth",
        "3",
        "--pure",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert!(
        out.contains("values-agree: 4/4 positions at every depth"),
        "{out}"
    );
    for depth in 1..=3 {
        assert!(out.contains(&format!("\ndepth {depth} ")), "{out}");
    }
    for name in ["AlphaBeta", "NegaScout", "MTDf", "SSS", "DUAL"] {
        assert!(
            out.lines().any(|l| l.starts_with(name)),
            "{name} row missing:\n{out}"
        );
    }
    let csv = std::fs::read_to_string(csv).unwrap();
    // Header plus 3 depths x 5 back ends x 4 positions.
    assert_eq!(csv.lines().count(), 1 + 3 * 5 * 4, "{csv}");
    assert!(csv.starts_with("depth,algorithm,mode,line,fen,"));
    assert!(
        csv.contains(",pure,6,6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - -,"),
        "{csv}"
    );
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(
        svg.starts_with("<svg") || svg.starts_with("<?xml"),
        "{}",
        &svg[..svg.len().min(100)]
    );
    assert!(svg.contains("MT") && svg.trim_end().ends_with("</svg>"));
}

#[test]
fn normal_compare_with_chosen_back_ends() {
    let dir = scratch("normal");
    let epd = write_epd(&dir, SMALL_EPD);
    let o = lab(&[
        "compare",
        "--epd",
        epd.to_str().unwrap(),
        "--depth",
        "2",
        "--algorithms",
        "mtdf,AlphaBeta",
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| {
            ["AlphaBeta", "NegaScout", "MTDf", "SSS", "DUAL"]
                .iter()
                .any(|n| l.starts_with(n))
        })
        .collect();
    assert_eq!(rows.len(), 4, "two back ends at two depths:\n{out}");
    assert!(out.contains("ratio = value / AlphaBeta's"), "{out}");
    assert!(out.contains("normal-mode values:"), "{out}");
    assert!(!out.contains("values-agree"), "{out}");
}

#[test]
fn bad_input_is_a_clear_error_never_a_panic() {
    let dir = scratch("errors");
    let good = write_epd(&dir, SMALL_EPD);
    let bad = dir.join("bad.epd");
    std::fs::write(
        &bad,
        "8/8/8/8/8/8/8/K6k w - - 0 1\n\nrnbqkbnr/pppppppp/8 w KQkq - 0 1\n",
    )
    .unwrap();
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "# nothing\n\n").unwrap();
    let missing = dir.join("missing.epd");
    let (good, bad, empty, missing) = (
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
        empty.to_str().unwrap(),
        missing.to_str().unwrap(),
    );
    let unwritable = dir.join("no-such-dir").join("x.svg");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--epd", missing, "--depth", "2"],
            "EPD file: cannot read",
        ),
        (
            vec!["--epd", "/dev/zero", "--depth", "2"],
            "not a regular file",
        ),
        (vec!["--epd", "/tmp", "--depth", "2"], "is a directory"),
        (vec!["--epd", bad, "--depth", "2"], "line 3:"),
        (vec!["--epd", empty, "--depth", "2"], "no positions"),
        (vec!["--epd", good, "--depth", "0"], "out of range"),
        (vec!["--epd", good, "--depth", "21"], "out of range"),
        (vec!["--epd", good, "--depth", "-1"], "out of range"),
        (vec!["--epd", good, "--depth", "two"], "invalid value 'two'"),
        (
            vec!["--epd", good, "--depth", "2", "--algorithms", "mtdf,best"],
            "unknown algorithm 'best'",
        ),
        (
            vec!["--epd", good, "--depth", "2", "--algorithms", ","],
            "no back end",
        ),
        (
            vec![
                "--epd",
                good,
                "--depth",
                "1",
                "--svg",
                unwritable.to_str().unwrap(),
            ],
            "cannot write SVG file",
        ),
        (vec!["--depth", "2"], "--epd"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["compare"];
        all.extend(&args);
        let o = lab(&all);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{args:?} should fail");
        assert!(
            err.contains(expected),
            "{args:?}: expected '{expected}' in: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_position_beyond_what_promotions_allow_is_a_clear_error() {
    let dir = scratch("material");
    let epd = write_epd(
        &dir,
        "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1\n",
    );
    let o = lab(&["compare", "--epd", epd.to_str().unwrap(), "--depth", "2"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("line 1") && err.contains("too much material"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
