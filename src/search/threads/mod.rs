//! The search's threads: the pool of helper threads of Lazy SMP beside the
//! main search thread, the turns that hand them each `go`, and the allocator
//! arenas kept apart per thread.

pub mod malloc_arenas;
pub mod pool;
pub mod turns;

pub use pool::{HelperJob, HelperPool, SEARCH_STACK_BYTES, panic_message};
