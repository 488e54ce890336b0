//! Mass properties of a closed, outward-oriented polyhedron of uniform
//! density, by two `f64` integration passes (docs/physics.md, "Mass
//! properties").
//!
//! Method: the boundary triangles `(a, b, c)` and an apex `o` decompose the
//! solid into signed tetrahedra (Mirtich 1996; Tonon, "Explicit exact formulas
//! for the 3-D tetrahedron inertia tensor in terms of its vertex
//! coordinates", J. Math. Stat. 1(1), 2004). With `a, b, c` relative to `o`
//! and `d = a . (b x c)` (six times the signed volume):
//! - volume `d / 6`, first moment `d / 24 (a + b + c)`;
//! - second moment `integral x x^T dV = d / 120 (a a^T + b b^T + c c^T + s s^T)`, `s = a + b + c`.
//!
//! Pass 1 takes the vertex mean as apex and finds the volume and the center;
//! pass 2 takes the center as apex and integrates the second moment about it,
//! so no large translated moment is ever subtracted. The inertia is
//! `mass / volume * (tr(C) E - C)`.
//!
//! Precision domain: `f32` vertices widened exactly to `f64`; a sum of
//! positive-volume tetrahedra about an interior apex, so the relative error of
//! the tensor is a few ulps of `f64` times the number of triangles, far below
//! the final `f32` rounding.

use parapet_math::{Mat3d, Vec3d};

/// Volume (m^3), center (m) and the unit-density second-moment tensor about
/// the center, `C = integral (x - c)(x - c)^T dV` (m^5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PolyhedronMoments {
    pub volume: f64,
    pub center: Vec3d,
    pub second_moment: Mat3d,
}

/// Integrates a closed polyhedron given by outward (counter-clockwise seen
/// from outside) triangles over `vertices`. Returns `None` when the volume is
/// not finite and positive.
pub(crate) fn polyhedron_moments(
    vertices: &[Vec3d],
    triangles: &[[usize; 3]],
) -> Option<PolyhedronMoments> {
    if vertices.is_empty() {
        return None;
    }
    let reference = vertices.iter().sum::<Vec3d>() / vertices.len() as f64;
    let mut six_volume = 0.0;
    let mut first = Vec3d::zeros();
    for t in triangles {
        let [a, b, c] = t.map(|i| vertices[i] - reference);
        let d = a.dot(&b.cross(&c));
        six_volume += d;
        first += (a + b + c) * d;
    }
    let volume = six_volume / 6.0;
    if !(volume.is_finite() && volume > 0.0) {
        return None;
    }
    // first moment = sum d/24 s; center offset = first moment / volume.
    let center = reference + first / (4.0 * six_volume);

    let mut second = Mat3d::zeros();
    for t in triangles {
        let [a, b, c] = t.map(|i| vertices[i] - center);
        let d = a.dot(&b.cross(&c));
        let s = a + b + c;
        second +=
            (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose()) * d;
    }
    second /= 120.0;
    Some(PolyhedronMoments {
        volume,
        center,
        second_moment: second,
    })
}

/// The inertia tensor `mass / volume * (tr(C) E - C)` (kg m^2) of the moments.
pub(crate) fn inertia_from_moments(moments: &PolyhedronMoments, mass: f64) -> Mat3d {
    let c = &moments.second_moment;
    let density = mass / moments.volume;
    (Mat3d::identity() * c.trace() - c) * density
}
