//! World snapshots read back (`parapet::snapshot`): a snapshot written as
//! CBOR or JSON reads back to a world whose own CBOR snapshot is the same
//! bytes (CBOR keeps every `f32` bit for bit, and a snapshot holds
//! everything the next step reads: bodies, caches, events, report), and
//! the two worlds answer the next steps identically (the same result, the
//! same bytes after). Hostile snapshots (written ones with bytes or
//! numbers changed, or arbitrary bytes) are refused with a typed error or
//! read to a world that steps with every check of
//! [`super::run::checked_step`].

use arbitrary::{Result, Unstructured};
use parapet::snapshot::{from_bytes, from_json, to_bytes, to_json};
use parapet_world::PhysicsWorld;

use super::build::any_world;
use super::run::{checked_step, mutate};
use super::values::any_dt;

/// The CBOR snapshot of `w` (a world in memory always writes as CBOR).
fn bytes_of(w: &PhysicsWorld) -> Vec<u8> {
    to_bytes(w).unwrap_or_else(|e| panic!("a world does not write as CBOR: {e}"))
}

/// Writes `w` as CBOR and (when JSON can hold it) as JSON, reads each
/// back, and asserts that each copy writes the same CBOR bytes as `w` and
/// answers the steps `dts` as `w` does, bit for bit. Leaves `w` stepped.
pub fn read_back(w: &mut PhysicsWorld, dts: &[f32]) {
    let written = bytes_of(w);
    let mut copies =
        vec![from_bytes(&written)
            .unwrap_or_else(|e| panic!("a CBOR snapshot does not read back: {e}"))];
    if let Ok(text) = to_json(w) {
        copies.push(
            from_json(&text)
                .unwrap_or_else(|e| panic!("a JSON snapshot does not read back: {e}\n{text}")),
        );
    }
    for copy in &copies {
        assert!(
            bytes_of(copy) == written,
            "a snapshot read back writes other bytes"
        );
    }
    for dt in dts {
        let result = format!("{:?}", w.step(*dt));
        let after = bytes_of(w);
        for copy in &mut copies {
            // Compared as text: a refusal may carry a NaN value.
            assert_eq!(
                format!("{:?}", copy.step(*dt)),
                result,
                "a world read back answers step({dt}) differently"
            );
            assert!(
                bytes_of(copy) == after,
                "a world read back differs after step({dt})"
            );
        }
    }
}

/// The `snapshot` run: an arbitrary world stepped a few times (so that
/// caches, events and the continuous report are filled) is read back
/// ([`read_back`]); then a hostile snapshot (the written CBOR with a few
/// bytes changed, the written JSON with a number replaced by a hostile
/// literal, or arbitrary bytes) is read: no panic, and an accepted one
/// steps with every check of [`checked_step`].
pub fn snapshot(u: &mut Unstructured<'_>) -> Result<()> {
    let mut w = any_world(u, 6)?;
    for _ in 0..u.int_in_range(0u8..=3)? {
        let _ = checked_step(&mut w, any_dt(u)?);
    }
    let dts = [any_dt(u)?, 1.0 / 60.0];
    let cbor = bytes_of(&w);
    let json = to_json(&w).ok();
    read_back(&mut w, &dts);
    let hostile = match u.int_in_range(0u8..=2)? {
        0 => {
            let mut bytes = cbor;
            for _ in 0..u.int_in_range(1u8..=4)? {
                if bytes.is_empty() {
                    break;
                }
                let at = u.int_in_range(0..=bytes.len() - 1)?;
                bytes[at] = u.arbitrary()?;
            }
            from_bytes(&bytes)
        }
        1 => match json {
            Some(text) => from_json(&mutate(u, text)?),
            None => return Ok(()),
        },
        _ => from_bytes(u.bytes(u.len().min(4096))?),
    };
    match hostile {
        Ok(mut read) => {
            for _ in 0..2 {
                let _ = checked_step(&mut read, 1.0 / 60.0);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    Ok(())
}
