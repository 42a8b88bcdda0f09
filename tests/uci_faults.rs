//! Input that broke engines, through the real binary: positions beyond what
//! a game can reach, files that are not files, control bytes. Every case ends
//! in an `info string` or exactly one legal `bestmove`, never in silence.

mod common;

use common::cli::{path, scratch};
use common::engine_process::{EngineProcess, starts_with_word};
use common::search_check::*;
use std::time::Duration;

/// Only a hang exceeds it: every answer here is immediate.
const LIVENESS: Duration = Duration::from_secs(5);

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

/// Sets `EvalFile` to `path`: the answer is an `info string` saying the
/// network was not changed, and `isready` is answered at once (well within
/// a liveness bound: before, a FIFO or /dev/stdin blocked the engine for ever).
fn eval_file_refused(e: &mut EngineProcess, path: &str, reason: &str) {
    e.send(&format!("setoption name EvalFile value {path}"));
    e.send("isready");
    let lines = e.read_until("readyok", LIVENESS);
    let refusal = lines
        .iter()
        .find(|l| l.starts_with("info string EvalFile not changed"))
        .unwrap_or_else(|| e.fail(&format!("EvalFile {path} was not refused")));
    if !refusal.contains(reason) {
        e.fail(&format!(
            "EvalFile {path}: expected '{reason}' in {refusal}"
        ));
    }
}

#[test]
fn eval_file_reads_only_a_regular_file_of_the_networks_size() {
    let dir = scratch("evalfile");
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let network = std::fs::read(common::repo_path("net/stockman.nnue")).unwrap();
    let longer = dir.join("longer.nnue");
    std::fs::write(&longer, [network.as_slice(), b"x"].concat()).unwrap();
    // The first output weight at -32768, whose abs() wraps to itself.
    let mut bad = network.clone();
    let hidden = u32::from_le_bytes(network[8..12].try_into().unwrap()) as usize;
    // The second format (output buckets) has the bucket count in its header.
    let header = if &network[..8] == b"STKNET02" { 16 } else { 12 };
    let first_output = header + 2 * (768 * hidden + hidden);
    bad[first_output..first_output + 2].copy_from_slice(&i16::MIN.to_le_bytes());
    let wrapped = dir.join("wrapped.nnue");
    std::fs::write(&wrapped, &bad).unwrap();
    let copy = dir.join("copy.nnue");
    std::fs::write(&copy, &network).unwrap();

    let mut e = engine();
    let before = e.eval();
    eval_file_refused(&mut e, "/dev/stdin", "not a regular file");
    eval_file_refused(&mut e, path(&fifo), "not a regular file");
    eval_file_refused(&mut e, "/dev/zero", "not a regular file");
    eval_file_refused(&mut e, "/dev/urandom", "not a regular file");
    eval_file_refused(&mut e, path(&dir), "directory");
    // A byte too many for the network's shape, or for the largest network
    // file when the built-in one is the largest shape: refused either way.
    let longer_says = format!("has {} bytes", network.len() + 1);
    eval_file_refused(&mut e, path(&longer), &longer_says);
    eval_file_refused(&mut e, path(&wrapped), "output weights beyond");
    assert_eq!(e.eval(), before, "the built-in network is still in use");
    // A regular copy of the network is read.
    e.send(&format!("setoption name EvalFile value {}", path(&copy)));
    let said = e.sync();
    assert!(
        said.iter().any(|l| l.contains("network read from")),
        "{said:?}"
    );
    assert_eq!(e.eval(), before);
    let s = go(&mut e, &Game::start(), "go depth 3");
    assert!(s.best.is_some());
}

#[test]
fn control_bytes_in_input_are_never_echoed_raw() {
    let mut e = engine();
    // The hygiene check of every line read rejects control characters, so
    // each answer is checked as it arrives.
    for line in [
        &b"\x1b[31mred\x07 \x00nul\n"[..],
        b"setoption name \x1bHash value 1\x00\n",
        b"position fen \x1b\x07 w - - 0 1\n",
        b"go depth 2 \x1bnodes\n",
        b"position startpos moves e2e4 \x7fe7e5\n",
        b"bench \x00\n",
        b"debug \x1b\n",
    ] {
        e.send_raw(line);
        let said = e.sync();
        for l in &said {
            if l.starts_with("bestmove") {
                continue;
            }
            if !starts_with_word(l, "info") {
                e.fail(&format!("unexpected answer {l:?}"));
            }
        }
        // A `go` among them still ends in a bestmove, read here or above.
        if line.starts_with(b"go") && !said.iter().any(|l| l.starts_with("bestmove")) {
            e.read_until("bestmove", LIVENESS);
        }
    }
    let said = e.sync();
    assert!(said.is_empty(), "{said:?}");
    // An escape is visible, not dropped: the message quotes it as \x1b.
    e.send_raw(b"\x1bxyz\n");
    let said = e.sync();
    assert!(said.iter().any(|l| l.contains("\\x1bxyz")), "{said:?}");
}
