//! The layout of both crates, the engine (src/) and the lab (lab/src/):
//! imports run one way in every folder. Every file's `use` lines and
//! `crate::`/`super::`/`self::` paths give a module dependency graph; for
//! each folder module (the crate root, search, search::node, eval, ...) the
//! graph among its direct children may have no cycle. That the engine never
//! imports the lab needs no test: the lab is another crate that depends on it.
//!
//! A path through a re-export (`crate::search::Limits`, which search/mod.rs
//! re-exports from `crate::search::limits`) counts as an import of the module that
//! defines the item; a re-export itself counts only where the re-exporting
//! file also uses the name. The checker is a small lexer, not a Rust parser:
//! the last tests hold it to small made-up crates that it must refuse.

mod common;

use common::rust_source::{self, Tok, crate_sources, sources_under};
use std::collections::{BTreeMap, BTreeSet};

// ---------------------------------------------------------------------------
// Lexing (tests/common/rust_source.rs): identifiers and the punctuation that
// paths and `use` trees need; comments, strings and character literals skipped.

/// The tokens the graph needs: string literals leave none.
fn lex(src: &str) -> Vec<(Tok, usize)> {
    rust_source::lex(src)
        .into_iter()
        .filter(|(tok, _)| !matches!(tok, Tok::Str(_)))
        .collect()
}

// ---------------------------------------------------------------------------
// Reading one file: the paths it names, and what it re-exports.

/// A path named in a file, from the module it is written in.
#[derive(Clone, Debug)]
struct PathRef {
    /// The module the path is written in (the file's module plus inline `mod`s).
    scope: Vec<String>,
    segments: Vec<String>,
    line: usize,
    /// Set for a `pub use`: the name it re-exports under.
    reexport_as: Option<String>,
}

#[derive(Debug, Default)]
struct FileRefs {
    refs: Vec<PathRef>,
    /// Identifiers used outside `use` declarations.
    idents: BTreeSet<String>,
    /// `#[macro_export]` macros: exported at the crate root.
    exported_macros: Vec<String>,
}

fn ident(toks: &[(Tok, usize)], i: usize) -> Option<&str> {
    match toks.get(i) {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

/// One `use` tree starting at `i`: its paths (with the name each one binds)
/// appended to `out`; returns the index after the tree.
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    let mut path = prefix.to_vec();
    if toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep) {
        i += 1;
    }
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                i += 1;
                if toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep) {
                    i += 1;
                    continue;
                }
                let mut name = path.last().cloned();
                if ident(toks, i) == Some("as") {
                    name = ident(toks, i + 1).map(str::to_string);
                    i += 2;
                }
                if name.as_deref() == Some("self") {
                    path.pop();
                    name = path.last().cloned();
                }
                out.push((path, name));
                return i;
            }
            Some(Tok::Star) => {
                out.push((path, None));
                return i + 1;
            }
            Some(Tok::Open) => {
                i += 1;
                while !matches!(toks.get(i).map(|t| &t.0), Some(Tok::Close) | None) {
                    i = use_tree(toks, i, &path, out);
                    if toks.get(i).map(|t| &t.0) == Some(&Tok::Comma) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            _ => return i + 1,
        }
    }
}

