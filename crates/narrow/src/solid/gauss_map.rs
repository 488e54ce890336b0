//! Gauss-map pruning of the edge-pair axes of a hull, a layer of
//! `sweep_solid_triangle` (see `solid_triangle`).
//!
//! Method: Gregorius, "The Separating Axis Test between Convex Polyhedra"
//! (GDC 2013). An edge pair gives a face of the Minkowski difference
//! `solid - triangle`, and so a separating axis worth testing, only when the
//! solid edge's arc on its Gauss map crosses the negated triangle edge's
//! arc; the other edge pairs are dropped before their axes are formed (see
//! [`gauss_candidates`] for the test and why it is exact over time for a
//! solid that only translates). Boxes are not pruned: their 9 edge-pair
//! axes on 4-vertex silhouettes cost less to test than to prune.
//!
//! Precision domain: the crossing test keeps an arc unless its product of
//! dot products exceeds [`GAUSS_ARC_SLACK`] of the edge's squared length,
//! which covers the merging of antipodal and parallel normals and all
//! roundoff: roundoff can only keep more axes, never drop a needed one.

use parapet_math::Vec3d;

use super::tables::{soa, SweepTables};
use super::{ConvexSolid, PARALLEL_DIRECTION_COS};

/// Most edge directions and most face normals of a solid whose edge-pair
/// axes are pruned on the Gauss map (a count; one bit of a `u64` mask per
/// direction, and the per-sweep dot products live in fixed stack arrays).
const MAX_PRUNED: usize = 64;

/// Arcs (direction class, normal index, normal index), how many of them
/// (the first) take both normals as stored, their normals and whether
/// pruning is on.
type Arcs = (Vec<(u16, u16, u16)>, usize, [Vec<f64>; 3], bool);

/// The Gauss-map arcs of a hull's edges: each edge of the solid with the
/// outward normals of its two faces and its direction class. Edges inside a
/// flat face (both normals equal, as the diagonals of a triangulated face)
/// bound no face pair and are left out. Pruning is off (`false`) unless
/// every edge is shared by exactly two faces and finds its class, and there
/// are at most [`MAX_PRUNED`] classes and faces.
pub(crate) fn hull_arcs(solid: &ConvexSolid) -> Arcs {
    let off = || (Vec::new(), 0, [Vec::new(), Vec::new(), Vec::new()], false);
    let (verts, edges) = (solid.vertices(), solid.edges());
    if edges.len() > MAX_PRUNED || solid.faces().len() > MAX_PRUNED {
        return off();
    }
    let normals: Vec<Vec3d> = (0..solid.faces().len()).map(|f| solid.normal(f)).collect();
    let list = solid.edge_list();
    let mut arcs = Vec::new();
    for (index, edge) in list.iter().enumerate() {
        // Shared by one face only, or by more than two (the edge list holds
        // a third face's side as a second edge of the same vertex pair).
        let (Some(fa), Some(fb)) = (edge.faces[0], edge.faces[1]) else {
            return off();
        };
        if list
            .get(index + 1)
            .is_some_and(|next| (next.a, next.b) == (edge.a, edge.b))
        {
            return off();
        }
        let (fa, fb) = (fa as u16, fb as u16);
        if normals[fa as usize].dot(&normals[fb as usize]) > PARALLEL_DIRECTION_COS {
            continue;
        }
        let dir = verts[edge.b] - verts[edge.a];
        let len = dir.norm();
        if !(len > 0.0) {
            return off();
        }
        let dir = dir / len;
        let Some(class) = edges
            .iter()
            .position(|u| u.dot(&dir).abs() > PARALLEL_DIRECTION_COS)
        else {
            return off();
        };
        // The antipodal edge of an edge already listed (normals `-a`,
        // `-b`, as in every centrally symmetric solid) crosses exactly the
        // same great circles: one of the two suffices.
        let (a, b) = (normals[fa as usize], normals[fb as usize]);
        let antipodal = |&&(c, ga, gb): &&(u16, u16, u16)| {
            let (ga, gb) = (normals[ga as usize], normals[gb as usize]);
            c as usize == class
                && ((-ga.dot(&a) > PARALLEL_DIRECTION_COS && -gb.dot(&b) > PARALLEL_DIRECTION_COS)
                    || (-ga.dot(&b) > PARALLEL_DIRECTION_COS
                        && -gb.dot(&a) > PARALLEL_DIRECTION_COS))
        };
        if !arcs.iter().any(|arc| antipodal(&arc)) {
            arcs.push((class as u16, fa, fb));
        }
    }
    // One normal of each antipodal or parallel pair stands for both (the
    // dot products of `-n` are those of `n` negated): `rep[f]` is the index
    // among the kept normals and whether `f` is its negation.
    let mut kept: Vec<Vec3d> = Vec::with_capacity(normals.len());
    let rep: Vec<(u16, bool)> = normals
        .iter()
        .map(|n| {
            let found = kept
                .iter()
                .position(|u| u.dot(n).abs() > PARALLEL_DIRECTION_COS);
            match found {
                Some(i) => (i as u16, kept[i].dot(n) < 0.0),
                None => {
                    kept.push(*n);
                    ((kept.len() - 1) as u16, false)
                }
            }
        })
        .collect();
    let mut same = Vec::with_capacity(arcs.len());
    let mut mixed = Vec::new();
    for (class, fa, fb) in arcs {
        let ((a, na), (b, nb)) = (rep[fa as usize], rep[fb as usize]);
        if na == nb {
            same.push((class, a, b));
        } else {
            mixed.push((class, a, b));
        }
    }
    let arcs_same = same.len();
    same.extend(mixed);
    (same, arcs_same, soa(&kept), true)
}

