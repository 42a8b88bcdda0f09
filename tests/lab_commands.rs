//! The engine and the lab are two binaries: `stockman --help` lists the
//! engine's own subcommands and says where the lab's are, and a lab
//! subcommand given to `stockman` is a clear error naming `stockman-lab`,
//! with a non-zero exit.

mod common;

use common::cli::{stockman, text};
use common::help_text::listed_subcommands;

/// The lab's subcommands (src/main.rs, `LAB_SUBCOMMANDS`; lab/src/main.rs).
const LAB: [&str; 9] = [
    "bstar",
    "compare",
    "trees",
    "datagen",
    "convert",
    "label",
    "tune",
    "train-net",
    "blend-net",
];

#[test]
fn the_engine_lists_its_own_subcommands_and_points_to_the_lab() {
    let listed = listed_subcommands(stockman);
    let help = text(&stockman(&["--help"]).stdout);
    for engine in ["uci", "bench", "perft", "spsa", "genfens"] {
        assert!(
            listed.iter().any(|c| c == engine),
            "{engine} not in {listed:?}"
        );
    }
    for lab in LAB {
        assert!(!listed.iter().any(|c| c == lab), "{lab} in {listed:?}");
    }
    assert!(help.contains("stockman-lab"), "{help}");
}

#[test]
fn a_lab_subcommand_is_refused_with_the_lab_binary_named() {
    for lab in LAB {
        let o = stockman(&[lab, "--help"]);
        assert!(!o.status.success(), "{lab} ran");
        let err = text(&o.stderr);
        assert!(err.contains(&format!("stockman-lab {lab}")), "{lab}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
