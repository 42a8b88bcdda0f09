//! scripts/threads_scaling.py, the Lazy SMP measures of docs/results/threads.md:
//! `speed` drives the real engine at each Threads value; `elo` starts one
//! runner per Threads value at once, with the right options, and stops the
//! ones still playing after `--seconds` so that they print their summaries.

mod common;

use common::cli::{path, scratch, text};
use std::process::Output;

fn threads_scaling(args: &[&str]) -> Output {
    common::run_script("threads_scaling.py", args)
}

#[test]
fn speed_searches_each_threads_value_and_reports_its_nodes_and_depth() {
    let engine = common::engine_bin();
    let positions = common::repo_path("positions/bench.epd");
    let o = threads_scaling(&[
        "speed",
        "--engine",
        path(&engine),
        "--threads",
        "1,2",
        "--movetime",
        "60",
        "--count",
        "2",
        "--hash",
        "16",
        "--positions",
        path(&positions),
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    for threads in [1, 2] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("Threads {threads:3}:")))
            .unwrap_or_else(|| panic!("no line for Threads {threads} in\n{out}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let nodes: u64 = words[words.iter().position(|w| *w == "nodes").unwrap() + 1]
            .parse()
            .unwrap();
        assert!(nodes > 0, "{line}");
        assert!(line.contains("depths ["), "{line}");
    }
}

/// A stand-in for match.py: writes its arguments to `<out>/args-<name>.txt`
/// and, with `wait` in its name, plays until SIGINT like the real runner,
/// then prints its summary and exits 130.
const STUB_RUNNER: &str = r#"
import os, signal, sys, time
argv = sys.argv[1:]
name = argv[argv.index("--name-a") + 1]
out = os.path.dirname(argv[argv.index("--pgn") + 1])
with open(os.path.join(out, "args-" + name + ".txt"), "w") as f:
    f.write("\n".join(argv) + "\n")
if "Threads=4" in argv:
    stopped = []
    signal.signal(signal.SIGINT, lambda *_: stopped.append(1))
    while not stopped:
        time.sleep(0.05)
    print("Score of " + name + " vs threads1: 1 - 0 - 0 [1.000] 1 (interrupted)")
    sys.exit(130)
print("Score of " + name + " vs threads1: 2 - 0 - 0 [1.000] 2")
"#;

#[test]
fn elo_runs_a_match_per_threads_value_and_stops_the_unfinished_ones_with_a_summary() {
    let dir = scratch("threads-elo");
    let runner = dir.join("runner.py");
    std::fs::write(&runner, STUB_RUNNER).unwrap();
    let out = dir.join("out");
    let o = threads_scaling(&[
        "elo",
        "--engine",
        "./engine",
        "--runner",
        path(&runner),
        "--threads",
        "4,2",
        "--seconds",
        "2",
        "--seed",
        "10",
        "--out",
        path(&out),
        "--",
        "--draw-adj",
        "40,8,10",
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", text(&o.stderr));
    assert!(
        stdout.contains("threads4 vs threads1: 1 - 0 - 0 [1.000] 1 (interrupted)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("threads2 vs threads1: 2 - 0 - 0"),
        "{stdout}"
    );
    for (threads, seed) in [(4, "14"), (2, "12")] {
        let args = std::fs::read_to_string(out.join(format!("args-threads{threads}.txt"))).unwrap();
        let args: Vec<&str> = args.lines().collect();
        let after = |flag: &str| -> Vec<&str> {
            args.windows(2)
                .filter(|w| w[0] == flag)
                .map(|w| w[1])
                .collect()
        };
        assert_eq!(
            after("--engine-opt"),
            [format!("Threads={threads}").as_str(), "Hash=64"]
        );
        assert_eq!(after("--opponent-opt"), ["Threads=1", "Hash=64"]);
        assert_eq!(after("--seed"), [seed]);
        assert_eq!(after("--concurrency"), ["1"]);
        assert_eq!(
            after("--draw-adj"),
            ["40,8,10"],
            "the runner's own arguments follow"
        );
    }
}

#[test]
fn a_threads_value_below_one_is_refused() {
    let o = threads_scaling(&["speed", "--engine", "./engine", "--threads", "0,2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("positive integers"),
        "{}",
        text(&o.stderr)
    );
}
