//! The list of the scenes compared with rapier3d, in report order: the
//! walker crowds and vehicles of `bench_versus` and the box scenes of
//! `bench_boxes` (one list for the criterion bench, the callgrind counts and
//! the bench report).
//!
//! # Precision domain
//! None: it only builds scenes.

use crate::bench_boxes::box_scenes;
use crate::bench_versus::{crowd_scene, falling_scene, head_on_scene, VersusScene};

/// Every comparison scene, in report order.
pub fn versus_scenes() -> Vec<VersusScene> {
    let mut out = Vec::new();
    for count in [64, 256] {
        for triangles in [2048, 8192] {
            for spacing in [1.0, 1.8, 4.0] {
                out.push(crowd_scene(count, spacing, triangles));
            }
        }
    }
    out.push(head_on_scene());
    out.push(falling_scene());
    out.extend(box_scenes());
    out
}
