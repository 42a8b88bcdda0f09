//! Research: the textbook minimax algorithms written plainly over a `GameTree`
//! trait (`trees`: minimax, alpha-beta, NegaScout, the MT family, Stockman's
//! SSS* with its OPEN list), Berliner's B* with intervals (`bstar`), and
//! `compare`, which measures the engine's own back ends on chess positions.

pub mod bstar;
pub mod compare;
pub mod report;
pub mod trees;

pub use bstar::bstar_cmd::{BStarChessArgs, run_bstar_chess};
pub use compare::compare_cmd::{CompareArgs, run_compare};
pub use trees::algorithms::{Run, RunOptions, TreeAlgorithm};
pub use trees::experiment::{ExamineOptions, TreeReport, examine};
pub use trees::explicit::ExplicitTree;
pub use trees::synthetic::{SyntheticSpec, SyntheticTree, ValueModel, ValueRange};
pub use trees::tree::{GameTree, NodePath, Side, Value};
pub use trees::trees_cmd::TreesArgs;

use trees::tree::MAX_LEAF_VALUE;
use trees::trees_cmd::TreesAlgorithm;

/// Runs `stockman-lab trees`: checks what both algorithms share, then the
/// textbook algorithms (`trees`) or B* on bounded trees (`bstar`).
pub fn run_trees(args: &TreesArgs) -> Result<(), String> {
    if let Some(guess) = args.first_guess
        && !(-MAX_LEAF_VALUE..=MAX_LEAF_VALUE).contains(&guess)
    {
        return Err(format!(
            "first guess {guess} is out of range (at most ±{MAX_LEAF_VALUE})"
        ));
    }
    match args.algorithm {
        TreesAlgorithm::Textbook if args.per_tree || args.svg.is_some() => {
            Err("--per-tree and --svg belong to --algorithm bstar".into())
        }
        TreesAlgorithm::Textbook => trees::trees_cmd::run_textbook(args),
        TreesAlgorithm::Bstar if args.leaves.is_some() => {
            Err("B* needs intervals on interior nodes: use --depth, not --leaves".into())
        }
        TreesAlgorithm::Bstar => bstar::trees_cmd::run_bstar_trees(args),
    }
}
