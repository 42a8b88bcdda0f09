//! The research oracle on many seeded random trees — every algorithm returns
//! the minimax value, SSS* ≡ MT-SSS*, DUAL* ≡ MT-DUAL*, SSS*/DUAL* leaves ⊆
//! alpha-beta's — and `stockman-lab trees` driven through the real binary.

mod common;

use common::cli::{lab, scratch, text};

use rayon::prelude::*;
use std::process::Output;
use stockman::rng::SplitMix64;
use stockman_lab::research::trees::examples::{PLAAT_BRANCHING, PLAAT_LEAVES};
use stockman_lab::research::trees::synthetic::leaf_count;
use stockman_lab::research::{
    ExamineOptions, SyntheticSpec, SyntheticTree, TreeAlgorithm, ValueModel, ValueRange, examine,
};

/// Random trees checked by `random_trees_satisfy_the_theorems`.
const RANDOM_TREE_COUNT: u64 = 1200;
/// Bulk random trees are kept at most this big so the test stays fast.
const MAX_RANDOM_TREE_LEAVES: u64 = 6000;
const BRANCHING_RANGE: (i64, i64) = (2, 8);
const DEPTH_RANGE: (i64, i64) = (2, 7);
/// Wide ranges give (nearly) distinct leaf values, narrow ones many ties.
const WIDE_VALUES: (i32, i32) = (-1_000_000, 1_000_000);
const NARROW_VALUES: [(i32, i32); 3] = [(0, 1), (-2, 2), (0, 4)];

/// Draws the parameters of random tree number `i`, reproducibly.
fn random_spec(i: u64) -> SyntheticSpec {
    let mut rng = SplitMix64::new(0x5eed_0000 + i);
    let branching = rng.in_range(BRANCHING_RANGE.0, BRANCHING_RANGE.1) as usize;
    let mut depth = rng.in_range(DEPTH_RANGE.0, DEPTH_RANGE.1) as usize;
    while depth > DEPTH_RANGE.0 as usize
        && leaf_count(branching, depth).unwrap() > MAX_RANDOM_TREE_LEAVES
    {
        depth -= 1;
    }
    let model = if rng.in_range(0, 1) == 0 {
        ValueModel::Uniform
    } else {
        ValueModel::Incremental
    };
    let (lo, hi) = if rng.in_range(0, 1) == 0 {
        WIDE_VALUES
    } else {
        NARROW_VALUES[rng.in_range(0, NARROW_VALUES.len() as i64 - 1) as usize]
    };
    SyntheticSpec {
        branching,
        depth,
        model,
        values: ValueRange::new(lo, hi).unwrap(),
        seed: rng.next_u64(),
    }
}

/// Examines one tree; returns a description of every failed check.
fn failures_on(spec: SyntheticSpec) -> Option<String> {
    let tree = SyntheticTree::new(spec).unwrap();
    let report = examine(
        &tree,
        ExamineOptions {
            first_guess: 0,
            keep_orders: false,
        },
    );
    if report.all_checks_hold() {
        None
    } else {
        // The spec names the model, branching, depth, value range and seed.
        Some(format!("{spec}: {}", report.failures.join("; ")))
    }
}

