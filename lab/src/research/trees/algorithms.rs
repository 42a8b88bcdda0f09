//! The textbook algorithms by name, and one way to run any of them on a tree:
//! value found, leaves evaluated (distinct and total, in order if asked) and
//! MT passes.

use crate::research::trees::alphabeta::alpha_beta;
use crate::research::trees::leaves::{LeafLog, LeafRecord};
use crate::research::trees::memory::alpha_beta_with_memory;
use crate::research::trees::minimax::minimax;
use crate::research::trees::mt::{MtdOutcome, mt_dual, mt_sss, mtd_f};
use crate::research::trees::negascout::negascout;
use crate::research::trees::sss::{dual_star, sss_star};
use crate::research::trees::tree::{GameTree, Value};
use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TreeAlgorithm {
    Minimax,
    AlphaBeta,
    NegaScout,
    AlphaBetaWithMemory,
    MtdF,
    MtSss,
    MtDual,
    Sss,
    Dual,
}

impl TreeAlgorithm {
    /// Every algorithm, in the order tables list them.
    pub const ALL: [TreeAlgorithm; 9] = [
        TreeAlgorithm::Minimax,
        TreeAlgorithm::AlphaBeta,
        TreeAlgorithm::NegaScout,
        TreeAlgorithm::AlphaBetaWithMemory,
        TreeAlgorithm::MtdF,
        TreeAlgorithm::MtSss,
        TreeAlgorithm::MtDual,
        TreeAlgorithm::Sss,
        TreeAlgorithm::Dual,
    ];

    pub fn name(self) -> &'static str {
        match self {
            TreeAlgorithm::Minimax => "minimax",
            TreeAlgorithm::AlphaBeta => "alpha-beta",
            TreeAlgorithm::NegaScout => "negascout",
            TreeAlgorithm::AlphaBetaWithMemory => "alpha-beta+memory",
            TreeAlgorithm::MtdF => "mtd(f)",
            TreeAlgorithm::MtSss => "mt-sss*",
            TreeAlgorithm::MtDual => "mt-dual*",
            TreeAlgorithm::Sss => "sss*",
            TreeAlgorithm::Dual => "dual*",
        }
    }

    /// Is this a sequence of MT calls (so passes are worth reporting)?
    pub fn is_mt_family(self) -> bool {
        matches!(
            self,
            TreeAlgorithm::MtdF | TreeAlgorithm::MtSss | TreeAlgorithm::MtDual
        )
    }
}

impl fmt::Display for TreeAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one algorithm did on one tree.
#[derive(Clone, Debug)]
pub struct Run {
    pub algorithm: TreeAlgorithm,
    /// The minimax value it found, for MAX.
    pub value: Value,
    pub leaves: LeafRecord,
    /// Calls of the search procedure from the root: MT passes for the MTD
    /// family, 1 for the others.
    pub passes: u32,
}

/// How to run an algorithm.
#[derive(Copy, Clone, Debug)]
pub struct RunOptions {
    /// MTD(f)'s first guess.
    pub first_guess: Value,
    /// Record the first evaluations in order.
    pub record_order: bool,
}

pub fn run<T: GameTree + ?Sized>(algorithm: TreeAlgorithm, tree: &T, options: RunOptions) -> Run {
    let mut log = LeafLog::new(tree, options.record_order);
    let single_pass = |value| (value, 1);
    let passes_of = |outcome: MtdOutcome| (outcome.value, outcome.passes);
    let (value, passes) = match algorithm {
        TreeAlgorithm::Minimax => single_pass(minimax(tree, &mut log)),
        TreeAlgorithm::AlphaBeta => single_pass(alpha_beta(tree, &mut log)),
        TreeAlgorithm::NegaScout => single_pass(negascout(tree, &mut log)),
        TreeAlgorithm::AlphaBetaWithMemory => single_pass(alpha_beta_with_memory(tree, &mut log)),
        TreeAlgorithm::MtdF => passes_of(mtd_f(tree, options.first_guess, &mut log)),
        TreeAlgorithm::MtSss => passes_of(mt_sss(tree, &mut log)),
        TreeAlgorithm::MtDual => passes_of(mt_dual(tree, &mut log)),
        TreeAlgorithm::Sss => single_pass(sss_star(tree, &mut log)),
        TreeAlgorithm::Dual => single_pass(dual_star(tree, &mut log)),
    };
    Run {
        algorithm,
        value,
        leaves: log.finish(),
        passes,
    }
}
