//! Every lab subcommand's help through the real `stockman-lab` binary, as a user reads it:
//! `-h` and `--help` end with an "Examples:" block of commands to copy, and
//! no argument states its default twice (once in its doc comment, once as
//! clap's own `[default: X]`).

mod common;

use common::cli::{lab, text};

/// The lab's subcommands.
const LAB: [&str; 8] = [
    "datagen",
    "convert",
    "label",
    "train-net",
    "tune",
    "trees",
    "bstar",
    "compare",
];

/// The subcommands `stockman-lab --help` lists (clap's `help` left out).
fn listed_subcommands() -> Vec<String> {
    let o = lab(&["--help"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout)
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

/// `stockman-lab <subcommand> <flag>`'s help text; fails the test if it fails.
fn help(subcommand: &str, flag: &str) -> String {
    let o = lab(&[subcommand, flag]);
    assert!(
        o.status.success(),
        "{subcommand} {flag}: {}",
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// The lines of the "Examples:" block: from that heading to the end.
fn examples(help: &str) -> Vec<&str> {
    help.lines()
        .skip_while(|l| *l != "Examples:")
        .skip(1)
        .collect()
}

/// The help split into one entry per argument, with the text before them
/// first: clap opens an argument's entry with its name (`-h, --help`,
/// `--scale <SCALE>`, `[DEPTH]`) indented by at most 6 spaces, and indents
/// the lines of its text by 10.
fn entries(help: &str) -> Vec<String> {
    let mut entries = vec![String::new()];
    for line in help.lines() {
        let name = line.trim_start();
        let indent = line.len() - name.len();
        if (1..=6).contains(&indent) && name.starts_with(['-', '<', '[']) {
            entries.push(String::new());
        }
        let last = entries.last_mut().unwrap();
        last.push_str(line);
        last.push('\n');
    }
    entries
}

#[test]
fn every_subcommand_help_ends_with_examples() {
    let listed = listed_subcommands();
    for lab in LAB {
        assert!(listed.iter().any(|c| c == lab), "{lab} not in {listed:?}");
    }
    for subcommand in &listed {
        for flag in ["-h", "--help"] {
            let help = help(subcommand, flag);
            let block = examples(&help);
            let commands: Vec<&str> = block
                .iter()
                .map(|l| l.trim())
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect();
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
    for subcommand in listed_subcommands() {
        for flag in ["-h", "--help"] {
            let help = help(&subcommand, flag);
            for entry in entries(&help) {
                assert!(
                    entry.to_lowercase().matches("default:").count() <= 1,
                    "{subcommand} {flag}: a default given twice:\n{entry}"
                );
            }
        }
    }
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
}
