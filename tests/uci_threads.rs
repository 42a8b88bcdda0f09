//! The search threads through the real binary: at every `Threads` value the
//! option allows, and with a 12,000-ply game history, `go depth 1`, `isready`,
//! `stop` and `quit` are answered (in milliseconds, measured by hand; here
//! only a liveness bound is checked); helpers are kept across `go`s and their nodes
//! count; a panic in any search thread still ends in one legal `bestmove`.

mod common;

use common::engine_process::{EngineProcess, TIMEOUT, starts_with_word};
use common::search_check::*;
use std::time::Duration;

/// Only a hang exceeds it: every answer here comes in milliseconds.
const LIVENESS: Duration = Duration::from_secs(5);

/// The start position after `plies` knight moves back and forth.
fn shuffled(plies: usize) -> (Game, String) {
    let moves: Vec<&str> = ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .copied()
        .cycle()
        .take(plies)
        .collect();
    let game = Game::start().with_moves(&moves);
    (game, format!("position startpos moves {}", moves.join(" ")))
}

/// `go infinite`, `isready`, `stop`: each answered within the liveness bound.
fn answers_while_searching(e: &mut EngineProcess, game: &Game) {
    e.send("go infinite");
    e.send("isready");
    let mut lines = e.read_until("readyok", LIVENESS);
    lines.pop();
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    lines.extend(e.read_until("bestmove", LIVENESS));
    check_search(e, game, lines);
    expect_quiet(e);
}

#[test]
fn every_threads_value_answers_at_once_even_with_a_long_history() {
    for threads in ["1", "2", "256"] {
        for plies in [0, 12_000] {
            let mut e = engine();
            e.send(&format!("setoption name Threads value {threads}"));
            let (game, position) = shuffled(plies);
            e.send(&position);
            e.send("go depth 1");
            let lines = e.read_until("bestmove", LIVENESS);
            check_search(&e, &game, lines);
            expect_quiet(&mut e);
            answers_while_searching(&mut e, &game);
            answers_while_searching(&mut e, &game);
            e.send("go infinite");
            e.send("quit");
            let status = e.wait_exit(LIVENESS);
            assert!(
                status.is_some_and(|s| s.success()),
                "Threads {threads}, {plies} plies: quit gave {status:?}"
            );
        }
    }
}

