//! Running the real `stockman-lab` binary from the lab's integration tests:
//! its output as text, and a fresh scratch directory for each test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `stockman-lab` with `args` to the end, from the repository root
/// (where a user runs it, so its default paths are the repository's).
pub fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stockman-lab"))
        .args(args)
        .current_dir(super::repo_path(""))
        .output()
        .expect("run stockman-lab")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh, empty directory for one test (unique to the name and process).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stockman-lab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}
