//! A scratch directory for one test: fresh and empty when made, removed
//! with everything in it when dropped (also when the test fails), so test
//! runs leave nothing behind. The engine's unit and integration tests and
//! the lab's tests share this file through `#[path]`.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// `<temp>/stockman-<name>-<process id>`, removed on drop.
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty directory unique to `name` and this process (what a
    /// failed earlier run of the same process id left there is cleared).
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("stockman-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a scratch directory");
        Scratch(dir)
    }
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
