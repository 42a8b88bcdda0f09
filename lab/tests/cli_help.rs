//! Every lab subcommand's help through the real `stockman-lab` binary, as a
//! user reads it: `-h` and `--help` end with an "Examples:" block of
//! commands to copy, and no argument states its default twice. The reading
//! is the engine's `tests/common/help_text.rs`, shared.

mod common;

use common::cli::lab;
use common::help_text::{assert_no_default_twice, example_commands, help, listed_subcommands};

/// The lab's subcommands.
const LAB: [&str; 9] = [
    "datagen",
    "convert",
    "label",
    "train-net",
    "blend-net",
    "tune",
    "trees",
    "bstar",
    "compare",
];

#[test]
fn every_subcommand_help_ends_with_examples() {
    let listed = listed_subcommands(lab);
    for lab in LAB {
        assert!(listed.iter().any(|c| c == lab), "{lab} not in {listed:?}");
    }
    for subcommand in &listed {
        for flag in ["-h", "--help"] {
            let help = help(lab, subcommand, flag);
            let commands = example_commands(&help);
            assert!(
                !commands.is_empty(),
                "{subcommand} {flag}: no Examples: block\n{help}"
            );
            for command in commands {
                // Each example runs this subcommand of the lab's binary.
                let mut words = command.split_whitespace();
                assert_eq!(words.next(), Some("stockman-lab"), "{subcommand} {flag}");
                assert_eq!(
                    words.next(),
                    Some(subcommand.as_str()),
                    "{subcommand} {flag}: {command}"
                );
            }
        }
    }
}

#[test]
fn no_argument_states_its_default_twice() {
    for subcommand in listed_subcommands(lab) {
        for flag in ["-h", "--help"] {
            assert_no_default_twice(&subcommand, flag, &help(lab, &subcommand, flag));
        }
    }
}
