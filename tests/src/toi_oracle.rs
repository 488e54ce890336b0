//! An independent checker for time-of-impact answers: the exact `f64`
//! signed distance of two convex pieces (a point, a segment, a triangle or
//! a polytope, each grown by a skin), the true rigid motion (Rodrigues'
//! formula), and a certified march of the distance over a window. Written
//! from scratch: it shares no code with `parapet_narrow::moving` (nor with
//! the sweeps or the contact tests).
//!
//! # Method
//! - **Pieces** are given by their vertices, face loops with unit normals
//!   and edges (a triangle has one face, two-sided here; the one-sided rule
//!   is the caller's admission test, [`wholly_behind`]).
//! - **Overlap and depth** (when the pieces' dimensions add up to 3 or
//!   more): the separating-axis test over every face normal, every edge of
//!   one crossed with every edge of the other, and every face normal
//!   crossed with every edge (which separates coplanar flat pieces). When
//!   no axis separates, the signed distance of the cores is minus the least
//!   overlap over those axes: they contain every face normal of the
//!   Minkowski difference, and a flat difference has depth zero along its
//!   normal. A triangle is one-sided in depth: its own normal pushes the
//!   other piece out to its front only. When the dimensions add up to less
//!   than 3 (points and
//!   segments), the difference is flat and the cores' signed distance is
//!   their distance.
//! - **Distance** when apart: the least over vertex-vertex, vertex-edge,
//!   vertex-face (both ways) and edge-edge distances, each the minimum of a
//!   convex quadratic over a segment, a polygon or a parameter square. The
//!   closest pair of two disjoint convex polytopes is realised by one such
//!   pair of features, so this is exact.
//! - **March**: the signed distance of two rigid bodies changes at most at
//!   `L = |v_a − v_b| + |ω_a| R_a + |ω_b| R_b` (`R` the farthest core point
//!   from its mass centre), so from a gap `g` above a level the distance
//!   cannot reach `level − slack` within `(g + slack) / L`.
//!
//! Precision: plain `f64`, relative error about `1e-15` of the scene size.

use parapet_geometry::{ConvexHull, Shape};
use parapet_math::{Quatd, Vec3d};

/// A convex piece: vertices, faces (unit normal, vertex loop), edges, skin.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Vertices (one frame).
    pub vertices: Vec<Vec3d>,
    /// Faces: unit normal and vertex loop.
    pub faces: Vec<(Vec3d, Vec<usize>)>,
    /// Edges as vertex pairs.
    pub edges: Vec<[usize; 2]>,
    /// The skin radius grown around the hull (m).
    pub skin: f64,
    /// 0 point, 1 segment, 2 triangle, 3 polytope.
    pub dim: u8,
}

impl Piece {
    /// A point grown by `skin`.
    pub fn point(p: Vec3d, skin: f64) -> Self {
        Piece {
            vertices: vec![p],
            faces: vec![],
            edges: vec![],
            skin,
            dim: 0,
        }
    }

    /// A segment grown by `skin`.
    pub fn segment(a: Vec3d, b: Vec3d, skin: f64) -> Self {
        Piece {
            vertices: vec![a, b],
            faces: vec![],
            edges: vec![[0, 1]],
            skin,
            dim: 1,
        }
    }

    /// A triangle (no skin).
    pub fn triangle(t: [Vec3d; 3]) -> Self {
        let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
        Piece {
            vertices: t.to_vec(),
            faces: vec![(n / n.norm(), vec![0, 1, 2])],
            edges: vec![[0, 1], [1, 2], [2, 0]],
            skin: 0.0,
            dim: 2,
        }
    }

    /// A box of half extents `h` centred on the origin.
    pub fn cuboid(h: Vec3d) -> Self {
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
        Piece {
            vertices,
            faces,
            edges,
            skin: 0.0,
            dim: 3,
        }
    }

