//! Sutherland-Hodgman clipping of a small convex polygon held inline, for
//! the face-clipping manifolds of boxes (`cuboid_cuboid.rs` against a box,
//! `cuboid_triangle.rs` against a triangle).
//!
//! # Method and precision domain
//! Sutherland and Hodgman, "Reentrant polygon clipping" (1974): each edge's
//! ends kept where the signed distance is at most zero, the crossing point
//! interpolated where it changes sign. `f64` in the caller's frame.

use parapet_math::Vec3d;

/// The inline capacity of a clipped polygon (points): a quadrilateral
/// clipped by four planes has at most 8 vertices, a triangle by four at
/// most 7.
pub(super) const CLIP_CAPACITY: usize = 8;

/// The part of `poly` where `distance(x) <= 0`, into `out`; returns its
/// length (at most [`CLIP_CAPACITY`]).
pub(super) fn clip_polygon(
    poly: &[Vec3d],
    distance: impl Fn(&Vec3d) -> f64,
    out: &mut [Vec3d; CLIP_CAPACITY],
) -> usize {
    let mut len = 0;
    for m in 0..poly.len() {
        let p = poly[m];
        let q = poly[(m + 1) % poly.len()];
        let dp = distance(&p);
        let dq = distance(&q);
        if dp <= 0.0 && len < CLIP_CAPACITY {
            out[len] = p;
            len += 1;
        }
        if ((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0)) && len < CLIP_CAPACITY {
            out[len] = p + (q - p) * (dp / (dp - dq));
            len += 1;
        }
    }
    len
}
