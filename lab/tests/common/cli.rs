//! Running the real `stockman-lab` binary from the lab's integration tests:
//! its output as text, and a fresh scratch directory for each test.

use super::scratch::Scratch;
use std::path::Path;
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

/// Fails with a message naming `says`, and no panic.
pub fn refused(args: &[&str], says: &str) -> (String, String) {
    let o = lab(args);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(!o.status.success(), "{args:?} succeeded:\n{out}");
    assert!(err.contains(says), "{args:?}: expected '{says}' in: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    (out, err)
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh, empty directory for one test (unique to the name and process),
/// removed when the test drops it.
pub fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("lab-{name}"))
}

pub fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Runs `stockman-lab` with `args` then `--out TARGET`, once for a new file
/// beside `existing` and once for `existing` itself: each run must fail
/// with an error `says_why` accepts and no panic, leave no `.partial`
/// file, create nothing, and keep `existing` byte for byte.
pub fn assert_refused_keeping_outputs(
    args: &[&str],
    existing: &Path,
    says_why: impl Fn(&str) -> bool,
) {
    let kept = std::fs::read(existing).unwrap();
    let new = existing.with_file_name("new.bin");
    for target in [&new, existing] {
        let mut all = args.to_vec();
        all.extend(["--out", path(target)]);
        let o = lab(&all);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{all:?} succeeded");
        assert!(says_why(&err), "{all:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!Path::new(&format!("{}.partial", path(target))).exists());
    }
    assert!(!new.exists());
    assert_eq!(std::fs::read(existing).unwrap(), kept);
}
