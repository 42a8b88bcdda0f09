//! `stockman bench` through the real binary, as OpenBench runs it: the last
//! line is `<nodes> nodes <nps> nps`, node counts repeat exactly (also for two
//! copies at once), back-end and mode flags are accepted, bad ones refused.

use std::process::{Command, Output};

fn stockman(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stockman"))
        .args(args)
        // OpenBench runs the binary from elsewhere: the bench set is compiled in.
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run stockman")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

/// The node count of the signature line `<nodes> nodes <nps> nps`.
fn signature_nodes(line: &str) -> u64 {
    let fields: Vec<&str> = line.split(' ').collect();
    assert_eq!(fields.len(), 4, "signature line: {line}");
    assert_eq!(
        (fields[1], fields[3]),
        ("nodes", "nps"),
        "signature line: {line}"
    );
    fields[2].parse::<u64>().expect("nps is an integer");
    fields[0].parse().expect("nodes is an integer")
}

#[test]
fn bench_ends_with_the_node_signature() {
    let o = stockman(&["bench", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 51, "50 positions and the signature:\n{text}");
    let nodes = signature_nodes(lines[50]);
    assert!(nodes > 1000);
    let per_position: u64 = lines[..50]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(per_position, nodes);
    assert!(text.ends_with(" nps\n"), "nothing may follow the signature");
    // Which vector kernels the network runs on goes to stderr, not into
    // what OpenBench parses.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        ["portable", "AVX2", "AVX-512"]
            .iter()
            .any(|isa| err.contains(&format!("network kernels {isa}"))),
        "{err}"
    );
}

#[test]
fn two_copies_at_once_count_the_same_nodes() {
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_stockman"))
            .args(["bench", "4"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("spawn stockman")
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert!(a.status.success() && b.status.success());
    let (a, b) = (stdout(&a), stdout(&b));
    let (a_lines, b_lines): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    // Every per-position line (best move, score, nodes) and the total agree; only nps may differ.
    assert_eq!(a_lines[..50], b_lines[..50]);
    assert_eq!(signature_nodes(a_lines[50]), signature_nodes(b_lines[50]));
    let again = stdout(&stockman(&["bench", "4"]));
    assert_eq!(again.lines().take(50).collect::<Vec<_>>(), a_lines[..50]);
}

#[test]
fn back_end_and_mode_flags_are_accepted() {
    let mut totals = Vec::new();
    for args in [
        &["bench", "3"][..],
        &["bench", "3", "--algorithm", "mtdf"],
        &["bench", "3", "--pure"],
        &["bench", "3", "--algorithm", "SSS", "--pure"],
        &["bench", "--algorithm", "alphabeta", "2"],
    ] {
        let o = stockman(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        totals.push(signature_nodes(stdout(&o).lines().last().unwrap()));
    }
    // A different back end or mode searches a different tree.
    assert_ne!(totals[0], totals[1]);
    assert_ne!(totals[1], totals[3]);
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    for (args, expected) in [
        (
            &["bench", "--algorithm", "minimax"][..],
            "unknown algorithm 'minimax'",
        ),
        (&["bench", "0"], "0 is not in 1.."),
        (&["bench", "-3"], "unexpected argument"),
        (&["bench", "deep"], "invalid value 'deep'"),
        (&["bench", "3", "4"], "unexpected argument"),
    ] {
        let o = stockman(args);
        assert!(!o.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            !stdout(&o).contains("nodes"),
            "{args:?} printed a signature"
        );
    }
}