/// Relative slack of the Gauss-map crossing test (dimensionless): an arc is
/// kept unless `(a . e)(b . e)` exceeds this fraction of `|e|^2`. An arc
/// stands for its antipodal twin when their normals agree within
/// [`PARALLEL_DIRECTION_COS`] (an angle `delta` of at most 1.5e-6 rad), which
/// moves the product by at most about `2 delta |e|^2` = 3e-6 `|e|^2`, and
/// each of its two normals is stood for by a kept antipodal or parallel
/// normal within the same angle (see `hull_arcs`), which moves it by at most
/// another 3e-6 `|e|^2`; the slack covers both (6e-6 `|e|^2`) and all
/// roundoff, so a true crossing is never dropped (a larger slack only keeps
/// more axes).
const GAUSS_ARC_SLACK: f64 = 1.0e-5;

/// For each triangle edge `k`, the bit mask of the solid's edge direction
/// classes whose edge-pair axis with that edge can be a face of the
/// Minkowski difference `solid - triangle`: those with an edge on the
/// solid's silhouette seen along `e_k` (its two face normals on opposite
/// sides of the plane perpendicular to `e_k`, up to [`GAUSS_ARC_SLACK`]).
///
/// Gregorius, "The Separating Axis Test between Convex Polyhedra" (GDC
/// 2013): an edge pair gives a face of the Minkowski difference exactly when
/// the solid edge's arc on the Gauss map (between its two face normals `a`,
/// `b`) crosses the negated triangle edge's arc. A flat triangle's edge `k`
/// has as normals every `alpha n + beta m_k` with `beta >= 0` (`m_k` the
/// in-plane outward normal of the edge): a half great circle perpendicular
/// to the edge `e_k`. Negated, it is the half of the great circle
/// perpendicular to `e_k` with `u . m_k <= 0`. The arc `a -> b` crosses that
/// great circle iff `a . e_k` and `b . e_k` differ in sign, at
/// `u = |b . e_k| a + |a . e_k| b`, and the pair is a face iff also
/// `u . m_k <= 0`. Only the crossing is tested here (a relaxation that can
/// only keep more pairs): for a centrally symmetric solid (boxes, most
/// hulls) the antipodal edge of a crossing edge crosses at `-u`, so every
/// crossing class has a face on the right half anyway.
///
/// Why this is valid over time: the solid only translates, so the Minkowski
/// difference `M = solid - triangle` is one fixed polytope and the solid
/// meets the triangle at time `t` iff `M + t d` contains the origin (with
/// `d` the displacement). The SAT over time on the face normals of `M` alone
/// is therefore exact: while the origin is outside `M + t d`, some face
/// plane of `M` separates it. Any other axis `c` is a supporting direction
/// of `M` at a vertex or edge only, so its entry is never later and its
/// exit never earlier than the true contact interval; dropping it cannot
/// change the latest entry or earliest exit. An axis along which the solid
/// does not move and whose projections only touch is a supporting plane of
/// `M` through the origin's whole path; when that plane meets `M` in an edge
/// or a vertex, the path lies in that edge or vertex, so the adjacent face
/// planes also contain it and one of those face axes already separates.
pub(crate) fn gauss_candidates(solid: &SweepTables, e: &[Vec3d; 3], len2: &[f64; 3]) -> [u64; 3] {
    // The dot products live in a stack array sized to the solid's normal
    // count (a few size classes up to `MAX_PRUNED`): clearing a 64-entry
    // array for a 20-face hull cost about a tenth of a sweep.
    match solid.arc_normals[0].len() {
        0..=8 => gauss_masks::<8>(solid, e, len2),
        9..=16 => gauss_masks::<16>(solid, e, len2),
        17..=32 => gauss_masks::<32>(solid, e, len2),
        _ => gauss_masks::<MAX_PRUNED>(solid, e, len2),
    }
}

