//! Move generation speed: shakmaty's legal move list against the perft
//! counter on a few positions, and perft 4 from the start position (plain,
//! hashed, and the parallel divide).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use shakmaty::{Chess, Position};
use stockman::perft::{PerftTable, count_legal, divide, parse_fen, perft, perft_with};

const POSITIONS: [(&str, &str); 4] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "promotions",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
];

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("movegen");
    for (name, fen) in POSITIONS {
        let pos = parse_fen(fen, false).unwrap().0;
        g.bench_function(format!("legal_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves().len())
        });
        g.bench_function(format!("count_legal/{name}"), |b| {
            b.iter(|| count_legal(black_box(&pos)))
        });
    }
    g.finish();
}

fn perft4(c: &mut Criterion) {
    let start = Chess::default();
    let mut g = c.benchmark_group("perft4_start");
    g.sample_size(20);
    g.bench_function("plain", |b| b.iter(|| perft(black_box(&start), 4)));
    g.bench_function("shakmaty_reference", |b| {
        b.iter(|| shakmaty::perft(black_box(&start), 4))
    });
    // A fresh table each time: a warm one would answer from memory.
    g.bench_function("hashed_cold", |b| {
        b.iter(|| {
            let t = PerftTable::new(4).unwrap();
            perft_with(black_box(&start), 4, Some(&t))
        })
    });
    g.bench_function("divide_parallel", |b| {
        b.iter(|| divide(black_box(&start), 4).len())
    });
    g.finish();
}

criterion_group!(benches, movegen, perft4);
criterion_main!(benches);
