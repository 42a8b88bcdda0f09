//! The perft room: counting the leaves of the legal move tree (`perft`), per
//! root move in parallel (`divide`, Stockfish-style output), an optional
//! shared perft hash table, EPD perft suites and the `stockman perft` command.

mod cli;
mod count;
mod epd;
mod table;

pub use cli::{PerftArgs, run};
pub use count::count_legal;
pub use epd::{EpdEntry, SuiteSummary, parse_epd, parse_epd_line, run_suite};
pub use table::PerftTable;

pub use crate::board::parse_fen;
use crate::board::{full_key, next_key};
use rayon::prelude::*;
use shakmaty::{CastlingMode, Chess, Move, Position};
use std::io::Write;
use std::time::Instant;

/// The deepest perft the command line accepts: deeper is years of work.
pub const MAX_DEPTH: u32 = 15;

/// Number of leaves of the legal move tree `depth` plies below `pos`
/// (1 at depth 0). Single-threaded, no hash table: the path that checks the
/// hashed one (and is itself checked against `shakmaty::perft` in tests).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 { 1 } else { count(pos, depth) }
}

/// `perft` with an optional hash table (`None` is exactly [`perft`]).
pub fn perft_with(pos: &Chess, depth: u32, table: Option<&PerftTable>) -> u64 {
    match table {
        Some(t) if depth >= 2 => count_hashed(pos, full_key(pos), depth, t),
        _ => perft(pos, depth),
    }
}

/// Plain recursion, bulk counting (without generating) at depth 1. `depth >= 1`.
fn count(pos: &Chess, depth: u32) -> u64 {
    if depth == 1 {
        return count_legal(pos);
    }
    let moves = pos.legal_moves();
    let mut total = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += count(&child, depth - 1);
    }
    total
}

/// Recursion through the hash table; `key` is the position key of `pos`
/// (`board::key`, which tells Chess960 castling rooks apart).
/// `depth >= 2`: depth-1 nodes are bulk counted, which is cheaper than a
/// key update and a probe.
fn count_hashed(pos: &Chess, key: u64, depth: u32, table: &PerftTable) -> u64 {
    if let Some(n) = table.probe(key, depth) {
        return n;
    }
    let moves = pos.legal_moves();
    let mut total = 0;
    if depth == 2 {
        for &m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            total += count_legal(&child);
        }
    } else {
        for &m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = next_key(pos, &child, key, m);
            total += count_hashed(&child, child_key, depth - 1, table);
        }
    }
    table.store(key, depth, total);
    total
}

/// Leaf counts per legal root move, `depth` plies deep in all (each move's
/// count is the perft of `depth - 1` below it), in move generator order.
/// Root moves are counted in parallel on the current rayon pool. Empty at
/// depth 0.
pub fn divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    divide_with(pos, depth, None)
}

/// [`divide`] with an optional hash table shared by all threads.
pub fn divide_with(pos: &Chess, depth: u32, table: Option<&PerftTable>) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let key = table.map(|_| full_key(pos));
    moves
        .as_slice()
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let n = match (table, key) {
                (Some(t), Some(k)) if depth >= 3 => {
                    count_hashed(&child, next_key(pos, &child, k, m), depth - 1, t)
                }
                _ => perft(&child, depth - 1),
            };
            (m, n)
        })
        .collect()
}

/// [`divide`] that gives up as soon as `stopped()` says so (it is asked at
/// every node two or more plies above the leaves): `None` then. For the UCI
/// `go perft`, which `stop` must end.
pub fn divide_until(
    pos: &Chess,
    depth: u32,
    stopped: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    pos.legal_moves()
        .as_slice()
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            count_until(&child, depth - 1, stopped).map(|n| (m, n))
        })
        .collect()
}

/// [`perft`] that returns `None` once `stopped()` is true.
fn count_until(pos: &Chess, depth: u32, stopped: &(dyn Fn() -> bool + Sync)) -> Option<u64> {
    if depth <= 1 {
        return Some(perft(pos, depth));
    }
    if stopped() {
        return None;
    }
    let mut total = 0;
    for &m in &pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += count_until(&child, depth - 1, stopped)?;
    }
    Some(total)
}

