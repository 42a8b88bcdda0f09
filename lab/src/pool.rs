//! The lab's worker threads: one rayon pool per command, of the size the
//! user asked for (all cores by default).

/// A rayon pool of `threads` (all cores when `None`).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))
}
