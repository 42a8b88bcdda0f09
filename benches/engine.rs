//! Engine speed: static evaluation on a few positions, transposition table
//! probes and stores, and a fixed-depth search per back end (small samples,
//! so `cargo bench --bench engine` finishes in a few minutes).

use criterion::{BatchSize, Criterion, black_box, criterion_group, criterion_main};
use shakmaty::Position;
use std::sync::Arc;
use std::time::Duration;
use stockman::nnue::{Network, NetworkEvaluator};
use stockman::search::{
    Algorithm, Limits, SearchControl, SearchMode, SearchParams, SearchTables, Searcher, search,
};
use stockman::tt::{Bound, TranspositionTable};
use stockman::{Board, Score};

const POSITIONS: [(&str, &str); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "middlegame",
        "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14",
    ),
    ("endgame", "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54"),
];

/// Depth of the per-back-end search benchmark.
const SEARCH_DEPTH: i32 = 5;

fn board(fen: &str) -> Board {
    Board::from_fen(fen).expect("benchmark FEN")
}

fn evaluation(c: &mut Criterion) {
    let mut g = c.benchmark_group("evaluate");
    for (name, fen) in POSITIONS {
        let b = board(fen);
        g.bench_function(format!("classical {name}"), |bench| {
            bench.iter(|| stockman::eval::evaluate(black_box(&b)))
        });
        // The network from scratch, and made from the parent's (the search's
        // usual case: a few inputs differ).
        let net = Network::embedded();
        let pos = b.pos();
        g.bench_function(format!("network from scratch {name}"), |bench| {
            bench.iter(|| net.evaluate(black_box(pos.board()), pos.turn()))
        });
        // Two children in turn at ply 1, so each is made from the parent.
        let moves = pos.legal_moves();
        let children = [0, moves.len() - 1].map(|i| pos.clone().play(moves[i]).expect("legal"));
        let mut evaluator = NetworkEvaluator::default();
        evaluator.evaluate(pos.board(), pos.turn(), 0);
        g.bench_function(format!("network two children {name}"), |bench| {
            bench.iter(|| {
                children
                    .iter()
                    .map(|c| evaluator.evaluate(black_box(c.board()), c.turn(), 1))
                    .sum::<i32>()
            })
        });
    }
    g.finish();
}

/// Keys spread like Zobrist keys (a fixed odd multiplier scrambles the index).
fn keys(n: u64) -> Vec<u64> {
    (1..=n)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect()
}

fn transposition_table(c: &mut Criterion) {
    const KEYS: u64 = 4096;
    let tt = TranspositionTable::new(16).expect("16 MB table");
    let keys = keys(KEYS);
    let mut g = c.benchmark_group("tt");
    g.bench_function("store_4096", |bench| {
        bench.iter(|| {
            for (i, &k) in keys.iter().enumerate() {
                tt.store(k, 3, None, Score(i as i32 % 200), 6, Bound::Exact);
            }
        })
    });
    g.bench_function("probe_hit_4096", |bench| {
        bench.iter(|| {
            keys.iter()
                .filter(|&&k| tt.probe(black_box(k), 3).is_some())
                .count()
        })
    });
    let absent = keys
        .iter()
        .map(|k| k ^ 0x5555_0000_0000_0001)
        .collect::<Vec<_>>();
    g.bench_function("probe_miss_4096", |bench| {
        bench.iter(|| {
            absent
                .iter()
                .filter(|&&k| tt.probe(black_box(k), 3).is_some())
                .count()
        })
    });
    g.finish();
}

/// One search from a fresh table, as `bench` runs it; returns the node count.
fn search_once(b: &Board, algorithm: Algorithm, tt: Arc<TranspositionTable>) -> u64 {
    let params = SearchParams {
        algorithm,
        mode: SearchMode::Normal,
        move_overhead_ms: 0,
        ..SearchParams::default()
    };
    let mut s = Searcher::new(
        b.clone(),
        tt,
        Box::<SearchTables>::default(),
        Arc::new(SearchControl::default()),
        SearchMode::Normal,
    );
    search(&mut s, &params, &Limits::depth(SEARCH_DEPTH), &mut |_| {})
        .stats
        .nodes
}

fn fixed_depth_search(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("search_depth{SEARCH_DEPTH}"));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, fen) in POSITIONS {
        let b = board(fen);
        for algorithm in Algorithm::ALL {
            g.bench_function(format!("{algorithm}/{name}"), |bench| {
                // The table's allocation is setup, not search.
                bench.iter_batched(
                    || Arc::new(TranspositionTable::new(16).expect("16 MB table")),
                    |tt| search_once(&b, algorithm, tt),
                    BatchSize::PerIteration,
                )
            });
        }
    }
    g.finish();
}

criterion_group!(benches, evaluation, transposition_table, fixed_depth_search);
criterion_main!(benches);
