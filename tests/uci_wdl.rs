//! `UCI_ShowWDL` through the real binary: with it on, every `info ... score`
//! line of a search carries `wdl W D L`, the fitted model's figures for the
//! root position's material (src/uci/wdl.rs); with it off, none does. Also
//! `UCI_AnalyseMode`, which GUIs send beside it, is accepted.

mod common;

use common::engine_process::{EngineProcess, starts_with_word};
use common::search_check::*;
use stockman::board::Board;
use stockman::score::Score as EngineScore;
use stockman::uci::wdl::{material, wdl};

/// White is a queen up.
const QUEEN_UP: &str = "r1b1kbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 4";
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";

/// Sends `setoption` and checks that it drew no complaint.
fn set_option(e: &mut EngineProcess, name: &str, value: &str) {
    e.send(&format!("setoption name {name} value {value}"));
    let lines = e.sync();
    if let Some(l) = lines.iter().find(|l| starts_with_word(l, "info string")) {
        e.fail(&format!("setoption {name} {value}: {l}"));
    }
}

/// `go depth 5` from `fen`; every scored line's wdl is the model's.
fn search_with_wdl(e: &mut EngineProcess, fen: &str) -> Search {
    let game = Game::fen(fen);
    set_position(e, &game);
    let s = go(e, &game, "go depth 5");
    let mat = material(&Board::from_fen(fen).unwrap());
    for info in s.infos.iter().filter(|i| i.score.is_some()) {
        let Some((w, d, l)) = info.wdl else {
            e.fail(&format!("no wdl on a score line: {}", info.line));
        };
        assert_eq!(w + d + l, 1000, "{}", info.line);
        let expected = match info.score.unwrap() {
            Score::Cp(cp) => wdl(EngineScore(cp as i32), mat),
            Score::Mate(m) if m > 0 => (1000, 0, 0),
            Score::Mate(_) => (0, 0, 1000),
        };
        assert_eq!((w, d, l), expected, "{}", info.line);
    }
    s
}

#[test]
fn show_wdl_puts_the_models_wdl_on_every_score_line() {
    let mut e = engine();
    set_option(&mut e, "UCI_ShowWDL", "true");
    let start = search_with_wdl(
        &mut e,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    let (w, d, l) = start.final_info().wdl.unwrap();
    assert!(
        w < 600 && l < 600 && d > 0,
        "the start position: {w} {d} {l}"
    );
    let queen_up = search_with_wdl(&mut e, QUEEN_UP);
    let (w, _, l) = queen_up.final_info().wdl.unwrap();
    assert!(w > 900 && l < 10, "a queen up: {w} {l}");
    let mate = search_with_wdl(&mut e, MATE_IN_ONE);
    assert_eq!(mate.final_info().wdl, Some((1000, 0, 0)));

    set_option(&mut e, "UCI_ShowWDL", "false");
    let game = Game::start();
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go depth 5");
    assert!(s.infos.iter().all(|i| i.wdl.is_none()), "{:#?}", s.lines);
    assert!(
        s.lines.iter().all(|l| !l.contains(" wdl ")),
        "{:#?}",
        s.lines
    );
}

#[test]
fn analyse_mode_is_accepted_and_changes_no_output() {
    let mut e = engine();
    for value in ["true", "false", "TRUE"] {
        set_option(&mut e, "UCI_AnalyseMode", value);
    }
    set_option(&mut e, "uci_analysemode", "true");
    set_option(&mut e, "UCI_ShowWDL", "true");
    let game = Game::start();
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go depth 4");
    assert!(s.infos.iter().all(|i| i.score.is_none() || i.wdl.is_some()));
}
