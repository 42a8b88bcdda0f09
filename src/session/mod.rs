//! The UCI session: the engine's state between commands (position, options,
//! hash table, known-results base), the search job of one `go` with its
//! single `bestmove`, and the long commands (`go perft`, `bench`) that run
//! beside the input loop.

pub mod background;
pub mod engine;
pub mod search_job;

pub use engine::{Engine, Flow};
