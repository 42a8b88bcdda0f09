//! scripts/time_odds.py, the relay that gives an engine a fraction of its
//! clock in matches: it rewrites the clock values of `go` and passes every
//! other line through, both ways, and the engine behind it still plays.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Only guards against a hang.
const LIMIT: Duration = Duration::from_secs(60);

/// Starts the relay with `factor` in front of `engine`, and a thread that
/// forwards its output lines.
fn relay(factor: &str, engine: &[&str]) -> (Child, Receiver<String>) {
    let mut child = Command::new(common::python())
        .arg(common::repo_path("scripts/time_odds.py"))
        .args(["--factor", factor, "--"])
        .args(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start python3 scripts/time_odds.py");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

fn send(child: &mut Child, line: &str) {
    writeln!(child.stdin.as_mut().unwrap(), "{line}").unwrap();
    child.stdin.as_mut().unwrap().flush().unwrap();
}

/// Lines up to and including the first that starts with `prefix`.
fn until(lines: &Receiver<String>, prefix: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(LIMIT) {
            Ok(line) => {
                let done = line.starts_with(prefix);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(e) => panic!("no '{prefix}' line ({e}); saw {seen:?}"),
        }
    }
}

/// An engine that only echoes what it is told, so the rewriting can be read.
const ECHO: &str = "import sys\nfor line in sys.stdin:\n    print('got ' + line.strip(), flush=True)\n    if line.strip() == 'quit':\n        break\n";

#[test]
fn clock_values_of_go_are_scaled_and_other_lines_pass_unchanged() {
    let python = common::python();
    let (mut child, lines) = relay("0.2", &[&python, "-c", ECHO]);
    for (sent, seen) in [
        (
            "go wtime 10000 btime 9000 winc 100 binc 50 movestogo 7",
            "got go wtime 2000 btime 1800 winc 20 binc 10 movestogo 7",
        ),
        ("go movetime 1000", "got go movetime 200"),
        ("go wtime 3 btime 0", "got go wtime 1 btime 0"),
        ("go depth 5", "got go depth 5"),
        (
            "position startpos moves e2e4",
            "got position startpos moves e2e4",
        ),
        (
            "setoption name Hash value 16",
            "got setoption name Hash value 16",
        ),
    ] {
        send(&mut child, sent);
        assert_eq!(until(&lines, "got"), vec![seen.to_string()]);
    }
    send(&mut child, "quit");
    assert_eq!(until(&lines, "got"), vec!["got quit".to_string()]);
    assert!(child.wait().unwrap().success());
}

#[test]
fn stockman_behind_the_relay_plays_and_quits() {
    let (mut child, lines) = relay("0.2", &[env!("CARGO_BIN_EXE_stockman")]);
    send(&mut child, "uci");
    until(&lines, "uciok");
    send(&mut child, "position startpos moves e2e4");
    send(&mut child, "go wtime 2000 btime 2000 winc 20 binc 20");
    let search = until(&lines, "bestmove");
    assert_eq!(
        search.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    send(&mut child, "quit");
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_missing_engine_or_factor_is_an_error() {
    let run = |args: &[&str]| {
        Command::new(common::python())
            .arg(common::repo_path("scripts/time_odds.py"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
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
