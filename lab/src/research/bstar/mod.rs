//! Berliner's B* (1979) with Palay's and Berliner & McConnell's refinements:
//! the best-first search over value intervals, its root strategy, bounded
//! synthetic trees, chess positions with engine-made intervals, and the two
//! commands that run it (`bstar` on EPD positions, `trees --algorithm bstar`).

pub mod bounded;
pub mod bounded_synthetic;
pub mod bstar_cmd;
pub mod chess;
pub mod root;
pub mod search;
pub mod trees;
pub mod trees_cmd;
