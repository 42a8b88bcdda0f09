//! Adjustable strength through the real binary: `Skill Level` and
//! `UCI_LimitStrength`/`UCI_Elo` still give exactly one legal `bestmove` per
//! `go` (its PV shown last), find a mate in one at the lowest setting, do
//! play other moves than full strength, and refuse absurd values.

mod common;

use common::search_check::{Game, engine, go};
use shakmaty::Position;

/// Mates in one, the side to move's.
const MATES_IN_ONE: &[&str] = &[
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",
];

const WEAKEST: [&str; 2] = [
    "setoption name Skill Level value 0",
    "setoption name UCI_LimitStrength value true",
];

#[test]
fn the_weakest_setting_still_mates_in_one() {
    for setting in WEAKEST {
        let mut e = engine();
        e.send(setting);
        for fen in MATES_IN_ONE {
            let game = Game::fen(fen);
            e.send(&game.position_command());
            let search = go(&mut e, &game, "go wtime 10000 btime 10000");
            let mut after = game.clone();
            after.play(game.parse_move(search.best.as_deref().unwrap()).unwrap());
            assert!(after.pos.is_checkmate(), "{setting}: {fen}: {search:?}");
        }
    }
}

/// Plays `plies` moves from the start with `setting`, each `go` checked.
fn weak_game(setting: &str, plies: usize) -> Vec<String> {
    let mut e = engine();
    e.send(setting);
    let mut game = Game::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        e.send(&game.position_command());
        let search = go(&mut e, &game, "go wtime 3000 btime 3000 winc 30 binc 30");
        let best = search.best.expect("a move");
        game.play(game.parse_move(&best).unwrap());
        moves.push(best);
    }
    moves
}

#[test]
fn weak_play_is_legal_and_not_the_full_strength_game() {
    let full = weak_game("setoption name Skill Level value 20", 16);
    for setting in [
        "setoption name Skill Level value 3",
        "setoption name UCI_LimitStrength value true",
    ] {
        let weak = weak_game(setting, 16);
        assert_eq!(weak.len(), 16);
        assert_ne!(weak, full, "{setting}");
    }
}

#[test]
fn strength_options_refuse_absurd_values_and_the_engine_goes_on() {
    let mut e = engine();
    for (bad, why) in [
        ("setoption name UCI_Elo value 99999", "outside 1320..3000"),
        ("setoption name UCI_Elo value weak", "not a whole number"),
        ("setoption name Skill Level value -1", "outside 0..20"),
        (
            "setoption name UCI_LimitStrength value maybe",
            "not true or false",
        ),
    ] {
        e.send(bad);
        let lines = e.sync();
        assert!(lines.iter().any(|l| l.contains(why)), "{bad}: {lines:?}");
    }
    e.send("setoption name UCI_AnalyseMode value true");
    assert!(e.sync().is_empty(), "UCI_AnalyseMode is accepted");
    let game = Game::start();
    e.send(&game.position_command());
    assert!(go(&mut e, &game, "go depth 3").best.is_some());
}
