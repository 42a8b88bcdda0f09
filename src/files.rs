//! Files the engine reads and writes. Reads accept only regular files (a FIFO,
//! a terminal or /dev/zero would block or never end) and stop at a size limit;
//! writes go to `NAME.partial`, renamed to `NAME` only when complete.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The most a text input (EPD, PGN, data) may hold: far above any real one.
pub const MAX_TEXT_BYTES: u64 = 4 << 30;

/// Opens `path` for reading if it is a regular file of at most `max_bytes`.
/// The type is checked before opening (opening a FIFO blocks) and again on
/// the open file.
pub fn open_regular(path: &Path, max_bytes: u64) -> Result<File, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    check_meta(&meta, path, max_bytes)?;
    let file = File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    check_meta(&meta, path, max_bytes)?;
    Ok(file)
}

fn check_meta(meta: &std::fs::Metadata, path: &Path, max_bytes: u64) -> Result<(), String> {
    let shown = path.display();
    if meta.is_dir() {
        return Err(format!("{shown} is a directory, not a file"));
    }
    if !meta.is_file() {
        return Err(format!(
            "{shown} is not a regular file (a device, pipe or socket)"
        ));
    }
    if meta.len() > max_bytes {
        return Err(format!(
            "{shown} has {} bytes, more than the {max_bytes} allowed",
            meta.len()
        ));
    }
    Ok(())
}

/// Reads a whole regular file of at most `max_bytes` (checked while reading
/// too: the file may grow after the check).
pub fn read_regular(path: &Path, max_bytes: u64) -> Result<Vec<u8>, String> {
    let file = open_regular(path, max_bytes)?;
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > max_bytes {
        return Err(format!(
            "{} has more than the {max_bytes} bytes allowed",
            path.display()
        ));
    }
    Ok(bytes)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_text(path: &Path, max_bytes: u64) -> Result<String, String> {
    let bytes = read_regular(path, max_bytes)?;
    String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", path.display()))
}

/// `NAME.partial` beside `NAME`.
pub fn partial_path(target: &Path) -> PathBuf {
    let mut name = target.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// A file being written: the bytes go to `NAME.partial`, which `finish`
/// renames to `NAME`. Dropped unfinished (an error, a panic), the partial
/// file is removed (unless `keep_when_unfinished` was called) and an
/// existing `NAME` is left as it was.
pub struct PartialFile {
    writer: Option<BufWriter<File>>,
    partial: PathBuf,
    target: PathBuf,
    /// Left in place when dropped unfinished: a run that can go on from it.
    keep: bool,
}

impl PartialFile {
    /// Creates `target.partial` (replacing a stale one).
    pub fn create(target: &Path) -> Result<PartialFile, String> {
        let partial = partial_path(target);
        let file = File::create(&partial)
            .map_err(|e| format!("cannot write {}: {e}", partial.display()))?;
        Ok(PartialFile {
            writer: Some(BufWriter::new(file)),
            partial,
            target: target.to_path_buf(),
            keep: false,
        })
    }

    /// Opens the `target.partial` an unfinished run left, cut to its first
    /// `len` bytes, to write on after them; it is kept when dropped
    /// unfinished. Refused when it is missing, not a regular file or
    /// shorter than `len`.
    pub fn resume(target: &Path, len: u64) -> Result<PartialFile, String> {
        let partial = partial_path(target);
        let shown = partial.display();
        let meta = std::fs::metadata(&partial).map_err(|e| format!("cannot read {shown}: {e}"))?;
        check_meta(&meta, &partial, u64::MAX)?;
        if meta.len() < len {
            return Err(format!(
                "{shown} has {} bytes, fewer than the {len} already written",
                meta.len()
            ));
        }
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(&partial)
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
        file.set_len(len)
            .and_then(|()| file.seek(SeekFrom::End(0)))
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
        Ok(PartialFile {
            writer: Some(BufWriter::new(file)),
            partial,
            target: target.to_path_buf(),
            keep: true,
        })
    }

    /// Leaves the partial file in place if it is dropped unfinished (a run
    /// that records how far its partial file is good, to go on from there).
    pub fn keep_when_unfinished(&mut self) {
        self.keep = true;
    }

    /// Writes everything so far through to the disk; returns the partial
    /// file's length.
    pub fn sync(&mut self) -> Result<u64, String> {
        let shown = self.partial.display().to_string();
        let writer = self.writer();
        writer
            .flush()
            .and_then(|()| writer.get_ref().sync_data())
            .and_then(|()| writer.get_ref().metadata())
            .map(|meta| meta.len())
            .map_err(|e| format!("cannot write {shown}: {e}"))
    }

    /// Checks that `target` can be written, before any long work: creates
    /// and removes its partial file.
    pub fn check_writable(target: &Path) -> Result<(), String> {
        let probe = PartialFile::create(target)?;
        drop(probe);
        Ok(())
    }

    /// Flushes and renames the partial file to its name. When that fails the
    /// partial file is removed, as when dropped unfinished (unless it is kept
    /// for a later run).
    pub fn finish(mut self) -> Result<(), String> {
        let shown = self.partial.display().to_string();
        let writer = self.writer.take().expect("present until finish");
        let done = writer
            .into_inner()
            .map_err(|e| format!("cannot write {shown}: {}", e.error()))
            .and_then(|file| {
                file.sync_all()
                    .map_err(|e| format!("cannot write {shown}: {e}"))
            })
            .and_then(|()| {
                std::fs::rename(&self.partial, &self.target)
                    .map_err(|e| format!("cannot rename {shown} to {}: {e}", self.target.display()))
            });
        if done.is_err() && !self.keep {
            let _ = std::fs::remove_file(&self.partial);
        }
        done
    }

    fn writer(&mut self) -> &mut BufWriter<File> {
        self.writer.as_mut().expect("present until finish")
    }
}

impl Write for PartialFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer().write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer().flush()
    }
}

