//! The engine's version for the sweep cache (`schedlab._engine.engine_version()`): the crate version and a digest
//! of every source the rows depend on — the engine and edges (wasm-core/src, the presets it embeds, its manifests
//! and lock file) and this binding. The crate version alone stays 0.1.0 across engine changes, and a cached row
//! from an older engine must not pass for a new one; a digest of the sources changes exactly when they do.

use std::fs;
use std::path::{Path, PathBuf};

/// FNV-1a, 64 bits: a fingerprint, not a defence against forgery (the cache is the user's own directory).
fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = here.parent().expect("python/ has a parent").to_path_buf();
    let core = root.join("wasm-core");
    let trees = [core.join("src"), core.join("presets"), here.join("src")];
    let single = ["Cargo.toml", "Cargo.lock", "engine/Cargo.toml", "edges/Cargo.toml"].map(|f| core.join(f));
    let mut files: Vec<PathBuf> =
        single.into_iter().chain([here.join("Cargo.toml"), here.join("Cargo.lock")]).collect();
    for tree in &trees {
        println!("cargo:rerun-if-changed={}", tree.display());
        files_under(tree, &mut files);
    }
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    // Sorted by the path relative to the checkout, so the digest is the same wherever the checkout lies.
    let mut named: Vec<(String, &PathBuf)> =
        files.iter().map(|f| (f.strip_prefix(&root).unwrap_or(f).to_string_lossy().into_owned(), f)).collect();
    named.sort();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for (name, path) in named {
        let bytes = fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        h = fnv1a(h, name.as_bytes());
        h = fnv1a(h, &(bytes.len() as u64).to_le_bytes());
        h = fnv1a(h, &bytes);
    }
    println!("cargo:rustc-env=SCHEDLAB_ENGINE_VERSION={}+src.{h:016x}", env!("CARGO_PKG_VERSION"));
}
