//! The `stockman` command: with no arguments it speaks UCI on stdin/stdout;
//! subcommands run perft, bench and genfens, and (with the default `lab`
//! feature) the research tools and the tuner.

use clap::{Parser, Subcommand};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use stockman::engine::{Engine, Flow};
use stockman::uci::Output;

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
    /// Speak UCI on stdin/stdout (the default without a subcommand).
    Uci,
    /// Fixed-depth node signature over the bench positions (OpenBench reads the last line).
    Bench(stockman::bench::BenchArgs),
    #[cfg(feature = "lab")]
    /// B* on EPD positions with engine-made intervals, beside AlphaBeta and MTDf.
    Bstar(stockman::research::BStarChessArgs),
    #[cfg(feature = "lab")]
    /// Engine back ends side by side on EPD positions: nodes, leaves, passes per depth.
    Compare(stockman::research::CompareArgs),
    /// Count leaf nodes of the legal move tree (per root move), or run an EPD perft suite.
    Perft(stockman::perft::PerftArgs),
    #[cfg(feature = "lab")]
    /// Textbook algorithms on synthetic game trees: leaves evaluated, SSS* = MT-SSS* check.
    Trees(stockman::research::TreesArgs),
    #[cfg(feature = "lab")]
    /// Tuning data: quiet positions from self-play (or a PGN file) labelled with the game result (and, in binary, the search score).
    Datagen(stockman::tune::DatagenArgs),
    #[cfg(feature = "lab")]
    /// Convert text tuning data (`<FEN> | <eval> | <result>`, `<FEN> [result]`) into binary records.
    Convert(stockman::tune::ConvertArgs),
    #[cfg(feature = "lab")]
    /// Relabel tuning data with another UCI engine's judgement (Stockfish's static eval, a search).
    Label(stockman::tune::LabelArgs),
    #[cfg(feature = "lab")]
    /// Texel tuning of the evaluation weights on datagen's data; writes src/eval/tuned.rs.
    Tune(stockman::tune::TuneArgs),
    #[cfg(feature = "lab")]
    /// Train the evaluation network on labelled positions (datagen + label's data).
    TrainNet(stockman::tune::TrainNetArgs),
    /// OpenBench's SPSA input: one line per tunable search constant
    /// (`name, int, value, min, max, step, learning rate`); a `--features spsa`
    /// build takes them as UCI options.
    Spsa,
    /// OpenBench's opening positions: `genfens N seed S book <None|FILE>`.
    Genfens {
        /// `N seed S book <None|FILE> [extra]`
        #[arg(num_args = 1.., allow_hyphen_values = true)]
        words: Vec<String>,
    },
}

/// Reads UCI commands until `quit` or the end of input.
fn uci_loop() -> Result<(), String> {
    let mut engine = Engine::new(Output::stdout());
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut raw = Vec::new();
    loop {
        raw.clear();
        match input.read_until(b'\n', &mut raw) {
            Ok(0) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&raw);
                if engine.handle_line(&line) == Flow::Quit {
                    // Not dropped: that would wake every parked helper thread
                    // (hundreds at Threads 256) to end it, and free the hash
                    // table page by page, before the process could exit.
                    std::mem::forget(engine);
                    return Ok(());
                }
            }
            Err(e) => {
                log::warn!("reading stdin: {e}");
                break;
            }
        }
    }
    engine.shutdown();
    Ok(())
}

/// `genfens` from the command line: the positions on stdout, or an error.
fn genfens(request: &stockman::genfens::GenfensRequest) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    // A closed stdout is the reader's choice: the positions just go nowhere.
    stockman::genfens::generate(request, |fen| {
        let _ = writeln!(out, "{}", stockman::uci::protocol::genfens(fen));
    })
}

/// OpenBench's form, `stockman "genfens 10 seed 1 book None" "quit"`: every
/// argument is one UCI command, run in order; the engine then exits. A
/// command that does not parse or fails is an error (non-zero exit).
fn uci_arguments(lines: &[String]) -> Result<(), String> {
    let mut engine = Engine::new(Output::stdout());
    for line in lines {
        match stockman::uci::parse(line)? {
            stockman::uci::Command::Genfens(request) => genfens(&request)?,
            command => {
                if engine.handle(command) == Flow::Quit {
                    return Ok(());
                }
                engine.finish_background();
                engine.wait_for_finite_search();
            }
        }
    }
    engine.shutdown();
    Ok(())
}

/// The lab's subcommands, which a build without the `lab` feature leaves out.
const LAB_SUBCOMMANDS: [&str; 8] = [
    "bstar",
    "compare",
    "trees",
    "datagen",
    "convert",
    "label",
    "tune",
    "train-net",
];

/// In a build without the lab, a lab subcommand is a clear error (clap would
/// only call it unrecognised).
fn refuse_lab_subcommand(args: &[String]) -> Result<(), String> {
    match args.first() {
        Some(name) if !cfg!(feature = "lab") && LAB_SUBCOMMANDS.contains(&name.as_str()) => {
            Err(format!(
                "`{name}` belongs to the lab, which this build leaves out \
                 (built with --no-default-features); build with the default \
                 features (`cargo build --release`) to use it"
            ))
        }
        _ => Ok(()),
    }
}

/// Are the arguments UCI commands (the first has a blank in it) rather than a subcommand?
fn are_uci_lines(args: &[String]) -> bool {
    args.first()
        .is_some_and(|a| a.trim().contains(char::is_whitespace))
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = if are_uci_lines(&args) {
        uci_arguments(&args)
    } else {
        refuse_lab_subcommand(&args).and_then(|()| run_subcommand(&Cli::parse()))
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_subcommand(cli: &Cli) -> Result<(), String> {
    match &cli.command {
        None | Some(Command::Uci) => uci_loop(),
        Some(Command::Bench(a)) => stockman::bench::run(a),
        #[cfg(feature = "lab")]
        Some(Command::Bstar(a)) => stockman::research::run_bstar_chess(a),
        #[cfg(feature = "lab")]
        Some(Command::Compare(a)) => stockman::research::run_compare(a),
        Some(Command::Perft(a)) => stockman::perft::run(a),
        #[cfg(feature = "lab")]
        Some(Command::Trees(a)) => stockman::research::run_trees(a),
        #[cfg(feature = "lab")]
        Some(Command::Datagen(a)) => stockman::tune::run_datagen(a),
        #[cfg(feature = "lab")]
        Some(Command::Convert(a)) => stockman::tune::run_convert(a),
        #[cfg(feature = "lab")]
        Some(Command::Label(a)) => stockman::tune::run_label(a),
        #[cfg(feature = "lab")]
        Some(Command::Tune(a)) => stockman::tune::run_tune(a),
        #[cfg(feature = "lab")]
        Some(Command::TrainNet(a)) => stockman::tune::run_train_net(a),
        Some(Command::Spsa) => {
            let mut out = std::io::stdout().lock();
            stockman::params::TUNABLES
                .iter()
                .try_for_each(|t| writeln!(out, "{}", t.openbench_line()))
                .map_err(|e| format!("spsa: {e}"))
        }
        Some(Command::Genfens { words }) => {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            genfens(&stockman::genfens::parse_request(&words)?)
        }
    }
}
