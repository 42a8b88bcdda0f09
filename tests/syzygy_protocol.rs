//! `SyzygyPath` and friends through the protocol: the count of tables found,
//! missing directories reported while the engine plays on, `tbhits` in the
//! `info` lines, and Pure mode leaving the tables alone.

mod common;

use common::engine_process::EngineProcess;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(60);
/// Five pieces: every capture leads into the four-piece tables.
const KQ_V_KRN: &str = "8/8/3k4/3n4/8/3r4/8/3QK3 w - - 0 1";

fn tbhits(line: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == "tbhits")?;
    words.next()?.parse().ok()
}

fn search(e: &mut EngineProcess, fen: &str, go: &str) -> Vec<String> {
    e.send(&format!("position fen {fen}"));
    e.send(go);
    e.read_until("bestmove", TIMEOUT)
}

#[test]
fn tables_are_counted_and_probed_in_search() {
    let mut e = EngineProcess::spawn();
    let dir = common::repo_path("tests/data/syzygy");
    e.send(&format!(
        "setoption name SyzygyPath value /no/such/dir:{}",
        dir.display()
    ));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string syzygy: cannot read directory /no/such/dir")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"info string found 9 tablebases (up to 4 pieces)".to_string()),
        "{lines:?}"
    );
    let lines = search(&mut e, KQ_V_KRN, "go depth 6");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(tbhits(last).is_some_and(|n| n > 0), "{last}");
    // Pure mode: no probes at all.
    e.send("setoption name Pure value true");
    let lines = search(&mut e, KQ_V_KRN, "go depth 3");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert_eq!(tbhits(last), Some(0), "{last}");
    // No tables: no tbhits field.
    e.send("setoption name Pure value false");
    e.send("setoption name SyzygyPath value <empty>");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string found 0 tablebases")),
        "{lines:?}"
    );
    let lines = search(&mut e, KQ_V_KRN, "go depth 3");
    assert!(lines.iter().all(|l| tbhits(l).is_none()), "{lines:?}");
}

#[test]
fn the_root_keeps_the_tablebase_result() {
    let mut e = EngineProcess::spawn();
    let dir = common::repo_path("tests/data/syzygy");
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.sync();
    // Black saves the draw only by taking the queen (Rxd1+ Kxd1).
    let lines = search(&mut e, "8/8/8/4k3/8/3r4/8/3QK3 b - - 0 1", "go nodes 5000");
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some("d3d1")
    );
    // White wins only by taking the rook.
    let lines = search(&mut e, "8/8/8/4k3/8/3r4/8/3QK3 w - - 0 1", "go nodes 5000");
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some("d1d3")
    );
}