    /// A convex hull's polytope.
    pub fn hull(h: &ConvexHull) -> Self {
        Piece {
            vertices: h.vertices().iter().map(|v| v.cast::<f64>()).collect(),
            faces: h
                .faces()
                .iter()
                .map(|f| {
                    (
                        f.normal(),
                        f.vertices().iter().map(|&i| i as usize).collect(),
                    )
                })
                .collect(),
            edges: h
                .edges()
                .iter()
                .map(|e| [e[0] as usize, e[1] as usize])
                .collect(),
            skin: 0.0,
            dim: 3,
        }
    }

    /// The piece of a convex shape in its shape frame (`None` for a mesh).
    pub fn of_shape(shape: &Shape) -> Option<Self> {
        Some(match shape {
            Shape::Sphere(s) => Piece::point(Vec3d::zeros(), s.radius() as f64),
            Shape::Capsule(c) => {
                let h = c.half_height() as f64;
                Piece::segment(
                    Vec3d::new(0.0, 0.0, -h),
                    Vec3d::new(0.0, 0.0, h),
                    c.radius() as f64,
                )
            }
            Shape::Cuboid(c) => Piece::cuboid(c.half_extents().cast::<f64>()),
            Shape::ConvexHull(h) => Piece::hull(h),
            _ => return None,
        })
    }

    /// The piece with every vertex mapped by `f` and every normal by `g`.
    pub fn mapped(&self, f: impl Fn(&Vec3d) -> Vec3d, g: impl Fn(&Vec3d) -> Vec3d) -> Self {
        Piece {
            vertices: self.vertices.iter().map(f).collect(),
            faces: self.faces.iter().map(|(n, l)| (g(n), l.clone())).collect(),
            edges: self.edges.clone(),
            skin: self.skin,
            dim: self.dim,
        }
    }
}

/// `I + sin θ K + (1 − cos θ) K²` applied to `a`, for `r = θ k`.
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

/// A rigid body's true motion: a piece's world arms at time 0 (from the
/// mass centre), the mass centre, its velocity and the spin.
#[derive(Debug, Clone)]
pub struct TrueMotion {
    /// The piece with vertices as arms and normals at time 0 (world).
    pub arms: Piece,
    /// Mass centre at time 0 (m).
    pub center: Vec3d,
    /// Velocity (m/s).
    pub velocity: Vec3d,
    /// Spin (rad/s).
    pub spin: Vec3d,
}

impl TrueMotion {
    /// The motion of `piece` (body frame, its shape placed by the caller)
    /// of a body whose origin is at `position` with rotation `rotation`
    /// at time 0, mass centre `local_center` (body frame).
    pub fn new(
        piece: &Piece,
        position: Vec3d,
        rotation: Quatd,
        local_center: Vec3d,
        velocity: Vec3d,
        spin: Vec3d,
    ) -> Self {
        TrueMotion {
            arms: piece.mapped(|p| rotation * (p - local_center), |n| rotation * n),
            center: position + rotation * local_center,
            velocity,
            spin,
        }
    }

    /// The piece at time `t` (world).
    pub fn at(&self, t: f64) -> Piece {
        let r = self.spin * t;
        let c = self.center + self.velocity * t;
        self.arms
            .mapped(|a| c + rodrigues(&r, a), |n| rodrigues(&r, n))
    }

    /// The farthest core point from the mass centre (m).
    pub fn reach(&self) -> f64 {
        self.arms
            .vertices
            .iter()
            .map(|a| a.norm())
            .fold(0.0, f64::max)
    }
}

