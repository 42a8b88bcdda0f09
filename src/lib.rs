//! Stockman: a UCI chess engine whose search is a set of interchangeable back ends
//! (alpha-beta, NegaScout, MTD(f), MT-SSS*, MT-DUAL*) over one board, one node
//! procedure, one move orderer and one transposition table.
//!
//! The engine core is everything but the lab: `research` (textbook game-tree
//! algorithms, back-end comparisons, charts, B*) and `tune` (tuning data,
//! Texel tuning, network training), which the default `lab` feature adds.
//! The core never imports the lab (tests/layout.rs checks it).

pub mod bench;
pub mod board;
pub mod eval;
pub mod files;
pub mod genfens;
pub mod known;
pub mod nnue;
pub mod perft;
pub mod positions;
#[cfg(feature = "lab")]
pub mod research;
pub mod rng;
pub mod score;
pub mod search;
pub mod session;
pub mod strength;
pub mod tt;
#[cfg(feature = "lab")]
pub mod tune;
pub mod uci;

pub use board::Board;
pub use score::Score;
pub use search::{Algorithm, Limits, SearchResult};
