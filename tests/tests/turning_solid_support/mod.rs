//! An independent checker for the turning-solid driver of
//! `parapet_narrow::advance`: the true rigid motion (Rodrigues' formula) and
//! the exact `f64` signed distance of a convex solid and a triangle, written
//! here from scratch and sharing no code with the driver.
//!
//! # Method
//! - **Motion**: a vertex with world arm `a` (from the mass centre, at time
//!   0) is at `C + v t + R(ω t) a`, `R(θ k) = I + sin θ K + (1 − cos θ) K²`.
//! - **Overlap and depth**: the separating-axis test over the complete axis
//!   set of a polytope and a flat triangle (the triangle's normal, every
//!   solid face normal, every solid edge crossed with every triangle edge);
//!   when no axis separates, the signed distance is minus the least overlap
//!   over those axes, which is the penetration depth (the faces of the
//!   Minkowski difference have exactly those normals).
//! - **Distance** when an axis separates: the least of the solid vertices'
//!   distances to the triangle, the triangle vertices' distances to the
//!   solid's face polygons, and the solid edges' distances to the triangle
//!   edges. The closest pair of two disjoint polytopes is a vertex against a
//!   face or an edge against an edge, so this is exact. Each piece is a
//!   convex quadratic minimised over a polygon: the interior stationary
//!   point when it lies inside, else the boundary (point-segment distances).
//!
//! Precision: plain `f64`, relative error about `1e-15` of the scene size.

#![allow(dead_code)]

use parapet_math::Vec3d;

/// A deterministic generator (64-bit LCG, Knuth's MMIX constants).
pub struct Lcg(u64);

