//! Shared helpers of the turning-body CCD tests (`ccd_turning_*.rs`):
//! turning capsules and off-centre spheres, a closed room with a rough floor,
//! and an *independent* clearance oracle. The oracle shares no code with
//! parapet: the world segment is rebuilt from the stored `f32` pose with
//! nalgebra in `f64`, and the segment-triangle distance is a brute-force
//! minimum over the segment's ends against the triangle (projection or
//! edges), the triangle's edges against the segment (golden-section search
//! on a convex function), and the segment's crossing of the face.

#![allow(dead_code)]

use parapet_geometry::{Material, Shape};
use parapet_math::nalgebra::{UnitQuaternion, Vector3};
use parapet_math::{Quat, Vec3};
use parapet_solver::RigidBody;

/// `f64` vector.
pub type V = Vector3<f64>;

/// The tolerance of a turning sweep as a fraction of the radius:
/// docs/turning-bodies.md (radius / 1024), restated here so that the oracle does
/// not read it from parapet.
pub const TOLERANCE_FRACTION: f64 = 1.0 / 1024.0;

/// A material with friction, restitution and bounce threshold.
pub fn mat(friction: f32, restitution: f32, bounce_threshold: f32) -> Material {
    Material::new(friction, restitution, bounce_threshold).unwrap()
}

/// A static mesh body from vertices and triangles.
pub fn mesh(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>, material: Material) -> RigidBody {
    RigidBody::new_static(Shape::mesh(vertices, triangles).unwrap()).with_material(material)
}

/// A quad `p0 p1 p2 p3` as two triangles whose front faces `inward`.
pub fn quad(p: [Vec3; 4], inward: Vec3, material: Material) -> RigidBody {
    let v = p.to_vec();
    let t = if (p[1] - p[0]).cross(&(p[2] - p[0])).dot(&inward) > 0.0 {
        vec![[0, 1, 2], [0, 2, 3]]
    } else {
        vec![[0, 2, 1], [0, 3, 2]]
    };
    mesh(v, t, material)
}

/// A square plate of half size `half` through `center`, facing `normal`.
pub fn plate(center: Vec3, normal: Vec3, half: f32, material: Material) -> RigidBody {
    let n = normal.normalize();
    let helper = if n.x.abs() < 0.9 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    let u = n.cross(&helper).normalize();
    let w = n.cross(&u);
    quad(
        [
            center + (-u - w) * half,
            center + (u - w) * half,
            center + (u + w) * half,
            center + (-u + w) * half,
        ],
        n,
        material,
    )
}

/// A dynamic capsule that can turn (solid inertia), lying along `axis`.
pub fn turning_capsule(radius: f32, half_height: f32, mass: f32) -> RigidBody {
    RigidBody::new_dynamic(Shape::capsule(radius, half_height).unwrap(), mass).unwrap()
}

/// A dynamic sphere whose mass centre sits at `offset` (body frame) from
/// its centre (the body origin).
pub fn off_center_sphere(radius: f32, mass: f32, offset: Vec3) -> RigidBody {
    let mut b = RigidBody::new_dynamic(Shape::sphere(radius).unwrap(), mass).unwrap();
    b.set_center_of_mass(offset).unwrap();
    b
}

fn d(v: Vec3) -> V {
    V::new(v.x as f64, v.y as f64, v.z as f64)
}

/// The shape's radius and core half height (0 for a sphere).
pub fn radius_and_half_height(b: &RigidBody) -> (f64, f64) {
    match b.shape() {
        Shape::Sphere(s) => (s.radius() as f64, 0.0),
        Shape::Capsule(c) => (c.radius() as f64, c.half_height() as f64),
        _ => panic!("not a sphere or capsule"),
    }
}

/// The world core segment of a sphere or capsule body from its stored `f32`
/// pose: `p + R (t_s + R_s (0, 0, ±h))`, in `f64`.
pub fn world_segment(b: &RigidBody) -> [V; 2] {
    let (_, h) = radius_and_half_height(b);
    let q = UnitQuaternion::new_normalize(b.rotation().into_inner().cast::<f64>());
    let (t, rs) = b.shape_offset();
    let rs = UnitQuaternion::new_normalize(rs.into_inner().cast::<f64>());
    let axis = rs * V::new(0.0, 0.0, h);
    let p = d(b.position());
    [p + q * (d(t) - axis), p + q * (d(t) + axis)]
}

