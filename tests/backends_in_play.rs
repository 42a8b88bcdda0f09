//! Every back end is a real engine in Normal mode: each finds the tactics
//! and keeps the material that NegaScout does, at the same fixed depth.
//! (Mates and being mated: `mates_and_draws.rs`, for every back end too.)

mod common;

use stockman::search::{Algorithm, Limits, SearchMode, SearchParams};
use stockman::{Board, Score, SearchResult};

fn normal_search(board: &Board, algorithm: Algorithm, depth: i32) -> SearchResult {
    let params = SearchParams {
        algorithm,
        mode: SearchMode::Normal,
        ..SearchParams::default()
    };
    common::searching::search_fresh(board, &params, &Limits::depth(depth))
}

/// Win at Chess positions (FEN, the winning moves, id) that NegaScout
/// solves at depth 6: WAC's key move, and where another move wins as surely
/// (a forced mate, by Stockfish 15.1 at depth 22), that one too.
const WAC: &[(&str, &[&str], &str)] = &[
    (
        "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
        &["e3g3"],
        "WAC.003",
    ),
    (
        "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
        &["h6h7"],
        "WAC.004",
    ),
    (
        "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
        &["c6c4"],
        "WAC.005",
    ),
    ("7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1", &["b6b7"], "WAC.006"),
    (
        "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1",
        &["g4e3"],
        "WAC.007",
    ),
    (
        "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
        // Rxf7 mates in 8; Nxf7+ in 10.
        &["e7f7", "h6f7"],
        "WAC.008",
    ),
    (
        "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
        &["d6h2"],
        "WAC.009",
    ),
    (
        "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1",
        &["h4h7"],
        "WAC.010",
    ),
    (
        "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1",
        &["f3c6"],
        "WAC.011",
    ),
    (
        "4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1",
        &["g4f3"],
        "WAC.012",
    ),
    (
        "r1b2rk1/ppbn1ppp/4p3/1QP4q/3P4/N4N2/5PPP/R1B2RK1 w - - 0 1",
        &["c5c6"],
        "WAC.019",
    ),
    (
        "6k1/1b1nqpbp/pp4p1/5P2/1PN5/4Q3/P5PP/1B2B1K1 b - - 0 1",
        &["g7d4"],
        "WAC.024",
    ),
    (
        "3R1rk1/8/5Qpp/2p5/2P1p1q1/P3P3/1P2PK2/8 b - - 0 1",
        &["g4h4"],
        "WAC.025",
    ),
];

/// Tactics that NegaScout solves at depth 6 and MTD(f) only a ply deeper,
/// asked of every back end at depth 7. In WAC.020 (...Bb5, network of
/// d09f618) MTD(f)'s passes at depths 4 to 6 trust fail-soft upper bounds
/// from nodes whose saving quiet moves were pruned unplayed (late-move
/// pruning): the pass at 1,008 fails low to 280 and the next one settles
/// there (docs/research.md, "Tried and not kept").
const WAC_A_PLY_DEEPER: &[(&str, &[&str], &str)] = &[(
    "r2qkb1r/1ppb1ppp/p7/4p3/P1Q1P3/2P5/5PPP/R1B2KNR b kq - 0 1",
    &["d7b5"],
    "WAC.020",
)];

/// The misses of `algorithms` among `tactics` at `depth`.
fn misses(tactics: &[(&str, &[&str], &str)], depth: i32, algorithms: &[Algorithm]) -> Vec<String> {
    let mut failures = Vec::new();
    for &(fen, winning, id) in tactics {
        let board = Board::from_fen(fen).unwrap();
        for &algorithm in algorithms {
            let r = normal_search(&board, algorithm, depth);
            let played = r.best_move.map(|m| board.uci(m));
            if !played.as_deref().is_some_and(|m| winning.contains(&m)) {
                failures.push(format!(
                    "{id} {algorithm} depth {depth}: {played:?}, not {winning:?}"
                ));
            }
        }
    }
    failures
}

#[test]
fn every_back_end_solves_the_tactics_negascout_solves() {
    let mut failures = misses(WAC, 6, &Algorithm::ALL);
    failures.extend(misses(WAC_A_PLY_DEEPER, 7, &Algorithm::ALL));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// WAC.020 is in `WAC_A_PLY_DEEPER` for MTD(f)'s sake alone: NegaScout
/// solves it at depth 6 like the rest, so the table holds no position a
/// back end could simply stop solving at 6.
#[test]
fn negascout_solves_the_deeper_tactics_at_depth_6() {
    let failures = misses(WAC_A_PLY_DEEPER, 6, &[Algorithm::NegaScout]);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// (FEN, the square of the attacked queen): the queen must move (or be
/// traded for as much), and the score must not show a queen lost.
const QUEEN_ATTACKED: &[(&str, &str)] = &[
    // ...Qg4 met by f3: the black queen is attacked by a pawn.
    (
        "rnb1kbnr/pppp1ppp/8/4p3/4P1q1/5P2/PPPP2PP/RNBQKBNR b KQkq - 0 3",
        "g4",
    ),
    // The white queen on d4 is attacked by the knight from c6.
    (
        "r1bqkbnr/pppp1ppp/2n5/8/3Q4/8/PPP1PPPP/RNB1KBNR w KQkq - 1 3",
        "d4",
    ),
];

#[test]
fn no_back_end_leaves_its_queen_en_prise() {
    for &(fen, square) in QUEEN_ATTACKED {
        let board = Board::from_fen(fen).unwrap();
        for algorithm in Algorithm::ALL {
            for depth in [3, 6] {
                let r = normal_search(&board, algorithm, depth);
                let played = board.uci(r.best_move.expect("a move"));
                assert!(
                    played.starts_with(square),
                    "{algorithm} depth {depth}: {played} leaves the queen on {square} ({fen})"
                );
                assert!(
                    r.score > Score(-200),
                    "{algorithm} depth {depth}: {} after {played} ({fen})",
                    r.score
                );
            }
        }
    }
}

/// In an even position all back ends agree within a pawn at the same depth:
/// the grain of the MT drivers (8 cp by default) and the full-window
/// AlphaBeta's own selectivity change the value a little, never wildly.
#[test]
fn back_ends_agree_on_the_value_of_quiet_positions() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ];
    for fen in fens {
        let board = Board::from_fen(fen).unwrap();
        let reference = normal_search(&board, Algorithm::NegaScout, 7).score;
        for algorithm in Algorithm::ALL {
            let r = normal_search(&board, algorithm, 7);
            assert!(
                (r.score.0 - reference.0).abs() <= 100,
                "{algorithm}: {} against NegaScout's {reference} on {fen}",
                r.score
            );
        }
    }
}
