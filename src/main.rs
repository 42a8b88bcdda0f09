//! The `stockman` command: with no arguments it speaks UCI on stdin/stdout;
//! subcommands run perft, bench and the research tools.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "stockman",
    version,
    about = "A UCI chess engine with interchangeable search back ends"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Fixed-depth node signature over the bench positions (OpenBench reads the last line).
    Bench(stockman::bench::BenchArgs),
    /// Engine back ends side by side on EPD positions: nodes, leaves, passes per depth.
    Compare(stockman::research::CompareArgs),
    /// Count leaf nodes of the legal move tree (per root move), or run an EPD perft suite.
    Perft(stockman::perft::PerftArgs),
    /// Textbook algorithms on synthetic game trees: leaves evaluated, SSS* = MT-SSS* check.
    Trees(stockman::research::TreesArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match &cli.command {
        None => Ok(()),
        Some(Command::Bench(a)) => stockman::bench::run(a),
        Some(Command::Compare(a)) => stockman::research::run_compare(a),
        Some(Command::Perft(a)) => stockman::perft::run(a),
        Some(Command::Trees(a)) => stockman::research::run_trees(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
