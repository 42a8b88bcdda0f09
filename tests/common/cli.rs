//! Running the real `stockman` binary from the integration tests: its
//! output as text, and a fresh scratch directory for each test.

use std::path::{Path, PathBuf};
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

/// A fresh, empty directory for one test (unique to the name and process).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stockman-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}
