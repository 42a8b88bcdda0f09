//! The textbook game-tree algorithms over the `GameTree` trait (minimax,
//! alpha-beta, NegaScout, alpha-beta with memory, the MT family and
//! Stockman's SSS*), the trees they run on (seeded synthetic, explicit,
//! chess positions with a static evaluation at the horizon), the counting
//! of the leaves they evaluate, and the `trees` command's textbook run.

pub mod algorithms;
pub mod alphabeta;
pub mod chess;
pub mod counting;
pub mod examples;
pub mod experiment;
pub mod explicit;
pub mod leaves;
pub mod memory;
pub mod minimax;
pub mod mt;
pub mod negascout;
pub mod open_list;
pub mod rng;
pub mod sss;
pub mod summary;
pub mod synthetic;
pub mod tree;
pub mod trees_cmd;
