//! The `lab` feature through the real binary: with it, `stockman --help`
//! lists the research and tuning subcommands; without it
//! (`--no-default-features`), the engine's own subcommands still work and a
//! lab subcommand is a clear error with a non-zero exit.

mod common;

use common::cli::{stockman, text};

/// The lab's subcommands (src/main.rs, `LAB_SUBCOMMANDS`).
const LAB: [&str; 8] = [
    "bstar",
    "compare",
    "trees",
    "datagen",
    "convert",
    "label",
    "tune",
    "train-net",
];

/// The subcommands `stockman --help` lists.
fn listed_subcommands() -> Vec<String> {
    let o = stockman(&["--help"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let help = text(&o.stdout);
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn the_engine_subcommands_are_always_listed() {
    let listed = listed_subcommands();
    for core in ["uci", "bench", "perft", "spsa", "genfens"] {
        assert!(listed.iter().any(|c| c == core), "{core} not in {listed:?}");
    }
}

#[cfg(feature = "lab")]
#[test]
fn a_lab_build_lists_the_lab_subcommands() {
    let listed = listed_subcommands();
    for lab in LAB {
        assert!(listed.iter().any(|c| c == lab), "{lab} not in {listed:?}");
    }
}

#[cfg(not(feature = "lab"))]
#[test]
fn a_build_without_the_lab_refuses_its_subcommands_clearly() {
    let listed = listed_subcommands();
    for lab in LAB {
        assert!(!listed.iter().any(|c| c == lab), "{lab} in {listed:?}");
        let o = stockman(&[lab, "--help"]);
        assert!(!o.status.success(), "{lab} ran");
        let err = text(&o.stderr);
        assert!(
            err.contains("belongs to the lab") && err.contains(lab),
            "{lab}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}
