//! Mates and draws are scored alike by every back end, in Pure and Normal
//! mode: mate-in-N as `mate N`, being mated as `mate -N`, stalemate and
//! repetition as 0. Short mates are confirmed by the plain oracle first.

mod common;

use stockman::search::oracle;
use stockman::search::{Algorithm, Evaluation, Limits, SearchMode, SearchParams};
use stockman::{Board, Score};

fn run(
    board: &Board,
    algorithm: Algorithm,
    mode: SearchMode,
    limits: &Limits,
) -> stockman::SearchResult {
    run_with(board, algorithm, mode, Evaluation::default(), limits)
}

fn run_with(
    board: &Board,
    algorithm: Algorithm,
    mode: SearchMode,
    evaluation: Evaluation,
    limits: &Limits,
) -> stockman::SearchResult {
    let params = SearchParams {
        algorithm,
        mode,
        evaluation,
        ..SearchParams::default()
    };
    common::searching::search_fresh(board, &params, limits)
}

/// (FEN, N): the side to move mates in N moves, and not sooner (the oracle
/// test below confirms each).
const MATES: &[(&str, i32)] = &[
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        1,
    ),
    ("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", 1),
    ("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2),
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2),
    ("8/8/8/8/8/6k1/4R3/5R1K w - - 0 1", 2),
    ("1k6/8/8/1K6/8/8/8/7R w - - 0 1", 3),
    ("2k5/8/8/1K6/8/8/8/7R w - - 0 1", 3),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
    ("k7/8/8/8/2K5/8/8/6Q1 w - - 0 1", 4),
    ("8/8/8/8/8/k7/8/2K4Q w - - 0 1", 4),
];

/// (FEN, N): the side to move is mated in N moves whatever it plays.
const MATED: &[(&str, i32)] = &[
    ("k7/2K5/8/8/8/8/8/1R6 b - - 0 1", 1),
    ("k7/8/1K6/8/8/8/8/2Q5 b - - 0 1", 2),
    ("2q5/8/8/8/8/1k6/8/K7 w - - 0 1", 2),
];

#[test]
fn the_oracle_confirms_the_short_mates() {
    for &(fen, n) in MATES {
        let mut b = Board::from_fen(fen).unwrap();
        b.set_root();
        let plies = 2 * n - 1;
        let v = oracle::alphabeta(&mut b, -Score::INFINITE, Score::INFINITE, plies, 0);
        // Exactly mate in N: a shorter mate would be seen at this full-width
        // depth and score higher.
        assert_eq!(
            v,
            Score::mate_in(plies as usize),
            "mate in {n} at depth {plies}: {fen}"
        );
    }
}