impl Lcg {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x2545_F491_4F6C_DD1D)
    }

    /// A uniform value in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        lo + (hi - lo) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `[0, n)`.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.range(0.0, 1.0) * n as f64) as usize).min(n - 1)
    }

    /// A vector with components uniform in `[-s, s)`.
    pub fn vec(&mut self, s: f64) -> Vec3d {
        Vec3d::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }

    /// A uniform unit vector.
    pub fn dir(&mut self) -> Vec3d {
        loop {
            let v = self.vec(1.0);
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
}

/// A convex solid for the checker: vertices, face loops with outward unit
/// normals, edges (all in one frame).
#[derive(Debug, Clone)]
pub struct Polytope {
    /// Vertices.
    pub vertices: Vec<Vec3d>,
    /// Faces: outward unit normal and counter-clockwise vertex loop.
    pub faces: Vec<(Vec3d, Vec<usize>)>,
    /// Edges as vertex pairs.
    pub edges: Vec<[usize; 2]>,
}

/// `I + sin θ K + (1 − cos θ) K²` applied to `a`, for the rotation vector
/// `r = θ k`.
pub fn rodrigues(r: &Vec3d, a: &Vec3d) -> Vec3d {
    let theta = (r.x * r.x + r.y * r.y + r.z * r.z).sqrt();
    if theta == 0.0 {
        return *a;
    }
    let k = r / theta;
    let ka = k.cross(a);
    let kka = k.cross(&ka);
    a + ka * theta.sin() + kka * (1.0 - theta.cos())
}

/// The true rigid motion of a solid: world arms at time 0 (from the mass
/// centre), mass centre, velocity, spin.
#[derive(Debug, Clone)]
pub struct TrueMotion {
    /// Vertex arms at time 0 (world frame).
    pub arms: Vec<Vec3d>,
    /// Face normals at time 0 (world).
    pub normals: Vec<Vec3d>,
    /// Mass centre at time 0.
    pub center: Vec3d,
    /// Velocity.
    pub velocity: Vec3d,
    /// Spin.
    pub spin: Vec3d,
}

impl TrueMotion {
    /// The solid at time `t` in world coordinates, with the loops and edges of
    /// `shape` (whose vertex order the arms follow).
    pub fn at(&self, shape: &Polytope, t: f64) -> Polytope {
        let mut out = shape.clone();
        self.at_into(t, &mut out);
        out
    }

    /// [`TrueMotion::at`] into `out` (a clone of the shape), reusing its
    /// storage.
    pub fn at_into(&self, t: f64, out: &mut Polytope) {
        let r = self.spin * t;
        let c = self.center + self.velocity * t;
        for (v, a) in out.vertices.iter_mut().zip(&self.arms) {
            *v = c + rodrigues(&r, a);
        }
        for ((n, _), m) in out.faces.iter_mut().zip(&self.normals) {
            *n = rodrigues(&r, m);
        }
    }

    /// An upper bound of the speed of any solid point (m/s).
    pub fn lipschitz(&self) -> f64 {
        let far = self.arms.iter().map(|a| a.norm()).fold(0.0, f64::max);
        (self.velocity.norm() + self.spin.norm() * far) * (1.0 + 1e-9)
    }
}

fn point_segment(p: &Vec3d, a: &Vec3d, b: &Vec3d) -> f64 {
    let d = b - a;
    let l2 = d.dot(&d);
    if l2 == 0.0 {
        return (p - a).norm();
    }
    let s = ((p - a).dot(&d) / l2).clamp(0.0, 1.0);
    (p - (a + d * s)).norm()
}

/// Distance of `p` to the convex polygon with vertices `at(0..len)`
/// (counter-clockwise about the unit normal `n`).
fn point_polygon(p: &Vec3d, len: usize, at: impl Fn(usize) -> Vec3d, n: &Vec3d) -> f64 {
    let h = n.dot(&(p - at(0)));
    let q = p - n * h;
    let inside = (0..len).all(|k| {
        let a = at(k);
        let b = at((k + 1) % len);
        (b - a).cross(&(q - a)).dot(n) >= 0.0
    });
    if inside {
        return h.abs();
    }
    (0..len)
        .map(|k| point_segment(p, &at(k), &at((k + 1) % len)))
        .fold(f64::INFINITY, f64::min)
}

/// Distance of `p` to the triangle.
pub fn point_triangle(p: &Vec3d, tri: &[Vec3d; 3]) -> f64 {
    let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
    let n = n / n.norm();
    point_polygon(p, 3, |k| tri[k], &n)
}

/// Distance of two segments: the stationary point of the convex quadratic
/// when inside the parameter square, else its four boundary edges.
pub fn segment_segment(p0: &Vec3d, p1: &Vec3d, q0: &Vec3d, q1: &Vec3d) -> f64 {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.dot(&d1);
    let b = d1.dot(&d2);
    let c = d2.dot(&d2);
    let d = d1.dot(&r);
    let e = d2.dot(&r);
    let det = a * c - b * b;
    let mut best = point_segment(p0, q0, q1)
        .min(point_segment(p1, q0, q1))
        .min(point_segment(q0, p0, p1))
        .min(point_segment(q1, p0, p1));
    if det > 1e-14 * a * c {
        let s = (b * e - c * d) / det;
        let t = (a * e - b * d) / det;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            best = best.min(((p0 + d1 * s) - (q0 + d2 * t)).norm());
        }
    }
    best
}

/// The projections `(min, max)` of `points` on `axis`.
fn interval(points: &[Vec3d], axis: &Vec3d) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let x = axis.dot(p);
            (lo.min(x), hi.max(x))
        })
}

/// The penetration depth of the solid and the triangle, or `None` when
/// some axis separates them (see the module docs).
fn depth(solid: &Polytope, tri: &[Vec3d; 3]) -> Option<f64> {
    let mut least = f64::INFINITY;
    let mut test = |a: &Vec3d| {
        let (lo, hi) = interval(&solid.vertices, a);
        let (tlo, thi) = interval(tri, a);
        if hi < tlo || thi < lo {
            return false;
        }
        least = least.min((hi - tlo).min(thi - lo));
        true
    };
    let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
    if !test(&(n / n.norm())) {
        return None;
    }
    for (f, _) in &solid.faces {
        if !test(f) {
            return None;
        }
    }
    for [i, j] in &solid.edges {
        let d = solid.vertices[*j] - solid.vertices[*i];
        for k in 0..3 {
            let e = tri[(k + 1) % 3] - tri[k];
            let c = d.cross(&e);
            let cl = c.norm();
            if cl > 1e-12 * d.norm() * e.norm() && !test(&(c / cl)) {
                return None;
            }
        }
    }
    Some(least)
}

