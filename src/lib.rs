//! Stockman: a UCI chess engine whose search is a set of interchangeable back ends
//! (alpha-beta, NegaScout, MTD(f), MT-SSS*, MT-DUAL*) over one board, one node
//! procedure, one move orderer and one transposition table.
//!
//! This library is the engine: the `stockman` binary, the tests and the lab
//! (the `stockman-lab` crate in lab/, which depends on it) use it. The engine
//! never sees the lab: the lab is another crate.

pub mod bench;
pub mod board;
pub mod chess960;
pub mod eval;
pub mod files;
pub mod genfens;
pub mod known;
pub mod nnue;
pub mod perft;
pub mod positions;
pub mod rng;
pub mod score;
pub mod search;
pub mod session;
pub mod strength;
pub mod tt;
pub mod uci;

pub use board::Board;
pub use score::Score;
pub use search::{Algorithm, Limits, SearchResult};