/// The Lipschitz bound of the pair's signed distance (m/s), widened by 1e-9.
pub fn lipschitz(a: &TrueMotion, b: &TrueMotion) -> f64 {
    ((a.velocity - b.velocity).norm() + a.spin.norm() * a.reach() + b.spin.norm() * b.reach())
        * (1.0 + 1e-9)
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

fn point_polygon(p: &Vec3d, piece: &Piece, face: usize) -> f64 {
    let (n, l) = &piece.faces[face];
    let at = |k: usize| piece.vertices[l[k % l.len()]];
    let h = n.dot(&(p - at(0)));
    let q = p - n * h;
    let inside = (0..l.len()).all(|k| (at(k + 1) - at(k)).cross(&(q - at(k))).dot(n) >= 0.0);
    if inside {
        return h.abs();
    }
    (0..l.len())
        .map(|k| point_segment(p, &at(k), &at(k + 1)))
        .fold(f64::INFINITY, f64::min)
}

fn segment_segment(p0: &Vec3d, p1: &Vec3d, q0: &Vec3d, q1: &Vec3d) -> f64 {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let (a, b, c) = (d1.dot(&d1), d1.dot(&d2), d2.dot(&d2));
    let (d, e) = (d1.dot(&r), d2.dot(&r));
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

/// The distance of the two pieces' cores, exact when they are disjoint.
fn feature_distance(a: &Piece, b: &Piece) -> f64 {
    let mut best = f64::INFINITY;
    for (x, y) in [(a, b), (b, a)] {
        for p in &x.vertices {
            for q in &y.vertices {
                best = best.min((p - q).norm());
            }
            for e in &y.edges {
                best = best.min(point_segment(p, &y.vertices[e[0]], &y.vertices[e[1]]));
            }
            for f in 0..y.faces.len() {
                best = best.min(point_polygon(p, y, f));
            }
        }
    }
    for e in &a.edges {
        for f in &b.edges {
            best = best.min(segment_segment(
                &a.vertices[e[0]],
                &a.vertices[e[1]],
                &b.vertices[f[0]],
                &b.vertices[f[1]],
            ));
        }
    }
    best
}

fn interval(points: &[Vec3d], axis: &Vec3d) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            let x = axis.dot(p);
            (lo.min(x), hi.max(x))
        })
}

/// The least overlap over the separating axes, or `None` when one
/// separates the cores.
fn depth(a: &Piece, b: &Piece) -> Option<f64> {
    // Each axis with the sides it may push along: `(axis, a_up, b_up)`:
    // `a_up` allows pushing A along `+axis` (overlap `bhi - alo`), `b_up`
    // B along `+axis` (overlap `ahi - blo`). A triangle's own normal
    // pushes the other piece to its front only (one-sided).
    let mut axes: Vec<(Vec3d, bool, bool)> = Vec::new();
    for (n, _) in &a.faces {
        axes.push((*n, a.dim != 2, true));
    }
    for (n, _) in &b.faces {
        axes.push((*n, true, b.dim != 2));
    }
    let dirs = |p: &Piece| -> Vec<Vec3d> {
        p.edges
            .iter()
            .map(|e| p.vertices[e[1]] - p.vertices[e[0]])
            .collect()
    };
    let (da, db) = (dirs(a), dirs(b));
    for x in &da {
        for y in &db {
            axes.push((x.cross(y), true, true));
        }
    }
    for (n, _) in a.faces.iter().chain(&b.faces) {
        for e in da.iter().chain(&db) {
            axes.push((n.cross(e), true, true));
        }
    }
    let mut least = f64::INFINITY;
    for (axis, a_up, b_up) in axes {
        let l = axis.norm();
        if l.is_nan() || l <= 1e-12 {
            continue;
        }
        let u = axis / l;
        let (alo, ahi) = interval(&a.vertices, &u);
        let (blo, bhi) = interval(&b.vertices, &u);
        if ahi < blo || bhi < alo {
            return None;
        }
        if a_up {
            least = least.min(bhi - alo);
        }
        if b_up {
            least = least.min(ahi - blo);
        }
    }
    Some(least)
}

/// The signed distance of the two pieces, skins included: the distance
/// when apart, minus the penetration depth when they overlap (a triangle
/// one-sided: its normal pushes the other piece only to its front).
pub fn signed_distance(a: &Piece, b: &Piece) -> f64 {
    let core = if a.dim + b.dim < 3 {
        feature_distance(a, b)
    } else {
        match depth(a, b) {
            Some(d) => -d,
            None => feature_distance(a, b),
        }
    };
    core - a.skin - b.skin
}

