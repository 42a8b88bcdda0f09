//! Chooses the network the binary embeds: the file named by the `EVALFILE`
//! environment variable (OpenBench's `make EVALFILE=...`), else the repository's
//! net/stockman.nnue. A file whose header is not a network's of this build,
//! or whose size is not the one its header gives, stops the build here.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The widths the engine reads (src/nnue/mod.rs, `WIDTHS`).
const WIDTHS: [u64; 5] = [128, 256, 512, 768, 1024];
/// The most output buckets it reads (src/nnue/mod.rs, `MAX_BUCKETS`).
const MAX_BUCKETS: u64 = 8;
/// The most king buckets (src/nnue/king_buckets.rs, `MAX_KING_BUCKETS`).
const MAX_KING_BUCKETS: u64 = 32;
/// The longest header: the third format's (src/nnue/format.rs).
const MAX_HEADER: usize = 8 + 4 * 4 + 64;

fn main() {
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let path = match std::env::var("EVALFILE") {
        Ok(file) if !file.trim().is_empty() => manifest.join(file.trim()),
        _ => manifest.join("net").join("stockman.nnue"),
    };
    let size = match std::fs::metadata(&path) {
        Ok(meta) if meta.is_file() => meta.len(),
        Ok(_) => fail(&path, "is not a regular file"),
        Err(e) => fail(&path, &e.to_string()),
    };
    let mut header = Vec::with_capacity(MAX_HEADER);
    if let Err(e) =
        std::fs::File::open(&path).and_then(|f| f.take(MAX_HEADER as u64).read_to_end(&mut header))
    {
        fail(&path, &e.to_string());
    }
    match network_bytes(&header) {
        Ok(expected) if expected == size => {}
        Ok(expected) => fail(
            &path,
            &format!("has {size} bytes; its header says {expected}"),
        ),
        Err(why) => fail(&path, &why),
    }
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=STOCKMAN_EVALFILE={}", path.display());
}

/// The size of the network file whose header is `header` (src/nnue/format.rs,
/// `file_bytes`): the header, i16 input weights (768 x hidden per king
/// bucket) and biases, each output bucket's 2 x hidden i16 weights and its
/// i32 bias.
fn network_bytes(header: &[u8]) -> Result<u64, String> {
    let word = |at: usize| {
        header
            .get(at..at + 4)
            .map(|b| u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
            .ok_or("ends inside its header")
    };
    let magic = header.get(..8);
    if !matches!(magic, Some(b"STKNET01" | b"STKNET02" | b"STKNET03")) {
        return Err("is not a Stockman network file (bad magic)".to_string());
    }
    let hidden = word(8)?;
    if !WIDTHS.contains(&hidden) {
        return Err(format!(
            "has {hidden} hidden units; this build reads {WIDTHS:?}"
        ));
    }
    let (header_bytes, buckets, kings) = match magic {
        Some(b"STKNET01") => (12, 1, 1),
        Some(b"STKNET02") => (16, word(12)?, 1),
        Some(b"STKNET03") => (MAX_HEADER as u64, word(12)?, king_buckets(header)?),
        _ => return Err("is not a Stockman network file (bad magic)".to_string()),
    };
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(format!(
            "has {buckets} output buckets; this build reads 1 to {MAX_BUCKETS}"
        ));
    }
    Ok(header_bytes + 2 * (kings * 768 * hidden + hidden) + buckets * (2 * 2 * hidden + 4))
}

/// The third format's king-bucket count, once its layout is checked: every
/// square's bucket below the count, and a mirrored layout (flag 1) the
/// same on each square and its mirror across the d/e line.
fn king_buckets(header: &[u8]) -> Result<u64, String> {
    if header.len() < MAX_HEADER {
        return Err("ends inside its header".to_string());
    }
    let word = |at: usize| {
        u64::from(u32::from_le_bytes([
            header[at],
            header[at + 1],
            header[at + 2],
            header[at + 3],
        ]))
    };
    let (count, flags, map) = (word(16), word(20), &header[24..MAX_HEADER]);
    if !(1..=MAX_KING_BUCKETS).contains(&count) {
        return Err(format!(
            "has {count} king buckets; this build reads 1 to {MAX_KING_BUCKETS}"
        ));
    }
    if flags > 1 {
        return Err(format!(
            "has flags {flags:#x}; this build knows bit 0 (mirrored) only"
        ));
    }
    if map.iter().any(|&b| u64::from(b) >= count) {
        return Err(format!("has a king bucket beyond its {count}"));
    }
    if flags == 1 && (0..64).any(|sq| map[sq] != map[sq ^ 7]) {
        return Err("has a mirrored layout that is not a mirror image".to_string());
    }
    Ok(count)
}

fn fail(path: &Path, why: &str) -> ! {
    eprintln!("EVALFILE {}: {why}", path.display());
    std::process::exit(1);
}
