//! scripts/wdl_fit.py against the games its constants came from: fitted
//! again, docs/data/wdl-selfplay-1.6.0-s32-n20000.pgn.gz gives the `A` and
//! `B` of src/uci/wdl.rs that `UCI_ShowWDL` reports with. Those games hold
//! what broke an earlier version of the fit: tablebase scores (skipped, as
//! mates are) and drawn games at scores of twenty pawns and more.

mod common;

use stockman::uci::wdl::{A, B};

/// The data file of the built-in model.
const GAMES: &str = "docs/data/wdl-selfplay-1.6.0-s32-n20000.pgn.gz";

/// The coefficients of one `name(m) coefficients, ...: [c0, c1, c2, c3]` line.
fn coefficients(out: &str, name: &str) -> Vec<f64> {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("{name}(m) coefficients")))
        .unwrap_or_else(|| panic!("no {name}(m) line in:\n{out}"));
    let list = line.rsplit('[').next().unwrap().trim_end_matches(']');
    list.split(',').map(|c| c.trim().parse().unwrap()).collect()
}

#[test]
fn the_fit_of_the_shipped_games_is_the_built_in_model() {
    let games = common::repo_path(GAMES);
    let out = common::run_script("wdl_fit.py", &[games.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("tablebase scores skipped 31"),
        "the games' tablebase scores are not fitted:\n{stdout}"
    );
    for (name, built_in) in [("a", A), ("b", B)] {
        let fitted = coefficients(&stdout, name);
        assert_eq!(fitted.len(), built_in.len(), "{name}: {fitted:?}");
        // Printed to three decimals; a maths library that rounds an ulp
        // differently may move the last digit, never more.
        for (f, b) in fitted.iter().zip(built_in) {
            assert!(
                (f - b).abs() < 0.01,
                "{name}(m): fitted {fitted:?}, built in {built_in:?}"
            );
        }
    }
}
