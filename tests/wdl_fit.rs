//! scripts/wdl_fit.py against the games its constants came from: fitted
//! again, docs/data/wdl-selfplay-99b72e5-s32-s33-n20000.pgn.gz gives the `A`
//! and `B` of src/uci/wdl.rs that `UCI_ShowWDL` reports with. The games of the
//! fit before (1.6.0's self-play) hold what broke an earlier version of the
//! fit: tablebase scores (skipped, as mates are) and drawn games at scores
//! of twenty pawns and more; they are fitted again to the model they gave.

mod common;

use stockman::uci::wdl::{A, B};

/// The data file of the built-in model.
const GAMES: &str = "docs/data/wdl-selfplay-99b72e5-s32-s33-n20000.pgn.gz";

/// 1.6.0's self-play and the model fitted to it at 71ed8e1, which no
/// release carried (docs/wdl.md).
const GAMES_1_6_0: &str = "docs/data/wdl-selfplay-1.6.0-s32-n20000.pgn.gz";
const A_GAMES_1_6_0: [f64; 4] = [-859.681, 2620.177, -2612.612, 987.758];
const B_GAMES_1_6_0: [f64; 4] = [-391.608, 1204.980, -1140.618, 425.491];

/// The coefficients of one `name(m) coefficients, ...: [c0, c1, c2, c3]` line.
fn coefficients(out: &str, name: &str) -> Vec<f64> {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("{name}(m) coefficients")))
        .unwrap_or_else(|| panic!("no {name}(m) line in:\n{out}"));
    let list = line.rsplit('[').next().unwrap().trim_end_matches(']');
    list.split(',').map(|c| c.trim().parse().unwrap()).collect()
}

/// The log-likelihood on the first line that starts with `prefix`
/// (`... log-likelihood -20522.7, per sample ...`).
fn log_likelihood(out: &str, prefix: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in:\n{out}"));
    let after = line.split("log-likelihood ").nth(1).unwrap();
    after.split(',').next().unwrap().parse().unwrap()
}

/// Fits `games` and holds the result to `a` and `b`, after checking that
/// the script skipped `tablebase_skipped` tablebase scores; with `score`,
/// the model of that Rust source must describe the games as the fit does.
fn assert_fit(
    games: &str,
    tablebase_skipped: u32,
    (a, b): ([f64; 4], [f64; 4]),
    score: Option<&str>,
) {
    let games = common::repo_path(games);
    let mut args = vec![games.to_str().unwrap().to_string()];
    if let Some(source) = score {
        let source = common::repo_path(source);
        args.extend(["--score".to_string(), source.to_str().unwrap().to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::run_script("wdl_fit.py", &args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("tablebase scores skipped {tablebase_skipped}")),
        "the games' tablebase scores are not fitted:\n{stdout}"
    );
    for (name, expected) in [("a", a), ("b", b)] {
        let fitted = coefficients(&stdout, name);
        assert_eq!(fitted.len(), expected.len(), "{name}: {fitted:?}");
        // Printed to three decimals; a maths library that rounds an ulp
        // differently may move the last digit, never more.
        for (f, e) in fitted.iter().zip(expected) {
            assert!(
                (f - e).abs() < 0.01,
                "{name}(m): fitted {fitted:?}, expected {expected:?}"
            );
        }
    }
    if score.is_some() {
        // The fit's likelihood and the given model's agree to the rounding
        // of the printed coefficients.
        let fitted = log_likelihood(&stdout, "log-likelihood ");
        let given = log_likelihood(&stdout, "given model, all:");
        assert!(
            (fitted - given).abs() < 1.0,
            "fit {fitted}, given {given}:\n{stdout}"
        );
    }
}

#[test]
fn the_fit_of_the_shipped_games_is_the_built_in_model() {
    assert_fit(GAMES, 52, (A, B), Some("src/uci/wdl.rs"));
}

#[test]
fn the_games_with_far_scores_in_drawn_games_still_fit_to_their_model() {
    assert_fit(GAMES_1_6_0, 31, (A_GAMES_1_6_0, B_GAMES_1_6_0), None);
}

/// The value of the script's `name = ...` line.
fn script_line<'a>(script: &'a str, name: &str) -> &'a str {
    let prefix = format!("{name} = ");
    let line = script
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no `{prefix}...` line in scripts/wdl_fit.py"));
    line[prefix.len()..].trim()
}

#[test]
fn the_script_s_constants_are_the_engine_s() {
    use stockman::uci::wdl::{MATERIAL_MAX, MATERIAL_MIN, MATERIAL_NORM};
    let script = std::fs::read_to_string(common::repo_path("scripts/wdl_fit.py")).unwrap();
    let bound: i32 = script_line(&script, "TB_BOUND_CP").parse().unwrap();
    assert_eq!(bound, stockman::score::Score::TB_BOUND.0);
    let material: Vec<f64> = script_line(&script, "MAT_MIN, MAT_MAX, MAT_NORM")
        .split(',')
        .map(|v| v.trim().parse().unwrap())
        .collect();
    assert_eq!(
        material,
        [MATERIAL_MIN as f64, MATERIAL_MAX as f64, MATERIAL_NORM]
    );
}