/// The names of the engine's threads (Linux: /proc/PID/task/*/comm).
fn helper_threads(pid: u32) -> Vec<String> {
    let mut ids = Vec::new();
    for entry in std::fs::read_dir(format!("/proc/{pid}/task")).expect("a Linux /proc") {
        let dir = entry.unwrap().path();
        let name = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        if name.starts_with("search helper") {
            ids.push(dir.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    ids.sort();
    ids
}

#[test]
fn helpers_are_kept_across_searches_and_their_nodes_count() {
    let mut e = engine();
    e.send("setoption name Threads value 4");
    let game = Game::start();
    let first = go(&mut e, &game, "go depth 6");
    assert!(first.best.is_some());
    // The helpers start on their own thread: give them a moment to exist.
    let mut helpers = helper_threads(e.pid());
    for _ in 0..200 {
        if helpers.len() == 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        helpers = helper_threads(e.pid());
    }
    assert_eq!(helpers.len(), 3, "{helpers:?}");
    for _ in 0..3 {
        go(&mut e, &game, "go depth 5");
    }
    assert_eq!(helper_threads(e.pid()), helpers, "the same helper threads");
    // The last line counts the helpers' nodes too: more than the main
    // thread's limit. (Tried a few times: on a loaded machine a helper may
    // not get a turn within one short search.)
    e.send("setoption name Threads value 2");
    let counted = (1..=8).any(|round| {
        let nodes = 100_000 * round;
        let s = go(&mut e, &game, &format!("go nodes {nodes}"));
        let last = &s.infos.last().expect("checked").line;
        let reported: u64 = last
            .split(' ')
            .skip_while(|w| *w != "nodes")
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        reported > nodes
    });
    assert!(counted, "the helper's nodes never showed in info nodes");
}

#[test]
fn a_panic_in_the_main_search_thread_still_gives_one_legal_bestmove() {
    let mut e = EngineProcess::spawn_with_env(
        &[],
        &[("STOCKMAN_FAULT", "main-panic"), ("RUST_BACKTRACE", "0")],
    );
    e.handshake();
    let game = Game::start();
    for threads in ["1", "3"] {
        e.send(&format!("setoption name Threads value {threads}"));
        // The fault fires after the second iteration: the first one's move is played.
        let s = go(&mut e, &game, "go depth 8");
        assert!(s.best.is_some());
        assert!(
            s.info_strings()
                .iter()
                .any(|l| l.contains("internal error in the search")),
            "{:?}",
            s.lines
        );
        // Still usable: depth 1 ends before the fault.
        let s = go(&mut e, &game, "go depth 1");
        assert!(s.best.is_some());
        assert!(
            s.info_strings()
                .iter()
                .all(|l| !l.contains("internal error"))
        );
    }
}

#[test]
fn a_panic_in_a_helper_is_reported_and_the_search_goes_on() {
    let mut e = EngineProcess::spawn_with_env(
        &[],
        &[("STOCKMAN_FAULT", "helper-panic"), ("RUST_BACKTRACE", "0")],
    );
    e.handshake();
    e.send("setoption name Threads value 2");
    let game = Game::start();
    // The helper fails as it starts; its failure is told before a bestmove
    // (tried a few times: a loaded machine may run the helper late).
    let reported = (0..10).any(|_| {
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        e.send("stop");
        let lines = e.read_until("bestmove", TIMEOUT);
        let s = check_search(&e, &game, lines);
        expect_quiet(&mut e);
        s.info_strings()
            .iter()
            .any(|l| starts_with_word(l, "info string") && l.contains("search helper 1 failed"))
    });
    assert!(reported, "no helper failure reported");
    let s = go(&mut e, &game, "go depth 4");
    assert!(s.best.is_some());
}

/// Milliseconds from sending `command` to a line starting with `answer`,
/// with the lines read.
fn answered_in(e: &mut EngineProcess, command: &str, answer: &str) -> (f64, Vec<String>) {
    let sent = std::time::Instant::now();
    e.send(command);
    let lines = e.read_until(answer, LIVENESS);
    (sent.elapsed().as_secs_f64() * 1000.0, lines)
}

/// "median M, max X ms" of the figures.
fn distribution(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    format!(
        "median {:.1}, max {:.1} ms over {}",
        ms[ms.len() / 2],
        ms[ms.len() - 1],
        ms.len()
    )
}

/// The latency of `stop`, `isready` and `quit` at Threads 256 with a
/// 12,000-ply history, over rounds of searches: printed as a benchmark
/// (run with --nocapture to read it). Only a hang bound is asserted (the
/// machine is shared); the figures measured by hand are in the closing note
/// of issue 21.
#[test]
fn latency_at_threads_256_with_a_long_history() {
    const HANG: f64 = 2000.0;
    let mut e = engine();
    e.send("setoption name Threads value 256");
    let (game, position) = shuffled(12_000);
    e.send(&position);
    let (mut go_depth_1, mut isready, mut stop) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..10 {
        let (ms, lines) = answered_in(&mut e, "go depth 1", "bestmove");
        check_search(&e, &game, lines);
        go_depth_1.push(ms);
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(150));
        let (ms, mut lines) = answered_in(&mut e, "isready", "readyok");
        isready.push(ms);
        lines.pop();
        std::thread::sleep(Duration::from_millis(50));
        let (ms, more) = answered_in(&mut e, "stop", "bestmove");
        stop.push(ms);
        lines.extend(more);
        check_search(&e, &game, lines);
    }
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(150));
    let sent = std::time::Instant::now();
    e.send("quit");
    let status = e.wait_exit(LIVENESS);
    let quit = sent.elapsed().as_secs_f64() * 1000.0;
    assert!(status.is_some_and(|s| s.success()), "quit gave {status:?}");
    eprintln!(
        "Threads 256, 12,000 plies: go depth 1 {}",
        distribution(go_depth_1.clone())
    );
    eprintln!("  isready {}", distribution(isready.clone()));
    eprintln!("  stop {}", distribution(stop.clone()));
    eprintln!("  quit {quit:.1} ms");
    for (what, ms) in [
        ("go depth 1", go_depth_1),
        ("isready", isready),
        ("stop", stop),
    ] {
        assert!(ms.iter().all(|&t| t < HANG), "{what}: {ms:?}");
    }
    assert!(quit < HANG, "quit: {quit} ms");
}
