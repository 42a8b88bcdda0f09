//! SPSA through the real binary: `stockman spsa` prints OpenBench's input
//! lines for the constants of the parameter table; a tuning build
//! (`--features spsa`) declares them as spin options, and a changed value
//! changes the search while the defaults give the normal build's nodes.

mod common;

use common::cli::{stockman, text};
use stockman::search::tunables::TUNABLES;

#[test]
fn spsa_prints_one_openbench_line_per_constant() {
    let o = stockman(&["spsa"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), TUNABLES.len());
    for (line, t) in lines.iter().zip(TUNABLES) {
        let f: Vec<&str> = line.split(", ").collect();
        assert_eq!(f.len(), 7, "{line}");
        assert_eq!((f[0], f[1]), (t.name, "int"), "{line}");
        let n = |i: usize| f[i].parse::<f64>().unwrap_or_else(|_| panic!("{line}"));
        assert!(
            n(3) <= n(2) && n(2) <= n(4),
            "value within min..max: {line}"
        );
        assert!(n(5) > 0.0 && n(6) > 0.0, "{line}");
    }
}

#[cfg(feature = "spsa")]
mod tuning_build {
    use super::common::engine_process::EngineProcess;
    use super::*;
    use std::time::Duration;

    /// The node count of `bench 5` in the UCI loop (`info string N nodes M nps`).
    fn bench_nodes(e: &mut EngineProcess) -> u64 {
        e.send("bench 5");
        loop {
            let line = e.next_line(Duration::from_secs(120)).expect("bench output");
            if line.starts_with("info string ") && line.ends_with(" nps") {
                let words: Vec<&str> = line.split(' ').collect();
                return words[2].parse().expect("info string N nodes M nps");
            }
        }
    }

    #[test]
    fn the_constants_are_options_that_change_the_search() {
        let mut e = EngineProcess::spawn();
        let options = e.handshake();
        for t in TUNABLES {
            let want = format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            );
            assert!(options.contains(&want), "{want}");
        }
        let default = bench_nodes(&mut e);
        e.send("setoption name NULL_MIN_DEPTH value 8");
        e.send("setoption name LMR_BASE_CENTI value 150");
        assert!(e.sync().is_empty(), "values within range are taken");
        assert_ne!(bench_nodes(&mut e), default);
        let default_of = |name: &str| TUNABLES.iter().find(|t| t.name == name).unwrap().default;
        e.send(&format!(
            "setoption name null_min_depth value {}",
            default_of("NULL_MIN_DEPTH")
        ));
        e.send(&format!(
            "setoption name LMR_BASE_CENTI value {}",
            default_of("LMR_BASE_CENTI")
        ));
        assert_eq!(bench_nodes(&mut e), default, "the defaults again");
        e.send("setoption name NULL_MIN_DEPTH value 99");
        assert!(e.sync().iter().any(|l| l.contains("outside 1..8")));
    }
}
