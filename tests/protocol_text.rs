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

use std::path::Path;

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

/// The string literals of `src` (their text between the quotes, escapes
/// left as written), with the line each starts on; comments, character
/// literals and lifetimes skipped.
fn string_literals(src: &str) -> Vec<(String, usize)> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied().unwrap_or(' ');
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch == '/' && next == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if ch == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            let j = j.min(c.len());
            out.push((c[i + 1..j].iter().collect(), line));
            line += c[i..j].iter().filter(|&&x| x == '\n').count();
            i = j + 1;
        } else if ch == '\'' {
            if next == '\\' {
                // '\'' and '\u{..}': to the closing quote after the escape.
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3; // 'x', '"'
            } else {
                i += 1; // a lifetime
            }
        } else if ch.is_alphanumeric() || ch == '_' {
            // An identifier, or the prefix of a raw string (b"..." is a
            // string like any other: its quote comes next).
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            if (word == "r" || word == "br")
                && let Some((hashes, body)) = raw_start(&c, i)
            {
                let close: Vec<char> = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let mut j = body;
                while j < c.len() && !c[j..].starts_with(&close) {
                    j += 1;
                }
                let j = j.min(c.len());
                out.push((c[body..j].iter().collect(), line));
                line += c[i..j].iter().filter(|&&x| x == '\n').count();
                i = j + close.len();
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Just after an `r`: a raw string's number of `#`s and where its text
/// starts (not a raw identifier, `r#type`).
fn raw_start(c: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    while c.get(j) == Some(&'#') {
        j += 1;
    }
    (c.get(j) == Some(&'"')).then_some((j - i, j + 1))
}

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

fn rust_files(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

#[test]
fn protocol_lines_are_spelled_only_in_src_uci() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &root, &mut files);
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
