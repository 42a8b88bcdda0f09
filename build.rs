//! Chooses the network the binary embeds: the file named by the `EVALFILE`
//! environment variable (OpenBench's `make EVALFILE=...`), else the repository's
//! net/stockman.nnue. A file of the wrong size stops the build here.

use std::path::PathBuf;

/// The size of a network `hidden` units wide: magic, hidden size, i16
/// weights and biases (768 x hidden + hidden + 2 x hidden), output bias.
const fn network_bytes(hidden: u64) -> u64 {
    8 + 4 + 2 * (768 * hidden + hidden + 2 * hidden) + 4
}

/// The widths the engine reads (src/nnue/mod.rs, `WIDTHS`).
const WIDTHS: [u64; 2] = [128, 256];

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
    if !WIDTHS.iter().any(|&h| network_bytes(h) == size) {
        let sizes: Vec<String> = WIDTHS
            .iter()
            .map(|&h| format!("{} ({h} hidden units)", network_bytes(h)))
            .collect();
        fail(
            &path,
            &format!(
                "has {size} bytes; a network of this build has {}",
                sizes.join(" or ")
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