/// Runs [`divide`] and prints it the way Stockfish does: `e2e4: 9771632` per
/// root move (UCI notation in `castling` mode), a blank line,
/// `Nodes searched: N`, then the time and speed. Returns the total.
/// Counts without a hash table; [`write_divide_with`] takes one.
pub fn write_divide(
    out: &mut impl Write,
    pos: &Chess,
    depth: u32,
    castling: CastlingMode,
) -> std::io::Result<u64> {
    write_divide_with(out, pos, depth, castling, None)
}

/// [`write_divide`] with an optional hash table.
pub fn write_divide_with(
    out: &mut impl Write,
    pos: &Chess,
    depth: u32,
    castling: CastlingMode,
    table: Option<&PerftTable>,
) -> std::io::Result<u64> {
    let start = Instant::now();
    let total = if depth == 0 {
        writeln!(out, "Nodes searched: 1")?;
        1
    } else {
        let counts = divide_with(pos, depth, table);
        let mut total = 0;
        for (m, n) in &counts {
            writeln!(out, "{}: {n}", m.to_uci(castling))?;
            total += n;
        }
        writeln!(out)?;
        writeln!(out, "Nodes searched: {total}")?;
        total
    };
    let elapsed = start.elapsed();
    writeln!(
        out,
        "Time: {} ms, {} nps",
        elapsed.as_millis(),
        nps(total, elapsed)
    )?;
    out.flush()?;
    Ok(total)
}

