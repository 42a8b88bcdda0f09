//! scripts/time_odds.py, the relay that gives an engine a fraction of its
//! clock in matches: it rewrites the clock values of `go` and passes every
//! other line through, both ways, and the engine behind it still plays.

mod common;

use common::engine_process::{EngineProcess, TIMEOUT};
use std::process::Command;

/// The relay with `factor` in front of `engine`, driven like an engine.
fn relay(factor: &str, engine: &[&str]) -> EngineProcess {
    let mut command = Command::new(common::python());
    command
        .arg(common::repo_path("scripts/time_odds.py"))
        .args(["--factor", factor, "--"])
        .args(engine);
    EngineProcess::spawn_command(command)
}

/// An engine that only echoes what it is told (as an `info string`, so the
/// line is well-formed protocol output), so the rewriting can be read.
const ECHO: &str = "import sys\nfor line in sys.stdin:\n    print('info string got ' + line.strip(), flush=True)\n    if line.strip() == 'quit':\n        break\n";

#[test]
fn clock_values_of_go_are_scaled_and_other_lines_pass_unchanged() {
    let python = common::python();
    let mut e = relay("0.2", &[&python, "-c", ECHO]);
    for (sent, seen) in [
        (
            "go wtime 10000 btime 9000 winc 100 binc 50 movestogo 7",
            "go wtime 2000 btime 1800 winc 20 binc 10 movestogo 7",
        ),
        ("go movetime 1000", "go movetime 200"),
        ("go wtime 3 btime 0", "go wtime 1 btime 0"),
        ("go depth 5", "go depth 5"),
        (
            "position startpos moves e2e4",
            "position startpos moves e2e4",
        ),
        (
            "setoption name Hash value 16",
            "setoption name Hash value 16",
        ),
        ("quit", "quit"),
    ] {
        e.send(sent);
        assert_eq!(
            e.read_until("info", TIMEOUT),
            vec![format!("info string got {seen}")]
        );
    }
    let status = e.wait_exit(TIMEOUT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

#[test]
fn stockman_behind_the_relay_plays_and_quits() {
    let mut e = relay("0.2", &[env!("CARGO_BIN_EXE_stockman")]);
    e.handshake();
    e.send("position startpos moves e2e4");
    e.send("go wtime 2000 btime 2000 winc 20 binc 20");
    let search = e.read_until("bestmove", TIMEOUT);
    assert_eq!(
        search.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    e.send("quit");
    let status = e.wait_exit(TIMEOUT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

#[test]
fn a_missing_engine_or_factor_is_an_error() {
    let run = |args: &[&str]| common::run_script("time_odds.py", args);
    for (args, says) in [
        (
            &["--factor", "0.2", "--", "/no/such/engine"][..],
            "cannot start",
        ),
        (&["--factor", "0.2"][..], "no engine command"),
        (&["--factor", "0", "--", "true"][..], "--factor"),
    ] {
        let out = run(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
