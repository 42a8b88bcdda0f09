//! The limits of `go` through the real binary: node and time limits hold
//! from the first node in every mode, `movetime` is used to its end less the
//! Move Overhead, a search cut short still reports what it did, and a mate
//! score's PV reaches the mate. Time is only bounded from below (a slow
//! machine can only make a search longer) or by generous liveness limits.

mod common;

use common::engine_process::EngineProcess;
use common::search_check::*;
use std::time::{Duration, Instant};

/// Nine queens and every other piece for each side, no pawn: the capture
/// tree is so large that no iteration of a Pure search ends in a lifetime.
const MOST_MATERIAL: &str = "rnbqkbnr/qqqqqqqq/8/8/8/8/QQQQQQQQ/RNBQKBNR w - - 0 1";

/// Much longer than any of these searches needs; only a hang exceeds it.
const LIVENESS: Duration = Duration::from_secs(10);

/// Sends `cmd` and reads the search; also returns the time to `bestmove`.
fn timed_go(e: &mut EngineProcess, game: &Game, cmd: &str) -> (Search, Duration) {
    let start = Instant::now();
    e.send(cmd);
    let lines = e.read_until("bestmove", LIVENESS);
    let elapsed = start.elapsed();
    let search = check_search(e, game, lines);
    expect_quiet(e);
    (search, elapsed)
}

#[test]
fn time_and_node_limits_hold_in_the_first_iteration_in_every_mode() {
    for pure in ["false", "true"] {
        let mut e = engine();
        e.send(&format!("setoption name Pure value {pure}"));
        let game = Game::fen(MOST_MATERIAL);
        set_position(&mut e, &game);
        for cmd in ["go movetime 100", "go nodes 1000", "go wtime 200 btime 200"] {
            let (s, _) = timed_go(&mut e, &game, cmd);
            assert!(s.best.is_some(), "Pure {pure}, {cmd}");
        }
    }
}

#[test]
fn movetime_is_used_to_its_end_less_the_move_overhead() {
    let mut e = engine();
    let game = Game::start();
    for (overhead, movetime) in [(10, 1000), (300, 1000)] {
        e.send(&format!("setoption name Move Overhead value {overhead}"));
        e.send("ucinewgame");
        set_position(&mut e, &game);
        let (_, elapsed) = timed_go(&mut e, &game, &format!("go movetime {movetime}"));
        // At most a few iterations' worth short (the engine checks the clock
        // every thousand nodes); before, it stopped at well under half.
        let floor = Duration::from_millis(movetime - overhead - 50);
        assert!(
            elapsed >= floor,
            "movetime {movetime}, overhead {overhead}: bestmove after {elapsed:?}"
        );
    }
}