/// Nodes per second, without dividing by zero.
pub(crate) fn nps(nodes: u64, elapsed: std::time::Duration) -> u64 {
    let us = elapsed.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / us).min(u128::from(u64::MAX)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_until_counts_like_divide_and_stops_when_told() {
        let pos = Chess::default();
        for depth in 0..=4 {
            assert_eq!(
                divide_until(&pos, depth, &|| false),
                Some(divide(&pos, depth))
            );
        }
        assert_eq!(divide_until(&pos, 4, &|| true), None);
        // Depth 1 and 2 have no node to ask at: they are quick anyway.
        assert!(divide_until(&pos, 2, &|| true).is_some());
    }

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    fn pos(fen: &str) -> Chess {
        parse_fen(fen, false).unwrap().0
    }

    #[test]
    fn start_position_depths_0_to_5() {
        let p = Chess::default();
        let expected = [1, 20, 400, 8_902, 197_281, 4_865_609];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&p, d as u32), n, "depth {d}");
        }
    }

    #[test]
    fn kiwipete_depths_1_to_4() {
        let p = pos(KIWIPETE);
        for (d, n) in [(1, 48), (2, 2_039), (3, 97_862), (4, 4_085_603)] {
            assert_eq!(perft(&p, d), n, "depth {d}");
        }
    }

    /// Our counting (bulk counter at the last ply) against shakmaty's own
    /// perft, which generates every move list: an independent reference.
    #[test]
    fn perft_matches_shakmaty_reference() {
        for (fen, depth) in [
            (KIWIPETE, 3),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                3,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                3,
            ),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                3,
            ),
        ] {
            let p = pos(fen);
            assert_eq!(perft(&p, depth), shakmaty::perft(&p, depth), "{fen}");
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        for fen in [
            KIWIPETE,
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let p = pos(fen);
            for d in 1..=3 {
                let parts = divide(&p, d);
                assert_eq!(parts.len(), p.legal_moves().len());
                let sum: u64 = parts.iter().map(|(_, n)| n).sum();
                assert_eq!(sum, perft(&p, d), "{fen} depth {d}");
            }
        }
        assert!(divide(&Chess::default(), 0).is_empty());
    }

    #[test]
    fn hashed_counts_equal_plain_counts() {
        let table = PerftTable::new(1).unwrap();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            KIWIPETE,
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let p = pos(fen);
            for d in 0..=4 {
                let plain = perft(&p, d);
                assert_eq!(perft_with(&p, d, Some(&table)), plain, "{fen} d{d}");
                // Again, now answered (partly) from the table.
                assert_eq!(perft_with(&p, d, Some(&table)), plain, "{fen} d{d}");
                let parts = divide_with(&p, d, Some(&table));
                assert_eq!(parts, divide(&p, d), "{fen} d{d}");
            }
        }
    }

    #[test]
    fn hashed_counts_tell_apart_which_rook_holds_a_castling_right() {
        // Rooks on a1 and b1: the b-rook's right castles, the a-rook's is
        // blocked by the b-rook. Polyglot's key names only the side.
        let fens = [
            "4k3/7p/8/8/8/8/7P/RR2K3 w B - 0 1",
            "4k3/7p/8/8/8/8/7P/RR2K3 w A - 0 1",
        ];
        let positions = fens.map(|fen| parse_fen(fen, true).unwrap().0);
        assert_ne!(perft(&positions[0], 1), perft(&positions[1], 1));
        let table = PerftTable::new(1).unwrap();
        for order in [[0, 1], [1, 0]] {
            for i in order {
                let p = &positions[i];
                for d in 1..=4 {
                    assert_eq!(
                        perft_with(p, d, Some(&table)),
                        perft(p, d),
                        "{} d{d}",
                        fens[i]
                    );
                }
            }
        }
    }

    #[test]
    fn write_divide_format() {
        let mut out = Vec::new();
        let total = write_divide(&mut out, &Chess::default(), 3, CastlingMode::Standard).unwrap();
        assert_eq!(total, 8_902);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 20 + 3);
        assert!(lines.contains(&"e2e4: 600"));
        assert!(lines.contains(&"g1f3: 440"));
        assert_eq!(lines[20], "");
        assert_eq!(lines[21], "Nodes searched: 8902");
        assert!(lines[22].starts_with("Time: ") && lines[22].ends_with(" nps"));

        let mut out = Vec::new();
        assert_eq!(
            write_divide(&mut out, &Chess::default(), 0, CastlingMode::Standard).unwrap(),
            1
        );
        assert!(
            String::from_utf8(out)
                .unwrap()
                .starts_with("Nodes searched: 1\n")
        );
    }

    #[test]
    fn promotions_are_lowercase_and_castling_follows_the_mode() {
        let p = pos("4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1");
        let mut out = Vec::new();
        write_divide(&mut out, &p, 1, CastlingMode::Standard).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("b7b8q: 1\n") && text.contains("b7b8n: 1\n"));
        assert!(text.contains("e1g1: 1\n") && text.contains("e1c1: 1\n"));
        let mut out = Vec::new();
        write_divide(&mut out, &p, 1, CastlingMode::Chess960).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("e1h1: 1\n") && text.contains("e1a1: 1\n"));
    }

    #[test]
    fn fen_parsing_and_castling_mode() {
        assert_eq!(
            parse_fen(KIWIPETE, false).unwrap().1,
            CastlingMode::Standard
        );
        // Rights standard chess cannot castle with (the king on g1) select
        // Chess960, written either way; standard ones do not.
        let shredder_standard = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1";
        assert_eq!(
            parse_fen(shredder_standard, false).unwrap().1,
            CastlingMode::Standard
        );
        let (p, mode) = parse_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            false,
        )
        .unwrap();
        assert_eq!(mode, CastlingMode::Chess960);
        assert_eq!(perft(&p, 3), 12_189);
        // X-FEN: KQkq with the king off the e-file.
        let (p, mode) = parse_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
            false,
        )
        .unwrap();
        assert_eq!(mode, CastlingMode::Chess960);
        assert_eq!(perft(&p, 3), 12_189);
        for bad in [
            "",
            "   ",
            "not a fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        ] {
            let e = parse_fen(bad, false).unwrap_err();
            assert!(e.contains("FEN"), "{e}");
        }
    }
}
