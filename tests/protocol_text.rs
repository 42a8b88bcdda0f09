//! Where the protocol's text is spelled: every line the engine writes on
//! stdout (`id`, `option`, `uciok`, `readyok`, `info ...`, `bestmove`) is
//! formatted in src/uci/ (`uci::protocol`), so that one file shows what the
//! engine says. No string literal elsewhere in the engine may start like a
//! protocol line.
//!
//! The words of `info string` messages are covered too: they are spelled in
//! `uci::notice`, and elsewhere the engine only picks a `Notice`. No call of
//! `info_string(` (or `Notice::Relayed(`, text made elsewhere) outside
//! src/uci/ may hold a string literal or a `format!`; a variable passed
//! through (an error text made where the error was) is allowed.
//!
//! Left out: src/uci/ itself, the lab (src/tune/ and src/research/, which
//! talk to other engines as their client and so read these words), and unit
//! tests (from a file's `#[cfg(test)]` module on), which may quote lines.
//! The scanner is small: the last tests hold it to made-up files.

mod common;

use common::rust_source::{Tok, crate_sources, lex, string_literals};

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

/// Calls whose argument is the text of an `info string` message: outside
/// the exempt folders that text is a `Notice`'s, or passed through.
const MESSAGE_SINKS: [&str; 2] = ["info_string", "Relayed"];

/// A file's code before its unit tests.
fn without_tests(src: &str) -> &str {
    match src.find("#[cfg(test)]") {
        Some(at) => &src[..at],
        None => src,
    }
}

/// The literals of one file outside its unit tests that read like protocol
/// lines, as `file:line: "text"`.
fn protocol_literals(name: &str, src: &str) -> Vec<String> {
    string_literals(without_tests(src))
        .into_iter()
        .filter(|(text, _)| PROTOCOL_STARTS.iter().any(|p| text.starts_with(p)))
        .map(|(text, line)| format!("{name}:{line}: \"{text}\""))
        .collect()
}

/// The calls of one file outside its unit tests that spell an `info string`
/// message (a string literal or a `format!` in the argument of a
/// `MESSAGE_SINKS` call), as `file:line: sink(what)`.
fn spelled_messages(name: &str, src: &str) -> Vec<String> {
    let toks = lex(without_tests(src));
    let mut found = Vec::new();
    for (i, (tok, line)) in toks.iter().enumerate() {
        let Tok::Ident(sink) = tok else { continue };
        if !MESSAGE_SINKS.contains(&sink.as_str())
            || toks.get(i + 1).map(|t| &t.0) != Some(&Tok::LParen)
        {
            continue;
        }
        // The argument: to the matching `)`.
        let (mut depth, mut literal, mut format) = (0, None, false);
        for (j, (t, _)) in toks.iter().enumerate().skip(i + 1) {
            match t {
                Tok::LParen => depth += 1,
                Tok::RParen => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Str(text) => literal = literal.or(Some(text)),
                Tok::Ident(m) if m == "format" => {
                    format |= toks.get(j + 2).map(|t| &t.0) == Some(&Tok::LParen)
                }
                _ => {}
            }
        }
        // The literal says best which message it is.
        let spelled = match literal {
            Some(text) => Some(format!("\"{text}\"")),
            None => format.then(|| "format!".to_string()),
        };
        if let Some(what) = spelled {
            found.push(format!("{name}:{line}: {sink}({what})"));
        }
    }
    found
}

#[test]
fn protocol_lines_are_spelled_only_in_src_uci() {
    let files = crate_sources();
    assert!(files.iter().any(|(name, _)| name == "uci/protocol.rs"));
    let checked: Vec<&(String, String)> = files
        .iter()
        .filter(|(name, _)| !EXEMPT.iter().any(|e| name.starts_with(e)))
        .collect();
    let found: Vec<String> = checked
        .iter()
        .flat_map(|(name, src)| protocol_literals(name, src))
        .collect();
    assert!(
        found.is_empty(),
        "protocol text outside src/uci/ (write it with a function of uci::protocol):\n{}",
        found.join("\n")
    );
    // Nor the words of an `info string` message.
    let spelled: Vec<String> = checked
        .iter()
        .flat_map(|(name, src)| spelled_messages(name, src))
        .collect();
    assert!(
        spelled.is_empty(),
        "info string wording outside src/uci/ (add a uci::notice::Notice and send it with Output::notice):\n{}",
        spelled.join("\n")
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

#[test]
fn the_message_check_refuses_words_and_accepts_notices() {
    let src = r##"
fn f(out: &Output, y: u32, message: &str) {
    out.info_string("x");
    out.info_string(&format!("x {y}"));
    out.notice(Notice::X);
    out.notice(Notice::Y { depth: y });
    out.notice(Notice::Relayed(message));
    out.info_string(message);
    out.notice(Notice::Relayed(&format!("{y} nodes")));
    self.out
        .info_string(&format!(
            "{} moves",
            y
        ));
    out.line(&protocol::bestmove("e2e4", None));
}
#[cfg(test)]
mod tests {
    fn t(out: &Output) {
        out.info_string("quoted in a test");
    }
}
"##;
    let found = spelled_messages("f.rs", src);
    assert_eq!(
        found,
        [
            "f.rs:3: info_string(\"x\")",
            "f.rs:4: info_string(\"x {y}\")",
            "f.rs:9: Relayed(\"{y} nodes\")",
            "f.rs:11: info_string(\"{} moves\")",
        ],
        "{found:?}"
    );
    // `format!` with no literal of its own (its format string a constant).
    let found = spelled_messages("g.rs", "out.info_string(&format!(WORDS, y));");
    assert_eq!(found, ["g.rs:1: info_string(format!)"], "{found:?}");
}
