//! Contact between two boxes, computed in box A's frame (box B turned by
//! `r` and centred at `t` there): the per-pair test of two placed boxes.
//!
//! Method: the separating-axis test of two oriented boxes (Gottschalk, Lin
//! and Manocha, "OBBTree", SIGGRAPH 1996): A's three face directions, B's
//! three, and the nine cross products of a direction of each, each axis's
//! separation `|t . L| - r_A(L) - r_B(L)` from the half extents. The same
//! preference as the general test of [`super::solid_solid`]: A's faces over
//! B's, faces over edges, unless beaten by [`AXIS_TOLERANCE_ABS`] plus
//! [`AXIS_TOLERANCE_REL`] of the pair size, and an edge axis within a degree
//! of a face normal takes that face ([`NEAR_FACE_AXIS_COS`]). The chosen
//! axis's contact: a face axis clips the other box's most anti-parallel
//! face to the reference face's rectangle (each clipped corner within the
//! margin a point, its depth below the reference face), an edge axis takes
//! one point between the two support edges. When that contact does not
//! carry the axis separation (an edge axis whose edges pass beside each
//! other, a face patch that misses the deepest corner: rare for two boxes),
//! the general test answers instead.
//!
//! Precision domain: `f64` in A's frame; B's pose relative to A's turned
//! once; nothing here allocates.

use parapet_math::{Mat3d, Vec3d};

use super::clip::{clip_polygon, CLIP_CAPACITY};
use super::closest::segment_segment;
use super::{
    within_margin, LocalManifold, AXIS_TOLERANCE_ABS, AXIS_TOLERANCE_REL, NEAR_FACE_AXIS_COS,
    PARALLEL_SIN_SQ,
};
use crate::solid::CUBOID_LOOPS;

/// Box B seen from box A's frame: half extents, rotation (B's frame to
/// A's: its columns are B's axes) and centre.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxPair {
    pub(crate) half_a: Vec3d,
    pub(crate) half_b: Vec3d,
    pub(crate) r: Mat3d,
    pub(crate) t: Vec3d,
}

/// The answer of the box pair: the manifold (A's frame, normal from A to
/// B), or `None` when the general test must answer.
pub(crate) fn cuboid_cuboid(p: &BoxPair, margin: f64) -> Option<LocalManifold> {
    let (ha, hb, r, t) = (&p.half_a, &p.half_b, &p.r, &p.t);
    let abs_r = r.map(f64::abs);
    let tol = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * (ha.norm() + hb.norm());
    // A's faces: axis e_i, B's radius sum_j |r_ij| hb_j.
    let (mut sep_a, mut axis_a) = (f64::NEG_INFINITY, 0);
    for i in 0..3 {
        let rb = abs_r.row(i).dot(&hb.transpose());
        let sep = t[i].abs() - ha[i] - rb;
        if sep > sep_a {
            (sep_a, axis_a) = (sep, i);
        }
    }
    if !within_margin(sep_a, margin) {
        return Some(LocalManifold::empty());
    }
    // B's faces: axis r_j, A's radius sum_i |r_ij| ha_i.
    let (mut sep_b, mut axis_b) = (f64::NEG_INFINITY, 0);
    for j in 0..3 {
        let ra = abs_r.column(j).dot(ha);
        let sep = r.column(j).dot(t).abs() - ra - hb[j];
        if sep > sep_b {
            (sep_b, axis_b) = (sep, j);
        }
    }
    if !within_margin(sep_b, margin) {
        return Some(LocalManifold::empty());
    }
    let (best_face, a_reference) = if sep_b > sep_a + tol {
        (sep_b, false)
    } else {
        (sep_a, true)
    };
    // Edge pairs: axis e_i x r_j.
    let mut edge: Option<(f64, usize, usize, Vec3d)> = None;
    for i in 0..3 {
        for j in 0..3 {
            let mut e = Vec3d::zeros();
            e[i] = 1.0;
            let axis = e.cross(&r.column(j));
            let len_sq = axis.norm_squared();
            if len_sq <= PARALLEL_SIN_SQ || len_sq == 0.0 {
                continue;
            }
            let axis = axis / len_sq.sqrt();
            let ra = axis.abs().dot(ha);
            let rb = (r.transpose() * axis).abs().dot(hb);
            let d = axis.dot(t);
            let sep = d.abs() - ra - rb;
            if sep > best_face + tol && edge.is_none_or(|(s, ..)| sep > s) {
                let n = if d < 0.0 { -axis } else { axis };
                edge = Some((sep, i, j, n));
            }
        }
    }
    if let Some((sep, ..)) = edge {
        if !within_margin(sep, margin) {
            return Some(LocalManifold::empty());
        }
    }
    let (contact, sep) = match edge {
        Some((sep, i, j, n)) => {
            let near_a = n.abs().max() >= NEAR_FACE_AXIS_COS;
            let near_b = (r.transpose() * n).abs().max() >= NEAR_FACE_AXIS_COS;
            if near_a || near_b {
                let face = if near_a {
                    a_face_contact(p, n.iamax(), margin)
                } else {
                    b_face_contact(p, (r.transpose() * n).iamax(), margin)
                };
                if face.deepest() < -sep - tol {
                    return None;
                }
                return Some(face);
            }
            (edge_contact(p, i, j, n, sep, tol)?, sep)
        }
        None if a_reference => (a_face_contact(p, axis_a, margin), sep_a),
        None => (b_face_contact(p, axis_b, margin), sep_b),
    };
    // A patch that does not carry the axis separation, or a separated pair
    // whose closest features may lie beside the faces: the general test.
    if contact.deepest() < -sep - tol || (sep > 0.0 && contact.is_empty()) {
        return None;
    }
    Some(contact)
}

