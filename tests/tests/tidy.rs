//! Tidy checks over the whole source tree (after rust-analyzer's
//! `xtask/src/tidy.rs`): every Rust source file opens with a `//!` header that
//! says what it is, and no file carries a stub or an ignored test.

use std::path::{Path, PathBuf};

/// The workspace root: this package lives in `<root>/tests`.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Every `.rs` file under the source folders of the workspace, sorted.
fn rust_sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if path.is_dir() {
                if name != "target" && !name.starts_with('.') && name != "snapshots" {
                    walk(&path, out);
                }
            } else if name.ends_with(".rs") {
                out.push(path);
            }
        }
    }
    let root = workspace_root();
    let mut out = Vec::new();
    for top in ["crates", "xtask", "tests", "benches"] {
        walk(&root.join(top), &mut out);
    }
    out.sort();
    out
}

#[test]
fn the_tree_has_sources_to_check() {
    // Guards the walk itself: an empty list would make the other checks vacuous.
    let sources = rust_sources();
    assert!(
        sources
            .iter()
            .any(|p| p.ends_with("crates/math/src/lib.rs")),
        "walk found {} files but not crates/math/src/lib.rs",
        sources.len()
    );
}

#[test]
fn every_source_file_opens_with_a_module_doc() {
    let mut missing = Vec::new();
    for path in rust_sources() {
        let text = std::fs::read_to_string(&path).expect("readable source");
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if !first.trim_start().starts_with("//!") {
            missing.push(path.display().to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "files without a `//!` header:\n{}",
        missing.join("\n")
    );
}

#[test]
fn no_source_file_holds_a_stub_or_an_ignored_test() {
    // Spelled in pieces so that this file does not match itself.
    let forbidden = [
        concat!("todo", "!("),
        concat!("unimplemented", "!("),
        concat!("#[", "ignore"),
        concat!("#[", "should_panic"),
        concat!("dbg", "!("),
    ];
    let mut hits = Vec::new();
    for path in rust_sources() {
        let text = std::fs::read_to_string(&path).expect("readable source");
        for (n, line) in text.lines().enumerate() {
            for bad in forbidden {
                if line.contains(bad) {
                    hits.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        hits.is_empty(),
        "forbidden constructs:\n{}",
        hits.join("\n")
    );
}
