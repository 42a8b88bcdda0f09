//! Running the real `stockman` binary from the integration tests: its
//! output as text, and a fresh scratch directory for each test.

use super::scratch::Scratch;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `stockman` with `args` to the end.
pub fn stockman(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stockman"))
        .args(args)
        .output()
        .expect("run stockman")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh, empty directory for one test (unique to the name and process),
/// removed when the test drops it.
pub fn scratch(name: &str) -> Scratch {
    Scratch::new(name)
}

pub fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}
