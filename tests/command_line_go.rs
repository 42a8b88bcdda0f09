//! A `go` given on the command line (each argument one UCI command, then an
//! implied `quit`) runs to its own limit and prints its `bestmove` before
//! the next argument runs; `go infinite` is still ended by the implied
//! `quit`. Time is only bounded from below (a slow machine can only make a
//! search longer).

mod common;

use common::cli::{stockman, text};
use std::time::{Duration, Instant};

/// The depth of every `info depth` line and each `bestmove`, in order.
fn searches(out: &str) -> Vec<(Vec<u32>, String)> {
    let mut done = Vec::new();
    let mut depths = Vec::new();
    for line in out.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        match words.as_slice() {
            ["info", "depth", d, ..] => depths.push(d.parse().unwrap()),
            ["bestmove", m, ..] => done.push((std::mem::take(&mut depths), m.to_string())),
            _ => {}
        }
    }
    done
}

fn run(args: &[&str]) -> (Vec<(Vec<u32>, String)>, Duration) {
    let start = Instant::now();
    let o = stockman(args);
    let elapsed = start.elapsed();
    assert!(o.status.success(), "{}", text(&o.stderr));
    (searches(&text(&o.stdout)), elapsed)
}

#[test]
fn a_depth_search_reaches_its_depth_before_the_next_command() {
    let (found, _) = run(&[
        "position startpos",
        "go depth 8",
        "position startpos moves e2e4",
        "go depth 7",
    ]);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0.iter().max(), Some(&8), "{found:?}");
    assert_eq!(found[1].0.iter().max(), Some(&7), "{found:?}");
    assert!(["e7e5", "c7c5", "e7e6", "c7c6", "d7d5", "g8f6"].contains(&found[1].1.as_str()));
}

#[test]
fn node_time_and_clock_limits_run_to_their_end() {
    // 50,000 nodes reach well past depth 1 (the first iteration takes 20).
    let (found, _) = run(&["position startpos", "go nodes 50000"]);
    assert!(found[0].0.iter().max() > Some(&5), "{found:?}");
    // The search uses the time less the Move Overhead (10 ms by default).
    let (found, elapsed) = run(&["position startpos", "go movetime 300"]);
    assert_eq!(found.len(), 1);
    assert!(elapsed >= Duration::from_millis(280), "{elapsed:?}");
    let (found, _) = run(&["position startpos", "go wtime 2000 btime 2000"]);
    assert!(found[0].0.iter().max() > Some(&3), "{found:?}");
}

#[test]
fn a_mate_search_finds_its_mate() {
    let (found, _) = run(&[
        "position fen r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1",
        "go mate 3",
    ]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "f6a6");
}

#[test]
fn an_infinite_search_is_ended_by_the_implied_quit() {
    let (found, _) = run(&["position startpos", "go infinite"]);
    assert_eq!(found.len(), 1, "one bestmove, at the quit");
}