/// Distance from `p` to segment `[a, b]`.
pub fn point_segment(p: &V, a: &V, b: &V) -> f64 {
    let ab = b - a;
    let l2 = ab.norm_squared();
    let s = if l2 > 0.0 {
        ((p - a).dot(&ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * s - p).norm()
}

/// Unit front normal of a triangle.
pub fn normal(t: &[V; 3]) -> V {
    (t[1] - t[0]).cross(&(t[2] - t[0])).normalize()
}

/// Distance from `p` to the triangle: the projection when it falls inside,
/// else the nearest edge.
pub fn point_triangle(p: &V, t: &[V; 3]) -> f64 {
    let n = normal(t);
    let h = n.dot(&(p - t[0]));
    let q = p - n * h;
    let inside = (0..3).all(|i| {
        let a = t[i];
        let b = t[(i + 1) % 3];
        (b - a).cross(&(q - a)).dot(&n) >= 0.0
    });
    if inside {
        return h.abs();
    }
    (0..3)
        .map(|i| point_segment(p, &t[i], &t[(i + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
}

/// Distance between segments by golden-section search over the first
/// segment's parameter (the distance to a segment is convex along a line).
pub fn segment_segment(a0: &V, a1: &V, b0: &V, b1: &V) -> f64 {
    let f = |s: f64| point_segment(&(a0 + (a1 - a0) * s), b0, b1);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..120 {
        let x1 = hi - g * (hi - lo);
        let x2 = lo + g * (hi - lo);
        if f(x1) <= f(x2) {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    f(0.5 * (lo + hi)).min(f(0.0)).min(f(1.0))
}

/// Segment-triangle distance, `0` when the segment crosses the face.
pub fn segment_triangle(s: &[V; 2], t: &[V; 3]) -> f64 {
    let n = normal(t);
    let h0 = n.dot(&(s[0] - t[0]));
    let h1 = n.dot(&(s[1] - t[0]));
    let crosses = (h0 <= 0.0 && h1 >= 0.0) || (h0 >= 0.0 && h1 <= 0.0);
    if crosses && h0 != h1 {
        let x = s[0] + (s[1] - s[0]) * (h0 / (h0 - h1));
        if point_triangle(&x, t) <= 1e-12 * (1.0 + x.amax()) {
            return 0.0;
        }
    }
    let mut best = point_triangle(&s[0], t).min(point_triangle(&s[1], t));
    for i in 0..3 {
        best = best.min(segment_segment(&t[i], &t[(i + 1) % 3], &s[0], &s[1]));
    }
    best
}

/// Whether both segment ends are strictly behind the triangle's plane.
pub fn behind(s: &[V; 2], t: &[V; 3]) -> bool {
    let n = normal(t);
    n.dot(&(s[0] - t[0])) < 0.0 && n.dot(&(s[1] - t[0])) < 0.0
}

/// The held depth (m) of a turning shape of radius `r`: a contact that
/// approaches slower than `CONTACT_MARGIN / dt` may sink this far, held for
/// the discrete solver (docs/continuous-collision.md, "Turning solids",
/// held bands): `min(r / 16, 0.005 m)`.
pub fn held_depth(r: f64) -> f64 {
    (r / 16.0).min(0.005)
}

/// The allowance (m) of the clearance oracle for body `b`: the depth the
/// continuous step promises no body ends beyond
/// (`parapet_world::ccd::tolerances::promised_depth`: its held depth, how
/// far a contact that closes slowly may sink within a step, held for the
/// discrete solver, plus sixteen contact tolerances) plus the `f32` storage
/// rounding of the pose the
/// step stored. Position: each coordinate rounds by at most half an ulp,
/// `|x| 2^-24`, so the origin moves by at most `sqrt(3) max|x| 2^-24`;
/// rotation: each quaternion component rounds by at most `2^-25` (they are
/// at most 1), a rotation error of at most `2 |δq| <= 2 * 2 * 2^-25` rad,
/// which moves a point at distance `ℓ` from the origin by `ℓ` times that;
/// the turning sweep rounds once per step, from an exact `f64` state. Twice
/// that sum covers the renormalization and the previous step's rounding,
/// from which the sweep re-bases.
pub fn allowance(b: &RigidBody) -> f64 {
    let s = world_segment(b);
    let p = d(b.position());
    let lever = (s[0] - p).norm().max((s[1] - p).norm()) + d(b.center_of_mass()).norm();
    let pos = 3f64.sqrt() * p.amax().max(s[0].amax()).max(s[1].amax()) * 2f64.powi(-24);
    let rot = lever * 4.0 * 2f64.powi(-25);
    parapet_world::ccd::tolerances::promised_depth(b.shape()) + 2.0 * (pos + rot)
}

/// The deepest overlap (m) of the body's shape with any triangle it is not
/// wholly behind: `radius - distance` (negative when clear everywhere).
pub fn deepest_front_overlap(b: &RigidBody, triangles: &[[Vec3; 3]]) -> f64 {
    let (r, _) = radius_and_half_height(b);
    let s = world_segment(b);
    let mut worst = f64::NEG_INFINITY;
    for t in triangles {
        let t = t.map(d);
        if behind(&s, &t) {
            continue;
        }
        worst = worst.max(r - segment_triangle(&s, &t));
    }
    worst
}

/// A closed room: a rough floor of `cells x cells` squares of size `step`
/// centred on the origin (heights within `±rough`), four vertical walls and a
/// ceiling at `ceiling`, every triangle facing inward.
pub struct Room {
    /// Half width (m).
    pub half: f32,
    /// Grid spacing (m).
    pub step: f32,
    /// Cells per side.
    pub cells: usize,
    /// Floor heights, row-major `(cells + 1)^2`.
    pub heights: Vec<f32>,
    /// Ceiling height (m).
    pub ceiling: f32,
}

impl Room {
    /// A room with floor heights drawn by `next` in `[-rough, rough]`.
    pub fn new(
        cells: usize,
        step: f32,
        rough: f32,
        ceiling: f32,
        mut next: impl FnMut() -> f64,
    ) -> Room {
        let n = cells + 1;
        let heights = (0..n * n)
            .map(|_| ((next() * 2.0 - 1.0) * rough as f64) as f32)
            .collect();
        Room {
            half: cells as f32 * step * 0.5,
            step,
            cells,
            heights,
            ceiling,
        }
    }

    fn vertex(&self, i: usize, j: usize) -> Vec3 {
        Vec3::new(
            i as f32 * self.step - self.half,
            j as f32 * self.step - self.half,
            self.heights[j * (self.cells + 1) + i],
        )
    }

    /// The room's mesh bodies: floor, four walls, ceiling.
    pub fn bodies(&self, material: Material) -> Vec<RigidBody> {
        let n = self.cells + 1;
        let mut v = Vec::new();
        for j in 0..n {
            for i in 0..n {
                v.push(self.vertex(i, j));
            }
        }
        let mut t = Vec::new();
        for j in 0..self.cells {
            for i in 0..self.cells {
                let a = (j * n + i) as u32;
                t.push([a, a + 1, a + n as u32 + 1]);
                t.push([a, a + n as u32 + 1, a + n as u32]);
            }
        }
        let h = self.half;
        let low = -self.heights.iter().fold(0.0f32, |m, x| m.max(x.abs())) - 1.0;
        let top = self.ceiling;
        let mut out = vec![mesh(v, t, material)];
        for (x, inward) in [(h, -Vec3::x()), (-h, Vec3::x())] {
            out.push(quad(
                [
                    Vec3::new(x, -h, low),
                    Vec3::new(x, h, low),
                    Vec3::new(x, h, top),
                    Vec3::new(x, -h, top),
                ],
                inward,
                material,
            ));
        }
        for (y, inward) in [(h, -Vec3::y()), (-h, Vec3::y())] {
            out.push(quad(
                [
                    Vec3::new(-h, y, low),
                    Vec3::new(h, y, low),
                    Vec3::new(h, y, top),
                    Vec3::new(-h, y, top),
                ],
                inward,
                material,
            ));
        }
        out.push(quad(
            [
                Vec3::new(-h, -h, top),
                Vec3::new(h, -h, top),
                Vec3::new(h, h, top),
                Vec3::new(-h, h, top),
            ],
            -Vec3::z(),
            material,
        ));
        out
    }

    /// The floor height (m) under `(x, y)` by the same two triangles per
    /// cell (diagonal from (i, j) to (i + 1, j + 1)).
    pub fn floor_height(&self, x: f64, y: f64) -> f64 {
        let s = self.step as f64;
        let fx = ((x + self.half as f64) / s).clamp(0.0, self.cells as f64 - 1e-9);
        let fy = ((y + self.half as f64) / s).clamp(0.0, self.cells as f64 - 1e-9);
        let (i, j) = (fx.floor() as usize, fy.floor() as usize);
        let (u, w) = (fx - i as f64, fy - j as f64);
        let z = |i: usize, j: usize| self.heights[j * (self.cells + 1) + i] as f64;
        let (za, zb, zc, zd) = (z(i, j), z(i + 1, j), z(i + 1, j + 1), z(i, j + 1));
        if u >= w {
            za + u * (zb - za) + w * (zc - zb)
        } else {
            za + w * (zd - za) + u * (zc - zd)
        }
    }

    /// Whether the point is strictly inside the room.
    pub fn contains(&self, p: &V) -> bool {
        let h = self.half as f64;
        p.x.abs() < h
            && p.y.abs() < h
            && p.z < self.ceiling as f64
            && p.z > self.floor_height(p.x, p.y)
    }
}

/// A rotation from an axis-angle vector.
pub fn rotation(scaled_axis: Vec3) -> Quat {
    Quat::from_scaled_axis(scaled_axis)
}
