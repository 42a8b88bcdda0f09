//! Every network file in net/ is one the engine reads, and each knows
//! material: the shipped network and the three kept beside it, two
//! 128-wide own-data networks and the last Stockfish-labelled one
//! (net/README.md says where each came from).

mod common;

use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
use stockman::nnue::Network;

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
        [
            "stockman.nnue",
            "own-128.nnue",
            "own-128-gen2.nnue",
            "sf-labelled-4.nnue"
        ]
        .iter()
        .all(|n| names.contains(&n.to_string())),
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
