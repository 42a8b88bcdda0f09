//! Research: the textbook minimax algorithms written plainly over a `GameTree`
//! trait — minimax, alpha-beta, NegaScout, alpha-beta with memory, the MT
//! family, Stockman's SSS* with its OPEN list and Berliner's B* with intervals
//! — on synthetic and explicit trees; and `compare`, which measures the engine's own back ends on chess positions.

pub mod algorithms;
pub mod alphabeta;
pub mod bounded;
pub mod bounded_synthetic;
pub mod bstar;
pub mod bstar_chess;
pub mod bstar_chess_cli;
pub mod bstar_cli;
pub mod bstar_root;
pub mod bstar_trees;
pub mod chart;
pub mod chess;
pub mod cli;
pub mod compare;
pub mod compare_report;
pub mod counting;
pub mod csv_table;
pub mod examples;
pub mod experiment;
pub mod explicit;
pub mod leaves;
pub mod memory;
pub mod minimax;
pub mod mt;
pub mod negascout;
pub mod open_list;
pub mod progress;
pub mod rng;
pub mod sss;
pub mod summary;
pub mod synthetic;
pub mod tree;

pub use algorithms::{Run, RunOptions, TreeAlgorithm};
pub use bstar_chess_cli::{BStarChessArgs, run_bstar_chess};
pub use cli::{TreesArgs, run_trees};
pub use compare::{CompareArgs, run_compare};
pub use experiment::{ExamineOptions, TreeReport, examine};
pub use explicit::ExplicitTree;
pub use synthetic::{SyntheticSpec, SyntheticTree, ValueModel, ValueRange};
pub use tree::{GameTree, NodePath, Side, Value};
