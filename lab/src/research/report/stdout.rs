//! The research commands' tables go to standard output through `emit`.

use std::io::Write as _;

/// Writes to stdout; a closed pipe or full disk is an error, not a panic.
pub fn emit(text: &str) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}
