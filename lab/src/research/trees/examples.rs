//! Small hand-made trees with known answers, from the literature, shared by
//! the unit and integration tests and handy for `stockman-lab trees --leaves`.

use crate::research::trees::explicit::ExplicitTree;
use crate::research::trees::tree::Value;

/// Russell & Norvig, "Artificial Intelligence: A Modern Approach", Figure 5.2
/// (3rd ed.): MAX to move, three MIN nodes of three leaves each. Minimax value
/// 3; alpha-beta never looks at the second MIN node's last two leaves.
pub const RUSSELL_NORVIG_LEAVES: [Value; 9] = [3, 12, 8, 2, 4, 6, 14, 5, 2];
pub const RUSSELL_NORVIG_BRANCHING: usize = 3;
pub const RUSSELL_NORVIG_VALUE: Value = 3;
/// Leaf indices alpha-beta evaluates, left to right.
pub const RUSSELL_NORVIG_ALPHA_BETA: [u64; 7] = [0, 1, 2, 3, 6, 7, 8];
/// Leaf indices SSS* evaluates, in order (derived by hand from the Γ cases):
/// the first leaf under each MIN node, then the best bound's brothers.
pub const RUSSELL_NORVIG_SSS: [u64; 7] = [0, 3, 6, 7, 8, 1, 2];

pub fn russell_norvig() -> ExplicitTree {
    ExplicitTree::new(RUSSELL_NORVIG_LEAVES.to_vec(), RUSSELL_NORVIG_BRANCHING)
        .expect("a valid tree")
}

/// The example of Plaat, Schaeffer, Pijls & de Bruin (TR 94-17 "SSS* = α-β +
/// TT" and AI 87, 1996): a binary tree of depth 4 in which SSS*'s passes
/// expand leaves e=41, g=12, k=34, m=36 (pass 1), n=5 (pass 2) and o=35
/// (pass 3). Their figures do not give every leaf; the others here are ours,
/// chosen so that the last pass proves the value 35 through leaves 12 and 13.
pub const PLAAT_LEAVES: [Value; 16] = [41, 5, 12, 20, 10, 30, 25, 3, 34, 50, 36, 35, 40, 38, 2, 60];
pub const PLAAT_BRANCHING: usize = 2;
pub const PLAAT_VALUE: Value = 35;
/// SSS*'s leaves in order: 41, 12, 34, 36, 5, 35 as in the paper, then ours.
pub const PLAAT_SSS: [u64; 8] = [0, 2, 8, 10, 1, 11, 12, 13];
/// The upper bounds of SSS*'s passes (MT-SSS*'s γ after each pass).
pub const PLAAT_PASS_BOUNDS: [Value; 4] = [41, 36, 35, 35];

pub fn plaat_et_al() -> ExplicitTree {
    ExplicitTree::new(PLAAT_LEAVES.to_vec(), PLAAT_BRANCHING).expect("a valid tree")
}