/// The contact of the edge axis `n` (from A to B) built on A's direction
/// `i` and B's direction `j`: one point between the support edges, or
/// `None` when they do not cross along the axis.
fn edge_contact(
    p: &BoxPair,
    i: usize,
    j: usize,
    n: Vec3d,
    sep: f64,
    tol: f64,
) -> Option<LocalManifold> {
    let (ha, hb, r, t) = (&p.half_a, &p.half_b, &p.r, &p.t);
    // A's support edge along n: corners sign(n_k) ha_k, along axis i.
    let mut pa = Vec3d::zeros();
    for k in 0..3 {
        pa[k] = if n[k] < 0.0 { -ha[k] } else { ha[k] };
    }
    let (mut a0, mut a1) = (pa, pa);
    a0[i] = -ha[i];
    a1[i] = ha[i];
    // B's support edge along -n, in B's frame, along its axis j.
    let nb = r.transpose() * -n;
    let mut pb = Vec3d::zeros();
    for k in 0..3 {
        pb[k] = if nb[k] < 0.0 { -hb[k] } else { hb[k] };
    }
    let (mut b0, mut b1) = (pb, pb);
    b0[j] = -hb[j];
    b1[j] = hb[j];
    let (b0, b1) = (r * b0 + t, r * b1 + t);
    let (_, _, c1, c2) = segment_segment(a0, a1, b0, b1);
    let d = c1 - c2;
    if (d - n * n.dot(&d)).norm() > 2.0 * tol {
        return None;
    }
    Some(LocalManifold::single(n, (c1 + c2) * 0.5, -sep))
}

/// The face patch of reference box `h` (its own frame, at the origin) on
/// its face along axis `i` with outward normal `n` (`±e_i`), against the
/// incident box `(hi, r, t)` (its frame to the reference's): the incident
/// box's most anti-parallel face clipped to the reference face's rectangle,
/// each point within the margin, depth below the face; the incident box's
/// deepest corner joins when it lies over the face and the clip missed it.
fn face_patch(
    h: &Vec3d,
    i: usize,
    n: Vec3d,
    hi: &Vec3d,
    r: &Mat3d,
    t: &Vec3d,
    margin: f64,
) -> LocalManifold {
    // The incident face: the face of the incident box whose normal is most
    // anti-parallel to n (CUBOID_LOOPS order on ties).
    let local = r.transpose() * n;
    let (mut face, mut lowest) = (0, f64::INFINITY);
    for k in 0..3 {
        for (f, d) in [(2 * k, local[k]), (2 * k + 1, -local[k])] {
            if d < lowest {
                (face, lowest) = (f, d);
            }
        }
    }
    let corner = |c: usize| {
        let s = |bit: usize| if c & bit == 0 { -1.0 } else { 1.0 };
        r * Vec3d::new(s(1) * hi.x, s(2) * hi.y, s(4) * hi.z) + t
    };
    let mut a = [Vec3d::zeros(); CLIP_CAPACITY];
    let mut b = [Vec3d::zeros(); CLIP_CAPACITY];
    for (slot, &c) in a.iter_mut().zip(CUBOID_LOOPS[face].iter()) {
        *slot = corner(c);
    }
    let mut len = 4;
    for k in (0..3).filter(|&k| k != i) {
        for s in [1.0, -1.0] {
            len = clip_polygon(&a[..len], |x| s * x[k] - h[k], &mut b);
            std::mem::swap(&mut a, &mut b);
        }
    }
    let sign = n[i];
    let mut out = LocalManifold::with_normal(n);
    for &q in &a[..len] {
        let s = sign * q[i] - h[i];
        if within_margin(s, margin) {
            out.push(q - n * (s * 0.5), -s);
        }
    }
    // The deepest corner along -n (the incident box's support point
    // along -n, the positive half extent on a tie), when over the face.
    let mut deepest = *hi;
    for k in 0..3 {
        if local[k] > 0.0 {
            deepest[k] = -hi[k];
        }
    }
    let v = r * deepest + t;
    let s = sign * v[i] - h[i];
    if within_margin(s, margin) && -s > out.deepest() + AXIS_TOLERANCE_ABS {
        let tol = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * h.norm();
        let beyond = (0..3)
            .filter(|&k| k != i)
            .map(|k| (v[k].abs() - h[k]).max(0.0).powi(2))
            .sum::<f64>();
        if beyond <= tol * tol {
            out.push(v - n * (s * 0.5), -s);
        }
    }
    out
}

