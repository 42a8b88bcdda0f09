//! The malloc arenas of the search threads: one for each thread, so that no
//! thread waits on a lock that another thread holds while it waits for a core.

/// Malloc arenas allowed: one for each thread of the largest `Threads`, and
/// the input loop's, the spawner's and a few more.
const MALLOC_ARENAS: i32 = 512;

/// Lets every thread that allocates have its own malloc arena (glibc shares
/// 8 per core by default). With hundreds of helpers on a few cores, a helper
/// descheduled while it holds an arena's lock would otherwise hold up the
/// main search thread or the input loop allocating in the same arena.
/// Must run before the process has many threads: glibc fixes the limit the
/// first time it needs more arenas than a few.
pub fn separate_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes two plain integers.
    if unsafe { libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS) } != 1 {
        log::debug!("cannot raise the malloc arena limit");
    }
}
