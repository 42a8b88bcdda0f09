//! The `stockman` command: with no arguments it speaks UCI on stdin/stdout;
//! subcommands run what a tournament operator or OpenBench needs (bench,
//! perft, genfens, spsa). The lab's commands live in `stockman-lab`.

use clap::{Parser, Subcommand};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use stockman::session::engine::{Engine, Flow};
use stockman::uci::Output;

#[derive(Parser, Debug)]
#[command(
    name = "stockman",
    version,
    about = "A UCI chess engine with interchangeable search back ends",
    after_help = LAB_NOTE
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// `stockman --help`'s last lines: where the lab's commands are.
const LAB_NOTE: &str = "\
Engine commands are listed above; without a command, `stockman` speaks UCI.
Lab commands (trees, bstar, compare, datagen, convert, label, tune, train-net)
are in the separate `stockman-lab` binary: `cargo run --release -p stockman-lab -- --help`.";

/// `stockman uci --help`'s examples.
const UCI_EXAMPLES: &str = "\
Examples:
  # Speak UCI with a GUI or a match runner (they start it without a subcommand)
  stockman
  # UCI commands from a file, one a line; its end stops a search still running
  stockman uci < commands.txt";

/// `stockman spsa --help`'s examples.
const SPSA_EXAMPLES: &str = "\
Examples:
  # OpenBench's SPSA input lines for every tunable search constant
  stockman spsa
  # Only the lines of the constants to tune, to paste into OpenBench
  stockman spsa | grep -E '^(RFP_MARGIN_PER_DEPTH|FUTILITY_BASE),'";

/// `stockman genfens --help`'s examples.
const GENFENS_EXAMPLES: &str = "\
Examples:
  # Ten openings, a few seeded random plies from the start position each
  stockman genfens 10 seed 3 book None
  # OpenBench's form: every argument with a blank in it is one UCI command
  stockman \"genfens 10 seed 3 book None\" \"quit\"";

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak UCI on stdin/stdout (the default without a subcommand).
    #[command(after_help = UCI_EXAMPLES)]
    Uci,
    /// Fixed-depth node signature over the bench positions (OpenBench reads the last line).
    Bench(stockman::bench::BenchArgs),
    /// Count leaf nodes of the legal move tree (per root move), or run an EPD perft suite.
    Perft(stockman::perft::PerftArgs),
    /// OpenBench's SPSA input: one line per tunable search constant
    /// (`name, int, value, min, max, step, learning rate`); a `--features spsa`
    /// build takes them as UCI options.
    #[command(after_help = SPSA_EXAMPLES)]
    Spsa,
    /// OpenBench's opening positions: `genfens N seed S book <None|FILE>`.
    #[command(after_help = GENFENS_EXAMPLES)]
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

/// The lab's subcommands, which live in the `stockman-lab` binary.
const LAB_SUBCOMMANDS: [&str; 9] = [
    "bstar",
    "compare",
    "trees",
    "datagen",
    "convert",
    "label",
    "tune",
    "train-net",
    "blend-net",
];

/// A lab subcommand given to the engine is a clear error that names the lab's
/// binary (clap would only call it unrecognised).
fn refuse_lab_subcommand(args: &[String]) -> Result<(), String> {
    match args.first() {
        Some(name) if LAB_SUBCOMMANDS.contains(&name.as_str()) => Err(format!(
            "`{name}` is a lab command: run `stockman-lab {name}` \
             (from the source tree: `cargo run --release -p stockman-lab -- {name}`)"
        )),
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
        Some(Command::Perft(a)) => stockman::perft::run(a),
        Some(Command::Spsa) => {
            let mut out = std::io::stdout().lock();
            stockman::search::tunables::TUNABLES
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