/// A's face along axis `i` (towards B) as the reference.
fn a_face_contact(p: &BoxPair, i: usize, margin: f64) -> LocalManifold {
    let mut n = Vec3d::zeros();
    n[i] = if p.t[i] < 0.0 { -1.0 } else { 1.0 };
    face_patch(&p.half_a, i, n, &p.half_b, &p.r, &p.t, margin)
}

/// B's face along its axis `j` (towards A) as the reference: the patch in
/// B's frame, moved to A's, with the normal from A to B.
fn b_face_contact(p: &BoxPair, j: usize, margin: f64) -> LocalManifold {
    // A in B's frame: rotation r^T, centre -r^T t.
    let rt = p.r.transpose();
    let ta = -(rt * p.t);
    let mut n = Vec3d::zeros();
    n[j] = if ta[j] < 0.0 { -1.0 } else { 1.0 };
    let in_b = face_patch(&p.half_b, j, n, &p.half_a, &rt, &ta, margin);
    let mut out = LocalManifold::with_normal(-(p.r * n));
    for &(q, depth) in in_b.points() {
        out.push(p.r * q + p.t, depth);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::{ContactScratch, PlacedShape};
    use parapet_geometry::Shape;
    use parapet_math::nalgebra::{Isometry3, Translation3, UnitQuaternion};
    use parapet_math::Vec3;

    /// SplitMix64: a seeded stream of test poses, independent of any crate.
    struct Stream(u64);

    impl Stream {
        fn unit(&mut self) -> f32 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
        }

        fn signed(&mut self) -> Vec3 {
            Vec3::new(self.unit(), self.unit(), self.unit()) * 2.0 - Vec3::repeat(1.0)
        }
    }

    fn deepest(m: &crate::contact::Manifold) -> f32 {
        m.points()
            .iter()
            .map(|p| p.depth)
            .fold(f32::NEG_INFINITY, f32::max)
    }

    /// Random box pairs, from clear to deep overlap: where the box pair
    /// answers, it agrees with the general solid test on whether there is a
    /// contact and on its depth (both take the least-overlap axis with the
    /// same preference, so they differ at most by the axis tolerance, plus
    /// f32 rounding of the reported depths); and it answers nearly all of
    /// them (the fallback is for edge axes whose edges pass beside each other).
    #[test]
    fn the_box_pair_agrees_with_the_general_solid_test() {
        let mut rng = Stream(7);
        let (mut contacts, mut fallbacks) = (0, 0);
        let mut scratch = ContactScratch::default();
        let margin = 0.02;
        for case in 0..20_000 {
            let ha = Vec3::repeat(0.1) + rng.signed().abs() * 0.9;
            let hb = Vec3::repeat(0.1) + rng.signed().abs() * 0.9;
            let turn = |rng: &mut Stream| UnitQuaternion::from_scaled_axis(rng.signed() * 3.0);
            let pa = Isometry3::from_parts(Translation3::from(rng.signed()), turn(&mut rng));
            let reach = (ha.norm() + hb.norm()) * 0.8;
            let pb = Isometry3::from_parts(
                Translation3::from(pa.translation.vector + rng.signed() * reach),
                turn(&mut rng),
            );
            let a = PlacedShape::place(&Shape::cuboid(ha).unwrap(), &pa).unwrap();
            let b = PlacedShape::place(&Shape::cuboid(hb).unwrap(), &pb).unwrap();
            let general = a.general_pair(&b, margin as f64, &mut scratch);
            let fast = a.pair(&b, margin, &mut scratch);
            let pair = a.box_pair(&b).unwrap();
            if cuboid_cuboid(&pair, margin as f64).is_none() {
                fallbacks += 1;
                continue;
            }
            assert_eq!(fast.is_empty(), general.is_empty(), "case {case}");
            if general.is_empty() {
                continue;
            }
            contacts += 1;
            let tol = AXIS_TOLERANCE_ABS + AXIS_TOLERANCE_REL * (ha.norm() + hb.norm()) as f64;
            let slack = tol as f32 + 1e-5;
            assert!(
                (deepest(&fast) - deepest(&general)).abs() <= slack,
                "case {case}: {fast:?} vs {general:?}"
            );
        }
        assert!(contacts > 5_000, "only {contacts} contacts");
        assert!(fallbacks * 50 < contacts, "{fallbacks} fallbacks");
    }
}