/// [`gauss_candidates`] with the face normals' dot products in an array of
/// `N` entries (`N` at least the number of normals); `e` are the triangle's
/// edges `v_(k+1) - v_k` and `len2` their squared lengths.
#[inline]
fn gauss_masks<const N: usize>(solid: &SweepTables, e: &[Vec3d; 3], len2: &[f64; 3]) -> [u64; 3] {
    let [nx, ny, nz] = &solid.arc_normals;
    let slack = len2.map(|l| GAUSS_ARC_SLACK * l);
    // An arc with exactly one normal negated: `(-x) y <= s` is `x y >= -s`.
    let neg_slack = slack.map(|s| -s);
    // Each face normal's dot products with the three triangle edges, one
    // array per edge (a layout the compiler vectorises).
    let mut de = [[0.0f64; N]; 3];
    for k in 0..3 {
        let ek = e[k];
        for (d, ((&x, &y), &z)) in de[k].iter_mut().zip(nx.iter().zip(ny).zip(nz)) {
            *d = ek.x * x + ek.y * y + ek.z * z;
        }
    }
    let mut masks = [0u64; 3];
    let (same, mixed) = solid.arcs.split_at(solid.arcs_same.min(solid.arcs.len()));
    for &(class, a, b) in same {
        // `N` is a power of two above every index: the mask changes no
        // index and spares the bounds checks.
        let (a, b) = (a as usize & (N - 1), b as usize & (N - 1));
        for k in 0..3 {
            masks[k] |= ((de[k][a] * de[k][b] <= slack[k]) as u64) << class;
        }
    }
    for &(class, a, b) in mixed {
        let (a, b) = (a as usize & (N - 1), b as usize & (N - 1));
        for k in 0..3 {
            masks[k] |= ((de[k][a] * de[k][b] >= neg_slack[k]) as u64) << class;
        }
    }
    masks
}

#[cfg(test)]
mod tests {
    use crate::solid::ConvexSolid;
    use crate::sweep::placement::Placement;
    use crate::sweep::sweep_solid_triangle;
    use crate::sweep::test_fixtures::{skewed_octahedron, xorshift};
    use crate::sweep::SweepOutcome;
    use parapet_math::{Quat, Vec3};

