//! `stockman-lab datagen` as a long run through the real binary: a run
//! killed mid-way and resumed from its checkpoint writes the very file an
//! uninterrupted run writes; resuming is refused without a checkpoint or
//! with other arguments; DFRC starts and node limits as the command line
//! gives them; the file is the same whatever the thread count.

mod common;

use common::cli::{lab, path, refused, scratch, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Tiny searches, checkpoints after every game written, half the games DFRC.
const RUN: [&str; 10] = [
    "--games",
    "60",
    "--nodes",
    "300",
    "--seed",
    "3",
    "--dfrc-percent",
    "50",
    "--checkpoint-seconds",
    "0",
];

fn with_suffix(p: &Path, suffix: &str) -> PathBuf {
    let mut name = p.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}

/// Runs datagen to `out` with `RUN`, `--threads threads` and `extra`;
/// returns stderr, after checking it succeeded.
fn datagen(out: &Path, threads: &str, extra: &[&str]) -> String {
    let mut args = vec!["datagen", "--out", path(out), "--threads", threads];
    args.extend(RUN);
    args.extend(extra);
    let o = lab(&args);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    text(&o.stderr)
}

/// A count a checkpoint file records (`next-game`, `milliseconds`, ...), if
/// it can be read.
fn checkpointed(checkpoint: &Path, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(checkpoint).ok()?;
    let line = text.lines().find(|l| l.starts_with(&format!("{field} ")))?;
    line[field.len() + 1..].parse().ok()
}

/// The next game a checkpoint file records, if it can be read.
fn checkpointed_game(checkpoint: &Path) -> Option<u64> {
    checkpointed(checkpoint, "next-game")
}

/// Starts datagen to `out` with `run` on two threads and kills it
/// (SIGKILL) once `far_enough` says so of its checkpoint, before the run is
/// done.
fn start_and_kill(out: &Path, run: &[&str], far_enough: impl Fn(&Path) -> bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stockman-lab"))
        .args(["datagen", "--out", path(out), "--threads", "2"])
        .args(run)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start stockman-lab");
    let checkpoint = with_suffix(out, ".checkpoint");
    let started = Instant::now();
    while !far_enough(&checkpoint) {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no checkpoint"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!out.exists(), "the run finished before it was killed");
}

/// Once the checkpoint counts at least one game.
fn a_game_in(checkpoint: &Path) -> bool {
    checkpointed_game(checkpoint).is_some_and(|g| g > 0)
}

#[test]
fn a_killed_run_resumes_to_the_file_an_uninterrupted_run_writes() {
    let dir = scratch("datagen-resume");
    for name in ["run.bin", "run.txt"] {
        let full = dir.join(format!("full-{name}"));
        datagen(&full, "2", &[]);
        let out = dir.join(name);
        start_and_kill(&out, &RUN, a_game_in);
        let (partial, checkpoint) = (
            with_suffix(&out, ".partial"),
            with_suffix(&out, ".checkpoint"),
        );
        let done = checkpointed_game(&checkpoint).unwrap();
        assert!((1..60).contains(&done), "{done}");
        // A torn game after the checkpoint, as a kill in mid-write leaves.
        let mut torn = std::fs::read(&partial).unwrap();
        torn.extend_from_slice(b"half a record");
        std::fs::write(&partial, &torn).unwrap();

        // A fresh run would throw the unfinished one away: refused.
        let mut args = vec!["datagen", "--out", path(&out), "--threads", "2"];
        args.extend(RUN);
        refused(&args, "Add --resume");
        // Other arguments: refused, naming both runs.
        args.extend(["--resume", "--random-plies", "6"]);
        let (_, err) = refused(&args, "another run");
        assert!(err.contains("--random-plies 6"), "{err}");
        assert_eq!(std::fs::read(&partial).unwrap(), torn);

        // The same run, on another thread count: the very file of the full run.
        let said = datagen(&out, "3", &["--resume"]);
        assert!(
            said.contains(&format!("resuming {} at game {done}", path(&out))),
            "{said}"
        );
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(&full).unwrap(),
            "{name}"
        );
        assert!(!partial.exists() && !checkpoint.exists());
    }
    // Nothing left to resume.
    let finished = dir.join("run.bin");
    let mut args = vec!["datagen", "--out", path(&finished), "--resume"];
    args.extend(RUN);
    refused(&args, "no checkpoint");
}

/// A run meant to go on for days, stopped for good: resumed with a time
/// limit it has already used up, it plays no more and ends at its
/// checkpoint, with the file a run of that many games writes.
#[test]
fn a_run_resumed_past_its_time_limit_ends_at_its_checkpoint() {
    let dir = scratch("datagen-finish");
    let out = dir.join("long.bin");
    // The games; the other arguments as both runs give them.
    const SAME: [&str; 6] = ["--nodes", "300", "--seed", "5", "--dfrc-percent", "20"];
    let mut long = vec!["--games", "100000000", "--checkpoint-seconds", "0"];
    long.extend(SAME);
    start_and_kill(&out, &long, |c| {
        checkpointed(c, "milliseconds").is_some_and(|ms| ms >= 1_000)
    });
    let done = checkpointed_game(&with_suffix(&out, ".checkpoint")).unwrap();

    let mut args = vec!["datagen", "--out", path(&out), "--threads", "2"];
    args.extend(&long);
    args.extend(["--resume", "--time-limit", "1"]);
    let o = lab(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains(&format!("datagen: {done} games")),
        "{}",
        text(&o.stdout)
    );

    let short = dir.join("short.bin");
    let games = done.to_string();
    let mut args = vec!["datagen", "--out", path(&short), "--games", &games];
    args.extend(SAME);
    let o = lab(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&short).unwrap());
}

