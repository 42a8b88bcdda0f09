//! scripts/spsa.py, the SPSA driver that tunes the search constants with the
//! shared match runner: its arithmetic against a synthetic match with a known
//! optimum, its wiring to a runner (the constants as engine options of the
//! plus and minus sides, the games per iteration, the runner's own
//! arguments), its state file, and its refusals.

mod common;

use common::cli::{path, scratch, text};
use std::path::Path;
use std::process::Output;

fn spsa(args: &[&str]) -> Output {
    common::run_script("spsa.py", args)
}

#[test]
fn the_self_test_converges_and_a_resumed_run_equals_a_straight_one() {
    let o = spsa(&["--self-test"]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(text(&o.stdout).contains("self-test passed"));
}

/// A stand-in for match.py: records its arguments, one per line, and
/// reports that A (the plus side) won every game.
const STUB_RUNNER: &str = r#"
import json, sys
def main(argv):
    with open(sys.argv_log, "a") as f:
        f.write("\n".join(argv) + "\n--end--\n")
    games = int(argv[argv.index("--games") + 1])
    with open(argv[argv.index("--json") + 1], "w") as f:
        json.dump({"wins": games, "draws": 0, "losses": 0}, f)
    return 0
"#;

#[test]
fn a_run_passes_the_perturbed_constants_to_the_runner_and_keeps_its_state() {
    let dir = scratch("spsa");
    let log = dir.join("args.log");
    let runner = dir.join("runner.py");
    let stub = STUB_RUNNER.replace("sys.argv_log", &format!("{:?}", path(&log)));
    std::fs::write(&runner, stub).unwrap();
    let inputs = dir.join("inputs.txt");
    std::fs::write(
        &inputs,
        "RFP_MARGIN_PER_DEPTH, int, 80, 30, 160, 8, 0.002\nLMP_MAX_DEPTH, int, 4, 1, 8, 0.5, 0.002\n",
    )
    .unwrap();
    let state = dir.join("state.json");
    let (runner, inputs, state_arg) = (path(&runner), path(&inputs), path(&state));
    let o = spsa(&[
        "--runner", runner, "--engine", "./tuner", "--inputs", inputs, "--state", state_arg,
        "--pairs", "3", "--batch", "2", "--", "--nodes", "1000",
    ]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));

    // Two iterations: two pairs, then the one left.
    let calls: Vec<Vec<String>> = std::fs::read_to_string(&log)
        .unwrap()
        .split("--end--\n")
        .filter(|c| !c.trim().is_empty())
        .map(|c| c.lines().map(str::to_string).collect())
        .collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    for (call, games) in calls.iter().zip(["4", "2"]) {
        let after = |flag: &str| -> Vec<&str> {
            call.windows(2)
                .filter(|w| w[0] == flag)
                .map(|w| w[1].as_str())
                .collect()
        };
        assert_eq!(after("--games"), [games]);
        assert_eq!(after("--engine"), ["./tuner"]);
        assert_eq!(after("--opponent"), ["./tuner"]);
        assert_eq!(
            after("--nodes"),
            ["1000"],
            "the runner's own arguments follow"
        );
        for side in ["--engine-opt", "--opponent-opt"] {
            let opts = after(side);
            assert_eq!(opts.len(), 2, "{opts:?}");
            assert!(opts[0].starts_with("RFP_MARGIN_PER_DEPTH="), "{opts:?}");
            assert!(opts[1].starts_with("LMP_MAX_DEPTH="), "{opts:?}");
        }
        // Plus and minus lie on either side of the value, inside the range.
        let value = |side: &str, i: usize| -> i32 {
            after(side)[i].split('=').nth(1).unwrap().parse().unwrap()
        };
        assert_ne!(value("--engine-opt", 0), value("--opponent-opt", 0));
        assert!((30..=160).contains(&value("--engine-opt", 0)));
        assert!((1..=8).contains(&value("--opponent-opt", 1)));
    }

    // The state: all pairs played, the values moved towards the side that
    // won every game, no temporary file left beside it.
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("\"played\": 3"), "{saved}");
    assert!(
        !saved.contains("\"value\": 80.0,"),
        "the margin moved: {saved}"
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let shown = spsa(&["--state", state_arg, "--show"]);
    assert!(shown.status.success());
    assert!(text(&shown.stdout).contains("setoption name RFP_MARGIN_PER_DEPTH value"));

    // Refusals, each with exit 2 and before any game: an unknown constant,
    // a malformed input line, a state that cannot be written.
    let refusal = |state: &str, extra: &[&str]| -> String {
        let mut args = vec![
            "--runner", runner, "--engine", "./tuner", "--inputs", inputs, "--state", state,
        ];
        args.extend_from_slice(extra);
        let o = spsa(&args);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        text(&o.stderr)
    };
    let fresh = dir.join("fresh.json");
    let fresh = path(&fresh);
    let err = refusal(fresh, &["--only", "NO_SUCH_CONSTANT"]);
    assert!(err.contains("NO_SUCH_CONSTANT"), "{err}");
    std::fs::write(inputs, "RFP_MARGIN_PER_DEPTH, int, 80\n").unwrap();
    let err = refusal(fresh, &[]);
    assert!(err.starts_with("spsa: line 1"), "{err}");
    assert!(!Path::new(fresh).exists(), "no state for a refused run");

    std::fs::write(inputs, "RFP_MARGIN_PER_DEPTH, int, 80, 30, 160, 8, 0.002\n").unwrap();
    std::fs::remove_file(&log).unwrap();
    let nowhere = dir.join("no-such-folder").join("state.json");
    let err = refusal(path(&nowhere), &[]);
    assert!(
        err.contains(&format!("cannot save the state to {}", path(&nowhere))),
        "the state's own name, not its temporary's: {err}"
    );
    assert!(!log.exists(), "no game was played");
}
