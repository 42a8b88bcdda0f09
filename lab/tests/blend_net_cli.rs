//! `stockman-lab blend-net` through the real binary on the shipped
//! networks: its ends are the networks themselves, its middle is a network
//! the engine reads, and networks of different shapes or a weight outside
//! 0..1 are refused without touching the output.

mod common;

use common::cli::{assert_refused_keeping_outputs, lab, path, refused, scratch, text};
use stockman::nnue::Network;

const FROM: &str = "net/stockman.nnue";
const TO: &str = "net/own-256-gen3.nnue";

/// `blend-net` from `FROM` to `to` at `weight`, without `--out`.
fn args<'a>(to: &'a str, weight: &'a str) -> Vec<&'a str> {
    vec!["blend-net", "--from", FROM, "--to", to, "--weight", weight]
}

fn blend(weight: &str, out: &std::path::Path) -> Vec<u8> {
    let mut all = args(TO, weight);
    all.extend(["--out", path(out)]);
    let o = lab(&all);
    assert!(o.status.success(), "{}", text(&o.stderr));
    std::fs::read(out).unwrap()
}

#[test]
fn the_ends_are_the_two_networks_and_the_middle_lies_between() {
    let dir = scratch("blend-net");
    let from = std::fs::read(common::repo_path(FROM)).unwrap();
    let to = std::fs::read(common::repo_path(TO)).unwrap();
    assert_eq!(blend("0", &dir.join("zero.nnue")), from);
    assert_eq!(blend("1", &dir.join("one.nnue")), to);
    let half = blend("0.5", &dir.join("half.nnue"));
    assert_eq!(half.len(), from.len());
    assert!(half != from && half != to);
    let net = Network::from_bytes(&half).unwrap();
    assert_eq!((net.hidden(), net.buckets()), (256, 8));
    // The weights are i16s after a 16-byte header: each lies between the two.
    let words = |b: &[u8]| -> Vec<i16> {
        b[16..16 + 2 * 196_864]
            .chunks(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    let (a, b, m) = (words(&from), words(&to), words(&half));
    assert!(
        a.iter()
            .zip(&b)
            .zip(&m)
            .all(|((&a, &b), &m)| a.min(b) <= m && m <= a.max(b))
    );
    assert!(
        a.iter()
            .zip(&b)
            .zip(&m)
            .any(|((&a, &b), &m)| m != a && m != b)
    );
}

#[test]
fn bad_input_is_refused() {
    let dir = scratch("blend-net-bad");
    let existing = dir.join("kept.nnue");
    std::fs::write(&existing, b"a file that stays").unwrap();
    let narrow = args("net/own-128.nnue", "0.5");
    assert_refused_keeping_outputs(&narrow, &existing, |e| e.contains("width (256 and 128"));
    let missing = args("net/missing.nnue", "0.5");
    assert_refused_keeping_outputs(&missing, &existing, |e| e.contains("missing.nnue"));
    for weight in ["1.5", "-0.1", "half"] {
        let mut all = args(TO, weight);
        all.extend(["--out", path(&existing)]);
        refused(&all, "from 0 to 1");
    }
    assert_eq!(std::fs::read(&existing).unwrap(), b"a file that stays");
}
