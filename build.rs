//! Chooses the network the binary embeds: the file named by the `EVALFILE`
//! environment variable (OpenBench's `make EVALFILE=...`), else the repository's
//! net/stockman.nnue. A file of the wrong size stops the build here.

use std::path::PathBuf;

/// The size of a network `hidden` units wide with `buckets` output layers
/// (src/nnue/mod.rs, `file_bytes`): magic, hidden size, the bucket count
/// unless one, i16 input weights and biases (768 x hidden + hidden), each
/// bucket's 2 x hidden i16 output weights and its i32 output bias.
const fn network_bytes(hidden: u64, buckets: u64) -> u64 {
    let header = if buckets == 1 { 8 + 4 } else { 8 + 4 + 4 };
    header + 2 * (768 * hidden + hidden) + buckets * (2 * 2 * hidden + 4)
}

/// The widths the engine reads (src/nnue/mod.rs, `WIDTHS`).
const WIDTHS: [u64; 2] = [128, 256];
/// The most output buckets it reads (src/nnue/mod.rs, `MAX_BUCKETS`).
const MAX_BUCKETS: u64 = 8;

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
    let shapes = || {
        WIDTHS
            .iter()
            .flat_map(|&h| (1..=MAX_BUCKETS).map(move |b| (h, b)))
    };
    if !shapes().any(|(h, b)| network_bytes(h, b) == size) {
        let sizes: Vec<String> = shapes()
            .map(|(h, b)| {
                let outputs = match b {
                    1 => "one output".to_string(),
                    _ => format!("{b} output buckets"),
                };
                format!("{} (768x{h}, {outputs})", network_bytes(h, b))
            })
            .collect();
        fail(
            &path,
            &format!(
                "has {size} bytes; a network of this build has one of {}",
                sizes.join(", ")
            ),
        );
    }
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=STOCKMAN_EVALFILE={}", path.display());
}

fn fail(path: &std::path::Path, why: &str) -> ! {
    eprintln!("EVALFILE {}: {why}", path.display());
    std::process::exit(1);
}