/// Whether every vertex of `piece` is on or behind the front plane of the
/// triangle `tri` (counter-clockwise normal): the one-sided admission.
pub fn wholly_behind(tri: &[Vec3d; 3], piece: &Piece) -> bool {
    let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
    !piece.vertices.iter().any(|v| n.dot(&(v - tri[0])) > 0.0)
}

/// What a certified march found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct March {
    /// The least signed distance minus the level seen (m).
    pub least_gap: f64,
    /// The time of the first sample below `level − slack`, if any: a late
    /// answer.
    pub first_below: Option<f64>,
    /// Samples taken.
    pub samples: usize,
    /// Samples whose step was the floor `min_step` (sampling, not a proof).
    pub floored: usize,
}

/// Marches `distance(t)` over `[start, end]` with the Lipschitz bound `lip`
/// (module docs), looking for a time where it is below `level − slack`; no
/// step is shorter than `min_step`.
pub fn march(
    distance: impl Fn(f64) -> f64,
    lip: f64,
    level: f64,
    slack: f64,
    start: f64,
    end: f64,
    min_step: f64,
) -> March {
    let mut out = March {
        least_gap: f64::INFINITY,
        first_below: None,
        samples: 0,
        floored: 0,
    };
    let mut t = start;
    loop {
        let g = distance(t) - level;
        out.samples += 1;
        out.least_gap = out.least_gap.min(g);
        if g < -slack {
            out.first_below = Some(t);
            return out;
        }
        if t >= end {
            return out;
        }
        let mut step = if lip > 0.0 {
            (g + slack) / lip
        } else {
            f64::INFINITY
        };
        if step < min_step {
            step = min_step;
            out.floored += 1;
        }
        t = (t + step).min(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_measures_known_distances() {
        let cube = Piece::cuboid(Vec3d::repeat(0.5));
        let tri = |z: f64| {
            Piece::triangle([
                Vec3d::new(-5.0, -5.0, z),
                Vec3d::new(5.0, -5.0, z),
                Vec3d::new(0.0, 5.0, z),
            ])
        };
        assert!((signed_distance(&cube, &tri(-0.75)) - 0.25).abs() < 1e-15);
        assert!((signed_distance(&cube, &tri(-0.4)) + 0.1).abs() < 1e-15);
        let ball = Piece::point(Vec3d::new(0.0, 0.0, 2.0), 0.5);
        assert!((signed_distance(&cube, &ball) - 1.0).abs() < 1e-15);
        let stick = Piece::segment(Vec3d::new(-1.0, 0.3, 0.0), Vec3d::new(1.0, 0.3, 0.0), 0.1);
        // The stick's axis passes through the cube 0.2 m inside its +y
        // face (the least overlap: 0.5 along z, 1.5 along x), and its skin
        // adds 0.1 m.
        assert!((signed_distance(&cube, &stick) + 0.3).abs() < 1e-15);
        let far = Piece::segment(Vec3d::new(3.0, 0.0, 0.0), Vec3d::new(3.0, 2.0, 0.0), 0.0);
        assert!((signed_distance(&ball, &far) - (13f64.sqrt() - 0.5)).abs() < 1e-15);
    }

    #[test]
    fn the_march_finds_a_dip_below_the_level() {
        // |t - 0.5| dips to zero at 0.5; level 0.1 is crossed at 0.4.
        let m = march(|t| (t - 0.5).abs(), 1.0, 0.1, 1e-9, 0.0, 1.0, 1e-6);
        let below = m.first_below.unwrap();
        assert!((0.4..0.4 + 1e-6).contains(&below), "{m:?}");
        let clear = march(|t| (t - 0.5).abs() + 0.2, 1.0, 0.1, 1e-9, 0.0, 1.0, 1e-6);
        assert!(clear.first_below.is_none() && clear.samples < 100);
    }
}
