//! The `stockman-lab` command: the tools that make and study the engine —
//! training data, the network trainer and Texel tuning, the textbook
//! game-tree algorithms, B* and the back-end comparisons. The engine itself
//! is the `stockman` binary.

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use stockman_lab::{data, research, train};

#[derive(Parser, Debug)]
#[command(
    name = "stockman-lab",
    version,
    about = "Stockman's lab: training data, network training, tuning and search research",
    after_help = "The engine's own commands (uci, bench, perft, genfens, spsa) are in `stockman`."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Tuning data: quiet positions from self-play (or a PGN file) labelled with the game result (and, in binary, the search score).
    Datagen(data::DatagenArgs),
    /// Convert text tuning data (`<FEN> | <eval> | <result>`, `<FEN> [result]`), or PGN games with engine scores in their move comments, into binary records.
    Convert(data::ConvertArgs),
    /// Relabel tuning data with another UCI engine's judgement (Stockfish's static eval, a search).
    Label(data::LabelArgs),
    /// Train the evaluation network on labelled positions (datagen + label's data).
    TrainNet(train::TrainNetArgs),
    /// A network between two networks of one shape: each weight (1 - t)·A + t·B.
    BlendNet(train::BlendNetArgs),
    /// Texel tuning of the evaluation weights on datagen's data; writes src/eval/tuned.rs.
    Tune(train::TuneArgs),
    /// Textbook algorithms on synthetic game trees: leaves evaluated, SSS* = MT-SSS* check.
    Trees(research::TreesArgs),
    /// B* on EPD positions with engine-made intervals, beside AlphaBeta and MTDf.
    Bstar(research::BStarChessArgs),
    /// Engine back ends side by side on EPD positions: nodes, leaves, passes per depth.
    Compare(research::CompareArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let result = match &Cli::parse().command {
        Command::Datagen(a) => data::run_datagen(a),
        Command::Convert(a) => data::run_convert(a),
        Command::Label(a) => data::run_label(a),
        Command::TrainNet(a) => train::run_train_net(a),
        Command::BlendNet(a) => train::run_blend_net(a),
        Command::Tune(a) => train::run_tune(a),
        Command::Trees(a) => research::run_trees(a),
        Command::Bstar(a) => research::run_bstar_chess(a),
        Command::Compare(a) => research::run_compare(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
