//! Whole-evaluation tests: colour and left-right symmetry on the bench
//! positions and along random playouts, balance, bounds and a few
//! directions that involve several terms.

use super::*;
use crate::score::Score;

pub fn eval(fen: &str) -> i32 {
    evaluate(&Board::from_fen(fen).unwrap()).0
}

/// Runs `f` on the context of `fen` once the piece terms have filled the
/// attack maps of both sides (what the later terms read), with the pawn
/// entry and the piece terms of White and Black.
pub fn with_analysis<T>(
    fen: &str,
    f: impl FnOnce(&EvalContext, &pawns::PawnEntry, [S; 2]) -> T,
) -> T {
    let board = Board::from_fen(fen).unwrap();
    let mut ctx = EvalContext::new(board.pos().board());
    let pawn = pawns::PawnEntry::compute(ctx.pawns, ctx.king, &mut NoTrace);
    let white = pieces::pieces(&mut ctx, Color::White, &pawn, &mut NoTrace);
    let black = pieces::pieces(&mut ctx, Color::Black, &pawn, &mut NoTrace);
    f(&ctx, &pawn, [black, white])
}

fn swap_case(s: &str) -> String {
    s.chars()
        .map(|ch| {
            if ch.is_ascii_uppercase() {
                ch.to_ascii_lowercase()
            } else {
                ch.to_ascii_uppercase()
            }
        })
        .collect()
}

/// The same position with the board flipped top to bottom and the colours
/// (pieces, side to move, castling rights, en passant) swapped.
pub fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let placement: Vec<String> = f[0].split('/').rev().map(swap_case).collect();
    let turn = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let swapped = swap_case(f[2]);
        let upper: String = swapped.chars().filter(|c| c.is_ascii_uppercase()).collect();
        let lower: String = swapped.chars().filter(|c| c.is_ascii_lowercase()).collect();
        upper + &lower
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let (file, rank) = f[3].split_at(1);
        format!("{file}{}", if rank == "3" { "6" } else { "3" })
    };
    let mut out = format!("{} {turn} {castling} {ep}", placement.join("/"));
    for rest in &f[4..] {
        out += " ";
        out += rest;
    }
    out
}

/// The same position with the files reversed (a <-> h) and no castling.
fn flip_files_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let placement: Vec<String> = f[0]
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", (b'h' - (b[0] - b'a')) as char, b[1] as char)
    };
    format!("{} {} - {ep} 0 1", placement.join("/"), f[1])
}

pub fn bench_fens() -> Vec<String> {
    include_str!("../../positions/bench.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split(';').next().unwrap().split_whitespace().collect();
            fields[..fields.len().min(6)].join(" ")
        })
        .collect()
}

/// Positions along deterministic pseudo-random games from the bench set.
pub fn playout_fens(plies: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for fen in bench_fens() {
        let mut board = Board::from_fen(&fen).unwrap();
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            board.play(moves[(seed >> 33) as usize % moves.len()]);
            out.push(board.fen());
        }
    }
    out
}

#[test]
fn mirror_fen_round_trips() {
    let fen = "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14";
    assert_eq!(mirror_fen(&mirror_fen(fen)), fen);
    assert_eq!(
        mirror_fen("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1"),
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
    );
}

#[test]
fn evaluation_is_colour_symmetric_on_bench_positions() {
    for fen in bench_fens() {
        assert_eq!(eval(&fen), eval(&mirror_fen(&fen)), "{fen}");
    }
}

#[test]
fn evaluation_is_colour_symmetric_along_random_playouts() {
    let fens = playout_fens(60);
    assert!(fens.len() > 1000);
    for fen in fens {
        assert_eq!(eval(&fen), eval(&mirror_fen(&fen)), "{fen}");
    }
}

#[test]
fn evaluation_is_left_right_symmetric() {
    for fen in bench_fens().into_iter().chain(playout_fens(30)) {
        let flipped = flip_files_fen(&fen);
        let unflipped = flip_files_fen(&flipped);
        assert_eq!(eval(&unflipped), eval(&flipped), "{fen}");
    }
}

#[test]
fn start_position_is_balanced_but_for_tempo() {
    let tempo = weights::TEMPO.mg;
    assert_eq!(
        eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        tempo
    );
    assert_eq!(
        eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
        tempo
    );
}

#[test]
fn extreme_material_stays_inside_the_score_range() {
    for fen in [
        "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQK/QQQQQQ1k b - - 0 1",
        "qqqqqqqk/qqqqqqqq/qqqqqqqq/qqqqqqqq/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "k7/PPPPPPPP/8/8/8/8/pppppppp/K7 w - - 0 1",
        "kn6/PPP5/8/8/8/8/8/K7 w - - 0 1",
    ] {
        for f in [fen.to_string(), mirror_fen(fen)] {
            // Beyond what promotions allow: the board refuses it, the
            // evaluation must still cope (built straight from shakmaty).
            let Ok(fen) = f.parse::<shakmaty::fen::Fen>() else {
                continue;
            };
            let Ok(pos) = fen
                .into_position(shakmaty::CastlingMode::Standard)
                .or_else(shakmaty::PositionError::ignore_too_much_material)
            else {
                continue;
            };
            let v = evaluate(&Board::new(pos, shakmaty::CastlingMode::Standard));
            assert!(v.0.abs() <= weights::EVAL_LIMIT, "{f}: {v:?}");
            assert!(v.0.abs() < Score::MATE_BOUND.0);
        }
    }
}

#[test]
fn material_and_placement_matter() {
    // A queen up is a lot.
    assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 800);
    // A central knight beats a knight on the rim.
    assert!(
        eval("4k3/1p4p1/8/3N4/8/8/1P4P1/4K3 w - - 0 1")
            > eval("4k3/1p4p1/8/8/N7/8/1P4P1/4K3 w - - 0 1")
    );
    // Scores are from the side to move: only the tempo differs.
    let fen = "4k3/1p4p1/8/3N4/8/8/1P4P1/4K3 w - - 0 1";
    let black = fen.replace(" w ", " b ");
    let tempo = tapered::taper(weights::TEMPO, 1);
    assert_eq!(eval(fen) - tempo, -(eval(&black) - tempo));
}

#[test]
fn pawn_cache_agrees_with_direct_computation() {
    for fen in bench_fens().into_iter().chain(playout_fens(20)) {
        let board = Board::from_fen(&fen).unwrap();
        let b = board.pos().board();
        let pawns = [b.pawns() & b.black(), b.pawns() & b.white()];
        let kings = [Color::Black, Color::White].map(|c| b.king_of(c).unwrap());
        // Twice: once filling the slot, once hitting it; then with the kings
        // elsewhere (the shelter must follow them).
        let direct = pawns::PawnEntry::compute(pawns, kings, &mut NoTrace);
        assert_eq!(pawns::probe(pawns, kings), direct);
        assert_eq!(pawns::probe(pawns, kings), direct);
        let moved = [kings[1], kings[0]];
        assert_eq!(
            pawns::probe(pawns, moved),
            pawns::PawnEntry::compute(pawns, moved, &mut NoTrace)
        );
    }
}
