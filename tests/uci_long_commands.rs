//! `go perft` and `bench` inside a UCI session, through the real binary: they
//! run off the input thread, so `isready` is answered while they run; `stop`,
//! `quit` and `go` end them; absurd depths are refused with a message.

mod common;

use common::engine_process::{TIMEOUT, starts_with_word};
use common::search_check::*;
use std::time::Duration;

/// Only a hang exceeds it; perft 8 of the start position (85 billion
/// leaves) and bench 30 run for minutes.
const LIVENESS: Duration = Duration::from_secs(5);

/// `isready` is answered while the command runs, and nothing but
/// `info string` came first.
fn ready_while_running(e: &mut common::engine_process::EngineProcess) {
    e.send("isready");
    let lines = e.read_until("readyok", LIVENESS);
    for l in &lines[..lines.len() - 1] {
        if !starts_with_word(l, "info string") && !l.contains(": ") {
            e.fail(&format!("unexpected line while running: {l}"));
        }
        if l.starts_with("Nodes searched") || l.contains(" nodes ") && l.ends_with(" nps") {
            e.fail("the command finished: the test needs a longer one");
        }
    }
}

#[test]
fn perft_runs_off_the_input_thread_and_stops() {
    let mut e = engine();
    e.send("go perft 8");
    ready_while_running(&mut e);
    e.send("stop");
    e.expect_line(
        "'perft stopped'",
        |l| l == "info string perft stopped",
        LIVENESS,
    );
    // Still usable: a small perft completes, a search answers.
    e.send("go perft 3");
    let lines = e.read_until("Nodes", TIMEOUT);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );
    e.sync();
    let s = go(&mut e, &Game::start(), "go depth 3");
    assert!(s.best.is_some());
    // Absurd depths are refused, not clamped and run for ever.
    for depth in ["16", "100", "4294967295"] {
        e.send(&format!("go perft {depth}"));
        let said = e.sync();
        assert!(
            said.iter()
                .any(|l| l.starts_with("info string perft: depth")),
            "{depth}: {said:?}"
        );
    }
    e.send("go perft 99999999999");
    assert!(!e.sync().is_empty(), "refused with a message");
}

#[test]
fn bench_runs_off_the_input_thread_and_stops() {
    let mut e = engine();
    e.send("bench 30");
    ready_while_running(&mut e);
    e.send("stop");
    e.expect_line(
        "'bench stopped'",
        |l| l.starts_with("info string bench") && l.contains("stopped"),
        LIVENESS,
    );
    e.send("bench 1000");
    let said = e.sync();
    assert!(said.iter().any(|l| l.contains("outside")), "{said:?}");
    // A go during a bench stops it and still gets its one bestmove.
    e.send("bench 30");
    ready_while_running(&mut e);
    let s = go(&mut e, &Game::start(), "go depth 2");
    assert!(s.best.is_some());
    assert!(
        s.info_strings().iter().any(|l| l.contains("bench stopped")),
        "{:?}",
        s.lines
    );
}

#[test]
fn quit_and_end_of_input_end_a_running_perft() {
    for close in [false, true] {
        let mut e = engine();
        e.send("go perft 8");
        ready_while_running(&mut e);
        if close {
            e.close_stdin();
        } else {
            e.send("quit");
        }
        let status = e.wait_exit(LIVENESS);
        assert!(
            status.is_some_and(|s| s.success()),
            "close {close}: {status:?}"
        );
    }
}