/// The paths of one file whose module is `module` (`children`: the modules
/// that exist, so that `child::item` in a parent is recognised).
fn read_file(module: &[String], src: &str, modules: &BTreeSet<Vec<String>>) -> FileRefs {
    let toks = lex(src);
    let mut refs = FileRefs::default();
    // Inline modules: (brace depth inside them, name).
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    let scope_of = |inline: &[(usize, String)]| {
        let mut s = module.to_vec();
        s.extend(inline.iter().map(|(_, n)| n.clone()));
        s
    };
    while i < toks.len() {
        let (tok, line) = (&toks[i].0, toks[i].1);
        match tok {
            Tok::Open => depth += 1,
            Tok::Close => {
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some(name), Some((Tok::Open, _))) = (ident(&toks, i + 1), toks.get(i + 2)) {
                    inline.push((depth + 1, name.to_string()));
                }
            }
            Tok::Ident(w) if w == "macro_rules" => {
                let exported =
                    (1..=8).any(|k| i >= k && ident(&toks, i - k) == Some("macro_export"));
                if let (true, Some(name)) = (exported, ident(&toks, i + 2)) {
                    refs.exported_macros.push(name.to_string());
                }
            }
            Tok::Ident(w) if w == "use" => {
                let public = i >= 1 && ident(&toks, i - 1) == Some("pub")
                    || i >= 4 && toks[i - 1].0 == Tok::RParen && ident(&toks, i - 4) == Some("pub");
                let mut trees = Vec::new();
                let mut j = i + 1;
                while j < toks.len() && toks[j].0 != Tok::Semi {
                    j = use_tree(&toks, j, &[], &mut trees);
                }
                let scope = scope_of(&inline);
                for (segments, name) in trees {
                    refs.refs.push(PathRef {
                        scope: scope.clone(),
                        segments,
                        line,
                        reexport_as: if public && inline.is_empty() {
                            name
                        } else {
                            None
                        },
                    });
                }
                i = j + 1;
                continue;
            }
            Tok::Ident(w) => {
                refs.idents.insert(w.clone());
                let starts_path = i == 0 || toks[i - 1].0 != Tok::PathSep;
                let scope = scope_of(&inline);
                let anchored = matches!(w.as_str(), "crate" | "super" | "self") || {
                    let mut child = scope.clone();
                    child.push(w.clone());
                    modules.contains(&child)
                };
                if starts_path && anchored && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::PathSep) {
                    let mut segments = vec![w.clone()];
                    let mut j = i + 1;
                    while toks.get(j).map(|t| &t.0) == Some(&Tok::PathSep) {
                        match ident(&toks, j + 1) {
                            Some(s) => segments.push(s.to_string()),
                            None => break,
                        }
                        j += 2;
                    }
                    refs.refs.push(PathRef {
                        scope,
                        segments,
                        line,
                        reexport_as: None,
                    });
                    i = j;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    refs
}

// ---------------------------------------------------------------------------
// The crate: modules, re-exports, and what each path resolves to.

struct Crate {
    /// Module path (from the crate root) of each file, and what it names.
    files: BTreeMap<String, (Vec<String>, FileRefs)>,
    modules: BTreeSet<Vec<String>>,
    /// (module, name) -> the absolute path it re-exports.
    reexports: BTreeMap<(Vec<String>, String), Vec<String>>,
}

/// The module of a file (relative to src/, with `/`): `search/node.rs` is
/// search::node, `search/mod.rs` is search, `lib.rs` the crate root.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if parts.last().is_some_and(|p| p == "mod") || parts == ["lib"] {
        parts.pop();
    }
    parts
}

impl Crate {
    /// `files`: (path relative to src/, text). main.rs, the binary, is left out.
    fn new(files: &[(String, String)]) -> Crate {
        let files: Vec<&(String, String)> =
            files.iter().filter(|(rel, _)| rel != "main.rs").collect();
        let modules: BTreeSet<Vec<String>> = files.iter().map(|(rel, _)| module_of(rel)).collect();
        let mut krate = Crate {
            files: BTreeMap::new(),
            modules,
            reexports: BTreeMap::new(),
        };
        for (rel, text) in files {
            let module = module_of(rel);
            let refs = read_file(&module, text, &krate.modules);
            krate.files.insert(rel.clone(), (module, refs));
        }
        let mut reexports = BTreeMap::new();
        for (module, refs) in krate.files.values() {
            for r in &refs.refs {
                if let (Some(name), Some(target)) =
                    (&r.reexport_as, krate.absolute(&r.scope, &r.segments))
                {
                    reexports.insert((module.clone(), name.clone()), target);
                }
            }
            for name in &refs.exported_macros {
                let mut target = module.clone();
                target.push(name.clone());
                reexports.insert((Vec::new(), name.clone()), target);
            }
        }
        krate.reexports = reexports;
        krate
    }

