//! What OpenBench relies on, through the real binary: the bench signature
//! recorded in docs/openbench.md is the one `stockman bench` prints, and
//! `genfens` (as OpenBench runs it, and in the UCI loop) gives N legal,
//! repeatable positions, refusing bad requests without dying.

mod common;

use common::cli::{stockman, text};
use common::engine_process::EngineProcess;
use common::repo_path;
use std::time::Duration;
use stockman::Board;

/// The last `Bench: N` line of docs/openbench.md: the one place the
/// signature is recorded (update it there when the search changes).
fn recorded_signature() -> u64 {
    let doc = std::fs::read_to_string(repo_path("docs/openbench.md")).expect("docs/openbench.md");
    doc.lines()
        .rev()
        .filter_map(|l| l.trim().strip_prefix("Bench: "))
        .find_map(|n| n.trim().parse::<u64>().ok())
        .expect("a 'Bench: N' line in docs/openbench.md")
}

#[test]
fn the_recorded_bench_signature_is_the_binarys() {
    let o = stockman(&["bench"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let last = out.lines().last().expect("bench output");
    let nodes: u64 = last.split(' ').next().unwrap().parse().expect("nodes");
    assert_eq!(
        nodes,
        recorded_signature(),
        "`stockman bench` gives {nodes}: put 'Bench: {nodes}' in docs/openbench.md \
         (and in the commit message) if the search changed on purpose"
    );
}

/// The FENs of `info string genfens <FEN>` lines; every other line is refused.
fn genfens_fens(out: &str) -> Vec<String> {
    out.lines()
        .map(|l| {
            l.strip_prefix("info string genfens ")
                .unwrap_or_else(|| panic!("not a genfens line: {l}"))
                .to_string()
        })
        .collect()
}

#[test]
fn genfens_as_openbench_runs_it() {
    let run = |seed: u32| {
        let o = stockman(&[&format!("genfens 6 seed {seed} book None"), "quit"]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        genfens_fens(&text(&o.stdout))
    };
    let fens = run(11);
    assert_eq!(fens.len(), 6);
    for fen in &fens {
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(!board.legal_moves().is_empty(), "{fen}");
    }
    assert_eq!(fens, run(11), "the same seed, the same positions");
    assert_ne!(fens, run(12));
    // The subcommand form gives the same positions.
    let o = stockman(&["genfens", "6", "seed", "11", "book", "None"]);
    assert_eq!(genfens_fens(&text(&o.stdout)), fens);
}

#[test]
fn bad_genfens_arguments_are_an_error_on_the_command_line() {
    for bad in [
        "genfens seed 3",
        "genfens 0 seed 3 book None",
        "genfens 3 seed -1 book None",
        "genfens 3 seed 1 book /no/such/book.epd",
    ] {
        let o = stockman(&[bad, "quit"]);
        assert!(!o.status.success(), "{bad}");
        assert!(
            text(&o.stderr).contains("error"),
            "{bad}: {}",
            text(&o.stderr)
        );
        assert!(!text(&o.stdout).contains("info string genfens"), "{bad}");
    }
}

#[test]
fn bad_genfens_requests_in_the_uci_loop_are_reported_and_the_engine_goes_on() {
    let mut engine = EngineProcess::spawn();
    for bad in [
        "genfens",
        "genfens many",
        "genfens 2 seed x",
        "genfens 2 book",
        // Parsed, then refused while generating: the same message.
        "genfens 2 seed 1 book /no/such/stockman/book.epd",
    ] {
        engine.send(bad);
        let lines = engine.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string bad genfens request")),
            "{bad}: {lines:?}"
        );
    }
    engine.send("genfens 3 seed 5 book None");
    let lines = engine.sync();
    let fens: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string genfens "))
        .collect();
    assert_eq!(fens.len(), 3, "{lines:?}");
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(10)).is_some());
}
