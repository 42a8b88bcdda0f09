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

/// `go depth 1` in Pure mode on the crowded position: its one iteration is
/// the exact value of a full capture tree (no pruning, no TT: a function of
/// the position) that no machine finishes, so the search ends on any other
/// limit given with the depth, and on `stop`, with one legal `bestmove`,
/// at one thread or several; `isready` is answered meanwhile.
#[test]
fn a_pure_depth_1_search_too_big_to_finish_ends_on_every_other_limit_and_stop() {
    for threads in ["1", "2"] {
        let mut e = engine();
        e.send("setoption name Pure value true");
        e.send(&format!("setoption name Threads value {threads}"));
        let game = Game::fen(MOST_MATERIAL);
        set_position(&mut e, &game);
        for cmd in ["go depth 1 movetime 200", "go depth 1 nodes 50000"] {
            let (s, _) = timed_go(&mut e, &game, cmd);
            assert!(s.best.is_some(), "Threads {threads}, {cmd}");
        }
        e.send("go depth 1");
        e.send("isready");
        let mut lines = e.read_until("readyok", LIVENESS);
        lines.pop();
        std::thread::sleep(Duration::from_millis(300));
        e.send("stop");
        lines.extend(e.read_until("bestmove", LIVENESS));
        let s = check_search(&e, &game, lines);
        assert!(s.best.is_some(), "Threads {threads}, go depth 1 + stop");
        expect_quiet(&mut e);
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

/// A number after `key` in an `info` line.
fn field(line: &str, key: &str) -> Option<u64> {
    let mut words = line.split(' ');
    words.find(|w| *w == key)?;
    words.next()?.parse().ok()
}

#[test]
fn a_search_cut_short_reports_the_nodes_and_time_it_used() {
    let mut e = engine();
    let game = Game::start();
    for nodes in [40_000u64, 123_457] {
        e.send("ucinewgame");
        set_position(&mut e, &game);
        let (s, _) = timed_go(&mut e, &game, &format!("go nodes {nodes}"));
        let last = &s.infos.last().expect("checked: scored infos").line;
        // Before, the last line was the last finished iteration's (24,980 of 40,000).
        let reported = field(last, "nodes").unwrap_or(0);
        assert!(
            reported >= nodes,
            "go nodes {nodes}: the last info says {last}"
        );
    }
    // The engine's own clock: it stops at movetime less Move Overhead.
    e.send("ucinewgame");
    let (s, _) = timed_go(&mut e, &game, "go movetime 500");
    let last = &s.infos.last().expect("checked: scored infos").line;
    assert!(field(last, "time").unwrap_or(0) >= 490, "{last}");
    // Stopped: a last line with a PV starting with the bestmove (checked
    // for every search) and at least as many nodes as any line before it.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let lines = e.read_until("bestmove", LIVENESS);
    let s = check_search(&e, &game, lines);
    let most = s.infos.iter().filter_map(|i| field(&i.line, "nodes")).max();
    let last = &s.infos.last().expect("checked").line;
    assert_eq!(field(last, "nodes"), most, "{last}");
    assert!(field(last, "time").is_some(), "{last}");
}

#[test]
fn a_mate_scores_pv_ends_in_checkmate() {
    use shakmaty::Position;
    // Found at low depth through check extensions (mate in 3), a mate in
    // two, and the mated side's view.
    let cases = [
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 2..=6),
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 1..=5),
        ("k7/8/1K6/8/8/8/8/7R b - - 0 1", 1..=4),
    ];
    let mut e = engine();
    let mut mates_seen = 0;
    for (fen, depths) in cases {
        for depth in depths {
            let game = Game::fen(fen);
            e.send("ucinewgame");
            set_position(&mut e, &game);
            let s = go(&mut e, &game, &format!("go depth {depth}"));
            for info in &s.infos {
                let Some(Score::Mate(n)) = info.score else {
                    continue;
                };
                mates_seen += 1;
                let mut g = game.clone();
                for text in &info.pv {
                    let m = g.parse_move(text).expect("checked: legal PV");
                    g.play(m);
                }
                let plies = if n > 0 { 2 * n - 1 } else { -2 * n };
                if !g.pos.is_checkmate() || info.pv.len() as i64 != plies {
                    e.fail(&format!(
                        "mate {n}: the PV does not reach it: {}",
                        info.line
                    ));
                }
            }
        }
    }
    assert!(mates_seen >= 12, "only {mates_seen} mate scores");
}
