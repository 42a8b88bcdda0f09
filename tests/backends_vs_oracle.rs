//! Every back end in Pure mode computes the oracle's depth-d minimax value,
//! and the best move it reports is worth that value — with a normal TT, a
//! tiny TT (many collisions) and a TT cleared between searches.

mod common;

use std::sync::Arc;
use stockman::search::oracle;
use stockman::search::{Algorithm, Limits, SearchMode, SearchParams};
use stockman::tt::TranspositionTable;
use stockman::{Board, Score};

fn pure_search(
    board: &Board,
    algorithm: Algorithm,
    depth: i32,
    tt: &Arc<TranspositionTable>,
) -> (Score, shakmaty::Move) {
    let params = SearchParams {
        algorithm,
        mode: SearchMode::Pure,
        ..SearchParams::default()
    };
    let r = common::searching::search_with_tt(board, &params, &Limits::depth(depth), tt);
    assert_eq!(r.depth, depth);
    (r.score, r.best_move.expect("a legal move"))
}

/// Which oracle computes the reference values.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Oracle {
    /// Plain minimax: no pruning at all (affordable to depth 3).
    Minimax,
    /// Plain fail-hard alpha-beta, full window per root move (exact).
    AlphaBeta,
}

/// The oracle's value of every root move (what it is worth at the root).
fn oracle_root_values(board: &Board, depth: i32, oracle: Oracle) -> Vec<(shakmaty::Move, Score)> {
    let mut b = board.clone();
    b.set_root();
    let moves = b.legal_moves();
    moves
        .iter()
        .map(|&m| {
            b.play(m);
            let v = match oracle {
                Oracle::Minimax => -oracle::minimax(&mut b, depth - 1, 1),
                Oracle::AlphaBeta => {
                    -oracle::alphabeta(&mut b, -Score::INFINITE, Score::INFINITE, depth - 1, 1)
                }
            };
            b.undo();
            (m, v)
        })
        .collect()
}

fn check_positions(
    fens: &[String],
    depths: std::ops::RangeInclusive<i32>,
    tt_mb: usize,
    clear_between: bool,
    oracle: Oracle,
) {
    for fen in fens {
        let board = Board::from_fen(fen).unwrap();
        if board.legal_moves().is_empty() {
            continue;
        }
        let tt = Arc::new(TranspositionTable::new(tt_mb).unwrap());
        for depth in depths.clone() {
            let started = std::time::Instant::now();
            let values = oracle_root_values(&board, depth, oracle);
            let expected = values.iter().map(|(_, v)| *v).max().unwrap();
            let oracle_time = started.elapsed();
            for algorithm in Algorithm::ALL {
                if clear_between {
                    tt.clear();
                }
                let (score, best) = pure_search(&board, algorithm, depth, &tt);
                assert_eq!(score, expected, "{algorithm} depth {depth} score on {fen}");
                let best_value = values.iter().find(|(m, _)| *m == best).map(|(_, v)| *v);
                assert_eq!(
                    best_value,
                    Some(expected),
                    "{algorithm} depth {depth} best move {best} on {fen}"
                );
            }
            if std::env::var_os("ORACLE_TIMES").is_some() {
                eprintln!("{depth} {:?} {:?} {fen}", oracle_time, started.elapsed());
            }
        }
    }
}

/// Positions with few pieces or forced play, where plain minimax is cheap even at depth 3.
fn cheap_positions() -> Vec<String> {
    common::varied_positions()
        .into_iter()
        .filter(|f| {
            let board = f.split(' ').next().unwrap();
            board.chars().filter(|c| c.is_ascii_alphabetic()).count() <= 16
        })
        .collect()
}

#[test]
fn alphabeta_oracle_equals_plain_minimax() {
    let all = common::varied_positions();
    let cheap = cheap_positions();
    assert!(cheap.len() >= 15, "only {} cheap positions", cheap.len());
    for (fens, depth) in [(&all, 1), (&all, 2), (&cheap, 3)] {
        for fen in fens.iter() {
            let board = Board::from_fen(fen).unwrap();
            assert_eq!(
                oracle_root_values(&board, depth, Oracle::Minimax),
                oracle_root_values(&board, depth, Oracle::AlphaBeta),
                "depth {depth} on {fen}"
            );
        }
    }
}

#[test]
fn pure_back_ends_equal_plain_minimax_at_depths_1_and_2_everywhere_and_3_on_cheap_positions() {
    check_positions(
        &common::varied_positions(),
        1..=2,
        16,
        false,
        Oracle::Minimax,
    );
    check_positions(&cheap_positions(), 3..=3, 16, false, Oracle::Minimax);
}

#[test]
fn pure_back_ends_equal_the_alphabeta_oracle_at_depth_3() {
    check_positions(
        &common::varied_positions(),
        3..=3,
        16,
        false,
        Oracle::AlphaBeta,
    );
}

#[test]
fn pure_back_ends_equal_the_alphabeta_oracle_at_depth_4() {
    check_positions(
        &common::varied_positions(),
        4..=4,
        16,
        false,
        Oracle::AlphaBeta,
    );
}

#[test]
fn pure_back_ends_equal_the_oracle_with_a_tiny_tt() {
    // 1 MB is the smallest table: thousands of collisions at depth 4.
    let fens: Vec<String> = common::varied_positions().into_iter().step_by(3).collect();
    check_positions(&fens, 3..=4, 1, false, Oracle::AlphaBeta);
}

#[test]
fn pure_back_ends_equal_the_oracle_with_the_tt_cleared_between_searches() {
    let fens: Vec<String> = common::varied_positions()
        .into_iter()
        .skip(1)
        .step_by(3)
        .collect();
    check_positions(&fens, 2..=4, 16, true, Oracle::AlphaBeta);
}

/// A pawn ending where a repetition inside the search once leaked through the
/// TT into another path (graph history interaction): at depth 7 the back ends
/// disagreed. Pure mode now counts repetitions against the game history only.
#[test]
fn pure_back_ends_agree_where_repetitions_could_leak_through_the_tt() {
    let fen = "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54";
    check_positions(&[fen.to_string()], 7..=7, 16, false, Oracle::AlphaBeta);
}
