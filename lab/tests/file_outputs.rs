//! What the lab's commands write, through the real binary: every output goes to
//! `NAME.partial` and is renamed when complete, so a failed run keeps an
//! existing file; unwritable outputs and out-of-range arguments are refused
//! before any long work, with a message and a non-zero exit.

mod common;

use common::cli::{lab, path, refused, scratch, text};
use std::path::Path;

fn partial(p: &Path) -> std::path::PathBuf {
    let mut name = p.as_os_str().to_owned();
    name.push(".partial");
    name.into()
}

#[test]
fn a_failed_datagen_keeps_the_existing_file() {
    let dir = scratch("datagen-keep");
    let out = dir.join("existing.txt");
    std::fs::write(&out, "precious\n").unwrap();
    // Games without a result give no data: an error after the file was opened.
    let pgn = dir.join("bad.pgn");
    std::fs::write(&pgn, "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 *\n").unwrap();
    refused(
        &["datagen", "--pgn", path(&pgn), "--out", path(&out)],
        "no game with a result",
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    assert!(!partial(&out).exists());
    // A good run replaces it, and leaves no partial file.
    let o = lab(&[
        "datagen",
        "--out",
        path(&out),
        "--games",
        "2",
        "--nodes",
        "200",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("# stockman-lab datagen")
    );
    assert!(!partial(&out).exists());
}

#[test]
fn out_of_range_arguments_are_refused() {
    let dir = scratch("ranges");
    let out = dir.join("x.txt");
    for depth in ["0", "21", "100"] {
        refused(
            &[
                "datagen",
                "--out",
                path(&out),
                "--games",
                "1",
                "--depth",
                depth,
            ],
            "1..=20",
        );
    }
    assert!(!out.exists());
}

#[test]
fn unwritable_outputs_are_refused_before_any_work() {
    let dir = scratch("unwritable");
    let nowhere = dir.join("no-such-dir").join("x");
    let data = dir.join("data.txt");
    let mut lines = String::new();
    for i in 0..32 {
        let side = if i % 2 == 0 { "w" } else { "b" };
        lines += &format!("4k3/pppp4/8/8/8/8/PPPP4/3QK3 {side} - - 0 1 | 900 | 0.95\n");
    }
    std::fs::write(&data, lines).unwrap();
    let (_, err) = refused(
        &["train-net", "--data", path(&data), "--out", path(&nowhere)],
        "cannot write",
    );
    assert!(!err.contains("epoch"), "trained before the check: {err}");
    assert!(
        !err.contains("held out"),
        "read the data before the check: {err}"
    );
    let (out, _) = refused(
        &[
            "compare",
            "--epd",
            path(&common::repo_path("positions/bench.epd")),
            "--depth",
            "1",
            "--csv",
            path(&nowhere),
        ],
        "cannot write CSV file",
    );
    assert!(!out.contains("depth 1"), "searched before the check: {out}");
    // A good train-net run leaves the network and no partial file.
    let net = dir.join("net.nnue");
    let o = lab(&[
        "train-net",
        "--data",
        path(&data),
        "--out",
        path(&net),
        "--epochs",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(net.exists() && !partial(&net).exists());
}