#[test]
fn random_trees_satisfy_the_theorems() {
    let specs: Vec<SyntheticSpec> = (0..RANDOM_TREE_COUNT).map(random_spec).collect();
    // The sample really covers the parameter space.
    for b in BRANCHING_RANGE.0..=BRANCHING_RANGE.1 {
        assert!(
            specs.iter().any(|s| s.branching == b as usize),
            "no tree with b={b}"
        );
    }
    for d in DEPTH_RANGE.0..=DEPTH_RANGE.1 {
        assert!(
            specs.iter().any(|s| s.depth == d as usize),
            "no tree with d={d}"
        );
    }
    assert!(specs.iter().any(|s| s.model == ValueModel::Incremental));
    assert!(specs.iter().any(|s| s.values.hi - s.values.lo <= 4));
    let failures: Vec<String> = specs.par_iter().filter_map(|&s| failures_on(s)).collect();
    assert!(
        failures.is_empty(),
        "{} of {RANDOM_TREE_COUNT} trees failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn large_trees_satisfy_the_theorems() {
    let shapes = [(8, 5), (5, 6), (3, 9), (2, 12)];
    let failures: Vec<String> = shapes
        .par_iter()
        .flat_map(|&(branching, depth)| {
            [ValueModel::Uniform, ValueModel::Incremental]
                .into_par_iter()
                .filter_map(move |model| {
                    failures_on(SyntheticSpec {
                        branching,
                        depth,
                        model,
                        values: ValueRange::new(-100, 100).unwrap(),
                        seed: 77,
                    })
                })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn best_first_algorithms_beat_alpha_beta_on_average() {
    // Not a theorem for every tree, but the classic finding on random trees.
    let spec = |seed| SyntheticSpec {
        branching: 4,
        depth: 6,
        model: ValueModel::Uniform,
        values: ValueRange::new(-1000, 1000).unwrap(),
        seed,
    };
    let reports: Vec<_> = (0..40)
        .into_par_iter()
        .map(|seed| {
            let tree = SyntheticTree::new(spec(seed)).unwrap();
            examine(
                &tree,
                ExamineOptions {
                    first_guess: 0,
                    keep_orders: false,
                },
            )
        })
        .collect();
    let total = |a| {
        reports
            .iter()
            .map(|r| r.run_of(a).leaves.distinct)
            .sum::<u64>()
    };
    assert!(total(TreeAlgorithm::Sss) < total(TreeAlgorithm::AlphaBeta));
    assert!(total(TreeAlgorithm::AlphaBeta) < total(TreeAlgorithm::Minimax));
    assert_eq!(total(TreeAlgorithm::Sss), total(TreeAlgorithm::MtSss));
}

// ---- the CLI, through the real binary ----

fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn cli_synthetic_table() {
    let out = lab(&[
        "trees",
        "--branching",
        "3",
        "--depth",
        "4",
        "--count",
        "50",
        "--seed",
        "9",
        "--model",
        "incremental",
        "--values",
        "-5..5",
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    for algorithm in TreeAlgorithm::ALL {
        assert!(
            text.lines().any(|l| l.starts_with(algorithm.name())),
            "no row for {algorithm}:\n{text}"
        );
    }
    assert!(text.contains("sss-equivalence: 50/50 trees"), "{text}");
    assert!(text.contains("minimax-agreement: 50/50 trees"), "{text}");
    // Minimax evaluates all 81 leaves of every tree.
    let minimax_row = text.lines().find(|l| l.starts_with("minimax ")).unwrap();
    assert!(minimax_row.contains("81.0"), "{minimax_row}");
}

#[test]
fn cli_explicit_tree_trace() {
    let leaves: Vec<String> = PLAAT_LEAVES.iter().map(|v| v.to_string()).collect();
    let out = lab(&[
        "trees",
        "--leaves",
        &leaves.join(" "),
        "--branching",
        &PLAAT_BRANCHING.to_string(),
        "--trace",
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("minimax value 35"), "{text}");
    let sss_line = text
        .lines()
        .find(|l| l.trim_start().starts_with("sss*"))
        .expect("a trace line for sss*");
    assert!(
        sss_line.ends_with("0:41 2:12 8:34 10:36 1:5 11:35 12:40 13:38"),
        "{sss_line}"
    );
    assert!(text.contains("sss-equivalence: 1/1 trees"), "{text}");
}

#[test]
fn cli_writes_csv() {
    let dir = scratch("trees");
    let path = dir.join("rows.csv");
    let out = lab(&[
        "trees",
        "--branching",
        "2",
        "--depth",
        "5",
        "--count",
        "10",
        "--csv",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let csv = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + TreeAlgorithm::ALL.len(), "{csv}");
    assert!(lines[0].starts_with("model,branching,depth,values,trees,first_seed,algorithm"));
    assert!(
        lines[1].starts_with("uniform,2,5,-1000..1000,10,1,minimax,32.000"),
        "{csv}"
    );
}

#[test]
fn cli_bad_input_is_a_clear_error() {
    let simple_cases = [
        "--branching 0 --depth 3",
        "--branching 2 --depth 1000",
        "--branching 8 --depth 30",
        "--branching 2 --depth 3 --values 5..1",
        "--branching 2 --depth 3 --values x..3",
        "--branching 2 --depth 3 --count 0",
        "--branching -3 --depth 2",
        "--branching 2",
        "--branching 2 --depth 2 --first-guess -2147483648",
    ];
    let mut cases: Vec<Vec<&str>> = simple_cases
        .iter()
        .map(|line| {
            std::iter::once("trees")
                .chain(line.split_whitespace())
                .collect()
        })
        .collect();
    for leaves in ["1 2 3", "1 two", "1 -2147483648"] {
        cases.push(vec!["trees", "--branching", "2", "--leaves", leaves]);
    }
    for args in &cases {
        let out = lab(args);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
