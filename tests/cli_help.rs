//! Every subcommand's help through the real binary, as a user reads it:
//! `-h` and `--help` end with an "Examples:" block of commands to copy, and
//! no argument states its default twice (once in its doc comment, once as
//! clap's own `[default: X]`). The reading is `common::help_text`'s, which
//! the lab's help test shares.

mod common;

use common::cli::stockman;
use common::help_text::{
    assert_no_default_twice, entries, example_commands, examples, help, listed_subcommands,
};

/// The engine's subcommands.
const ENGINE: [&str; 5] = ["uci", "bench", "perft", "genfens", "spsa"];

#[test]
fn every_subcommand_help_ends_with_examples() {
    let listed = listed_subcommands(stockman);
    for engine in ENGINE {
        assert!(
            listed.iter().any(|c| c == engine),
            "{engine} not in {listed:?}"
        );
    }
    for subcommand in &listed {
        for flag in ["-h", "--help"] {
            let help = help(stockman, subcommand, flag);
            let commands = example_commands(&help);
            assert!(
                !commands.is_empty(),
                "{subcommand} {flag}: no Examples: block\n{help}"
            );
            for command in commands {
                // The engine's commands run from `stockman`; each example
                // runs this subcommand (genfens also shows OpenBench's
                // quoted form).
                let mut words = command.split_whitespace();
                assert_eq!(words.next(), Some("stockman"), "{subcommand} {flag}");
                assert!(
                    command.contains(subcommand.as_str()) || command == "stockman",
                    "{subcommand} {flag}: {command}"
                );
            }
        }
    }
}

#[test]
fn no_argument_states_its_default_twice() {
    for subcommand in listed_subcommands(stockman) {
        for flag in ["-h", "--help"] {
            assert_no_default_twice(&subcommand, flag, &help(stockman, &subcommand, flag));
        }
    }
}

/// `bench`'s depth is an `Option` (clap prints no default for it): its doc
/// comment states the default, which must be the one the code uses.
#[test]
fn bench_help_states_the_default_depth() {
    let help = help(stockman, "bench", "--help");
    let stated = format!("[default: {},", stockman::bench::DEFAULT_DEPTH);
    assert!(help.contains(&stated), "{stated} not in\n{help}");
}

/// The splitting that the default check relies on, on clap's layout.
#[test]
fn help_entries_split_at_each_argument() {
    let help = "Usage: stockman x [OPTIONS] [DEPTH]\n\nArguments:\n  [DEPTH]  Depth\n\n\
                Options:\n      --scale <SCALE>\n          S of the label [default: 350,\n          \
                where]\n\n          [default: 350]\n  -h, --help\n          Print help\n\n\
                Examples:\n  # Two\n  stockman x --scale 2\n";
    let entries = entries(help);
    assert_eq!(entries.len(), 4, "{entries:?}");
    assert!(entries[1].starts_with("  [DEPTH]"));
    assert!(entries[2].starts_with("      --scale"));
    assert_eq!(entries[2].matches("[default:").count(), 2);
    assert!(entries[3].starts_with("  -h, --help"));
    assert_eq!(examples(help), ["  # Two", "  stockman x --scale 2"]);
    assert_eq!(example_commands(help), ["stockman x --scale 2"]);
}
