//! The engine's tunable constants as one table with their ranges: the
//! search's selectivity (pruning, reductions, extensions, aspiration) and the
//! time manager's shares. Plain constants in a normal build, UCI spin options
//! in a tuning build (`--features spsa`); always read through `tp!`.

pub mod spsa;
pub mod tunable;

use crate::score::Depth;

crate::tunables! {
    /// Null move: tried from this depth on, reduced by `NULL_BASE + depth / NULL_DIVISOR`.
    NULL_MIN_DEPTH: Depth = 3, 1..=8, 0.5;
    NULL_BASE_REDUCTION: Depth = 3, 1..=6, 0.5;
    NULL_DEPTH_DIVISOR: Depth = 4, 2..=8, 0.5;
    /// Extra null-move reduction per this much static eval above beta (at most `NULL_EVAL_MAX`).
    NULL_EVAL_STEP: i32 = 197, 50..=400, 20.0;
    NULL_EVAL_MAX: Depth = 3, 0..=6, 0.5;

    /// Reverse futility (static null move): up to this depth, a static eval this
    /// far above beta per ply of depth is taken as a fail high.
    RFP_MAX_DEPTH: Depth = 6, 2..=10, 0.5;
    RFP_MARGIN_PER_DEPTH: i32 = 79, 30..=160, 8.0;

    /// 1 lowers the static evaluation that pruning compares (reverse
    /// futility, the null move, ProbCut, futility) to a TT upper bound
    /// below it (`lowered_by_tt` in src/search/node.rs); 0, the default,
    /// leaves it. Undecided: +3.4 ± 8.2 over 3,367 games at 20,000 nodes
    /// against 1.7.0 (2026-12-06, docs/results/matches.md), a second
    /// stream to come (a tuning build, `setoption name EVAL_LOWERED_BY_TT
    /// value 1` on one side).
    EVAL_LOWERED_BY_TT: u32 = 0, 0..=1, 0.5;

    /// 1, the default, extends a check by a ply only when the checking
    /// move holds its material by exchange (`sound_check` in
    /// src/search/node.rs); 0 extends every check. Kept on 2026-12-06:
    /// +7.6 ± 5.6 over 7,184 games at 20,000 nodes against 1.7.0; level
    /// at 10+0.1 (0.0 ± 20.0 over 400 games; docs/results/matches.md).
    SOUND_CHECK_EXTENSION: u32 = 1, 0..=1, 0.5;

    /// Futility pruning of quiet moves: up to this depth, a quiet move cannot
    /// raise a static eval this far below alpha.
    FUTILITY_MAX_DEPTH: Depth = 4, 1..=8, 0.5;
    FUTILITY_BASE: i32 = 87, 0..=200, 10.0;
    FUTILITY_PER_DEPTH: i32 = 92, 30..=180, 8.0;

    /// Futility pruning of captures: up to this depth, a capture that does
    /// not give check cannot raise the static eval plus its victim's value
    /// this far below alpha.
    CAPTURE_FUTILITY_MAX_DEPTH: Depth = 6, 1..=10, 0.5;
    CAPTURE_FUTILITY_BASE: i32 = 220, 50..=400, 15.0;
    CAPTURE_FUTILITY_PER_DEPTH: i32 = 220, 80..=400, 15.0;

    /// Late-move pruning: at shallow depth, quiets beyond `late_move_limit` are skipped.
    LMP_MAX_DEPTH: Depth = 4, 1..=8, 0.5;

    /// SEE pruning: up to this depth, quiet moves losing more than
    /// `SEE_QUIET_MARGIN * depth` and captures losing more than
    /// `SEE_CAPTURE_MARGIN * depth` by exchange are skipped.
    SEE_PRUNE_MAX_DEPTH: Depth = 6, 1..=10, 0.5;
    SEE_QUIET_MARGIN: i32 = 58, 10..=150, 6.0;
    SEE_CAPTURE_MARGIN: i32 = 100, 20..=200, 10.0;

    /// Delta pruning in quiescence: a capture whose victim, plus this margin,
    /// cannot lift the stand-pat score to alpha is skipped.
    DELTA_MARGIN: i32 = 202, 50..=400, 15.0;

    /// One ply less (or more) reduction per this much history score.
    LMR_HISTORY_DIVISOR: i32 = 4096, 2048..=16384, 500.0;
    /// At most this many plies of reduction are added or removed by history.
    LMR_HISTORY_MAX: Depth = 2, 0..=4, 0.5;

    /// Move ordering: capture history enters a capture's MVV-LVA key divided
    /// by this. Victims are 16 × their value apart in the key (knight and
    /// bishop 160, pawn and knight 3,520), so at 8 the ±2048 reorders captures
    /// of one victim, and of neighbouring victims where the histories disagree.
    CAPTURE_HISTORY_DIVISOR: i32 = 8, 4..=32, 2.0;

    /// Move ordering: a quiet move that takes a piece out of an attack by a
    /// lesser piece to a square no such piece attacks gains this much on
    /// its history key: a queen away from a rook's (or lesser piece's)
    /// attack, a rook from a minor's or pawn's, a knight or bishop from a
    /// pawn's (history and continuation history each reach ±16,384). 0, the
    /// default, for all three: undecided at 32,768, 16,384 and 8,192 over
    /// three streams at 20,000 nodes on 2026-12-07 (+5.0 ± 6.4 over 5,666
    /// games, LLR 1.14 of SPRT [0, 5], docs/results/matches.md); a tuning
    /// build with those values searches node for node as the builds played
    /// there, for a fourth (`scripts/sprt_pool.py` pools them).
    ESCAPE_BONUS_QUEEN: i32 = 0, 0..=65536, 2048.0;
    ESCAPE_BONUS_ROOK: i32 = 0, 0..=65536, 2048.0;
    ESCAPE_BONUS_MINOR: i32 = 0, 0..=65536, 2048.0;

    /// Late-move reductions start from this depth and move number.
    LMR_MIN_DEPTH: Depth = 3, 1..=6, 0.5;
    LMR_FIRST_MOVE: usize = 3, 1..=8, 0.5;
    /// The reduction table: `LMR_BASE_CENTI / 100 + ln(depth) ln(index) / (LMR_DIVISOR_CENTI / 100)`.
    LMR_BASE_CENTI: i32 = 73, 0..=200, 8.0;
    LMR_DIVISOR_CENTI: i32 = 228, 100..=400, 12.0;
    /// Extra reduction of a late quiet move at a node expected to fail high (a CUT node).
    CUT_NODE_REDUCTION: Depth = 1, 0..=3, 0.5;

    /// Singular extension: from this depth, a TT move whose stored lower bound
    /// is at most `SINGULAR_TT_DEPTH_SLACK` plies shallower is extended by one
    /// ply when every other move fails low against that bound minus
    /// `SINGULAR_MARGIN_PER_DEPTH * depth`, searched to half the depth.
    /// (From depth 6 against 8: +23.7 ± 12.0 over 1,746 games at 20,000
    /// nodes, 2026-11-29; docs/results/matches.md.)
    SINGULAR_MIN_DEPTH: Depth = 6, 4..=12, 0.5;
    SINGULAR_TT_DEPTH_SLACK: Depth = 3, 1..=6, 0.5;
    SINGULAR_MARGIN_PER_DEPTH: i32 = 2, 1..=6, 0.5;

    /// ProbCut: from this depth, a capture whose search reduced by
    /// `PROBCUT_REDUCTION` plies beats beta by `PROBCUT_MARGIN` cuts the node off.
    PROBCUT_MIN_DEPTH: Depth = 5, 3..=10, 0.5;
    PROBCUT_MARGIN: i32 = 200, 80..=400, 15.0;
    PROBCUT_REDUCTION: Depth = 4, 2..=6, 0.5;

    /// Internal iterative reduction: without a TT move, search one ply less from this depth.
    IIR_MIN_DEPTH: Depth = 4, 2..=8, 0.5;

    /// Aspiration windows at the root (NegaScout, and AlphaBeta in Normal
    /// mode): from this depth, the first window is the previous score plus
    /// and minus `ASPIRATION_WINDOW` centipawns, doubled on each fail.
    ASPIRATION_MIN_DEPTH: Depth = 4, 2..=8, 0.5;
    ASPIRATION_WINDOW: i32 = 24, 8..=100, 4.0;
    /// MT-SSS* and MT-DUAL* (Normal mode): a null-window pass whose bound is
    /// within this many centipawns of the previous iteration's value searches
    /// its first-move chain as PV nodes, as every MTD(f) pass does.
    MT_CHAIN_WINDOW: i32 = 24, 0..=200, 8.0;

    /// Time management (`crate::search::time`): moves assumed left in a sudden-death game.
    SUDDEN_DEATH_MOVES: u32 = 20, 10..=40, 2.0;
    /// Time management: the largest share (percent) of the remaining clock one move may plan on.
    MAX_SHARE_PERCENT: u32 = 40, 20..=60, 3.0;
    /// Time management: the factor by which the hard limit may exceed the soft one.
    HARD_OVER_SOFT: u32 = 3, 2..=6, 0.5;
    /// Time management: the share (percent) of each increment planned for
    /// the move; the rest is banked, so that on a low clock the budget is
    /// below the increment and the clock grows back instead of settling a
    /// few stalls away from a time loss.
    INCREMENT_SHARE_PERCENT: u32 = 75, 50..=100, 4.0;
    /// Time management: milliseconds of the clock, beyond the move
    /// overhead, that no budget plans on. A reply costs the pipes and the
    /// scheduler a few milliseconds more than its budget, more than the
    /// banked share of the increment at 1+0.01, so without a reserve the
    /// clock settles on the increment itself.
    CLOCK_RESERVE_MS: u32 = 100, 0..=500, 20.0;
    /// Time management (`crate::search::driver`): another iteration is
    /// started only while less than this share (percent) of the soft limit,
    /// as scaled by how settled the search looks, has gone.
    NEXT_ITERATION_PERCENT: u32 = 75, 30..=100, 4.0;
    /// Time management (`crate::search::time::stability`): that share of the
    /// soft limit is scaled by the product of three factors, held within
    /// `TIME_SCALE_MIN_PERCENT..=TIME_SCALE_MAX_PERCENT` percent.
    /// By the best move: this percent after an iteration that changed it,
    /// `STABILITY_SETTLING_PERCENT` once it has held that many iterations in
    /// a row, `STABILITY_SETTLED_PERCENT` once it has held that many, and
    /// `STABILITY_NEW_PERCENT` before.
    STABILITY_CHANGED_PERCENT: u32 = 140, 100..=200, 5.0;
    STABILITY_NEW_PERCENT: u32 = 100, 70..=130, 4.0;
    STABILITY_SETTLING_ITERATIONS: u32 = 2, 1..=4, 0.5;
    STABILITY_SETTLING_PERCENT: u32 = 80, 50..=110, 4.0;
    STABILITY_SETTLED_ITERATIONS: u32 = 4, 2..=8, 0.5;
    STABILITY_SETTLED_PERCENT: u32 = 60, 30..=100, 4.0;
    /// By the score: this percent when it fell by more than `SCORE_DROP_CP`
    /// centipawns in the last iteration.
    SCORE_DROP_CP: i32 = 30, 10..=100, 4.0;
    SCORE_DROP_PERCENT: u32 = 130, 100..=200, 5.0;
    /// By the best move's share of the root nodes (the mean of the last two
    /// iterations): `1 + NODE_SHARE_WEIGHT_PERCENT / 100 × (NODE_SHARE_PIVOT_PERCENT
    /// / 100 - share)`. Weight 0 (the default) turns it off: the weights
    /// tried in play (1.1 here; 1.3 and 2 before) did not win games.
    NODE_SHARE_WEIGHT_PERCENT: u32 = 0, 0..=250, 10.0;
    NODE_SHARE_PIVOT_PERCENT: u32 = 60, 30..=90, 4.0;
    /// The bounds of the product, in percent.
    TIME_SCALE_MIN_PERCENT: u32 = 35, 10..=80, 3.0;
    TIME_SCALE_MAX_PERCENT: u32 = 250, 150..=400, 10.0;
}
