//! Where the protocol's text is spelled: every line the engine writes on
//! stdout (`id`, `option`, `uciok`, `readyok`, `info ...`, `bestmove`) is
//! formatted in src/uci/ (`uci::protocol`), so that one file shows what the
//! engine says. No string literal elsewhere in the engine may start like a
//! protocol line.
//!
//! Left out: src/uci/ itself, the lab (src/tune/ and src/research/, which
//! talk to other engines as their client and so read these words), and unit
//! tests (from a file's `#[cfg(test)]` module on), which may quote lines.
//! The scanner is small: the last tests hold it to made-up files.

mod common;

use common::rust_source::{crate_sources, string_literals};

/// How a protocol line the engine writes begins.
const PROTOCOL_STARTS: [&str; 7] = [
    "bestmove",
    "readyok",
    "uciok",
    "info ",
    "id name",
    "id author",
    "option name",
];

/// Folders of src/ whose files are not checked.
const EXEMPT: [&str; 3] = ["uci/", "tune/", "research/"];

/// The literals of one file outside its unit tests that read like protocol
/// lines, as `file:line: "text"`.
fn protocol_literals(name: &str, src: &str) -> Vec<String> {
    let code = match src.find("#[cfg(test)]") {
        Some(at) => &src[..at],
        None => src,
    };
    string_literals(code)
        .into_iter()
        .filter(|(text, _)| PROTOCOL_STARTS.iter().any(|p| text.starts_with(p)))
        .map(|(text, line)| format!("{name}:{line}: \"{text}\""))
        .collect()
}

#[test]
fn protocol_lines_are_spelled_only_in_src_uci() {
    let files = crate_sources();
    assert!(files.iter().any(|(name, _)| name == "uci/protocol.rs"));
    let found: Vec<String> = files
        .iter()
        .filter(|(name, _)| !EXEMPT.iter().any(|e| name.starts_with(e)))
        .flat_map(|(name, src)| protocol_literals(name, src))
        .collect();
    assert!(
        found.is_empty(),
        "protocol text outside src/uci/ (write it with a function of uci::protocol):\n{}",
        found.join("\n")
    );
    // The checker sees the ones src/uci/ does spell.
    let protocol = &files
        .iter()
        .find(|(n, _)| n == "uci/protocol.rs")
        .unwrap()
        .1;
    let spelled = protocol_literals("uci/protocol.rs", protocol);
    for start in ["bestmove", "readyok", "uciok", "info string", "id name"] {
        assert!(
            spelled.iter().any(|l| l.contains(&format!("\"{start}"))),
            "{start} not found in uci/protocol.rs: {spelled:?}"
        );
    }
}

#[test]
fn the_scanner_finds_literals_and_skips_comments_chars_and_tests() {
    let src = r##"
// "bestmove in a comment"
/* "uciok" /* nested */ "readyok" */
fn f<'a>(x: &'a str) -> char {
    let q = '"';
    let e = '\'';
    out.line(&format!("bestmove {mv}"));
    let s = "escaped \" quote";
    let r = r#"info string raw "quoted""#;
    let b = b"readyok";
    let multi = "two
lines";
    let after = "option name X";
    'x'
}
#[cfg(test)]
mod tests {
    const T: &str = "bestmove e2e4";
}
"##;
    let literals: Vec<String> = string_literals(src).into_iter().map(|(t, _)| t).collect();
    assert!(
        literals.contains(&"bestmove {mv}".to_string()),
        "{literals:?}"
    );
    assert!(literals.contains(&r#"escaped \" quote"#.to_string()));
    assert!(literals.contains(&r#"info string raw "quoted""#.to_string()));
    assert!(literals.contains(&"readyok".to_string()));
    assert!(
        !literals
            .iter()
            .any(|l| l.contains("comment") || l == "uciok")
    );
    let found = protocol_literals("f.rs", src);
    assert_eq!(
        found,
        [
            "f.rs:7: \"bestmove {mv}\"",
            "f.rs:9: \"info string raw \"quoted\"\"",
            "f.rs:10: \"readyok\"",
            "f.rs:13: \"option name X\"",
        ],
        "{found:?}"
    );
}