#[test]
fn dfrc_games_and_threads_leave_the_file_reproducible() {
    let dir = scratch("datagen-dfrc");
    let (one, three) = (dir.join("one.txt"), dir.join("three.txt"));
    datagen(&one, "1", &[]);
    datagen(&three, "3", &[]);
    let data = std::fs::read_to_string(&one).unwrap();
    assert_eq!(std::fs::read_to_string(&three).unwrap(), data);
    assert!(data.lines().next().unwrap().contains(" --dfrc-percent 50"));
    // All DFRC: the summary counts every game, and every line (Chess960
    // castling rights in X-FEN) reads back as training data.
    let all = dir.join("all.txt");
    let o = lab(&[
        "datagen",
        "--out",
        path(&all),
        "--games",
        "4",
        "--nodes",
        "300",
        "--dfrc-percent",
        "100",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("4 from DFRC starts"),
        "{}",
        text(&o.stdout)
    );
    let lines = std::fs::read_to_string(&all)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .count();
    let bin = dir.join("all.bin");
    let o = lab(&["convert", "--from", path(&all), "--out", path(&bin)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let records = (std::fs::metadata(&bin).unwrap().len() - 8) / 32;
    assert_eq!(records, lines as u64);
}

#[test]
fn node_limits_and_the_dfrc_share_as_the_command_line_gives_them() {
    let dir = scratch("datagen-limits");
    let out = dir.join("soft.txt");
    let o = lab(&[
        "datagen",
        "--out",
        path(&out),
        "--games",
        "1",
        "--soft-nodes",
        "150",
        "--seed",
        "2",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let header = std::fs::read_to_string(&out).unwrap();
    assert!(
        header
            .starts_with("# stockman-lab datagen --games 1 --nodes 600 --soft-nodes 150 --seed 2"),
        "{header}"
    );
    let never = dir.join("x.txt");
    let refused = |extra: &[&str], says: &str| {
        let mut args = vec!["datagen", "--out", path(&never), "--games", "1"];
        args.extend(extra);
        let o = lab(&args);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{extra:?}");
        assert!(err.contains(says), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    refused(
        &["--soft-nodes", "500", "--nodes", "100"],
        "above --nodes 100",
    );
    refused(&["--soft-nodes", "500", "--depth", "3"], "--depth");
    refused(&["--soft-nodes", "0"], "--soft-nodes");
    refused(&["--dfrc-percent", "101"], "--dfrc-percent");
    let o = lab(&["datagen", "--out", "x.txt", "--pgn", "x.pgn", "--resume"]);
    assert!(!o.status.success() && text(&o.stderr).contains("--resume"));
    assert!(!never.exists());
}
