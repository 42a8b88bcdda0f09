//! The research oracle on chess positions (static evaluation at the horizon,
//! no quiescence): every algorithm returns the minimax value, SSS* ≡ MT-SSS*,
//! DUAL* ≡ MT-DUAL*, and SSS*/DUAL* leaves lie within alpha-beta's.

use stockman_lab::research::trees::chess::{ChessMoveOrder, ChessTree};
use stockman_lab::research::{ExamineOptions, TreeAlgorithm, examine};

/// (FEN, depth): the perft suite's classic positions, shallow enough to be quick.
const POSITIONS: [(&str, usize); 5] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        3,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        2,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        3,
    ),
    ("6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", 3),
];

#[test]
fn chess_trees_satisfy_the_theorems() {
    for (fen, depth) in POSITIONS {
        for order in [ChessMoveOrder::Generated, ChessMoveOrder::UciText] {
            let tree = ChessTree::from_fen(fen, depth, order).unwrap();
            let report = examine(
                &tree,
                ExamineOptions {
                    first_guess: 0,
                    keep_orders: false,
                },
            );
            assert!(
                report.all_checks_hold(),
                "{fen} depth {depth} {order:?}: {}",
                report.failures.join("; ")
            );
            let sss = report.run_of(TreeAlgorithm::Sss).leaves.distinct;
            let alpha_beta = report.run_of(TreeAlgorithm::AlphaBeta).leaves.distinct;
            assert!(
                sss <= alpha_beta,
                "{fen}: sss* {sss} > alpha-beta {alpha_beta}"
            );
        }
    }
}

/// The first `count` positions of the bench set (FEN fields only).
fn bench_positions(count: usize) -> Vec<String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../positions/bench.epd"
    ))
    .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(count)
        .map(|l| l.split_whitespace().take(6).collect::<Vec<_>>().join(" "))
        .collect()
}

/// Stockman's SSS* and MT-SSS* on real chess: the engine's evaluation at the
/// horizon, no quiescence, a fixed move order and no TT move, killers or
/// history. They evaluate the same leaves in the same order and find the
/// alpha-beta value, at depths 2 to 4 on 24 positions.
#[test]
fn sss_equals_mt_sss_on_24_bench_positions_at_depths_2_to_4() {
    use stockman_lab::research::RunOptions;
    use stockman_lab::research::trees::algorithms::run;
    use stockman_lab::research::trees::experiment::same_leaves_same_order;
    let options = RunOptions {
        first_guess: 0,
        record_order: true,
    };
    let positions = bench_positions(24);
    assert_eq!(positions.len(), 24);
    for fen in &positions {
        for depth in 2..=4 {
            let tree = ChessTree::from_fen(fen, depth, ChessMoveOrder::Generated).unwrap();
            let sss = run(TreeAlgorithm::Sss, &tree, options);
            let mt_sss = run(TreeAlgorithm::MtSss, &tree, options);
            let alpha_beta = run(TreeAlgorithm::AlphaBeta, &tree, options);
            assert_eq!(
                sss.value, alpha_beta.value,
                "SSS* value, depth {depth}: {fen}"
            );
            assert_eq!(
                mt_sss.value, alpha_beta.value,
                "MT-SSS* value, depth {depth}: {fen}"
            );
            assert_eq!(
                sss.leaves.distinct, mt_sss.leaves.distinct,
                "leaf counts, depth {depth}: {fen}"
            );
            assert!(
                same_leaves_same_order(&sss, &mt_sss),
                "leaf order, depth {depth}: {fen}"
            );
        }
    }
}