    /// The path from the crate root, or `None` for another crate's path.
    fn absolute(&self, scope: &[String], segments: &[String]) -> Option<Vec<String>> {
        let first = segments.first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" => scope.to_vec(),
            "super" => scope.to_vec(),
            _ => {
                let mut child = scope.to_vec();
                child.push(first.clone());
                if !self.modules.contains(&child) {
                    return None;
                }
                let mut abs = scope.to_vec();
                abs.extend(segments.iter().cloned());
                return Some(abs);
            }
        };
        let mut rest = &segments[1..];
        if first == "super" {
            base.pop();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The file module that defines what `abs` names, through re-exports.
    fn defining_module(&self, abs: &[String]) -> Vec<String> {
        let mut path = abs.to_vec();
        for _ in 0..16 {
            let mut module: Vec<String> = Vec::new();
            while module.len() < path.len() {
                let mut longer = module.clone();
                longer.push(path[module.len()].clone());
                if !self.modules.contains(&longer) {
                    break;
                }
                module = longer;
            }
            let Some(name) = path.get(module.len()) else {
                return module;
            };
            match self.reexports.get(&(module.clone(), name.clone())) {
                Some(target) if target != &path[..=module.len()] => {
                    let mut next = target.clone();
                    next.extend(path[module.len() + 1..].iter().cloned());
                    path = next;
                }
                _ => return module,
            }
        }
        panic!("re-exports go round in circles at {}", abs.join("::"));
    }

    /// Every import: (from module, to module, "file:line path").
    fn imports(&self) -> Vec<(Vec<String>, Vec<String>, String)> {
        let mut out = Vec::new();
        for (rel, (module, refs)) in &self.files {
            for r in &refs.refs {
                if let Some(name) = &r.reexport_as
                    && !refs.idents.contains(name)
                {
                    continue; // re-exported, not used here
                }
                let Some(abs) = self.absolute(&r.scope, &r.segments) else {
                    continue;
                };
                let to = self.defining_module(&abs);
                if !to.is_empty() && &to != module {
                    let at = format!("src/{rel}:{} {}", r.line, r.segments.join("::"));
                    out.push((module.clone(), to, at));
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------
// The graphs and the rules.

type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The child of `folder` that module `m` lies in (`m` itself when it is
/// that child), as a path; `None` for a module outside `folder` or `folder`
/// itself.
fn child_of(folder: &[String], m: &[String]) -> Option<String> {
    (m.len() > folder.len() && m.starts_with(folder)).then(|| m[..=folder.len()].join("::"))
}

/// The graph among the direct children of `folder`: an import from a module
/// under one child to a module under another is an arrow between the two.
fn folder_graph(imports: &[(Vec<String>, Vec<String>, String)], folder: &[String]) -> Graph {
    let mut g = Graph::new();
    for (from, to, at) in imports {
        if let (Some(a), Some(b)) = (child_of(folder, from), child_of(folder, to))
            && a != b
        {
            g.entry(a)
                .or_default()
                .entry(b)
                .or_insert_with(|| at.clone());
        }
    }
    g
}

/// The groups of modules that import each other round in a circle (the
/// strongly connected components of more than one module), by Tarjan's
/// algorithm.
fn circles(g: &Graph) -> Vec<BTreeSet<String>> {
    struct Tarjan<'g> {
        g: &'g Graph,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        found: Vec<BTreeSet<String>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, n: &str) {
            let i = self.index.len();
            self.index.insert(n.to_string(), i);
            self.low.insert(n.to_string(), i);
            self.stack.push(n.to_string());
            let g = self.g;
            for next in g.get(n).into_iter().flat_map(|e| e.keys()) {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[n].min(self.low[next]);
                    self.low.insert(n.to_string(), low);
                } else if self.stack.contains(next) {
                    let low = self.low[n].min(self.index[next]);
                    self.low.insert(n.to_string(), low);
                }
            }
            if self.low[n] == self.index[n] {
                let at = self.stack.iter().position(|s| s == n).unwrap();
                let group: BTreeSet<String> = self.stack.split_off(at).into_iter().collect();
                if group.len() > 1 {
                    self.found.push(group);
                }
            }
        }
    }
    let mut t = Tarjan {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for n in g.keys() {
        if !t.index.contains_key(n) {
            t.visit(n);
        }
    }
    t.found
}

/// The imports among one circle of modules, each with where it is made.
fn describe_circle(g: &Graph, group: &BTreeSet<String>) -> String {
    let mut steps = Vec::new();
    for a in group {
        for (b, at) in g.get(a).into_iter().flatten() {
            if group.contains(b) {
                steps.push(format!("  {a} -> {b}  ({at})"));
            }
        }
    }
    format!(
        "modules that import each other in a circle:\n{}",
        steps.join("\n")
    )
}

/// The folder modules of a crate: the root and every module with children.
fn folders(krate: &Crate) -> Vec<Vec<String>> {
    let mut folders: BTreeSet<Vec<String>> = BTreeSet::from([Vec::new()]);
    for m in &krate.modules {
        for len in 1..m.len() {
            folders.insert(m[..len].to_vec());
        }
    }
    folders.into_iter().collect()
}

/// What is wrong with the layout of these files (none: all is well).
fn problems(files: &[(String, String)]) -> Vec<String> {
    let krate = Crate::new(files);
    let imports = krate.imports();
    let mut found = Vec::new();
    for folder in folders(&krate) {
        let g = folder_graph(&imports, &folder);
        let name = if folder.is_empty() {
            "the crate root".to_string()
        } else {
            folder.join("::")
        };
        for group in circles(&g) {
            found.push(format!("in {name}: {}", describe_circle(&g, &group)));
        }
    }
    found
}

#[test]
fn imports_run_one_way_in_every_folder_of_the_engine() {
    let found = problems(&crate_sources());
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn imports_run_one_way_in_every_folder_of_the_lab() {
    let found = problems(&sources_under("lab/src"));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_graph_sees_the_imports_it_should() {
    // If the reader missed most imports, no cycle would ever be found.
    let edge = |files: &[(String, String)], folder: &[&str], a: &str, b: &str| {
        let krate = Crate::new(files);
        let folder: Vec<String> = folder.iter().map(|s| s.to_string()).collect();
        let g = folder_graph(&krate.imports(), &folder);
        assert!(
            g.get(a).is_some_and(|e| e.contains_key(b)),
            "no import {a} -> {b} found in {folder:?}"
        );
    };
    let engine = crate_sources();
    for (folder, a, b) in [
        (&[][..], "session", "search"),
        (&[][..], "search", "tt"),
        (&[][..], "session", "uci"),
        (&["search"][..], "search::node", "search::ordering"),
        (&["search"][..], "search::time", "search::limits"),
        (&["search"][..], "search::ordering", "search::history"),
        (&["search"][..], "search::backends", "search::node"),
        (
            &["search", "threads"][..],
            "search::threads::pool",
            "search::threads::turns",
        ),
        (&["session"][..], "session::engine", "session::search_job"),
        (&["eval"][..], "eval::weights", "eval::tapered"),
        (&["uci"][..], "uci::protocol", "uci::options"),
    ] {
        edge(&engine, folder, a, b);
    }
    let lab = sources_under("lab/src");
    for (folder, a, b) in [
        (&[][..], "train", "data"),
        (&[][..], "research", "progress"),
        (&["research"][..], "research::bstar", "research::trees"),
        (
            &["research", "trees"][..],
            "research::trees::sss",
            "research::trees::open_list",
        ),
    ] {
        edge(&lab, folder, a, b);
    }
}

fn made_up(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

#[test]
fn a_top_level_cycle_is_refused() {
    let found = problems(&made_up(&[
        ("lib.rs", "pub mod a;\npub mod b;\n"),
        ("a.rs", "use crate::b::Thing;\n"),
        ("b/mod.rs", "pub mod inner;\npub use inner::Thing;\n"),
        // Through a re-export, a comment and a string that must not count.
        (
            "b/inner.rs",
            "// crate::a::nothing\nconst S: &str = \"crate::a::x\";\npub fn f() { crate::a::g() }\n",
        ),
    ]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("a -> b") && found[0].contains("b -> a"),
        "{found:?}"
    );
}

#[test]
fn a_cycle_inside_search_is_refused() {
    let found = problems(&made_up(&[
        ("lib.rs", "pub mod search;\n"),
        ("search/mod.rs", "pub mod x;\npub mod y;\npub use x::X;\n"),
        ("search/x.rs", "use super::y::{self, Y};\npub struct X;\n"),
        (
            "search/y.rs",
            "pub struct Y;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\nfn f() -> super::X { todo!() }\n",
        ),
    ]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("search::x -> search::y"), "{found:?}");
}

#[test]
fn a_cycle_in_a_deeper_folder_is_refused() {
    let found = problems(&made_up(&[
        ("lib.rs", "pub mod session;\n"),
        ("session/mod.rs", "pub mod threads;\n"),
        ("session/threads/mod.rs", "pub mod pool;\npub mod turns;\n"),
        (
            "session/threads/pool.rs",
            "use super::turns::Turn;\npub struct Pool;\n",
        ),
        (
            "session/threads/turns.rs",
            "pub struct Turn;\nfn f(_: crate::session::threads::pool::Pool) {}\n",
        ),
    ]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("in session::threads")
            && found[0].contains("session::threads::pool -> session::threads::turns"),
        "{found:?}"
    );
}

#[test]
fn inline_modules_and_raw_strings_do_not_confuse_the_reader() {
    let found = problems(&made_up(&[
        ("lib.rs", "pub mod a;\npub mod b;\n"),
        (
            "a.rs",
            "use crate::b::B;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::b;\n}\n",
        ),
        (
            "b.rs",
            "pub struct B;\nconst R: &str = r#\"use crate::a::A; \"#;\nfn f<'a>(c: &'a char) -> char { let _ = 'x'; '{' }\n",
        ),
    ]));
    assert!(found.is_empty(), "{found:?}");
}
