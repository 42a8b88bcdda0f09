//! Chooses the network the binary embeds: the file named by the `EVALFILE`
//! environment variable (OpenBench's `make EVALFILE=...`), else the repository's
//! net/stockman.nnue. A file of the wrong size stops the build here.

use std::path::PathBuf;

/// Magic, hidden size, i16 weights and biases (768x128 + 128 + 2x128), output bias.
const NETWORK_BYTES: u64 = 8 + 4 + 2 * (768 * 128 + 128 + 2 * 128) + 4;

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
    if size != NETWORK_BYTES {
        fail(
            &path,
            &format!("has {size} bytes; a network of this build has {NETWORK_BYTES}"),
        );
    }
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=STOCKMAN_EVALFILE={}", path.display());
}

fn fail(path: &std::path::Path, why: &str) -> ! {
    eprintln!("EVALFILE {}: {why}", path.display());
    std::process::exit(1);
}
