//! `stockman-lab trees --algorithm bstar` and `stockman-lab bstar` through the real
//! binary: the tables, the CSV, and clear errors for bad arguments.

mod common;

use common::cli::{lab, path, scratch, text};

fn args(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

#[test]
fn trees_bstar_prints_a_row_per_width_and_every_tree_in_the_csv() {
    let dir = scratch("bstar-trees");
    let csv = dir.join("bstar.csv");
    let mut a =
        args("trees --algorithm bstar --branching 3 --depth 4 --count 40 --width 0,300 --csv");
    a.push(path(&csv));
    let out = lab(&a);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // Width, trees, best, separated: every tree minimax-best and separated.
    for width in ["0", "300"] {
        let row = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(width))
            .unwrap_or_else(|| panic!("no row for width {width}:\n{stdout}"));
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(&cells[1..4], ["40", "40", "40"], "{row}");
    }
    let written = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(written.lines().count(), 1 + 2 * 40);
    assert!(
        written
            .lines()
            .skip(1)
            .all(|l| l.contains(",best,0,separated,"))
    );
}

#[test]
fn chess_bstar_reports_moves_and_node_totals() {
    let dir = scratch("bstar-chess");
    let epd = dir.join("two.epd");
    std::fs::write(
        &epd,
        "6k1/5ppp/8/8/8/8/8/R6K w - - bm Ra8#; id \"mate\";\n\
         3q2k1/5pp1/7p/8/8/8/5PPP/3R2K1 w - - bm Rxd8+; id \"queen\";\n",
    )
    .unwrap();
    let mut a = args("bstar --depth 2 --reference-depth 3 --budget 50 --epd");
    a.push(path(&epd));
    let out = lab(&a);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("B* separated on 2/2 positions"), "{stdout}");
    assert!(stdout.contains("EPD bm found: B* 2/2"), "{stdout}");
    assert!(
        stdout.contains("a1a8") && stdout.contains("d1d8"),
        "{stdout}"
    );
}

#[test]
fn bad_bstar_arguments_are_clear_errors() {
    let cases = [
        "trees --algorithm bstar --branching 2 --leaves 1,2",
        "trees --algorithm bstar --branching 2 --depth 3 --width -4",
        "trees --algorithm bstar --branching 2 --depth 3 --width 1,,x",
        "trees --algorithm bstar --branching 2 --depth 3 --budget 0",
        "trees --algorithm bstar --branching 9 --depth 9",
        "trees --branching 2 --depth 3 --per-tree",
        "bstar --epd positions/bench.epd --margin 9999",
        "bstar --epd positions/bench.epd --probe-depth 0",
        "bstar --epd positions/bench.epd --horizon 0",
        "bstar --epd positions/bench.epd --reference-depth 99",
        "bstar --epd no/such/file.epd",
    ];
    for line in cases {
        let out = lab(&args(line));
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{line} succeeded");
        assert!(err.contains("error"), "{line}: {err}");
        assert!(!err.contains("panicked"), "{line}: {err}");
    }
}
