//! Reading a binary's `--help` as a user does, for the engine's and the
//! lab's help tests: the subcommands it lists, one subcommand's help, its
//! "Examples:" block and its per-argument entries. `run` runs the binary
//! under test with the given arguments.
#![allow(dead_code)]

use std::process::Output;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The subcommands `<binary> --help` lists (clap's `help` left out).
pub fn listed_subcommands(run: fn(&[&str]) -> Output) -> Vec<String> {
    let o = run(&["--help"]);
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

/// `<binary> <subcommand> <flag>`'s help text; fails the test if it fails.
pub fn help(run: fn(&[&str]) -> Output, subcommand: &str, flag: &str) -> String {
    let o = run(&[subcommand, flag]);
    assert!(
        o.status.success(),
        "{subcommand} {flag}: {}",
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// The lines of the "Examples:" block: from that heading to the end.
pub fn examples(help: &str) -> Vec<&str> {
    help.lines()
        .skip_while(|l| *l != "Examples:")
        .skip(1)
        .collect()
}

/// The commands of the "Examples:" block (its comment lines left out).
pub fn example_commands(help: &str) -> Vec<&str> {
    examples(help)
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The help split into one entry per argument, with the text before them
/// first: clap opens an argument's entry with its name (`-h, --help`,
/// `--scale <SCALE>`, `[DEPTH]`) indented by at most 6 spaces, and indents
/// the lines of its text by 10.
pub fn entries(help: &str) -> Vec<String> {
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

/// Fails the test when an argument's entry states its default twice (once
/// in its doc comment, once as clap's own `[default: X]`).
pub fn assert_no_default_twice(subcommand: &str, flag: &str, help: &str) {
    for entry in entries(help) {
        assert!(
            entry.to_lowercase().matches("default:").count() <= 1,
            "{subcommand} {flag}: a default given twice:\n{entry}"
        );
    }
}
