//! Finding Syzygy table files: the directories of a `SyzygyPath` value, the
//! table files in each (by name), and which of them are usable regular files.
//! Every problem becomes a message; nothing here fails the caller.

use std::path::{Path, PathBuf};

/// The separator of directories in `SyzygyPath` (Stockfish's convention).
#[cfg(windows)]
pub const PATH_SEPARATOR: char = ';';
#[cfg(not(windows))]
pub const PATH_SEPARATOR: char = ':';

/// What `SyzygyPath` means when it names no directory.
pub const EMPTY_PATH: &str = "<empty>";

/// The table files found and the problems met on the way.
#[derive(Debug, Default)]
pub struct Found {
    pub files: Vec<PathBuf>,
    pub problems: Vec<String>,
}

/// The directories named by a `SyzygyPath` value (none for `<empty>`).
pub fn directories(value: &str) -> Vec<PathBuf> {
    let value = value.trim();
    if value.is_empty() || value.eq_ignore_ascii_case(EMPTY_PATH) {
        return Vec::new();
    }
    value
        .split(PATH_SEPARATOR)
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// Is `name` a Syzygy table file name of regular chess (`KQvKR.rtbw`)?
pub fn is_table_name(path: &Path) -> bool {
    let ext_ok = path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz");
    let stem_ok = path.file_stem().and_then(|s| s.to_str()).is_some_and(|s| {
        let mut sides = s.split('v');
        let side_ok = |p: Option<&str>| {
            p.is_some_and(|p| p.starts_with('K') && p.chars().all(|c| "KQRBNP".contains(c)))
        };
        side_ok(sides.next()) && side_ok(sides.next()) && sides.next().is_none()
    });
    ext_ok && stem_ok
}

/// Lists the table files of every directory in `value`: regular files only
/// (a FIFO or a device of a table's name is reported and left out).
pub fn find(value: &str) -> Found {
    let mut found = Found::default();
    for dir in directories(value) {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                found
                    .problems
                    .push(format!("cannot read directory {}: {e}", dir.display()));
                continue;
            }
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| is_table_name(p))
            .collect();
        files.sort();
        for path in files {
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => found.files.push(path),
                Ok(_) => found
                    .problems
                    .push(format!("{} is not a regular file; skipped", path.display())),
                Err(e) => found
                    .problems
                    .push(format!("cannot read {}: {e}; skipped", path.display())),
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_value_splits_into_directories() {
        assert!(directories("<empty>").is_empty());
        assert!(directories("  ").is_empty());
        let sep = PATH_SEPARATOR;
        assert_eq!(
            directories(&format!("/a{sep} /b {sep}{sep}")),
            vec![PathBuf::from("/a"), PathBuf::from("/b")]
        );
    }

    #[test]
    fn only_table_names_are_tables() {
        for good in ["KQvK.rtbw", "KRPvKR.rtbz", "KvK.rtbw"] {
            assert!(is_table_name(Path::new(good)), "{good}");
        }
        for bad in [
            "KQvK.txt",
            "README.md",
            "QvK.rtbw",
            "KQvKvK.rtbw",
            "KXvK.rtbw",
        ] {
            assert!(!is_table_name(Path::new(bad)), "{bad}");
        }
    }

    #[test]
    fn a_missing_directory_is_a_problem_not_a_failure() {
        let found = find("/no/such/dir/for/stockman");
        assert!(found.files.is_empty());
        assert_eq!(found.problems.len(), 1);
    }
}
