//! scripts/sprt_pool.py, which pools the summaries of several streams of one
//! test: for a single summary it must say what the shared match runner said
//! (tests/data/match-summaries holds real runs of tools/match.py, each `.json`
//! beside the summary lines the runner printed, `.txt`); pooled streams are
//! their added games and pairs; the pooled `--json` pools again; and what is
//! not a summary is refused by name.

mod common;

use common::cli::{path, scratch, text};
use common::repo_path;
use std::process::Output;

fn pool(args: &[&str]) -> Output {
    common::run_script("sprt_pool.py", args)
}

fn summary(name: &str) -> String {
    path(&repo_path(&format!(
        "tests/data/match-summaries/{name}.json"
    )))
    .to_string()
}

/// The lines of the runner's summary that the pool reports too.
fn result_lines(out: &str) -> Vec<String> {
    const REPORTED: [&str; 6] = [
        "Score of ",
        "Elo difference: ",
        "LOS: ",
        "Elo difference (pentanomial): ",
        "LLR: ",
        "LLR (pentanomial, informative): ",
    ];
    out.lines()
        .filter(|l| REPORTED.iter().any(|p| l.starts_with(p)))
        .map(str::to_string)
        .collect()
}

fn pooled(args: &[&str]) -> String {
    let o = pool(args);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    text(&o.stdout)
}

/// Each recorded run, alone, gives the runner's own figures: the runner's
/// printed `--sprt` (when it had one) is handed on as it was.
#[test]
fn one_stream_repeats_what_the_runner_printed() {
    for (name, sprt) in [
        ("sf-quarter-time-1.8.0", None),
        ("selfplay-sprt-a", Some(["0", "5"])),
        ("selfplay-sprt-b", Some(["0", "5"])),
        ("limited-strength-sprt-h1", Some(["0", "5"])),
    ] {
        let file = summary(name);
        let mut args = vec![file.as_str()];
        if let Some([e0, e1]) = sprt {
            args.extend(["--sprt", e0, e1]);
        }
        let runner =
            std::fs::read_to_string(repo_path(&format!("tests/data/match-summaries/{name}.txt")))
                .unwrap();
        let expected = result_lines(&runner);
        assert!(expected.len() >= 4, "{name}: the fixture lost its summary");
        assert_eq!(result_lines(&pooled(&args)), expected, "{name}");
    }
}

/// Games, pairs and the statistics of two streams are those of one summary
/// holding their sums, and a pooled `--json` pools again to the same.
#[test]
fn two_streams_pool_as_their_sums_and_the_pooled_json_pools_again() {
    let dir = scratch("sprt-pool");
    let (a, b) = (summary("selfplay-sprt-a"), summary("selfplay-sprt-b"));
    let out = dir.join("pooled.json");
    let both = pooled(&[&a, &b, "--sprt", "0", "5", "--json", path(&out)]);
    assert!(both.starts_with("Pooled 2 streams: "), "{both}");

    // The two fixtures' figures, added by hand.
    let [(wa, la, da, ca), (wb, lb, db, cb)] = [&a, &b].map(|f| counts_of(f));
    let summed = dir.join("summed.json");
    let sum: Vec<u32> = ca.iter().zip(&cb).map(|(x, y)| x + y).collect();
    std::fs::write(
        &summed,
        format!(
            r#"{{"engine_a": "a", "engine_b": "b", "wins": {}, "losses": {}, "draws": {},
               "pentanomial": {{"counts": {:?}}}}}"#,
            wa + wb,
            la + lb,
            da + db,
            sum
        ),
    )
    .unwrap();
    let by_sum = pooled(&[path(&summed), "--sprt", "0", "5"]);
    let figures = |out: &str| -> Vec<String> {
        result_lines(out)
            .into_iter()
            .map(|l| l.split_once(": ").unwrap().1.to_string())
            .collect()
    };
    assert_eq!(figures(&both), figures(&by_sum));
    let games = wa + wb + la + lb + da + db;
    assert!(
        both.contains(&format!(
            ": {games} games, {} pairs",
            sum.iter().sum::<u32>()
        )),
        "{both}"
    );

    let again = pooled(&[path(&out), "--sprt", "0", "5"]);
    assert_eq!(result_lines(&again), result_lines(&both));
}

