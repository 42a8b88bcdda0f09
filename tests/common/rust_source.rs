//! The engine's own source, read by the tests that check how it is written
//! (tests/layout.rs: the module graph; tests/protocol_text.rs: where protocol
//! lines are spelled): the files of src/ and one small lexer for both.

use std::path::Path;

/// A token of Rust source: identifiers, string literals (their text between
/// the quotes, escapes as written), and the punctuation paths and `use`
/// trees need; comments, character literals and lifetimes leave none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Str(String),
    PathSep,
    Open,
    Close,
    Semi,
    Comma,
    Star,
    LParen,
    RParen,
    Other,
}

/// The tokens of `src`, each with the line it starts on.
pub fn lex(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let lines_in = |from: usize, to: usize| {
        c[from..to.min(c.len())]
            .iter()
            .filter(|&&ch| ch == '\n')
            .count()
    };
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied().unwrap_or(' ');
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == '*' {
            let (start, mut depth) = (i, 0);
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
                    i += 1;
                }
            }
            line += lines_in(start, i);
        } else if let Some((hashes, body)) = raw_string_start(&c, i) {
            let mut end = body;
            while end < c.len()
                && !(c[end] == '"' && (0..hashes).all(|k| c.get(end + 1 + k) == Some(&'#')))
            {
                end += 1;
            }
            let end = end.min(c.len());
            out.push((Tok::Str(c[body..end].iter().collect()), line));
            line += lines_in(i, end);
            i = end + 1 + hashes;
        } else if ch == '"' || (ch == 'b' && next == '"') {
            let body = i + if ch == 'b' { 2 } else { 1 };
            let mut end = body;
            while end < c.len() && c[end] != '"' {
                end += if c[end] == '\\' { 2 } else { 1 };
            }
            let end = end.min(c.len());
            out.push((Tok::Str(c[body..end].iter().collect()), line));
            line += lines_in(i, end);
            i = end + 1;
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
        } else if ch.is_alphabetic() || ch == '_' || (ch == '$' && next.is_alphabetic()) {
            let start = i;
            i += 1;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            // A macro's `$crate` is `crate`.
            let word = if word == "$crate" {
                "crate".to_string()
            } else {
                word
            };
            out.push((Tok::Ident(word), line));
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Other, line));
        } else {
            let tok = match ch {
                ':' if next == ':' => {
                    i += 1;
                    Tok::PathSep
                }
                '{' => Tok::Open,
                '}' => Tok::Close,
                ';' => Tok::Semi,
                ',' => Tok::Comma,
                '*' => Tok::Star,
                '(' => Tok::LParen,
                ')' => Tok::RParen,
                _ => Tok::Other,
            };
            i += 1;
            out.push((tok, line));
        }
    }
    out
}

/// A raw string at `i` (`r"`, `r#"`, `br##"`..., not inside an identifier
/// and not a raw identifier such as `r#type`): its number of `#`s and where
/// its text starts.
fn raw_string_start(c: &[char], i: usize) -> Option<(usize, usize)> {
    if i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_') {
        return None;
    }
    let r = match (c.get(i), c.get(i + 1)) {
        (Some('r'), _) => i,
        (Some('b'), Some('r')) => i + 1,
        _ => return None,
    };
    let mut j = r + 1;
    while c.get(j) == Some(&'#') {
        j += 1;
    }
    (c.get(j) == Some(&'"')).then_some((j - r - 1, j + 1))
}

/// The string literals of `src` with the line each starts on.
pub fn string_literals(src: &str) -> Vec<(String, usize)> {
    lex(src)
        .into_iter()
        .filter_map(|(tok, line)| match tok {
            Tok::Str(text) => Some((text, line)),
            _ => None,
        })
        .collect()
}

/// Every `.rs` file under src/, as (path relative to src/ with `/`, text),
/// sorted by path.
pub fn crate_sources() -> Vec<(String, String)> {
    sources_under("src")
}

/// Every `.rs` file under `dir` (relative to the repository root, e.g. the
/// lab crate's `lab/src`), as (path relative to `dir`, text), sorted by path.
pub fn sources_under(dir: &str) -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files = Vec::new();
    collect(&src, &src, &mut files);
    files.sort();
    files
}

fn collect(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, root, out);
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
