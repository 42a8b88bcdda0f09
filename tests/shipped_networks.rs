//! Every network file in net/ is one the engine reads, and each knows
//! material: the built-in network and the eight kept beside it, 1.8.0's
//! network it was refined from, 1.7.0's network that one was refined from,
//! 1.6.0's network that one was refined from, 1.0.0's network that one was
//! refined from, a longer refinement of that one, two 128-wide own-data
//! networks and the last Stockfish-labelled one (net/README.md says where
//! each came from).

mod common;

use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
use stockman::nnue::Network;

/// The network files in net/ and their value (`eval`'s "network cp") of
/// the six positions of `the_networks_in_net_evaluate_as_when_they_were_made`:
/// for the four files of 1.0.0 as 1.0.0 (commit cec67ca, 2026-11-28)
/// printed them, before king buckets and the wider layers changed the
/// reader (`own-256-gen2.nnue` was 1.0.0's `stockman.nnue`), and for
/// `own-256-gen3.nnue` and 1.6.0's network (`own-256-gen3-gentle.nnue`)
/// as builds of the engine of c156fce printed them with `EvalFile`
/// (2026-12-05), for 1.7.0's network (`own-256-gen4-l0.9.nnue`) as the
/// build of 8290a0e with it built in printed it (2026-12-06), for 1.8.0's
/// network (`own-256-gen6-l0.9.nnue`) as the build of a033d5f with it
/// built in printed it (2026-12-07), and for `stockman.nnue` as a `make`
/// build of bed4cde with it built in printed it (2026-12-08).
const SHIPPED: [(&str, [i32; 6]); 9] = [
    ("stockman.nnue", [24, 77, 11, -378, -1238, -42]),
    ("own-256-gen6-l0.9.nnue", [27, 75, 25, -363, -1220, -9]),
    ("own-256-gen4-l0.9.nnue", [28, 84, 26, -354, -1161, -20]),
    ("own-256-gen3-gentle.nnue", [21, 85, 7, -347, -1123, -14]),
    ("own-256-gen2.nnue", [25, 97, 0, -353, -1041, -23]),
    ("own-128.nnue", [33, 72, -30, -339, -1012, -2]),
    ("own-128-gen2.nnue", [28, 93, -52, -354, -1011, -13]),
    ("own-256-gen3.nnue", [18, 75, 25, -354, -1124, -13]),
    ("sf-labelled-4.nnue", [38, 80, 19, -358, -1098, -22]),
];

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

#[test]
fn every_network_in_net_loads_and_knows_material() {
    let dir = common::repo_path("net");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "nnue"))
        .collect();
    files.sort();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(
        SHIPPED.iter().all(|(n, _)| names.contains(&n.to_string())),
        "{names:?}"
    );
    let start = Chess::default();
    let queen_up = position("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    let queen_down = position("rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    for file in &files {
        let net = Network::load(file.to_str().unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let eval = |pos: &Chess| net.evaluate(pos.board(), pos.turn());
        let name = file.display();
        assert!(eval(&start).abs() < 100, "{name}: start {}", eval(&start));
        assert!(
            eval(&queen_up) > 500,
            "{name}: a queen up {}",
            eval(&queen_up)
        );
        assert!(
            eval(&queen_down) < -500,
            "{name}: a queen down {}",
            eval(&queen_down)
        );
    }
}

/// The files in net/ (the first and second formats) evaluate as when they
/// were made (`SHIPPED`).
#[test]
fn the_networks_in_net_evaluate_as_when_they_were_made() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R b KQkq - 0 14",
        "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 2 9",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 40",
        "2r3k1/1q3pp1/4p2p/p2pP3/Pp1P1QP1/1P5P/5PK1/2R5 w - - 0 35",
    ];
    for (name, expected) in SHIPPED {
        let file = common::repo_path("net").join(name);
        let net = Network::load(file.to_str().unwrap()).unwrap();
        let got: Vec<i32> = fens
            .iter()
            .map(|fen| {
                let pos = position(fen);
                net.evaluate(pos.board(), pos.turn())
            })
            .collect();
        assert_eq!(got, expected, "{name}");
    }
}
