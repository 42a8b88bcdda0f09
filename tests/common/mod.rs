//! Helpers shared by the integration tests: test positions and the engine binary.
#![allow(dead_code)]

pub mod cli;
pub mod engine_process;
pub mod help_text;
pub mod rust_source;
pub mod scratch;
pub mod search_check;
pub mod searching;

use std::path::PathBuf;

/// The engine binary the tests drive (the lab's tests, which share
/// `engine_process.rs`, find it beside `stockman-lab`).
pub fn engine_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_stockman"))
}

pub fn repo_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The Python 3 interpreter that has python-chess: `STOCKMAN_PYTHON` when
/// set (`make test` sets it, to target/pyenv/bin/python when it had to make
/// a virtual environment), else `python3`.
pub fn python() -> String {
    std::env::var("STOCKMAN_PYTHON")
        .ok()
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| "python3".to_string())
}

/// Runs a script of scripts/ with `args` under `python()` to the end (its
/// stdin closed, as `output` leaves it).
pub fn run_script(script: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(python())
        .arg(repo_path(&format!("scripts/{script}")))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("run scripts/{script} with Python 3: {e}"))
}

/// Runs a python-chess script of tests/python with `args` and returns what
/// it printed; fails the test with the script's stderr if it fails.
pub fn python_oracle(script: &str, args: &[&std::ffi::OsStr]) -> String {
    let out = std::process::Command::new(python())
        .arg(repo_path(&format!("tests/python/{script}")))
        .args(args)
        .output()
        .expect("run Python (STOCKMAN_PYTHON or python3; `make test` installs python-chess)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The FEN part (first four fields, plus clocks when present) of each EPD line.
pub fn epd_fens(rel: &str) -> Vec<String> {
    let text = std::fs::read_to_string(repo_path(rel)).expect("positions file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            let mut fen: Vec<&str> = fields[..4].to_vec();
            // EPD lines may carry halfmove/fullmove numbers as plain fields.
            if fields.len() >= 6
                && fields[4].parse::<u32>().is_ok()
                && fields[5].parse::<u32>().is_ok()
            {
                fen.extend_from_slice(&fields[4..6]);
            }
            fen.join(" ")
        })
        .collect()
}

/// Positions chosen for special rules: checks, promotions, en passant,
/// castling, mates, stalemates and near-draws.
pub const SPECIAL_FENS: &[&str] = &[
    // Castling both ways available, pins and tactics (kiwipete).
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // En passant capture available (d5xe6).
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // En passant that would expose the king.
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    // Promotions, with and without capture.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "3r4/4P3/8/8/8/2k5/8/K7 w - - 0 1",
    // In check.
    "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3",
    "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
    // Mate in one, mate in two.
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    // Stalemate traps.
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
    "k7/8/1Q6/8/8/8/8/7K w - - 0 1",
    // Pawn endings, rook endings.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/8/2p5/8/B2K4/8 w - - 0 1",
    "8/5pk1/6p1/8/8/5PP1/5K2/3R4 w - - 0 1",
    // Near the fifty-move limit.
    "8/8/2k5/8/8/3KR3/8/8 w - - 97 120",
    // Castling through check is not allowed.
    "r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1",
    // Repetition possible from the start position.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
];

/// 50 bench positions plus the special ones.
pub fn varied_positions() -> Vec<String> {
    let mut v = epd_fens("positions/bench.epd");
    v.extend(SPECIAL_FENS.iter().map(|s| s.to_string()));
    v
}
