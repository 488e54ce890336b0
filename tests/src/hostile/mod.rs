//! Hostile input: the generators, invariant checks and runs shared by the
//! cargo-fuzz targets (`fuzz/`, nightly) and the stable smoke test
//! (`tests/tests/hostile_smoke.rs`, proptest over byte strings).
//!
//! Every generator reads an [`arbitrary::Unstructured`] byte string, so a
//! fuzzer's input and a proptest case drive the same code. Values are
//! biased towards the ordinary (most floats are a few metres or m/s, so
//! that deep paths of the step are reached) with a steady share of the
//! hostile: zeros of both signs, NaN, infinities, subnormals, `f32::MAX`,
//! values just past each documented limit, and raw bit patterns.
//!
//! Each run ([`run`]) asserts, by panicking with a description:
//! - no panic inside parapet (a panic is what the fuzzer reports);
//! - a refused step (an `Err`) leaves the world bit for bit as it was,
//!   hidden state included (a twin world that was cloned before the step
//!   answers every later step identically);
//! - a successful step leaves every body and every reported value finite;
//! - on small continuous worlds inside a closed room, no body ends behind a
//!   wall beyond the tolerance ([`oracle`]); on mixed continuous worlds
//!   over a floor, no pair ends deeper than its promised depth ([`mixed`]);
//! - a world's snapshot reads back to the same world, bit for bit, that
//!   steps as it does ([`snapshot`]).

pub mod build;
pub mod inclusion;
pub mod mixed;
pub mod narrow;
pub mod oracle;
pub mod run;
pub mod scenes;
pub mod snapshot;
pub mod state;
pub mod toi;
pub mod values;

pub use arbitrary::{Result, Unstructured};

/// The hand-written seeds of fuzz target `target`: the files named
/// `seed-*` in `fuzz/corpus/<target>/`, in name order. The directory also
/// holds the corpus the fuzzing grew and minimized (files named by their
/// hash), which a fuzz run resumes from and the stable smoke leaves out
/// (thousands of inputs, some slow).
///
/// # Panics
/// When the directory cannot be read, naming it.
pub fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|f| {
            f.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("seed-"))
        })
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
        .collect()
}

/// The bytes of the fuzz finding `name` kept in `fuzz/findings/<target>/`
/// (the regression tests replay them through the target's own run).
///
/// # Panics
/// When the file cannot be read, naming it.
pub fn finding(target: &str, name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/findings")
        .join(target)
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