    #[test]
    fn gauss_map_pruning_changes_no_outcome() {
        // The same sweeps with and without pruning of the edge-pair axes:
        // identical outcomes (time, point, normal and axis, bit for bit),
        // over random boxes, an uneven icosahedron and a skewed octahedron,
        // random poses, motions and triangles, including the degenerate
        // case of a solid edge parallel to a triangle edge.
        let mut unit = xorshift(0x2545_f491_4f6c_dd1d);
        let p = 1.618_034f32;
        let ico: Vec<Vec3> = [
            (-1.0, p, 0.0),
            (1.0, p, 0.0),
            (-1.0, -p, 0.0),
            (1.0, -p, 0.0),
            (0.0, -1.0, p),
            (0.0, 1.0, p),
            (0.0, -1.0, -p),
            (0.0, 1.0, -p),
            (p, 0.0, -1.0),
            (p, 0.0, 1.0),
            (-p, 0.0, -1.0),
            (-p, 0.0, 1.0),
        ]
        .iter()
        .map(|&(x, y, z)| Vec3::new(0.2 * x, 0.15 * y, 0.1 * z))
        .collect();
        let ico_faces: [[u32; 3]; 20] = [
            [0, 11, 5],
            [0, 5, 1],
            [0, 1, 7],
            [0, 7, 10],
            [0, 10, 11],
            [1, 5, 9],
            [5, 11, 4],
            [11, 10, 2],
            [10, 7, 6],
            [7, 1, 8],
            [3, 9, 4],
            [3, 4, 2],
            [3, 2, 6],
            [3, 6, 8],
            [3, 8, 9],
            [4, 9, 5],
            [2, 4, 11],
            [6, 2, 10],
            [8, 6, 7],
            [9, 8, 1],
        ];
        let mut solids = vec![
            ConvexSolid::from_points(&ico, &ico_faces).unwrap(),
            skewed_octahedron(),
        ];
        let tables = |s: &ConvexSolid| s.tables().clone();
        assert!(solids
            .iter()
            .all(|s| tables(s).prune && !tables(s).arcs.is_empty()));
        // The icosahedron's 20 face normals in 10 antipodal pairs.
        assert_eq!(tables(&solids[0]).arc_normals[0].len(), 10);
        // The icosahedron's 30 edges in 15 antipodal pairs, the skewed
        // octahedron's 12 (none antipodal).
        assert_eq!(
            (tables(&solids[0]).arcs.len(), tables(&solids[1]).arcs.len()),
            (15, 12)
        );
        let mut compared = [0usize; 3];
        for case in 0..20_000 {
            if case % 1000 == 0 {
                let h = Vec3::new(0.05 + unit(), 0.05 + unit(), 0.05 + unit());
                solids.truncate(2);
                solids.push(ConvexSolid::from_cuboid(h).unwrap());
            }
            let solid = &solids[case % 3];
            let plain = solid.without_pruning();
            let v = |u: &mut dyn FnMut() -> f32| {
                Vec3::new(4.0 * u() - 2.0, 4.0 * u() - 2.0, 4.0 * u() - 2.0)
            };
            let mut tri = [v(&mut unit), v(&mut unit), v(&mut unit)];
            if case % 7 == 0 {
                // A triangle edge along the solid's first edge direction
                // (identity rotation below).
                let e = solid.edges()[0].cast::<f32>();
                tri[1] = tri[0] + 1.5 * e;
            }
            let start = v(&mut unit);
            let rot = if case % 7 == 0 {
                Quat::identity()
            } else {
                Quat::from_euler_angles(3.0 * unit(), 3.0 * unit(), 3.0 * unit())
            };
            let place = Placement::at(start, rot);
            let aim = v(&mut unit) * 0.5;
            let vel = (aim - start) * (0.5 + 2.0 * unit());
            let a = sweep_solid_triangle(solid, &place, vel, 1.0, &tri);
            let b = sweep_solid_triangle(&plain, &place, vel, 1.0, &tri);
            assert_eq!(a, b, "case {case}");
            match a {
                SweepOutcome::Hit(_) => compared[0] += 1,
                SweepOutcome::InitiallyTouching(_) => compared[1] += 1,
                _ => compared[2] += 1,
            }
        }
        // The random cases reach hits, initial contacts and misses.
        assert!(compared.iter().all(|&n| n > 100), "{compared:?}");
    }
}
