//! The contact point of a solid-triangle contact found by
//! `sweep_solid_triangle` (see `solid_triangle`).
//!
//! Method: at the contact time the solid and the triangle touch along the
//! contact normal; the contact region is where the solid's support feature
//! along `-normal` (a vertex, an edge or a face) meets the triangle's
//! support feature along `normal` (Ericson, *Real-Time Collision Detection*
//! 5.5.8 reports the same pair of supporting features). The point reported
//! is: a single support vertex of either side; the midpoint of the closest
//! points of two support edges; otherwise the mean of the points of each
//! support polygon that lie within the other one (seen along the normal),
//! or of all the support points when none does.
//!
//! Precision domain: support vertices within [`SUPPORT_TOLERANCE`] of the
//! length scale of the extreme projection belong to the feature; `f64` in
//! the solid's shape frame, the solid's vertices moved to the contact time.

use parapet_math::Vec3d;

use crate::solid::tables::SUPPORT_INLINE;
use crate::solid::ConvexSolid;

/// Support vertices within this fraction of the length scale of the
/// extreme projection belong to the contact feature (dimensionless).
pub(crate) const SUPPORT_TOLERANCE: f64 = 1.0e-9;

/// Points kept inline up to a small count (a contact feature is rarely
/// more than a face of a few vertices), on the heap beyond: no allocation
/// in the common case.
struct FewPoints {
    len: usize,
    inline: [Vec3d; 8],
    heap: Vec<Vec3d>,
}

impl FewPoints {
    fn new() -> Self {
        FewPoints {
            len: 0,
            inline: [Vec3d::zeros(); 8],
            heap: Vec::new(),
        }
    }

    fn push(&mut self, p: Vec3d) {
        if self.heap.is_empty() && self.len < self.inline.len() {
            self.inline[self.len] = p;
        } else {
            if self.heap.is_empty() {
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(p);
        }
        self.len += 1;
    }

    fn as_slice(&self) -> &[Vec3d] {
        if self.heap.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}

/// Whether `p` lies within the convex polygon `poly` (at least three
/// coplanar points, any order) seen along `n`.
fn inside_polygon(p: &Vec3d, poly: &[Vec3d], n: &Vec3d) -> bool {
    if poly.len() < 3 {
        return false;
    }
    let c = poly.iter().sum::<Vec3d>() / poly.len() as f64;
    // Order the points by angle around the centroid in the plane.
    let u = (poly[0] - c).cross(n).cross(n);
    let u = if u.norm() > 0.0 {
        u.normalize()
    } else {
        return false;
    };
    let w = n.cross(&u);
    let mut sorted: Vec<(f64, Vec3d)> = poly
        .iter()
        .map(|q| {
            let r = q - c;
            (r.dot(&w).atan2(r.dot(&u)), *q)
        })
        .collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let k = sorted.len();
    let sign = n.dot(&u.cross(&w)).signum();
    (0..k).all(|i| {
        let a = sorted[i].1;
        let b = sorted[(i + 1) % k].1;
        sign * (b - a).cross(&(p - a)).dot(n) >= 0.0
    })
}

/// The solid's support vertices along `dir` (those within `tol` of the
/// largest projection `dir . v`), moved by `shift`. Moving every vertex by
/// the same `shift` moves every projection by the same `dir . shift`, so the
/// support set is chosen on the unmoved vertices.
fn solid_support(solid: &ConvexSolid, shift: Vec3d, dir: &Vec3d, tol: f64, out: &mut FewPoints) {
    let [xs, ys, zs] = &solid.tables().soa;
    let proj = |((x, y), z): ((&f64, &f64), &f64)| dir.x * x + dir.y * y + dir.z * z;
    if xs.len() <= SUPPORT_INLINE {
        // One pass: the projections kept on the stack.
        let mut p = [0.0f64; SUPPORT_INLINE];
        let mut best = f64::NEG_INFINITY;
        for (q, v) in p.iter_mut().zip(xs.iter().zip(ys).zip(zs).map(proj)) {
            *q = v;
            best = if v > best { v } else { best };
        }
        for (v, q) in solid.vertices().iter().zip(&p) {
            if *q >= best - tol {
                out.push(v + shift);
            }
        }
        return;
    }
    let best = xs
        .iter()
        .zip(ys)
        .zip(zs)
        .map(proj)
        .fold(f64::NEG_INFINITY, f64::max);
    for (v, p) in solid
        .vertices()
        .iter()
        .zip(xs.iter().zip(ys).zip(zs).map(proj))
    {
        if p >= best - tol {
            out.push(v + shift);
        }
    }
}

/// A point of the contact region of the solid (its vertices moved by
/// `shift` to where they are at the contact time) and the triangle, with
/// `normal` from the triangle to the solid.
pub(crate) fn contact_point(
    solid: &ConvexSolid,
    shift: Vec3d,
    tri: &[Vec3d; 3],
    normal: &Vec3d,
    tol: f64,
) -> Vec3d {
    let mut s = FewPoints::new();
    solid_support(solid, shift, &-normal, tol, &mut s);
    let s = s.as_slice();
    if s.len() == 1 {
        return s[0];
    }
    let mut t = FewPoints::new();
    let p = tri.map(|q| normal.dot(&q));
    let best = p[0].max(p[1]).max(p[2]);
    for k in 0..3 {
        if p[k] >= best - tol {
            t.push(tri[k]);
        }
    }
    let t = t.as_slice();
    if t.len() == 1 {
        return t[0];
    }
    if s.len() == 2 && t.len() == 2 {
        let (a, b) = super::capsule_triangle::closest_params(s[0], s[1] - s[0], t[0], t[1] - t[0]);
        let p = s[0] + a * (s[1] - s[0]);
        let q = t[0] + b * (t[1] - t[0]);
        return 0.5 * (p + q);
    }
    let mut sum = Vec3d::zeros();
    let mut count = 0usize;
    for p in s {
        if inside_polygon(p, t, normal) {
            sum += p;
            count += 1;
        }
    }
    for p in t {
        if inside_polygon(p, s, normal) {
            sum += p;
            count += 1;
        }
    }
    if count == 0 {
        for p in s.iter().chain(t.iter()) {
            sum += p;
            count += 1;
        }
    }
    sum / count as f64
}