/// Wins, losses, draws and pentanomial counts of a summary, read with the
/// script's own reader left out: plain text search of the runner's JSON.
fn counts_of(file: &str) -> (u32, u32, u32, Vec<u32>) {
    let json = std::fs::read_to_string(file).unwrap();
    let number = |key: &str| -> u32 {
        let at = json.find(&format!("\"{key}\": ")).unwrap() + key.len() + 4;
        json[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let at = json.find("\"counts\": [").unwrap() + 11;
    let list = &json[at..at + json[at..].find(']').unwrap()];
    let counts = list.split(',').map(|c| c.trim().parse().unwrap()).collect();
    (number("wins"), number("losses"), number("draws"), counts)
}

#[test]
fn streams_of_other_engine_names_pool_with_a_warning() {
    let dir = scratch("sprt-pool-names");
    let renamed = dir.join("renamed.json");
    let a = summary("selfplay-sprt-a");
    let json = std::fs::read_to_string(&a).unwrap();
    let first = json.find("\"engine_a\": \"").unwrap() + 13;
    let end = first + json[first..].find('"').unwrap();
    std::fs::write(&renamed, format!("{}other{}", &json[..first], &json[end..])).unwrap();
    let o = pool(&[&a, path(&renamed)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("warning") && text(&o.stderr).contains("'other'"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn what_is_not_a_summary_is_refused_by_name() {
    let dir = scratch("sprt-pool-refusals");
    let not_json = dir.join("games.pgn");
    std::fs::write(&not_json, "[Event \"?\"]\n\n1. e4 *\n").unwrap();
    let no_pairs = dir.join("no-pairs.json");
    std::fs::write(&no_pairs, r#"{"wins": 3, "losses": 1, "draws": 2}"#).unwrap();
    let too_many_pairs = dir.join("too-many.json");
    std::fs::write(
        &too_many_pairs,
        r#"{"wins": 1, "losses": 0, "draws": 0, "pentanomial": {"counts": [0, 0, 1, 0, 0]}}"#,
    )
    .unwrap();
    for (file, says) in [
        (&not_json, "cannot read a match summary"),
        (&no_pairs, "not a match summary"),
        (&too_many_pairs, "more games in pairs than games played"),
    ] {
        let o = pool(&[path(file)]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
        let err = text(&o.stderr);
        assert!(err.contains(path(file)) && err.contains(says), "{err}");
    }
    let a = summary("selfplay-sprt-a");
    let o = pool(&[&a, "--sprt", "5", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("ELO0 < ELO1"),
        "{}",
        text(&o.stderr)
    );
    let o = pool(&[path(&dir.join("missing.json"))]);
    assert_eq!(o.status.code(), Some(2));
}

/// A `--json` that cannot be written (here a folder of that name) is an
/// error by name and exit 1, after the report; the folder is untouched and
/// no temporary file is left beside it.
#[test]
fn an_unwritable_pooled_json_is_an_error_and_leaves_nothing_behind() {
    let dir = scratch("sprt-pool-unwritable");
    let target = dir.join("pooled.json");
    std::fs::create_dir(&target).unwrap();
    let a = summary("selfplay-sprt-a");
    let o = pool(&[&a, "--json", path(&target)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("Score of "),
        "the report comes first"
    );
    let err = text(&o.stderr);
    assert!(
        err.contains("cannot write") && err.contains(path(&target)),
        "{err}"
    );
    assert!(target.is_dir());
    let mut left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["pooled.json"], "only the folder itself");
}

/// The escape bonus's two streams as docs/results/matches.md pooled them
/// with an earlier tool (its pair counts and games added): +5.0 ± 7.2 Elo,
/// LLR 0.91 of SPRT [0, 5], LOS 91 %.
#[test]
fn the_published_pooled_escape_bonus_streams_come_out_as_published() {
    let dir = scratch("sprt-pool-escape");
    let pooled_file = dir.join("escape.json");
    std::fs::write(
        &pooled_file,
        r#"{"engine_a": "escape", "engine_b": "main", "wins": 1232, "losses": 1166,
            "draws": 2080, "pentanomial": {"counts": [123, 547, 890, 499, 179]}}"#,
    )
    .unwrap();
    let out = pooled(&[path(&pooled_file), "--sprt", "0", "5"]);
    let numbers = |prefix: &str| -> Vec<f64> {
        let line = out.lines().find(|l| l.starts_with(prefix)).unwrap();
        line[prefix.len()..]
            .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    let penta = numbers("Elo difference (pentanomial): ");
    assert_eq!(
        (format!("{:.1}", penta[0]), format!("{:.1}", penta[1])),
        ("5.0".into(), "7.2".into()),
        "{out}"
    );
    assert_eq!(format!("{:.2}", numbers("LLR: ")[0]), "0.91", "{out}");
    assert_eq!(format!("{:.0}", numbers("LOS: ")[0]), "91", "{out}");
    assert!(out.contains("[0, 5] none"), "{out}");
}
