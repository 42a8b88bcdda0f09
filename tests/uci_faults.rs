//! Input that broke engines, through the real binary: positions beyond what
//! a game can reach, files that are not files, control bytes. Every case ends
//! in an `info string` or exactly one legal `bestmove`, never in silence.

mod common;

use common::engine_process::starts_with_word;
use common::search_check::*;

/// 270 legal moves for White: more than any reachable position has (218).
const TOO_MANY_MOVES: &str = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1";
/// Nine queens and every other piece for each side, no pawn: all that
/// promotions allow, so it is accepted.
const MOST_MATERIAL: &str = "rnbqkbnr/qqqqqqqq/8/8/8/8/QQQQQQQQ/RNBQKBNR w - - 0 1";

#[test]
fn a_fen_with_more_moves_than_any_game_is_refused_and_go_still_answers() {
    for threads in ["1", "2"] {
        let mut e = engine();
        e.send(&format!("setoption name Threads value {threads}"));
        e.send(&format!("position fen {TOO_MANY_MOVES}"));
        let said = e.sync();
        if !said
            .iter()
            .any(|l| starts_with_word(l, "info string") && l.contains("too much material"))
        {
            e.fail("the FEN was not refused with an info string");
        }
        // The position is unchanged (the start position): one legal bestmove.
        let s = go(&mut e, &Game::start(), "go depth 1");
        assert!(s.best.is_some());
        // The most material a game can have is searched normally.
        let game = Game::fen(MOST_MATERIAL);
        set_position(&mut e, &game);
        let s = go(&mut e, &game, "go nodes 20000");
        assert!(s.best.is_some());
    }
}
