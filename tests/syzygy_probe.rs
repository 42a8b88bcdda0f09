//! The Syzygy prober against python-chess's (`chess.syzygy`) on 1,000 random
//! positions of the tables in tests/data/syzygy: WDL and DTZ agree on every
//! one. Also loading: the count, and broken inputs reported, never fatal.

mod common;

use std::process::Command;
use stockman::Board;
use stockman::known::Tablebases;

const TABLES: &str = "tests/data/syzygy";
const MATERIALS: &[&str] = &[
    "KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KQvKR", "KRvKR", "KQvKQ", "KBvKN",
];

fn tables() -> std::sync::Arc<Tablebases> {
    let loaded = Tablebases::load(&common::repo_path(TABLES).to_string_lossy());
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    loaded.tables.expect("tables load")
}

#[test]
fn probes_agree_with_python_chess_on_1000_positions() {
    let tables_dir = common::repo_path(TABLES);
    let mut args: Vec<&std::ffi::OsStr> = vec![tables_dir.as_os_str(), "1000".as_ref()];
    args.extend(MATERIALS.iter().map(std::ffi::OsStr::new));
    let text = common::python_oracle("syzygy_oracle.py", &args);
    let tables = tables();
    let mut checked = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.split(';').collect();
        let [fen, wdl, dtz] = fields[..] else {
            panic!("bad oracle line {line}")
        };
        let board = Board::from_fen(fen).unwrap();
        let ours_wdl = tables.wdl(board.pos()).expect("a WDL result") as i32;
        let ours_dtz = tables
            .dtz(board.pos())
            .expect("a DTZ result")
            .ignore_rounding()
            .0;
        assert_eq!(ours_wdl.to_string(), wdl, "WDL of {fen}");
        assert_eq!(ours_dtz.to_string(), dtz, "DTZ of {fen}");
        checked += 1;
    }
    assert_eq!(checked, 1000);
}

#[test]
fn the_copied_tables_are_all_found_once() {
    let t = tables();
    assert_eq!((t.count(), t.dtz_count(), t.max_pieces()), (9, 9, 4));
    let dir = common::repo_path(TABLES).display().to_string();
    let twice = Tablebases::load(&format!("{dir}:{dir}")).tables.unwrap();
    assert_eq!((twice.count(), twice.dtz_count()), (9, 9));
}

#[test]
fn broken_and_odd_files_are_reported_and_left_out() {
    let dir = common::scratch::Scratch::new("tb");
    let src = common::repo_path(TABLES);
    // A good table, a truncated one, one of the right size but garbage, a FIFO.
    std::fs::copy(src.join("KQvK.rtbw"), dir.join("KQvK.rtbw")).unwrap();
    let krvk = std::fs::read(src.join("KRvK.rtbw")).unwrap();
    std::fs::write(dir.join("KRvK.rtbw"), &krvk[..krvk.len() - 7]).unwrap();
    std::fs::write(dir.join("KBvK.rtbw"), vec![0x55u8; 64 * 3 + 16]).unwrap();
    let fifo = dir.join("KNvK.rtbw");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let loaded = Tablebases::load(&format!("{}:/no/such/stockman/dir", dir.display()));
    let problems = loaded.problems.join("\n");
    let t = loaded.tables.expect("the good table still loads");
    assert_eq!(t.count(), 1, "{problems}");
    assert!(problems.contains("KRvK.rtbw"), "{problems}");
    assert!(problems.contains("KBvK.rtbw"), "{problems}");
    assert!(problems.contains("/no/such/stockman/dir"), "{problems}");
    if made.is_ok_and(|s| s.success()) {
        assert!(
            problems.contains("KNvK.rtbw is not a regular file"),
            "{problems}"
        );
    }
}
