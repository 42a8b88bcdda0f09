//! The engine with the tables in tests/data/syzygy playing both sides against
//! itself at a fast node limit: from won positions (KQvK, KRvK, KPvK, KQvKR)
//! the stronger side mates within the fifty-move rule every time; from drawn
//! ones nobody loses; and every move keeps the mover's tablebase result.

mod common;

use common::engine_process::{EngineProcess, bestmove_of};
use shakmaty::Position;
use shakmaty_syzygy::Wdl;
use std::time::Duration;
use stockman::Board;
use stockman::known::{Tablebases, syzygy_sample};
use stockman::rng::SplitMix64;

const TABLES: &str = "tests/data/syzygy";
const GAMES_PER_MATERIAL: usize = 25;
const NODES: u64 = 3000;
/// Drawn games are played this far (nothing is left to prove after that).
const DRAWN_PLIES: usize = 40;
/// Past the fifty-move rule and any conversion: a won game this long failed.
const MAX_PLIES: usize = 400;
const MOVE_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Expected {
    StrongerSideMates,
    NobodyLoses,
}

/// A random legal position of `material` (white's pieces first) with white
/// to move when `white_moves`.
fn random_position(rng: &mut SplitMix64, material: &str, white_moves: bool) -> Board {
    let (white, black) = material.split_once('v').unwrap();
    let turn = if white_moves { 'w' } else { 'b' };
    loop {
        if let Some(b) = syzygy_sample::random_position(white, black, turn, rng) {
            return b;
        }
    }
}

/// `count` positions of `material` whose WDL (side to move) is `wanted`.
fn positions(
    tables: &Tablebases,
    seed: u64,
    material: &str,
    wanted: Wdl,
    count: usize,
) -> Vec<Board> {
    let mut rng = SplitMix64::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let white_moves = wanted == Wdl::Win || rng.next_u64().is_multiple_of(2);
        let b = random_position(&mut rng, material, white_moves);
        let pos = b.pos();
        if pos.is_game_over() || tables.wdl(pos) != Some(wanted) {
            continue;
        }
        found.push(b);
    }
    found
}

/// Plays one game; returns the plies played. Fails the test on any lost
/// tablebase result or a wrong ending.
fn play(e: &mut EngineProcess, tables: &Tablebases, start: &Board, expected: Expected) -> usize {
    let fen = start.fen();
    let stronger = start.turn();
    let mut board = start.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    e.send("ucinewgame");
    loop {
        let pos = board.pos().clone();
        // The position without the move counters, for threefold repetition.
        let fen_now = board.fen();
        let key: Vec<&str> = fen_now.split_whitespace().take(4).collect();
        seen.push(key.join(" "));
        let threefold = seen.iter().filter(|k| **k == seen[seen.len() - 1]).count() >= 3;
        if pos.is_checkmate() {
            assert!(
                expected == Expected::StrongerSideMates && pos.turn() != stronger,
                "{fen} moves {}: the wrong side was mated",
                moves.join(" ")
            );
            return moves.len();
        }
        let ended = pos.is_game_over() || threefold || pos.halfmoves() >= 100;
        match expected {
            Expected::StrongerSideMates => assert!(
                !ended && moves.len() < MAX_PLIES,
                "{fen} moves {}: no mate ({} plies, halfmove clock {})",
                moves.join(" "),
                moves.len(),
                pos.halfmoves()
            ),
            Expected::NobodyLoses if ended || moves.len() >= DRAWN_PLIES => return moves.len(),
            Expected::NobodyLoses => {}
        }
        e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        e.send(&format!("go nodes {NODES}"));
        let lines = e.read_until("bestmove", MOVE_TIMEOUT);
        let text = bestmove_of(&lines);
        let before = tables.wdl(&pos).expect("in the tables");
        board.play_uci(&text).expect("a legal bestmove");
        let after = match board.pos().is_checkmate() {
            true => Wdl::Win,
            false => -tables.wdl(board.pos()).expect("in the tables"),
        };
        assert!(
            after >= before,
            "{fen} moves {} {text}: the mover's result fell from {before:?} to {after:?}",
            moves.join(" ")
        );
        moves.push(text);
    }
}

fn engine_with_tables() -> (EngineProcess, std::sync::Arc<Tablebases>) {
    let path = common::repo_path(TABLES);
    let tables = Tablebases::load(&path.to_string_lossy())
        .tables
        .expect("tables");
    let mut e = EngineProcess::spawn();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        path.display()
    ));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l == "info string found 9 tablebases (up to 4 pieces)"),
        "{lines:?}"
    );
    (e, tables)
}

#[test]
fn won_positions_are_mated_within_the_fifty_move_rule() {
    let (mut e, tables) = engine_with_tables();
    let mut plies = 0;
    for (i, material) in ["KQvK", "KRvK", "KPvK", "KQvKR"].iter().enumerate() {
        for start in positions(
            &tables,
            100 + i as u64,
            material,
            Wdl::Win,
            GAMES_PER_MATERIAL,
        ) {
            plies += play(&mut e, &tables, &start, Expected::StrongerSideMates);
        }
    }
    eprintln!("100 won games mated in {plies} plies");
}

#[test]
fn drawn_positions_are_never_lost() {
    let (mut e, tables) = engine_with_tables();
    for (i, material) in ["KRvKR", "KBvKN", "KPvK", "KQvKQ"].iter().enumerate() {
        for start in positions(
            &tables,
            200 + i as u64,
            material,
            Wdl::Draw,
            GAMES_PER_MATERIAL,
        ) {
            play(&mut e, &tables, &start, Expected::NobodyLoses);
        }
    }
}

#[test]
fn every_back_end_and_helper_threads_convert_the_win() {
    let (mut e, tables) = engine_with_tables();
    let starts = positions(&tables, 300, "KQvKR", Wdl::Win, 5);
    let settings = [
        ("AlphaBeta", 1),
        ("NegaScout", 3),
        ("MTDf", 1),
        ("SSS", 1),
        ("DUAL", 2),
    ];
    for ((algorithm, threads), start) in settings.iter().zip(&starts) {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        e.send(&format!("setoption name Threads value {threads}"));
        play(&mut e, &tables, start, Expected::StrongerSideMates);
    }
}
