//! Helpers shared by the lab's integration tests: paths in the repository,
//! the lab binary, the engine binary beside it, and the Python interpreter.
#![allow(dead_code)]

pub mod cli;
/// The engine's own helper for driving the binary through pipes, shared
/// with the engine's tests (it starts `engine_bin()` below).
#[path = "../../../tests/common/engine_process.rs"]
pub mod engine_process;
/// The engine's reading of `--help` text, shared with the lab's help test.
#[path = "../../../tests/common/help_text.rs"]
pub mod help_text;
/// The engine's tests' scratch directory, removed when dropped.
#[path = "../../../tests/common/scratch.rs"]
pub mod scratch;

use std::path::PathBuf;

/// A path relative to the repository root (the lab crate is lab/).
pub fn repo_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
}

/// The engine binary, `stockman`, built beside `stockman-lab` in the same
/// target directory: `cargo test --workspace` (what `make test` runs) builds
/// both. Fails with how to build it when it is not there.
pub fn engine_bin() -> PathBuf {
    let lab = PathBuf::from(env!("CARGO_BIN_EXE_stockman-lab"));
    let engine = lab.with_file_name(format!("stockman{}", std::env::consts::EXE_SUFFIX));
    assert!(
        engine.is_file(),
        "the engine binary {} is missing: run the lab's tests with the engine's, \
         `cargo test --workspace` (or `make test`)",
        engine.display()
    );
    engine
}

/// The Python 3 interpreter that has python-chess: `STOCKMAN_PYTHON` when
/// set (`make test` sets it), else `python3`.
pub fn python() -> String {
    std::env::var("STOCKMAN_PYTHON")
        .ok()
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| "python3".to_string())
}
