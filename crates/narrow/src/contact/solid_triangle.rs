//! Contact between a solid (a box or a convex hull) and one static,
//! one-sided triangle.
//!
//! Method: the triangle becomes a flat solid whose only face is its
//! front, and the pair goes through the separating-axis test of
//! [`super::solid_solid`] (face axes of both, edge-pair axes by full
//! projection). One-sided rule (as every contact with a triangle): a solid whose centre
//! (the mean of its vertices) is strictly behind the triangle's plane gets
//! no contact, and no edge axis may push the solid behind the face
//! unless it separates. Precision domain: `f64` relative to the solid's
//! position.

use parapet_math::Vec3d;

use super::placed_solid::{PlacedSolid, TrianglePlacement};
use super::scratch::Work;
use super::solid_solid::solid_solid;
use super::{front_normal, LocalManifold};

/// Contact of solid A with triangle B, both in the working frame.
pub(crate) fn solid_triangle(
    a: &PlacedSolid<'_>,
    tri: &[Vec3d; 3],
    margin: f64,
    work: &mut Work,
) -> LocalManifold {
    let Some(n) = front_normal(tri) else {
        return LocalManifold::empty();
    };
    if n.dot(&(a.center - tri[0])) < 0.0 {
        return LocalManifold::empty();
    }
    let placed = TrianglePlacement::new(tri, n);
    solid_solid(a, &placed.placed(), margin, work)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::contact::placed_solid::Placement;
    use crate::contact::scratch::ContactScratch;
    use crate::solid::ConvexSolid;
    use parapet_math::{Mat3d, Vec3};

    /// A square pyramid (apex up) whose base is 2 m wide, 1 m high (also
    /// `prism.rs`'s tests).
    pub(in crate::contact) fn pyramid() -> ConvexSolid {
        let v = [
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(-1.0, 1.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
        ];
        ConvexSolid::from_hull(&parapet_geometry::ConvexHull::new(&v).unwrap())
    }

    #[test]
    fn a_hull_resting_on_a_triangle_gets_its_base_corners() {
        let solid = pyramid();
        let mut placement = Placement::default();
        let a = placement.place(&solid, &Mat3d::identity(), Vec3d::new(0.0, 0.0, -0.01));
        let tri = [
            Vec3d::new(-10.0, -10.0, 0.0),
            Vec3d::new(10.0, -10.0, 0.0),
            Vec3d::new(0.0, 10.0, 0.0),
        ];
        let mut scratch = ContactScratch::new();
        let m = solid_triangle(&a, &tri, 0.0, &mut scratch.work);
        assert_eq!(m.points().len(), 4);
        assert_eq!(m.normal, -Vec3d::z());
        for &(p, depth) in m.points() {
            assert!((depth - 0.01).abs() < 1e-12);
            assert!((p.x.abs() - 1.0).abs() < 1e-12 && (p.y.abs() - 1.0).abs() < 1e-12);
        }
    }
}