/// Mate in N is found by depth 2N + 1 by every back end in Pure mode (the
/// full-width search is exact there). In Normal mode, with either
/// evaluation, every back end sees a mate by depth 2N + 1, at most one move
/// longer than the shortest, and reports the shortest by depth 2N + 3: its
/// reductions and late-move pruning make the shortest mate at the least
/// depth a matter of move order, which the history tables decide (from
/// 2026-11-25 to 2026-11-27 unrelated changes moved it, for one back end or
/// another, on the KRK mate in 3 and the KQK mate in 4; a history bonus ×8,
/// tried before commit 65537d7 of 2026-11-27 kept ×16, made MT-SSS* report
/// mate 6 at depth 9 on the KQK mate in 4, while ×4, ×6 and ×16 did not, and
/// without late-move reductions it reported mate 4 at depth 8).
/// (kbK5/pp6/1P6/8/8/8/8/R7, 1.Ra6 and mate next move, once caught MTD(f)
/// and MT-DUAL*: reverse futility fired in one null-window pass and not in
/// another, the passes' bounds crossed and the driver returned the
/// contradicting fail low.)
#[test]
fn every_back_end_finds_mate_in_n() {
    for &(fen, n) in MATES {
        let board = Board::from_fen(fen).unwrap();
        for algorithm in Algorithm::ALL {
            let exact = |r: &stockman::SearchResult, mode: SearchMode, evaluation, depth| {
                assert_eq!(
                    r.score.mate_moves(),
                    Some(n),
                    "{algorithm} {mode:?} {evaluation} depth {depth}: {} on {fen}",
                    r.score
                );
                assert_eq!(r.score.to_string(), format!("mate {n}"));
                // Playing the move leaves the opponent mated in N-1 (or mated).
                let mut child = board.clone();
                child.play(r.best_move.unwrap());
                if n == 1 {
                    assert!(
                        child.legal_moves().is_empty() && child.in_check(),
                        "{algorithm}: not mate on {fen}"
                    );
                }
            };
            let depth = 2 * n + 1;
            let pure = run_with(
                &board,
                algorithm,
                SearchMode::Pure,
                Evaluation::Classical,
                &Limits::depth(depth),
            );
            exact(&pure, SearchMode::Pure, Evaluation::Classical, depth);
            for evaluation in [Evaluation::Classical, Evaluation::Network] {
                let normal = SearchMode::Normal;
                let seen = run_with(&board, algorithm, normal, evaluation, &Limits::depth(depth));
                let moves = seen.score.mate_moves();
                assert!(
                    moves.is_some_and(|m| (n..=n + 1).contains(&m)),
                    "{algorithm} Normal {evaluation} depth {depth}: {} on {fen}",
                    seen.score
                );
                let deeper = depth + 2;
                let r = run_with(
                    &board,
                    algorithm,
                    normal,
                    evaluation,
                    &Limits::depth(deeper),
                );
                exact(&r, normal, evaluation, deeper);
            }
        }
    }
}

#[test]
fn the_oracle_confirms_the_mated_positions() {
    for &(fen, n) in MATED {
        let mut b = Board::from_fen(fen).unwrap();
        b.set_root();
        let plies = 2 * n;
        let v = oracle::alphabeta(&mut b, -Score::INFINITE, Score::INFINITE, plies, 0);
        assert_eq!(v, Score::mated_in(plies as usize), "mated in {n}: {fen}");
    }
}

#[test]
fn every_back_end_sees_being_mated() {
    for &(fen, n) in MATED {
        let board = Board::from_fen(fen).unwrap();
        for algorithm in Algorithm::ALL {
            for mode in [SearchMode::Pure, SearchMode::Normal] {
                let r = run(&board, algorithm, mode, &Limits::depth(2 * n + 1));
                assert_eq!(
                    r.score.mate_moves(),
                    Some(-n),
                    "{algorithm} {mode:?}: {} on {fen}",
                    r.score
                );
                assert_eq!(r.score.to_string(), format!("mate -{n}"));
            }
        }
    }
}

#[test]
fn stalemate_and_repetition_score_zero() {
    // Black to move, stalemated: no move, score 0.
    let stalemate = Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    for algorithm in Algorithm::ALL {
        let r = run(&stalemate, algorithm, SearchMode::Pure, &Limits::depth(3));
        assert_eq!(r.best_move, None);
        assert_eq!(r.score, Score::DRAW);
    }
    // Repetition: the knights have danced twice; f6g8 repeats the start
    // position a third time, so that move is worth exactly 0.
    let mut b = Board::default();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        b.play_uci(m).unwrap();
    }
    let repeat = b.parse_uci("f6g8").unwrap();
    for algorithm in Algorithm::ALL {
        for mode in [SearchMode::Pure, SearchMode::Normal] {
            let limits = Limits {
                depth: Some(4),
                searchmoves: vec![repeat],
                ..Limits::default()
            };
            let r = run(&b, algorithm, mode, &limits);
            assert_eq!(r.best_move, Some(repeat));
            assert_eq!(r.score, Score::DRAW, "{algorithm} {mode:?}");
        }
    }
}