impl Drop for PartialFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() && !self.keep {
            let _ = std::fs::remove_file(&self.partial);
        }
    }
}

/// Writes `bytes` to `target` through its partial file.
pub fn write_whole(target: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut file = PartialFile::create(target)?;
    file.write_all(bytes)
        .map_err(|e| format!("cannot write {}: {e}", file.partial.display()))?;
    file.finish()
}

/// An empty directory of its own for a unit test that writes files, removed
/// when dropped (the integration tests' own, shared through `#[path]`).
#[cfg(test)]
#[path = "../tests/common/scratch.rs"]
pub(crate) mod scratch;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_directory_is_removed_when_dropped_even_by_a_failing_test() {
        let dir = scratch::Scratch::new("files-scratch");
        let kept = dir.to_path_buf();
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub").join("f.txt"), "x").unwrap();
        drop(dir);
        assert!(!kept.exists());
        let mut failing = None;
        let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let dir = scratch::Scratch::new("files-scratch-failing");
            failing = Some(dir.to_path_buf());
            std::fs::write(dir.join("f.txt"), "x").unwrap();
            panic!("a failing test");
        }));
        assert!(failed.is_err());
        assert!(!failing.expect("the scratch folder was made").exists());
    }

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = scratch::Scratch::new("files-read");
        let file = dir.join("f.txt");
        std::fs::write(&file, "12345").unwrap();
        assert_eq!(read_regular(&file, 5).unwrap(), b"12345");
        assert!(read_regular(&file, 4).unwrap_err().contains("more than"));
        assert!(read_regular(&dir, 100).unwrap_err().contains("directory"));
        let dev = read_regular(Path::new("/dev/zero"), 100).unwrap_err();
        assert!(dev.contains("not a regular file"), "{dev}");
        assert!(read_regular(&dir.join("missing"), 100).is_err());
        std::fs::write(&file, [0xff, 0xfe]).unwrap();
        assert!(read_text(&file, 10).unwrap_err().contains("UTF-8"));
    }

    #[test]
    fn a_partial_file_replaces_the_target_only_when_finished() {
        let dir = scratch::Scratch::new("files-write");
        let target = dir.join("out.txt");
        std::fs::write(&target, "old").unwrap();
        {
            let mut f = PartialFile::create(&target).unwrap();
            f.write_all(b"half").unwrap();
            assert!(partial_path(&target).exists());
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert!(
            !partial_path(&target).exists(),
            "an unfinished file is removed"
        );
        write_whole(&target, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert!(!partial_path(&target).exists());
        let unwritable = dir.join("no-such-dir").join("x");
        assert!(PartialFile::check_writable(&unwritable).is_err());
        assert!(PartialFile::check_writable(&target).is_ok());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    }

    #[test]
    fn a_finish_that_fails_leaves_no_partial_file() {
        let dir = scratch::Scratch::new("files-finish-fails");
        // A folder where the file should go: the rename cannot replace it.
        let target = dir.join("taken");
        std::fs::create_dir(&target).unwrap();
        let mut f = PartialFile::create(&target).unwrap();
        f.write_all(b"data").unwrap();
        let e = f.finish().unwrap_err();
        assert!(e.contains("cannot rename"), "{e}");
        assert!(!partial_path(&target).exists());
        assert!(target.is_dir());
    }

    #[test]
    fn an_unfinished_file_kept_for_later_goes_on_from_its_good_length() {
        let dir = scratch::Scratch::new("files-resume");
        let target = dir.join("run.bin");
        let refused = |len| PartialFile::resume(&target, len).err().unwrap_or_default();
        assert!(refused(0).contains("cannot read"));
        {
            let mut f = PartialFile::create(&target).unwrap();
            f.keep_when_unfinished();
            f.write_all(b"good").unwrap();
            assert_eq!(f.sync().unwrap(), 4);
            f.write_all(b"torn").unwrap();
        }
        let partial = partial_path(&target);
        assert_eq!(std::fs::read(&partial).unwrap(), b"goodtorn");
        assert!(refused(9).contains("fewer than the 9"));
        let mut f = PartialFile::resume(&target, 4).unwrap();
        f.write_all(b" more").unwrap();
        assert_eq!(f.sync().unwrap(), 9);
        f.finish().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"good more");
        assert!(!partial.exists());
        // A resumed file is kept when dropped unfinished, too.
        std::fs::write(&partial, b"abc").unwrap();
        drop(PartialFile::resume(&target, 2).unwrap());
        assert_eq!(std::fs::read(&partial).unwrap(), b"ab");
    }
}