/// The exact distance of a solid and a triangle that an axis separates.
fn distance(solid: &Polytope, tri: &[Vec3d; 3]) -> f64 {
    let mut best = f64::INFINITY;
    for v in &solid.vertices {
        best = best.min(point_triangle(v, tri));
    }
    for q in tri {
        for (n, l) in &solid.faces {
            best = best.min(point_polygon(q, l.len(), |k| solid.vertices[l[k]], n));
        }
    }
    for [i, j] in &solid.edges {
        for k in 0..3 {
            best = best.min(segment_segment(
                &solid.vertices[*i],
                &solid.vertices[*j],
                &tri[k],
                &tri[(k + 1) % 3],
            ));
        }
    }
    best
}

/// The signed distance of the solid and the triangle: the distance when
/// apart, minus the penetration depth when they overlap.
pub fn signed_distance(solid: &Polytope, tri: &[Vec3d; 3]) -> f64 {
    match depth(solid, tri) {
        Some(d) => -d,
        None => distance(solid, tri),
    }
}

/// Whether some solid vertex is strictly in front of the triangle's face
/// plane (the one-sided admission).
pub fn in_front(solid: &Polytope, tri: &[Vec3d; 3]) -> bool {
    let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
    solid.vertices.iter().any(|v| n.dot(&(v - tri[0])) > 0.0)
}

/// A box of half extents `h` centred on the origin: vertices, loops
/// (counter-clockwise from outside) and edges.
pub fn box_polytope(h: &Vec3d) -> Polytope {
    let vertices: Vec<Vec3d> = (0..8)
        .map(|i| {
            Vec3d::new(
                if i & 1 != 0 { h.x } else { -h.x },
                if i & 2 != 0 { h.y } else { -h.y },
                if i & 4 != 0 { h.z } else { -h.z },
            )
        })
        .collect();
    let faces = vec![
        (Vec3d::x(), vec![1, 3, 7, 5]),
        (-Vec3d::x(), vec![0, 4, 6, 2]),
        (Vec3d::y(), vec![2, 6, 7, 3]),
        (-Vec3d::y(), vec![0, 1, 5, 4]),
        (Vec3d::z(), vec![4, 5, 7, 6]),
        (-Vec3d::z(), vec![0, 2, 3, 1]),
    ];
    let mut edges = Vec::new();
    for i in 0..8usize {
        for bit in [1usize, 2, 4] {
            if i & bit == 0 {
                edges.push([i, i | bit]);
            }
        }
    }
    Polytope {
        vertices,
        faces,
        edges,
    }
}

#[test]
fn the_checker_measures_known_distances() {
    let cube = box_polytope(&Vec3d::repeat(0.5));
    // A floor 0.25 below the cube, then 0.1 into it.
    let floor = |z: f64| {
        [
            Vec3d::new(-5.0, -5.0, z),
            Vec3d::new(5.0, -5.0, z),
            Vec3d::new(0.0, 5.0, z),
        ]
    };
    assert!((signed_distance(&cube, &floor(-0.75)) - 0.25).abs() < 1e-15);
    assert!((signed_distance(&cube, &floor(-0.4)) + 0.1).abs() < 1e-15);
    // A corner at distance 0.3 along (1, 1, 1) from a triangle's vertex.
    let q = Vec3d::repeat(0.5 + 0.3 / 3f64.sqrt());
    let tri = [
        q,
        q + Vec3d::new(1.0, 0.0, 1.0),
        q + Vec3d::new(0.0, 1.0, 1.0),
    ];
    assert!((signed_distance(&cube, &tri) - 0.3).abs() < 1e-14);
    // Rodrigues: a quarter turn about z takes x to y.
    let r = rodrigues(
        &Vec3d::new(0.0, 0.0, std::f64::consts::FRAC_PI_2),
        &Vec3d::x(),
    );
    assert!((r - Vec3d::y()).norm() < 1e-15);
}
